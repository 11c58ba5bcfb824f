//! The block schedule of a run by rare values: how long the next block
//! is, whether it goes in order (no pass) or with a pass, whether a pass
//! is started ahead for it, from what the blocks before cost and whether
//! their passes were wasted work. It carries from one call of the engine
//! to the next (`RareRun::plan`).

/// Heaps per block: enough pair reads per block (`BLOCK_PAIRS`) that
/// handing the block to the threads costs little, within these bounds.
/// Long blocks leave more of each heap's marks to the in-order pass.
pub(super) const MIN_BLOCK: usize = 256;
pub(super) const MAX_BLOCK: usize = 8192;
pub(super) const BLOCK_PAIRS: u64 = 1 << 21;
/// When the block's own marks sent more than one heap in `RESCAN_RATIO`
/// back to a scan of every pair, the pass was wasted work: the next
/// heaps of `IN_ORDER_BLOCKS` such blocks go heap by heap without it.
pub(super) const RESCAN_RATIO: usize = 4;
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
    /// Whether `in_order_pays` reads the costs (`RareRun::in_order_timed`).
    pub(super) timed: bool,
}

impl BlockPlan {
    /// The first plan of a run.
    pub(super) fn first() -> BlockPlan {
        BlockPlan {
            block: MIN_BLOCK,
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
    /// process, say), which would keep blocks from going in order.
    pub(super) fn note_cost(&mut self, in_order: bool, cost: f64) {
        let last = match in_order {
            true => &mut self.in_order_cost,
            false => &mut self.pass_cost,
        };
        *last = match *last {
            0.0 => cost,
            before if cost > 2.0 * before => before,
            before => 0.75 * before + 0.25 * cost,
        };
    }

    /// Sizes the next block with a pass from this one's `pairs` over its
    /// `heaps`.
    pub(super) fn resize(&mut self, pairs: u64, heaps: usize) {
        let per_heap = (pairs / heaps as u64).max(1);
        self.block = ((BLOCK_PAIRS / per_heap) as usize).clamp(MIN_BLOCK, MAX_BLOCK);
    }

    /// Judges the block s..e whose pass read the heaps below `below` and
    /// sent `rescans` heaps back to a scan of every pair: wasted work sends
    /// the next blocks in order (or without a pass started ahead, for a
    /// pass that was), for twice as many heaps with each one in a row.
    pub(super) fn judge(&mut self, (s, e): (usize, usize), below: usize, rescans: usize) {
        // A pass started ahead leaves a window of two blocks to the
        // finish, whose marks move c more often: it is judged less strictly.
        let ratio = if below < s {
            RESCAN_RATIO_AHEAD
        } else {
            RESCAN_RATIO
        };
        if rescans * ratio > e - s {
            let blocks = IN_ORDER_BLOCKS << self.wasted.min(MAX_BACK_OFF);
            match below < s {
                true => self.alone_until = e + blocks * self.block,
                false if self.in_order_pays() => self.in_order_until = e + blocks * self.block,
                false => {}
            }
            self.wasted += 1;
        } else {
            self.wasted = 0;
        }
    }
}
