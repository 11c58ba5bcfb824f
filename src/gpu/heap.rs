//! Runs the heap-game kernels (`shaders/options_below.wgsl` then
//! `shaders/finish_block.wgsl` for every block) with the table held on the
//! GPU, many blocks per submission.

use bytemuck::{Pod, Zeroable};
use wgpu::util::DeviceExt;

use super::GpuContext;
use super::timer::{BatchSize, Timer, submit_batch};
use crate::kernel::heap::{
    Block, HeapKernelCode, MAX_BLOCK, MAX_WORDS, below_loop_trips, block_work, finish_loop_trips,
    plan_blocks, slices,
};
use crate::kernel::{grid_2d, packed_words};

const COMMON: &str = include_str!("../../shaders/heap_common.wgsl");
const OPTIONS_BELOW: &str = include_str!("../../shaders/options_below.wgsl");
const FINISH_BLOCK: &str = include_str!("../../shaders/finish_block.wgsl");

/// The four value chunks the shaders bind.
pub const CHUNKS: u64 = 4;
/// Uniform offsets must be multiples of 256 bytes.
const PARAMS_STRIDE: u64 = 256;
/// Blocks per submission at most.
const BATCH_BLOCKS: usize = 64;
/// Option reads per submission, roughly (keeps each submission well under a second).
const BATCH_WORK: u64 = 1 << 32;
/// Option reads in the first submission (grown or shrunk by its time).
const FIRST_BATCH_WORK: u64 = 1 << 24;

const ST_HALT: usize = 0;
const ST_MAX: usize = 1;
const ST_MIN_WORDS: usize = 2;
const ST_DONE: usize = 3;
const ST_HALT_AT: usize = 4;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable, Debug)]
struct Params {
    s: u32,
    b: u32,
    groups_x: u32,
    prefix_len: u32,
    tail_len: u32,
    min_diff: u32,
    chunk_shift: u32,
    take_jmax: u32,
    split_jmax: u32,
    slices: u32,
    pad: [u32; 2],
}

/// Knobs that tests turn to reach the paths big runs take: value chunks
/// smaller than a binding, and 2D dispatch folding.
#[derive(Clone, Copy, Debug)]
pub struct GpuTuning {
    /// log2 of the words per value chunk (`None`: as large as a binding allows).
    pub chunk_shift: Option<u32>,
    /// Workgroups per dispatch row (the device allows 65535).
    pub max_groups_x: u32,
    /// Heaps per block (at most `MAX_BLOCK`).
    pub max_block: u32,
}

impl Default for GpuTuning {
    fn default() -> Self {
        GpuTuning {
            chunk_shift: None,
            max_groups_x: 65535,
            max_block: MAX_BLOCK,
        }
    }
}

/// What a GPU run measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct GpuStats {
    /// Kernel time from timestamp queries (0 when the adapter has none).
    pub kernel_seconds: f64,
    pub submissions: u32,
    /// Blocks redone with a wider bitset after their values outgrew it.
    pub widenings: u32,
}

/// The words per chunk (as log2) for a table of `values` heaps, or why it cannot fit.
pub fn chunk_shift_for(ctx: &GpuContext, values: u64, tuning: &GpuTuning) -> Result<u32, String> {
    let binding_words = ctx.max_binding_pow2() / 4;
    let shift = tuning
        .chunk_shift
        .unwrap_or(63 - binding_words.leading_zeros())
        .min(28);
    let words = packed_words(values);
    if words > CHUNKS << shift {
        return Err(format!(
            "a table of {values} values needs {} MiB on the GPU; this adapter binds at most {} chunks \
             of {} MiB",
            (words * 4) >> 20,
            CHUNKS,
            (4u64 << shift) >> 20
        ));
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
) -> Result<u32, String> {
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
        return Err(format!(
            "heaps up to {to} of this code need longer shader loops than the adapter '{}' runs              (llvmpipe stops a loop after 65535 iterations)",
            ctx.info.name
        ));
    }
    Ok(b)
}

/// Extends `table` (G of heaps below its length) to heaps `0..=to` on the
/// GPU, or to the last finished block when `stop()` says so between
/// submissions.
pub fn extend(
    ctx: &GpuContext,
    code: &HeapKernelCode,
    table: &[u16],
    to: u32,
    tuning: &GpuTuning,
    progress: &dyn Fn(u64),
    stop: &dyn Fn() -> bool,
) -> Result<(Vec<u16>, GpuStats), String> {
    let device = &ctx.device;
    let from = table.len() as u32;
    let values = to as u64 + 1;
    let shift = chunk_shift_for(ctx, values, tuning)?;
    let total_words = packed_words(values);
    let chunk_words = 1u64 << shift;

    // The table, packed two values per word, over up to four chunks.
    let mut packed = vec![0u32; total_words as usize];
    for (i, &v) in table.iter().enumerate() {
        packed[i / 2] |= (v as u32) << ((i & 1) * 16);
    }
    let storage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC;
    let chunks: Vec<wgpu::Buffer> = (0..CHUNKS)
        .map(|c| {
            let lo = (c * chunk_words).min(total_words) as usize;
            let hi = ((c + 1) * chunk_words).min(total_words) as usize;
            let contents: &[u32] = if lo < hi { &packed[lo..hi] } else { &[0; 4] };
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("values"),
                contents: bytemuck::cast_slice(contents),
                usage: storage,
            })
        })
        .collect();
    drop(packed);

    let digits = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("digits"),
        contents: bytemuck::cast_slice(&code.digits),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let max_block = block_limit(ctx, code, to, tuning)?;
    let below = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("below"),
        size: max_block as u64 * MAX_WORDS as u64 * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let max_value = table.iter().copied().max().unwrap_or(0) as u32;
    let status_init: [u32; 8] = [0, max_value, 1, from, 0, 0, 0, 0];
    let status = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("status"),
        contents: bytemuck::cast_slice(&status_init),
        usage: storage,
    });
    let params = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("params"),
        size: PARAMS_STRIDE * BATCH_BLOCKS as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let kernels = Kernels::new(ctx);
    // Binding 0 is the block's parameters (a dynamic offset picks the block);
    // then digits, below, status and the four value chunks.
    let params_binding = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer: &params,
        offset: 0,
        size: wgpu::BufferSize::new(std::mem::size_of::<Params>() as u64),
    });
    let storage_buffers = [
        &digits, &below, &status, &chunks[0], &chunks[1], &chunks[2], &chunks[3],
    ];
    let resources = std::iter::once(params_binding)
        .chain(storage_buffers.iter().map(|b| b.as_entire_binding()))
        .collect();
    let bind_group = ctx.bind_group("heap", &kernels.layout, resources);
    let timer = ctx.timestamps.then(|| Timer::new(ctx));

    let blocks = plan_blocks(from, to, max_block);
    let mut stats = GpuStats::default();
    let mut next = 0;
    let mut done = from as u64;
    let mut batch_work = BatchSize::new(FIRST_BATCH_WORK, FIRST_BATCH_WORK >> 4, BATCH_WORK);
    while next < blocks.len() {
        if next > 0 && stop() {
            break;
        }
        let mut batch: Vec<Block> = Vec::new();
        let mut work = 0;
        while next + batch.len() < blocks.len()
            && batch.len() < BATCH_BLOCKS
            && work < batch_work.work
        {
            let blk = blocks[next + batch.len()];
            work += block_work(code, blk);
            batch.push(blk);
        }
        let mut param_bytes = vec![0u8; PARAMS_STRIDE as usize * batch.len()];
        let mut grids = Vec::new();
        for (k, blk) in batch.iter().enumerate() {
            let (gx, gy) = grid_2d(blk.b * slices(blk.s), tuning.max_groups_x);
            grids.push((gx, gy));
            let p = Params {
                s: blk.s,
                b: blk.b,
                groups_x: gx,
                prefix_len: code.prefix_len,
                tail_len: code.tail_len,
                min_diff: code.min_diff,
                chunk_shift: shift,
                take_jmax: code.take_jmax,
                split_jmax: code.split_jmax,
                slices: slices(blk.s),
                pad: [0; 2],
            };
            let at = k * PARAMS_STRIDE as usize;
            param_bytes[at..at + std::mem::size_of::<Params>()]
                .copy_from_slice(bytemuck::bytes_of(&p));
        }
        ctx.queue.write_buffer(&params, 0, &param_bytes);

        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("heap blocks"),
                timestamp_writes: timer.as_ref().map(|t| t.writes()),
            });
            for (k, &(gx, gy)) in grids.iter().enumerate() {
                pass.set_bind_group(0, &bind_group, &[(k as u64 * PARAMS_STRIDE) as u32]);
                pass.set_pipeline(&kernels.options_below);
                pass.dispatch_workgroups(gx, gy, 1);
                pass.set_pipeline(&kernels.finish_block);
                pass.dispatch_workgroups(1, 1, 1);
            }
        }
        let submitted = std::time::Instant::now();
        let st = submit_batch(ctx, encoder, timer.as_ref(), &status, 32, &mut stats)?;
        batch_work.after(submitted.elapsed().as_secs_f64());
        match st[ST_HALT] {
            0 => {
                next += batch.len();
                done = batch.last().map_or(done, |blk| (blk.s + blk.b) as u64);
                progress(st[ST_DONE] as u64);
            }
            1 => {
                // A bitset was too narrow: the kernel widened it; redo from that block.
                stats.widenings += 1;
                let at = st[ST_HALT_AT];
                next = blocks
                    .iter()
                    .position(|blk| blk.s == at)
                    .ok_or_else(|| format!("GPU halted at heap {at}, which starts no block"))?;
                debug_assert!(st[ST_MIN_WORDS] <= MAX_WORDS);
                ctx.queue
                    .write_buffer(&status, 0, bytemuck::bytes_of(&0u32));
                // The halted block left bitsets in `below` that no one took.
                let mut encoder = device.create_command_encoder(&Default::default());
                encoder.clear_buffer(&below, 0, None);
                ctx.queue.submit([encoder.finish()]);
            }
            _ => {
                return Err(format!(
                    "G({}) is larger than 65535, the most a u16 table holds",
                    st[ST_HALT_AT]
                ));
            }
        }
        debug_assert!(st[ST_MAX] <= u16::MAX as u32);
    }

    // Read the table back chunk by chunk.
    let mut out = Vec::with_capacity(values as usize);
    for (c, chunk) in chunks.iter().enumerate() {
        let lo = c as u64 * chunk_words;
        if lo >= total_words {
            break;
        }
        let words = (total_words - lo).min(chunk_words);
        let bytes = ctx.read_buffer(chunk, 0, words * 4)?;
        for w in bytemuck::cast_slice::<u8, u32>(&bytes) {
            out.push(*w as u16);
            out.push((*w >> 16) as u16);
        }
    }
    out.truncate(done.min(values) as usize);
    Ok((out, stats))
}

/// The two pipelines and their shared layout.
struct Kernels {
    layout: wgpu::BindGroupLayout,
    options_below: wgpu::ComputePipeline,
    finish_block: wgpu::ComputePipeline,
}

impl Kernels {
    fn new(ctx: &GpuContext) -> Kernels {
        // digits (read), the below bitsets, the status, four table chunks
        let layout = ctx.levels_layout("heap", &[true, false, false, false, false, false, false]);
        let pipeline = |name: &str, source: &str| {
            let source = format!("{COMMON}\n{source}");
            ctx.pipelines(name, &layout, &source, &[name]).remove(0)
        };
        Kernels {
            options_below: pipeline("options_below", OPTIONS_BELOW),
            finish_block: pipeline("finish_block", FINISH_BLOCK),
            layout,
        }
    }
}

#[cfg(test)]
mod shader_tests {
    use super::*;
    use crate::gpu::shader_check::{constant, struct_size, validated};
    use crate::kernel::heap::{self as k, WG};

    #[test]
    fn the_heap_kernels_validate_and_share_rust_constants() {
        for (name, body) in [
            ("options_below", OPTIONS_BELOW),
            ("finish_block", FINISH_BLOCK),
        ] {
            let module = validated(name, &format!("{COMMON}\n{body}"));
            let shared = [
                ("WG", WG as u32),
                ("MAX_WORDS", k::MAX_WORDS),
                ("MAX_BLOCK", k::MAX_BLOCK),
                ("SLICE", k::SLICE),
                ("ST_HALT", ST_HALT as u32),
                ("ST_MAX", ST_MAX as u32),
                ("ST_MIN_WORDS", ST_MIN_WORDS as u32),
                ("ST_DONE", ST_DONE as u32),
                ("ST_HALT_AT", ST_HALT_AT as u32),
                ("MOD_PLAIN", k::MOD_PLAIN),
                ("MOD_DISTINCT", k::MOD_DISTINCT),
                ("MOD_NOT_ALL_EQUAL", k::MOD_NOT_ALL_EQUAL),
                ("MOD_ALL_EQUAL", k::MOD_ALL_EQUAL),
            ];
            for (constant_name, rust) in shared {
                assert_eq!(
                    constant(&module, constant_name),
                    rust,
                    "{name}: {constant_name}"
                );
            }
            let size = std::mem::size_of::<Params>() as u32;
            assert_eq!(struct_size(&module, "Params"), size, "{name}: Params");
            assert!(size as u64 <= PARAMS_STRIDE);
        }
    }
}
