//! The statistics of a table seen a piece at a time, for a run that does
//! not keep its table whole: the figures, the milestones and the rare
//! summary a whole table gives (`stats`, `milestones`, `rare_split`), from
//! counts kept as the values go by.

use serde::{Deserialize, Serialize};

use super::milestones::{Milestone, milestone_of};
use super::rare_split::{RareSplit, RareSummary, ValueHistogram, summary_of};
use super::stats::{HeapStats, heap_stats_of_range};

/// Counts of heaps 0..heaps, and the milestones due at chosen heaps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    heaps: u64,
    g0: Option<u32>,
    /// Heaps from 1 on, by value and heap parity (as a whole table's).
    hist: ValueHistogram,
    stats: HeapStats,
    /// The last heap of each value, at an even heap and at an odd one:
    /// the last rare heap under any split is the latest of those its
    /// split calls rare.
    last_at: Vec<[Option<u64>; 2]>,
    parity: Option<u32>,
    /// Heaps whose milestones are still to come (ascending), and those made.
    due: Vec<u64>,
    milestones: Vec<Milestone>,
}

impl Tally {
    /// Nothing counted yet; milestones due at the heaps `at`, under the
    /// code's position `parity`.
    pub fn new(parity: Option<u32>, at: &[u64]) -> Tally {
        let mut due = at.to_vec();
        due.sort_unstable();
        due.dedup();
        Tally {
            parity,
            due,
            ..Tally::default()
        }
    }

    /// Makes the milestones at the heaps of `at` not counted yet due too
    /// (a run resumed to a larger N).
    pub fn also_due(&mut self, at: &[u64]) {
        let heaps = self.heaps;
        self.due.extend(at.iter().filter(|&&h| h >= heaps));
        self.due.sort_unstable();
        self.due.dedup();
    }

    /// Heaps counted: 0..heaps.
    pub fn heaps(&self) -> u64 {
        self.heaps
    }

    /// Counts heaps `first..` with `values` (`first` is `heaps()`),
    /// making each milestone due among them.
    pub fn add(&mut self, first: u64, values: &[u16]) {
        assert_eq!(first, self.heaps, "a tally counts heaps in order");
        let end = first + values.len() as u64;
        let mut at = first;
        while at < end {
            let due = self.due.first().copied().filter(|&m| m < end);
            let to = due.map_or(end, |m| m + 1);
            self.count(
                (at, to),
                &values[(at - first) as usize..(to - first) as usize],
            );
            if due.is_some() {
                let made = self.milestone();
                self.milestones.push(made);
                self.due.remove(0);
            }
            at = to;
        }
    }

    /// Counts heaps a..b, with `values`.
    fn count(&mut self, (a, b): (u64, u64), values: &[u16]) {
        let piece = |x: usize, y: usize| &values[x - a as usize..y - a as usize];
        let stats = heap_stats_of_range(a as usize, b as usize, &piece);
        self.stats = std::mem::take(&mut self.stats).then(stats);
        for (n, &v) in (a..b).zip(values) {
            if n == 0 {
                self.g0 = Some(v.into());
            } else {
                self.hist.add(n, v.into());
            }
            let v = v as usize;
            if v >= self.last_at.len() {
                self.last_at.resize(v + 1, [None, None]);
            }
            self.last_at[v][(n & 1) as usize] = Some(n);
        }
        self.heaps = b;
    }

    /// The largest value, the P-positions and the first heap of each value.
    pub fn stats(&self) -> HeapStats {
        self.stats.clone()
    }

    /// The best split of the heaps counted, and its rare heaps.
    pub fn rare(&self) -> (RareSplit, RareSummary) {
        summary_of(&self.hist, self.g0, self.parity, |s| self.last_rare(s))
    }

    /// The milestones made so far.
    pub fn milestones(&self) -> &[Milestone] {
        &self.milestones
    }

    /// The last rare heap counted under `split`.
    fn last_rare(&self, split: RareSplit) -> Option<u64> {
        let rare_at = |(v, last): (usize, &[Option<u64>; 2])| {
            let at = |p: u64| last[p as usize].filter(|_| split.is_rare(p, v as u32));
            at(0).max(at(1))
        };
        self.last_at.iter().enumerate().filter_map(rare_at).max()
    }

    /// The milestone at the last heap counted (at least one).
    pub fn milestone(&self) -> Milestone {
        let n = self.heaps - 1;
        let last = |split| self.last_rare(split);
        milestone_of(
            n,
            (&self.hist, &self.stats),
            self.g0.unwrap_or(0),
            self.parity,
            last,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::milestones::milestones;
    use crate::analysis::rare_split::summarize;
    use crate::analysis::stats::heap_stats;

    /// A table with rare values late, values past 255, and position parity:
    /// counted in uneven pieces, the figures of the whole table.
    #[test]
    fn a_table_counted_piece_by_piece_gives_the_whole_tables_figures() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let g: Vec<u16> = (0..300_000u64)
            .map(|n| match next() % 1000 {
                0 => 256 + (next() % 50) as u16,
                1..=3 if n > 250_000 => 3,
                _ => ((n % 7) ^ (next() % 2)) as u16,
            })
            .collect();
        for parity in [None, Some(1)] {
            let at = [1024, 4096, 100_000, 262_144, 299_999];
            let mut tally = Tally::new(parity, &at);
            let mut first = 0;
            for len in [1, 5000, 70_000, 130_000, 94_999].into_iter().cycle() {
                let end = (first + len).min(g.len());
                tally.add(first as u64, &g[first..end]);
                first = end;
                if first == g.len() {
                    break;
                }
            }
            assert_eq!(tally.heaps(), g.len() as u64);
            assert_eq!(tally.stats(), heap_stats(&g));
            assert_eq!(tally.rare(), summarize(&g, parity), "{parity:?}");
            assert_eq!(
                tally.milestones(),
                milestones(&g, parity, &at),
                "{parity:?}"
            );
        }
    }
}
