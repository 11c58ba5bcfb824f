//! Tuple games' tables on the GPU (`kernel::tuples::RECT_LEVEL`,
//! `kernel::tuples::DELETE_LEVEL`) level by level, many levels per
//! submission, the table resident on the device.

use super::levels::{LevelDispatch, LevelRun};
use super::{Runner, Unfit};
pub use crate::outputs::Failure;
use grundy_core::error::Error;
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::grid_2d;
use grundy_core::kernel::tuples::common::Overflow;
use grundy_core::kernel::tuples::{
    DELETE_LEVEL, LevelPlan, Params, RECT_LEVEL, TupleKernel, TupleRule, VALUE_WORDS, WG,
};

/// Option lookups per submission, roughly (for progress and the status check).
const BATCH_WORK: u64 = 1 << 28;

/// `Ok` when this adapter can hold and run `kern`, else why not.
pub fn fits(runner: &Runner, kern: &TupleKernel) -> std::result::Result<(), Unfit> {
    let binding = runner.max_binding();
    let table = kern.space.count() * 4;
    let sets = kern
        .split_sets
        .as_ref()
        .map_or(0, |(_, s)| s.count() * VALUE_WORDS as u64 * 4);
    let name = &runner.info.name;
    if table.max(sets) > binding {
        return Err(Unfit(format!(
            "a table of {} positions needs a {} MiB binding; the adapter '{name}' binds at most {} MiB",
            kern.space.count(),
            table.max(sets) >> 20,
            binding >> 20
        )));
    }
    let needed = RECT_LEVEL.read_only.len() as u32;
    let stage = runner.limits.max_storage_buffers_per_shader_stage;
    if stage < needed {
        return Err(Unfit(format!(
            "the adapter '{name}' binds {stage} storage buffers per stage; the tuple kernels need {needed}"
        )));
    }
    if let Some(budget) = super::heap::loop_budget(runner)
        && kern.max_options() > budget
    {
        return Err(Unfit(format!(
            "a position may have about {} options; the adapter '{name}' stops a shader loop after 65535",
            kern.max_options()
        )));
    }
    Ok(())
}

/// One dispatch: which entry point, its workgroups, and the parameters it
/// reads.
struct Step {
    split_sets: bool,
    groups: (u32, u32),
    params: Params,
}

/// Every dispatch in order: each level of positions (a thread each, or a
/// workgroup each where `positions_in_groups`), then the split tuples of
/// the same total (a workgroup each) when the rule gathers split sets.
fn steps(plan: &LevelPlan, max_groups_x: u32, positions_in_groups: bool) -> Vec<Step> {
    let step = |split_sets, start: u32, end: u32, total| {
        let count = end - start;
        let groups = match split_sets || positions_in_groups {
            true => count,
            false => count.div_ceil(WG as u32),
        };
        let groups = grid_2d(groups, max_groups_x);
        Step {
            split_sets,
            groups: if count == 0 { (0, 0) } else { groups },
            params: Params {
                start,
                count,
                groups_x: groups.0,
                total,
            },
        }
    };
    let mut out = Vec::new();
    for l in 0..plan.positions.len() {
        let starts = &plan.positions.starts;
        let total = (plan.positions.lowest + l as u64) as u32;
        out.push(step(false, starts[l], starts[l + 1], total));
        if let (false, Some(s)) = (plan.split_level(l).is_empty(), &plan.split) {
            let at = (total as u64 - s.lowest) as usize;
            out.push(step(true, s.starts[at], s.starts[at + 1], total));
        }
    }
    out
}

/// Computes the whole table of `kern` on the GPU and reads it back.
pub fn solve(
    runner: &Runner,
    kern: &TupleKernel,
    plan: &LevelPlan,
    hooks: &dyn RunHooks,
) -> std::result::Result<Vec<u32>, Failure> {
    let words = |w: &[u32]| bytemuck::cast_slice::<u32, u8>(w).to_vec();
    let game = runner.storage("tuple game", &words(&kern.words()));
    let binom = runner.storage("tuple binomials", &words(&kern.space.binom));
    let order = runner.storage("tuple order", &words(&plan.positions.order));
    let table = runner.zeroed("tuple table", kern.space.count() * 4);
    let status = runner.zeroed("tuple status", 16);
    let split = plan.split.as_ref().map_or(&[][..], |s| &s.order);
    let split_order = runner.storage("split order", &words(split));
    let sets = kern.split_sets.as_ref().map_or(0, |(_, s)| s.count());
    let split_sets = runner.zeroed("split sets", sets * VALUE_WORDS as u64 * 4);

    let max_groups_x = runner.limits.max_compute_workgroups_per_dimension;
    let steps = steps(plan, max_groups_x, kern.positions_take_workgroups());
    let slots = runner.param_slots::<Params>("tuple params", steps.len());
    let params: Vec<Params> = steps.iter().map(|s| s.params).collect();
    runner.write_params(&slots, &params);
    let shader = match kern.rule {
        TupleRule::Rect(_) => &RECT_LEVEL,
        TupleRule::DeleteNim(_) => &DELETE_LEVEL,
    };
    let pipelines = runner.pipelines(shader, &[]);
    let storage = [
        &game,
        &binom,
        &order,
        &table,
        &status,
        &split_order,
        &split_sets,
    ];
    let bind_group = runner.bind(&pipelines, &slots, &storage);
    let work_per_position = kern.max_options().clamp(1, 1 << 16);
    let dispatches: Vec<LevelDispatch> = steps
        .iter()
        .enumerate()
        .map(|(slot, step)| LevelDispatch {
            pipeline: pipelines.entry(match step.split_sets {
                true => "split_sets_level",
                false => shader.entry_points[0],
            }),
            slot,
            groups: step.groups,
            work: step.params.count as u64 * work_per_position,
            // Split-set steps fill a side table, not positions.
            done: (!step.split_sets as u64) * step.params.count as u64,
        })
        .collect();
    let run = LevelRun {
        label: "tuple levels",
        bind_group: &bind_group,
        status: &status,
        status_bytes: 16,
        batch_work: BATCH_WORK,
    };
    let mut overflow = None;
    let mut check = |st: &[u32]| match st[0] {
        0 => Ok(()),
        _ => {
            overflow = Some(Overflow { rank: st[1] });
            Err(Error::Run("overflow".into()))
        }
    };
    if let Err(e) = run.run(runner, &dispatches, &mut check, &|d| hooks.progress(d)) {
        return Err(overflow.map_or(Failure::Device(e), Failure::Overflow));
    }
    let bytes = runner.read(&table, 0, kern.space.count().max(1) * 4)?;
    let mut values: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes);
    values.truncate(kern.space.count() as usize);
    Ok(values)
}
