//! Level-by-level runs (graph, arrows and tuple tables): one dispatch per
//! level or step, each binding its own parameter slot, as many dispatches
//! per submission as a batch of work allows, and the status words read
//! back after each submission.

use super::Runner;
use super::batch::BatchSize;
use grundy_core::error::Result;
use grundy_core::kernel::{LevelParams, PARAMS_STRIDE, grid_2d};

/// One parameter slot per level of `levels` (the level, its positions), in
/// the order given, with its grid of workgroups of `wg` threads.
pub fn level_slots(
    levels: impl Iterator<Item = (u32, u64)>,
    wg: u64,
    max_groups_x: u32,
) -> (Vec<LevelParams>, Vec<(u32, u32, u64)>) {
    let mut params = Vec::new();
    let mut grids = Vec::new();
    for (level, count) in levels {
        let (gx, gy) = grid_2d(count.div_ceil(wg) as u32, max_groups_x);
        grids.push((gx, gy, count));
        params.push(LevelParams {
            level,
            count: count as u32,
            groups_x: gx,
            pad: 0,
        });
    }
    (params, grids)
}

/// One dispatch of a run.
pub struct LevelDispatch<'a> {
    pub pipeline: &'a wgpu::ComputePipeline,
    /// The parameter slot it binds.
    pub slot: usize,
    /// Workgroups in x and y (`grid_2d`); no dispatch when x is 0.
    pub groups: (u32, u32),
    /// What it weighs against the batch's work.
    pub work: u64,
    /// Positions it completes (for the progress count).
    pub done: u64,
}

impl<'a> LevelDispatch<'a> {
    /// One dispatch per level, slot i for `levels[i]` = (groups x, groups y,
    /// positions), all with one pipeline.
    pub fn each_level(
        pipeline: &'a wgpu::ComputePipeline,
        levels: &[(u32, u32, u64)],
    ) -> Vec<LevelDispatch<'a>> {
        let dispatch = |(slot, &(gx, gy, count)): (usize, &(u32, u32, u64))| LevelDispatch {
            pipeline,
            slot,
            groups: (gx, gy),
            work: count,
            done: count,
        };
        levels.iter().enumerate().map(dispatch).collect()
    }
}

/// The bind group and status buffer a run shares between its dispatches.
pub struct LevelRun<'a> {
    pub label: &'a str,
    pub bind_group: &'a wgpu::BindGroup,
    pub status: &'a wgpu::Buffer,
    /// Status bytes read back after each submission.
    pub status_bytes: u64,
    /// Work per submission (at least one dispatch each; dispatches of no
    /// work join the batch they follow).
    pub batch_work: u64,
}

impl LevelRun<'_> {
    /// Records `dispatches` in order; after each submission `check` sees the
    /// status words (an `Err` ends the run) and `progress` the positions done.
    /// Returns the last status words (zeros without a dispatch).
    pub fn run(
        &self,
        runner: &Runner,
        dispatches: &[LevelDispatch],
        check: &mut dyn FnMut(&[u32]) -> Result<()>,
        progress: &dyn Fn(u64),
    ) -> Result<Vec<u32>> {
        let mut status = vec![0u32; (self.status_bytes / 4) as usize];
        let mut done = 0u64;
        let mut next = 0;
        // Start small and grow while submissions are quick.
        let mut batch_work = BatchSize::new((self.batch_work >> 6).max(1), 1, self.batch_work);
        while next < dispatches.len() {
            let submitted = std::time::Instant::now();
            let record = |pass: &mut wgpu::ComputePass<'_>| {
                let mut work = 0u64;
                while next < dispatches.len() && (work == 0 || work < batch_work.work) {
                    let d = &dispatches[next];
                    if d.groups.0 > 0 {
                        pass.set_pipeline(d.pipeline);
                        let offset = (d.slot as u64 * PARAMS_STRIDE) as u32;
                        pass.set_bind_group(0, self.bind_group, &[offset]);
                        pass.dispatch_workgroups(d.groups.0, d.groups.1, 1);
                    }
                    work += d.work;
                    done += d.done;
                    next += 1;
                }
            };
            status = runner.submit(self.label, record, self.status, self.status_bytes)?;
            check(&status)?;
            progress(done);
            batch_work.after(submitted.elapsed().as_secs_f64());
        }
        Ok(status)
    }
}
