//! Runs `shaders/graph_level.wgsl` level by level over a dense table of all
//! vertex subsets held on the GPU (one byte per subset, over eight chunks).

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::heap::GpuStats;
use super::levels::{LevelDispatch, LevelRun, PARAMS_STRIDE};
use super::timer::Timer;
use crate::kernel::graph::graph_level::Overflow;
use crate::kernel::graph::{
    BINOM_DIM, GPU_MAX_TAKE, GraphKernel, VALUE_BITS, connected_set_counts, dense_table_bytes,
    strip_flags,
};
use crate::kernel::grid_2d;

const SOURCE: &str = include_str!("../../shaders/graph_level.wgsl");
/// The table chunks the shader binds.
pub const CHUNKS: u64 = 8;
/// Storage buffers the kernel binds: the graph, the status words and the chunks.
const STORAGE_BINDINGS: u32 = CHUNKS as u32 + 2;
/// Positions per submission, roughly (for progress and the status check).
const BATCH_POSITIONS: u64 = 1 << 24;
const WG: u64 = 64;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct GraphData {
    adj: [[u32; 4]; 32],
    binom: [[u32; 4]; 307],
    digits: [[u32; 4]; 17],
    n: u32,
    max_take: u32,
    chunk_shift: u32,
    pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Params {
    level: u32,
    count: u32,
    groups_x: u32,
    pad: u32,
}

/// A dense table computed on the GPU.
pub struct GpuGraphRun {
    /// Every subset's value, when asked for.
    pub table: Option<Vec<u8>>,
    /// The value of the whole graph.
    pub value: u8,
    pub stats: GpuStats,
}

/// Why this adapter cannot run a graph, or `Ok` with the chunk size (log2 words).
pub fn plan(ctx: &GpuContext, kern: &GraphKernel, chunk_shift: Option<u32>) -> Result<u32, String> {
    if kern.max_take() > GPU_MAX_TAKE {
        return Err(format!(
            "the GPU kernel removes at most {GPU_MAX_TAKE} vertices per move; this code removes up to {}",
            kern.max_take()
        ));
    }
    if ctx.limits.max_storage_buffers_per_shader_stage < STORAGE_BINDINGS {
        return Err(format!(
            "the adapter '{}' binds {} storage buffers per stage; the graph kernel needs {STORAGE_BINDINGS}",
            ctx.info.name, ctx.limits.max_storage_buffers_per_shader_stage
        ));
    }
    let shift = chunk_shift
        .unwrap_or(63 - (ctx.max_binding_pow2() / 4).leading_zeros())
        .min(28);
    let words = table_words(kern.n);
    if words > CHUNKS << shift {
        return Err(format!(
            "a dense table over {} vertices needs {} MiB on the GPU; this adapter binds at most {CHUNKS} \
             chunks of {} MiB",
            kern.n,
            dense_table_bytes(kern.n) >> 20,
            (4u64 << shift) >> 20
        ));
    }
    if let Some(budget) = super::heap::loop_budget(ctx) {
        let trips = loop_trips(kern);
        if trips > budget {
            return Err(format!(
                "this graph needs about {trips} shader loop iterations per position; the adapter '{}' \
                 stops a loop after 65535",
                ctx.info.name
            ));
        }
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

/// Computes every level of the dense table of `kern` on the GPU.
pub fn dense(
    ctx: &GpuContext,
    kern: &GraphKernel,
    chunk_shift: Option<u32>,
    max_groups_x: u32,
    readback: bool,
    progress: &dyn Fn(u64),
) -> Result<GpuGraphRun, String> {
    let device = &ctx.device;
    let shift = plan(ctx, kern, chunk_shift)?;
    let chunk_words = 1u64 << shift;
    let total_words = table_words(kern.n);

    let chunks: Vec<wgpu::Buffer> = (0..CHUNKS)
        .map(|c| {
            let words = total_words.saturating_sub(c * chunk_words).min(chunk_words);
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("graph table"),
                size: words.max(1) * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        })
        .collect();
    let status = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("graph status"),
        contents: bytemuck::cast_slice(&[0u32; 4]),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let graph = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("graph"),
        contents: bytemuck::bytes_of(&graph_data(kern, shift)),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let levels = kern.n as u64;
    let params = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("graph params"),
        size: PARAMS_STRIDE * levels.max(1),
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let (layout, pipeline) = kernel(ctx);
    let params_binding = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer: &params,
        offset: 0,
        size: wgpu::BufferSize::new(std::mem::size_of::<Params>() as u64),
    });
    let resources = [graph.as_entire_binding(), params_binding]
        .into_iter()
        .chain(
            std::iter::once(&status)
                .chain(&chunks)
                .map(|b| b.as_entire_binding()),
        )
        .collect();
    let bind_group = ctx.bind_group("graph", &layout, resources);
    let timer = ctx.timestamps.then(|| Timer::new(ctx));

    // One dispatch per level; every level's parameters written up front.
    let mut param_bytes = vec![0u8; (PARAMS_STRIDE * levels) as usize];
    let mut grids = Vec::new();
    for k in 1..=kern.n {
        let count = kern.level_size(k);
        let (gx, gy) = grid_2d(count.div_ceil(WG) as u32, max_groups_x);
        grids.push((gx, gy, count));
        let p = Params {
            level: k as u32,
            count: count as u32,
            groups_x: gx,
            pad: 0,
        };
        let at = (k - 1) * PARAMS_STRIDE as usize;
        param_bytes[at..at + std::mem::size_of::<Params>()].copy_from_slice(bytemuck::bytes_of(&p));
    }
    ctx.queue.write_buffer(&params, 0, &param_bytes);

    let dispatches = LevelDispatch::each_level(&pipeline, &grids);
    let run = LevelRun {
        label: "graph levels",
        bind_group: &bind_group,
        timer: timer.as_ref(),
        status: &status,
        status_bytes: 16,
        batch_work: BATCH_POSITIONS,
    };
    let mut stats = GpuStats::default();
    let mut check = |st: &[u32]| match st[0] {
        0 => Ok(()),
        _ => Err(Overflow {
            mask: st[1] as u64 | (st[2] as u64) << 32,
        }
        .to_string()),
    };
    // The empty position is done before the first level.
    run.run(ctx, &dispatches, &mut stats, &mut check, &|done| {
        progress(done + 1)
    })?;

    let last = dense_table_bytes(kern.n) - 1;
    let table = if readback {
        let mut out = Vec::with_capacity(dense_table_bytes(kern.n) as usize);
        for (c, chunk) in chunks.iter().enumerate() {
            let words = total_words
                .saturating_sub(c as u64 * chunk_words)
                .min(chunk_words);
            if words > 0 {
                out.extend(ctx.read_buffer(chunk, 0, words * 4)?);
            }
        }
        out.truncate(dense_table_bytes(kern.n) as usize);
        strip_flags(&mut out);
        Some(out)
    } else {
        None
    };
    let value = match &table {
        Some(t) => t[last as usize],
        None => {
            let word = last / 4;
            let chunk = &chunks[(word >> shift) as usize];
            let bytes = ctx.read_buffer(chunk, (word & (chunk_words - 1)) * 4, 4)?;
            bytes[(last % 4) as usize] & VALUE_BITS as u8
        }
    };
    Ok(GpuGraphRun {
        table,
        value,
        stats,
    })
}

fn graph_data(kern: &GraphKernel, chunk_shift: u32) -> GraphData {
    let mut d = GraphData::zeroed();
    for (v, &a) in kern.adj.iter().enumerate() {
        d.adj[v / 2][(v % 2) * 2] = a as u32;
        d.adj[v / 2][(v % 2) * 2 + 1] = (a >> 32) as u32;
    }
    for c in 0..BINOM_DIM {
        for i in 0..BINOM_DIM {
            let k = c * BINOM_DIM + i;
            d.binom[k / 4][k % 4] = kern.binomial(c, i).min(u32::MAX as u64) as u32;
        }
    }
    for (i, &digit) in kern.digits.iter().enumerate() {
        d.digits[i / 4][i % 4] = digit as u32;
    }
    d.n = kern.n as u32;
    d.max_take = kern.max_take() as u32;
    d.chunk_shift = chunk_shift;
    d
}

fn kernel(ctx: &GpuContext) -> (wgpu::BindGroupLayout, wgpu::ComputePipeline) {
    let device = &ctx.device;
    let buffer = |binding: u32, ty: wgpu::BufferBindingType, dynamic: bool, size: usize| {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: dynamic,
                min_binding_size: wgpu::BufferSize::new(size as u64),
            },
            count: None,
        }
    };
    let read_only = wgpu::BufferBindingType::Storage { read_only: true };
    let read_write = wgpu::BufferBindingType::Storage { read_only: false };
    let mut entries = vec![
        buffer(0, read_only, false, std::mem::size_of::<GraphData>()),
        buffer(
            1,
            wgpu::BufferBindingType::Uniform,
            true,
            std::mem::size_of::<Params>(),
        ),
    ];
    // the status words, then the chunks
    for binding in 2..1 + STORAGE_BINDINGS {
        entries.push(buffer(binding, read_write, false, 4));
    }
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("graph"),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("graph"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("graph_level"),
        source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("graph_level"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("graph_level"),
        compilation_options: Default::default(),
        cache: None,
    });
    (layout, pipeline)
}

#[cfg(test)]
mod shader_tests {
    use super::*;
    use crate::gpu::shader_check::{constant, struct_size, validated};
    use crate::kernel::graph as k;

    #[test]
    fn the_graph_kernel_validates_and_shares_rust_constants() {
        let module = validated("graph_level", SOURCE);
        let shared = [
            ("WG", WG as u32),
            ("MAX_TAKE", k::GPU_MAX_TAKE as u32),
            ("BINOM_DIM", k::BINOM_DIM as u32),
            ("MAX_VALUE", k::MAX_VALUE),
            ("VALUE_BITS", k::VALUE_BITS),
            ("CONNECTED", k::CONNECTED),
            ("OVERFLOW", k::OVERFLOW),
        ];
        for (name, rust) in shared {
            assert_eq!(constant(&module, name), rust, "{name}");
        }
        let data = std::mem::size_of::<GraphData>() as u32;
        assert_eq!(struct_size(&module, "GraphData"), data);
        assert_eq!(
            struct_size(&module, "Params"),
            std::mem::size_of::<Params>() as u32
        );
    }
}
