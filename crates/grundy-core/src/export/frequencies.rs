//! Frequency files: a sequence's statistics at each milestone heap, as
//! solvers of octal games publish them — for each N a comment line with
//! the milestone's figures, then one `value count` line per value (heaps
//! 0..=N), a blank line between milestones. `#` lines are comments to
//! numpy (`loadtxt`), pandas (`comment="#"`) and R (`comment.char`).

use std::io::{self, Write};

use crate::analysis::milestones::Milestone;

/// Writes the milestones of `code`'s sequence.
pub fn write(w: &mut dyn Write, code: &str, milestones: &[Milestone]) -> io::Result<()> {
    writeln!(
        w,
        "# grundy: frequencies of {code}'s values over heaps 0..=n at each n; \"value count\" lines"
    )?;
    for (i, m) in milestones.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        let last = m.last_rare.map_or("-".to_string(), |h| h.to_string());
        writeln!(
            w,
            "# n {}: max {} first at {}; {} P-positions; rare mask {}: {} rare, last rare {last}",
            m.n, m.max_value, m.first_max_at, m.p_positions, m.rare_mask, m.rare_count
        )?;
        for (v, count) in m.frequencies.iter().enumerate() {
            writeln!(w, "{v} {count}")?;
        }
    }
    Ok(())
}
