//! What a run keeps of its table when it does not keep it whole: the
//! values of the heaps below a prefix and of a window of the last heaps,
//! and what a heap needed that lies outside them (`Beyond`).
//!
//! For heap n in a block from s on, the rare-value engine reads the take
//! options n − j and the rare pairs' partners n − j − r (at most the
//! window back while j + r, for the last rare heap r, is at most the
//! window), and the split pairs (a, n − j − a) its scans reach: both parts
//! are kept while a is below the prefix and at most the window less j.
//! Scans stop there (`Kept::deepest`); a heap whose scan needed more is
//! never guessed: the run stops before it.

use grundy_core::kernel::rare::RareCode;

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

impl Kept {
    /// The largest smaller part a scan may read: a pair (a, m − a), with
    /// m = n − j at least s − j, has both parts kept when a is below the
    /// prefix and at most the window less j.
    pub fn deepest(&self, code: &RareCode) -> usize {
        let j = code.splits.iter().map(|&(j, _)| j).max().unwrap_or(0);
        self.prefix
            .saturating_sub(1)
            .min(self.window.saturating_sub(j))
    }

    /// The farthest back a heap's marks read: a take's j, or j + r for the
    /// last rare heap r.
    pub fn reach(code: &RareCode, last_rare: Option<usize>) -> usize {
        let take = code.takes.iter().map(|&(j, _)| j).max().unwrap_or(0);
        let split = code.splits.iter().map(|&(j, _)| j).max().unwrap_or(0);
        take.max(last_rare.map_or(0, |r| split + r))
    }

    /// Whether the middle pairs of the heaps below `end` (parts near half
    /// the heap, `middle::middle_pairs`: at most half the heap, the
    /// largest `diff` and `pairs` more) lie in the prefix.
    pub fn holds_middle(&self, code: &RareCode, end: usize, pairs: usize) -> bool {
        let diff = code.splits.iter().map(|&(_, d)| d).max().unwrap_or(0);
        end / 2 + diff + pairs + 2 <= self.prefix
    }

    /// What a heap from `s` on needs that is not kept, before any is
    /// computed: a partner past the window.
    pub fn short_for(&self, code: &RareCode, last_rare: Option<usize>, s: usize) -> Option<Beyond> {
        let distance = Kept::reach(code, last_rare);
        (distance > self.window).then_some(Beyond::Partner {
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
        let j = code.splits.iter().map(|&(j, _)| j).max().unwrap_or(0) as u64;
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

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::game::Code;

    #[test]
    fn scans_stop_where_both_parts_of_a_pair_are_still_kept() {
        // Grundy's game: split only (j = 0); Officers: take 1 then split.
        let grundy = RareCode::new(&Code::parse("4!.0").unwrap()).unwrap();
        let officers = RareCode::new(&Code::parse("0.6").unwrap()).unwrap();
        let kept = |prefix, window| Kept { prefix, window };
        assert_eq!(kept(1000, 5000).deepest(&grundy), 999);
        assert_eq!(kept(1000, 500).deepest(&grundy), 500);
        assert_eq!(kept(1000, 500).deepest(&officers), 499);
        // A heap whose last rare heap is 300 reads 301 back in Officers.
        assert_eq!(Kept::reach(&officers, Some(300)), 301);
        assert!(kept(1000, 301).short_for(&officers, Some(300), 9).is_none());
        let short = kept(1000, 300).short_for(&officers, Some(300), 9).unwrap();
        assert_eq!(
            short,
            Beyond::Partner {
                heap: 9,
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
