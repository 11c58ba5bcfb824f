//! Games whose positions are tuples of numbers (Grundy's game on
//! rectangles, Delete Nim and its rules): their tables level by level.

pub mod rect_sums;
pub mod table;
