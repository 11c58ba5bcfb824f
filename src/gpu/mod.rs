//! The GPU backend: wgpu context, buffers and one module per shader family.

pub mod arrows;
pub mod context;
pub mod graph;
pub mod heap;
pub mod levels;
#[cfg(test)]
mod shader_check;
pub mod survey;
pub mod timer;
pub mod tuples;

pub use context::GpuContext;
