//! The survey on the GPU: `kernel::survey::SURVEY_BLOCK_SHADER` over a
//! batch of codes, one workgroup per code, the tables and rare lists
//! resident between rounds. A round records the same dispatch as many times
//! as the furthest code needs, in one pass.

use grundy_core::setting::Setting;
use std::sync::Arc;

use super::heap::loop_budget;
use super::runner::{ParamSlots, Pipelines};
use super::{GpuContext, Runner, Unfit};
use grundy_core::error::{Error, Result};
use grundy_core::kernel::grid_2d;
use grundy_core::kernel::heap::MAX_WORDS;
use grundy_core::kernel::survey::{
    Params, STATE_WORDS, SURVEY_BLOCK, SURVEY_BLOCK_SHADER, SurveyKernel, SurveyMode,
};

/// Threads per code (`WG` in the shader): `requested` (`--workgroup`),
/// checked against what the adapter runs in one workgroup, or by default 64
/// on a software adapter, where a barrier switches between all of a
/// workgroup's threads (BENCHMARKS.md, the survey's threads per code), and
/// 256 on a GPU, where once the sparse codes are done one code's workgroup
/// may be all that a multiprocessor holds, and 64 threads (two warps) would
/// leave it mostly idle.
pub fn workgroup_for(ctx: &GpuContext, requested: Option<u32>) -> Result<u32> {
    let Some(threads) = requested else {
        return Ok(if ctx.is_software() { 64 } else { 256 });
    };
    let most = ctx
        .limits
        .max_compute_invocations_per_workgroup
        .min(ctx.limits.max_compute_workgroup_size_x);
    if !(1..=most).contains(&threads) {
        return Err(Error::Input(format!(
            "{}: expected 1 to {most} threads, the most the adapter '{}' runs in one workgroup",
            Setting::Workgroup.is(threads),
            ctx.info.name
        )));
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
    runner: &'a Runner,
    kern: &'a SurveyKernel,
    pipelines: Arc<Pipelines>,
    bind_group: wgpu::BindGroup,
    params: ParamSlots,
    params_now: Params,
    state: wgpu::Buffer,
    table: wgpu::Buffer,
    rare: wgpu::Buffer,
    groups: (u32, u32),
    /// Threads per workgroup (per code): `WG` in the shader.
    workgroup: u32,
    /// The state as last read back.
    pub state_words: Vec<u32>,
}

/// `Ok` when this adapter can hold the batch's tables and rare lists.
pub fn fits(runner: &Runner, kern: &SurveyKernel) -> std::result::Result<(), Unfit> {
    let table_bytes = (kern.codes * kern.stride * 4) as u64;
    let rare_bytes = (kern.codes * kern.rare_cap * 4) as u64;
    let binding = runner.max_binding();
    if table_bytes.max(rare_bytes) > binding {
        return Err(Unfit(format!(
            "{} tables of {} words (and rare lists of {} words) need {} MiB; the adapter '{}' \
             binds at most {} MiB",
            kern.codes,
            kern.stride,
            kern.rare_cap,
            table_bytes.max(rare_bytes) >> 20,
            runner.info.name,
            binding >> 20
        )));
    }
    Ok(())
}

impl<'a> GpuSurvey<'a> {
    pub fn new(
        runner: &'a Runner,
        kern: &'a SurveyKernel,
        workgroup: u32,
    ) -> Result<GpuSurvey<'a>> {
        fits(runner, kern).map_err(|u| Error::Run(u.0))?;
        let groups = grid_2d(
            kern.codes as u32,
            runner.limits.max_compute_workgroups_per_dimension,
        );
        let params_now = Params {
            codes: kern.codes as u32,
            groups_x: groups.0,
            block: SURVEY_BLOCK,
            digits_len: kern.digits_len,
            stride: kern.stride as u32,
            rare_cap: kern.rare_cap as u32,
            pad: [0; 2],
        };
        let params = runner.param_slots::<Params>("survey params", 1);
        let digits = runner.storage("survey digits", bytemuck::cast_slice(&kern.digits));
        let state_words = kern.fresh_state();
        let state = runner.storage("survey state", bytemuck::cast_slice(&state_words));
        let table = runner.zeroed("survey tables", (kern.codes * kern.stride * 4) as u64);
        let rare = runner.zeroed("survey rare lists", (kern.codes * kern.rare_cap * 4) as u64);
        let pipelines = runner.pipelines(&SURVEY_BLOCK_SHADER, &[("WG", workgroup as f64)]);
        let bind_group = runner.bind(&pipelines, &params, &[&digits, &state, &table, &rare]);
        Ok(GpuSurvey {
            runner,
            kern,
            pipelines,
            bind_group,
            params,
            params_now,
            state,
            table,
            rare,
            groups,
            workgroup,
            state_words,
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
            self.runner
                .write(&self.rare, at, bytemuck::cast_slice(positions));
        }
    }

    /// Whether code `i` ran its last round in rare mode (a full list sends
    /// a code back to the brute force).
    pub fn is_rare(&self, i: usize) -> bool {
        self.state_words[i * STATE_WORDS + 4] == grundy_core::kernel::survey::MODE_RARE
    }

    /// Runs every code to `targets[i]` heaps (a code already there does
    /// nothing); returns an error when a value passed 65535.
    pub fn run_to(&mut self, targets: &[u32]) -> Result<()> {
        let top = targets.iter().copied().max().unwrap_or(0);
        let block = block_for(self.runner, self.kern, top, self.workgroup);
        let mut dispatches = 0;
        for (i, &t) in targets.iter().enumerate() {
            let done = self.state_words[i * STATE_WORDS];
            self.state_words[i * STATE_WORDS + 2] = t.max(done);
            dispatches = dispatches.max(t.saturating_sub(done).div_ceil(block));
        }
        self.params_now.block = block;
        self.runner.write_params(&self.params, &[self.params_now]);
        let state = bytemuck::cast_slice(&self.state_words);
        self.runner.write(&self.state, 0, state);
        let record = |pass: &mut wgpu::ComputePass<'_>| {
            pass.set_pipeline(self.pipelines.entry("survey_block"));
            pass.set_bind_group(0, &self.bind_group, &[0]);
            for _ in 0..dispatches {
                pass.dispatch_workgroups(self.groups.0, self.groups.1, 1);
            }
        };
        let bytes = (self.state_words.len() * 4) as u64;
        self.state_words = self.runner.submit("survey", record, &self.state, bytes)?;
        for (i, st) in self.state_words.chunks(STATE_WORDS).enumerate() {
            if st[3] != 0 {
                return Err(Error::Run(format!(
                    "code {i} of the batch has a value above 65535"
                )));
            }
            if st[0] != st[2] {
                return Err(Error::Run(format!(
                    "code {i} of the batch stopped at heap {} of {}",
                    st[0], st[2]
                )));
            }
        }
        Ok(())
    }

    /// Every code's table as the kernel lays it out.
    pub fn tables(&self) -> Result<Vec<u32>> {
        let bytes = (self.kern.codes * self.kern.stride * 4) as u64;
        Ok(bytemuck::pod_collect_to_vec(&self.runner.read(
            &self.table,
            0,
            bytes.max(4),
        )?))
    }
}
