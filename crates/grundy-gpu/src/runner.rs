//! The one GPU runner every family runs through: it owns the device, the
//! pipelines (built once per shader per run and cached), the bind group
//! layouts, a staging buffer reused across reads, the timestamp queries, and
//! the counters a run's JSON summary reports. A family's GPU file keeps only
//! its buffers' contents and its dispatch plan.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytemuck::Pod;
use wgpu::util::DeviceExt;

use super::context::GpuContext;
pub use crate::outputs::{GpuCounters, Unfit};
use grundy_core::error::{Error, Result};
use grundy_core::kernel::{PARAMS_STRIDE, Shader};

/// The most bytes one copy into the staging buffer moves: larger reads go
/// in pieces, so the staging buffer stays small whatever the table.
const STAGING_BYTES: u64 = 64 << 20;

/// A shader's pipelines, one per entry point, on its layout.
pub struct Pipelines {
    pub layout: Arc<wgpu::BindGroupLayout>,
    entries: Vec<(&'static str, wgpu::ComputePipeline)>,
}

impl Pipelines {
    /// The pipeline of `entry_point`.
    pub fn entry(&self, entry_point: &str) -> &wgpu::ComputePipeline {
        &self
            .entries
            .iter()
            .find(|(name, _)| *name == entry_point)
            .unwrap_or_else(|| panic!("no entry point {entry_point}"))
            .1
    }
}

/// A cache key: the shader and the values of its `override` constants.
type PipelineKey = (&'static str, Vec<(&'static str, u64)>);

#[derive(Default)]
struct Cache {
    layouts: HashMap<Vec<bool>, Arc<wgpu::BindGroupLayout>>,
    pipelines: HashMap<PipelineKey, Arc<Pipelines>>,
    staging: Option<wgpu::Buffer>,
    counters: GpuCounters,
    /// The end of the last pipelined pass, in timestamp ticks.
    last_end: Option<u64>,
}

/// An open GPU and what a run keeps on it between kernels.
pub struct Runner {
    pub ctx: GpuContext,
    timer: Option<Timer>,
    cache: Mutex<Cache>,
}

impl std::ops::Deref for Runner {
    type Target = GpuContext;
    fn deref(&self) -> &GpuContext {
        &self.ctx
    }
}

/// Parameter slots: one buffer of `PARAMS_STRIDE`-byte slots, a dispatch
/// binding its slot by a dynamic offset.
pub struct ParamSlots {
    pub buffer: wgpu::Buffer,
    size: u64,
}

impl Runner {
    pub fn new(ctx: GpuContext) -> Runner {
        let timer = ctx.timestamps.then(|| Timer::new(&ctx));
        Runner {
            ctx,
            timer,
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The best adapter's runner, software or not; `Ok(None)` when the
    /// machine has none (tests and benches, which run the kernels anywhere).
    pub fn open() -> Result<Option<Runner>> {
        Ok(GpuContext::open()?.map(Runner::new))
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the run has asked of the GPU so far.
    pub fn counters(&self) -> GpuCounters {
        self.cache().counters
    }

    fn count(&self, f: impl FnOnce(&mut GpuCounters)) {
        f(&mut self.cache().counters)
    }

    /// `shader`'s pipelines with these `override` values, built the first
    /// time a run asks and cached for the rest of it.
    pub fn pipelines(
        &self,
        shader: &'static Shader,
        constants: &[(&'static str, f64)],
    ) -> Arc<Pipelines> {
        let key = (
            shader.name,
            constants.iter().map(|&(n, v)| (n, v.to_bits())).collect(),
        );
        if let Some(found) = self.cache().pipelines.get(&key) {
            return found.clone();
        }
        let layout = self.layout(shader.read_only);
        let built = Arc::new(self.build(shader, layout, constants));
        let mut cache = self.cache();
        cache.counters.pipelines_built += shader.entry_points.len() as u64;
        cache.pipelines.insert(key, built.clone());
        built
    }

    /// The bind group layout for storage bindings `read_only` (after the
    /// parameter slot), shared by every shader with the same bindings.
    fn layout(&self, read_only: &[bool]) -> Arc<wgpu::BindGroupLayout> {
        let mut cache = self.cache();
        if let Some(layout) = cache.layouts.get(read_only) {
            return layout.clone();
        }
        let buffer = |binding: u32, ty, dynamic| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: dynamic,
                min_binding_size: None,
            },
            count: None,
        };
        let mut entries = vec![buffer(0, wgpu::BufferBindingType::Uniform, true)];
        for (i, &read_only) in read_only.iter().enumerate() {
            let ty = wgpu::BufferBindingType::Storage { read_only };
            entries.push(buffer(i as u32 + 1, ty, false));
        }
        let layout = Arc::new(self.device.create_bind_group_layout(
            &wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries: &entries,
            },
        ));
        cache.layouts.insert(read_only.to_vec(), layout.clone());
        layout
    }

    fn build(
        &self,
        shader: &Shader,
        layout: Arc<wgpu::BindGroupLayout>,
        constants: &[(&str, f64)],
    ) -> Pipelines {
        let device = &self.device;
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(shader.name),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(shader.name),
            source: wgpu::ShaderSource::Wgsl(shader.source().into()),
        });
        let entries = shader
            .entry_points
            .iter()
            .map(|&entry| {
                let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants,
                        ..Default::default()
                    },
                    cache: None,
                });
                (entry, pipeline)
            })
            .collect();
        Pipelines { layout, entries }
    }

    /// A storage buffer holding `contents` (at least 4 bytes), readable
    /// back and writable later.
    pub fn storage(&self, label: &str, contents: &[u8]) -> wgpu::Buffer {
        let padding = [0u8; 4];
        let contents = if contents.is_empty() {
            &padding[..]
        } else {
            contents
        };
        self.count(|c| c.bytes_uploaded += contents.len() as u64);
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage: storage_usage(),
            })
    }

    /// A zeroed storage buffer of `bytes` bytes (at least 4).
    pub fn zeroed(&self, label: &str, bytes: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(4).div_ceil(4) * 4,
            usage: storage_usage(),
            mapped_at_creation: false,
        })
    }

    /// As `zeroed`, or `None` when the card is out of memory for it.
    pub fn try_zeroed(&self, label: &str, bytes: u64) -> Option<wgpu::Buffer> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = self.zeroed(label, bytes);
        pollster::block_on(scope.pop()).is_none().then_some(buffer)
    }

    /// `slots` parameter slots for values of type `P`.
    pub fn param_slots<P: Pod>(&self, label: &str, slots: usize) -> ParamSlots {
        let size = std::mem::size_of::<P>() as u64;
        assert!(size <= PARAMS_STRIDE);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: PARAMS_STRIDE * slots.max(1) as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ParamSlots { buffer, size }
    }

    /// Writes `params[i]` into slot `i`.
    pub fn write_params<P: Pod>(&self, slots: &ParamSlots, params: &[P]) {
        let mut bytes = vec![0u8; PARAMS_STRIDE as usize * params.len()];
        for (i, p) in params.iter().enumerate() {
            let at = i * PARAMS_STRIDE as usize;
            bytes[at..at + slots.size as usize].copy_from_slice(bytemuck::bytes_of(p));
        }
        self.write(&slots.buffer, 0, &bytes);
    }

    /// Writes `bytes` into `buffer` at `offset` (before the next submission).
    pub fn write(&self, buffer: &wgpu::Buffer, offset: u64, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        self.count(|c| c.bytes_uploaded += bytes.len() as u64);
        self.queue.write_buffer(buffer, offset, bytes);
    }

    /// The bind group of `pipelines`: the parameter slots, then `storage`
    /// as bindings 1, 2, ….
    pub fn bind(
        &self,
        pipelines: &Pipelines,
        params: &ParamSlots,
        storage: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let params = wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &params.buffer,
            offset: 0,
            size: wgpu::BufferSize::new(params.size),
        });
        let entries: Vec<wgpu::BindGroupEntry> = std::iter::once(params)
            .chain(storage.iter().map(|b| b.as_entire_binding()))
            .enumerate()
            .map(|(binding, resource)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource,
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipelines.layout,
            entries: &entries,
        })
    }

    /// One compute pass recorded by `record`, with its timestamps written
    /// when the adapter has them (not yet resolved).
    fn record_pass(
        &self,
        label: &str,
        record: impl FnOnce(&mut wgpu::ComputePass<'_>),
    ) -> wgpu::CommandEncoder {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: self.timer.as_ref().map(Timer::writes),
            });
            record(&mut pass);
        }
        encoder
    }

    /// One compute pass recorded by `record`, timed when the adapter can.
    fn encode(
        &self,
        label: &str,
        record: impl FnOnce(&mut wgpu::ComputePass<'_>),
    ) -> wgpu::CommandEncoder {
        let mut encoder = self.record_pass(label, record);
        if let Some(t) = &self.timer {
            t.resolve(&mut encoder, &t.readback, 0);
        }
        encoder
    }

    /// Records one compute pass, then copies `copies` (source, bytes from
    /// its start) into `back` one after another, and the pass's two
    /// timestamps after them when the adapter has them; submits it and
    /// maps `back` without waiting: `take` gives the bytes.
    pub fn dispatch_and_send_back(
        &self,
        label: &str,
        record: impl FnOnce(&mut wgpu::ComputePass<'_>),
        copies: &[(&wgpu::Buffer, u64)],
        back: &wgpu::Buffer,
    ) -> SentBack {
        let mut encoder = self.record_pass(label, record);
        let mut at = 0;
        for &(src, bytes) in copies {
            encoder.copy_buffer_to_buffer(src, 0, back, at, bytes);
            at += bytes;
        }
        let stamps = self.timer.as_ref().map(|t| {
            t.resolve(&mut encoder, back, at);
            at
        });
        let bytes = at + stamps.map_or(0, |_| 16);
        let submission = self.queue.submit([encoder.finish()]);
        let (tx, mapped) = std::sync::mpsc::channel();
        back.map_async(wgpu::MapMode::Read, ..bytes, move |r| {
            let _ = tx.send(r);
        });
        self.count(|c| {
            c.submits += 1;
            c.bytes_read_back += bytes;
        });
        SentBack {
            back: back.clone(),
            bytes,
            stamps,
            submission,
            mapped,
        }
    }

    /// The bytes a `dispatch_and_send_back` copied (its timestamps taken
    /// off), waiting for the card if they are not back yet; the wait, the
    /// kernel time and the card's idle time since the last such pass are
    /// counted.
    pub fn take(&self, sent: SentBack) -> Result<Vec<u8>> {
        let failed = |what: &str, e: &dyn std::fmt::Display| Error::Run(format!("GPU {what}: {e}"));
        let _ = self.device.poll(wgpu::PollType::Poll);
        let result = match sent.mapped.try_recv() {
            Ok(result) => result,
            Err(_) => {
                let started = std::time::Instant::now();
                self.device
                    .poll(wgpu::PollType::Wait {
                        submission_index: Some(sent.submission),
                        timeout: None,
                    })
                    .map_err(|e| failed("wait failed", &e))?;
                let waited = started.elapsed().as_secs_f64();
                self.count(|c| {
                    c.host_waits += 1;
                    c.host_wait_seconds += waited;
                });
                sent.mapped
                    .recv()
                    .map_err(|e| failed("readback lost", &e))?
            }
        };
        result.map_err(|e| failed("readback failed", &e))?;
        let mut out = sent
            .back
            .get_mapped_range(..sent.bytes)
            .map_err(|e| failed("readback failed", &e))?
            .to_vec();
        sent.back.unmap();
        if let Some(at) = sent.stamps {
            let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&out[at as usize..]);
            out.truncate(at as usize);
            self.count_ticks(ticks[0], ticks[1]);
        }
        Ok(out)
    }

    /// Adds a pipelined pass's kernel time, and the card's idle time since
    /// the one before it.
    fn count_ticks(&self, begin: u64, end: u64) {
        let period = self.queue.get_timestamp_period() as f64 * 1e-9;
        let mut cache = self.cache();
        let idle = cache.last_end.map_or(0, |last| begin.saturating_sub(last));
        cache.last_end = Some(end);
        cache.counters.kernel_seconds += end.saturating_sub(begin) as f64 * period;
        cache.counters.card_idle_seconds += idle as f64 * period;
    }

    /// Starts a new pipeline: the card's idle time is counted from its
    /// first pass on.
    pub fn start_pipeline(&self) {
        self.cache().last_end = None;
    }

    /// Notes that `blocks` blocks of a sequence are in flight at once.
    pub fn note_in_flight(&self, blocks: u64) {
        self.count(|c| c.blocks_in_flight_max = c.blocks_in_flight_max.max(blocks));
    }

    /// Records one compute pass, submits it, and returns the first `bytes`
    /// bytes of `status` as words once the GPU is done: the host sees every
    /// submission's status.
    pub fn submit(
        &self,
        label: &str,
        record: impl FnOnce(&mut wgpu::ComputePass<'_>),
        status: &wgpu::Buffer,
        bytes: u64,
    ) -> Result<Vec<u32>> {
        let encoder = self.encode(label, record);
        let words = self.read_after(encoder, status, 0, bytes)?;
        self.dispatch_time()?;
        Ok(bytemuck::pod_collect_to_vec(&words))
    }

    /// Records one compute pass and submits it without waiting: a later
    /// read waits for it, and `dispatch_time` then adds its kernel time.
    /// One dispatch at a time.
    pub fn dispatch(&self, label: &str, record: impl FnOnce(&mut wgpu::ComputePass<'_>)) {
        let encoder = self.encode(label, record);
        self.queue.submit([encoder.finish()]);
        self.count(|c| c.submits += 1);
    }

    /// Adds the kernel time of the last `dispatch`, once a read has waited
    /// for it.
    pub fn dispatch_time(&self) -> Result<()> {
        if let Some(t) = &self.timer {
            let seconds = t.seconds(self)?;
            self.count(|c| c.kernel_seconds += seconds);
        }
        Ok(())
    }

    /// Zeroes `buffer` (one submission).
    pub fn clear(&self, buffer: &wgpu::Buffer) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(buffer, 0, None);
        self.queue.submit([encoder.finish()]);
        self.count(|c| c.submits += 1);
    }

    /// `bytes` bytes of `src` from `offset`, through the staging buffer.
    pub fn read(&self, src: &wgpu::Buffer, offset: u64, bytes: u64) -> Result<Vec<u8>> {
        let encoder = self.device.create_command_encoder(&Default::default());
        self.read_after(encoder, src, offset, bytes)
    }

    /// Submits `encoder` with copies of `src` into the staging buffer, in
    /// pieces of at most `STAGING_BYTES`, and returns the bytes.
    fn read_after(
        &self,
        mut encoder: wgpu::CommandEncoder,
        src: &wgpu::Buffer,
        offset: u64,
        bytes: u64,
    ) -> Result<Vec<u8>> {
        if bytes == 0 {
            self.queue.submit([encoder.finish()]);
            self.count(|c| c.submits += 1);
            return Ok(Vec::new());
        }
        let mut out = Vec::with_capacity(bytes as usize);
        let mut done = 0;
        loop {
            let piece = (bytes - done).min(STAGING_BYTES);
            let staging = self.staging(piece);
            encoder.copy_buffer_to_buffer(src, offset + done, &staging, 0, piece);
            self.queue.submit([encoder.finish()]);
            out.extend(self.map_read(&staging, piece)?);
            self.count(|c| {
                c.submits += 1;
                c.bytes_read_back += piece;
            });
            done += piece;
            if done >= bytes {
                return Ok(out);
            }
            encoder = self.device.create_command_encoder(&Default::default());
        }
    }

    /// The staging buffer, grown to hold `bytes` when it is smaller.
    fn staging(&self, bytes: u64) -> wgpu::Buffer {
        let mut cache = self.cache();
        if let Some(b) = &cache.staging
            && b.size() >= bytes
        {
            return b.clone();
        }
        let size = bytes.next_power_of_two().clamp(256, STAGING_BYTES);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("staging"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        cache.staging = Some(buffer.clone());
        buffer
    }

    /// A table spread over `chunks` of `chunk_bytes` each: its first
    /// `total` bytes, read chunk by chunk.
    pub fn read_chunks(
        &self,
        chunks: &[wgpu::Buffer],
        chunk_bytes: u64,
        total: u64,
    ) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(total as usize);
        for (c, chunk) in chunks.iter().enumerate() {
            let bytes = total
                .saturating_sub(c as u64 * chunk_bytes)
                .min(chunk_bytes);
            if bytes > 0 {
                out.extend(self.read(chunk, 0, bytes.div_ceil(4) * 4)?);
            }
        }
        out.truncate(total as usize);
        Ok(out)
    }

    /// Waits for the queue and returns the first `bytes` bytes of a
    /// MAP_READ buffer.
    pub fn map_read(&self, staging: &wgpu::Buffer, bytes: u64) -> Result<Vec<u8>> {
        let (tx, rx) = std::sync::mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, ..bytes, move |r| {
            let _ = tx.send(r);
        });
        let failed = |what: &str, e: &dyn std::fmt::Display| Error::Run(format!("GPU {what}: {e}"));
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| failed("wait failed", &e))?;
        rx.recv()
            .map_err(|e| failed("readback lost", &e))?
            .map_err(|e| failed("readback failed", &e))?;
        let out = staging
            .get_mapped_range(..bytes)
            .map_err(|e| failed("readback failed", &e))?
            .to_vec();
        staging.unmap();
        Ok(out)
    }
}

/// A submission's copies on their way back to the host (`Runner::take`).
pub struct SentBack {
    back: wgpu::Buffer,
    bytes: u64,
    /// Where the pass's timestamps lie in `back`, when it has them.
    stamps: Option<u64>,
    submission: wgpu::SubmissionIndex,
    mapped: std::sync::mpsc::Receiver<std::result::Result<(), wgpu::BufferAsyncError>>,
}

/// Timestamp queries around each compute pass.
struct Timer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
}

impl Timer {
    fn new(ctx: &GpuContext) -> Timer {
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

    fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        }
    }

    /// Resolves the two timestamps into `dst` at `offset`.
    fn resolve(&self, encoder: &mut wgpu::CommandEncoder, dst: &wgpu::Buffer, offset: u64) {
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, dst, offset, 16);
    }

    fn seconds(&self, runner: &Runner) -> Result<f64> {
        let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&runner.map_read(&self.readback, 16)?);
        let period = runner.queue.get_timestamp_period() as f64;
        Ok(ticks[1].saturating_sub(ticks[0]) as f64 * period * 1e-9)
    }
}

fn storage_usage() -> wgpu::BufferUsages {
    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC
}
