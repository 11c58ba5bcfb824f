//! The wgpu adapter and device, opened once per run.

use std::sync::mpsc;

/// The best adapter, if any: a discrete GPU before an integrated one, any
/// GPU before a software one.
pub fn find_adapter() -> Option<wgpu::Adapter> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    adapters
        .into_iter()
        .min_by_key(|adapter| rank(adapter.get_info().device_type))
}

/// Lower is preferred.
fn rank(kind: wgpu::DeviceType) -> u8 {
    match kind {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// A CPU implementation of a GPU API (wgpu's `DeviceType::Cpu`).
pub fn is_software(info: &wgpu::AdapterInfo) -> bool {
    info.device_type == wgpu::DeviceType::Cpu
}

/// An open GPU: device, queue and what the adapter told us about itself.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    pub limits: wgpu::Limits,
    /// Timestamp queries work: kernel times are measured.
    pub timestamps: bool,
}

impl GpuContext {
    /// Opens the best adapter, software or not; `Ok(None)` when the machine
    /// has none (tests and benches, which run the kernels anywhere).
    pub fn open() -> Result<Option<GpuContext>, String> {
        find_adapter().map(GpuContext::from_adapter).transpose()
    }

    /// Opens `adapter`'s device and queue.
    pub fn from_adapter(adapter: wgpu::Adapter) -> Result<GpuContext, String> {
        let info = adapter.get_info();
        let limits = adapter.limits();
        let timestamps = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let required_features = if timestamps {
            wgpu::Features::TIMESTAMP_QUERY
        } else {
            wgpu::Features::empty()
        };
        let descriptor = wgpu::DeviceDescriptor {
            label: Some("grundy"),
            required_features,
            required_limits: limits.clone(),
            ..Default::default()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&descriptor))
            .map_err(|e| format!("could not open the GPU '{}': {e}", info.name))?;
        Ok(GpuContext {
            device,
            queue,
            info,
            limits,
            timestamps,
        })
    }

    /// The adapter is the CPU emulating a GPU (Mesa's llvmpipe/lavapipe):
    /// right values, but slower than the CPU backend.
    pub fn is_software(&self) -> bool {
        is_software(&self.info)
    }

    /// The adapter's name, as the JSON summary gives it.
    pub fn adapter_name(&self) -> String {
        self.info.name.clone()
    }

    /// "NAME (BACKEND, DRIVER)" for the benchmark report.
    pub fn adapter_detail(&self) -> String {
        let driver = [self.info.driver.as_str(), self.info.driver_info.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let software = if self.is_software() {
            ", software adapter"
        } else {
            ""
        };
        format!(
            "{} ({:?}, {driver}{software})",
            self.info.name, self.info.backend
        )
    }

    /// The largest storage binding, in bytes (a buffer cannot be larger either).
    pub fn max_binding(&self) -> u64 {
        self.limits
            .max_storage_buffer_binding_size
            .min(self.limits.max_buffer_size)
    }

    /// The largest storage binding, in bytes, rounded down to a power of two.
    pub fn max_binding_pow2(&self) -> u64 {
        1u64 << (63 - self.max_binding().max(4).leading_zeros())
    }

    /// The layout the level kernels share: binding 0 a uniform read at a
    /// dynamic offset (one slot per dispatch), then storage buffers, read-only
    /// where `read_only` says so.
    pub fn levels_layout(&self, label: &str, read_only: &[bool]) -> wgpu::BindGroupLayout {
        let buffer =
            |binding: u32, ty: wgpu::BufferBindingType, dynamic: bool| wgpu::BindGroupLayoutEntry {
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
        self.device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries: &entries,
            })
    }

    /// One compute pipeline per entry point of the WGSL `source`, all on `layout`.
    pub fn pipelines(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        source: &str,
        entry_points: &[&str],
    ) -> Vec<wgpu::ComputePipeline> {
        self.pipelines_with(label, layout, source, entry_points, &[])
    }

    /// As `pipelines`, with values for the shader's `override` constants.
    pub fn pipelines_with(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        source: &str,
        entry_points: &[&str],
        constants: &[(&str, f64)],
    ) -> Vec<wgpu::ComputePipeline> {
        let device = &self.device;
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        entry_points
            .iter()
            .map(|&entry| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&pipeline_layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants,
                        ..Default::default()
                    },
                    cache: None,
                })
            })
            .collect()
    }

    /// A bind group whose bindings 0, 1, 2… are `resources` in order.
    pub fn bind_group(
        &self,
        label: &str,
        layout: &wgpu::BindGroupLayout,
        resources: Vec<wgpu::BindingResource<'_>>,
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .into_iter()
            .enumerate()
            .map(|(binding, resource)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource,
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout,
            entries: &entries,
        })
    }

    /// Copies `bytes` bytes of `src` from `offset` back to the host.
    pub fn read_buffer(
        &self,
        src: &wgpu::Buffer,
        offset: u64,
        bytes: u64,
    ) -> Result<Vec<u8>, String> {
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(src, offset, &staging, 0, bytes);
        self.queue.submit([encoder.finish()]);
        self.map_read(&staging)
    }

    /// Waits for the queue and returns the contents of a MAP_READ buffer.
    pub fn map_read(&self, staging: &wgpu::Buffer) -> Result<Vec<u8>, String> {
        let (tx, rx) = mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("GPU wait failed: {e}"))?;
        rx.recv()
            .map_err(|e| format!("GPU readback lost: {e}"))?
            .map_err(|e| format!("GPU readback failed: {e}"))?;
        let bytes = staging
            .get_mapped_range(..)
            .map_err(|e| format!("GPU readback failed: {e}"))?
            .to_vec();
        staging.unmap();
        Ok(bytes)
    }
}
