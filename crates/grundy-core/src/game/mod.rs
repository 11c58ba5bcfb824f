//! Rulesets: what a position is and what its options are.

pub mod code;
pub mod convention;

pub use code::{Code, CodeError, Digit, Modifier};
pub use convention::Convention;
pub mod arrows;
pub mod connected_sets;
pub mod graph;
pub mod graph_code;
pub mod graph_families;

pub use graph::Graph;
pub use graph_code::GraphCode;
pub mod delete_nim;
pub mod rect;

/// The most heaps (or dimensions) a tuple game may have: the tuple kernels
/// keep a tuple in private arrays of this length.
pub const MAX_HEAPS: usize = 8;
