//! What the GPU paths take and hand back: knobs, counters, results and
//! reasons. Compiled with or without wgpu, so the engine names the same
//! types in a CPU-only build (`absent`), where no GPU path ever runs.

use grundy_core::error::Error;
use grundy_core::kernel::heap::{HEAD_HEAPS, MAX_BLOCK};
use grundy_core::kernel::rare::PassParams;
use grundy_core::kernel::tuples::common::Overflow;

/// What a run asked of the GPU (the JSON summary's `gpu` object).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct GpuCounters {
    /// Compute pipelines compiled: once per entry point per run.
    pub pipelines_built: u64,
    /// Command buffers submitted.
    pub submits: u64,
    /// Bytes written to the device (buffer contents and parameters).
    pub bytes_uploaded: u64,
    /// Bytes copied back to the host (values and status words).
    pub bytes_read_back: u64,
    /// Kernel time from timestamp queries (0 when the adapter has none).
    #[serde(skip)]
    pub kernel_seconds: f64,
    /// Blocks of one sequence in flight at once at most: the one the host
    /// finishes and the passes launched ahead of it (0: no pipeline ran).
    pub blocks_in_flight_max: u64,
    /// Read-backs the host had to wait for (the card not done yet), and
    /// the seconds it waited.
    pub host_waits: u64,
    pub host_wait_seconds: f64,
    /// Seconds the card sat idle between two pipelined passes, waiting on
    /// the host (from timestamps; 0 when the adapter has none).
    pub card_idle_seconds: f64,
}

impl GpuCounters {
    /// What was asked of the GPU since `before` (the most in flight is
    /// the largest seen, not a difference).
    pub fn since(self, before: GpuCounters) -> GpuCounters {
        GpuCounters {
            pipelines_built: self.pipelines_built - before.pipelines_built,
            submits: self.submits - before.submits,
            bytes_uploaded: self.bytes_uploaded - before.bytes_uploaded,
            bytes_read_back: self.bytes_read_back - before.bytes_read_back,
            kernel_seconds: self.kernel_seconds - before.kernel_seconds,
            blocks_in_flight_max: self.blocks_in_flight_max,
            host_waits: self.host_waits - before.host_waits,
            host_wait_seconds: self.host_wait_seconds - before.host_wait_seconds,
            card_idle_seconds: self.card_idle_seconds - before.card_idle_seconds,
        }
    }
}

/// Why this adapter cannot run a job (the twin runs it instead, and the
/// user is told why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unfit(pub String);

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Knobs that tests turn to reach the paths big runs take: value chunks
/// smaller than a binding, and 2D dispatch folding.
#[derive(Clone, Copy, Debug)]
pub struct GpuTuning {
    /// log2 of the words per value chunk (`None`: as large as a binding allows).
    pub chunk_shift: Option<u32>,
    /// Workgroups per dispatch row (the device allows 65535).
    pub max_groups_x: u32,
    /// Heaps per block (at most `MAX_BLOCK`).
    pub max_block: u32,
    /// Heaps finish_block keeps in workgroup memory (at most `HEAD_HEAPS`;
    /// fewer in tests, to reach its reads past them on short blocks).
    pub head_heaps: u32,
}

impl Default for GpuTuning {
    fn default() -> Self {
        GpuTuning {
            chunk_shift: None,
            max_groups_x: 65535,
            max_block: MAX_BLOCK,
            head_heaps: HEAD_HEAPS,
        }
    }
}

/// What a heap run did besides its values.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeapStats {
    /// Blocks redone with a wider bitset after their values outgrew it.
    pub widenings: u32,
}

/// What one block's pass found: per heap `words` u32 of marks then of
/// missing values (`sets`), and c′ and the pairs read (`results`).
pub struct PassOutput {
    pub sets: Vec<u32>,
    pub results: Vec<u32>,
}

/// A pass launched on the card and not yet collected: its parameters.
pub struct Launched {
    pub params: PassParams,
    #[cfg_attr(not(feature = "wgpu"), allow(dead_code))]
    pub(crate) id: u64,
}

impl Launched {
    /// The block's first heap, and the heap past its last.
    pub fn first(&self) -> usize {
        self.params.first as usize
    }
    pub fn end(&self) -> usize {
        (self.params.first + self.params.count) as usize
    }
}

/// The table the pass reads: its length, and its values a..b (a even) two
/// to a word as the card holds them (`kernel::pack_u16`).
pub struct Table<'t> {
    pub len: usize,
    pub pack: &'t dyn Fn(usize, usize) -> Vec<u32>,
}

impl Table<'_> {
    /// `pack` for the values of a slice.
    pub fn pack_slice<T: Copy + Into<u32>>(g: &[T]) -> impl Fn(usize, usize) -> Vec<u32> + '_ {
        move |a, b| grundy_core::kernel::pack_u16(&g[a..b])
    }
}

/// Why a GPU run stopped.
pub enum Failure {
    /// A value passed what the table holds (the driver names the position).
    Overflow(Overflow),
    Device(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Device(e)
    }
}

/// A dense table computed on the GPU.
pub struct GpuGraphRun {
    /// Every subset's value, when asked for.
    pub table: Option<Vec<u8>>,
    /// The value of the whole graph.
    pub value: u8,
}

/// A dense edge-game table computed on the GPU.
pub struct GpuArrowRun {
    /// Every byte (value + 1, 0 for non-states), when asked for.
    pub table: Option<Vec<u8>>,
    /// The byte of the start state.
    pub start_byte: u8,
    pub states: u64,
}
