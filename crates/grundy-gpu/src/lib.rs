//! The GPU backend: the wgpu device, the one runner every family runs
//! through, and one module per family with its buffers and dispatch plan.
//!
//! Without the `wgpu` feature (on by default) the same modules are
//! `absent`'s: a `Runner` that cannot be made, so the engine compiles
//! unchanged and every job runs on its CPU twin, without compiling wgpu.

pub mod batch;
pub mod outputs;

#[cfg(feature = "wgpu")]
pub mod arrows;
#[cfg(feature = "wgpu")]
pub mod context;
#[cfg(feature = "wgpu")]
pub mod genus;
#[cfg(feature = "wgpu")]
pub mod graph;
#[cfg(feature = "wgpu")]
pub mod heap;
#[cfg(feature = "wgpu")]
pub mod levels;
#[cfg(feature = "wgpu")]
pub mod rare;
#[cfg(feature = "wgpu")]
pub mod runner;
#[cfg(feature = "wgpu")]
pub mod survey;
#[cfg(feature = "wgpu")]
pub mod tuples;

#[cfg(not(feature = "wgpu"))]
mod absent;
#[cfg(not(feature = "wgpu"))]
pub use absent::{arrows, context, genus, graph, heap, rare, runner, survey, tuples};

pub use context::GpuContext;
pub use outputs::{GpuCounters, Unfit};
pub use runner::Runner;

/// Whether this build can open a GPU (the `wgpu` feature).
pub const WITH_WGPU: bool = cfg!(feature = "wgpu");
