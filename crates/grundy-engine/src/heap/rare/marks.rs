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
        for &(j, d) in &code.takes {
            if d & 2 != 0 {
                list.push(j, 0);
                list.from = list.from.max(j + 1);
            }
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
        if diff == 0 || r.abs_diff(b) >= diff {
            pair(i, gr ^ g.at(b));
        }
    }
}
