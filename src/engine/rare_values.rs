//! The rare-value (sparse space) algorithm for one Nim-sequence.
//!
//! Under a split of values into rare and common (`analysis::rare_split`), a split
//! option G(a) ⊕ G(b) is common exactly when one of a, b is a rare position.
//! So for heap n: mark the take options and, for every breaking digit and
//! every rare position r, G(r) ⊕ G(n − j − r); now every common option is
//! marked, and c, the smallest unmarked common value, bounds G(n). Scan the
//! split pairs, marking values below c, until every value below c is
//! marked: then G(n) = c. When the scan ends first, G(n) is the mex of what
//! was marked, a rare value, and n joins the rare positions. The cost per
//! heap is (breaking digits × rare positions) plus a short scan.
//!
//! Heaps run in blocks. A parallel pass (rayon) does, for every heap of the
//! block at once, all it can from the heaps below the block: the marks, a
//! candidate c′, and the scan for the rare values below c′ among the pairs
//! with both parts below the block. Heap by heap, in order, only the marks
//! and pairs that touch the block are left, unless the block's own marks
//! moved c past c′ (then every pair is scanned again). Codes where that
//! happens often (few rare heaps, short scans: `.1777`) go in order, and
//! the other cores collect meanwhile, for each heap of the next block, the
//! values of its split pairs nearest the middle (parts near half the heap,
//! long known): most heaps then need no scan of their own.
//! The table is `Vec<u8>` or `Vec<u16>`; a value too large for it stops the
//! run so the caller can widen it and go on.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

use crate::analysis::rare_split::{RareSplit, ValueHistogram, rare_positions_by};
use crate::engine::growing::{Growing, grow_while_reading};
use crate::engine::heap_table::Value;
use crate::engine::store::{Store, Values};
use crate::engine::wide_bits;
use crate::engine::wide_scan::Wanted;
use crate::gpu::rare::{GpuPass, PassOutput, Table as GpuTable};
use crate::hooks::RunHooks;
use crate::kernel::rare::PassParams;
pub use crate::kernel::rare::{RareCode, rare_parity, sparse_enough};

/// Heaps per block: enough pair reads per block (`BLOCK_PAIRS`) that
/// handing the block to the threads costs little, within these bounds.
/// Long blocks leave more of each heap's marks to the in-order pass.
const MIN_BLOCK: usize = 256;
const MAX_BLOCK: usize = 8192;
const BLOCK_PAIRS: u64 = 1 << 21;
/// When the block's own marks sent more than one heap in `RESCAN_RATIO`
/// back to a scan of every pair, the pass was wasted work: the next
/// heaps of `IN_ORDER_BLOCKS` such blocks go heap by heap without it.
const RESCAN_RATIO: usize = 4;
const IN_ORDER_BLOCKS: usize = 16;
/// The heaps in order double with each wasted pass in a row, at most this
/// many times (`.1777`'s passes are all wasted).
const MAX_BACK_OFF: u32 = 6;
/// Below this many heaps the table is too short to judge its sparseness.
const JUDGE_FROM: usize = 1 << 15;

/// Whether a run may give up on a table that is not sparse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persist {
    /// Stop with `Outcome::Dense` when rare positions are too many to pay.
    GiveUpWhenDense,
    /// Go on whatever the rare count (`--algorithm rare`).
    Always,
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every heap up to the target is done.
    Done,
    /// `stop()` asked for a pause; the table holds every heap below its length.
    Paused,
    /// More than one heap in `DENSE_RATIO` is rare: the brute force is the tool.
    Dense,
    /// G(n) does not fit the value type; widen the table and call again.
    Widen { n: u64, value: u32 },
    /// The GPU failed while running the block pass.
    Failed(String),
    /// Memory for the next `heaps` values could not be had; the table holds
    /// every heap below its length.
    OutOfMemory { heaps: usize },
}

/// The state the algorithm keeps besides the table.
pub struct RareRun {
    pub split: RareSplit,
    /// Rare positions, ascending, and their values.
    pub rare: Vec<usize>,
    rare_values: Vec<u32>,
    hist: ValueHistogram,
    /// Rare positions when the split was last chosen.
    rare_at_choice: usize,
    max_value: u32,
    marks_past_rare: MarkList,
    pub counts: RareCounts,
}

/// The marks of a heap past every rare position, in a block without a
/// pass, as (d, x): mark x ⊕ G(n − d). One per take to one heap (x = 0) and
/// per breaking digit and rare position; built with the rare list, and
/// extended as it grows. Entries with d below 8 (`near`) read heaps the
/// eight heaps before n may still be computing; the others (`far`) can be
/// marked for eight heaps at once.
#[derive(Default)]
struct MarkList {
    /// The first heap every entry applies to.
    from: usize,
    near: Vec<(usize, u32)>,
    far: Vec<(usize, u32)>,
}

/// Entries of a `MarkList` with d at least this are `far`.
const FAR: usize = 8;

impl MarkList {
    /// The marks of heap n (at least `from`) as bits, every value below 64.
    fn bits<V: Values>(&self, g: V, n: usize) -> u64 {
        entry_bits(&self.near, g, n) | entry_bits(&self.far, g, n)
    }

    /// The far marks of heaps n..n + 8 (n at least `from`), when the table
    /// is one byte a value and the CPU marks eight heaps at once.
    fn far_of_eight<V: Values>(&self, g: V, n: usize) -> Option<[u64; 8]> {
        let bytes = V::Unit::bytes(g.no_escapes()?)?;
        crate::engine::wide_bits::eight_heaps(bytes, n, &self.far)
    }

    fn new(code: &RareCode, rare: &[usize], values: &[u32]) -> MarkList {
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
    fn push_rare(&mut self, code: &RareCode, r: usize, v: u32) {
        for &(j, diff) in &code.splits {
            // Every rare position has its partner past it, `diff` apart.
            self.from = self.from.max(j + 2 * r + diff + 2);
            self.push(j + r, v);
        }
    }

    fn push(&mut self, d: usize, x: u32) {
        match d < FAR {
            true => self.near.push((d, x)),
            false => self.far.push((d, x)),
        }
    }
}

/// The bits `1 << ((x ^ G(n − d)) & 63)` of `entries`. Four registers take
/// turns, so that no OR waits on the one before it.
fn entry_bits<V: Values>(entries: &[(usize, u32)], g: V, n: usize) -> u64 {
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
struct FarMarks {
    first: usize,
    entries: usize,
    bits: Option<[u64; 8]>,
}

impl FarMarks {
    /// Heap n's marks from `list.far`.
    fn of<V: Values>(&mut self, list: &MarkList, g: V, n: usize) -> u64 {
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

/// What the block pass reads of a run: the rare positions (all below the
/// heaps it knows) and their values, the split, the largest value.
struct PassView<'a> {
    rare: &'a [usize],
    values: &'a [u32],
    split: RareSplit,
    max_value: u32,
}

/// How the heaps of a run went (for tests and benchmarks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RareCounts {
    /// Heaps done in blocks that went in order.
    pub in_order: u64,
    /// Of those, heaps whose scan the middle pairs made unnecessary.
    pub settled_by_middle: u64,
    /// Heaps the parallel pass went over, its rare-pair marks, the split
    /// pairs its scans read, and its wall time.
    pub pass_heaps: u64,
    /// Of those, heaps whose pass ran on the GPU (its marks are not
    /// counted), and of these the heaps whose pass ran while the block
    /// before them was finished.
    pub gpu_heaps: u64,
    pub gpu_pipelined: u64,
    pub pass_marks: u64,
    pub pass_pairs: u64,
    pub pass_nanos: u64,
}

impl RareRun {
    /// The state for a table known up to its length.
    pub fn new<V: Values>(code: &RareCode, g: V) -> RareRun {
        let hist = match g.no_escapes() {
            Some(units) => ValueHistogram::of(units),
            None => ValueHistogram::by_piece(g.len(), |a, b| g.range(a, b).wide()),
        };
        let (split, _) = hist.best_split(code.parity);
        // Heap 0 is not in the histogram.
        let max_value = hist.max_value().max(if g.is_empty() { 0 } else { g.at(0) });
        let mut run = RareRun {
            split,
            rare: Vec::new(),
            rare_values: Vec::new(),
            hist,
            rare_at_choice: 0,
            max_value,
            marks_past_rare: MarkList::default(),
            counts: RareCounts::default(),
        };
        run.rebuild(code, g);
        run
    }

    fn rebuild<V: Values>(&mut self, code: &RareCode, g: V) {
        self.rare = rare_positions_by(g.len(), |n| g.at(n), self.split)
            .into_iter()
            .map(|n| n as usize)
            .collect();
        self.rare_values = self.rare.iter().map(|&r| g.at(r)).collect();
        self.rare_at_choice = self.rare.len();
        self.marks_past_rare = MarkList::new(code, &self.rare, &self.rare_values);
    }

    /// Chooses the split again when the rare list has grown by
    /// `RECHOOSE_AFTER`, and switches when the new one would have made that
    /// many fewer rare heaps. Choosing is cheap (a transform of the value
    /// histogram) and switching costs one pass over the table, while each
    /// rare heap under a split gone stale costs a scan of all its pairs:
    /// in Grundy's game near 2^25.5, when values of 256 appear, waiting for
    /// the rare list to double meant 1,221 such scans.
    fn maybe_rechoose<V: Values>(&mut self, code: &RareCode, g: V) {
        if self.rare.len() < self.rare_at_choice + RECHOOSE_AFTER {
            return;
        }
        let (split, count) = self.hist.best_split(code.parity);
        if split != self.split && count as usize + RECHOOSE_AFTER < self.rare.len() {
            self.split = split;
            self.rebuild(code, g);
        } else {
            self.rare_at_choice = self.rare.len();
        }
    }
}

/// New rare heaps after which the split is chosen again.
const RECHOOSE_AFTER: usize = 32;

/// Bitset words for values below `2 * next_pow2(max + 1)`: every option of
/// a table whose values are at most `max` is below the power of two, and the
/// mex fits in the other half.
fn words_for(max: u32) -> usize {
    ((2 * (max + 1).next_power_of_two()) as usize).div_ceil(64)
}

/// How long a stretch of blocks runs on a worker of the pool before the
/// caller hears of progress and may stop the run.
const STRETCH: std::time::Duration = std::time::Duration::from_millis(100);

/// Extends `g` to heaps `0..=to` by the rare-value algorithm; the blocks'
/// parallel pass runs on the GPU where `gpu` can take it.
pub fn extend<S: Store>(
    code: &RareCode,
    run: &mut RareRun,
    g: &mut S,
    (to, persist): (u64, Persist),
    gpu: &mut Option<GpuPass>,
    hooks: &dyn RunHooks,
) -> Outcome {
    let end = to as usize + 1;
    if g.is_empty() && end > 0 {
        g.push(0);
    }
    let mut blocks = Blocks {
        block: MIN_BLOCK,
        ..Blocks::default()
    };
    while g.len() < end {
        // The blocks run on a worker of the pool, stretch by stretch: each
        // block's pass then starts there, and no thread waits to be woken
        // for it (on a VM a wake-up costs about what a block's finish does).
        let started = std::time::Instant::now();
        let outcome = rayon::scope(|_| {
            loop {
                if let Some(outcome) = blocks.next(code, run, g, end, persist, gpu) {
                    break Some(outcome);
                }
                if g.len() >= end || started.elapsed() >= STRETCH {
                    break None;
                }
            }
        });
        hooks.progress(g.len() as u64);
        if let Some(outcome) = outcome {
            return outcome;
        }
        if g.len() < end && hooks.stop() {
            return Outcome::Paused;
        }
    }
    Outcome::Done
}

/// What carries from one block of a run to the next.
#[derive(Default)]
struct Blocks {
    /// Heaps in the next block that has a pass.
    block: usize,
    /// Heaps below this go in order (a block's pass was wasted work).
    in_order_until: usize,
    /// Blocks in a row whose pass was wasted work.
    wasted: u32,
    /// The next block's middle pairs, when it goes in order.
    middle: Option<MiddleHits>,
    /// The next block's pass, launched on the GPU.
    pending: Option<PassParams>,
    bits: Vec<u64>,
    wanted: Vec<u64>,
}

impl Blocks {
    /// Computes the next block of heaps, up to `end`; `Some` when the run
    /// must stop there.
    fn next<S: Store>(
        &mut self,
        code: &RareCode,
        run: &mut RareRun,
        g: &mut S,
        end: usize,
        persist: Persist,
        gpu: &mut Option<GpuPass>,
    ) -> Option<Outcome> {
        let s = g.len();
        // No block is longer than the heaps below it. Blocks in order are
        // as long as blocks go (the threads meet once a block) but at most
        // a quarter of the heaps below, so that the next block's middle
        // pairs (parts near half its heaps) lie below this one.
        let block_end = |s: usize, len: usize| end.min(s + len.min(s.max(64)));
        let in_order_len = |s: usize| MAX_BLOCK.min(s / 4).max(16);
        let in_order = s < self.in_order_until;
        let e = block_end(
            s,
            if in_order {
                in_order_len(s)
            } else {
                self.block
            },
        );
        let ahead = if in_order {
            BlockAhead::in_order_with(code, g.view(), (s, e), self.middle.take(), run.max_value)
        } else {
            let ahead = match block_pass(code, run, g.view(), (s, e), gpu, &mut self.pending) {
                Ok(ahead) => ahead,
                Err(failed) => return Some(failed),
            };
            if ahead.on_gpu {
                // The next block's pass on the GPU, while this one is finished.
                self.resize(&ahead, e - s);
                let next = (s, e, block_end(e, self.block));
                self.pending = (e >= self.in_order_until)
                    .then(|| launch_next(code, run, g.view(), next, gpu))
                    .flatten();
            }
            ahead
        };
        // A block in order leaves the other cores free: they collect the
        // next block's middle pairs meanwhile (their parts lie below s).
        let window = (e < self.in_order_until.min(end)).then(|| {
            MiddleWindow::copy(code, g, s, e, block_end(e, in_order_len(e)), run.max_value)
        });
        let (widened, next_hits) = self.finish(code, run, g, (&ahead, e), window);
        if widened.is_some() {
            return widened;
        }
        self.middle = next_hits;
        if !in_order && !ahead.on_gpu {
            self.resize(&ahead, e - s);
        }
        count_pass(run, &ahead, e - s);
        self.count(run, &ahead, (s, e));
        run.maybe_rechoose(code, g.view());
        let dense = g.len() >= JUDGE_FROM && !sparse_enough(run.rare.len(), g.len());
        (persist == Persist::GiveUpWhenDense && dense).then_some(Outcome::Dense)
    }

    /// Finishes the block up to `e` in order while the pass's tasks run on
    /// the other cores (each task's heaps once it is done, or running it
    /// itself) and the next block's middle pairs are collected from
    /// `window`; the tasks read the rare list as it is now.
    fn finish<S: Store>(
        &mut self,
        code: &RareCode,
        run: &mut RareRun,
        g: &mut S,
        (ahead, e): (&BlockAhead, usize),
        window: Option<MiddleWindow<S>>,
    ) -> (Option<Outcome>, Option<MiddleHits>) {
        let (rare, values) = match ahead.tasks_left() {
            true => (run.rare.clone(), run.rare_values.clone()),
            false => Default::default(),
        };
        let view = PassView {
            rare: &rare,
            values: &values,
            split: run.split,
            max_value: run.max_value,
        };
        let (bits, wanted) = (&mut self.bits, &mut self.wanted);
        let room = e - g.len();
        let grown = grow_while_reading(
            g,
            room,
            |g| {
                rayon::join(
                    || finish_block(code, run, g, (ahead, &view), e, bits, wanted),
                    || window.map(|w| w.collect(code)),
                )
            },
            |below| ahead.run_tasks(code, &view, below),
        );
        match grown {
            Ok((finished, ())) => finished,
            Err(_) => (Some(Outcome::OutOfMemory { heaps: room }), None),
        }
    }

    /// Sizes the next block with a pass from this one's pairs per heap.
    fn resize(&mut self, ahead: &BlockAhead, heaps: usize) {
        let per_heap = (ahead.totals().0 / heaps as u64).max(1);
        self.block = ((BLOCK_PAIRS / per_heap) as usize).clamp(MIN_BLOCK, MAX_BLOCK);
    }

    /// Counts the block s..e in `run`, and sends the next blocks in order
    /// when this one's pass was wasted work.
    fn count(&mut self, run: &mut RareRun, ahead: &BlockAhead, (s, e): (usize, usize)) {
        if let Some(hits) = &ahead.middle {
            run.counts.in_order += (e - s) as u64;
            run.counts.settled_by_middle += hits.settled.load(Relaxed) as u64;
        }
        if ahead.below == 0 {
            return;
        }
        if ahead.rescans.load(Relaxed) as usize * RESCAN_RATIO > e - s {
            // Each wasted pass in a row doubles the heaps before the next.
            let blocks = IN_ORDER_BLOCKS << self.wasted.min(MAX_BACK_OFF);
            self.in_order_until = e + blocks * self.block;
            self.wasted += 1;
        } else {
            self.wasted = 0;
        }
    }
}

/// The parallel pass over heaps s..e: the one launched on the GPU while
/// the block before was finished (`pending`, when it is this block's under
/// the same split), else on the GPU now when `gpu` takes it, else tasks
/// for every core, run while the block is finished.
fn block_pass<V: Values>(
    code: &RareCode,
    run: &mut RareRun,
    g: V,
    (s, e): (usize, usize),
    gpu: &mut Option<GpuPass>,
    pending: &mut Option<PassParams>,
) -> Result<BlockAhead, Outcome> {
    let started = std::time::Instant::now();
    let failed = |e: crate::error::Error| Outcome::Failed(e.to_string());
    let split = (run.split.mask, run.split.parity.map_or(0, |t| t + 1));
    let launched = pending
        .take()
        .filter(|p| (p.first as usize, (p.first + p.count) as usize) == (s, e))
        .filter(|p| (p.mask, p.parity) == split);
    let words = words_for(run.max_value);
    run.counts.gpu_pipelined += launched.is_some() as u64 * (e - s) as u64;
    let ahead = match (gpu.as_mut(), launched) {
        (Some(pass), Some(params)) => {
            BlockAhead::from_gpu(pass.collect(params).map_err(failed)?, params)
        }
        (Some(pass), None) if pass.takes(words, e, code.splits.len(), run.rare.len()) => {
            let params = BlockAhead::gpu_params(run, s, s, e);
            let pack = pack_values(g.range(0, s));
            let table = GpuTable {
                len: s,
                pack: &pack,
            };
            let out = pass.run(params, &table, &run.rare, &run.rare_values);
            BlockAhead::from_gpu(out.map_err(failed)?, params)
        }
        _ => BlockAhead::tasks(s, (s, e), run.max_value),
    };
    if ahead.on_gpu {
        ahead
            .nanos
            .store(started.elapsed().as_nanos() as u64, Relaxed);
    }
    Ok(ahead)
}

/// Counts a block's pass in `run.counts`, once the block is finished.
fn count_pass(run: &mut RareRun, ahead: &BlockAhead, heaps: usize) {
    if ahead.tasks.is_empty() {
        return;
    }
    let (pairs, marks) = ahead.totals();
    let counts = &mut run.counts;
    counts.gpu_heaps += ahead.on_gpu as u64 * heaps as u64;
    counts.pass_nanos += ahead.nanos.load(Relaxed);
    counts.pass_heaps += heaps as u64;
    counts.pass_marks += marks;
    counts.pass_pairs += pairs;
}

/// Launches on the GPU the pass of the next block, `first..end`, knowing
/// only the heaps below `below` (this block's first): the card works on it
/// while the host finishes this block, which its finish then covers.
fn launch_next<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    (below, first, end): (usize, usize, usize),
    gpu: &mut Option<GpuPass>,
) -> Option<PassParams> {
    let pass = gpu.as_mut()?;
    let words = words_for(run.max_value);
    if first >= end || !pass.takes(words, end, code.splits.len(), run.rare.len()) {
        return None;
    }
    let params = BlockAhead::gpu_params(run, below, first, end);
    let pack = pack_values(g.range(0, below));
    let table = GpuTable {
        len: below,
        pack: &pack,
    };
    Some(pass.launch(params, &table, &run.rare, &run.rare_values))
}

/// The GPU's upload of `g`: its values a..b (a even), two to a word.
fn pack_values<V: Values>(g: V) -> impl Fn(usize, usize) -> Vec<u32> {
    move |a, b| {
        let part = g.range(a, b);
        match part.exact() {
            Some(units) => crate::kernel::pack_u16(units),
            None => crate::kernel::pack_u16(&part.wide()),
        }
    }
}

/// Heaps s..e in order, pushed onto `g`, each once the pass's task that
/// holds it is done (`view`: what the tasks read of the run); `Some` when a
/// value does not fit the table's type.
fn finish_block<S: Store>(
    code: &RareCode,
    run: &mut RareRun,
    g: &mut Growing<S>,
    (ahead, view): (&BlockAhead, &PassView),
    e: usize,
    bits: &mut Vec<u64>,
    wanted: &mut Vec<u64>,
) -> Option<Outcome> {
    let (mut settled, mut far) = (0, FarMarks::default());
    for n in ahead.first..e {
        ahead.wait_for(n, code, view, g.view().range(0, ahead.below));
        let v = match settle_small(code, run, g.view(), (ahead, &mut far), n) {
            Some((v, by_middle)) => {
                settled += by_middle as u32;
                v
            }
            None => {
                bits.clear();
                bits.extend_from_slice(ahead.marks(n));
                finish_heap(code, run, g.view(), ahead, n, bits, wanted)
            }
        };
        if !g.push(v) {
            return Some(Outcome::Widen {
                n: n as u64,
                value: v,
            });
        }
        run.hist.add(n as u64, v);
        run.max_value = run.max_value.max(v);
        if run.split.is_rare(n as u64, v) {
            run.rare.push(n);
            run.rare_values.push(v);
            run.marks_past_rare.push_rare(code, n, v);
        }
    }
    if let Some(middle) = &ahead.middle {
        middle.settled.fetch_add(settled, Relaxed);
    }
    None
}

/// Split pairs per breaking digit the middle pass reads for each heap.
const MIDDLE_PAIRS: usize = 32;

/// For each heap of a block, the values of its split pairs nearest the
/// middle (a near m/2: both parts far below the heap, known long before
/// it). Where the block's own heaps move c (`.1777`), the heaps go in
/// order and their scans are what is left to share: these values, collected
/// on the other cores while the block before runs, are most of what a scan
/// looks for, so it reads pairs itself only for the rest.
struct MiddleHits {
    first: usize,
    words: usize,
    sets: Vec<u64>,
    /// Heaps whose scan these values made unnecessary.
    settled: AtomicU32,
}

impl MiddleHits {
    /// The middle pairs of heaps `heaps` with both parts below `known`,
    /// reading G(x) from `table[x - start]`, whose values are at most `max`.
    fn collect<V: Values>(
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

    fn end(&self) -> usize {
        self.first + self.sets.len() / self.words.max(1)
    }

    fn of(&self, n: usize) -> &[u64] {
        let i = (n - self.first) * self.words;
        &self.sets[i..i + self.words]
    }
}

/// The values G(a) ⊕ G(m − a) of the pairs (`low[k]`, `high[len − 1 − k]`)
/// as bits, every value below 64. Four registers take turns, so that no OR
/// waits on the one before it.
fn pair_bits<T: Value>(low: &[T], high: &[T]) -> u64 {
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
fn middle_pairs(
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
struct MiddleWindow<S> {
    start: usize,
    values: S,
    known: usize,
    heaps: std::ops::Range<usize>,
    max: u32,
}

impl<S: Store> MiddleWindow<S> {
    fn copy(code: &RareCode, g: &S, known: usize, first: usize, end: usize, max: u32) -> Self {
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

    fn collect(self, code: &RareCode) -> MiddleHits {
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

/// Calls `mark(G(r) ⊕ G(m − r))` for the rare positions `rare[i]` (values
/// `values[i]`) with r < m and an allowed split (parts differing by `diff`).
#[inline(always)]
fn mark_rare_pairs<V: Values>(
    mark: &mut impl FnMut(u32),
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
    for (&r, &gr) in rare[..end].iter().zip(&values[..end]) {
        let b = m - r;
        if diff == 0 || r.abs_diff(b) >= diff {
            mark(gr ^ g.at(b));
        }
    }
}

/// Transposes a 64 × 64 matrix of bits: bit i of word k goes to bit k of
/// word i (six rounds of swapping ever smaller blocks).
fn transpose64(a: &mut [u64; 64]) {
    let (mut j, mut m) = (32, 0x0000_0000_FFFF_FFFFu64);
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// Sets value v's bit in `bits`.
#[inline]
fn set_bit(bits: &mut [u64], v: u32) {
    bits[(v >> 6) as usize] |= 1 << (v & 63);
}

/// What the parallel pass over a block of heaps `s..e` learned from the
/// heaps below `s` alone, for each heap n of the block:
/// - marks: the options of take moves to heaps below `s` and of the rare
///   pairs whose parts both lie below `s`;
/// - c′, the smallest common value those marks leave free (G(n)'s
///   candidate before the block's own heaps are known: every later mark
///   only raises it);
/// - missing: the rare values below c′ that no split pair with both parts below
///   `s` reaches (the pairs are scanned until none is left, or to the end).
///
/// Looking further (for the rare values below the second or third free
/// common value, in case the block's marks cover c′) is slower on
/// Officers (BENCHMARKS.md): the last of more wanted values takes longer
/// to find.
///
/// The scan of split pairs is most of the algorithm's work; doing it here
/// for every heap of the block at once is what lets it use every core.
/// A block may also go without the pass (`in_order`): then nothing is known
/// ahead, and each heap is done wholly in order.
struct BlockAhead {
    /// The block's first heap and the heap past its last.
    first: usize,
    end: usize,
    /// Heaps the pass knew (the block's first heap, or 0 without a pass).
    below: usize,
    words: usize,
    /// The pass, `PASS_CHUNK` heaps a task, each set once its task has run
    /// (none without a pass).
    tasks: Vec<OnceLock<TaskOut>>,
    /// Tasks claimed so far: the thread that claims one runs it.
    claimed: AtomicUsize,
    /// The pass's time: its tasks' on the CPU, summed over threads.
    nanos: AtomicU64,
    /// The pass ran on the GPU.
    on_gpu: bool,
    /// Heaps of the block whose own marks moved G(n) past the candidate.
    rescans: AtomicU32,
    /// The values of each heap's middle pairs (blocks in order only).
    middle: Option<MiddleHits>,
}

impl BlockAhead {
    /// The pass over heaps first..e from the heaps below `below` (at most
    /// `first`) whose values are at most `max`, as tasks not yet run.
    fn tasks(below: usize, (first, e): (usize, usize), max: u32) -> BlockAhead {
        BlockAhead {
            end: e,
            below,
            words: words_for(max),
            tasks: (0..(e - first).div_ceil(PASS_CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            ..BlockAhead::in_order(first)
        }
    }

    /// Whether a task is left to claim.
    fn tasks_left(&self) -> bool {
        self.claimed.load(Relaxed) < self.tasks.len()
    }

    /// Runs the tasks left, on every core; `g` holds the heaps below
    /// `below`.
    fn run_tasks<V: Values>(&self, code: &RareCode, run: &PassView, g: V) {
        if self.tasks_left() {
            (0..rayon::current_num_threads())
                .into_par_iter()
                .for_each(|_| while self.run_task(code, run, g) {});
        }
    }

    /// Claims the next task and runs it; false when none was left.
    fn run_task<V: Values>(&self, code: &RareCode, run: &PassView, g: V) -> bool {
        let started = std::time::Instant::now();
        let k = self.claimed.fetch_add(1, Relaxed);
        let Some(slot) = self.tasks.get(k) else {
            return false;
        };
        let n0 = self.first + k * PASS_CHUNK;
        let n1 = self.end.min(n0 + PASS_CHUNK);
        let out = TaskOut::run(code, run, g, (n0, n1), self.words);
        // Only the claimer sets its slot.
        let _ = slot.set(out);
        self.nanos
            .fetch_add(started.elapsed().as_nanos() as u64, Relaxed);
        true
    }

    /// Waits until the task that holds heap n is done, running tasks left
    /// meanwhile; `g` holds the heaps below `below`.
    fn wait_for<V: Values>(&self, n: usize, code: &RareCode, run: &PassView, g: V) {
        let Some(slot) = self.tasks.get((n - self.first) / PASS_CHUNK) else {
            return;
        };
        while slot.get().is_none() {
            if !self.run_task(code, run, g) {
                std::hint::spin_loop();
            }
        }
    }

    /// The task that holds heap n, and n's place in it (`None` without a pass).
    fn task(&self, n: usize) -> Option<(&TaskOut, usize)> {
        let i = n - self.first;
        let task = self.tasks.get(i / PASS_CHUNK)?.get()?;
        Some((task, i % PASS_CHUNK))
    }

    /// Split pairs the pass read, and rare-pair marks it made, over the
    /// whole block.
    fn totals(&self) -> (u64, u64) {
        let done = self.tasks.iter().filter_map(OnceLock::get);
        done.fold((0, 0), |(p, m), t| (p + t.pairs, m + t.marks))
    }

    /// The pass's parameters for heaps first..e with heaps below `below`
    /// known.
    fn gpu_params(run: &RareRun, below: usize, first: usize, e: usize) -> PassParams {
        PassParams {
            s: below as u32,
            first: first as u32,
            count: (e - first) as u32,
            words: 2 * words_for(run.max_value) as u32,
            mask: run.split.mask,
            parity: run.split.parity.map_or(0, |t| t + 1),
            rare_count: 0,
            groups_x: 0,
            piece_shift: 0,
        }
    }

    /// What the pass on the GPU (`kernel::rare::RARE_PASS`) found: the same
    /// marks, missing values and c′ as `scan`; its pairs are counted in the
    /// shader's chunks.
    fn from_gpu(out: PassOutput, params: PassParams) -> BlockAhead {
        // Two u32 words of the shader are one u64 word here, low first.
        let words = params.words as usize / 2;
        let sets = out.sets.chunks(2 * PASS_CHUNK * 2 * words);
        let results = out.results.chunks(2 * PASS_CHUNK);
        let tasks = sets.zip(results).map(|(sets, results)| {
            let results = results.chunks_exact(2);
            OnceLock::from(TaskOut {
                sets: sets
                    .chunks_exact(2)
                    .map(|p| p[0] as u64 | (p[1] as u64) << 32)
                    .collect(),
                candidates: results.clone().map(|r| r[0]).collect(),
                // The shader reads every pair below the block.
                rests: vec![0; results.len()],
                pairs: results.map(|r| r[1] as u64).sum(),
                marks: 0,
            })
        });
        let tasks: Vec<_> = tasks.collect();
        BlockAhead {
            end: (params.first + params.count) as usize,
            below: params.s as usize,
            words,
            claimed: AtomicUsize::new(tasks.len()),
            tasks,
            on_gpu: true,
            ..BlockAhead::in_order(params.first as usize)
        }
    }

    /// A block in order, with its heaps' middle pairs: `middle` when they
    /// were collected for this block, else collected now.
    fn in_order_with<V: Values>(
        code: &RareCode,
        g: V,
        (s, e): (usize, usize),
        middle: Option<MiddleHits>,
        max: u32,
    ) -> BlockAhead {
        let mut ahead = BlockAhead::in_order(s);
        ahead.middle = match middle {
            Some(hits) if hits.first == s && hits.end() == e => Some(hits),
            _ => Some(MiddleHits::collect(code, g, 0, s, s..e, max)),
        };
        ahead
    }

    /// A block without the pass.
    fn in_order(s: usize) -> BlockAhead {
        BlockAhead {
            first: s,
            end: s,
            below: 0,
            words: 0,
            tasks: Vec::new(),
            claimed: AtomicUsize::new(0),
            nanos: AtomicU64::new(0),
            on_gpu: false,
            rescans: Default::default(),
            middle: None,
        }
    }

    /// Heap n's marks from the pass (none without a pass).
    fn marks(&self, n: usize) -> &[u64] {
        self.task(n).map_or(&[], |(task, i)| {
            &task.sets[i * 2 * self.words..(i * 2 + 1) * self.words]
        })
    }

    /// The rare values below c′ the pass did not find for heap n.
    fn missing(&self, n: usize) -> &[u64] {
        self.task(n).map_or(&[], |(task, i)| {
            &task.sets[(i * 2 + 1) * self.words..(i * 2 + 2) * self.words]
        })
    }

    /// c′ (0 without a pass: nothing was looked for).
    fn candidate(&self, n: usize) -> u32 {
        self.task(n).map_or(0, |(task, i)| task.candidates[i])
    }

    /// The smaller part from which the pass left heap n's pairs below the
    /// block unread (0: none left, or no pass).
    fn rest(&self, n: usize) -> usize {
        self.task(n).map_or(0, |(task, i)| task.rests[i])
    }
}

/// One task of the block pass, for its heaps: their marks and missing
/// values (`2 * words` per heap), c′, and the pairs it read and the marks it
/// made.
struct TaskOut {
    sets: Vec<u64>,
    candidates: Vec<u32>,
    /// Per heap, the smaller part from which the pass left the pairs below
    /// the block unread (0: it read them all, or found every value).
    rests: Vec<usize>,
    pairs: u64,
    marks: u64,
}

impl TaskOut {
    /// The pass over heaps n0..n1 (64 at most) from the heaps below
    /// `g.len()`, bitsets of `words` words.
    fn run<V: Values>(
        code: &RareCode,
        run: &PassView,
        g: V,
        (n0, n1): (usize, usize),
        words: usize,
    ) -> TaskOut {
        // Every rare-pair mark is below `span`: G(r) and G(b) are both at
        // most the largest value.
        let span = ((run.max_value + 1).next_power_of_two() as usize).max(64);
        let mut columns = vec![0u64; 4 * span];
        let marks = rare_pair_marks(code, run, g, (n0, n1), &mut columns);
        columns.truncate(span);
        // Now word w of heap n0 + i's marks is `columns[64 w + i]`.
        for group in columns.chunks_exact_mut(64) {
            transpose64(group.try_into().unwrap());
        }
        let heaps = n1 - n0;
        let mut sets = vec![0u64; heaps * 2 * words];
        let mut candidates = vec![0u32; heaps];
        let mut rests = vec![0usize; heaps];
        let mut pairs = 0;
        let each = sets.chunks_mut(2 * words).zip(candidates.iter_mut());
        for (i, ((set, candidate), rest)) in each.zip(rests.iter_mut()).enumerate() {
            let marks = columns.iter().skip(i).step_by(64).copied();
            let (c, read, from) = pass_heap(code, run, g, n0 + i, marks, set);
            (*candidate, *rest) = (c, from);
            pairs += read;
        }
        TaskOut {
            sets,
            candidates,
            rests,
            pairs,
            marks,
        }
    }
}

/// Heaps per task of the block pass (one bit each of a word).
const PASS_CHUNK: usize = 64;

/// The marks of the rare pairs whose parts both lie below `s = g.len()`,
/// for the heaps n0..n1 of one task (64 at most): bit i of `columns[v]` is
/// set when heap n0 + i has a rare pair of value v. `columns` is four
/// copies of `span` words (a power of two above every value), all zero;
/// the marks end in the first. One rare heap r at a time over every heap of
/// the task: its partners b = n − j − r are consecutive, so their values
/// are one contiguous run of the table; the marks of 64 heaps take one bit
/// of a word per value and stay in the first-level cache.
fn rare_pair_marks<V: Values>(
    code: &RareCode,
    run: &PassView,
    g: V,
    (n0, n1): (usize, usize),
    columns: &mut [u64],
) -> u64 {
    let s = g.len();
    let span = columns.len() / 4;
    let (c0, rest) = columns.split_at_mut(span);
    let (c1, rest) = rest.split_at_mut(span);
    let (c2, c3) = rest.split_at_mut(span);
    let mut marks = 0;
    for &(j, diff) in &code.splits {
        for (&r, &gr) in run.rare.iter().zip(run.values) {
            // Partner b = n − j − r from 1 to s − 1, and m = n − j ≥ 2.
            let lo = n0.max(j + r + 1).max(j + 2);
            let hi = n1.min(s + j + r);
            if j + r + 1 >= n1 {
                break;
            }
            // Parts at least `diff` apart: leave out |n − (2r + j)| < diff.
            let (cut_lo, cut_hi) = match diff {
                0 => (hi, hi),
                d => ((2 * r + j + 1).saturating_sub(d), 2 * r + j + d),
            };
            for (from, to) in [(lo, hi.min(cut_lo)), (lo.max(cut_hi), hi)] {
                if from >= to {
                    continue;
                }
                let partners = g.range(from - j - r, to - j - r);
                let heap_bit = 1u64 << (from - n0);
                let columns = [&mut *c0, &mut *c1, &mut *c2, &mut *c3];
                match partners.exact() {
                    Some(units) => mark_partners(units, gr, heap_bit, columns),
                    None => mark_partners(&partners.wide(), gr, heap_bit, columns),
                }
                marks += partners.len() as u64;
            }
        }
    }
    for (i, column) in c0.iter_mut().enumerate() {
        *column |= c1[i] | c2[i] | c3[i];
    }
    marks
}

/// The marks of rare heap r (value `gr`) on consecutive heaps, whose
/// partners' values are `partners`: bit `heap_bit` for the first heap, the
/// next bit up for each after it, in one of four copies of the columns (a
/// power of two long, above every value) by turns, so that no mark waits on
/// the one before it.
#[inline(always)]
fn mark_partners<U: Value>(partners: &[U], gr: u32, heap_bit: u64, columns: [&mut [u64]; 4]) {
    let [c0, c1, c2, c3] = columns;
    let span = c0.len();
    // The mask keeps no bit (every value is below `span`) but spares the
    // bounds check.
    let column = |b: &U| (gr ^ (*b).into()) as usize & (span - 1);
    let mut heap_bit = heap_bit;
    let fours = partners.chunks_exact(4);
    let rest = fours.remainder();
    for four in fours {
        c0[column(&four[0])] |= heap_bit;
        c1[column(&four[1])] |= heap_bit << 1;
        c2[column(&four[2])] |= heap_bit << 2;
        c3[column(&four[3])] |= heap_bit << 3;
        heap_bit <<= 4;
    }
    for b in rest {
        c0[column(b)] |= heap_bit;
        heap_bit <<= 1;
    }
}

/// One heap of the block pass: its take marks and rare-pair marks (the
/// words `marks`), c′, and the rare values below c′ that no pair with both
/// parts below `s = g.len()` reaches, looked for among `PASS_SCAN_PAIRS`
/// pairs at most; returns c′, the pairs read and the smaller part from
/// which the pairs below s are left unread (0: none).
fn pass_heap<V: Values>(
    code: &RareCode,
    run: &PassView,
    g: V,
    n: usize,
    marks: impl Iterator<Item = u64>,
    set: &mut [u64],
) -> (u32, u64, usize) {
    let s = g.len();
    let (bits, missing) = set.split_at_mut(set.len() / 2);
    for &(j, d) in &code.takes {
        if j == n && d & 1 != 0 {
            set_bit(bits, 0);
        } else if j < n && n - j < s && d & 2 != 0 {
            set_bit(bits, g.at(n - j));
        }
    }
    for (word, mark) in bits.iter_mut().zip(marks) {
        *word |= mark;
    }
    let flip = run.split.flip(n as u64);
    let common = |w| common_word(run.split.mask, flip, w);
    let c = first_unmarked(bits, common);
    // Only rare values: a common value has all its options marked.
    for (w, (m, b)) in missing.iter_mut().zip(bits.iter()).enumerate() {
        *m = !b & !common(w);
    }
    clear_from(missing, c);
    let need = missing.iter().map(|w| w.count_ones()).sum();
    let pairs = Pairs::BothBelow { s, from: 1 };
    match scan_pairs(code, g, n, (missing, need), pairs, PASS_SCAN_PAIRS) {
        (Scan::Stopped(from), read) => (c, read, from),
        (_, read) => (c, read, 0),
    }
}

/// The pairs the block pass reads for one heap at most. Past it the heap
/// goes on in its turn in order, the pairs touching the block first: a
/// heap whose last wanted value lies there is not swept through the whole
/// table by the pass (from disk, for a table in a file).
const PASS_SCAN_PAIRS: u64 = 1 << 16;

/// G(n) in registers for a heap in a block without a pass, past every rare
/// position, while every value is below 64 (the steady state of `.1777`);
/// with it, whether the middle pairs spared it a scan. `None` sends the heap
/// to `finish_heap`: c is 64 or more, or a wanted value is not among the
/// middle pairs' (a scan is due).
#[inline]
fn settle_small<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    (ahead, far): (&BlockAhead, &mut FarMarks),
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

/// G(n), given the block's parallel pass and every heap below n.
fn finish_heap<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    ahead: &BlockAhead,
    n: usize,
    bits: &mut Vec<u64>,
    wanted: &mut Vec<u64>,
) -> u32 {
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
            mark_in_block(code, run, g, s, n, &mut |v| low |= 1 << (v & 63));
            low
        };
    } else {
        mark_in_block(code, run, g, s, n, &mut |v| set_bit(bits, v));
    }

    // c: the smallest unmarked common value. Every common option is marked.
    let flip = run.split.flip(n as u64);
    let c = first_unmarked(bits, |w| common_word(run.split.mask, flip, w));
    // Unmarked values below c: all rare, each needs a split pair.
    if unmarked_below(bits, c) == 0 {
        return c;
    }
    // wanted: the unmarked values below c.
    wanted.clear();
    wanted.extend(bits.iter().map(|w| !w));
    clear_from(wanted, c);
    if let Some(middle) = &ahead.middle {
        for (w, hits) in wanted.iter_mut().zip(middle.of(n)) {
            *w &= !hits;
        }
        if wanted.iter().all(|&w| w == 0) {
            middle.settled.fetch_add(1, Relaxed);
            return c;
        }
    }
    if scan_left(code, g, ahead, n, wanted) {
        return c;
    }
    // The scan ended with rare values below c unmarked: G(n) is rare, the
    // smallest of them.
    first_set(wanted)
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
fn scan_left<V: Values>(
    code: &RareCode,
    g: V,
    ahead: &BlockAhead,
    n: usize,
    wanted: &mut [u64],
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
    let mut found = |pairs| {
        let need = wanted.iter().map(|w| w.count_ones()).sum();
        scan_pairs(code, g, n, (&mut *wanted, need), pairs, u64::MAX).0 == Scan::Found
    };
    if rescan {
        if s > 0 {
            ahead.rescans.fetch_add(1, Relaxed);
        }
        return found(Pairs::All);
    }
    let from = ahead.rest(n);
    found(Pairs::PartInBlock(s)) || (from > 0 && found(Pairs::BothBelow { s, from }))
}

/// Marks the options of heap n that touch the block from `s` on: take
/// moves to heaps inside it, and the rare pairs with a part inside it (an
/// old rare position with its partner at s or above, or a rare position
/// found in the block).
#[inline(always)]
fn mark_in_block<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    s: usize,
    n: usize,
    mark: &mut impl FnMut(u32),
) {
    for &(j, d) in &code.takes {
        if j < n && n - j >= s && d & 2 != 0 {
            mark(g.at(n - j));
        } else if j == n && d & 1 != 0 && s == 0 {
            // Take the whole heap (the pass marks it in its own blocks).
            mark(0);
        }
    }
    if equal_split_bits(code, n) != 0 {
        mark(0);
    }
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
            mark_rare_pairs(mark, g, &old[..k], &old_values[..k], m, diff);
        }
        mark_rare_pairs(mark, g, new, new_values, m, diff);
    }
}

/// Bit 0 when a move splits heap n into two equal heaps (value 0).
fn equal_split_bits(code: &RareCode, n: usize) -> u64 {
    let equal = |&j: &usize| n >= j + 2 && (n - j) & 1 == 0;
    code.equal_splits.iter().any(equal) as u64
}

/// The lowest `k` bits set (all 64 from k = 64 on).
fn low_bits(k: u32) -> u64 {
    if k >= 64 { !0 } else { (1u64 << k) - 1 }
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

/// The smallest set bit of `bits` at `from` or above.
fn first_set_from(bits: &[u64], from: u32) -> Option<u32> {
    let w = (from / 64) as usize;
    let first = bits.get(w)? & (!0u64 << (from % 64));
    if first != 0 {
        return Some(w as u32 * 64 + first.trailing_zeros());
    }
    bits[w + 1..]
        .iter()
        .position(|&x| x != 0)
        .map(|i| (w + 1 + i) as u32 * 64 + bits[w + 1 + i].trailing_zeros())
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

/// Pairs of one breaking digit scanned before the next digit's, so that
/// every digit's scan advances through the small parts a together.
const SCAN_CHUNK: usize = 512;

/// Which split pairs (a, m − a) of a heap a scan looks at, given the first
/// heap `s` of the block being computed.
#[derive(Clone, Copy, Debug)]
enum Pairs {
    All,
    /// Both parts below s (known before the block starts), the smaller
    /// part at least `from`.
    BothBelow {
        s: usize,
        from: usize,
    },
    /// A part at s or above (known only heap by heap).
    PartInBlock(usize),
}

impl Pairs {
    /// The range of a, the smaller part, for m = n − j and parts at least
    /// `diff` apart.
    fn range(self, m: usize, diff: usize) -> Option<(usize, usize)> {
        if m < 2 + diff {
            return None;
        }
        let (mut lo, mut hi) = (1, (m - diff) / 2);
        match self {
            Pairs::All => {}
            // m − a < s  ⇔  a > m − s.
            Pairs::BothBelow { s, from } => lo = from.max((m + 1).saturating_sub(s)),
            Pairs::PartInBlock(s) => hi = hi.min(m.checked_sub(s)?),
        }
        (lo <= hi).then_some((lo, hi))
    }
}

/// One byte per possible value, 1 where a value is marked or still wanted:
/// a mark is one store and the scan's test one load, with no shift and no
/// bounds check (every value of a `u8` or `u16` table indexes it).
struct ByteTable(Box<[u8; 1 << 16]>);

impl ByteTable {
    /// Sets the bits of the values marked in the table, and zeroes it.
    fn fold_into(&mut self, bits: &mut [u64]) {
        fold_bytes(&mut self.0[..], bits);
    }
}

/// Sets the bits of the values whose byte is 1 in `bytes` (one byte per
/// value, from 0), and zeroes the bytes.
fn fold_bytes(bytes: &mut [u8], bits: &mut [u64]) {
    // Eight 0/1 bytes b0..b7 read as a u64: the product below puts b_k
    // at bit 56 + k, and nothing else lands in the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    for (word, sixty_four) in bits.iter_mut().zip(bytes.chunks_mut(64)) {
        for (k, eight) in sixty_four.chunks_exact_mut(8).enumerate() {
            let x = u64::from_le_bytes(eight.try_into().unwrap());
            if x != 0 {
                *word |= (x.wrapping_mul(GATHER) >> 56) << (8 * k);
                eight.fill(0);
            }
        }
    }
}

thread_local! {
    /// Each thread's table, all zero between uses.
    static BYTE_TABLE: std::cell::RefCell<ByteTable> =
        std::cell::RefCell::new(ByteTable(vec![0u8; 1 << 16].try_into().unwrap()));
}

/// How a scan of split pairs ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    /// Every wanted value was reached.
    Found,
    /// Every pair was read; the values left wanted are reached by none.
    Exhausted,
    /// The pair limit was read; pairs from this smaller part on are left.
    Stopped(usize),
}

/// Scans the split pairs `pairs` of heap n in order of the smaller part
/// a = 1, 2, …, clearing the `wanted` values they reach, until all `need`
/// of them are cleared or about `limit` pairs are read (whole chunks of a);
/// with it, how many pairs were read. Pairs are tested many at a time
/// without a branch per pair (`Wanted::scan`).
fn scan_pairs<V: Values>(
    code: &RareCode,
    g: V,
    n: usize,
    (wanted, need): (&mut [u64], u32),
    pairs: Pairs,
    limit: u64,
) -> (Scan, u64) {
    if need == 0 {
        return (Scan::Found, 0);
    }
    BYTE_TABLE.with_borrow_mut(|table| {
        let mut set = Wanted::new(&mut table.0, wanted);
        let mut read = 0;
        let ended = scan_with(code, g, n, &mut set, (&mut read, limit), pairs);
        // Leave the table all zero, and the bitset saying what is left.
        set.finish(wanted);
        (ended, read)
    })
}

/// `scan_pairs` on the wanted set; `read` counts the pairs.
fn scan_with<V: Values>(
    code: &RareCode,
    g: V,
    n: usize,
    wanted: &mut Wanted,
    (read, limit): (&mut u64, u64),
    pairs: Pairs,
) -> Scan {
    let range = |j: usize, diff: usize| n.checked_sub(j).and_then(|m| pairs.range(m, diff));
    let (a_min, a_max) = code
        .splits
        .iter()
        .filter_map(|&(j, diff)| range(j, diff))
        .fold((usize::MAX, 0), |(lo, hi), (l, h)| (lo.min(l), hi.max(h)));
    let mut a = a_min;
    while a <= a_max {
        let a_end = (a + SCAN_CHUNK - 1).min(a_max);
        for &(j, diff) in &code.splits {
            let Some((lo, hi)) = range(j, diff) else {
                continue;
            };
            let (x0, x1) = (a.max(lo), a_end.min(hi));
            if x0 > x1 {
                continue;
            }
            *read += (x1 - x0 + 1) as u64;
            let m = n - j;
            if scan_run(wanted, g.range(x0, x1 + 1), g.range(m - x1, m - x0 + 1)) {
                return Scan::Found;
            }
        }
        a = a_end + 1;
        if *read >= limit && a <= a_max {
            return Scan::Stopped(a);
        }
    }
    Scan::Exhausted
}

/// `Wanted::scan` over the pairs (`low[k]`, `high[len − 1 − k]`) of two
/// runs of a table: many at a time between the pairs with an escape (each
/// of those one by one, with whole values).
fn scan_run<V: Values>(wanted: &mut Wanted, low: V, high: V) -> bool {
    if let (Some(l), Some(h)) = (low.exact(), high.exact()) {
        return wanted.scan(l, h);
    }
    let len = low.len();
    let mut cuts = low.escapes();
    cuts.extend(high.escapes().into_iter().map(|i| len - 1 - i));
    cuts.sort_unstable();
    cuts.dedup();
    let mut k0 = 0;
    for k in cuts.into_iter().chain([len]) {
        if k > k0 {
            let (l, h) = (low.range(k0, k), high.range(len - k, len - k0));
            if wanted.scan(l.exact().expect("no escape"), h.exact().expect("no escape")) {
                return true;
            }
        }
        if k < len && wanted.take((low.at(k) ^ high.at(len - 1 - k)) as usize) {
            return true;
        }
        k0 = k + 1;
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

#[cfg(test)]
mod tests {
    use super::{Pairs, RareCode, Scan, scan_pairs, transpose64};

    /// Xorshift64 from `seed`: random words for the tests.
    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// A pass's scan stopped at its pair limit and taken up from where it
    /// stopped reaches the same values, over the same pairs, as one scan.
    #[test]
    fn a_scan_stopped_at_its_limit_goes_on_where_it_stopped() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        // Values below 128: no pair reaches 128..132, and wanting them
        // reads every pair.
        let table: Vec<u8> = (0..40_000).map(|_| (next() % 128) as u8).collect();
        // Two breaking digits: Grundy's game's split, and take one then split.
        let code = RareCode {
            takes: vec![],
            splits: vec![(0, 1), (1, 0)],
            equal_splits: vec![],
            parity: None,
        };
        for n in [30_000, 35_001, 39_999] {
            let s = n - 700;
            // The pairs below s from smaller part `from` on, for `wanted`.
            let scan = |wanted: &mut Vec<u64>, from, limit| {
                let need = wanted.iter().map(|x| x.count_ones()).sum();
                let below = Pairs::BothBelow { s, from };
                scan_pairs(&code, &table[..], n, (wanted, need), below, limit)
            };
            let wanted: Vec<u64> = vec![next(), next(), 0xf, 0];
            let mut whole = wanted.clone();
            let (ended, read) = scan(&mut whole, 1, u64::MAX);
            assert_eq!(ended, Scan::Exhausted, "heap {n}");
            let mut parts = wanted.clone();
            let (stopped, first) = scan(&mut parts, 1, 3000);
            let Scan::Stopped(from) = stopped else {
                panic!("heap {n}: the limited scan ended {stopped:?}");
            };
            assert!(
                (3000..3000 + 2 * 512).contains(&first),
                "heap {n}: {first} pairs"
            );
            let (ended, rest) = scan(&mut parts, from, u64::MAX);
            assert_eq!((ended, first + rest), (Scan::Exhausted, read), "heap {n}");
            assert_eq!(parts, whole, "heap {n}: the values left wanted");
            assert_eq!(whole, [0, 0, 0xf, 0], "heap {n}: only 128..132 are left");
        }
    }

    #[test]
    fn transpose64_moves_bit_i_of_word_k_to_bit_k_of_word_i() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut words = [0u64; 64];
        for word in &mut words {
            *word = next();
        }
        let before = words;
        transpose64(&mut words);
        for (i, word) in words.iter().enumerate() {
            for (k, old) in before.iter().enumerate() {
                assert_eq!((word >> k) & 1, (old >> i) & 1, "bit {k} of word {i}");
            }
        }
    }
}
