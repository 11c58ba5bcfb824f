//! The GPU backend: the wgpu device, the one runner every family runs
//! through, and one module per family with its buffers and dispatch plan.

pub mod arrows;
pub mod batch;
pub mod context;
pub mod graph;
pub mod heap;
pub mod levels;
pub mod rare;
pub mod runner;
pub mod survey;
pub mod tuples;

pub use context::GpuContext;
pub use runner::{GpuCounters, Runner, Unfit};
