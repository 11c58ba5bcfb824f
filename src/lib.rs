//! grundy: Sprague–Grundy tables in bulk, on the GPU (wgpu) with a CPU twin
//! of every kernel.

pub mod analysis;
pub mod bench;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod export;
pub mod game;
pub mod gpu;
pub mod input;
pub mod interrupt;
pub mod kernel;
pub mod plot;
