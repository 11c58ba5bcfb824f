//! grundy: Sprague–Grundy tables in bulk, on the GPU (wgpu) with a CPU twin
//! of every kernel.

pub mod analysis;
pub mod api;
pub mod bench;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod error;
pub mod export;
pub mod game;
pub mod gpu;
pub mod hooks;
pub mod input;
pub mod interrupt;
pub mod kernel;
pub mod plot;

pub use api::{
    EdgeGame, GraphGame, GraphValue, Sequence, SequenceTable, Survey, SurveyRows, TupleGame,
    TupleTable,
};
pub use engine::edges::solve::{ArrowSolver, EdgeRun};
pub use engine::graph::solve::Solver;
pub use engine::heap::sequence::Algorithm;
pub use engine::survey::SurveyRow;
pub use engine::{BackendChoice, HeapEngine};
pub use error::{Error, Result};
pub use hooks::{RunHooks, Silent};
