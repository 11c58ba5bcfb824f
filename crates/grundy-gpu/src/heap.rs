//! Heap games on the GPU: `kernel::heap::OPTIONS_BELOW` then
//! `kernel::heap::FINISH_BLOCK` for every block, the table resident on the
//! device, many blocks per submission.

use super::batch::BatchSize;
use super::{GpuContext, Runner, Unfit};
pub use crate::outputs::{GpuTuning, HeapStats};
use grundy_core::error::{Error, Result};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::heap::{
    Block, CHUNKS, FINISH_BLOCK, HEAD_HEAPS, HeapKernelCode, MAX_BLOCK, MAX_WORDS, OPTIONS_BELOW,
    Params, ST_DONE, ST_HALT, ST_HALT_AT, ST_MAX, ST_MIN_WORDS, below_loop_trips, block_work,
    finish_loop_trips, plan_blocks, slices,
};
use grundy_core::kernel::{PARAMS_STRIDE, grid_2d, pack_u16, packed_words};
/// Blocks per submission at most.
const BATCH_BLOCKS: usize = 64;
/// Option reads per submission, roughly (keeps each submission well under a second).
const BATCH_WORK: u64 = 1 << 32;
/// Option reads in the first submission (grown or shrunk by its time).
const FIRST_BATCH_WORK: u64 = 1 << 24;

/// The words per chunk (as log2) for a table of `values` heaps, or why it cannot fit.
pub fn chunk_shift_for(
    ctx: &GpuContext,
    values: u64,
    tuning: &GpuTuning,
) -> std::result::Result<u32, Unfit> {
    let binding_words = ctx.max_binding_pow2() / 4;
    let shift = tuning
        .chunk_shift
        .unwrap_or(63 - binding_words.leading_zeros())
        .min(28);
    let words = packed_words(values);
    if words > CHUNKS << shift {
        return Err(Unfit(format!(
            "a table of {values} values needs {} MiB on the GPU; this adapter binds at most {} chunks \
             of {} MiB",
            (words * 4) >> 20,
            CHUNKS,
            (4u64 << shift) >> 20
        )));
    }
    Ok(shift)
}

/// The loop iterations one invocation may make on this adapter (llvmpipe,
/// the software Vulkan driver, ends every loop of an invocation after 65535
/// iterations in all, silently), or `None` when there is no such cap.
pub fn loop_budget(ctx: &GpuContext) -> Option<u64> {
    ctx.is_software().then_some(60_000)
}

/// The block length to use: the tuning's, shrunk until the in-order kernel
/// fits the adapter's loop budget; `Err` when heaps up to `to` cannot fit.
pub fn block_limit(
    ctx: &GpuContext,
    code: &HeapKernelCode,
    to: u32,
    tuning: &GpuTuning,
) -> std::result::Result<u32, Unfit> {
    let mut b = tuning.max_block.clamp(1, MAX_BLOCK);
    let Some(budget) = loop_budget(ctx) else {
        return Ok(b);
    };
    while b > 1 && finish_loop_trips(code, b, MAX_WORDS) > budget {
        b /= 2;
    }
    if finish_loop_trips(code, b, MAX_WORDS) > budget
        || below_loop_trips(code, to as u64, MAX_WORDS) > budget
    {
        return Err(Unfit(format!(
            "heaps up to {to} of this code need longer shader loops than the adapter '{}' runs \
             (llvmpipe stops a loop after 65535 iterations)",
            ctx.info.name
        )));
    }
    Ok(b)
}

/// The buffers of one run: the table in chunks, and what the kernels share.
struct HeapBuffers {
    chunks: Vec<wgpu::Buffer>,
    chunk_words: u64,
    digits: wgpu::Buffer,
    below: wgpu::Buffer,
    status: wgpu::Buffer,
}

impl HeapBuffers {
    /// Uploads `table` (packed two values per word over up to four chunks)
    /// with room for `values` values, and the status the kernels start from.
    fn new(
        runner: &Runner,
        code: &HeapKernelCode,
        table: &[u16],
        values: u64,
        shift: u32,
        max_block: u32,
    ) -> HeapBuffers {
        let total_words = packed_words(values);
        let chunk_words = 1u64 << shift;
        let packed = pack_u16(table);
        let known_words = packed.len();
        let chunks = (0..CHUNKS)
            .map(|c| {
                let lo = (c * chunk_words).min(total_words);
                let hi = ((c + 1) * chunk_words).min(total_words);
                let chunk = runner.zeroed("values", (hi - lo) * 4);
                let known = &packed[(lo as usize).min(known_words)..(hi as usize).min(known_words)];
                runner.write(&chunk, 0, bytemuck::cast_slice(known));
                chunk
            })
            .collect();
        let max_value = table.iter().copied().max().unwrap_or(0) as u32;
        let status: [u32; 8] = [0, max_value, 1, table.len() as u32, 0, 0, 0, 0];
        HeapBuffers {
            chunks,
            chunk_words,
            digits: runner.storage("digits", bytemuck::cast_slice(&code.digits)),
            below: runner.zeroed("below", max_block as u64 * MAX_WORDS as u64 * 4),
            status: runner.storage("status", bytemuck::cast_slice(&status)),
        }
    }

    fn storage(&self) -> Vec<&wgpu::Buffer> {
        [&self.digits, &self.below, &self.status]
            .into_iter()
            .chain(&self.chunks)
            .collect()
    }
}

/// Extends `table` (G of heaps below its length) to heaps `0..=to` on the
/// GPU, or to the last finished block when `hooks.stop()` says so between
/// submissions.
pub fn extend(
    runner: &Runner,
    code: &HeapKernelCode,
    table: &[u16],
    to: u32,
    tuning: &GpuTuning,
    hooks: &dyn RunHooks,
) -> Result<(Vec<u16>, HeapStats)> {
    let unfit = |u: Unfit| Error::Run(u.0);
    let values = to as u64 + 1;
    let shift = chunk_shift_for(runner, values, tuning).map_err(unfit)?;
    let max_block = block_limit(runner, code, to, tuning).map_err(unfit)?;
    let buffers = HeapBuffers::new(runner, code, table, values, shift, max_block);
    let blocks = plan_blocks(table.len() as u32, to, max_block);
    let mut run = BlockRun {
        runner,
        code,
        buffers: &buffers,
        slots: runner.param_slots::<Params>("heap params", BATCH_BLOCKS),
        shift,
        max_groups_x: tuning.max_groups_x,
        head_heaps: tuning.head_heaps.min(HEAD_HEAPS),
        stats: HeapStats::default(),
    };
    let done = run.blocks(&blocks, table.len() as u64, hooks)?;
    let bytes = runner.read_chunks(
        &buffers.chunks,
        buffers.chunk_words * 4,
        packed_words(done) * 4,
    )?;
    let mut out: Vec<u16> = bytemuck::cast_slice::<u8, u32>(&bytes)
        .iter()
        .flat_map(|w| [*w as u16, (*w >> 16) as u16])
        .collect();
    out.truncate(done.min(values) as usize);
    Ok((out, run.stats))
}

/// The blocks of one run, submitted in batches.
struct BlockRun<'a> {
    runner: &'a Runner,
    code: &'a HeapKernelCode,
    buffers: &'a HeapBuffers,
    slots: super::runner::ParamSlots,
    shift: u32,
    max_groups_x: u32,
    head_heaps: u32,
    stats: HeapStats,
}

impl BlockRun<'_> {
    /// Runs `blocks` in order (redoing a block whose bitset was too narrow);
    /// returns the heaps done, fewer than asked when `hooks.stop()` said so.
    fn blocks(&mut self, blocks: &[Block], from: u64, hooks: &dyn RunHooks) -> Result<u64> {
        let below = self.runner.pipelines(&OPTIONS_BELOW, &[]);
        let finish = self.runner.pipelines(&FINISH_BLOCK, &[]);
        let bind_group = self
            .runner
            .bind(&below, &self.slots, &self.buffers.storage());
        let mut next = 0;
        let mut done = from;
        let mut batch_work = BatchSize::new(FIRST_BATCH_WORK, FIRST_BATCH_WORK >> 4, BATCH_WORK);
        while next < blocks.len() {
            if next > 0 && hooks.stop() {
                break;
            }
            let batch = self.batch(&blocks[next..], batch_work.work);
            let grids = self.write_params(batch);
            let record = |pass: &mut wgpu::ComputePass<'_>| {
                for (k, &(gx, gy)) in grids.iter().enumerate() {
                    pass.set_bind_group(0, &bind_group, &[(k as u64 * PARAMS_STRIDE) as u32]);
                    pass.set_pipeline(below.entry("options_below"));
                    pass.dispatch_workgroups(gx, gy, 1);
                    pass.set_pipeline(finish.entry("finish_block"));
                    pass.dispatch_workgroups(1, 1, 1);
                }
            };
            let submitted = std::time::Instant::now();
            let st = self
                .runner
                .submit("heap blocks", record, &self.buffers.status, 32)?;
            batch_work.after(submitted.elapsed().as_secs_f64());
            match st[ST_HALT] {
                0 => {
                    next += batch.len();
                    done = batch.last().map_or(done, |blk| (blk.s + blk.b) as u64);
                    hooks.progress(st[ST_DONE] as u64);
                }
                1 => next = self.widened(blocks, &st)?,
                _ => {
                    return Err(Error::Run(format!(
                        "G({}) is larger than 65535, the most a u16 table holds",
                        st[ST_HALT_AT]
                    )));
                }
            }
            debug_assert!(st[ST_MAX] <= u16::MAX as u32);
        }
        Ok(done)
    }

    /// The blocks of the next submission: at most `BATCH_BLOCKS`, and
    /// about `work` option reads.
    fn batch<'b>(&self, blocks: &'b [Block], work: u64) -> &'b [Block] {
        let mut len = 0;
        let mut sum = 0;
        while len < blocks.len() && len < BATCH_BLOCKS && sum < work {
            sum += block_work(self.code, blocks[len]);
            len += 1;
        }
        &blocks[..len]
    }

    /// Writes each block's parameters into its slot; returns the grids.
    fn write_params(&self, batch: &[Block]) -> Vec<(u32, u32)> {
        let mut grids = Vec::new();
        let mut params = Vec::new();
        for blk in batch {
            let (gx, gy) = grid_2d(blk.b * slices(blk.s), self.max_groups_x);
            grids.push((gx, gy));
            params.push(Params {
                s: blk.s,
                b: blk.b,
                groups_x: gx,
                prefix_len: self.code.prefix_len,
                tail_len: self.code.tail_len,
                min_diff: self.code.min_diff,
                chunk_shift: self.shift,
                take_jmax: self.code.take_jmax,
                split_jmax: self.code.split_jmax,
                slices: slices(blk.s),
                head_heaps: self.head_heaps,
                pad: 0,
            });
        }
        self.runner.write_params(&self.slots, &params);
        grids
    }

    /// A bitset was too narrow: the kernel widened it; the block to redo.
    fn widened(&mut self, blocks: &[Block], st: &[u32]) -> Result<usize> {
        self.stats.widenings += 1;
        let at = st[ST_HALT_AT];
        let next = blocks
            .iter()
            .position(|blk| blk.s == at)
            .ok_or_else(|| Error::Run(format!("GPU halted at heap {at}, which starts no block")))?;
        debug_assert!(st[ST_MIN_WORDS] <= MAX_WORDS);
        self.runner
            .write(&self.buffers.status, 0, bytemuck::bytes_of(&0u32));
        // The halted block left bitsets in `below` that no one took.
        self.runner.clear(&self.buffers.below);
        Ok(next)
    }
}
