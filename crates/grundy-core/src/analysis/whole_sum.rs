//! Values of sums by search over the whole sum. Under misère play a sum's
//! value does not follow from its parts' (docs/misere.md), so a position
//! made of parts (the heaps a split leaves, rectangles side by side,
//! nim-heaps beside a heap for the genus) is valued over every move of
//! every part, each leaving the sum with that part replaced by what the
//! move leaves of it.
//!
//! Positions are remembered by the sorted multiset of their parts: the
//! order of a sum's parts does not change its moves. A part without a move
//! is left out: it never moves, so the sum with it has the game tree of
//! the sum without it. Nothing else is assumed of the game.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use crate::fast_map::{FastMap, MaskHasher};

use crate::game::Convention;

/// A set hashed as `fast_map`'s maps are.
type FastSet<K> = HashSet<K, BuildHasherDefault<MaskHasher>>;

/// The parts of a game's sums, each named by a number, and their moves.
pub trait Parts {
    /// Every move of part `part`: `visit` gets the parts it leaves (none:
    /// the part is gone).
    fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32]));
}

/// The search stopped: remembering one more position would pass the
/// limit it was given (`full`), or its caller asked it to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    pub positions: usize,
    pub full: bool,
}

/// Bytes a walk (`SumSearch::reachable`) holds for a position of `len`
/// parts, generously: the key's allocation rounded up, its copy on the
/// walk's stack, and a hash slot twice over (a table doubles as it grows).
fn walk_bytes(len: usize) -> u64 {
    2 * (4 * len as u64).next_multiple_of(16).max(16) + 2 * 16 + 16
}

/// Positions remembered between two looks at the caller's stop.
const LOOK_EVERY: usize = 1 << 12;

/// Bytes one remembered position takes, about: its key (a vector header
/// and an allocation of a few parts), its value and the map's slot.
pub const POSITION_BYTES: u64 = 96;

/// The positions a walk over sums has met (`SumSearch::walk`), the bytes
/// they hold, and the most of each it may hold.
pub struct Walk {
    seen: FastSet<Box<[u32]>>,
    held: u64,
    most_positions: usize,
    most_bytes: u64,
}

impl Walk {
    /// A walk that stops (`full`) before it holds more than `positions`
    /// positions (a search's limit, so a walk that ends fits that search)
    /// or more than `bytes` (each counted as its parts and a slot,
    /// `walk_bytes`).
    pub fn within(positions: usize, bytes: u64) -> Walk {
        Walk {
            seen: FastSet::default(),
            held: 0,
            most_positions: positions,
            most_bytes: bytes,
        }
    }

    /// The distinct positions met.
    pub fn positions(&self) -> usize {
        self.seen.len()
    }

    /// Whether `key` is new to the walk (it is then held), or why the
    /// walk stops: it would pass its most, or `stop` says so.
    fn meet(&mut self, key: &[u32], stop: &dyn Fn() -> bool) -> Result<bool, Stopped> {
        if self.seen.contains(key) {
            return Ok(false);
        }
        self.held += walk_bytes(key.len());
        let positions = self.seen.len();
        let full = self.held > self.most_bytes || positions >= self.most_positions;
        if full || (positions.is_multiple_of(LOOK_EVERY) && stop()) {
            return Err(Stopped { positions, full });
        }
        self.seen.insert(key.into());
        Ok(true)
    }
}

/// Whether a memo of `positions` may remember one more within `limit`: a
/// full memo, or a stop asked for (`stop`, looked at every few thousand
/// positions), ends the search.
pub fn room_for_one_more(
    positions: usize,
    limit: usize,
    stop: &dyn Fn() -> bool,
) -> Result<(), Stopped> {
    if positions >= limit {
        return Err(Stopped {
            positions,
            full: true,
        });
    }
    if positions.is_multiple_of(LOOK_EVERY) && stop() {
        return Err(Stopped {
            positions,
            full: false,
        });
    }
    Ok(())
}

/// Whether `part` has no move, remembered in `dead`.
fn dead_in<P: Parts>(dead: &mut FastMap<u32, bool>, parts: &P, part: u32) -> bool {
    *dead.entry(part).or_insert_with(|| {
        let mut moves = false;
        parts.moves(part, &mut |_| moves = true);
        !moves
    })
}

/// A position's options laid end to end in one list (two allocations a
/// position, not one an option).
#[derive(Default)]
struct Options {
    parts: Vec<u32>,
    /// Where each option ends in `parts`.
    ends: Vec<usize>,
}

impl Options {
    fn iter(&self) -> impl Iterator<Item = &[u32]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.parts[a..b])
    }
}

/// The values of sums of `P`'s parts under one convention, remembered.
pub struct SumSearch<'a, P: Parts> {
    parts: P,
    stop: &'a dyn Fn() -> bool,
    convention: Convention,
    memo: FastMap<Vec<u32>, u32>,
    /// Whether each part met has no move.
    dead: FastMap<u32, bool>,
    limit: usize,
}

impl<'a, P: Parts> SumSearch<'a, P> {
    /// A search remembering at most `limit` positions, stopping early when
    /// `stop` says so (it is asked every few thousand positions).
    pub fn new(
        parts: P,
        convention: Convention,
        limit: usize,
        stop: &'a dyn Fn() -> bool,
    ) -> SumSearch<'a, P> {
        SumSearch {
            parts,
            stop,
            convention,
            memo: FastMap::default(),
            dead: FastMap::default(),
            limit,
        }
    }

    /// Positions remembered so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The value of the sum of `parts` (in any order).
    pub fn value(&mut self, parts: &[u32]) -> Result<u32, Stopped> {
        let key = self.canonical(parts.to_vec());
        self.value_of(key)
    }

    /// The parts with a move, sorted.
    fn canonical(&mut self, mut sum: Vec<u32>) -> Vec<u32> {
        sum.retain(|&p| !self.is_dead(p));
        sum.sort_unstable();
        sum
    }

    fn is_dead(&mut self, part: u32) -> bool {
        dead_in(&mut self.dead, &self.parts, part)
    }

    /// The positions one move leaves from `key` (a move of each distinct
    /// part once), each as the search remembers it: parts with a move,
    /// sorted.
    fn options(&mut self, key: &[u32]) -> Options {
        let mut out = Options::default();
        let (parts, dead) = (&self.parts, &mut self.dead);
        for (i, &part) in key.iter().enumerate() {
            if i > 0 && key[i - 1] == part {
                continue;
            }
            parts.moves(part, &mut |left| {
                let start = out.parts.len();
                out.parts.extend_from_slice(&key[..i]);
                out.parts.extend_from_slice(&key[i + 1..]);
                let live = left.iter().filter(|&&p| !dead_in(dead, parts, p));
                out.parts.extend(live);
                out.parts[start..].sort_unstable();
                out.ends.push(out.parts.len());
            });
        }
        out
    }

    /// The positions reachable from the sum of `parts`, itself included,
    /// by a walk that values none of them: `None` once the positions held
    /// pass `bytes` (each counted as its parts and a slot, `walk_bytes`). A
    /// search valuing that sum remembers exactly these (`value_of` values
    /// every option of every position it meets), in a larger memo. Within
    /// a larger sum they are met again beside the rest, so they bound that
    /// sum's search from below, and the product of its components' counts
    /// from above.
    pub fn reachable(&mut self, parts: &[u32], bytes: u64) -> Option<usize> {
        let mut walk = Walk::within(usize::MAX, bytes);
        let never = || false;
        self.walk(&mut walk, parts, &never).ok()?;
        Some(walk.positions())
    }

    /// Adds to `walk` the positions reachable from the sum of `parts` that
    /// it has not met, valuing none: so a walk from every sum a search
    /// will value counts exactly the positions that search remembers.
    /// Stopped once the walk would pass its most (`full`), or when `stop`
    /// says so (asked every few thousand positions).
    pub fn walk(
        &mut self,
        walk: &mut Walk,
        parts: &[u32],
        stop: &dyn Fn() -> bool,
    ) -> Result<(), Stopped> {
        let start: Box<[u32]> = self.canonical(parts.to_vec()).into();
        let mut next = Vec::new();
        if walk.meet(&start, stop)? {
            next.push(start);
        }
        while let Some(key) = next.pop() {
            for option in self.options(&key).iter() {
                if walk.meet(option, stop)? {
                    next.push(option.into());
                }
            }
        }
        Ok(())
    }

    /// Room in the memo for `positions` in all, made at once (a count
    /// made first, `walk`), instead of by doubling as it fills.
    pub fn reserve(&mut self, positions: usize) {
        self.memo
            .reserve(positions.min(self.limit).saturating_sub(self.memo.len()));
    }

    fn value_of(&mut self, key: Vec<u32>) -> Result<u32, Stopped> {
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        let options = self.options(&key);
        let has_move = !options.ends.is_empty();
        let mut seen: Vec<u64> = Vec::new();
        for next in options.iter() {
            let v = match self.memo.get(next) {
                Some(&v) => v as usize,
                None => self.value_of(next.to_vec())? as usize,
            };
            if seen.len() <= v / 64 {
                seen.resize(v / 64 + 1, 0);
            }
            seen[v / 64] |= 1 << (v % 64);
        }
        let mex = (0..).find(|&v| seen.get(v / 64).is_none_or(|w| w >> (v % 64) & 1 == 0));
        let g = self.convention.value(has_move, mex.unwrap_or(0) as u32);
        room_for_one_more(self.memo.len(), self.limit, self.stop)?;
        self.memo.insert(key, g);
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim-heaps: part n moves to any smaller heap.
    struct Nim;

    impl Parts for Nim {
        fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32])) {
            for smaller in 0..part {
                match smaller {
                    0 => visit(&[]),
                    s => visit(&[s]),
                }
            }
        }
    }

    #[test]
    fn normal_sums_are_the_xor_and_misere_sums_bouton_s_rule() {
        let mut normal = SumSearch::new(Nim, Convention::Normal, 1 << 20, &|| false);
        let mut misere = SumSearch::new(Nim, Convention::Misere, 1 << 20, &|| false);
        for a in 0..6u32 {
            for b in 0..6 {
                for c in 0..5 {
                    let heaps = [a, b, c];
                    assert_eq!(normal.value(&heaps).unwrap(), a ^ b ^ c);
                    let big = heaps.iter().any(|&h| h >= 2);
                    let ones = heaps.iter().filter(|&&h| h == 1).count();
                    let p = match big {
                        true => a ^ b ^ c == 0,
                        false => ones % 2 == 1,
                    };
                    assert_eq!(misere.value(&heaps).unwrap() == 0, p, "{heaps:?}");
                }
            }
        }
        assert_eq!(misere.value(&[]).unwrap(), 1, "no move: misère value 1");
    }

    #[test]
    fn the_walk_counts_what_the_search_remembers() {
        // Nim heaps 2 and 3 leave heaps a ≤ 2 and b ≤ 3: 12 pairs, and 9
        // multisets of live heaps ({1}, {2} and {1, 2} are met twice).
        for heaps in [vec![2, 3], vec![4, 4, 1], vec![5, 2, 2, 1]] {
            let mut walk = SumSearch::new(Nim, Convention::Misere, 1 << 20, &|| false);
            let mut search = SumSearch::new(Nim, Convention::Misere, 1 << 20, &|| false);
            search.value(&heaps).unwrap();
            assert_eq!(
                walk.reachable(&heaps, 1 << 30),
                Some(search.positions()),
                "{heaps:?}"
            );
        }
        let mut walk = SumSearch::new(Nim, Convention::Misere, 1 << 20, &|| false);
        assert_eq!(walk.reachable(&[2, 3], 1 << 30), Some(9));
        // {} , four of one part and four of two: 9 positions, 720 bytes.
        let held = walk_bytes(0) + 4 * walk_bytes(1) + 4 * walk_bytes(2);
        assert_eq!(walk.reachable(&[2, 3], held), Some(9));
        assert_eq!(walk.reachable(&[2, 3], held - 1), None);
    }

    #[test]
    fn one_walk_from_several_sums_counts_what_one_search_of_them_remembers() {
        let sums = [vec![2, 3], vec![4, 1], vec![3, 3, 2], vec![5]];
        let never = || false;
        let mut walk = Walk::within(usize::MAX, u64::MAX);
        let mut walker = SumSearch::new(Nim, Convention::Misere, 1 << 20, &never);
        let mut search = SumSearch::new(Nim, Convention::Misere, 1 << 20, &never);
        for sum in &sums {
            walker.walk(&mut walk, sum, &never).unwrap();
            search.value(sum).unwrap();
        }
        assert_eq!(walk.positions(), search.positions());
        // One position fewer allowed: the walk stops full, holding that many.
        let most = walk.positions() - 1;
        let mut short = Walk::within(most, u64::MAX);
        let stopped = sums
            .iter()
            .try_for_each(|sum| walker.walk(&mut short, sum, &never))
            .unwrap_err();
        assert!(stopped.full);
        assert_eq!(short.positions(), most);
    }

    #[test]
    fn a_full_memo_or_the_caller_stops_the_search() {
        let mut small = SumSearch::new(Nim, Convention::Misere, 10, &|| false);
        let full = Stopped {
            positions: 10,
            full: true,
        };
        assert_eq!(small.value(&[5, 6, 7]), Err(full));
        let mut asked = SumSearch::new(Nim, Convention::Misere, 1 << 20, &|| true);
        let stopped = asked.value(&[5, 6, 7]).unwrap_err();
        assert!(!stopped.full);
    }
}
