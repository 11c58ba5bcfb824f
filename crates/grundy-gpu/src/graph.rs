//! Graph games' dense table on the GPU: `kernel::graph::GRAPH_LEVEL` level
//! by level over every vertex subset (one byte per subset, over eight
//! chunks), the table resident on the device.

use super::levels::{LevelDispatch, LevelRun, level_slots};
use super::{Runner, Unfit};
pub use crate::outputs::GpuGraphRun;
use grundy_core::error::{Error, Result};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::graph::graph_level::Overflow;
use grundy_core::kernel::graph::{
    CHUNKS, GPU_MAX_TAKE, GRAPH_LEVEL, GraphKernel, Params, VALUE_BITS, WG, connected_set_counts,
    dense_table_bytes, strip_flags,
};

/// Storage buffers the kernel binds: the graph, the status words and the chunks.
const STORAGE_BINDINGS: u32 = CHUNKS as u32 + 2;
/// Positions per submission, roughly (for progress and the status check).
const BATCH_POSITIONS: u64 = 1 << 24;

/// The chunk size (log2 words) this adapter runs `kern` with, or why it cannot.
pub fn fits(
    runner: &Runner,
    kern: &GraphKernel,
    chunk_shift: Option<u32>,
) -> std::result::Result<u32, Unfit> {
    let unfit = |why: String| Err(Unfit(why));
    if kern.max_take() > GPU_MAX_TAKE {
        return unfit(format!(
            "the GPU kernel removes at most {GPU_MAX_TAKE} vertices per move; this code removes up to {}",
            kern.max_take()
        ));
    }
    let stage = runner.limits.max_storage_buffers_per_shader_stage;
    if stage < STORAGE_BINDINGS {
        return unfit(format!(
            "the adapter '{}' binds {stage} storage buffers per stage; the graph kernel needs {STORAGE_BINDINGS}",
            runner.info.name
        ));
    }
    let shift = chunk_shift
        .unwrap_or(63 - (runner.max_binding_pow2() / 4).leading_zeros())
        .min(28);
    if table_words(kern.n) > CHUNKS << shift {
        return unfit(format!(
            "a dense table over {} vertices needs {} MiB on the GPU; this adapter binds at most {CHUNKS} \
             chunks of {} MiB",
            kern.n,
            dense_table_bytes(kern.n) >> 20,
            (4u64 << shift) >> 20
        ));
    }
    if let Some(budget) = super::heap::loop_budget(runner)
        && loop_trips(kern) > budget
    {
        return unfit(format!(
            "this graph needs about {} shader loop iterations per position; the adapter '{}' \
             stops a loop after 65535",
            loop_trips(kern),
            runner.info.name
        ));
    }
    Ok(shift)
}

/// Loop iterations one invocation makes at most, over-estimated.
fn loop_trips(kern: &GraphKernel) -> u64 {
    let n = kern.n as u64;
    let sets: u64 = connected_set_counts(&kern.adj, kern.max_take())
        .iter()
        .enumerate()
        .filter(|&(i, _)| kern.digits[i] != 0)
        .map(|(_, &c)| c)
        .sum();
    n * n + n + sets * (2 + 3 * n)
}

fn table_words(n: usize) -> u64 {
    (dense_table_bytes(n) / 4).max(1)
}

/// Computes every level of the dense table of `kern` on the GPU; reads the
/// table back when asked, else the whole graph's byte alone.
pub fn dense(
    runner: &Runner,
    kern: &GraphKernel,
    chunk_shift: Option<u32>,
    max_groups_x: u32,
    readback: bool,
    hooks: &dyn RunHooks,
) -> Result<GpuGraphRun> {
    let shift = fits(runner, kern, chunk_shift).map_err(|u| Error::Run(u.0))?;
    let chunk_words = 1u64 << shift;
    let total_words = table_words(kern.n);
    let chunks: Vec<wgpu::Buffer> = (0..CHUNKS)
        .map(|c| {
            let words = total_words.saturating_sub(c * chunk_words).min(chunk_words);
            runner.zeroed("graph table", words * 4)
        })
        .collect();
    // The empty position (mask 0, the first byte) has no move.
    let empty = kern.convention.no_move_value();
    runner.write(&chunks[0], 0, &empty.to_le_bytes());
    let status = runner.zeroed("graph status", 16);
    let graph = runner.storage("graph", bytemuck::bytes_of(&kern.graph_data(shift)));
    // One slot per level 1..=n: the empty position needs no dispatch.
    let levels = (1..=kern.n).map(|k| (k as u32, kern.level_size(k)));
    let (params, grids) = level_slots(levels, WG, max_groups_x);
    let slots = runner.param_slots::<Params>("graph params", params.len());
    runner.write_params(&slots, &params);
    let pipelines = runner.pipelines(&GRAPH_LEVEL, &[]);
    let storage: Vec<&wgpu::Buffer> = [&graph, &status].into_iter().chain(&chunks).collect();
    let bind_group = runner.bind(&pipelines, &slots, &storage);
    let run = LevelRun {
        label: "graph levels",
        bind_group: &bind_group,
        status: &status,
        status_bytes: 16,
        batch_work: BATCH_POSITIONS,
    };
    let mut check = |st: &[u32]| match st[0] {
        0 => Ok(()),
        _ => Err(Error::Run(
            Overflow {
                mask: st[1] as u64 | (st[2] as u64) << 32,
            }
            .to_string(),
        )),
    };
    let dispatches = LevelDispatch::each_level(pipelines.entry("graph_level"), &grids);
    // The empty position is done before the first level.
    run.run(runner, &dispatches, &mut check, &|done| {
        hooks.progress(done + 1)
    })?;
    read_result(runner, kern, &chunks, chunk_words * 4, readback)
}

/// The table (flags stripped) when asked for, and the whole graph's value.
fn read_result(
    runner: &Runner,
    kern: &GraphKernel,
    chunks: &[wgpu::Buffer],
    chunk_bytes: u64,
    readback: bool,
) -> Result<GpuGraphRun> {
    let bytes = dense_table_bytes(kern.n);
    let last = bytes - 1;
    if readback {
        let mut table = runner.read_chunks(chunks, chunk_bytes, bytes)?;
        strip_flags(&mut table);
        let value = table[last as usize];
        return Ok(GpuGraphRun {
            table: Some(table),
            value,
        });
    }
    let word_at = (last / 4) * 4;
    let chunk = &chunks[(word_at / chunk_bytes) as usize];
    let word = runner.read(chunk, word_at % chunk_bytes, 4)?;
    Ok(GpuGraphRun {
        table: None,
        value: word[(last % 4) as usize] & VALUE_BITS as u8,
    })
}
