//! How many sums a search over whole sums of heaps (`whole_sum`) can
//! remember, counted before it starts, so a run says what it may need.
//!
//! The search remembers each position it meets once, by the sorted
//! multiset of its live heaps (heaps with a move; the others are left
//! out). No move adds counters (a split keeps or lowers the total), so
//! every position met from a sum of t counters is a multiset of live heaps
//! totalling at most t: counting those multisets (partitions into the live
//! heap sizes) bounds the search from above. A heap's own descendants are
//! such a multiset of at most its counters, and equal heaps are
//! interchangeable, which bounds a sum of many heaps more tightly. These
//! are bounds, not estimates: the search may meet far fewer positions
//! (Dawson's Kayles to heap 40 meets one in six), never more.

use crate::analysis::whole_sum::{Parts, SumSearch};
use crate::game::Code;

/// Counters past which the count is not made: the bound saturates (the
/// multisets of 4,096 counters number about 10^69, past any memory).
const MOST_COUNTERS: u64 = 1 << 12;

/// The multisets of a code's live heaps, counted by their total.
#[derive(Clone, Debug)]
pub struct HeapSums {
    /// `within[t]`: the multisets of live heaps totalling at most t
    /// counters, the empty one included (saturating at `u128::MAX`).
    within: Vec<u128>,
}

/// Whether a heap of `h` of `code` has a move.
fn live(code: &Code, h: u64) -> bool {
    let mut any = false;
    code.for_each_move(h, 1, &mut |_, _| any = true);
    any
}

impl HeapSums {
    /// The counts for sums of `code`'s heaps of up to `counters` counters
    /// in all (more than 4,096 counters count as unbounded).
    pub fn of(code: &Code, counters: u64) -> HeapSums {
        let top = counters.min(MOST_COUNTERS) as usize;
        // exactly[t]: multisets totalling exactly t, by one live size at a time.
        let mut exactly = vec![0u128; top + 1];
        exactly[0] = 1;
        for size in 1..=top {
            if !live(code, size as u64) {
                continue;
            }
            for t in size..=top {
                exactly[t] = exactly[t].saturating_add(exactly[t - size]);
            }
        }
        let within = exactly
            .iter()
            .scan(0u128, |total, &e| {
                *total = total.saturating_add(e);
                Some(*total)
            })
            .collect();
        HeapSums { within }
    }

    /// The positions met from any sum of at most `counters` counters, at
    /// most (`u128::MAX`: past what was counted).
    pub fn within(&self, counters: u64) -> u128 {
        usize::try_from(counters)
            .ok()
            .and_then(|t| self.within.get(t))
            .copied()
            .unwrap_or(u128::MAX)
    }

    /// The positions met from the sum of `heaps`, at most: the fewer of
    /// the multisets within its total and the product, over each heap
    /// size, of the multisets of its copies' descendants.
    pub fn from_heaps(&self, heaps: &[u64]) -> u128 {
        let mut sorted = heaps.to_vec();
        sorted.sort_unstable();
        let product = sorted.chunk_by(|a, b| a == b).fold(1u128, |p, copies| {
            p.saturating_mul(multisets(self.within(copies[0]), copies.len() as u128))
        });
        let total = heaps.iter().fold(0u64, |t, &h| t.saturating_add(h));
        product.min(self.within(total))
    }

    /// The positions met by the genus table to heap `n` with superscripts
    /// γ0 … γ`depth`, at most: each sum a heap's descendants beside a
    /// heaps of 2 and b heaps of 1 with a + b ≤ depth (`analysis::genus`).
    pub fn genus_table(&self, n: u64, depth: usize) -> u128 {
        let d = depth as u128;
        self.within(n).saturating_mul((d + 1) * (d + 2) / 2)
    }

    /// The last heap up to `n` whose genus table is bound to fit in
    /// `limit` positions (`None`: not even heap 0's).
    pub fn genus_table_fits_to(&self, n: u64, depth: usize, limit: usize) -> Option<u64> {
        let fits = |h: u64| self.genus_table(h, depth) <= limit as u128;
        if !fits(0) {
            return None;
        }
        // The bound grows with the heap: the last heap that fits, by halves.
        let (mut fit, mut past) = (0u64, n.min(MOST_COUNTERS + 1).saturating_add(1));
        while past - fit > 1 {
            let mid = fit + (past - fit) / 2;
            match fits(mid) {
                true => fit = mid,
                false => past = mid,
            }
        }
        Some(fit)
    }
}

/// The positions a search over the whole sum of `heaps` of `code` meets,
/// at most (`None`: too many to count): `HeapSums::from_heaps` on the
/// counts up to their total.
pub fn heaps_bound(code: &Code, heaps: &[u64]) -> Option<u128> {
    let total = heaps.iter().fold(0u64, |t, &h| t.saturating_add(h));
    let bound = HeapSums::of(code, total).from_heaps(heaps);
    (bound < u128::MAX).then_some(bound)
}

/// Bounds on the positions a search over the whole sum of some parts
/// remembers, from each part's own walk (`SumSearch::reachable`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walked {
    /// Whether every part's walk stayed within the bytes it was given:
    /// where one did not, the search, which holds those positions and
    /// more, cannot fit in them either.
    pub fits: bool,
    /// The most positions one part reaches alone: the search meets them
    /// all beside the other parts.
    pub at_least: usize,
    /// The product, over the distinct parts, of the multisets of their
    /// copies' positions (`None`: a walk did not end, or too many to
    /// count).
    pub at_most: Option<u128>,
}

/// Each distinct part of `parts` walked alone, holding at most `bytes`,
/// on `search`'s parts.
pub fn walked<P: Parts>(search: &mut SumSearch<P>, parts: &[u32], bytes: u64) -> Walked {
    let mut sorted = parts.to_vec();
    sorted.sort_unstable();
    let (mut at_least, mut at_most) = (1usize, Some(1u128));
    for copies in sorted.chunk_by(|a, b| a == b) {
        let Some(alone) = search.reachable(&copies[..1], bytes) else {
            return Walked {
                fits: false,
                at_least,
                at_most: None,
            };
        };
        at_least = at_least.max(alone);
        at_most = at_most
            .map(|n| n.saturating_mul(multisets(alone as u128, copies.len() as u128)))
            .filter(|&n| n < u128::MAX);
    }
    Walked {
        fits: true,
        at_least,
        at_most,
    }
}

/// The multisets of `m` things of `kinds` kinds: C(kinds + m − 1, m),
/// saturating at `u128::MAX`.
fn multisets(kinds: u128, m: u128) -> u128 {
    let mut c: u128 = 1;
    for i in 1..=m {
        // c = C(kinds + i − 1, i), exact at each step.
        match c.checked_mul(kinds.saturating_add(i - 1)) {
            Some(product) if kinds < u128::MAX => c = product / i,
            _ => return u128::MAX,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::genus::{HeapsAndNimHeaps, heap_genera_by_search};
    use crate::analysis::whole_sum::SumSearch;
    use crate::game::Convention;
    use crate::hooks::Silent;

    fn code(text: &str) -> Code {
        Code::parse(text).unwrap()
    }

    #[test]
    fn live_heaps_count_as_partitions() {
        // Kayles: every heap of 1 or more moves, so the multisets within t
        // counters are the partitions of 0..=t: 1, 1, 2, 3, 5, 7 sum to 19.
        assert_eq!(HeapSums::of(&code("0.77"), 5).within(5), 19);
        // Dawson's Kayles: a heap of 1 has no move, so these are the
        // partitions into parts of 2 or more, which within t number p(t):
        // p(10) = 42, p(40) = 37,338.
        let dawson = HeapSums::of(&code("0.07"), 40);
        assert_eq!((dawson.within(10), dawson.within(40)), (42, 37_338));
        // Past what was counted: unbounded.
        assert_eq!(dawson.within(41), u128::MAX);
    }

    #[test]
    fn multisets_are_binomials_and_saturate() {
        assert_eq!(multisets(3, 2), 6); // {aa, ab, ac, bb, bc, cc}
        assert_eq!(multisets(10, 0), 1);
        assert_eq!(multisets(1, 1000), 1);
        assert_eq!(multisets(u128::MAX / 2, 3), u128::MAX);
    }

    #[test]
    fn the_search_never_meets_more_than_the_bound() {
        for text in [
            "0.07", "0.77", "0.137", "4.7", "0.26", "4!.0", "0.[3]", "0.5", "0.16",
        ] {
            let c = code(text);
            let sums = HeapSums::of(&c, 64);
            let found = heap_genera_by_search(&c, (16, 3), 1 << 22, &Silent);
            assert_eq!(found.stopped_at, None, "{text}");
            let bound = sums.genus_table(16, 3);
            assert!(
                found.sums as u128 <= bound,
                "{text}: {} > {bound}",
                found.sums
            );
            for heaps in [vec![9, 9, 9], vec![3, 5, 7, 11], vec![12, 1, 1, 4]] {
                let mut search = SumSearch::new(
                    HeapsAndNimHeaps::new(&c),
                    Convention::Misere,
                    1 << 22,
                    &|| false,
                );
                let parts: Vec<u32> = heaps.iter().map(|&h| HeapsAndNimHeaps::heap(h)).collect();
                search.value(&parts).unwrap();
                let bound = sums.from_heaps(&heaps);
                assert!(search.positions() as u128 <= bound, "{text} {heaps:?}");
            }
        }
    }

    #[test]
    fn copies_of_a_heap_are_bound_by_multisets_of_its_descendants() {
        // Kayles, three heaps of 2: each leaves a multiset within 2
        // counters ({2}, {1, 1}, {1} or nothing: 4 kinds), so at most
        // C(6, 3) = 20 positions, fewer than the 30 multisets within 6
        // counters. The search meets 10: one heap of 2 never leaves {1, 1}.
        let kayles = code("0.77");
        let sums = HeapSums::of(&kayles, 6);
        assert_eq!(sums.within(6), 30);
        assert_eq!(sums.from_heaps(&[2, 2, 2]), 20);
        let mut search = SumSearch::new(
            HeapsAndNimHeaps::new(&kayles),
            Convention::Misere,
            100,
            &|| false,
        );
        search.value(&[4, 4, 4]).unwrap();
        assert_eq!(search.positions(), 10);
    }

    #[test]
    fn parts_walked_alone_bound_the_sum_from_both_sides() {
        // Dawson's Kayles: heaps 6, 6, 9 and 14, each walked alone.
        let dawson = code("0.07");
        let parts: Vec<u32> = [6, 6, 9, 14]
            .iter()
            .map(|&h| HeapsAndNimHeaps::heap(h))
            .collect();
        let mut walk = SumSearch::new(
            HeapsAndNimHeaps::new(&dawson),
            Convention::Misere,
            1 << 22,
            &|| false,
        );
        let bounds = walked(&mut walk, &parts, 1 << 30);
        let mut search = SumSearch::new(
            HeapsAndNimHeaps::new(&dawson),
            Convention::Misere,
            1 << 22,
            &|| false,
        );
        search.value(&parts).unwrap();
        let met = search.positions();
        let mut fourteen = SumSearch::new(
            HeapsAndNimHeaps::new(&dawson),
            Convention::Misere,
            1 << 22,
            &|| false,
        );
        fourteen.value(&parts[3..]).unwrap();
        assert_eq!(
            bounds.at_least,
            fourteen.positions(),
            "heap 14 reaches the most alone"
        );
        assert!(bounds.at_least <= met && met as u128 <= bounds.at_most.unwrap());
        assert!(bounds.fits);
        // Too few bytes for what heap 14 reaches alone: the search cannot fit.
        let capped = walked(&mut walk, &parts, 1000);
        assert_eq!((capped.fits, capped.at_most), (false, None));
    }

    #[test]
    fn the_last_heap_that_fits_is_where_the_bound_passes_the_limit() {
        let dawson = HeapSums::of(&code("0.07"), 100);
        // Depth 6: 28 pairs of nim-heaps; p(20) = 627 (17,556), p(21) = 792.
        assert_eq!(dawson.genus_table(20, 6), 17_556);
        assert_eq!(dawson.genus_table_fits_to(100, 6, 17_556), Some(20));
        assert_eq!(dawson.genus_table_fits_to(100, 6, 17_555), Some(19));
        assert_eq!(dawson.genus_table_fits_to(15, 6, 17_556), Some(15));
        assert_eq!(dawson.genus_table_fits_to(100, 6, 27), None);
    }
}
