//! The split pairs nearest the middle of each heap of the next block,
//! collected while a block goes in order: most heaps then need no scan.

use super::bits::words_for;
use super::scan::{BYTE_TABLE, Pairs};
use crate::heap::rare::simd::wide_bits;
use crate::heap::storage::store::{Store, Values};
use crate::heap::storage::table::Value;
use grundy_core::kernel::rare::RareCode;
use rayon::prelude::*;
use std::sync::atomic::AtomicU32;

/// Split pairs per breaking digit the middle pass reads for each heap.
pub(super) const MIDDLE_PAIRS: usize = 32;

/// For each heap of a block, the values of its split pairs nearest the
/// middle (a near m/2: both parts far below the heap, known long before
/// it). Where the block's own heaps move c (`.1777`), the heaps go in
/// order and their scans are what is left to share: these values, collected
/// on the other cores while the block before runs, are most of what a scan
/// looks for, so it reads pairs itself only for the rest.
pub(super) struct MiddleHits {
    pub(super) first: usize,
    pub(super) words: usize,
    pub(super) sets: Vec<u64>,
    /// Heaps whose scan these values made unnecessary.
    pub(super) settled: AtomicU32,
}

impl MiddleHits {
    /// The middle pairs of heaps `heaps` with both parts below `known`,
    /// reading G(x) from `table[x - start]`, whose values are at most `max`.
    pub(super) fn collect<V: Values>(
        code: &RareCode,
        table: V,
        start: usize,
        known: usize,
        heaps: std::ops::Range<usize>,
        max: u32,
    ) -> MiddleHits {
        let words = words_for(max);
        let mut sets = vec![0u64; heaps.len() * words];
        // Each digit's pairs: parts a ascending beside parts m − a descending.
        let runs = |n: usize| {
            middle_pairs(code, n, known).map(|(a, b)| {
                let low = table.range(a.start - start, a.end - start);
                let high = table.range(b.start - start, b.end - start);
                (low, high)
            })
        };
        sets.par_chunks_mut(words)
            .zip(heaps.clone())
            .for_each(|(hits, n)| {
                if max < 64 {
                    // Every pair's value is below 64: registers, no table.
                    let bits = |(low, high): (V, V)| match (low.exact(), high.exact()) {
                        (Some(l), Some(h)) => {
                            let bytes = V::Unit::bytes(l).zip(V::Unit::bytes(h));
                            let wide = bytes.and_then(|(l, h)| wide_bits::pair_bits(l, h));
                            wide.unwrap_or_else(|| pair_bits(l, h))
                        }
                        _ => pair_bits(&low.wide(), &high.wide()),
                    };
                    hits[0] = runs(n).fold(0, |hits, pair| hits | bits(pair));
                } else {
                    BYTE_TABLE.with_borrow_mut(|bytes| {
                        for (low, high) in runs(n) {
                            let len = low.len();
                            for k in 0..len {
                                bytes.0[(low.at(k) ^ high.at(len - 1 - k)) as usize] = 1;
                            }
                        }
                        bytes.fold_into(hits);
                    });
                }
            });
        MiddleHits {
            first: heaps.start,
            words,
            sets,
            settled: AtomicU32::new(0),
        }
    }

    pub(super) fn end(&self) -> usize {
        self.first + self.sets.len() / self.words.max(1)
    }

    pub(super) fn of(&self, n: usize) -> &[u64] {
        let i = (n - self.first) * self.words;
        &self.sets[i..i + self.words]
    }
}

/// The values G(a) ⊕ G(m − a) of the pairs (`low[k]`, `high[len − 1 − k]`)
/// as bits, every value below 64. Four registers take turns, so that no OR
/// waits on the one before it.
pub(super) fn pair_bits<T: Value>(low: &[T], high: &[T]) -> u64 {
    let bit = |x: &T, y: &T| 1u64 << ((x.narrow() ^ y.narrow()) & 63);
    let (lows, highs) = (low.chunks_exact(4), high.rchunks_exact(4));
    let (low_rest, high_rest) = (lows.remainder(), highs.remainder());
    let mut four = [0u64; 4];
    for (x, y) in lows.zip(highs) {
        for k in 0..4 {
            four[k] |= bit(&x[k], &y[3 - k]);
        }
    }
    let rest = low_rest
        .iter()
        .zip(high_rest.iter().rev())
        .fold(0, |bits, (x, y)| bits | bit(x, y));
    four[0] | four[1] | four[2] | four[3] | rest
}

/// For each breaking digit, the middle pairs of heap n with both parts
/// below `known`: the smaller parts `a` (ascending) and the larger parts
/// `b` (ascending; pair k is a[k] with b[len - 1 - k]).
pub(super) fn middle_pairs(
    code: &RareCode,
    n: usize,
    known: usize,
) -> impl Iterator<Item = (std::ops::Range<usize>, std::ops::Range<usize>)> + '_ {
    code.splits.iter().filter_map(move |&(j, diff)| {
        let m = n.checked_sub(j)?;
        let (lo, hi) = Pairs::BothBelow { s: known, from: 1 }.range(m, diff)?;
        let lo = lo.max((hi + 1).saturating_sub(MIDDLE_PAIRS));
        Some((lo..hi + 1, m - hi..m - lo + 1))
    })
}

/// The part of the table the middle pass over heaps first..end reads,
/// copied so that the pass can run while the block below goes on.
pub(super) struct MiddleWindow<S> {
    pub(super) start: usize,
    pub(super) values: S,
    pub(super) known: usize,
    pub(super) heaps: std::ops::Range<usize>,
    pub(super) max: u32,
}

impl<S: Store> MiddleWindow<S> {
    pub(super) fn copy(
        code: &RareCode,
        g: &S,
        known: usize,
        first: usize,
        end: usize,
        max: u32,
    ) -> Self {
        let (mut lo, mut hi) = (known, 0);
        for n in first..end {
            for (a, b) in middle_pairs(code, n, known) {
                lo = lo.min(a.start);
                hi = hi.max(b.end);
            }
        }
        let (start, stop) = (lo, hi.max(lo));
        MiddleWindow {
            start,
            values: g.copy_range(start, stop),
            known,
            heaps: first..end,
            max,
        }
    }

    pub(super) fn collect(self, code: &RareCode) -> MiddleHits {
        MiddleHits::collect(
            code,
            self.values.view(),
            self.start,
            self.known,
            self.heaps,
            self.max,
        )
    }
}
