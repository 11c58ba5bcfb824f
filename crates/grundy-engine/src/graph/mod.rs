//! Octal codes on graphs: the dense table over every vertex subset, the
//! memo solver over canonical pieces (level by level for grids), the
//! positions reachable from the whole graph, batches of graphs, and which
//! solver runs.

pub mod batch;
pub mod dense;
pub mod driver;
pub mod estimate;
pub mod families;
pub mod grid_levels;
pub mod memo;
pub mod reach;
pub mod solve;
