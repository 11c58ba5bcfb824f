//! The drivers: the backend choice and memory limits, then one folder per
//! family, as in the kernels (and the core's `fast_map`, the hash map
//! the graph and edge memos share): heap sequences (`heap`, rare values in
//! `heap::rare`), games on graphs (`graph`), edge games (`edges`), tuple
//! games (`tuples`) and surveys of many codes (`survey`); and who wins a
//! sum of positions, with its winning moves (`play`).

pub mod backend;
pub mod edges;
pub mod graph;
pub mod heap;
pub mod memory;
pub mod misere_heaps;
pub mod play;
pub mod survey;
pub mod tuples;

pub use backend::{Backend, BackendChoice, GpuFrom, LazyBackend, Ran, RanOn};
pub use heap::bounds::{MAX_BRUTE_HEAP, MAX_HEAP};
pub use heap::brute::blocked::{HeapEngine, HeapRun, cpu_blocked, extend_heap_table};
