//! The GPU backend: wgpu context, buffers and one module per shader family.

pub mod context;
pub mod heap;

pub use context::GpuContext;
