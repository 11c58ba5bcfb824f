//! The CPU backend: a twin of every kernel (same names, same structure) and
//! the general engine that is the reference for all of them.

pub mod arrows_level;
pub mod delete_level;
pub mod finish_block;
pub mod general;
pub mod graph_level;
pub mod heap_common;
pub mod options_below;
pub mod rect_level;
pub mod survey_block;
pub mod tuple_common;
