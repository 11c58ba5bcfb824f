//! Rulesets: what a position is and what its options are.

pub mod code;

pub use code::{Code, CodeError, Digit, Modifier};
pub mod arrows;
pub mod graph;
pub mod graph_code;

pub use graph::Graph;
pub use graph_code::GraphCode;
pub mod delete_nim;
pub mod rect;
