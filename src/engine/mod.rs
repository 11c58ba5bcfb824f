//! Level plans, tables and the drivers that walk levels on either backend.

pub mod arrows_dense;
pub mod arrows_memo;
pub mod backend;
pub mod checkpoint;
pub mod escaped;
pub mod filled;
pub mod general;
pub mod graph_batch;
pub mod graph_dense;
pub mod graph_memo;
pub mod graph_reach;
pub mod graph_solve;
pub mod grid_levels;
pub mod growing;
pub mod hackenbush;
pub mod heap_run;
pub mod heap_table;
pub mod memory;
pub mod paged;
pub mod rare_values;
pub mod sequence;
pub mod sequence_driver;
pub mod simd;
pub mod store;
pub mod survey;
pub mod survey_checkpoint;
pub mod survey_driver;
pub mod tuple_table;
pub mod wide_bits;
pub mod wide_scan;

pub use backend::{Backend, BackendChoice, LazyBackend, Ran, RanOn};
pub use heap_run::{HeapEngine, HeapRun, MAX_BRUTE_HEAP, MAX_HEAP, cpu_blocked, extend_heap_table};
