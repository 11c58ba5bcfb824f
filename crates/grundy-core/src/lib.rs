//! grundy-core: the rules of every game, the kernels' contracts (their
//! parameters, plans, WGSL sources and CPU twins), the analysis of tables
//! (periods, rare splits, statistics), output formats and the run context.
//! No GPU and no command line here: `grundy-gpu` runs the kernels on a
//! device, `grundy-engine` drives them, `grundy` is the library users call.

pub mod analysis;
pub mod error;
pub mod export;
pub mod fast_map;
pub mod fault;
pub mod game;
pub mod hooks;
pub mod input;
pub mod interrupt;
pub mod kernel;
pub mod setting;
