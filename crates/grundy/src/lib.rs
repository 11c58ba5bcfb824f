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
pub mod graph_batch;
pub mod hunt;
pub mod misere;
pub mod misere_hunt;
pub mod misere_survey;
pub mod play;
pub mod quotient;
mod rare_blocks;
pub mod sequence;
pub mod spiders;
pub mod summary;
pub mod survey;
pub mod survey_parts;
pub mod tuples;

#[allow(deprecated)]
pub use edges::hackenbush_solved;
pub use edges::{EdgeGame, HackenbushValue, hackenbush, hackenbush_under};
pub use graph::{
    GraphGame, GraphValue, bipodes, bipodes_of, bipodes_with, podes, podes_of, podes_with,
};
pub use graph_batch::{GraphBatch, GraphBatchRows};
pub use hunt::{Hunt, HuntEnd, HuntRow, UNSOLVED};
pub use misere::{MisereSequence, MisereTable, SumsNeeded};
pub use play::{Position, play_sum};
pub use sequence::{Kept, Saves, Sequence, SequenceTable, Values};
pub use spiders::{SpiderTable, Spiders};
pub use summary::Summary;
pub use survey::{Survey, SurveyRows};
pub use survey_parts::{MergedSurvey, SurveyMerge};
pub use tuples::{TupleGame, TupleTable};

/// The library's version (semantic versioning: see docs/release.md, "Versions").
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit the library was built from: 12 hex digits of git's HEAD
/// (`+changes` when tracked files differed from it), or "unknown commit"
/// for a build outside the repository without a packaged commit.
pub const COMMIT: &str = env!("GRUNDY_COMMIT");

pub use grundy_core::interrupt::unwind_on_full_disk;
pub use grundy_core::{error, hooks};

/// The games the builders take: octal codes, graphs and their codes, the
/// rules of Delete Nim, rectangles and arrows, and the convention.
pub mod game {
    pub use grundy_core::game::{
        Code, Convention, Graph, GraphCode, arrows, delete_nim, graph, graph_code, graph_families,
        rect,
    };
}

/// What the builders' results hold beside values: periods, statistics,
/// milestones, rare values, genera, and the search over whole sums that
/// misère play rests on, with the bound on its size said before it starts.
pub mod analysis {
    pub use grundy_core::analysis::{
        genus, genus_stream, milestones, period, rare_split, stats, sum_bound, whole_sum,
    };
}

/// The text formats a table is written in, and the rules for its path.
pub mod export {
    pub use grundy_core::export::{Format, OutputRules};
}

/// The words of settings and flags that messages use (`--max` on the
/// command line, `max` from Rust), and a notice's marked text.
pub mod setting {
    pub use grundy_core::setting::{Marked, RustWords, Setting, Words, word};
}

/// What a front end (the command line, the Python module) needs beside
/// the builders: files written safely and read back, the process's
/// signals and exit status, output to a closed pipe, every setting's
/// words. Not for a program that only makes tables (feature `frontend`).
#[cfg(feature = "frontend")]
pub mod frontend {
    pub use grundy_core::{export, interrupt, out, outln, setting};
}

pub mod device;
pub mod memory;

pub use analysis::milestones::{Milestone, powers_of_two};
pub use error::{Error, Result};
pub use grundy_engine::edges::solve::{ArrowSolver, EdgeRun};
pub use grundy_engine::graph::solve::Solver;
pub use grundy_engine::heap::sequence::Algorithm;
pub use grundy_engine::survey::SurveyRow;
pub use grundy_engine::{BackendChoice, HeapEngine, Ran, RanOn};
pub use grundy_gpu::GpuCounters;
pub use hooks::{RunHooks, Silent};

/// The engine and GPU crates whole, and the kernels' contracts and CPU
/// twins, for the command line's `bench`, the tests and the benchmarks,
/// which time and check what the builders hide. Not the library's API: it
/// changes with the engine (feature `internals`).
#[cfg(feature = "internals")]
pub mod internals {
    pub use grundy_core as core;
    pub use grundy_core::kernel;
    pub use grundy_engine as engine;
    pub use grundy_gpu as gpu;
}
