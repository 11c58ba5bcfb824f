//! One heap of the finish (`finish_in_order`): what the heaps inside the
//! block and the pairs the pass left unread add to the candidate the
//! block's parallel pass (`pass`) found.

use super::bits::{
    LocalMarks, clear_from, common_word, first_set, first_set_from, first_unmarked, low_bits,
    set_bit, unmarked_below, words_for,
};
use super::kept::Gap;
use super::marks::{FarMarks, entry_bits, leaves_one_heap, mark_rare_pairs, split_heap};
use super::pass::BlockPass;
use super::scan::{Pairs, Scan, ScanLimit, scan_pairs};
use super::state::RareRun;
use crate::heap::storage::store::Values;
use grundy_core::kernel::rare::RareCode;
use std::sync::atomic::Ordering::Relaxed;

/// G(n) in registers for a heap in a block without a pass, past every rare
/// position, while every value is below 64 (the steady state of `.1777`);
/// with it, whether the middle pairs spared it a scan. `None` sends the heap
/// to `finish_heap`: c is 64 or more, or a wanted value is not among the
/// middle pairs' (a scan is due).
#[inline]
pub(super) fn settle_small<V: Values>(
    Finishing { code, run, g }: Finishing<V>,
    ahead: &BlockPass,
    far: &mut FarMarks,
    n: usize,
) -> Option<(u32, bool)> {
    let (list, middle) = (&run.marks_past_rare, ahead.middle.as_ref()?);
    if run.max_value >= 64 || n < list.from {
        return None;
    }
    let near = entry_bits(&list.near, g, n);
    let marks = near | far.of(list, g, n) | equal_split_bits(code, n);
    let free = !marks & common_word(run.split.mask, run.split.flip(n as u64), 0);
    let c = (free != 0).then(|| free.trailing_zeros())?;
    // Unmarked values below c are rare: each needs a split pair.
    let wanted = !marks & low_bits(c);
    if wanted == 0 {
        return Some((c, false));
    }
    (wanted & !middle.of(n)[0] == 0).then_some((c, true))
}

/// What one heap's finish did that its block's counts keep: kept apart
/// from the block until the caller knows the heap's value is the one it
/// keeps (a speculated heap may be done again).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Noted {
    /// The block's own marks moved G(n) past the candidate.
    pub(super) rescan: bool,
    /// The pass's checked pairs had to be marked after all.
    pub(super) remarked: bool,
    /// The heap's scan wanted pairs from this smaller part on, past what
    /// the run keeps: its value is unknown, and the run stops before it.
    pub(super) beyond: Option<usize>,
}

impl Noted {
    /// Adds the heap's notes to its block's counts.
    pub(super) fn count(self, ahead: &BlockPass) {
        if self.rescan {
            ahead.rescans.fetch_add(1, Relaxed);
        }
        if self.remarked {
            ahead.remarked.fetch_add(1, Relaxed);
        }
    }
}

/// A heap's working bitsets, kept from one heap to the next so that a
/// finish allocates nothing: its marked values (`bits`, the pass's marks
/// on entry), then the values below its candidate a scan must reach.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) bits: Vec<u64>,
    pub(super) wanted: Vec<u64>,
}

impl Scratch {
    /// The scratch with `marks` as the heap's marks.
    pub(super) fn marked(&mut self, marks: &[u64]) -> &mut Scratch {
        self.bits.clear();
        self.bits.extend_from_slice(marks);
        self
    }
}

/// G(n), given the block's parallel pass (`ahead`, whose marks of n are in
/// `scratch.bits`), the rare heaps `near` the block and every heap below n;
/// with it, what the block's counts note of the heap.
pub(super) fn finish_heap<V: Values>(
    at: Finishing<V>,
    ahead: &BlockPass,
    near: &RareNear,
    n: usize,
    scratch: &mut Scratch,
) -> (u32, Noted) {
    let (c, noted, any_wanted) = candidate(at, ahead, near, n, scratch);
    match any_wanted {
        false => (c, noted),
        true => finish_scan(at, ahead, n, c, noted, &mut scratch.wanted),
    }
}

/// Heap n's marks (the pass's in `bits`, and what touches the block), and
/// from them its candidate c, the smallest unmarked common value; whether
/// a value below c is unmarked, and then those values in `wanted` (each
/// needs a split pair: `finish_scan`).
#[inline(always)]
pub(super) fn candidate<V: Values>(
    Finishing { code, run, g }: Finishing<V>,
    ahead: &BlockPass,
    near: &RareNear,
    n: usize,
    Scratch { bits, wanted }: &mut Scratch,
) -> (u32, Noted, bool) {
    let mut noted = Noted::default();
    let s = ahead.below;
    bits.resize(words_for(run.max_value), 0);

    if run.max_value < 64 {
        // Every option is below 64: the marks go to one register (bit
        // updates of one word in memory would wait on each other).
        let list = &run.marks_past_rare;
        bits[0] |= if s == 0 && n >= list.from {
            list.bits(g, n) | equal_split_bits(code, n)
        } else {
            let mut low = 0u64;
            mark_in_block(code, run, g, near, n, &mut |v| low |= 1 << (v & 63));
            low
        };
    } else if LocalMarks::fits(bits.len()) {
        let mut local = LocalMarks::default();
        mark_in_block(code, run, g, near, n, &mut |v| local.mark(v));
        local.fold_into(bits);
    } else {
        mark_in_block(code, run, g, near, n, &mut |v| set_bit(bits, v));
    }

    // c: the smallest unmarked common value. Every common option is marked.
    let flip = run.split.flip(n as u64);
    let mut c = first_unmarked(bits, |w| common_word(run.split.mask, flip, w));
    if c >= ahead.complete(n) {
        // The block's marks covered the pass's candidates: the pairs it
        // checked are marked now.
        mark_below_block(code, run, g, s, n, bits);
        noted.remarked = true;
        c = first_unmarked(bits, |w| common_word(run.split.mask, flip, w));
    }
    // Unmarked values below c: all rare, each needs a split pair.
    if unmarked_below(bits, c) == 0 {
        return (c, noted, false);
    }
    // wanted: the unmarked values below c.
    wanted.clear();
    wanted.extend(bits.iter().map(|w| !w));
    clear_from(wanted, c);
    (c, noted, true)
}

/// What a heap's finish reads besides its marks: the code, the run's
/// state (its rare list, split and gap) and the table's values.
#[derive(Clone, Copy)]
pub(super) struct Finishing<'a, V> {
    pub(super) code: &'a RareCode,
    pub(super) run: &'a RareRun,
    pub(super) g: V,
}

/// G(n) from its candidate c and the unmarked values below it (`wanted`,
/// not empty): c where the middle pairs or a scan of the split pairs reach
/// every one, else the smallest left (n is rare). What it finds depends on
/// nothing but c, `wanted` and the values it reads.
pub(super) fn finish_scan<V: Values>(
    Finishing { code, run, g }: Finishing<'_, V>,
    ahead: &BlockPass,
    n: usize,
    c: u32,
    mut noted: Noted,
    wanted: &mut [u64],
) -> (u32, Noted) {
    if let Some(middle) = &ahead.middle {
        for (w, hits) in wanted.iter_mut().zip(middle.of(n)) {
            *w &= !hits;
        }
        if wanted.iter().all(|&w| w == 0) {
            middle.settled.fetch_add(1, Relaxed);
            return (c, noted);
        }
    }
    if scan_left(code, g, run.gap, ahead, n, wanted, &mut noted) {
        return (c, noted);
    }
    // The scan ended with rare values below c unmarked: G(n) is rare, the
    // smallest of them.
    (first_set(wanted), noted)
}

/// Scans the split pairs of heap n the block pass did not read for the
/// `wanted` values: true when every one is reached.
///
/// The pass looked for the values below the candidate c′ among the pairs
/// below the block: those it found need no more looking for. When no
/// wanted value is left from c′ on, only the pairs with a part inside the
/// block are left to scan, then those below it the pass left unread;
/// otherwise (a mark from the block covered c′) the values from c′ on were
/// never looked for, and every pair is scanned.
///
/// A scan that needed pairs the run gave back (`gap`) notes the
/// first of them in `noted.beyond` and reads as not found: the caller
/// stops before the heap.
pub(super) fn scan_left<V: Values>(
    code: &RareCode,
    g: V,
    gap: Gap,
    ahead: &BlockPass,
    n: usize,
    wanted: &mut [u64],
    noted: &mut Noted,
) -> bool {
    let s = ahead.below;
    let candidate = ahead.candidate(n);
    let missing = ahead.missing(n);
    for (w, word) in wanted.iter_mut().enumerate() {
        let from = (w as u32 * 64).min(candidate);
        let below_candidate = low_bits(candidate - from);
        *word &= !below_candidate | missing.get(w).copied().unwrap_or(0);
    }
    let rescan = first_set_from(wanted, candidate).is_some();
    let mut scan = |pairs| {
        let need = wanted.iter().map(|w| w.count_ones()).sum();
        let limit = ScanLimit {
            pairs: u64::MAX,
            gap,
        };
        scan_pairs(code, g, n, &mut *wanted, need, pairs, limit).0
    };
    let ended = if rescan {
        noted.rescan = s > 0;
        scan(Pairs::All)
    } else {
        let from = ahead.rest(n);
        match scan(Pairs::PartInBlock(s)) {
            Scan::Exhausted if from > 0 => scan(Pairs::BothBelow { s, from }),
            ended => ended,
        }
    };
    if let Scan::Beyond(part) = ended {
        noted.beyond = Some(part);
    }
    ended == Scan::Found
}

/// Marks the options of heap n that touch the block from `s` on: take
/// moves to heaps inside it, and the rare pairs with a part inside it (an
/// old rare position with its partner at s or above, or a rare position
/// found in the block).
#[inline(always)]
pub(super) fn mark_in_block<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    near: &RareNear,
    n: usize,
    mark: &mut impl FnMut(u32),
) {
    let s = near.s;
    // One pass over the takes (`marks::one_heap_takes`' rule), the whole
    // heap's take with them: this runs for every heap.
    for &(j, d) in &code.takes {
        if j < n && n - j >= s && leaves_one_heap(d) {
            mark(g.at(n - j));
        } else if j == n && d & 1 != 0 && s == 0 {
            // Take the whole heap (the pass marks it in its own blocks).
            mark(0);
        }
    }
    if equal_split_bits(code, n) != 0 {
        mark(0);
    }
    let (old, new) = run.rare.split_at(near.before);
    let (old_values, new_values) = run.rare_values.split_at(near.before);
    for &(j, diff) in &code.splits {
        let Some(m) = split_heap(n, j) else {
            continue;
        };
        if m >= s {
            let k = near.up_to(old, m - s);
            mark_rare_pairs(mark, g, &old[..k], &old_values[..k], m, diff);
        }
        mark_rare_pairs(mark, g, new, new_values, m, diff);
    }
}

/// Where the rare positions lie for the heaps of a block from `s` on, so
/// that each heap's finish needs no search of the rare list (two binary
/// searches a heap were a measurable part of the finish): how many lie
/// below s, and how many of those are at most x, for x below the block's
/// length.
pub(super) struct RareNear {
    pub(super) s: usize,
    /// Rare positions below s (none is added there during the block).
    before: usize,
    /// `up_to[x]`: rare positions at most x, for x below the block's
    /// length (none when s is 0: no rare position lies below it).
    up_to: Vec<u32>,
}

impl RareNear {
    /// For the heaps s..e, with the rare positions `rare` (ascending).
    pub(super) fn new(rare: &[usize], s: usize, e: usize) -> RareNear {
        let before = rare.partition_point(|&r| r < s);
        let len = if s == 0 { 0 } else { e - s };
        let mut up_to = Vec::with_capacity(len);
        let mut count = 0;
        for x in 0..len {
            while count < before && rare[count] <= x {
                count += 1;
            }
            up_to.push(count as u32);
        }
        RareNear { s, before, up_to }
    }

    /// How many of `old` (the rare positions below s) are at most x.
    fn up_to(&self, old: &[usize], x: usize) -> usize {
        match self.up_to.get(x) {
            Some(&count) => count as usize,
            None => old.partition_point(|&r| r <= x),
        }
    }
}

/// Marks every rare pair of heap n whose rare part lies below `s` (those
/// with the other part in the block again: they are marked already).
fn mark_below_block<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    s: usize,
    n: usize,
    bits: &mut [u64],
) {
    let below = run.rare.partition_point(|&r| r < s);
    let (rare, values) = (&run.rare[..below], &run.rare_values[..below]);
    for &(j, diff) in &code.splits {
        if let Some(m) = split_heap(n, j) {
            mark_rare_pairs(&mut |v| set_bit(bits, v), g, rare, values, m, diff);
        }
    }
}

/// Bit 0 when a move splits heap n into two equal heaps (value 0).
pub(super) fn equal_split_bits(code: &RareCode, n: usize) -> u64 {
    let equal = |&j: &usize| n >= j + 2 && (n - j) & 1 == 0;
    code.equal_splits.iter().any(equal) as u64
}
