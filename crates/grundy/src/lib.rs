//! grundy: Sprague–Grundy tables in bulk, on the GPU (wgpu) with a CPU twin
//! of every kernel, as a library: one builder per family, each running
//! what the matching command runs and returning the table to read instead
//! of printing it. Progress, notices and stopping go through one
//! `RunHooks` value. The chapter below (docs/library.md) is its guide; its
//! examples run as doctests.
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod edges;
#[doc(hidden)]
pub mod fuzz;
pub mod graph;
pub mod hunt;
pub mod play;
pub mod sequence;
pub mod summary;
pub mod survey;
pub mod tuples;

pub use edges::{EdgeGame, HackenbushValue, hackenbush, hackenbush_solved};
pub use graph::{GraphGame, GraphValue, bipodes, bipodes_with, podes, podes_with};
pub use hunt::{Hunt, HuntEnd, HuntRow, UNSOLVED};
pub use play::{Position, play_sum};
pub use sequence::{Kept, Saves, Sequence, SequenceTable, Values};
pub use summary::Summary;
pub use survey::{Survey, SurveyRows};
pub use tuples::{TupleGame, TupleTable};

/// The library's version (semantic versioning: see the README's "Versions").
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit the library was built from: 12 hex digits of git's HEAD
/// (`+changes` when tracked files differed from it), or "unknown commit"
/// for a build outside the repository without a packaged commit.
pub const COMMIT: &str = env!("GRUNDY_COMMIT");

// The layers below, for programs that need more than the builders (and for
// the command line, the tests and the benchmarks).
pub use grundy_core::{
    analysis, error, export, game, hooks, input, interrupt, kernel, out, outln, setting,
};
pub use grundy_engine as engine;
pub use grundy_gpu as gpu;

pub use analysis::milestones::{Milestone, powers_of_two};
pub use engine::edges::solve::{ArrowSolver, EdgeRun};
pub use engine::graph::solve::Solver;
pub use engine::heap::sequence::Algorithm;
pub use engine::survey::SurveyRow;
pub use engine::{BackendChoice, HeapEngine};
pub use error::{Error, Result};
pub use hooks::{RunHooks, Silent};
