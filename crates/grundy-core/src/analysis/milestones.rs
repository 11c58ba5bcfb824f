//! A table's statistics at several heaps at once, as hunters of periods
//! publish them at every power of two: at heap N, what a run to exactly N
//! reports (heaps 0..=N) — the frequency of every value, the largest
//! value and its first heap, the P-positions, the best rare split, its
//! rare heaps and the last of them.
//!
//! One pass over the table: the counts of heaps up to one milestone are
//! those up to the one before plus the heaps between, each stretch
//! counted a piece per thread.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::rare_split::{self, RareSplit, ValueHistogram};
use super::stats::{HeapStats, heap_stats_of_range};

/// The statistics of heaps 0..=`n`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Milestone {
    pub n: u64,
    pub max_value: u16,
    /// The first heap whose value is `max_value`.
    pub first_max_at: u64,
    pub p_positions: u64,
    /// The best split over heaps 1..=n, in hex (`0x1ee`; `p0`/`p1`: the
    /// mask's parity flips on even or odd heaps).
    pub rare_mask: String,
    /// Rare heaps, heap 0 included when it is rare.
    pub rare_count: u64,
    pub last_rare: Option<u64>,
    /// `frequencies[v]`: heaps in 0..=n whose value is v (up to the largest).
    pub frequencies: Vec<u64>,
}

/// Where a run records its milestones: every power of two from
/// `FIRST_POWER` to its last heap, or the heaps listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatsAt {
    PowersOfTwo,
    Heaps(Vec<u64>),
}

/// The first power of two `StatsAt::PowersOfTwo` records (smaller ones say
/// nothing a reader looks for).
pub const FIRST_POWER: u64 = 1 << 10;

impl StatsAt {
    /// `pow2`, or heaps separated by commas (`65536,1000000`).
    pub fn parse(text: &str) -> Result<StatsAt, String> {
        if text.trim() == "pow2" {
            return Ok(StatsAt::PowersOfTwo);
        }
        let heap = |h: &str| {
            h.trim().parse::<u64>().map_err(|_| {
                format!("{h:?}: expected pow2 or heaps separated by commas, e.g. 65536,1000000")
            })
        };
        let heaps = text
            .split(',')
            .map(heap)
            .collect::<Result<Vec<u64>, String>>()?;
        Ok(StatsAt::Heaps(heaps))
    }

    /// The milestones of a run whose last heap is `last`.
    pub fn heaps(&self, last: u64) -> Vec<u64> {
        match self {
            StatsAt::PowersOfTwo => powers_of_two(FIRST_POWER, last),
            StatsAt::Heaps(heaps) => heaps.iter().copied().filter(|&h| h <= last).collect(),
        }
    }
}

/// The powers of two from `from` to `last` (both included when powers):
/// the milestones a run to heap `last` passes.
pub fn powers_of_two(from: u64, last: u64) -> Vec<u64> {
    (0..64)
        .map(|k| 1u64 << k)
        .filter(|&p| p >= from && p <= last)
        .collect()
}

/// The milestones at the heaps `at` below `len` (sorted, each once) of a
/// table of `len` values whose heaps a..b `piece` gives; `parity` as
/// `rare_split::summarize` takes it.
pub fn milestones_by_piece<T: Copy + Into<u32>, P: AsRef<[T]>>(
    len: u64,
    piece: impl Fn(usize, usize) -> P + Sync,
    parity: Option<u32>,
    at: &[u64],
) -> Vec<Milestone> {
    let mut at: Vec<u64> = at.iter().copied().filter(|&n| n < len).collect();
    at.sort_unstable();
    at.dedup();
    let Some(&first) = at.first() else {
        return Vec::new();
    };
    let g0: u32 = piece(0, 1).as_ref()[0].into();
    let mut hist = ValueHistogram::of_range(1, first as usize + 1, &piece);
    let mut stats = heap_stats_of_range(0, first as usize + 1, &piece);
    let mut done = first + 1;
    let mut out = Vec::with_capacity(at.len());
    for n in at {
        if n + 1 > done {
            let (a, b) = (done as usize, n as usize + 1);
            hist = hist.merge(ValueHistogram::of_range(a, b, &piece));
            stats = stats.then(heap_stats_of_range(a, b, &piece));
            done = n + 1;
        }
        out.push(milestone(n, &hist, &stats, g0, parity, &piece));
    }
    out
}

/// The milestone at `n` from the counts of heaps 1..=n and the statistics
/// of heaps 0..=n.
fn milestone<T: Copy + Into<u32>, P: AsRef<[T]>>(
    n: u64,
    hist: &ValueHistogram,
    stats: &HeapStats,
    g0: u32,
    parity: Option<u32>,
    piece: &(impl Fn(usize, usize) -> P + Sync),
) -> Milestone {
    let last = |split| last_rare_before(n + 1, piece, split);
    milestone_of(n, (hist, stats), g0, parity, last)
}

/// The milestone at `n` from the counts of heaps 1..=n, the statistics of
/// heaps 0..=n, G(0), and the last rare heap up to n under a split.
pub fn milestone_of(
    n: u64,
    (hist, stats): (&ValueHistogram, &HeapStats),
    g0: u32,
    parity: Option<u32>,
    last: impl FnOnce(RareSplit) -> Option<u64>,
) -> Milestone {
    let (_, summary) = rare_split::summary_of(hist, Some(g0), parity, last);
    let mut frequencies = hist.counts();
    frequencies.truncate(stats.max_value as usize + 1);
    frequencies.resize(stats.max_value as usize + 1, 0);
    frequencies[g0 as usize] += 1;
    Milestone {
        n,
        max_value: stats.max_value,
        first_max_at: stats.first_max_at,
        p_positions: stats.p_positions,
        rare_mask: summary.rare_mask,
        rare_count: summary.rare_count,
        last_rare: summary.last_rare,
        frequencies,
    }
}

/// Heaps read at a time looking back for the last rare heap.
const BACK: usize = 1 << 16;

/// The last rare heap below `end`, looked for from the end back a stretch
/// at a time (it is usually near the end; when far back, the stretches
/// before it are read once).
fn last_rare_before<T: Copy + Into<u32>, P: AsRef<[T]>>(
    end: u64,
    piece: &(impl Fn(usize, usize) -> P + Sync),
    split: RareSplit,
) -> Option<u64> {
    let mut b = end as usize;
    while b > 0 {
        let a = b.saturating_sub(BACK);
        let found = rare_split::last_rare_in(a as u64, piece(a, b).as_ref(), split);
        if found.is_some() {
            return found;
        }
        b = a;
    }
    None
}

/// Milestones of a table held whole in memory.
pub fn milestones<T: Copy + Into<u32> + Sync>(
    g: &[T],
    parity: Option<u32>,
    at: &[u64],
) -> Vec<Milestone> {
    milestones_by_piece(g.len() as u64, |a, b| &g[a..b], parity, at)
}

/// Writes the milestones of `code`'s sequence as a frequency file: for
/// each heap a comment line with its figures, then one `value count` line
/// per value, a blank line between heaps. `#` lines are comments to numpy
/// (`loadtxt`), pandas (`comment="#"`) and R (`comment.char`).
pub fn write_frequencies(
    w: &mut dyn Write,
    code: &str,
    milestones: &[Milestone],
) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::rare_split::summarize;
    use crate::analysis::stats::heap_stats;

    fn table(len: u32) -> Vec<u16> {
        (0..len)
            .map(|n| ((n.wrapping_mul(2654435761) >> 7) % 29) as u16 ^ ((n % 3 == 0) as u16 * 64))
            .collect()
    }

    #[test]
    fn each_milestone_is_the_summary_of_the_table_cut_there() {
        let g = table(300_000);
        for parity in [None, Some(0), Some(1)] {
            let at = [0, 1, 2, 5, 1024, 65_535, 65_536, 131_072, 299_999, 300_000];
            let got = milestones(&g, parity, &at);
            assert_eq!(got.len(), 9, "heap 300000 is past the table");
            for m in got {
                let cut = &g[..=m.n as usize];
                let (_, rare) = summarize(cut, parity);
                let stats = heap_stats(cut);
                assert_eq!(m.rare_mask, rare.rare_mask, "n {}", m.n);
                assert_eq!(
                    (m.rare_count, m.last_rare),
                    (rare.rare_count, rare.last_rare)
                );
                assert_eq!(
                    (m.max_value, m.first_max_at),
                    (stats.max_value, stats.first_max_at)
                );
                assert_eq!(m.p_positions, stats.p_positions);
                for (v, &count) in m.frequencies.iter().enumerate() {
                    let counted = cut.iter().filter(|&&x| x as usize == v).count() as u64;
                    assert_eq!(count, counted, "n {} value {v}", m.n);
                }
            }
        }
    }

    #[test]
    fn stats_at_reads_pow2_or_a_list_and_names_what_it_refuses() {
        assert_eq!(StatsAt::parse("pow2"), Ok(StatsAt::PowersOfTwo));
        assert_eq!(StatsAt::PowersOfTwo.heaps(5000), vec![1024, 2048, 4096]);
        let listed = StatsAt::parse("65536, 100").unwrap();
        assert_eq!(listed.heaps(70_000), vec![65_536, 100]);
        assert_eq!(listed.heaps(1000), vec![100]);
        let err = StatsAt::parse("64k").unwrap_err();
        assert!(err.contains("\"64k\"") && err.contains("pow2"), "{err}");
    }

    #[test]
    fn powers_of_two_between_bounds() {
        assert_eq!(powers_of_two(1000, 5000), vec![1024, 2048, 4096]);
        assert_eq!(powers_of_two(1, 4), vec![1, 2, 4]);
        assert!(powers_of_two(5, 7).is_empty());
    }
}
