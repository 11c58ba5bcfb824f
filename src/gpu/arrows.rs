//! Runs `shaders/arrows_level.wgsl` level by level (fullest first) over a
//! dense table of every base-3 number over the edges, resident on the GPU.

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::heap::GpuStats;
use super::levels::{LevelDispatch, LevelRun, PARAMS_STRIDE};
use super::timer::Timer;
use crate::kernel::arrows::ArrowKernel;
use crate::kernel::grid_2d;

const SOURCE: &str = include_str!("../../shaders/arrows_level.wgsl");
const WG: u64 = 64;
/// States per submission, roughly (for progress).
const BATCH_STATES: u64 = 1 << 26;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    level: u32,
    count: u32,
    groups_x: u32,
    pad: u32,
}

/// A dense edge-game table computed on the GPU.
pub struct GpuArrowRun {
    /// Every byte (value + 1, 0 for non-states), when asked for.
    pub table: Option<Vec<u8>>,
    /// The byte of the start state.
    pub start_byte: u8,
    pub states: u64,
    pub stats: GpuStats,
}

/// `Ok` when this adapter can hold the table, else why not.
pub fn plan(ctx: &GpuContext, kern: &ArrowKernel) -> Result<(), String> {
    let binding = ctx.max_binding();
    let bytes = kern.table_bytes().div_ceil(4) * 4;
    if bytes > binding {
        return Err(format!(
            "a dense table over {} edges needs {} MiB; the adapter '{}' binds at most {} MiB",
            kern.edges,
            bytes >> 20,
            ctx.info.name,
            binding >> 20
        ));
    }
    Ok(())
}

/// Computes every level on the GPU; reads back the table when asked.
pub fn dense(
    ctx: &GpuContext,
    kern: &ArrowKernel,
    start: u32,
    readback: bool,
    progress: &dyn Fn(u64),
) -> Result<GpuArrowRun, String> {
    plan(ctx, kern)?;
    let device = &ctx.device;
    let words = kern.words();
    let game = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("arrows game"),
        contents: bytemuck::cast_slice(&words),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let table_size = kern.table_bytes().div_ceil(4) * 4;
    let table = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("arrows table"),
        size: table_size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let status = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("arrows status"),
        contents: bytemuck::cast_slice(&[0u32; 4]),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let levels = kern.edges + 1;
    let max_x = ctx.limits.max_compute_workgroups_per_dimension;
    let mut param_bytes = vec![0u8; PARAMS_STRIDE as usize * levels];
    let mut grids = Vec::new();
    // slot i holds level E - i: the fullest level runs first
    for (slot, k) in (0..=kern.edges).rev().enumerate() {
        let count = kern.level_size(k);
        let (gx, gy) = grid_2d(count.div_ceil(WG) as u32, max_x);
        grids.push((gx, gy, count));
        let p = Params {
            level: k as u32,
            count: count as u32,
            groups_x: gx,
            pad: 0,
        };
        let at = slot * PARAMS_STRIDE as usize;
        param_bytes[at..at + std::mem::size_of::<Params>()].copy_from_slice(bytemuck::bytes_of(&p));
    }
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("arrows params"),
        contents: &param_bytes,
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let (layout, pipeline) = kernel(ctx);
    let params_binding = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer: &params,
        offset: 0,
        size: wgpu::BufferSize::new(std::mem::size_of::<Params>() as u64),
    });
    let bind_group = ctx.bind_group(
        "arrows",
        &layout,
        vec![
            params_binding,
            game.as_entire_binding(),
            table.as_entire_binding(),
            status.as_entire_binding(),
        ],
    );
    let timer = ctx.timestamps.then(|| Timer::new(ctx));
    let dispatches = LevelDispatch::each_level(&pipeline, &grids);
    let run = LevelRun {
        label: "arrows levels",
        bind_group: &bind_group,
        timer: timer.as_ref(),
        status: &status,
        status_bytes: 16,
        batch_work: BATCH_STATES,
    };
    let mut stats = GpuStats::default();
    let st = run.run::<String>(ctx, &dispatches, &mut stats, &mut |_| Ok(()), progress)?;
    let table_bytes = if readback {
        let mut t = ctx.read_buffer(&table, 0, table_size)?;
        t.truncate(kern.table_bytes() as usize);
        Some(t)
    } else {
        None
    };
    let start_byte = match &table_bytes {
        Some(t) => t[start as usize],
        None => ctx.read_buffer(&table, (start as u64 / 4) * 4, 4)?[(start % 4) as usize],
    };
    Ok(GpuArrowRun {
        table: table_bytes,
        start_byte,
        states: st[0] as u64,
        stats,
    })
}

fn kernel(ctx: &GpuContext) -> (wgpu::BindGroupLayout, wgpu::ComputePipeline) {
    // game (read), table, status
    let layout = ctx.levels_layout("arrows", &[true, false, false]);
    let mut pipelines = ctx.pipelines("arrows_level", &layout, SOURCE, &["arrows_level"]);
    (layout, pipelines.remove(0))
}

#[cfg(test)]
mod shader_tests {
    use super::*;
    use crate::gpu::shader_check::{constant, struct_size, validated};
    use crate::kernel::arrows::{DENSE_MAX_EDGES, FACES_PER_EDGE};

    #[test]
    fn the_arrows_kernel_validates_and_shares_rust_constants() {
        let module = validated("arrows_level", SOURCE);
        assert_eq!(constant(&module, "WG"), WG as u32);
        assert_eq!(constant(&module, "MAX_EDGES"), DENSE_MAX_EDGES as u32);
        assert_eq!(constant(&module, "FACES_PER_EDGE"), FACES_PER_EDGE as u32);
        assert_eq!(
            struct_size(&module, "Params"),
            std::mem::size_of::<Params>() as u32
        );
    }
}
