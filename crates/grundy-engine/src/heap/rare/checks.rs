//! The rare heaps a block pass checks instead of marking.
//!
//! A heap's candidate c′ needs every common value below it marked, and no
//! rare pair reaching it. Marking every rare pair is one store a pair, and
//! most of those marks are redundant: a value below c′ is reached by a
//! dozen rare heaps. So the pass marks only the rare heaps that are most
//! often the one (or one of two) that reaches a value below c′, takes each
//! heap's first free common values as candidates, and checks the other
//! rare heaps' pairs against those candidates, 32 heaps at a time
//! (`wide_checks`), with no store. c′ is the first candidate no check
//! reaches. Which rare heaps those are is learned as the run goes: one
//! task of the pass in `SAMPLE_EVERY` marks one of its heaps wholly and
//! credits the rare heaps that alone (or in two) reach a value below its c′. The share
//! marked follows how often a heap's candidates are all reached (it is then
//! marked wholly).

use super::bits::{common_word, first_unmarked, set_bit};
use super::marks::each_rare_pair;
use super::view::PassView;
use crate::heap::rare::simd::wide_checks::{self, CANDIDATES, NO_CANDIDATE, Row};
use crate::heap::storage::store::Values;
use grundy_core::kernel::rare::RareCode;

/// A source of rare-pair marks: breaking digit `digit` with rare heap
/// `rare[index]`, at `index * digits + digit`.
pub(super) fn source(index: usize, digit: usize, digits: usize) -> usize {
    index * digits + digit
}

/// Which sources the next blocks' passes check instead of marking.
#[derive(Default)]
pub(super) struct Checked {
    /// Per source, its credit from the sampled heaps.
    credit: Vec<u32>,
    samples: u64,
    /// The share of the sources marked, in 32nds.
    marked_32nds: usize,
    /// The sources, most credited first, as sorted `sorted_at` samples.
    order: Vec<u32>,
    sorted_at: u64,
    /// Per source, true when it is checked.
    pub(super) checked: Vec<bool>,
    /// Every source is marked (for tests: the run without checks).
    pub(super) off: bool,
    /// Checks even where they do not pay (for tests on any CPU).
    pub(super) forced: bool,
}

/// Sampled heaps before any source is checked, and between two choices.
const MIN_SAMPLES: u64 = 128;
const CHOOSE_EVERY: u64 = 32;
/// One task in this many of the pass marks a heap wholly to learn from.
pub(super) const SAMPLE_EVERY: usize = 8;
/// Sources below which every one is marked (few marks: nothing to spare).
pub(super) const MIN_SOURCES: usize = 256;
/// The share marked starts here, and moves by a 32nd a block to keep the
/// heaps whose candidates were all reached between these rates: below
/// them marking less pays, above them the heaps marked wholly cost more
/// than the marks spared.
const START_32NDS: usize = 13;
const MIN_32NDS: usize = 6;
const FAIL_HIGH: f64 = 0.02;
const FAIL_LOW: f64 = 0.005;

impl Checked {
    /// Whether the passes learn which sources to check: where the checks
    /// pay, unless they are off.
    pub(super) fn wanted(&self) -> bool {
        !self.off && (self.forced || wide_checks::pay())
    }

    /// Adds the credits of a block's sampled heaps, and the share of its
    /// heaps whose candidates were all reached.
    pub(super) fn learn(&mut self, credits: &[(u32, u32)], samples: u64, failed: u64, heaps: u64) {
        for &(src, credit) in credits {
            let src = src as usize;
            if src >= self.credit.len() {
                self.credit.resize(src + 1, 0);
            }
            self.credit[src] += credit;
        }
        self.samples += samples;
        if self.marked_32nds == 0 {
            self.marked_32nds = START_32NDS;
        }
        if heaps > 0 && self.checked.iter().any(|&c| c) {
            let rate = failed as f64 / heaps as f64;
            if rate > FAIL_HIGH {
                self.marked_32nds = (self.marked_32nds + 1).min(32);
            } else if rate < FAIL_LOW {
                self.marked_32nds = (self.marked_32nds - 1).max(MIN_32NDS);
            }
        }
    }

    /// Chooses the sources to check among `sources`: all but the most
    /// credited share (sorted again every `CHOOSE_EVERY` samples; the share
    /// moves each block).
    pub(super) fn choose(&mut self, sources: usize) {
        self.checked.clear();
        self.checked.resize(sources, false);
        let unlearned = self.samples < MIN_SAMPLES || self.marked_32nds >= 32;
        if !self.wanted() || sources < MIN_SOURCES || unlearned {
            return;
        }
        if self.order.len() != sources || self.samples >= self.sorted_at + CHOOSE_EVERY {
            self.credit.resize(sources, 0);
            self.order = (0..sources as u32).collect();
            let credit = &self.credit;
            self.order
                .sort_unstable_by_key(|&i| (std::cmp::Reverse(credit[i as usize]), i));
            self.sorted_at = self.samples;
        }
        let marked = sources * self.marked_32nds / 32;
        for &i in &self.order[marked..] {
            self.checked[i as usize] = true;
        }
    }

    /// Forgets what was learned (the split changed: the rare list is new).
    pub(super) fn reset(&mut self) {
        *self = Checked {
            off: self.off,
            forced: self.forced,
            ..Checked::default()
        };
    }
}

/// Every rare pair of heap n with both parts below `s = g.len()`, as
/// (source, G(r) ⊕ G(b)).
fn pairs_below<V: Values>(code: &RareCode, run: &PassView, g: V, n: usize) -> Vec<(u32, u32)> {
    let (s, digits) = (g.len(), code.splits.len());
    let mut pairs = Vec::with_capacity(run.rare.len() * digits);
    for (digit, &(j, diff)) in code.splits.iter().enumerate() {
        let Some(m) = n.checked_sub(j) else {
            continue;
        };
        // The partner m − r lies below s for r past m − s.
        let from = run.rare.partition_point(|&r| r + s <= m);
        let (rare, values) = (&run.rare[from..], &run.values[from..]);
        let source = |i| source(from + i, digit, digits) as u32;
        each_rare_pair(
            &mut |i, x| pairs.push((source(i), x)),
            g,
            rare,
            values,
            m,
            diff,
        );
    }
    pairs
}

/// The credits of one heap n, marked wholly: each source that is the only
/// one, or one of two, to reach a common value below n's c′ (`takes`: its
/// take marks).
pub(super) fn credits_of<V: Values>(
    code: &RareCode,
    run: &PassView,
    g: V,
    n: usize,
    takes: &[u64],
) -> Vec<(u32, u32)> {
    let pairs = pairs_below(code, run, g, n);
    let mut counts = vec![0u8; takes.len() * 64];
    for &(_, x) in &pairs {
        counts[x as usize] = counts[x as usize].saturating_add(1);
    }
    let mut bits = takes.to_vec();
    pairs.iter().for_each(|&(_, x)| set_bit(&mut bits, x));
    let flip = run.split.flip(n as u64);
    let c = first_unmarked(&bits, |w| common_word(run.split.mask, flip, w));
    let common = |x: u32| common_word(run.split.mask, flip, x as usize / 64) >> (x % 64) & 1 != 0;
    let taken = |x: u32| takes[x as usize / 64] >> (x % 64) & 1 != 0;
    let credit = |x: u32| 3u32.saturating_sub(counts[x as usize] as u32);
    pairs
        .into_iter()
        .filter(|&(_, x)| x < c && counts[x as usize] <= 2 && common(x) && !taken(x))
        .map(|(src, x)| (src, credit(x)))
        .collect()
}

/// The first `CANDIDATES` free common values of a heap's marks `bits`
/// (`NO_CANDIDATE` past the last).
pub(super) fn candidates(bits: &[u64], mask: u32, flip: u32) -> [u16; CANDIDATES] {
    let mut found = [NO_CANDIDATE; CANDIDATES];
    let mut k = 0;
    for (w, &word) in bits.iter().enumerate() {
        let mut free = !word & common_word(mask, flip, w);
        while free != 0 && k < CANDIDATES {
            found[k] = (w * 64) as u16 + free.trailing_zeros() as u16;
            free &= free - 1;
            k += 1;
        }
        if k == CANDIDATES {
            break;
        }
    }
    found
}

/// What the checks of one heap tell its marks `bits`: the candidates
/// reached are marked, and the marks are now whole below the returned
/// bound; `None` when every candidate was reached (the heap's checked
/// pairs must then be marked).
pub(super) fn settle(bits: &mut [u64], found: &[u16; CANDIDATES], reached: u16) -> Option<u32> {
    for (k, &c) in found.iter().enumerate() {
        if reached >> k & 1 != 0 {
            set_bit(bits, c as u32);
        }
    }
    let last = found.iter().rposition(|&c| c != NO_CANDIDATE);
    let unreached = (0..CANDIDATES).any(|k| found[k] != NO_CANDIDATE && reached >> k & 1 == 0);
    match (last, unreached) {
        // Fewer candidates than the room for them: every free common
        // value was one.
        (Some(last), true) if last + 1 < CANDIDATES => Some(u32::MAX),
        (Some(last), true) => Some(found[last] as u32 + 1),
        (None, _) => Some(u32::MAX),
        (Some(_), false) => None,
    }
}

/// The checked rows of heap lane `lane` marked into `bits`, one by one.
pub(super) fn mark_rows<V: Values>(g: V, rows: &[Row], lane: usize, bits: &mut [u64]) {
    for row in rows {
        set_bit(bits, row.value as u32 ^ g.at(row.start + lane));
    }
}
