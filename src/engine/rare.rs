//! The rare-value (sparse space) algorithm for one Nim-sequence.
//!
//! Under a split of values into rare and common (`analysis::rare`), a split
//! option G(a) ⊕ G(b) is common exactly when one of a, b is a rare position.
//! So for heap n: mark the take options and, for every breaking digit and
//! every rare position r, G(r) ⊕ G(n − j − r); now every common option is
//! marked, and c, the smallest unmarked common value, bounds G(n). Scan the
//! split pairs, marking values below c, until every value below c is
//! marked: then G(n) = c. When the scan ends first, G(n) is the mex of what
//! was marked, a rare value, and n joins the rare positions. The cost per
//! heap is (breaking digits × rare positions) plus a short scan.
//!
//! Heaps run in blocks: the rare pairs whose parts both lie below the block
//! are marked for the whole block in parallel (rayon), the rest in order.
//! The table is `Vec<u8>` or `Vec<u16>`; a value too large for it stops the
//! run so the caller can widen it and go on.

use rayon::prelude::*;

use crate::analysis::rare::{RareSplit, ValueHistogram, rare_positions};
use crate::engine::heap_kernel::{HeapKernelCode, UNBOUNDED};
use crate::engine::heap_table::Value;
use crate::game::Code;

/// Heaps per block; the parallel part marks a whole block at once.
const BLOCK: usize = 4096;
/// Below this many heaps the table is too short to judge its sparseness.
const JUDGE_FROM: usize = 1 << 15;

/// The position parity t of `code`'s rare/common split, when its breaking
/// digits all sit at indices of one parity (none when rare values do not run it).
pub fn rare_parity(code: &Code) -> Option<u32> {
    RareCode::new(code).ok().and_then(|rc| rc.parity)
}

/// A code as the rare-value algorithm reads it.
#[derive(Clone, Debug)]
pub struct RareCode {
    /// (j, digit bits 0..1): take j, leave nothing (bit 0) or one heap (bit 1).
    takes: Vec<(u32, u32)>,
    /// (j, d): take j and split the rest into two heaps differing by at least d.
    splits: Vec<(u32, u32)>,
    /// j: take j and split the rest into two equal heaps (value 0).
    equal_splits: Vec<u32>,
    /// Some(t) when every breaking digit sits at an index ≡ t (mod 2).
    pub parity: Option<u32>,
}

impl RareCode {
    /// `Err` says why the algorithm does not apply: it needs finitely many
    /// digits and at least one that splits a heap in two.
    pub fn new(code: &Code) -> Result<RareCode, String> {
        let k = HeapKernelCode::new(code)?;
        if k.take_jmax == UNBOUNDED || k.split_jmax == UNBOUNDED {
            return Err(format!(
                "{}: the rare-value algorithm needs a finite code (no repeating tail)",
                code.text
            ));
        }
        let mut takes = Vec::new();
        let mut splits = Vec::new();
        let mut equal_splits = Vec::new();
        for j in 0..=k.take_jmax.max(k.split_jmax) {
            let d = k.digit(j);
            if j >= 1 && d & 3 != 0 {
                takes.push((j, d & 3));
            }
            if d & 4 != 0 {
                let modifier = (d >> 8) & 3;
                if modifier == crate::engine::heap_kernel::MOD_ALL_EQUAL {
                    if k.min_diff == 0 {
                        equal_splits.push(j);
                    }
                } else {
                    let plain = modifier == crate::engine::heap_kernel::MOD_PLAIN;
                    splits.push((j, if plain { k.min_diff } else { k.min_diff.max(1) }));
                }
            }
        }
        if splits.is_empty() {
            return Err(format!(
                "{}: no digit splits a heap into two heaps of free sizes, so there are no rare values to use",
                code.text
            ));
        }
        let t = splits[0].0 & 1;
        let parity = splits.iter().all(|&(j, _)| j & 1 == t).then_some(t);
        Ok(RareCode {
            takes,
            splits,
            equal_splits,
            parity,
        })
    }
}

/// Whether a run may give up on a table that is not sparse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persist {
    /// Stop with `Outcome::Dense` when rare positions are too many to pay.
    GiveUpWhenDense,
    /// Go on whatever the rare count (`--algorithm rare`).
    Always,
}

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every heap up to the target is done.
    Done,
    /// `stop()` asked for a pause; the table holds every heap below its length.
    Paused,
    /// More than one heap in `DENSE_RATIO` is rare: the brute force is the tool.
    Dense,
    /// G(n) does not fit the value type; widen the table and call again.
    Widen { n: u64, value: u32 },
}

/// Rare positions beyond one in `DENSE_RATIO` make the scan cost more than
/// the brute force saves.
const DENSE_RATIO: usize = 8;

/// The state the algorithm keeps besides the table.
pub struct RareRun {
    pub split: RareSplit,
    /// Rare positions, ascending, and their values.
    pub rare: Vec<u32>,
    rare_values: Vec<u32>,
    hist: ValueHistogram,
    /// Rare positions when the split was last chosen.
    rare_at_choice: usize,
    max_value: u32,
}

impl RareRun {
    /// The state for a table known up to its length.
    pub fn new<T: Value>(code: &RareCode, g: &[T]) -> RareRun {
        let hist = ValueHistogram::of(g);
        let (split, _) = hist.best_split(code.parity);
        let max_value = g.iter().map(|&v| v.into()).max().unwrap_or(0);
        let mut run = RareRun {
            split,
            rare: Vec::new(),
            rare_values: Vec::new(),
            hist,
            rare_at_choice: 0,
            max_value,
        };
        run.rebuild(g);
        run
    }

    fn rebuild<T: Value>(&mut self, g: &[T]) {
        self.rare = rare_positions(g, self.split)
            .into_iter()
            .map(|n| n as u32)
            .collect();
        self.rare_values = self.rare.iter().map(|&r| g[r as usize].into()).collect();
        self.rare_at_choice = self.rare.len();
    }

    /// Chooses the split again when the rare list has grown, and switches
    /// when the new one is clearly better.
    fn maybe_rechoose<T: Value>(&mut self, code: &RareCode, g: &[T]) {
        if self.rare.len() <= 2 * self.rare_at_choice + 32 {
            return;
        }
        let (split, count) = self.hist.best_split(code.parity);
        if split != self.split && (count as usize) * 5 < self.rare.len() * 4 {
            self.split = split;
            self.rebuild(g);
        } else {
            self.rare_at_choice = self.rare.len();
        }
    }
}

/// Bitset words for values below `2 * next_pow2(max + 1)`: every option of
/// a table whose values are at most `max` is below the power of two, and the
/// mex fits in the other half.
fn words_for(max: u32) -> usize {
    ((2 * (max + 1).next_power_of_two()) as usize).div_ceil(64)
}

/// Extends `g` to heaps `0..=to` by the rare-value algorithm.
pub fn extend<T: Value>(
    code: &RareCode,
    run: &mut RareRun,
    g: &mut Vec<T>,
    to: u64,
    persist: Persist,
    stop: &dyn Fn() -> bool,
    progress: &dyn Fn(u64),
) -> Outcome {
    let end = to as usize + 1;
    if g.is_empty() && end > 0 {
        g.push(T::of(0));
    }
    while g.len() < end {
        let s = g.len();
        let e = end.min(s + BLOCK.min(s.max(64)));
        let words = words_for(run.max_value);
        let below = rare_pairs_below(code, run, g, s, e, words);
        let mut bits = Vec::new();
        for n in s..e {
            bits.clear();
            bits.extend_from_slice(&below[(n - s) * words..(n - s + 1) * words]);
            let v = finish_heap(code, run, g, s, n, &mut bits);
            if v > T::MAX {
                return Outcome::Widen {
                    n: n as u64,
                    value: v,
                };
            }
            g.push(T::of(v));
            run.hist.add(n as u64, v);
            run.max_value = run.max_value.max(v);
            if run.split.is_rare(n as u64, v) {
                run.rare.push(n as u32);
                run.rare_values.push(v);
            }
        }
        progress(g.len() as u64);
        run.maybe_rechoose(code, g);
        if persist == Persist::GiveUpWhenDense
            && g.len() >= JUDGE_FROM
            && run.rare.len() * DENSE_RATIO > g.len()
        {
            return Outcome::Dense;
        }
        if g.len() < end && stop() {
            return Outcome::Paused;
        }
    }
    Outcome::Done
}

/// Marks G(r) ⊕ G(m − r) for the rare positions `rare[i]` (values
/// `values[i]`) with r < m and an allowed split (parts differing by `diff`).
#[inline]
fn mark_rare_pairs<T: Value>(
    bits: &mut [u64],
    g: &[T],
    rare: &[u32],
    values: &[u32],
    m: u32,
    diff: u32,
) {
    let end = rare.partition_point(|&r| r < m);
    for (&r, &gr) in rare[..end].iter().zip(&values[..end]) {
        let b = m - r;
        if diff == 0 || r.abs_diff(b) >= diff {
            let v = gr ^ g[b as usize].into();
            bits[(v >> 6) as usize] |= 1 << (v & 63);
        }
    }
}

/// For heaps `s..e`: the options of take moves to heaps below `s` and of
/// the rare pairs whose parts both lie below `s`, `words` u64 per heap.
fn rare_pairs_below<T: Value>(
    code: &RareCode,
    run: &RareRun,
    g: &[T],
    s: usize,
    e: usize,
    words: usize,
) -> Vec<u64> {
    let (rare, values) = (&run.rare[..], &run.rare_values[..]);
    let mut below = vec![0u64; (e - s) * words];
    below
        .par_chunks_mut(words)
        .enumerate()
        .for_each(|(i, bits)| {
            let n = (s + i) as u32;
            let s = s as u32;
            for &(j, d) in &code.takes {
                if j == n && d & 1 != 0 {
                    bits[0] |= 1;
                } else if j < n && n - j < s && d & 2 != 0 {
                    let v: u32 = g[(n - j) as usize].into();
                    bits[(v >> 6) as usize] |= 1 << (v & 63);
                }
            }
            for &(j, diff) in &code.splits {
                if n < j + 2 {
                    continue;
                }
                let m = n - j;
                // Parts r and m - r both below s: r > m - s.
                let first = if m >= s {
                    rare.partition_point(|&r| r <= m - s)
                } else {
                    0
                };
                mark_rare_pairs(bits, g, &rare[first..], &values[first..], m, diff);
            }
        });
    below
}

/// G(n), given the block's parallel marks in `bits` and every heap below n.
fn finish_heap<T: Value>(
    code: &RareCode,
    run: &RareRun,
    g: &[T],
    s: usize,
    n: usize,
    bits: &mut Vec<u64>,
) -> u32 {
    let gv = |x: u32| -> u32 { g[x as usize].into() };
    let (n, s) = (n as u32, s as u32);
    bits.resize(words_for(run.max_value), 0);
    let mark = |bits: &mut [u64], v: u32| bits[(v >> 6) as usize] |= 1 << (v & 63);

    // Take moves to heaps inside the block.
    for &(j, d) in &code.takes {
        if j < n && n - j >= s && d & 2 != 0 {
            mark(bits, gv(n - j));
        }
    }
    for &j in &code.equal_splits {
        if n >= j + 2 && (n - j) & 1 == 0 {
            mark(bits, 0);
        }
    }
    // Rare pairs with a part inside the block: an old rare position with
    // its partner at s or above, or a rare position found in this block.
    let new_from = run.rare.partition_point(|&r| r < s);
    let (old, new) = run.rare.split_at(new_from);
    let (old_values, new_values) = run.rare_values.split_at(new_from);
    for &(j, diff) in &code.splits {
        if n < j + 2 {
            continue;
        }
        let m = n - j;
        if m >= s {
            let k = old.partition_point(|&r| r <= m - s);
            mark_rare_pairs(bits, g, &old[..k], &old_values[..k], m, diff);
        }
        mark_rare_pairs(bits, g, new, new_values, m, diff);
    }

    // c: the smallest unmarked common value. Every common option is marked.
    let flip = run.split.flip(n as u64);
    let c = first_unmarked(bits, |w| common_word(run.split.mask, flip, w));
    // Unmarked values below c: all rare, each needs a split pair.
    let need = unmarked_below(bits, c);
    if need == 0 {
        return c;
    }
    // wanted: the unmarked values below c.
    let mut wanted: Vec<u64> = bits.iter().map(|w| !w).collect();
    clear_from(&mut wanted, c);
    if scan_pairs(code, g, n, &mut wanted, need) {
        return c;
    }
    // The scan ended with rare values below c unmarked: G(n) is rare, the
    // smallest of them.
    first_set(&wanted)
}

/// Clears every bit from value `c` on.
fn clear_from(bits: &mut [u64], c: u32) {
    let w = (c / 64) as usize;
    if w < bits.len() {
        bits[w] &= (1u64 << (c % 64)) - 1;
        for word in &mut bits[w + 1..] {
            *word = 0;
        }
    }
}

/// The smallest set bit of `bits` (the capacity when none is).
fn first_set(bits: &[u64]) -> u32 {
    bits.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map_or(bits.len() as u32 * 64, |(i, w)| {
            i as u32 * 64 + w.trailing_zeros()
        })
}

/// Pairs scanned together before testing whether any hit a wanted value.
const SCAN_CHUNK: u32 = 64;

/// Scans the split pairs (a, m − a), a = 1, 2, …, clearing the `wanted`
/// values they reach; true as soon as all `need` of them are cleared. Runs of `SCAN_CHUNK` pairs are tested without a branch per pair, and
/// looked at one by one only when one of them hit.
fn scan_pairs<T: Value>(
    code: &RareCode,
    g: &[T],
    n: u32,
    wanted: &mut [u64],
    mut need: u32,
) -> bool {
    if need == 0 {
        return true;
    }
    let last =
        |j: u32, diff: u32| -> Option<u32> { (n >= j + 2 + diff).then(|| (n - j - diff) / 2) };
    let a_max = code
        .splits
        .iter()
        .filter_map(|&(j, diff)| last(j, diff))
        .max()
        .unwrap_or(0);
    let mut a = 1;
    while a <= a_max {
        let a_end = (a + SCAN_CHUNK - 1).min(a_max);
        for &(j, diff) in &code.splits {
            let Some(hi) = last(j, diff).map(|x| x.min(a_end)) else {
                continue;
            };
            if a <= hi && scan_run(g, n - j, a, hi, wanted, &mut need) {
                return true;
            }
        }
        a = a_end + 1;
    }
    false
}

/// Pairs (a, m − a) for a in x0..=x1; true when `need` reaches 0.
#[inline]
fn scan_run<T: Value>(
    g: &[T],
    m: u32,
    x0: u32,
    x1: u32,
    wanted: &mut [u64],
    need: &mut u32,
) -> bool {
    let low = &g[x0 as usize..=x1 as usize];
    let high = &g[(m - x1) as usize..=(m - x0) as usize];
    let value = |x: &T, y: &T| -> u32 { (*x).into() ^ (*y).into() };
    let mut hit = 0u64;
    for (x, y) in low.iter().zip(high.iter().rev()) {
        let v = value(x, y);
        hit |= wanted[(v >> 6) as usize] >> (v & 63);
    }
    if hit & 1 == 0 {
        return false;
    }
    for (x, y) in low.iter().zip(high.iter().rev()) {
        let v = value(x, y);
        let bit = 1u64 << (v & 63);
        if wanted[(v >> 6) as usize] & bit != 0 {
            wanted[(v >> 6) as usize] &= !bit;
            *need -= 1;
            if *need == 0 {
                return true;
            }
        }
    }
    false
}

/// Bit i set when value 64·w + i is common at a heap with this flip.
#[inline]
fn common_word(mask: u32, flip: u32, w: usize) -> u64 {
    // Parity of popcount((64w + i) & mask) = parity of the high part xor
    // parity of the low 6 bits; the low part repeats in every word.
    let high = ((w as u32 * 64) & mask).count_ones() & 1;
    let low = LOW_PARITY[(mask & 63) as usize];
    if (high ^ flip) == 1 { !low } else { low }
}

/// LOW_PARITY[m] bit i: popcount(i & m) is odd, for i < 64.
const LOW_PARITY: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut m = 0;
    while m < 64 {
        let mut i = 0;
        while i < 64 {
            if (i & m as u32).count_ones() & 1 == 1 {
                table[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    table
};

/// The smallest value whose bit is clear in `bits` and set in `wanted(w)`,
/// or the bitset's capacity.
#[inline]
fn first_unmarked(bits: &[u64], wanted: impl Fn(usize) -> u64) -> u32 {
    for (w, &word) in bits.iter().enumerate() {
        let free = !word & wanted(w);
        if free != 0 {
            return w as u32 * 64 + free.trailing_zeros();
        }
    }
    bits.len() as u32 * 64
}

/// How many values below `c` are unmarked.
#[inline]
fn unmarked_below(bits: &[u64], c: u32) -> u32 {
    let full = (c / 64) as usize;
    let mut count: u32 = bits[..full].iter().map(|w| (!w).count_ones()).sum();
    if !c.is_multiple_of(64) {
        count += (!bits[full] & ((1u64 << (c % 64)) - 1)).count_ones();
    }
    count
}
