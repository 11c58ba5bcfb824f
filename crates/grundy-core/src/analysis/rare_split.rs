//! Rare and common values (sparse space).
//!
//! A mask m splits values in two: v is *common* when popcount(v & m) is odd,
//! *rare* when it is even. rare ⊕ rare and common ⊕ common are rare, rare ⊕
//! common is common. A heap is a *rare position* when its value is rare. In
//! the position-parity variant (every breaking digit at an index of parity
//! t) a heap n is rare when popcount(G(n) & m) ≡ n − t (mod 2): what makes
//! `.106` sparse. The mask with the fewest rare positions comes from the
//! value histogram by a Walsh–Hadamard transform: every mask's rare count in
//! one O(V log V) pass.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Values per thread's piece when a whole table is counted.
const PIECE: usize = 1 << 20;

/// How heaps are split into rare and common positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RareSplit {
    pub mask: u32,
    /// `Some(t)`: the position-parity variant with breaking digits at
    /// indices ≡ t (mod 2).
    pub parity: Option<u32>,
}

impl RareSplit {
    /// 1 where the class of heap `n` is flipped by the position parity.
    #[inline]
    pub fn flip(&self, n: u64) -> u32 {
        match self.parity {
            None => 0,
            Some(t) => ((n + t as u64) & 1) as u32,
        }
    }

    /// Whether heap `n` with value `v` is a rare position.
    #[inline]
    pub fn is_rare(&self, n: u64, v: u32) -> bool {
        ((v & self.mask).count_ones() & 1) ^ self.flip(n) == 0
    }

    /// The mask in hexadecimal, as the published tables of octal games give
    /// it: `0x1ee` for a value-parity mask, `0x6p0` / `0x6p1` for the
    /// position-parity variant with t = 0 / 1 (the survey's `rare_mask`
    /// column, and `--json`'s). The `0x` keeps a spreadsheet or pandas from
    /// reading `10` as the number ten.
    pub fn label(&self) -> String {
        match self.parity {
            None => format!("{:#x}", self.mask),
            Some(t) => format!("{:#x}p{t}", self.mask),
        }
    }

    /// The label with what it means, for a summary a person reads.
    pub fn describe(&self) -> String {
        let rule = match self.parity {
            None => "",
            Some(0) => " on even heaps, odd on odd heaps",
            Some(_) => " on odd heaps, odd on even heaps",
        };
        format!(
            "{} (= {}; rare: an even number of 1 bits under the mask{rule})",
            self.label(),
            self.mask
        )
    }

    /// A label written by any version (`0x1ee`, or `494` before the masks
    /// were hex) in this version's form, or why it is not a mask.
    pub fn relabel(text: &str) -> Result<String, String> {
        RareSplit::parse(text)
            .map(|split| split.label())
            .ok_or_else(|| format!("rare_mask {text:?}: expected a mask such as 0x1ee or 0x6p1"))
    }

    /// A label as `label` writes it, or as earlier versions wrote it (the
    /// mask in decimal: `494`, `6p0`); `None` for anything else.
    pub fn parse(text: &str) -> Option<RareSplit> {
        let (mask, parity) = match text.split_once('p') {
            Some((mask, "0")) => (mask, Some(0)),
            Some((mask, "1")) => (mask, Some(1)),
            Some(_) => return None,
            None => (text, None),
        };
        let mask = match mask.strip_prefix("0x") {
            Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u32::from_str_radix(hex, 16).ok()?
            }
            Some(_) => return None,
            None if !mask.is_empty() && mask.bytes().all(|b| b.is_ascii_digit()) => {
                mask.parse().ok()?
            }
            None => return None,
        };
        Some(RareSplit { mask, parity })
    }
}

/// Values of heaps 1.. counted by value and by the parity of the heap.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueHistogram {
    even: Vec<u64>,
    odd: Vec<u64>,
    total: u64,
}

impl ValueHistogram {
    /// The histogram of heaps `1..g.len()` of a table, a piece of the
    /// table per thread.
    pub fn of<T: Copy + Into<u32> + Sync>(g: &[T]) -> ValueHistogram {
        ValueHistogram::by_piece(g.len(), |a, b| &g[a..b])
    }

    /// The histogram of heaps `1..len` of a table whose heaps a..b `piece`
    /// gives, a piece per thread.
    pub fn by_piece<T: Copy + Into<u32>, P: AsRef<[T]>>(
        len: usize,
        piece: impl Fn(usize, usize) -> P + Sync,
    ) -> ValueHistogram {
        // Heap 0 is not counted.
        ValueHistogram::of_range(len.min(1), len, &piece)
    }

    /// The histogram of heaps `a..b` of a table whose heaps `piece` gives,
    /// a piece per thread.
    pub fn of_range<T: Copy + Into<u32>, P: AsRef<[T]>>(
        a: usize,
        b: usize,
        piece: &(impl Fn(usize, usize) -> P + Sync),
    ) -> ValueHistogram {
        let histogram = |k: usize| {
            let first = a + k * PIECE;
            let values = piece(first, b.min(first + PIECE));
            ValueHistogram::of_heaps(first as u64, values.as_ref())
        };
        (0..b.saturating_sub(a).div_ceil(PIECE))
            .into_par_iter()
            .map(histogram)
            .reduce(ValueHistogram::default, ValueHistogram::merge)
    }

    /// `counts()[v]`: heaps counted whose value is v.
    pub fn counts(&self) -> Vec<u64> {
        self.even
            .iter()
            .zip(&self.odd)
            .map(|(e, o)| e + o)
            .collect()
    }

    /// The histogram of heaps `first..first + values.len()` (heap 0
    /// counted when among them: `by_piece` leaves it out).
    pub fn of_heaps<T: Copy + Into<u32>>(first: u64, values: &[T]) -> ValueHistogram {
        let mut h = ValueHistogram::default();
        for (n, &v) in (first..).zip(values) {
            h.add(n, v.into());
        }
        h
    }

    /// Every count `k` times (`k` repeats of the same heaps' parities).
    pub fn times(mut self, k: u64) -> ValueHistogram {
        for count in self.even.iter_mut().chain(self.odd.iter_mut()) {
            *count *= k;
        }
        self.total *= k;
        self
    }

    pub fn merge(mut self, other: ValueHistogram) -> ValueHistogram {
        for (mine, theirs) in [(&mut self.even, other.even), (&mut self.odd, other.odd)] {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
        self.total += other.total;
        self
    }

    #[inline]
    pub fn add(&mut self, n: u64, v: u32) {
        let v = v as usize;
        if v >= self.even.len() {
            self.even.resize(v + 1, 0);
            self.odd.resize(v + 1, 0);
        }
        if n & 1 == 0 {
            self.even[v] += 1;
        } else {
            self.odd[v] += 1;
        }
        self.total += 1;
    }

    /// The largest value counted (0 when none is).
    pub fn max_value(&self) -> u32 {
        let counted = |v: &usize| self.even[*v] + self.odd[*v] > 0;
        (0..self.even.len()).rev().find(counted).unwrap_or(0) as u32
    }

    /// Heaps counted.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The split with the fewest rare positions and that count: value
    /// parity with a nonzero mask, or (when `parity` is `Some(t)`) the
    /// position-parity variant for t too. Ties go to the value-parity split,
    /// then to the smallest mask, so the choice is the same on every run.
    pub fn best_split(&self, parity: Option<u32>) -> (RareSplit, u64) {
        let size = self.even.len().max(2).next_power_of_two();
        let sums: Vec<i64> = (0..size)
            .map(|v| (self.count(&self.even, v) + self.count(&self.odd, v)) as i64)
            .collect();
        let plain = walsh_hadamard(sums);
        // rare count = (total + transform[m]) / 2
        let rare = |t: i64| ((self.total as i64 + t) / 2) as u64;
        let mut best = (
            RareSplit {
                mask: 0,
                parity: None,
            },
            self.total,
        );
        for (m, &t) in plain.iter().enumerate().skip(1) {
            if rare(t) < best.1 {
                best = (
                    RareSplit {
                        mask: m as u32,
                        parity: None,
                    },
                    rare(t),
                );
            }
        }
        if let Some(t) = parity {
            // Heap n counts with sign (-1)^(n + t).
            let sign = if t & 1 == 0 { 1 } else { -1 };
            let diffs: Vec<i64> = (0..size)
                .map(|v| {
                    sign * (self.count(&self.even, v) as i64 - self.count(&self.odd, v) as i64)
                })
                .collect();
            for (m, &d) in walsh_hadamard(diffs).iter().enumerate() {
                if rare(d) < best.1 {
                    best = (
                        RareSplit {
                            mask: m as u32,
                            parity: Some(t & 1),
                        },
                        rare(d),
                    );
                }
            }
        }
        best
    }

    fn count(&self, counts: &[u64], v: usize) -> u64 {
        counts.get(v).copied().unwrap_or(0)
    }
}

/// The Walsh–Hadamard transform: `out[m] = Σ_v x[v]·(−1)^popcount(v & m)`.
/// `x.len()` is a power of two.
pub fn walsh_hadamard(mut x: Vec<i64>) -> Vec<i64> {
    let mut h = 1;
    while h < x.len() {
        for block in x.chunks_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi) {
                let (u, v) = (*a, *b);
                *a = u + v;
                *b = u - v;
            }
        }
        h *= 2;
    }
    x
}

/// The rare positions of heaps `1..g.len()` under `split`: the heaps a
/// split may leave (the engine's list).
pub fn rare_positions<T: Copy + Into<u32>>(g: &[T], split: RareSplit) -> Vec<u64> {
    rare_positions_by(g.len(), |n| g[n].into(), split)
}

/// `rare_positions` of a table of `len` values whose value at n is `at(n)`.
pub fn rare_positions_by(len: usize, at: impl Fn(usize) -> u32, split: RareSplit) -> Vec<u64> {
    (1..len)
        .filter(|&n| split.is_rare(n as u64, at(n)))
        .map(|n| n as u64)
        .collect()
}

/// What a researcher reads first about a table's sparse space: the best
/// split, its rare positions' count and the last of them. Heap 0 counts
/// when it is rare, as in the published tables of octal games (Flammenkamp's
/// among them): its value 0 is rare under every value-parity split.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RareSummary {
    pub rare_mask: String,
    /// Rare heaps, heap 0 included when it is rare.
    pub rare_count: u64,
    /// The largest rare position (null when there is none).
    pub last_rare: Option<u64>,
}

/// The best split of a whole table (chosen on heaps from 1), as
/// `RareSummary` (heap 0 counted when rare).
pub fn summarize<T: Copy + Into<u32> + Sync>(
    g: &[T],
    parity: Option<u32>,
) -> (RareSplit, RareSummary) {
    summarize_by_piece(g.len(), |a, b| &g[a..b], parity)
}

/// `summarize` of a table of `len` values whose heaps a..b `piece` gives.
pub fn summarize_by_piece<T: Copy + Into<u32>, P: AsRef<[T]>>(
    len: usize,
    piece: impl Fn(usize, usize) -> P + Sync,
    parity: Option<u32>,
) -> (RareSplit, RareSummary) {
    let hist = ValueHistogram::by_piece(len, &piece);
    let g0 = (len > 0).then(|| piece(0, 1).as_ref()[0].into());
    summary_of(&hist, g0, parity, |split| {
        last_rare_by_piece(len, &piece, split)
    })
}

/// The summary of a table from its histogram of heaps 1.. (`hist`), its
/// value at heap 0 (none: empty) and its last rare heap under a split.
pub fn summary_of(
    hist: &ValueHistogram,
    g0: Option<u32>,
    parity: Option<u32>,
    last_rare: impl FnOnce(RareSplit) -> Option<u64>,
) -> (RareSplit, RareSummary) {
    // The split is chosen on heaps 1.. (heap 0 has no options to split).
    let (split, from_1) = hist.best_split(parity);
    // Heap 0 counts as the published tables count it: rare when its value
    // is (always, under a value-parity split).
    let heap_0 = g0.is_some_and(|v| split.is_rare(0, v));
    (
        split,
        RareSummary {
            rare_mask: split.label(),
            rare_count: from_1 + heap_0 as u64,
            last_rare: last_rare(split),
        },
    )
}

/// The last rare heap under `split` of a table of `len` values whose heaps
/// a..b `piece` gives, a piece per thread.
pub fn last_rare_by_piece<T: Copy + Into<u32>, P: AsRef<[T]>>(
    len: usize,
    piece: impl Fn(usize, usize) -> P + Sync,
    split: RareSplit,
) -> Option<u64> {
    let last_in = |k: usize| {
        let first = k * PIECE;
        last_rare_in(
            first as u64,
            piece(first, len.min(first + PIECE)).as_ref(),
            split,
        )
    };
    (0..len.div_ceil(PIECE))
        .into_par_iter()
        .filter_map(last_in)
        .max()
}

/// The last rare heap under `split` among heaps `first..` with `values`.
pub fn last_rare_in<T: Copy + Into<u32>>(
    first: u64,
    values: &[T],
    split: RareSplit,
) -> Option<u64> {
    let rare = |&(i, &v): &(usize, &T)| split.is_rare(first + i as u64, v.into());
    let last = values.iter().enumerate().rev().find(rare);
    last.map(|(i, _)| first + i as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_hex_and_read_back_in_either_base() {
        let grundy = RareSplit {
            mask: 494,
            parity: None,
        };
        assert_eq!(grundy.label(), "0x1ee");
        let officers = RareSplit {
            mask: 6,
            parity: Some(1),
        };
        assert_eq!(officers.label(), "0x6p1");
        for split in [
            grundy,
            officers,
            RareSplit {
                mask: 16,
                parity: Some(0),
            },
        ] {
            assert_eq!(RareSplit::parse(&split.label()), Some(split));
        }
        // what earlier versions wrote: the mask in decimal
        assert_eq!(RareSplit::parse("494"), Some(grundy));
        assert_eq!(RareSplit::parse("6p1"), Some(officers));
        for bad in [
            "",
            "0x",
            "p1",
            "0x1eep2",
            "1ee",
            "0x-1",
            "6p",
            "99999999999",
            "0x1ee ",
        ] {
            assert_eq!(RareSplit::parse(bad), None, "{bad:?}");
        }
        assert_eq!(
            grundy.describe(),
            "0x1ee (= 494; rare: an even number of 1 bits under the mask)"
        );
        // Officers' split with t = 1: heap n flips when n + 1 is odd
        assert!(
            officers
                .describe()
                .ends_with("on odd heaps, odd on even heaps)")
        );
        // value 2 has one 1 bit under the mask: rare on heap 2, not on heap 3
        assert!(officers.is_rare(2, 2) && !officers.is_rare(3, 2));
    }

    #[test]
    fn the_transform_counts_rare_positions_for_every_mask() {
        // A pseudo-random table; every mask's count checked directly.
        let g: Vec<u16> = (0..500u32)
            .map(|n| ((n.wrapping_mul(2654435761) >> 7) % 23) as u16)
            .collect();
        let h = ValueHistogram::of(&g);
        let (best, count) = h.best_split(Some(1));
        assert_eq!(count as usize, rare_positions(&g, best).len());
        for mask in 1..32u32 {
            let split = RareSplit { mask, parity: None };
            assert!(
                rare_positions(&g, split).len() as u64 >= count,
                "mask {mask}"
            );
            for t in 0..2 {
                let split = RareSplit {
                    mask,
                    parity: Some(t),
                };
                assert!(rare_positions(&g, split).len() as u64 >= count);
            }
        }
    }

    #[test]
    fn the_position_parity_can_leave_no_heap_rare() {
        // G(n) = n mod 4: every value mask leaves heaps rare.
        let g: Vec<u16> = (0..400).map(|n| (n % 4) as u16).collect();
        let (split, count) = ValueHistogram::of(&g).best_split(None);
        assert!(split.mask != 0);
        assert_eq!(count as usize, rare_positions(&g, split).len());
        // With the position parity, mask 1 and t = 0 make no heap rare:
        // popcount(n % 4 & 1) = n mod 2 is never ≡ n + 1.
        let (split, count) = ValueHistogram::of(&g).best_split(Some(1));
        assert_eq!((split.mask, split.parity, count), (1, Some(1), 0));
    }

    #[test]
    fn the_largest_value_counted_leaves_heap_0_out() {
        assert_eq!(ValueHistogram::of(&[0u8, 3, 1, 7, 2]).max_value(), 7);
        assert_eq!(ValueHistogram::of(&[9u16, 3, 1]).max_value(), 3);
        assert_eq!(ValueHistogram::of(&[0u8]).max_value(), 0);
        assert_eq!(ValueHistogram::of::<u8>(&[]).max_value(), 0);
    }
}
