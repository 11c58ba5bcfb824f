//! Timestamp queries: real kernel times for the benchmarks.

use super::GpuContext;
use super::heap::GpuStats;

/// Timestamp queries around each compute pass.
pub struct Timer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl Timer {
    pub fn new(ctx: &GpuContext) -> Timer {
        let device = &ctx.device;
        Timer {
            queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("pass times"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            }),
            resolve: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamps"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            readback: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("timestamps readback"),
                size: 16,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }

    pub fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.readback, 0, 16);
    }

    pub fn seconds(&self, ctx: &GpuContext) -> Result<f64, String> {
        let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&ctx.map_read(&self.readback)?);
        let period = ctx.queue.get_timestamp_period() as f64;
        Ok(ticks[1].saturating_sub(ticks[0]) as f64 * period * 1e-9)
    }
}

/// Submits one batch of passes (resolving the timer's queries first), waits
/// for it, adds its kernel time to `stats`, and returns the first `bytes`
/// bytes of the kernels' status buffer as words.
pub fn submit_batch(
    ctx: &GpuContext,
    mut encoder: wgpu::CommandEncoder,
    timer: Option<&Timer>,
    status: &wgpu::Buffer,
    bytes: u64,
    stats: &mut GpuStats,
) -> Result<Vec<u32>, String> {
    if let Some(t) = timer {
        t.resolve(&mut encoder);
    }
    ctx.queue.submit([encoder.finish()]);
    stats.submissions += 1;
    let words = bytemuck::pod_collect_to_vec(&ctx.read_buffer(status, 0, bytes)?);
    if let Some(t) = timer {
        stats.kernel_seconds += t.seconds(ctx)?;
    }
    Ok(words)
}

/// Work per submission, doubled while a submission takes under 0.1 s and
/// halved past 0.5 s, within `floor..=ceiling`: the progress bar moves a few
/// times a second, and Ctrl-C is heard within a submission, on any adapter.
pub struct BatchSize {
    pub work: u64,
    floor: u64,
    ceiling: u64,
}

impl BatchSize {
    pub fn new(first: u64, floor: u64, ceiling: u64) -> BatchSize {
        BatchSize {
            work: first,
            floor,
            ceiling,
        }
    }

    /// Adjusts the work to the seconds the last submission took.
    pub fn after(&mut self, seconds: f64) {
        if seconds < 0.1 {
            self.work = (self.work * 2).min(self.ceiling);
        } else if seconds > 0.5 {
            self.work = (self.work / 2).max(self.floor);
        }
    }
}
