//! Runs the kernels over ranked tuples (`shaders/rect_level.wgsl`,
//! `shaders/delete_level.wgsl`, both on `shaders/tuple_common.wgsl`) level
//! by level, many levels per submission, the table resident on the GPU.

use wgpu::util::DeviceExt;

use super::GpuContext;
use super::heap::GpuStats;
use super::levels::{LevelDispatch, LevelRun, PARAMS_STRIDE};
use super::timer::Timer;
use crate::kernel::grid_2d;
use crate::kernel::tuples::LevelPlan;
use crate::kernel::tuples::common::Overflow;
use crate::kernel::tuples::{TupleKernel, TupleRule, VALUE_WORDS};

const COMMON: &str = include_str!("../../shaders/tuple_common.wgsl");
const RECT_LEVEL: &str = include_str!("../../shaders/rect_level.wgsl");
const DELETE_LEVEL: &str = include_str!("../../shaders/delete_level.wgsl");
const PARAMS_SIZE: u64 = 16;
const WG: u64 = 64;
/// Option lookups per submission, roughly (for progress and the status check).
const BATCH_WORK: u64 = 1 << 28;
const BINDINGS: u32 = 8;

/// Why a GPU run stopped.
pub enum Failure {
    Overflow(Overflow),
    Device(String),
}

impl From<String> for Failure {
    fn from(m: String) -> Self {
        Failure::Device(m)
    }
}

/// `Ok` when this adapter can hold and run `kern`, else why not.
pub fn plan(ctx: &GpuContext, kern: &TupleKernel) -> Result<(), String> {
    let binding = ctx.max_binding();
    let table = kern.space.count() * 4;
    let sets = kern
        .split_sets
        .as_ref()
        .map_or(0, |(_, s)| s.count() * VALUE_WORDS as u64 * 4);
    if table.max(sets) > binding {
        return Err(format!(
            "a table of {} positions needs a {} MiB binding; the adapter '{}' binds at most {} MiB",
            kern.space.count(),
            table.max(sets) >> 20,
            ctx.info.name,
            binding >> 20
        ));
    }
    if ctx.limits.max_storage_buffers_per_shader_stage < BINDINGS - 1 {
        return Err(format!(
            "the adapter '{}' binds {} storage buffers per stage; the tuple kernels need {}",
            ctx.info.name,
            ctx.limits.max_storage_buffers_per_shader_stage,
            BINDINGS - 1
        ));
    }
    if let Some(budget) = super::heap::loop_budget(ctx)
        && kern.max_options() > budget
    {
        return Err(format!(
            "a position may have about {} options; the adapter '{}' stops a shader loop after 65535",
            kern.max_options(),
            ctx.info.name
        ));
    }
    Ok(())
}

/// One dispatch: which kernel, and the Params it reads.
struct Step {
    split_sets: bool,
    start: u32,
    count: u32,
    total: u32,
}

/// Computes the whole table of `kern` on the GPU and reads it back.
pub fn solve(
    ctx: &GpuContext,
    kern: &TupleKernel,
    plan: &LevelPlan,
    progress: &dyn Fn(u64),
) -> Result<(Vec<u32>, GpuStats), Failure> {
    let device = &ctx.device;
    let storage = |label: &str, words: &[u32], extra: wgpu::BufferUsages| {
        let empty = [0u32];
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(if words.is_empty() { &empty } else { words }),
            usage: wgpu::BufferUsages::STORAGE | extra,
        })
    };
    let zeros = |label: &str, words: u64| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: words.max(1) * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    };
    let none = wgpu::BufferUsages::empty();
    let game = storage("tuple game", &kern.words(), none);
    let binom = storage("tuple binomials", &kern.space.binom, none);
    let order = storage("tuple order", &plan.positions.order, none);
    let table = zeros("tuple table", kern.space.count());
    let status = storage("tuple status", &[0u32; 4], wgpu::BufferUsages::COPY_SRC);
    let split_order = storage(
        "split order",
        plan.split.as_ref().map_or(&[][..], |s| &s.order),
        none,
    );
    let sets_words = kern.split_sets.as_ref().map_or(0, |(_, s)| s.count()) * VALUE_WORDS as u64;
    let split_sets = zeros("split sets", sets_words);

    // Every dispatch's parameters, written up front.
    let mut steps = Vec::new();
    for l in 0..plan.positions.len() {
        let starts = &plan.positions.starts;
        let total = (plan.positions.lowest + l as u64) as u32;
        steps.push(Step {
            split_sets: false,
            start: starts[l],
            count: starts[l + 1] - starts[l],
            total,
        });
        let split = plan.split_level(l);
        if let (false, Some(s)) = (split.is_empty(), &plan.split) {
            let at = (total as u64 - s.lowest) as usize;
            steps.push(Step {
                split_sets: true,
                start: s.starts[at],
                count: s.starts[at + 1] - s.starts[at],
                total,
            });
        }
    }
    let max_groups_x = ctx.limits.max_compute_workgroups_per_dimension;
    let mut param_bytes = vec![0u8; PARAMS_STRIDE as usize * steps.len().max(1)];
    let mut grids = Vec::with_capacity(steps.len());
    for (i, s) in steps.iter().enumerate() {
        let (gx, gy) = grid_2d(s.count.div_ceil(WG as u32), max_groups_x);
        grids.push((gx, gy));
        let words = [s.start, s.count, gx, s.total];
        let at = i * PARAMS_STRIDE as usize;
        param_bytes[at..at + PARAMS_SIZE as usize].copy_from_slice(bytemuck::cast_slice(&words));
    }
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("tuple params"),
        contents: &param_bytes,
        usage: wgpu::BufferUsages::UNIFORM,
    });

    let (layout, level_pipeline, sets_pipeline) = kernels(ctx, &kern.rule);
    let params_binding = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer: &params,
        offset: 0,
        size: wgpu::BufferSize::new(PARAMS_SIZE),
    });
    let resources = vec![
        params_binding,
        game.as_entire_binding(),
        binom.as_entire_binding(),
        order.as_entire_binding(),
        table.as_entire_binding(),
        status.as_entire_binding(),
        split_order.as_entire_binding(),
        split_sets.as_entire_binding(),
    ];
    let bind_group = ctx.bind_group("tuples", &layout, resources);
    let timer = ctx.timestamps.then(|| Timer::new(ctx));
    let work_per_position = kern.max_options().clamp(1, 1 << 16);

    let dispatches: Vec<LevelDispatch> = steps
        .iter()
        .zip(&grids)
        .enumerate()
        .map(|(slot, (step, &(gx, gy)))| LevelDispatch {
            pipeline: match (step.split_sets, &sets_pipeline) {
                (true, Some(p)) => p,
                _ => &level_pipeline,
            },
            slot,
            groups: if step.count > 0 { (gx, gy) } else { (0, 0) },
            work: step.count as u64 * work_per_position,
            // Split-set steps fill a side table, not positions.
            done: if step.split_sets {
                0
            } else {
                step.count as u64
            },
        })
        .collect();
    let run = LevelRun {
        label: "tuple levels",
        bind_group: &bind_group,
        timer: timer.as_ref(),
        status: &status,
        status_bytes: 16,
        batch_work: BATCH_WORK,
    };
    let mut stats = GpuStats::default();
    let mut check = |st: &[u32]| match st[0] {
        0 => Ok(()),
        _ => Err(Failure::Overflow(Overflow { rank: st[1] })),
    };
    run.run(ctx, &dispatches, &mut stats, &mut check, progress)?;
    let bytes = ctx.read_buffer(&table, 0, kern.space.count().max(1) * 4)?;
    let mut values: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes);
    values.truncate(kern.space.count() as usize);
    Ok((values, stats))
}

fn kernels(
    ctx: &GpuContext,
    rule: &TupleRule,
) -> (
    wgpu::BindGroupLayout,
    wgpu::ComputePipeline,
    Option<wgpu::ComputePipeline>,
) {
    // game, binomials, order (read); table, status; split order (read); split sets
    let layout = ctx.levels_layout("tuples", &[true, true, true, false, false, true, false]);
    match rule {
        TupleRule::Rect(_) => {
            let source = format!("{COMMON}\n{RECT_LEVEL}");
            let mut p = ctx.pipelines("rect_level", &layout, &source, &["rect_level"]);
            (layout, p.remove(0), None)
        }
        TupleRule::DeleteNim(_) => {
            let source = format!("{COMMON}\n{DELETE_LEVEL}");
            let entries = ["delete_level", "split_sets_level"];
            let mut p = ctx.pipelines("delete_level", &layout, &source, &entries);
            let sets = p.pop();
            (layout, p.remove(0), sets)
        }
    }
}

#[cfg(test)]
mod shader_tests {
    use super::*;
    use crate::gpu::shader_check::{constant, struct_size, validated};
    use crate::kernel::tuples::OVERFLOW;
    use crate::kernel::tuples::space::MAX_HEAPS;

    #[test]
    fn the_tuple_kernels_validate_and_share_rust_constants() {
        for (name, body) in [("rect_level", RECT_LEVEL), ("delete_level", DELETE_LEVEL)] {
            let module = validated(name, &format!("{COMMON}\n{body}"));
            assert_eq!(constant(&module, "WG"), WG as u32, "{name}");
            assert_eq!(constant(&module, "MAX_HEAPS"), MAX_HEAPS as u32, "{name}");
            assert_eq!(
                constant(&module, "VALUE_WORDS"),
                VALUE_WORDS as u32,
                "{name}"
            );
            assert_eq!(constant(&module, "OVERFLOW"), OVERFLOW, "{name}");
            assert_eq!(struct_size(&module, "Params") as u64, PARAMS_SIZE, "{name}");
        }
    }
}
