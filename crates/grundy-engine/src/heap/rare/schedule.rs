//! The block schedule of a run by rare values: how long the next block
//! is, whether it goes in order (no pass) or with a pass, whether a pass
//! is started ahead for it, from what the blocks before cost and whether
//! their passes were wasted work. It carries from one call of the engine
//! to the next (`RareRun::plan`).

use std::ops::Range;

/// Heaps per block: enough pair reads per block (`BLOCK_PAIRS`) that
/// handing the block to the threads costs little, within these bounds.
/// Long blocks leave more of each heap's marks to the in-order pass.
pub(super) const MIN_BLOCK: usize = 256;
pub(super) const MAX_BLOCK: usize = 8192;
pub(super) const BLOCK_PAIRS: u64 = 1 << 21;
/// When the block's own marks sent more than one heap in `RESCAN_RATIO`
/// back to a scan of every pair, the pass was wasted work: the next
/// `IN_ORDER_BLOCKS` blocks in order (`BlockPlan::in_order_len`) go heap
/// by heap without it. Counted in blocks in order, not in the halved
/// blocks with a pass: the first block in order after a pass has no
/// middle pairs collected, so short spells in order cost `.1777` dear.
pub(super) const RESCAN_RATIO: usize = 4;
/// More than one heap in `HALVE_RATIO` sent back to a scan halves the
/// blocks with a pass instead; at most one in `RESCAN_RATIO` lets them
/// double again. A shorter block leaves fewer of its own marks to move c
/// (`.161`: BENCHMARKS-log.md, "Shorter blocks before blocks in order").
pub(super) const HALVE_RATIO: usize = 2;
/// For a pass started ahead (a window of two blocks): one heap in two.
pub(super) const RESCAN_RATIO_AHEAD: usize = 2;
pub(super) const IN_ORDER_BLOCKS: usize = 16;
/// How much more a heap in order may cost than one with a pass before
/// blocks stop going in order (one block's time is noisy).
pub(super) const IN_ORDER_MARGIN: f64 = 1.25;
/// The heaps in order double with each wasted pass in a row, at most this
/// many times (`.1777`'s passes are all wasted).
pub(super) const MAX_BACK_OFF: u32 = 6;
/// What a run's blocks learned that the next call of the engine goes on
/// with (a run that keeps part of its table calls it every piece).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BlockPlan {
    /// Heaps in the next block that has a pass.
    pub(super) block: usize,
    /// The most heaps a block with a pass may have: halved while passes
    /// send most heaps back to a scan, before blocks go in order.
    pub(super) longest: usize,
    /// Heaps below this go in order (a block's pass was wasted work).
    pub(super) in_order_until: usize,
    /// No pass is started ahead for the blocks below this (a pass started
    /// ahead was wasted work: its wider window moved c too often).
    pub(super) alone_until: usize,
    /// Blocks in a row whose pass was wasted work.
    pub(super) wasted: u32,
    /// Wall nanoseconds per heap of the last blocks with a pass and of the
    /// last blocks in order (0: none yet).
    pub(super) pass_cost: f64,
    pub(super) in_order_cost: f64,
    /// Whether the last block noted went in order.
    pub(super) last_in_order: Option<bool>,
    /// Whether `in_order_pays` reads the costs (`RareRun::in_order_timed`).
    pub(super) timed: bool,
}

impl BlockPlan {
    /// The first plan of a run.
    pub(super) fn first() -> BlockPlan {
        BlockPlan {
            block: MIN_BLOCK,
            longest: MAX_BLOCK,
            timed: true,
            ..BlockPlan::default()
        }
    }

    /// The end of a block from heap s of at most `len` heaps, up to `end`:
    /// no block is longer than the heaps below it.
    pub(super) fn block_end(s: usize, len: usize, end: usize) -> usize {
        end.min(s + len.min(s.max(64)))
    }

    /// Heaps of a block in order from heap s: as long as blocks go (the
    /// threads meet once a block) but at most a quarter of the heaps below,
    /// so that the next block's middle pairs (parts near half its heaps)
    /// lie below this one.
    pub(super) fn in_order_len(s: usize) -> usize {
        MAX_BLOCK.min(s / 4).max(16)
    }

    /// The block from heap s, up to `end`: its end, and whether it goes in
    /// order. A block whose pass was started ahead (`started`, its bounds)
    /// keeps the bounds it was started with.
    pub(super) fn next_block(
        &mut self,
        s: usize,
        end: usize,
        started: Option<(usize, usize)>,
    ) -> (usize, bool) {
        if s < self.in_order_until && !self.in_order_pays() {
            self.in_order_until = s;
        }
        let in_order = s < self.in_order_until;
        let e = match started {
            Some((first, e)) if !in_order && first == s => e,
            _ if in_order => Self::block_end(s, Self::in_order_len(s), end),
            _ => Self::block_end(s, self.block, end),
        };
        (e, in_order)
    }

    /// Whether the block after one ending at e may have its pass started
    /// ahead: not where blocks go in order or go alone.
    pub(super) fn ahead_pays(&self, e: usize) -> bool {
        e >= self.in_order_until.max(self.alone_until)
    }

    /// Whether blocks in order pay: not when the last ones cost clearly
    /// more wall time a heap (`IN_ORDER_MARGIN`) than the last blocks with
    /// a pass, wasted or not. A heap in order saves the pass's scan below
    /// the block, which is long where c′ is high (`.774`), and the middle
    /// pairs spare most of `.1777`'s a scan; but elsewhere (Grundy's game,
    /// `.161`) it scans every pair on one thread, while a wasted pass's
    /// rescans spread over the cores in stretches (BENCHMARKS-log.md, "The
    /// finish in stretches").
    pub(super) fn in_order_pays(&self) -> bool {
        !self.timed
            || self.in_order_cost == 0.0
            || self.in_order_cost <= IN_ORDER_MARGIN * self.pass_cost
    }

    /// Notes a block's wall time a heap (`cost`), in order or with a pass.
    /// A block's own time is noisy: the last few blocks' together, less a
    /// block more than twice as slow as they were (stalled by another
    /// process, say), which would keep blocks from going in order. The
    /// first block after blocks of the other kind is taken as it is: a
    /// heap costs more the longer the table, so the last cost of its kind
    /// may be long out of date (then every block would look stalled).
    pub(super) fn note_cost(&mut self, in_order: bool, cost: f64) {
        let fresh = self.last_in_order == Some(in_order);
        self.last_in_order = Some(in_order);
        let last = match in_order {
            true => &mut self.in_order_cost,
            false => &mut self.pass_cost,
        };
        *last = match *last {
            _ if !fresh => cost,
            before if cost > 2.0 * before => before,
            before => 0.75 * before + 0.25 * cost,
        };
    }

    /// Sizes the next block with a pass from this one's `pairs` over its
    /// `heaps`.
    pub(super) fn resize(&mut self, pairs: u64, heaps: usize) {
        let per_heap = (pairs / heaps as u64).max(1);
        self.block = ((BLOCK_PAIRS / per_heap) as usize).clamp(MIN_BLOCK, self.longest);
    }

    /// Judges the block s..e whose pass read the heaps below `below` and
    /// sent `rescans` heaps back to a scan of every pair. Where most went
    /// back, the blocks are halved first (`longest`); wasted work sends
    /// the next blocks in order (or without a pass started ahead, for a
    /// pass that was), for twice as many heaps with each one in a row.
    /// The card's blocks (`on_gpu`) are not halved: the card sizes them.
    pub(super) fn judge(
        &mut self,
        Range { start: s, end: e }: Range<usize>,
        below: usize,
        rescans: usize,
        on_gpu: bool,
    ) {
        let ahead = below < s;
        if !ahead && !on_gpu && self.halve_or_regrow(e - s, rescans) {
            return;
        }
        // A pass started ahead leaves a window of two blocks to the
        // finish, whose marks move c more often: it is judged less strictly.
        let ratio = if ahead {
            RESCAN_RATIO_AHEAD
        } else {
            RESCAN_RATIO
        };
        // Wasted passes send the next blocks in order where the clock
        // judges whether that pays (`timed`: `in_order_pays` below), or
        // where the blocks cannot be halved (as short as they go, a pass
        // started ahead, the card's). Without the clock, blocks that could
        // still be shorter are only halved: a third of the heaps scanned
        // again may cost less than every heap scanning its pairs on one
        // thread (`.161`), or more (`.774`).
        let may_go_in_order = ahead || on_gpu || self.longest == MIN_BLOCK || self.timed;
        if rescans * ratio > e - s && may_go_in_order {
            let blocks = IN_ORDER_BLOCKS << self.wasted.min(MAX_BACK_OFF);
            match ahead {
                true => self.alone_until = e + blocks * self.block,
                false if self.in_order_pays() => {
                    self.in_order_until = e + blocks * Self::in_order_len(e)
                }
                false => {}
            }
            self.wasted += 1;
        } else {
            self.wasted = 0;
        }
    }

    /// Halves `longest` after a block of `heaps` whose pass sent more than
    /// one heap in `HALVE_RATIO` back to a scan (true: judged so), doubles
    /// it after one that sent at most one in `RESCAN_RATIO`. Halved from
    /// the next block's length, not this one's: the first blocks of a run
    /// are as short as the heaps below them.
    fn halve_or_regrow(&mut self, heaps: usize, rescans: usize) -> bool {
        if rescans * HALVE_RATIO > heaps && self.longest > MIN_BLOCK {
            self.longest = (self.block / 2).max(MIN_BLOCK);
            self.block = self.longest;
            return true;
        }
        if rescans * RESCAN_RATIO <= heaps {
            self.longest = (2 * self.longest).min(MAX_BLOCK);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan whose last blocks with a pass had `block` heaps and cost
    /// `in_order_cost` times as much a heap in order.
    fn plan_of(block: usize, in_order_cost: f64) -> BlockPlan {
        BlockPlan {
            block,
            pass_cost: 1.0,
            in_order_cost,
            ..BlockPlan::first()
        }
    }

    #[test]
    fn passes_that_send_most_heaps_back_halve_the_blocks_before_going_in_order() {
        let mut plan = plan_of(4096, 1.0);
        let s = 1 << 20;
        // Two heaps in three sent back: half the block, no block in order.
        plan.judge(s..s + 4096, s, 2731, false);
        assert_eq!(
            (plan.longest, plan.block, plan.in_order_until),
            (2048, 2048, 0)
        );
        plan.resize(64, 1);
        assert_eq!(plan.block, 2048, "the pairs ask for more; longest holds");
        for heaps in [2048, 1024, 512] {
            plan.judge(s..s + heaps, s, heaps, false);
            assert_eq!(plan.in_order_until, 0);
        }
        assert_eq!((plan.longest, plan.wasted), (MIN_BLOCK, 0));
        // As short as blocks go: wasted work sends the next ones in order.
        plan.judge(s..s + 256, s, 200, false);
        let in_order = IN_ORDER_BLOCKS * BlockPlan::in_order_len(s + 256);
        assert_eq!(plan.in_order_until, s + 256 + in_order);
        assert_eq!((plan.longest, plan.wasted), (MIN_BLOCK, 1));
    }

    #[test]
    fn passes_that_send_few_heaps_back_let_the_blocks_grow_again() {
        // Heaps in order cost twice as much: wasted work stays with a pass.
        let mut plan = plan_of(1024, 2.0);
        plan.longest = 1024;
        let s = 1 << 20;
        // One in three: wasted, but not halved, not grown, not in order.
        plan.judge(s..s + 1024, s, 340, false);
        assert_eq!(
            (plan.longest, plan.in_order_until, plan.wasted),
            (1024, 0, 1)
        );
        // Without the clock, only blocks as short as they go are wasted.
        plan.timed = false;
        plan.judge(s..s + 1024, s, 340, false);
        assert_eq!(
            (plan.longest, plan.in_order_until, plan.wasted),
            (1024, 0, 0)
        );
        plan.timed = true;
        // One in five: doubled, up to the longest blocks go.
        for longest in [2048, 4096, MAX_BLOCK, MAX_BLOCK] {
            plan.judge(s..s + 1024, s, 200, false);
            assert_eq!((plan.longest, plan.wasted), (longest, 0));
        }
    }

    #[test]
    fn a_pass_started_ahead_is_judged_by_its_own_rule() {
        let mut plan = plan_of(4096, 1.0);
        let s = 1 << 20;
        plan.judge(s..s + 4096, s - 4096, 3000, false);
        assert_eq!(plan.longest, MAX_BLOCK, "not halved");
        assert_eq!(plan.alone_until, s + 4096 + IN_ORDER_BLOCKS * 4096);
        assert_eq!(plan.in_order_until, 0);
    }

    #[test]
    fn the_cards_blocks_are_not_halved() {
        let mut plan = plan_of(4096, 1.0);
        plan.timed = false;
        let s = 1 << 20;
        plan.judge(s..s + 4096, s, 2731, true);
        assert_eq!(plan.longest, MAX_BLOCK, "not halved");
        let in_order = IN_ORDER_BLOCKS * BlockPlan::in_order_len(s + 4096);
        assert_eq!(plan.in_order_until, s + 4096 + in_order);
    }

    /// Heaps cost more as the table grows: an in-order cost from long ago
    /// would make every later block in order look stalled, and blocks in
    /// order would seem to pay for ever.
    #[test]
    fn a_cost_after_blocks_of_the_other_kind_replaces_the_old_one() {
        let mut plan = BlockPlan::first();
        plan.note_cost(true, 500.0);
        plan.note_cost(true, 1600.0);
        assert_eq!(plan.in_order_cost, 500.0, "a stalled block left out");
        plan.note_cost(true, 600.0);
        assert_eq!(plan.in_order_cost, 525.0);
        plan.note_cost(false, 1500.0);
        assert!(plan.in_order_pays());
        plan.note_cost(true, 2000.0);
        assert_eq!(plan.in_order_cost, 2000.0);
        assert!(!plan.in_order_pays());
    }
}
