//! Runs `shaders/survey_block.wgsl`: a batch of codes on the GPU, one
//! workgroup per code, the tables and rare lists resident between rounds. A
//! round records the same dispatch as many times as the furthest code
//! needs, in one pass.

use wgpu::util::DeviceExt;

use super::GpuContext;
use super::heap::{GpuStats, loop_budget};
use super::timer::{Timer, submit_batch};
use crate::kernel::grid_2d;
use crate::kernel::heap::MAX_WORDS;
use crate::kernel::survey::{STATE_WORDS, SURVEY_BLOCK, SurveyKernel, SurveyMode};

const SURVEY_BLOCK_WGSL: &str = include_str!("../../shaders/survey_block.wgsl");

/// Threads per code (`WG` in the shader): `requested` (`--workgroup`),
/// checked against what the adapter runs in one workgroup, or by default 64
/// on a software adapter, where a barrier switches between all of a
/// workgroup's threads (llvmpipe, every two-digit code to 16,384: 18 s at
/// 64, 34 s at 256, 92 s at 1024), and 256 on a GPU, where once the sparse
/// codes are done one code's workgroup may be all that a multiprocessor
/// holds, and 64 threads (two warps) would leave it mostly idle.
pub fn workgroup_for(ctx: &GpuContext, requested: Option<u32>) -> Result<u32, String> {
    let Some(threads) = requested else {
        return Ok(if ctx.is_software() { 64 } else { 256 });
    };
    let most = ctx
        .limits
        .max_compute_invocations_per_workgroup
        .min(ctx.limits.max_compute_workgroup_size_x);
    if !(1..=most).contains(&threads) {
        return Err(format!(
            "--workgroup {threads}: expected 1 to {most} threads, the most the adapter '{}' runs \
             in one workgroup",
            ctx.info.name
        ));
    }
    Ok(threads)
}

/// How many codes' tables of `stride_words` words (and rare lists of
/// fewer words) fit one binding.
pub fn codes_per_batch(ctx: &GpuContext, stride_words: usize) -> usize {
    (ctx.max_binding() / (stride_words as u64 * 4)).max(1) as usize
}

/// Heaps per workgroup per dispatch for heaps below `top`: SURVEY_BLOCK, or
/// fewer where the adapter stops a shader loop after 65535 iterations
/// counted over the whole dispatch (llvmpipe), so that the option loops of
/// a block stay inside that budget.
fn block_for(ctx: &GpuContext, kern: &SurveyKernel, top: u32, workgroup: u32) -> u32 {
    let Some(budget) = loop_budget(ctx) else {
        return SURVEY_BLOCK;
    };
    let wg = workgroup as u64;
    let splits = kern.split_digits() as u64;
    // per heap: the split scans, the rare-pair marks, the take scan, the
    // digit loops, and the bitset's clear, c, need and mex scans at their widest
    let per_heap = splits * (top as u64 / (2 * wg) + 1)
        + splits * (kern.rare_cap as u64 / wg + 1)
        + kern.digits_len as u64 / wg
        + 1
        + 2 * kern.digits_len as u64
        + 4 * (MAX_WORDS as u64 / wg);
    (budget / per_heap).clamp(1, SURVEY_BLOCK as u64) as u32
}

/// A batch of codes on the GPU.
pub struct GpuSurvey<'a> {
    ctx: &'a GpuContext,
    kern: &'a SurveyKernel,
    pipeline: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    params: wgpu::Buffer,
    state: wgpu::Buffer,
    table: wgpu::Buffer,
    rare: wgpu::Buffer,
    timer: Option<Timer>,
    groups: (u32, u32),
    /// Threads per workgroup (per code): `WG` in the shader.
    workgroup: u32,
    /// The state as last read back.
    pub state_words: Vec<u32>,
    pub stats: GpuStats,
}

impl<'a> GpuSurvey<'a> {
    pub fn new(
        ctx: &'a GpuContext,
        kern: &'a SurveyKernel,
        workgroup: u32,
    ) -> Result<GpuSurvey<'a>, String> {
        let table_bytes = (kern.codes * kern.stride * 4) as u64;
        let rare_bytes = (kern.codes * kern.rare_cap * 4) as u64;
        let binding = ctx.max_binding();
        if table_bytes.max(rare_bytes) > binding {
            return Err(format!(
                "{} tables of {} words (and rare lists of {} words) need {} MiB; the adapter '{}' \
                 binds at most {} MiB",
                kern.codes,
                kern.stride,
                kern.rare_cap,
                table_bytes.max(rare_bytes) >> 20,
                ctx.info.name,
                binding >> 20
            ));
        }
        let device = &ctx.device;
        let groups = grid_2d(
            kern.codes as u32,
            ctx.limits.max_compute_workgroups_per_dimension,
        );
        let params: [u32; 8] = [
            kern.codes as u32,
            groups.0,
            SURVEY_BLOCK,
            kern.digits_len,
            kern.stride as u32,
            kern.rare_cap as u32,
            0,
            0,
        ];
        let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("survey params"),
            contents: bytemuck::cast_slice(&params),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let digits = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("survey digits"),
            contents: bytemuck::cast_slice(&kern.digits),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let state_words = kern.fresh_state();
        let state = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("survey state"),
            contents: bytemuck::cast_slice(&state_words),
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
        });
        let table = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("survey tables"),
            size: table_bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let rare = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("survey rare lists"),
            size: rare_bytes.max(4),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = ctx.levels_layout("survey", &[true, false, false, false]);
        let pipeline = ctx
            .pipelines_with(
                "survey",
                &layout,
                SURVEY_BLOCK_WGSL,
                &["survey_block"],
                &[("WG", workgroup as f64)],
            )
            .remove(0);
        let bind_group = ctx.bind_group(
            "survey",
            &layout,
            vec![
                wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &params,
                    offset: 0,
                    size: None,
                }),
                digits.as_entire_binding(),
                state.as_entire_binding(),
                table.as_entire_binding(),
                rare.as_entire_binding(),
            ],
        );
        Ok(GpuSurvey {
            ctx,
            kern,
            pipeline,
            bind_group,
            params,
            state,
            table,
            rare,
            timer: ctx.timestamps.then(|| Timer::new(ctx)),
            groups,
            workgroup,
            state_words,
            stats: GpuStats::default(),
        })
    }

    /// Puts code `i` in `mode` for the next round (its rare list is written
    /// now, its state with the next `run_to`).
    pub fn set_mode(&mut self, i: usize, mode: &SurveyMode) {
        self.kern.set_mode(&mut self.state_words, i, mode);
        if let SurveyMode::Rare { positions, .. } = mode
            && !positions.is_empty()
        {
            let at = (self.kern.rare_list_at(i) * 4) as u64;
            self.ctx
                .queue
                .write_buffer(&self.rare, at, bytemuck::cast_slice(positions));
        }
    }

    /// Whether code `i` ran its last round in rare mode (a full list sends
    /// a code back to the brute force).
    pub fn is_rare(&self, i: usize) -> bool {
        self.state_words[i * STATE_WORDS + 4] == crate::kernel::survey::MODE_RARE
    }

    /// Runs every code to `targets[i]` heaps (a code already there does
    /// nothing); returns an error when a value passed 65535.
    pub fn run_to(&mut self, targets: &[u32]) -> Result<(), String> {
        let ctx = self.ctx;
        let top = targets.iter().copied().max().unwrap_or(0);
        let block = block_for(ctx, self.kern, top, self.workgroup);
        let mut dispatches = 0;
        for (i, &t) in targets.iter().enumerate() {
            let done = self.state_words[i * STATE_WORDS];
            self.state_words[i * STATE_WORDS + 2] = t.max(done);
            dispatches = dispatches.max(t.saturating_sub(done).div_ceil(block));
        }
        // Params word 2 is the block: heaps per workgroup per dispatch.
        ctx.queue
            .write_buffer(&self.params, 8, bytemuck::bytes_of(&block));
        ctx.queue
            .write_buffer(&self.state, 0, bytemuck::cast_slice(&self.state_words));
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("survey"),
                timestamp_writes: self.timer.as_ref().map(Timer::writes),
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_group, &[0]);
            for _ in 0..dispatches {
                pass.dispatch_workgroups(self.groups.0, self.groups.1, 1);
            }
        }
        let bytes = (self.state_words.len() * 4) as u64;
        self.state_words = submit_batch(
            ctx,
            encoder,
            self.timer.as_ref(),
            &self.state,
            bytes,
            &mut self.stats,
        )?;
        for (i, st) in self.state_words.chunks(STATE_WORDS).enumerate() {
            if st[3] != 0 {
                return Err(format!("code {i} of the batch has a value above 65535"));
            }
            if st[0] != st[2] {
                return Err(format!(
                    "code {i} of the batch stopped at heap {} of {}",
                    st[0], st[2]
                ));
            }
        }
        Ok(())
    }

    /// Every code's table as the kernel lays it out.
    pub fn tables(&self) -> Result<Vec<u32>, String> {
        let bytes = (self.kern.codes * self.kern.stride * 4) as u64;
        Ok(bytemuck::pod_collect_to_vec(&self.ctx.read_buffer(
            &self.table,
            0,
            bytes.max(4),
        )?))
    }
}

#[cfg(test)]
mod shader_tests {
    use super::*;
    use crate::gpu::shader_check::{constant, struct_size, validated};
    use crate::kernel::survey::MODE_RARE;

    #[test]
    fn the_survey_kernel_validates_and_shares_rust_constants() {
        let module = validated("survey_block", SURVEY_BLOCK_WGSL);
        assert_eq!(constant(&module, "MAX_WORDS"), MAX_WORDS);
        assert_eq!(constant(&module, "STATE_WORDS"), STATE_WORDS as u32);
        assert_eq!(constant(&module, "MODE_RARE"), MODE_RARE);
        // The host writes the parameters as eight u32 words.
        assert_eq!(struct_size(&module, "Params"), 8 * 4);
    }
}
