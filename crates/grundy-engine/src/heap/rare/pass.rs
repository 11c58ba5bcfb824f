//! The parallel pass over a block: for every heap of it at once, all
//! that the heaps below the block tell (marks, candidate, missing rare
//! values). What the block's own heaps add is the finish's
//! (`finish_in_order`), in order.

use super::bits::{clear_from, common_word, first_unmarked, set_bit, transpose64, words_for};
use super::checks::{self, source};
use super::middle::MiddleHits;
use super::scan::{Pairs, Scan, ScanLimit, scan_pairs};
use super::state::RareRun;
use super::view::PassView;
use crate::heap::rare::simd::wide_checks::{self, CANDIDATES, LANES, NO_CANDIDATE, Row};
use crate::heap::storage::store::Values;
use crate::heap::storage::table::Value;
use grundy_core::kernel::rare::{PassParams, RareCode};
use grundy_gpu::rare::PassOutput;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::OnceLock;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize};

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
pub(super) struct BlockPass {
    /// The block's first heap and the heap past its last.
    pub(super) first: usize,
    pub(super) end: usize,
    /// Heaps the pass knew (the block's first heap, or 0 without a pass).
    pub(super) below: usize,
    pub(super) words: usize,
    /// The largest value below `below`, when the pass was started.
    pub(super) max: u32,
    /// The pass, `PASS_CHUNK` heaps a task, each set once its task has run
    /// (none without a pass).
    pub(super) tasks: Vec<OnceLock<TaskOut>>,
    /// Tasks claimed so far: the thread that claims one runs it.
    pub(super) claimed: AtomicUsize,
    /// Tasks done so far.
    pub(super) done: AtomicUsize,
    /// The pass's time: its tasks' on the CPU, summed over threads.
    pub(super) nanos: AtomicU64,
    /// The finisher's time waiting for tasks (running them itself when
    /// one was left to claim).
    pub(super) waited: AtomicU64,
    /// The pass ran on the GPU.
    pub(super) on_gpu: bool,
    /// Heaps of the block whose own marks moved G(n) past the candidate.
    pub(super) rescans: AtomicU32,
    /// Of those, heaps whose marks from the pass were not whole that far.
    pub(super) remarked: AtomicU32,
    /// The values of each heap's middle pairs (blocks in order only).
    pub(super) middle: Option<MiddleHits>,
}

impl BlockPass {
    /// The pass over `heaps` from the heaps below `below` (at most their
    /// first) whose values are at most `max`, as tasks not yet run.
    pub(super) fn tasks(below: usize, heaps: Range<usize>, max: u32) -> BlockPass {
        BlockPass {
            end: heaps.end,
            below,
            words: words_for(max),
            max,
            tasks: (0..heaps.len().div_ceil(PASS_CHUNK))
                .map(|_| OnceLock::new())
                .collect(),
            ..BlockPass::in_order(heaps.start)
        }
    }

    /// Whether a task is left to claim.
    pub(super) fn tasks_left(&self) -> bool {
        self.claimed.load(Relaxed) < self.tasks.len()
    }

    /// Whether a task is left to claim or still running.
    pub(super) fn tasks_busy(&self) -> bool {
        self.done.load(Relaxed) < self.tasks.len()
    }

    /// Claims the next task and runs it; false when none was left.
    pub(super) fn run_task<V: Values>(&self, code: &RareCode, run: &PassView, g: V) -> bool {
        let started = std::time::Instant::now();
        let k = self.claimed.fetch_add(1, Relaxed);
        let Some(slot) = self.tasks.get(k) else {
            return false;
        };
        let n0 = self.first + k * PASS_CHUNK;
        let n1 = self.end.min(n0 + PASS_CHUNK);
        let out = TaskOut::run(code, run, g, n0..n1, self.words);
        // Only the claimer sets its slot.
        let _ = slot.set(out);
        self.done.fetch_add(1, Relaxed);
        self.nanos
            .fetch_add(started.elapsed().as_nanos() as u64, Relaxed);
        true
    }

    /// Waits until the task that holds heap n is done, running tasks left
    /// meanwhile; `g` holds the heaps below `below`.
    pub(super) fn wait_for<V: Values>(&self, n: usize, code: &RareCode, run: &PassView, g: V) {
        let Some(slot) = self.tasks.get((n - self.first) / PASS_CHUNK) else {
            return;
        };
        if slot.get().is_some() {
            return;
        }
        let started = std::time::Instant::now();
        while slot.get().is_none() {
            if !self.run_task(code, run, g) {
                std::hint::spin_loop();
            }
        }
        self.waited
            .fetch_add(started.elapsed().as_nanos() as u64, Relaxed);
    }

    /// The task that holds heap n, and n's place in it (`None` without a pass).
    pub(super) fn task(&self, n: usize) -> Option<(&TaskOut, usize)> {
        let i = n - self.first;
        let task = self.tasks.get(i / PASS_CHUNK)?.get()?;
        Some((task, i % PASS_CHUNK))
    }

    /// Split pairs the pass read, and rare-pair marks it made, over the
    /// whole block.
    pub(super) fn totals(&self) -> (u64, u64) {
        let done = self.tasks.iter().filter_map(OnceLock::get);
        done.fold((0, 0), |(p, m), t| (p + t.pairs, m + t.marks))
    }

    /// The pass's parameters for heaps first..e with heaps below `below`
    /// known.
    pub(super) fn gpu_params(run: &RareRun, below: usize, first: usize, e: usize) -> PassParams {
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
    pub(super) fn from_gpu(out: PassOutput, params: PassParams) -> BlockPass {
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
                // The shader reads every pair below the block, and marks
                // every rare pair.
                rests: vec![0; results.len()],
                complete: vec![u32::MAX; results.len()],
                pairs: results.map(|r| r[1] as u64).sum(),
                ..TaskOut::default()
            })
        });
        let tasks: Vec<_> = tasks.collect();
        BlockPass {
            end: (params.first + params.count) as usize,
            below: params.s as usize,
            words,
            claimed: AtomicUsize::new(tasks.len()),
            done: AtomicUsize::new(tasks.len()),
            tasks,
            on_gpu: true,
            ..BlockPass::in_order(params.first as usize)
        }
    }

    /// A block in order, with its heaps' middle pairs: `middle` when they
    /// were collected for this block, else collected now.
    pub(super) fn in_order_with<V: Values>(
        code: &RareCode,
        g: V,
        Range { start: s, end: e }: Range<usize>,
        middle: Option<MiddleHits>,
        may_collect: bool,
        max: u32,
    ) -> BlockPass {
        let mut ahead = BlockPass::in_order(s);
        ahead.middle = match middle {
            Some(hits) if hits.first == s && hits.end() == e => Some(hits),
            _ if may_collect => Some(MiddleHits::collect(code, g, 0, s, s..e, max)),
            _ => None,
        };
        ahead
    }

    /// A block without the pass.
    pub(super) fn in_order(s: usize) -> BlockPass {
        BlockPass {
            first: s,
            end: s,
            below: 0,
            words: 0,
            max: 0,
            tasks: Vec::new(),
            claimed: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            nanos: AtomicU64::new(0),
            waited: AtomicU64::new(0),
            on_gpu: false,
            rescans: Default::default(),
            remarked: Default::default(),
            middle: None,
        }
    }

    /// Heap n's marks from the pass (none without a pass).
    pub(super) fn marks(&self, n: usize) -> &[u64] {
        self.task(n).map_or(&[], |(task, i)| {
            &task.sets[i * 2 * self.words..(i * 2 + 1) * self.words]
        })
    }

    /// The rare values below c′ the pass did not find for heap n.
    pub(super) fn missing(&self, n: usize) -> &[u64] {
        self.task(n).map_or(&[], |(task, i)| {
            &task.sets[(i * 2 + 1) * self.words..(i * 2 + 2) * self.words]
        })
    }

    /// c′ (0 without a pass: nothing was looked for).
    pub(super) fn candidate(&self, n: usize) -> u32 {
        self.task(n).map_or(0, |(task, i)| task.candidates[i])
    }

    /// The value below which heap n's marks from the pass are whole (from
    /// it on, the pairs the pass checked are not marked).
    pub(super) fn complete(&self, n: usize) -> u32 {
        self.task(n).map_or(u32::MAX, |(task, i)| task.complete[i])
    }

    /// The smaller part from which the pass left heap n's pairs below the
    /// block unread (0: none left, or no pass).
    pub(super) fn rest(&self, n: usize) -> usize {
        self.task(n).map_or(0, |(task, i)| task.rests[i])
    }
}

/// Runs the tasks left of each pass in turn (a block's, then the next
/// block's started one), on every core; `g` holds the heaps below the block
/// being finished, and each pass reads those below its own `below`.
pub(super) fn run_passes<V: Values>(
    code: &RareCode,
    passes: [Option<(&BlockPass, &PassView)>; 2],
    g: V,
) {
    let passes = passes.iter().flatten();
    if passes.clone().any(|(pass, _)| pass.tasks_left()) {
        (0..rayon::current_num_threads())
            .into_par_iter()
            .for_each(|_| {
                for (pass, view) in passes.clone() {
                    while pass.run_task(code, view, g.range(0, pass.below)) {}
                }
            });
    }
}

/// One task of the block pass, for its heaps: their marks and missing
/// values (`2 * words` per heap), c′, and the pairs it read and the marks it
/// made.
#[derive(Default)]
pub(super) struct TaskOut {
    pub(super) sets: Vec<u64>,
    pub(super) candidates: Vec<u32>,
    /// Per heap, the smaller part from which the pass left the pairs below
    /// the block unread (0: it read them all, or found every value).
    pub(super) rests: Vec<usize>,
    /// Per heap, the value below which its marks are whole.
    pub(super) complete: Vec<u32>,
    pub(super) pairs: u64,
    pub(super) marks: u64,
    /// The credits of the heap marked wholly to learn from (`checks`), and
    /// the heaps whose candidates the checks all reached.
    pub(super) credits: Vec<(u32, u32)>,
    pub(super) samples: u64,
    pub(super) failed: u64,
    /// Rare pairs checked instead of marked.
    pub(super) checked: u64,
}

impl TaskOut {
    /// The pass over heaps n0..n1 (64 at most) from the heaps below
    /// `g.len()`, bitsets of `words` words: the rare pairs marked, or
    /// checked against each heap's candidates (`checks`), then c′ and the
    /// scan of each heap.
    pub(super) fn run<V: Values>(
        code: &RareCode,
        run: &PassView,
        g: V,
        Range { start: n0, end: n1 }: Range<usize>,
        words: usize,
    ) -> TaskOut {
        // This thread's scratch, all zero (its rows empty) between tasks,
        // taken out while in use: a task that panics drops it rather than
        // leave marks in it for a later run on this thread.
        let (mut all_columns, mut rows) = TASK_SCRATCH.take();
        // Every rare-pair mark is below `span`: G(r) and G(b) are both at
        // most the largest value.
        let span = ((run.max_value + 1).next_power_of_two() as usize).max(64);
        if all_columns.len() < 4 * span {
            all_columns.resize(4 * span, 0);
        }
        let four = &mut all_columns[..4 * span];
        let marks = rare_pair_marks(code, run, g, n0..n1, four, &mut rows);
        let columns = &mut all_columns[..span];
        // Now word w of heap n0 + i's marks is `columns[64 w + i]`.
        for group in columns.chunks_exact_mut(64) {
            transpose64(group.try_into().unwrap());
        }
        let heaps = n1 - n0;
        // Each heap's marks (`span / 64` words, at most `words`) taken out
        // of the columns, which are left zero; its missing values after.
        let mut sets = Vec::with_capacity(heaps * 2 * words);
        for i in 0..heaps {
            let at = sets.len();
            sets.extend(columns.iter_mut().skip(i).step_by(64).map(std::mem::take));
            sets.resize(at + 2 * words, 0);
            take_marks(code, g, n0 + i, &mut sets[at..at + words]);
        }
        debug_assert!(columns.iter().all(|&column| column == 0));
        let mut out = TaskOut {
            sets,
            candidates: vec![0u32; heaps],
            rests: vec![0usize; heaps],
            complete: vec![u32::MAX; heaps],
            marks,
            ..TaskOut::default()
        };
        out.learn(code, run, g, n0..n1, words);
        out.check(run, g, n0..n1, words, &rows);
        rows.iter_mut().for_each(Vec::clear);
        TASK_SCRATCH.set((all_columns, rows));
        for (i, set) in out.sets.chunks_mut(2 * words).enumerate() {
            let (c, read, from) = pass_heap(code, run, g, n0 + i, set);
            (out.candidates[i], out.rests[i]) = (c, from);
            out.pairs += read;
        }
        out
    }

    /// Credits from one heap of the task, marked wholly, in one task in
    /// `SAMPLE_EVERY`, where the run learns (`PassView::learn`). (Called
    /// once a task: kept out of line, as is `check`, so as not to crowd the
    /// marks' loop.)
    #[inline(never)]
    fn learn<V: Values>(
        &mut self,
        code: &RareCode,
        run: &PassView,
        g: V,
        Range { start: n0, end: n1 }: Range<usize>,
        words: usize,
    ) {
        let task = n0 / PASS_CHUNK;
        let sources = run.rare.len() * code.splits.len();
        if !run.learn || sources < checks::MIN_SOURCES || !task.is_multiple_of(checks::SAMPLE_EVERY)
        {
            return;
        }
        let i = (task / checks::SAMPLE_EVERY) % (n1 - n0);
        let takes = &mut vec![0u64; words];
        take_marks(code, g, n0 + i, takes);
        self.credits = checks::credits_of(code, run, g, n0 + i, takes);
        self.samples = 1;
    }

    /// Checks the rows left unmarked against each heap's candidates: the
    /// candidates reached are marked, c′ is the first one not reached, and
    /// the marks are whole below the last; a heap whose candidates were all
    /// reached has its rows marked one by one.
    #[inline(never)]
    fn check<V: Values>(
        &mut self,
        run: &PassView,
        g: V,
        Range { start: n0, end: n1 }: Range<usize>,
        words: usize,
        rows: &[Vec<Row>; 2],
    ) {
        // Rows are only made for a table with no escapes.
        let Some(table) = g.no_escapes() else {
            return;
        };
        for (half, rows) in rows.iter().enumerate() {
            if rows.is_empty() {
                continue;
            }
            let first = n0 + half * LANES;
            let lanes = n1.saturating_sub(first).min(LANES);
            // The marks of the heap at `lane`.
            let set_of = |lane: usize| {
                let at = (first + lane - n0) * 2 * words;
                at..at + words
            };
            let mut own = [[NO_CANDIDATE; CANDIDATES]; LANES];
            for (lane, own) in own.iter_mut().enumerate().take(lanes) {
                let flip = run.split.flip((first + lane) as u64);
                *own = checks::candidates(&self.sets[set_of(lane)], run.split.mask, flip);
            }
            // The kernel takes each candidate over the lanes.
            let found: [[u16; LANES]; CANDIDATES] = std::array::from_fn(|k| own.map(|c| c[k]));
            let reached = wide_checks::reached(&found, table, rows);
            self.checked += (rows.len() * lanes) as u64;
            for (lane, own) in own.iter().enumerate().take(lanes) {
                let set = &mut self.sets[set_of(lane)];
                self.complete[first + lane - n0] = match checks::settle(set, own, reached[lane]) {
                    Some(bound) => bound,
                    None => {
                        checks::mark_rows(g, rows, lane, set);
                        self.failed += 1;
                        u32::MAX
                    }
                };
            }
        }
    }
}

/// Heaps per task of the block pass (one bit each of a word).
pub(super) const PASS_CHUNK: usize = 64;

thread_local! {
    /// Each thread's columns and rows for a task's rare-pair marks, kept
    /// between tasks: allocating, zeroing and growing them for each task
    /// was a measurable part of the pass (BENCHMARKS.md).
    static TASK_SCRATCH: std::cell::RefCell<(Vec<u64>, [Vec<Row>; 2])> =
        std::cell::RefCell::default();
}

/// The marks of the rare pairs whose parts both lie below `s = g.len()`,
/// for the heaps n0..n1 of one task (64 at most): bit i of `columns[v]` is
/// set when heap n0 + i has a rare pair of value v. `columns` is four
/// copies of `span` words (a power of two above every value), all zero;
/// the marks end in the first, and the others are left zero. One rare
/// heap r at a time over every heap of the task: its partners
/// b = n − j − r are consecutive, so their values are one contiguous run
/// of the table; the marks of 64 heaps take one bit of a word per value
/// and stay in the first-level cache. A source the
/// run checks (`checks`) goes to `rows`, one per 32 heaps, instead, when
/// its pairs cover those heaps and no partner can be rare (then every pair
/// of it is a common value: it marks no rare value the scans rely on).
pub(super) fn rare_pair_marks<V: Values>(
    code: &RareCode,
    run: &PassView,
    g: V,
    Range { start: n0, end: n1 }: Range<usize>,
    columns: &mut [u64],
    rows: &mut [Vec<Row>; 2],
) -> u64 {
    let span = columns.len() / 4;
    let (c0, rest) = columns.split_at_mut(span);
    let (c1, rest) = rest.split_at_mut(span);
    let (c2, c3) = rest.split_at_mut(span);
    let last_rare = run.rare.last().copied().unwrap_or(0);
    // The checks read the table as one slice, and name candidates in 16
    // bits (values below 2^15: the bitsets end below 2^16).
    let can_check = !run.checked.is_empty() && g.no_escapes().is_some() && run.max_value < 1 << 15;
    let reach = |&(j, diff): &(usize, usize)| 2 * last_rare + j + diff + 2;
    let past_every_cut = code
        .splits
        .iter()
        .map(reach)
        .max()
        .is_some_and(|past| n0 >= past);
    let columns = [&mut *c0, &mut *c1, &mut *c2, &mut *c3];
    let checked = CheckedRows { rows, can_check };
    let marks = match g.no_escapes() {
        Some(table) if past_every_cut => {
            marks_past_rare(code, run, table, n0..n1, columns, checked)
        }
        _ => marks_near_rare(code, run, g, n0..n1, columns, checked),
    };
    // The other copies are left zero for the next task.
    for (i, column) in c0.iter_mut().enumerate() {
        *column |= std::mem::take(&mut c1[i]) | std::mem::take(&mut c2[i]);
        *column |= std::mem::take(&mut c3[i]);
    }
    marks
}

/// Where a task's checked sources go instead of marks, and whether the
/// task may check at all (`rare_pair_marks`).
struct CheckedRows<'a> {
    rows: &'a mut [Vec<Row>; 2],
    can_check: bool,
}

/// `rare_pair_marks` for any heaps n0..n1: each rare heap's partners, the
/// parts too close left out, and its pairs checked only where they cover
/// the task's heaps and no partner can be rare.
fn marks_near_rare<V: Values>(
    code: &RareCode,
    run: &PassView,
    g: V,
    Range { start: n0, end: n1 }: Range<usize>,
    columns: [&mut [u64]; 4],
    CheckedRows { rows, can_check }: CheckedRows,
) -> u64 {
    let [c0, c1, c2, c3] = columns;
    let s = g.len();
    let last_rare = run.rare.last().copied().unwrap_or(0);
    let digits = code.splits.len();
    let mut marks = 0;
    for (digit, &(j, diff)) in code.splits.iter().enumerate() {
        for (index, (&r, &gr)) in run.rare.iter().zip(run.values).enumerate() {
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
            let checked = can_check
                && run.checked.get(source(index, digit, digits)) == Some(&true)
                && lo == n0
                && n0 - j - r > last_rare
                && (cut_hi <= n0 || cut_lo >= n1);
            if checked && push_rows(rows, n0..n1, s, n0 - j - r, gr) {
                continue;
            }
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
    marks
}

/// `rare_pair_marks` for heaps n0..n1 past every rare pair's cut
/// (n0 ≥ 2 × last rare + j + diff + 2 for every digit: every partner is
/// past every rare position, and no pair's parts are too close), on the
/// table below `s` as one slice: the same marks and rows as
/// `marks_near_rare`, with none of its bounds worked out per source, which
/// cost about half as much as the marks (BENCHMARKS.md). Partners from `s`
/// on are left to the block's finish.
fn marks_past_rare<U: Value>(
    code: &RareCode,
    run: &PassView,
    table: &[U],
    Range { start: n0, end: n1 }: Range<usize>,
    columns: [&mut [u64]; 4],
    CheckedRows { rows, can_check }: CheckedRows,
) -> u64 {
    let [c0, c1, c2, c3] = columns;
    let s = table.len();
    let digits = code.splits.len();
    let mut marks = 0;
    for (digit, &(j, _)) in code.splits.iter().enumerate() {
        for (index, (&r, &gr)) in run.rare.iter().zip(run.values).enumerate() {
            // Partners b = n − j − r below s only.
            let hi = n1.min(s + j + r);
            if hi <= n0 {
                continue;
            }
            let start = n0 - j - r;
            let checked = can_check
                && hi == n1
                && run.checked.get(source(index, digit, digits)) == Some(&true);
            if checked && push_rows(rows, n0..n1, s, start, gr) {
                continue;
            }
            let partners = &table[start..hi - j - r];
            mark_partners(partners, gr, 1, [&mut *c0, &mut *c1, &mut *c2, &mut *c3]);
            marks += partners.len() as u64;
        }
    }
    marks
}

/// A checked source's rows for `heaps`, lane 0's partner at `start`: one
/// per 32 heaps, when every lane's partner lies below `below`; false
/// (none pushed) otherwise.
fn push_rows(
    rows: &mut [Vec<Row>; 2],
    heaps: Range<usize>,
    below: usize,
    start: usize,
    gr: u32,
) -> bool {
    let halves = heaps.len().div_ceil(LANES);
    if start + halves * LANES > below {
        return false;
    }
    for (half, rows) in rows.iter_mut().enumerate().take(halves) {
        rows.push(Row {
            value: gr as u16,
            start: start + half * LANES,
        });
    }
    true
}

/// The marks of rare heap r (value `gr`) on consecutive heaps, whose
/// partners' values are `partners`: bit `heap_bit` for the first heap, the
/// next bit up for each after it, in one of four copies of the columns (a
/// power of two long, above every value) by turns, so that no mark waits on
/// the one before it.
#[inline(always)]
pub(super) fn mark_partners<U: Value>(
    partners: &[U],
    gr: u32,
    heap_bit: u64,
    columns: [&mut [u64]; 4],
) {
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

/// Heap n's take options to heaps below `s = g.len()`, marked in `bits`.
pub(super) fn take_marks<V: Values>(code: &RareCode, g: V, n: usize, bits: &mut [u64]) {
    let s = g.len();
    for &(j, d) in &code.takes {
        if j == n && d & 1 != 0 {
            set_bit(bits, 0);
        } else if j < n && n - j < s && d & 2 != 0 {
            set_bit(bits, g.at(n - j));
        }
    }
}

/// One heap of the block pass, its marks (takes included) in the first
/// half of `set`: c′, and the rare values below c′ that no pair with both
/// parts below `s = g.len()` reaches (the second half), looked for among
/// the pairs past the first `HEAD` below s (`PASS_SCAN_PAIRS` at most),
/// then among those `HEAD`; returns c′, the pairs read and the smaller
/// part from which the pairs below s are left unread (0: none).
pub(super) fn pass_heap<V: Values>(
    code: &RareCode,
    run: &PassView,
    g: V,
    n: usize,
    set: &mut [u64],
) -> (u32, u64, usize) {
    let s = g.len();
    let (bits, missing) = set.split_at_mut(set.len() / 2);
    let flip = run.split.flip(n as u64);
    let common = |w| common_word(run.split.mask, flip, w);
    let c = first_unmarked(bits, common);
    // Only rare values: a common value has all its options marked.
    for (w, (m, b)) in missing.iter_mut().zip(bits.iter()).enumerate() {
        *m = !b & !common(w);
    }
    clear_from(missing, c);
    let need = |missing: &[u64]| missing.iter().map(|w| w.count_ones()).sum();
    // The pairs past the first `HEAD` first: their values reach the
    // wanted ones sooner (BENCHMARKS.md).
    let tail = Pairs::Tail { s, skip: HEAD };
    let wanted = need(missing);
    let limit = ScanLimit {
        pairs: PASS_SCAN_PAIRS,
        gap: run.gap,
    };
    let (ended, read) = scan_pairs(code, g, n, missing, wanted, tail, limit);
    if ended == Scan::Found {
        return (c, read, 0);
    }
    let head = Pairs::Head { s, skip: HEAD };
    let wanted = need(missing);
    let limit = ScanLimit {
        pairs: u64::MAX,
        gap: run.gap,
    };
    let (head_ended, head_read) = scan_pairs(code, g, n, missing, wanted, head, limit);
    // Pairs the pass did not read, or could not (past what the run keeps:
    // the finish's scan from there stops the run before the heap).
    let rest = match (head_ended, ended) {
        (Scan::Found, _) => 0,
        (_, Scan::Stopped(from) | Scan::Beyond(from)) => from,
        (Scan::Beyond(from), _) => from,
        _ => 0,
    };
    (c, read + head_read, rest)
}

/// Split pairs nearest the block (the smaller parts just past the block's
/// offset) the pass scans last.
pub(super) const HEAD: usize = 4096;

/// The pairs the block pass reads for one heap at most. Past it the heap
/// goes on in its turn in order, the pairs touching the block first: a
/// heap whose last wanted value lies there is not swept through the whole
/// table by the pass (from disk, for a table in a file).
pub(super) const PASS_SCAN_PAIRS: u64 = 1 << 16;
