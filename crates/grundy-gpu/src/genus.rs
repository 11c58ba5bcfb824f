//! Misère heap tables on the GPU: `kernel::genus::GENUS_BELOW` then
//! `kernel::genus::GENUS_FINISH` for every block, the table of heaps'
//! states resident on the device, many blocks per submission.

use super::heap::loop_budget;
use super::{Runner, Unfit};
use grundy_core::error::{Error, Result};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::genus::{
    GENUS_BELOW, GENUS_FINISH, GenusKernelCode, MAX_BLOCK, PLANES, Params, ST_DONE, ST_HALT,
    ST_HALT_AT, below_loop_trips, finish_loop_trips, plane_deps, table_bytes,
};
use grundy_core::kernel::heap::{Block, plan_blocks};
use grundy_core::kernel::{PARAMS_STRIDE, grid_2d};

/// Blocks per submission at most.
const BATCH_BLOCKS: usize = 32;
/// Option reads per submission, roughly (each a heap's `PLANES` values).
const BATCH_WORK: u64 = 1 << 28;

/// The block length this adapter runs heaps up to `n` of `code` with, or
/// why it cannot: the table and the bitsets fit its bindings, and the
/// in-order kernel the loop budget of a software adapter.
pub fn fits(runner: &Runner, code: &GenusKernelCode, n: u32) -> std::result::Result<u32, Unfit> {
    let binding = runner.max_binding();
    if table_bytes(n) > binding {
        return Err(Unfit(format!(
            "the misère table of {} heaps needs {} MiB on the GPU; this adapter binds at most {} MiB",
            n as u64 + 1,
            table_bytes(n) >> 20,
            binding >> 20
        )));
    }
    let words = code.words_below(n.saturating_add(1));
    let bitsets = |b: u32| b as u64 * PLANES as u64 * words as u64 * 4;
    let mut b = MAX_BLOCK;
    while b > 1 && bitsets(b) > binding {
        b /= 2;
    }
    if let Some(budget) = loop_budget(runner) {
        while b > 1 && finish_loop_trips(b, words) > budget {
            b /= 2;
        }
        if finish_loop_trips(b, words) > budget || below_loop_trips() > budget {
            return Err(Unfit(format!(
                "heaps up to {n} of this code need longer shader loops than the adapter '{}' \
                 runs (llvmpipe stops a loop after 65535 iterations)",
                runner.info.name
            )));
        }
    }
    Ok(b)
}

/// Every heap's state `0..=n` of `code` (`PLANES` values a heap), computed
/// on the GPU; `None` when `hooks.stop()` said so between submissions.
pub fn table(
    runner: &Runner,
    code: &GenusKernelCode,
    n: u32,
    hooks: &dyn RunHooks,
) -> Result<Option<Vec<u32>>> {
    let max_block = fits(runner, code, n).map_err(|u| Error::Run(u.0))?;
    let words = code.words_below(n.saturating_add(1));
    let table = runner.zeroed("genus table", table_bytes(n));
    let below = runner.zeroed(
        "genus below",
        max_block as u64 * PLANES as u64 * words as u64 * 4,
    );
    let status = runner.zeroed("genus status", 16);
    let digits = runner.storage("genus digits", bytemuck::cast_slice(&code.heap.digits));
    let deps = runner.storage("genus deps", bytemuck::cast_slice(&plane_deps()));
    let slots = runner.param_slots::<Params>("genus params", BATCH_BLOCKS);
    let below_pipes = runner.pipelines(&GENUS_BELOW, &[]);
    let finish_pipes = runner.pipelines(&GENUS_FINISH, &[]);
    let storage = [&digits, &deps, &below, &status, &table];
    let bind_group = runner.bind(&below_pipes, &slots, &storage);
    let blocks = plan_blocks(0, n, max_block);
    let mut next = 0;
    while next < blocks.len() {
        if next > 0 && hooks.stop() {
            return Ok(None);
        }
        let batch = batch(code, &blocks[next..]);
        let grids = write_params(runner, &slots, code, batch);
        let record = |pass: &mut wgpu::ComputePass<'_>| {
            for (k, &(gx, gy)) in grids.iter().enumerate() {
                pass.set_bind_group(0, &bind_group, &[(k as u64 * PARAMS_STRIDE) as u32]);
                pass.set_pipeline(below_pipes.entry("genus_below"));
                pass.dispatch_workgroups(gx, gy, 1);
                pass.set_pipeline(finish_pipes.entry("genus_finish"));
                pass.dispatch_workgroups(1, 1, 1);
            }
        };
        let st = runner.submit("genus blocks", record, &status, 16)?;
        if st[ST_HALT] != 0 {
            return Err(Error::Run(format!(
                "heap {} has a misère value past 65535, the most the card's bitsets hold; \
                 use --backend cpu",
                st[ST_HALT_AT]
            )));
        }
        hooks.progress(st[ST_DONE] as u64);
        next += batch.len();
    }
    let bytes = runner.read(&table, 0, table_bytes(n))?;
    Ok(Some(bytemuck::pod_collect_to_vec(&bytes)))
}

/// The blocks of the next submission: at most `BATCH_BLOCKS`, and about
/// `BATCH_WORK` option reads.
fn batch<'b>(code: &GenusKernelCode, blocks: &'b [Block]) -> &'b [Block] {
    let mut len = 0;
    let mut work = 0u64;
    while len < blocks.len() && len < BATCH_BLOCKS && work < BATCH_WORK {
        let blk = blocks[len];
        let takes = code.most_options_below(blk.s + blk.b) as u64 + 64;
        work += takes * blk.b as u64 * PLANES as u64;
        len += 1;
    }
    &blocks[..len]
}

/// Writes each block's parameters into its slot; returns the grids.
fn write_params(
    runner: &Runner,
    slots: &super::runner::ParamSlots,
    code: &GenusKernelCode,
    batch: &[Block],
) -> Vec<(u32, u32)> {
    let mut grids = Vec::new();
    let mut params = Vec::new();
    for blk in batch {
        let mut p = Params::of(code, blk.s, blk.b);
        let (gx, gy) = grid_2d(
            blk.b * p.slices,
            runner.limits.max_compute_workgroups_per_dimension,
        );
        p.groups_x = gx;
        grids.push((gx, gy));
        params.push(p);
    }
    runner.write_params(slots, &params);
    grids
}
