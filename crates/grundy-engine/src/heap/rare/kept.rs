//! What a run keeps of its table when it does not keep it whole: the
//! values of the heaps below a prefix and of a window of the last heaps,
//! and what a heap needed that lies outside them (`Beyond`).
//!
//! For heap n in a block from s on, the rare-value engine reads the take
//! options n − j and the rare pairs' partners n − j − r (at most the
//! window back while j + r, for the last rare heap r, is at most the
//! window), and the split pairs (a, n − j − a) its scans reach: both parts
//! are kept while neither lies among the heaps given back (`Gap`). Scans
//! stop at the first pair that has one there (`Gap::deepest`); a heap whose
//! scan needed more is never guessed: the run stops before it.

use grundy_core::kernel::rare::RareCode;
use std::ops::Range;

/// The heaps whose values a run keeps: those below `prefix`, and the last
/// `window` below the block being computed (with the block itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Kept {
    pub prefix: usize,
    pub window: usize,
}

/// What heap `heap` needed that the run did not keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beyond {
    /// Its scan of split pairs reached the smaller part `part` (the larger
    /// one `part + j` or more below the heap).
    Scan { heap: u64, part: u64 },
    /// A take or a rare heap's partner `distance` heaps below it.
    Partner { heap: u64, distance: u64 },
}

/// The heaps a run gave back so far, `from..to` (none when `to` is not
/// past `from`): those between its prefix and its window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gap {
    pub from: usize,
    pub to: usize,
}

impl Gap {
    pub fn is_empty(self) -> bool {
        self.to <= self.from
    }

    /// The largest smaller part a such that every pair (a′, m − a′) with
    /// a′ from 1 to a has both parts outside the gap (`usize::MAX`: all).
    /// A part a′ is in it from `from` on, and its partner from
    /// a′ = m + 1 − `to` on until m − `from`.
    pub fn deepest(self, m: usize) -> usize {
        if self.is_empty() || m <= self.from {
            return usize::MAX;
        }
        let first_lost = self.from.min((m + 1).saturating_sub(self.to).max(1));
        first_lost - 1
    }

    /// Whether any of `heaps` was given back.
    pub fn meets(self, heaps: Range<usize>) -> bool {
        !self.is_empty() && heaps.start < self.to && heaps.end > self.from
    }
}

impl Kept {
    /// What a run keeps when it is given a prefix, a window or both: either
    /// alone keeps as many heaps in the other (none: the whole table).
    pub fn either(prefix: Option<usize>, window: Option<usize>) -> Option<Kept> {
        let either = prefix.or(window)?;
        Some(Kept {
            prefix: prefix.unwrap_or(either),
            window: window.unwrap_or(either),
        })
    }

    /// The farthest back a heap's marks read: a take's j, or j + r for the
    /// last rare heap r.
    pub fn reach(code: &RareCode, last_rare: Option<usize>) -> usize {
        let take = code.takes.iter().map(|&(j, _)| j).max().unwrap_or(0);
        let split = largest_split(code);
        take.max(last_rare.map_or(0, |r| split + r))
    }

    /// Whether the middle pairs of the heaps below `end` (parts near half
    /// the heap, `middle::middle_pairs`: at most half the heap, the
    /// largest `diff` and `pairs` more) lie in the prefix.
    pub fn holds_middle(&self, code: &RareCode, end: usize, pairs: usize) -> bool {
        let diff = code.splits.iter().map(|&(_, d)| d).max().unwrap_or(0);
        end / 2 + diff + pairs + 2 <= self.prefix
    }

    /// What a heap from `s` on needs that was given back (`gap`), before
    /// any is computed: a take or a rare heap's partner there.
    pub fn short_for(
        code: &RareCode,
        last_rare: Option<usize>,
        s: usize,
        gap: Gap,
    ) -> Option<Beyond> {
        let distance = Kept::reach(code, last_rare);
        gap.meets(s.saturating_sub(distance)..s)
            .then_some(Beyond::Partner {
                heap: s as u64,
                distance: distance as u64,
            })
    }
}

impl Beyond {
    /// The heap that needed it.
    pub fn heap(&self) -> u64 {
        match *self {
            Beyond::Scan { heap, .. } | Beyond::Partner { heap, .. } => heap,
        }
    }

    /// The least prefix and window that would have held what it needed,
    /// given what `kept` holds and the code's largest split offset `j`.
    pub fn would_do(&self, kept: Kept, code: &RareCode) -> (u64, u64) {
        let j = largest_split(code) as u64;
        let (prefix, window) = (kept.prefix as u64, kept.window as u64);
        match *self {
            Beyond::Scan { part, .. } => (prefix.max(part + 1), window.max(part + j)),
            Beyond::Partner { distance, .. } => (prefix, window.max(distance)),
        }
    }

    /// What it needed, in words.
    pub fn what(&self) -> String {
        match *self {
            Beyond::Scan { heap, part } => {
                format!("the scan of heap {heap}'s split pairs reached the smaller part {part}")
            }
            Beyond::Partner { heap, distance } => format!(
                "heap {heap} reads the heap {distance} below it (a take or a rare heap's partner)"
            ),
        }
    }
}

/// The largest j of the code's breaking digits (0: none).
fn largest_split(code: &RareCode) -> usize {
    code.splits.iter().map(|&(j, _)| j).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::game::Code;

    #[test]
    fn scans_stop_where_both_parts_of_a_pair_are_still_kept() {
        let officers = RareCode::new(&Code::parse("0.6").unwrap()).unwrap();
        let kept = |prefix, window| Kept { prefix, window };
        // Heaps 1000..8000 given back.
        let gap = Gap {
            from: 1000,
            to: 8000,
        };
        assert_eq!(Gap::default().deepest(50_000), usize::MAX);
        // Below the gap's start every pair is kept.
        assert_eq!(gap.deepest(1000), usize::MAX);
        // m = 8500: parts from 501 on have their partner in the gap.
        assert_eq!(gap.deepest(8500), 500);
        // m = 20,000: the smaller part reaches the gap first.
        assert_eq!(gap.deepest(20_000), 999);
        // m = 5000: partners in the gap at once.
        assert_eq!(gap.deepest(5000), 0);
        let brute = |m: usize| {
            let lost = |x: usize| (1000..8000).contains(&x);
            (1..=m / 2)
                .find(|&a| lost(a) || lost(m - a))
                .map_or(usize::MAX, |a| a - 1)
        };
        for m in [999, 1000, 1001, 1500, 2500, 8000, 8999, 9000, 9001, 30_000] {
            let (d, b) = (gap.deepest(m), brute(m));
            assert!(d == b || (d >= m / 2 && b == usize::MAX), "m {m}: {d} {b}");
        }
        // A heap whose last rare heap is 300 reads 301 back in Officers.
        assert_eq!(Kept::reach(&officers, Some(300)), 301);
        assert!(Kept::short_for(&officers, Some(300), 8301, gap).is_none());
        let short = Kept::short_for(&officers, Some(300), 8300, gap).unwrap();
        assert_eq!(
            short,
            Beyond::Partner {
                heap: 8300,
                distance: 301
            }
        );
        assert_eq!(short.would_do(kept(1000, 300), &officers), (1000, 301));
        let scan = Beyond::Scan {
            heap: 70_000,
            part: 2048,
        };
        assert_eq!(scan.would_do(kept(1000, 500), &officers), (2049, 2049));
    }
}
