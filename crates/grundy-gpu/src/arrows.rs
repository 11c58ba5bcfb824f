//! The Game of Arrows' dense table on the GPU: `kernel::arrows::ARROWS_LEVEL`
//! level by level (fullest first) over every base-3 number over the edges,
//! the table resident on the device.

use super::levels::{LevelDispatch, LevelRun, level_slots};
use super::{Runner, Unfit};
pub use crate::outputs::GpuArrowRun;
use grundy_core::error::Result;
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::arrows::{ARROWS_LEVEL, ArrowKernel, Params, WG};

/// States per submission, roughly (for progress).
const BATCH_STATES: u64 = 1 << 26;

/// `Ok` when this adapter can hold the table, else why not.
pub fn fits(runner: &Runner, kern: &ArrowKernel) -> std::result::Result<(), Unfit> {
    let binding = runner.max_binding();
    let bytes = kern.table_bytes().div_ceil(4) * 4;
    if bytes > binding {
        return Err(Unfit(format!(
            "a dense table over {} edges needs {} MiB; the adapter '{}' binds at most {} MiB",
            kern.edges,
            bytes >> 20,
            runner.info.name,
            binding >> 20
        )));
    }
    Ok(())
}

/// Computes every level on the GPU; reads back the table when asked, else
/// the start state's byte alone.
pub fn dense(
    runner: &Runner,
    kern: &ArrowKernel,
    start: u32,
    readback: bool,
    hooks: &dyn RunHooks,
) -> Result<GpuArrowRun> {
    let game = runner.storage("arrows game", bytemuck::cast_slice(&kern.words()));
    let table = runner.zeroed("arrows table", kern.table_bytes());
    let status = runner.zeroed("arrows status", 16);
    // One slot per level, the fullest (all edges marked) first.
    let levels = (0..=kern.edges)
        .rev()
        .map(|k| (k as u32, kern.level_size(k)));
    let max_x = runner.limits.max_compute_workgroups_per_dimension;
    let (params, grids) = level_slots(levels, WG, max_x);
    let slots = runner.param_slots::<Params>("arrows params", params.len());
    runner.write_params(&slots, &params);
    let pipelines = runner.pipelines(&ARROWS_LEVEL, &[]);
    let bind_group = runner.bind(&pipelines, &slots, &[&game, &table, &status]);
    let dispatches = LevelDispatch::each_level(pipelines.entry("arrows_level"), &grids);
    let run = LevelRun {
        label: "arrows levels",
        bind_group: &bind_group,
        status: &status,
        status_bytes: 16,
        batch_work: BATCH_STATES,
    };
    let st = run.run(runner, &dispatches, &mut |_| Ok(()), &|d| hooks.progress(d))?;
    let table_bytes = if readback {
        let mut t = runner.read(&table, 0, kern.table_bytes().div_ceil(4) * 4)?;
        t.truncate(kern.table_bytes() as usize);
        Some(t)
    } else {
        None
    };
    let start_byte = match &table_bytes {
        Some(t) => t[start as usize],
        None => runner.read(&table, (start as u64 / 4) * 4, 4)?[(start % 4) as usize],
    };
    Ok(GpuArrowRun {
        table: table_bytes,
        start_byte,
        states: st[0] as u64,
    })
}
