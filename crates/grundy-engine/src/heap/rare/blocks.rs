//! Blocks of heaps: each block's parallel pass (on the GPU or the CPU
//! cores), then its finish (`finish_in_order`) beside the pass's tasks still
//! running, and the next block sized.

use super::bits::words_for;
use super::clock::Clock;
use super::finish_heap::Scratch;
use super::finish_in_order::finish_in_order;
use super::kept::Kept;
use super::middle::{MIDDLE_PAIRS, MiddleHits, MiddleWindow};
use super::pass::{BlockPass, run_passes};
use super::schedule::BlockPlan;
use super::state::{Outcome, PassAhead, Persist, RareRun, Target, Tuning};
use super::view::PassView;
use crate::heap::storage::growing::grow_while_reading;
use crate::heap::storage::store::{Store, Values};
use grundy_core::kernel::rare::{RareCode, rare_values_pay};
use grundy_gpu::rare::{GpuPass, Launched, Table as GpuTable};
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

/// Below this many heaps the table is too short to judge its sparseness.
pub(super) const JUDGE_FROM: usize = 1 << 15;

/// The pass of the block after the one being finished, started from the
/// heaps below that one: launched on the GPU, or tasks the other cores
/// take up once the block's own are claimed.
pub(super) enum Started {
    Gpu(Launched),
    Tasks(BlockPass),
}

impl Started {
    /// The block's first heap, and the heap past its last.
    pub(super) fn bounds(&self) -> (usize, usize) {
        match self {
            Started::Gpu(launched) => (launched.first(), launched.end()),
            Started::Tasks(ahead) => (ahead.first, ahead.end),
        }
    }
}

/// What carries from one block of a run to the next.
pub(super) struct Blocks {
    /// The time the schedule reads (`Tuning::clock`).
    pub(super) clock: Box<dyn Clock>,
    /// The block's size, where blocks go in order or alone, the costs a
    /// heap: what the next call of the engine goes on with.
    pub(super) plan: BlockPlan,
    /// The next block's middle pairs, when it goes in order.
    pub(super) middle: Option<MiddleHits>,
    /// The next block's pass, started while this one is finished.
    pub(super) started: Option<Started>,
    /// The finish's working bitsets, kept from one block to the next.
    pub(super) scratch: Scratch,
}

impl Blocks {
    /// The blocks of a call that goes on with `plan` (none: the first),
    /// its schedule as `tuning` says.
    pub(super) fn with(plan: Option<BlockPlan>, tuning: Tuning) -> Blocks {
        let mut plan = plan.unwrap_or_else(BlockPlan::first);
        plan.timed = tuning.in_order_timed;
        Blocks {
            clock: tuning.clock.start(),
            plan,
            middle: None,
            started: None,
            scratch: Scratch::default(),
        }
    }

    /// Computes the next block of heaps, up to `end`; `Some` when the run
    /// must stop there.
    pub(super) fn next<S: Store>(
        &mut self,
        code: &RareCode,
        run: &mut RareRun,
        g: &mut S,
        target: Target,
        gpu: &mut Option<GpuPass>,
    ) -> Option<Outcome> {
        let (s, end) = (g.len(), target.end());
        let block_start = self.clock.nanos(s);
        if let Some(short) = Kept::short_for(code, run.rare.last().copied(), s, run.gap) {
            return Some(Outcome::Beyond(short));
        }
        let (e, in_order) = self.bounds(run, s, end);
        // The middle pairs (parts near half the heap): not where a run
        // keeping part of its table gave them back.
        let (kept, gap) = (run.kept, run.gap);
        let middle_kept =
            |e| gap.is_empty() || kept.is_some_and(|k| k.holds_middle(code, e, MIDDLE_PAIRS));
        let ahead = if in_order {
            // A pass started ahead for this block is not needed.
            self.started = None;
            let (middle, may_collect) = (self.middle.take(), middle_kept(e));
            BlockPass::in_order_with(code, g.view(), s..e, middle, may_collect, run.max_value)
        } else {
            match self.with_pass(code, run, g.view(), s..e, end, gpu) {
                Ok(ahead) => ahead,
                Err(failed) => return Some(failed),
            }
        };
        // A block in order leaves the other cores free: they collect the
        // next block's middle pairs meanwhile (their parts lie below s).
        let next_end = BlockPlan::block_end(e, BlockPlan::in_order_len(e), end)
            .min(e.saturating_add(longest_window(run)));
        let window = (middle_kept(next_end) && e < self.plan.in_order_until.min(end))
            .then(|| MiddleWindow::copy(code, g, s, e, next_end, run.max_value));
        let (widened, next_hits) = self.finish_beside_tasks(code, run, g, &ahead, e, window);
        if widened.is_some() {
            return widened;
        }
        self.middle = next_hits;
        if !in_order && !ahead.on_gpu {
            self.plan.resize(ahead.totals().0, e - s);
        }
        count_pass(run, &ahead, e - s);
        learn_checks(code, run, &ahead, e - s);
        let cost = self.clock.nanos(e).saturating_sub(block_start) as f64 / (e - s) as f64;
        self.plan.note_cost(in_order, cost);
        self.count(run, &ahead, s..e);
        let split = run.split;
        run.maybe_rechoose(code, g.view());
        if run.split != split {
            // A pass started under the old split marked the old rare list.
            self.started = None;
        }
        let Persist::GiveUpWhenDense(against) = target.persist else {
            return None;
        };
        let dense = g.len() >= JUDGE_FROM && !rare_values_pay(run.rare.len(), g.len(), against);
        dense.then_some(Outcome::Dense)
    }

    /// The end of the block from heap s (up to `end`), and whether it goes
    /// in order: as the schedule says, no longer than `longest_window`
    /// (a block started ahead was capped from the heaps its pass read).
    pub(super) fn bounds(&mut self, run: &RareRun, s: usize, end: usize) -> (usize, bool) {
        let started = self.started.as_ref().map(Started::bounds);
        let (e, in_order) = self.plan.next_block(s, end, started);
        match started {
            Some((first, _)) if first == s && !in_order => (e, in_order),
            _ => (e.min(s.saturating_add(longest_window(run))), in_order),
        }
    }

    /// The pass over `block` (the one started ahead, or one now), and the
    /// next block's (up to `end`) started ahead where the schedule says it
    /// pays.
    fn with_pass<V: Values>(
        &mut self,
        code: &RareCode,
        run: &mut RareRun,
        g: V,
        block: Range<usize>,
        end: usize,
        gpu: &mut Option<GpuPass>,
    ) -> Result<BlockPass, Outcome> {
        let (s, e) = (block.start, block.end);
        let ahead = block_pass(code, run, g, block, gpu, self.started.take())?;
        if ahead.on_gpu {
            self.plan.resize(ahead.totals().0, e - s);
        }
        // The next block's pass, from the heaps below this one, while
        // this one is finished (its finish then covers both blocks).
        let next_end = BlockPlan::block_end(e, self.plan.block, end)
            .min(s.saturating_add(longest_window(run)));
        self.started = (self.plan.ahead_pays(e) && next_end > e)
            .then(|| start_next(code, run, g, s, e..next_end, gpu))
            .flatten();
        let in_flight = 1 + self.started.is_some() as u64;
        run.counts.in_flight_max = run.counts.in_flight_max.max(in_flight);
        if let Some(pass) = gpu.as_ref().filter(|_| ahead.on_gpu) {
            pass.note_in_flight(in_flight);
        }
        Ok(ahead)
    }

    /// Finishes the block up to `e` in order while the pass's tasks run on
    /// the other cores (each task's heaps once it is done, or running it
    /// itself), then the next block's started tasks, and the next block's
    /// middle pairs are collected from `window`; the tasks read the rare
    /// list as it is now, up to the heaps their pass knows.
    pub(super) fn finish_beside_tasks<S: Store>(
        &mut self,
        code: &RareCode,
        run: &mut RareRun,
        g: &mut S,
        ahead: &BlockPass,
        e: usize,
        window: Option<MiddleWindow<S>>,
    ) -> (Option<Outcome>, Option<MiddleHits>) {
        let next = match &self.started {
            Some(Started::Tasks(next)) => Some(next),
            _ => None,
        };
        let tasks = ahead.tasks_left() || next.is_some_and(BlockPass::tasks_left);
        let (rare, values, checked) = match tasks {
            true => (
                run.rare.clone(),
                run.rare_values.clone(),
                run.checks.checked.clone(),
            ),
            false => Default::default(),
        };
        let (split, learn) = (run.split, run.checks.wanted());
        let view = |pass: &BlockPass| {
            let known = rare.partition_point(|&r| r < pass.below);
            PassView {
                rare: &rare[..known],
                values: &values[..known],
                split,
                max_value: pass.max,
                checked: &checked,
                learn,
                gap: run.gap,
            }
        };
        let now = view(ahead);
        let after = next.map(|next| (next, view(next)));
        let scratch = &mut self.scratch;
        let room = e - g.len();
        let started = std::time::Instant::now();
        let grown = grow_while_reading(
            g,
            room,
            |g| {
                rayon::join(
                    || {
                        let finished = finish_in_order(code, run, g, ahead, &now, e, scratch);
                        run.counts.finish_nanos += started.elapsed().as_nanos() as u64;
                        // Done first: the finisher takes up the next block's tasks.
                        if let Some((next, view)) = &after {
                            while next.run_task(code, view, g.view().range(0, next.below)) {}
                        }
                        finished
                    },
                    || window.map(|w| w.collect(code)),
                )
            },
            |below| {
                run_passes(
                    code,
                    [Some((ahead, &now)), after.as_ref().map(|(p, v)| (*p, v))],
                    below,
                )
            },
        );
        match grown {
            Ok((finished, ())) => finished,
            Err(_) => (Some(Outcome::OutOfMemory { heaps: room }), None),
        }
    }

    /// Counts the block s..e in `run`, and has the schedule judge its pass.
    pub(super) fn count(&mut self, run: &mut RareRun, ahead: &BlockPass, block: Range<usize>) {
        if let Some(hits) = &ahead.middle {
            run.counts.in_order += block.len() as u64;
            run.counts.settled_by_middle += hits.settled.load(Relaxed) as u64;
        }
        if ahead.below > 0 {
            let rescans = ahead.rescans.load(Relaxed) as usize;
            self.plan.judge(block, ahead.below, rescans, ahead.on_gpu);
        }
    }
}

/// The most heaps from the first a block's finish reads as found in it
/// (the heaps below its pass's, to its end): in a run that keeps part of
/// its table, its prefix. A rare heap r found there is read by the later
/// heaps n of the window with its partner n − j − r, less than the window's
/// length: the prefix holds every one (`rare::kept`), whatever was given
/// back. The prefix is at least `MIN_KEPT` (1,024) heaps, longer than the
/// shortest block.
pub(super) fn longest_window(run: &RareRun) -> usize {
    run.kept.map_or(usize::MAX, |kept| kept.prefix)
}

/// The parallel pass over heaps s..e: the one started while the block
/// before was finished (`started`, when it is this block's), else on the
/// GPU now when `gpu` takes it, else tasks for every core, run while the
/// block is finished.
pub(super) fn block_pass<V: Values>(
    code: &RareCode,
    run: &mut RareRun,
    g: V,
    Range { start: s, end: e }: Range<usize>,
    gpu: &mut Option<GpuPass>,
    started: Option<Started>,
) -> Result<BlockPass, Outcome> {
    let clock = std::time::Instant::now();
    let failed = |e: grundy_core::error::Error| Outcome::Failed(e.to_string());
    let this_block = |first: usize, end: usize| (first, end) == (s, e);
    let words = words_for(run.max_value);
    let ahead = match (gpu.as_mut(), started) {
        (Some(pass), Some(Started::Gpu(launched)))
            if this_block(launched.first(), launched.end()) =>
        {
            run.counts.pass_ahead += (e - s) as u64;
            let params = launched.params;
            BlockPass::from_gpu(pass.collect(launched).map_err(failed)?, params)
        }
        (_, Some(Started::Tasks(ahead))) if this_block(ahead.first, ahead.end) => {
            run.counts.pass_ahead += (e - s) as u64;
            ahead
        }
        (Some(pass), _) if pass.takes(words, e, code.splits.len(), run.rare.len()) => {
            let params = BlockPass::gpu_params(run, s, s, e);
            let pack = pack_values(g.range(0, s));
            let table = GpuTable {
                len: s,
                pack: &pack,
            };
            let out = pass.run(params, &table, &run.rare, &run.rare_values);
            BlockPass::from_gpu(out.map_err(failed)?, params)
        }
        _ => BlockPass::tasks(s, s..e, run.max_value),
    };
    if ahead.on_gpu {
        ahead
            .nanos
            .store(clock.elapsed().as_nanos() as u64, Relaxed);
    }
    Ok(ahead)
}

/// Counts a block's pass in `run.counts`, once the block is finished.
pub(super) fn count_pass(run: &mut RareRun, ahead: &BlockPass, heaps: usize) {
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
    counts.finish_wait_nanos += ahead.waited.load(Relaxed);
    counts.rescans += ahead.rescans.load(Relaxed) as u64;
}

/// Learns from a block's pass on the CPU which rare pairs the next
/// passes check (`checks`), and chooses them.
pub(super) fn learn_checks(code: &RareCode, run: &mut RareRun, ahead: &BlockPass, heaps: usize) {
    if ahead.on_gpu || ahead.tasks.is_empty() {
        return;
    }
    let (mut credits, mut samples, mut failed) = (Vec::new(), 0, 0);
    for task in ahead.tasks.iter().filter_map(|t| t.get()) {
        credits.extend_from_slice(&task.credits);
        samples += task.samples;
        failed += task.failed;
        run.counts.pass_checked += task.checked;
    }
    failed += ahead.remarked.load(Relaxed) as u64;
    run.counts.check_failed += failed;
    run.checks.learn(&credits, samples, failed, heaps as u64);
    run.checks.choose(run.rare.len() * code.splits.len());
}

/// Starts the pass of the next block, `first..end`, knowing only the
/// heaps below `below` (this block's first): on the GPU, which works on it
/// while the host finishes this block, or as tasks the other cores take up
/// once this block's are claimed. Its finish then covers both blocks.
pub(super) fn start_next<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    below: usize,
    Range { start: first, end }: Range<usize>,
    gpu: &mut Option<GpuPass>,
) -> Option<Started> {
    if first >= end || run.tuning.pass_ahead == PassAhead::Never {
        return None;
    }
    let words = words_for(run.max_value);
    let Some(pass) = gpu
        .as_mut()
        .filter(|p| p.takes(words, end, code.splits.len(), run.rare.len()))
    else {
        // On one thread no other core would take the tasks up.
        let cores = rayon::current_num_threads() > 1 && run.tuning.pass_ahead == PassAhead::Always;
        return cores.then(|| Started::Tasks(BlockPass::tasks(below, first..end, run.max_value)));
    };
    let params = BlockPass::gpu_params(run, below, first, end);
    let pack = pack_values(g.range(0, below));
    let table = GpuTable {
        len: below,
        pack: &pack,
    };
    Some(Started::Gpu(pass.launch(
        params,
        &table,
        &run.rare,
        &run.rare_values,
    )))
}

/// The GPU's upload of `g`: its values a..b (a even), two to a word.
pub(super) fn pack_values<V: Values>(g: V) -> impl Fn(usize, usize) -> Vec<u32> {
    move |a, b| {
        let part = g.range(a, b);
        match part.exact() {
            Some(units) => grundy_core::kernel::pack_u16(units),
            None => grundy_core::kernel::pack_u16(&part.wide()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::rare::kept::Gap;
    use crate::heap::rare::schedule;
    use grundy_core::game::Code;

    /// In a run that keeps a prefix of 1,024 heaps, no block (in order or
    /// with a pass) is longer than the prefix, however long the schedule
    /// would make it; a run that keeps its whole table gets the schedule's.
    #[test]
    fn a_run_keeping_a_prefix_has_no_block_longer_than_it() {
        let code = RareCode::new(&Code::parse("4!.0").unwrap()).unwrap();
        let mut run = RareRun::new(&code, &[0u8][..]);
        let s = 1 << 20;
        let mut blocks = Blocks::with(None, Tuning::default());
        blocks.plan.block = schedule::MAX_BLOCK;
        assert_eq!(
            blocks.bounds(&run, s, usize::MAX),
            (s + schedule::MAX_BLOCK, false)
        );
        let kept = Kept {
            prefix: 1024,
            window: 1 << 16,
        };
        run.set_kept(Some(kept), Gap::default());
        assert_eq!(blocks.bounds(&run, s, usize::MAX), (s + 1024, false));
        blocks.plan.in_order_until = 2 * s;
        assert_eq!(blocks.bounds(&run, s, usize::MAX), (s + 1024, true));
    }
}
