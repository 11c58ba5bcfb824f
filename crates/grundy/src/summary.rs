//! The summary `grundy octal` prints of a sequence, as lines: the command,
//! a Rust program and the Python module's `repr` say it alike.

use grundy_core::analysis::milestones::Milestone;
use grundy_core::analysis::period::Period;
use grundy_core::analysis::rare_split::{RareSplit, RareSummary};
use grundy_core::analysis::stats::HeapStats;
use grundy_core::export::nim_digit;
use grundy_engine::{HeapEngine, RanOn};

/// What the summary says of a run.
pub struct Summary<'a> {
    /// The code, as CGSuite writes it.
    pub code: &'a str,
    /// The least difference two-heap splits must leave (1: none asked).
    pub min_diff: u32,
    /// The last heap.
    pub n: u64,
    /// Where it ran.
    pub ran: &'a RanOn,
    /// The engine that computed the last values.
    pub engine: HeapEngine,
    /// Seconds spent computing.
    pub seconds: f64,
    /// G of the first heaps (100 at most: the line shows them).
    pub first: &'a [u16],
    /// Whether more heaps follow them.
    pub more: bool,
    /// The largest value, the P-positions, the first heap of each value.
    pub stats: &'a HeapStats,
    /// The rare/common split and its rare heaps.
    pub rare: &'a RareSummary,
    /// The period found (none: none).
    pub period: Option<Period>,
}

impl Summary<'_> {
    /// The lines, each a label then what it says.
    pub fn lines(&self) -> Vec<String> {
        let min_diff = match self.min_diff {
            0 => String::new(),
            d => format!(" (min-diff {d})"),
        };
        let backend = match &self.ran.adapter {
            Some(a) => format!("{} ({a})", self.ran.backend),
            None => self.ran.backend.to_string(),
        };
        let engine = self.engine.describe();
        let digits: String = self.first.iter().take(100).map(|&v| nim_digit(v)).collect();
        let more = if self.more { "…" } else { "" };
        let s = self.stats;
        vec![
            format!("code        {}{min_diff}", self.code),
            format!("heaps       0..={}", self.n),
            format!("backend     {backend}, {engine}, {:.3} s", self.seconds),
            format!("G(0..)      {digits}{more}"),
            format!(
                "max value   {} (first at heap {}); {} P-positions",
                s.max_value, s.first_max_at, s.p_positions
            ),
            self.p_positions_line(),
            self.first_heaps_line(),
            format!(
                "rare        mask {}: {} rare heaps{}",
                RareSplit::parse(&self.rare.rare_mask)
                    .map_or_else(|| self.rare.rare_mask.clone(), |split| split.describe()),
                self.rare.rare_count,
                self.rare
                    .last_rare
                    .map_or(String::new(), |h| format!(", the last at {h}"))
            ),
            self.period_line(),
        ]
    }

    fn p_positions_line(&self) -> String {
        let listed: Vec<String> = self
            .stats
            .first_p_positions
            .iter()
            .take(20)
            .map(u64::to_string)
            .collect();
        let more = if self.stats.p_positions > listed.len() as u64 {
            ", …"
        } else {
            ""
        };
        format!("P-positions {}{more}", listed.join(", "))
    }

    fn first_heaps_line(&self) -> String {
        let firsts = self.stats.first_heap_with_value.iter().enumerate().take(16);
        let firsts: Vec<String> = firsts
            .map(|(v, h)| match h {
                Some(h) => format!("{v}@{h}"),
                None => format!("{v}@-"),
            })
            .collect();
        let legend = if firsts.iter().any(|f| f.ends_with('-')) {
            format!("value@heap; -: none up to heap {}", self.n)
        } else {
            "value@heap".to_string()
        };
        format!("first heap  {} ({legend})", firsts.join(" "))
    }

    fn period_line(&self) -> String {
        match self.period {
            Some(p) => format!(
                "period      {} from heap {} ({})",
                p.period,
                p.preperiod,
                if p.certified {
                    "certified"
                } else {
                    "apparent: the periodicity theorem does not cover this code"
                }
            ),
            None => format!("period      none found up to heap {}", self.n),
        }
    }
}

/// The summary's table of milestones: a header, then a line per heap.
pub fn milestone_lines(milestones: &[Milestone]) -> Vec<String> {
    if milestones.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "{:<11} {:>12} {:>6} {:>12} {:>8} {:>9} {:>9} {:>12}",
        "milestones", "n", "max", "first at", "P-pos", "mask", "rare", "last rare"
    )];
    for m in milestones {
        let last = m.last_rare.map_or("-".to_string(), |h| h.to_string());
        lines.push(format!(
            "{:<11} {:>12} {:>6} {:>12} {:>8} {:>9} {:>9} {:>12}",
            "", m.n, m.max_value, m.first_max_at, m.p_positions, m.rare_mask, m.rare_count, last
        ));
    }
    lines
}
