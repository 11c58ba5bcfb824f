//! The marks of heaps past every rare position, kept as a list built
//! with the rare list (`MarkList`), eight heaps at a time for the far ones.

use crate::heap::storage::store::Values;
use crate::heap::storage::table::Value;
use grundy_core::kernel::rare::RareCode;

/// The marks of a heap past every rare position, in a block without a
/// pass, as (d, x): mark x ⊕ G(n − d). One per take to one heap (x = 0) and
/// per breaking digit and rare position; built with the rare list, and
/// extended as it grows. Entries with d below 8 (`near`) read heaps the
/// eight heaps before n may still be computing; the others (`far`) can be
/// marked for eight heaps at once.
#[derive(Default)]
pub(super) struct MarkList {
    /// The first heap every entry applies to.
    pub(super) from: usize,
    pub(super) near: Vec<(usize, u32)>,
    pub(super) far: Vec<(usize, u32)>,
}

/// Entries of a `MarkList` with d at least this are `far`.
pub(super) const FAR: usize = 8;

impl MarkList {
    /// The marks of heap n (at least `from`) as bits, every value below 64.
    pub(super) fn bits<V: Values>(&self, g: V, n: usize) -> u64 {
        entry_bits(&self.near, g, n) | entry_bits(&self.far, g, n)
    }

    /// The far marks of heaps n..n + 8 (n at least `from`), when the table
    /// is one byte a value and the CPU marks eight heaps at once.
    pub(super) fn far_of_eight<V: Values>(&self, g: V, n: usize) -> Option<[u64; 8]> {
        let bytes = V::Unit::bytes(g.no_escapes()?)?;
        crate::heap::rare::simd::wide_bits::eight_heaps(bytes, n, &self.far)
    }

    pub(super) fn new(code: &RareCode, rare: &[usize], values: &[u32]) -> MarkList {
        let mut list = MarkList::default();
        for j in one_heap_takes(code) {
            list.push(j, 0);
            list.from = list.from.max(j + 1);
        }
        for (&r, &v) in rare.iter().zip(values) {
            list.push_rare(code, r, v);
        }
        list
    }

    /// Adds rare position r (past every other) with value v.
    pub(super) fn push_rare(&mut self, code: &RareCode, r: usize, v: u32) {
        for &(j, diff) in &code.splits {
            // Every rare position has its partner past it, `diff` apart.
            self.from = self.from.max(j + 2 * r + diff + 2);
            self.push(j + r, v);
        }
    }

    pub(super) fn push(&mut self, d: usize, x: u32) {
        match d < FAR {
            true => self.near.push((d, x)),
            false => self.far.push((d, x)),
        }
    }
}

/// The bits `1 << ((x ^ G(n − d)) & 63)` of `entries`. Four registers take
/// turns, so that no OR waits on the one before it.
pub(super) fn entry_bits<V: Values>(entries: &[(usize, u32)], g: V, n: usize) -> u64 {
    let bit = |&(d, x): &(usize, u32)| 1u64 << ((x ^ g.at(n - d)) & 63);
    let fours = entries.chunks_exact(4);
    let rest = fours.remainder().iter().fold(0, |bits, e| bits | bit(e));
    let mut four = [0u64; 4];
    for e in fours {
        for k in 0..4 {
            four[k] |= bit(&e[k]);
        }
    }
    four[0] | four[1] | four[2] | four[3] | rest
}

/// The far marks of eight heaps, kept while the list keeps its entries.
#[derive(Default)]
pub(super) struct FarMarks {
    pub(super) first: usize,
    pub(super) entries: usize,
    pub(super) bits: Option<[u64; 8]>,
}

impl FarMarks {
    /// Heap n's marks from `list.far`.
    pub(super) fn of<V: Values>(&mut self, list: &MarkList, g: V, n: usize) -> u64 {
        if let Some(bits) = self.bits
            && (self.first..self.first + 8).contains(&n)
            && self.entries == list.far.len()
        {
            return bits[n - self.first];
        }
        self.bits = list.far_of_eight(g, n);
        (self.first, self.entries) = (n, list.far.len());
        match self.bits {
            Some(bits) => bits[0],
            None => entry_bits(&list.far, g, n),
        }
    }
}

/// Calls `mark(G(r) ⊕ G(m − r))` for the rare positions `rare[i]` (values
/// `values[i]`) with r < m and an allowed split (parts differing by `diff`).
#[inline(always)]
pub(super) fn mark_rare_pairs<V: Values>(
    mark: &mut impl FnMut(u32),
    g: V,
    rare: &[usize],
    values: &[u32],
    m: usize,
    diff: usize,
) {
    each_rare_pair(&mut |_, x| mark(x), g, rare, values, m, diff);
}

/// `mark_rare_pairs` calling `pair(i, G(r) ⊕ G(m − r))` with the index i
/// of each rare position.
#[inline(always)]
pub(super) fn each_rare_pair<V: Values>(
    pair: &mut impl FnMut(usize, u32),
    g: V,
    rare: &[usize],
    values: &[u32],
    m: usize,
    diff: usize,
) {
    // Most heaps lie past every rare position.
    let end = match rare.last() {
        Some(&last) if last < m => rare.len(),
        _ => rare.partition_point(|&r| r < m),
    };
    for (i, (&r, &gr)) in rare[..end].iter().zip(&values[..end]).enumerate() {
        let b = m - r;
        if pair_allowed(diff, r, b) {
            pair(i, gr ^ g.at(b));
        }
    }
}

// The options of a heap, listed once. Every place that marks a heap's
// options, and `speculate::marks_unmoved`, which says a changed heap cannot
// move them, read the code's moves through these: the takes that leave one
// heap, the heaps a breaking move splits, and which splits are allowed.

/// The j of the takes that leave one heap n − j.
#[inline(always)]
pub(super) fn one_heap_takes(code: &RareCode) -> impl Iterator<Item = usize> + '_ {
    code.takes
        .iter()
        .filter(|&&(_, d)| leaves_one_heap(d))
        .map(|&(j, _)| j)
}

/// Whether a take of digit bits `d` may leave one heap (bit 1).
#[inline(always)]
pub(super) fn leaves_one_heap(d: u32) -> bool {
    d & 2 != 0
}

/// The heaps m = n − j that heap n's breaking moves split in two, with
/// the least difference `diff` between the parts each allows.
#[inline(always)]
pub(super) fn split_heaps(code: &RareCode, n: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    code.splits
        .iter()
        .filter_map(move |&(j, diff)| split_heap(n, j).map(|m| (m, diff)))
}

/// The heap n − j a breaking move of heap n splits in two, where it has
/// two parts. The marking loops read this, not `split_heaps`: through the
/// iterator `mark_in_block` took a sixth more instructions (cachegrind).
#[inline(always)]
pub(super) fn split_heap(n: usize, j: usize) -> Option<usize> {
    n.checked_sub(j).filter(|&m| m >= 2)
}

/// Whether a split into parts a and b (both at least 1) is allowed.
#[inline(always)]
pub(super) fn pair_allowed(diff: usize, a: usize, b: usize) -> bool {
    diff == 0 || a.abs_diff(b) >= diff
}

/// Heap n's options that read heap x (below n) and that the rare-value
/// marks mark, each as the value `other` with G(option) = G(x) ⊕ other: a
/// take to x (0), a split pair (r, x) with r rare (G(r)), and, where x is
/// rare (`rare` holds it), its own pairs (x, m − x) (G(m − x), read in `g`).
/// The marks of heap n with a part in a range of heaps are these for every
/// x in the range (`mark_in_block`, `mark_window`); the test
/// `every_mark_is_an_option_through_a_heap` holds each to it.
pub(super) fn options_through<V: Values>(
    code: &RareCode,
    rare: &[usize],
    rare_values: &[u32],
    g: V,
    n: usize,
    x: usize,
    each: &mut impl FnMut(u32),
) {
    for j in one_heap_takes(code) {
        if j < n && n - j == x {
            each(0);
        }
    }
    let x_rare = rare.binary_search(&x).is_ok();
    for (m, diff) in split_heaps(code, n) {
        if x >= m || !pair_allowed(diff, x, m - x) {
            continue;
        }
        if let Ok(i) = rare.binary_search(&(m - x)) {
            each(rare_values[i]);
        }
        if x_rare {
            each(g.at(m - x));
        }
    }
}
