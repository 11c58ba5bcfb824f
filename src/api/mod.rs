//! The library: one builder per family, each running what the matching
//! command runs and returning the table to read instead of printing it.
//! Progress, notices and stopping go through one `RunHooks` value. The
//! chapter below (docs/library.md) is its guide; its examples run as
//! doctests.
#![doc = include_str!("../../docs/library.md")]

pub mod edges;
pub mod graph;
pub mod sequence;
pub mod survey;
pub mod tuples;

pub use edges::EdgeGame;
pub use graph::{GraphGame, GraphValue};
pub use sequence::{Sequence, SequenceTable};
pub use survey::{Survey, SurveyRows};
pub use tuples::{TupleGame, TupleTable};
