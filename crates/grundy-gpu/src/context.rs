//! The wgpu adapter and device, opened once per run.

use grundy_core::error::{Error, Result};

/// The wgpu backends this build carries (Vulkan on Linux and Windows,
/// Metal on macOS, DX12 on Windows), by name.
pub fn compiled_backends() -> Vec<&'static str> {
    let compiled = wgpu::Instance::enabled_backend_features();
    [
        (wgpu::Backends::VULKAN, "Vulkan"),
        (wgpu::Backends::METAL, "Metal"),
        (wgpu::Backends::DX12, "DX12"),
        (wgpu::Backends::GL, "GL"),
        (wgpu::Backends::BROWSER_WEBGPU, "WebGPU"),
    ]
    .into_iter()
    .filter(|(b, _)| compiled.contains(*b))
    .map(|(_, name)| name)
    .collect()
}

/// Switches off Mesa's device-select Vulkan layer where it would only
/// complain: on a machine with no display session (`XDG_RUNTIME_DIR` unset
/// or not absolute) it prints `error: XDG_RUNTIME_DIR is invalid or not set
/// in the environment.` whenever an adapter is looked for, on runs that
/// succeed. grundy orders the adapters itself, so the layer adds nothing.
/// A `NODEVICE_SELECT` the user set is kept.
///
/// # Safety
///
/// Sets an environment variable: call it before any other thread starts.
pub unsafe fn quiet_device_select() {
    let runtime_dir = std::env::var_os("XDG_RUNTIME_DIR");
    let headless = runtime_dir.is_none_or(|dir| !std::path::Path::new(&dir).is_absolute());
    if headless && std::env::var_os("NODEVICE_SELECT").is_none() {
        // SAFETY: the caller promises no other thread runs yet.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}

/// The best adapter, if any: a discrete GPU before an integrated one, any
/// GPU before a software one.
pub fn find_adapter() -> Option<Found> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let adapter = adapters
        .into_iter()
        .min_by_key(|adapter| rank(adapter.get_info().device_type))?;
    let info = adapter.get_info();
    Some(Found { adapter, info })
}

/// An adapter found and not opened yet.
pub struct Found {
    adapter: wgpu::Adapter,
    info: wgpu::AdapterInfo,
}

impl Found {
    pub fn name(&self) -> &str {
        &self.info.name
    }
    pub fn is_software(&self) -> bool {
        is_software(&self.info)
    }
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

/// The smallest cap `cap_binding` takes.
pub const MIN_BINDING_CAP: u64 = 16;

static BINDING_CAP: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// Lowers the largest binding and buffer this process's runs plan with to
/// `bytes` (at least `MIN_BINDING_CAP`), so that tests run the table
/// pieces of a long run on lavapipe; set once, before the first GPU opens
/// (the command line's and Python's `GRUNDY_GPU_MAX_BINDING`).
pub fn cap_binding(bytes: u64) -> std::result::Result<(), String> {
    if bytes < MIN_BINDING_CAP {
        return Err(format!(
            "expected a number of bytes, at least {MIN_BINDING_CAP}"
        ));
    }
    match *BINDING_CAP.get_or_init(|| bytes) == bytes {
        true => Ok(()),
        false => Err("the binding cap is set once, before the first run".into()),
    }
}

/// `limits` with `cap_binding`'s cap, when one was set (the device is
/// still opened with the adapter's own limits).
fn planned_limits(mut limits: wgpu::Limits) -> Result<wgpu::Limits> {
    if let Some(&cap) = BINDING_CAP.get() {
        limits.max_storage_buffer_binding_size = limits.max_storage_buffer_binding_size.min(cap);
        limits.max_buffer_size = limits.max_buffer_size.min(cap);
    }
    Ok(limits)
}

/// An open GPU: device, queue and what the adapter told us about itself.
pub struct GpuContext {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub info: wgpu::AdapterInfo,
    /// The limits runs plan with: the device's, less what
    /// `cap_binding` takes off.
    pub limits: wgpu::Limits,
    /// Timestamp queries work: kernel times are measured.
    pub timestamps: bool,
}

impl GpuContext {
    /// Opens the best adapter, software or not; `Ok(None)` when the machine
    /// has none (tests and benches, which run the kernels anywhere).
    pub fn open() -> Result<Option<GpuContext>> {
        find_adapter().map(GpuContext::from_adapter).transpose()
    }

    /// Opens `adapter`'s device and queue.
    pub fn from_adapter(found: Found) -> Result<GpuContext> {
        let Found { adapter, info } = found;
        let limits = adapter.limits();
        let planned = planned_limits(limits.clone())?;
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
            .map_err(|e| Error::Run(format!("could not open the GPU '{}': {e}", info.name)))?;
        Ok(GpuContext {
            device,
            queue,
            info,
            limits: planned,
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
}
