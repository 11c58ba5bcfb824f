//! Level plans, tables and the drivers that walk levels on either backend.

pub mod arrows_dense;
pub mod arrows_memo;
pub mod checkpoint;
pub mod general;
pub mod graph_dense;
pub mod graph_memo;
pub mod graph_reach;
pub mod grid_levels;
pub mod hackenbush;
pub mod heap_table;
pub mod memory;
pub mod rare_values;
pub mod sequence;
pub mod tuple_table;

use std::time::Instant;

use crate::error::{Error, Result};
use crate::game::Code;
use crate::gpu::GpuContext;
use crate::gpu::heap::{GpuStats, GpuTuning};
use crate::kernel::heap::{self as heap_kernel, HeapKernelCode, MAX_BLOCK, plan_blocks};
pub use crate::kernel::{grid_2d, packed_words};

/// The backend the user asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendChoice {
    /// A real GPU when there is one, else the CPU (said on stderr); never a
    /// software adapter such as llvmpipe.
    Auto,
    /// The GPU, even a software adapter (said on stderr), or an error when there is none.
    Gpu,
    /// The CPU (rayon).
    Cpu,
}

/// An opened backend.
pub enum Backend {
    Cpu,
    Gpu(Box<GpuContext>),
}

impl Backend {
    /// Opens what `choice` asks for. `auto` takes a GPU only when it is a
    /// real device; with a software adapter alone (llvmpipe), or none, it
    /// runs on the CPU and `notice` says so in one line. `gpu` takes a
    /// software adapter too (that is how the kernels are tested) and says so.
    pub fn open(choice: BackendChoice, notice: &mut dyn FnMut(&str)) -> Result<Backend> {
        if choice == BackendChoice::Cpu {
            return Ok(Backend::Cpu);
        }
        let Some(adapter) = crate::gpu::context::find_adapter() else {
            if choice == BackendChoice::Gpu {
                return Err(Error::Input(
                    "--backend gpu: no GPU adapter found (Vulkan, Metal or DX12); install the \
                     GPU's driver, or use --backend cpu"
                        .into(),
                ));
            }
            notice("no GPU found; running on the CPU");
            return Ok(Backend::Cpu);
        };
        let info = adapter.get_info();
        let software = crate::gpu::context::is_software(&info);
        if software && choice == BackendChoice::Auto {
            notice(&format!(
                "only a software GPU ({}) here; running on the CPU backend, which is faster",
                info.name
            ));
            return Ok(Backend::Cpu);
        }
        match GpuContext::from_adapter(adapter) {
            Ok(ctx) => {
                if software {
                    notice(&format!(
                        "{} is a software adapter (the CPU emulating a GPU): right values, \
                         slower than --backend cpu",
                        info.name
                    ));
                }
                Ok(Backend::Gpu(Box::new(ctx)))
            }
            Err(e) if choice == BackendChoice::Gpu => Err(Error::Run(e)),
            Err(e) => {
                notice(&format!("{e}; running on the CPU"));
                Ok(Backend::Cpu)
            }
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu(_) => "gpu",
        }
    }

    pub fn adapter(&self) -> Option<String> {
        match self {
            Backend::Cpu => None,
            Backend::Gpu(ctx) => Some(ctx.adapter_name()),
        }
    }
}

/// A backend opened the first time work needs it: a run that never leaves
/// the CPU (rare values, a table filled from its period) never probes for a
/// GPU, which costs tens of milliseconds even when none is there.
pub struct LazyBackend {
    choice: BackendChoice,
    quiet: bool,
    opened: std::cell::OnceCell<Backend>,
}

impl LazyBackend {
    /// `--backend gpu` opens at once: its errors come before any work.
    pub fn new(choice: BackendChoice, quiet: bool) -> Result<LazyBackend> {
        let lazy = LazyBackend {
            choice,
            quiet,
            opened: std::cell::OnceCell::new(),
        };
        if choice != BackendChoice::Auto {
            lazy.get()?;
        }
        Ok(lazy)
    }

    /// The CPU backend, already open.
    pub fn cpu() -> LazyBackend {
        LazyBackend {
            choice: BackendChoice::Cpu,
            quiet: true,
            opened: std::cell::OnceCell::from(Backend::Cpu),
        }
    }

    /// The backend, opened now if it was not yet.
    pub fn get(&self) -> Result<&Backend> {
        if let Some(backend) = self.opened.get() {
            return Ok(backend);
        }
        let quiet = self.quiet;
        let backend = Backend::open(self.choice, &mut |m| {
            if !quiet {
                eprintln!("grundy: {m}");
            }
        })?;
        Ok(self.opened.get_or_init(|| backend))
    }

    /// The backend if some work opened it.
    pub fn opened(&self) -> Option<&Backend> {
        self.opened.get()
    }
}

/// Which engine computed a heap table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HeapEngine {
    /// The blocked kernels (GPU, or their CPU twins).
    Blocked,
    /// The general CPU engine (codes that leave three or more heaps).
    General,
    /// The rare-value (sparse space) algorithm (CPU, or the survey kernel's rare mode).
    Rare,
}

/// A heap table extended by one call, with how it was made.
pub struct HeapRun {
    pub table: Vec<u16>,
    pub engine: HeapEngine,
    /// "gpu" or "cpu": where the values were computed.
    pub backend: &'static str,
    pub gpu: GpuStats,
    pub seconds: f64,
}

/// The largest heap a table may reach (u32 heap indices on the GPU).
pub const MAX_HEAP: u64 = (1 << 31) - 1;

/// Extends `table` (values of heaps below its length) to heaps `0..=to`,
/// or fewer when `stop()` says so between blocks (the table then ends at
/// the last finished block). Codes the heap kernels handle run blocked on
/// `backend`; the others run on the general CPU engine, and `notice` says
/// so when a GPU was open.
#[allow(clippy::too_many_arguments)] // the run's three callbacks: notice, progress, stop
pub fn extend_heap_table(
    code: &Code,
    table: Vec<u16>,
    to: u64,
    backend: &Backend,
    tuning: &GpuTuning,
    notice: &mut dyn FnMut(&str),
    progress: &dyn Fn(u64),
    stop: &dyn Fn() -> bool,
) -> Result<HeapRun> {
    if to > MAX_HEAP {
        return Err(Error::Input(format!(
            "-n {to} is too large; expected at most {MAX_HEAP}"
        )));
    }
    memory::check_fits(
        &format!("a table of {} values", to + 1),
        memory::heap_table_bytes(to + 1),
    )?;
    let start = Instant::now();
    if table.len() as u64 > to {
        let mut table = table;
        table.truncate(to as usize + 1);
        return Ok(HeapRun {
            table,
            engine: HeapEngine::Blocked,
            backend: backend.name(),
            gpu: GpuStats::default(),
            seconds: 0.0,
        });
    }
    let kernel_code = match HeapKernelCode::new(code) {
        Ok(k) => k,
        Err(why) => {
            if matches!(backend, Backend::Gpu(_)) {
                notice(&format!("{why}; running on the general CPU engine"));
            }
            return general_run(code, to, progress, stop);
        }
    };
    let gpu_ctx = match backend {
        Backend::Gpu(ctx) => {
            match crate::gpu::heap::block_limit(ctx, &kernel_code, to as u32, tuning) {
                Ok(_) => Some(ctx),
                Err(why) => {
                    notice(&format!("{why}; running the same kernels on the CPU"));
                    None
                }
            }
        }
        Backend::Cpu => None,
    };
    let (table, gpu, name) = match gpu_ctx {
        None => (
            cpu_blocked_until(&kernel_code, table, to as u32, progress, stop)?,
            GpuStats::default(),
            "cpu",
        ),
        Some(ctx) => {
            let (t, stats) = crate::gpu::heap::extend(
                ctx,
                &kernel_code,
                &table,
                to as u32,
                tuning,
                progress,
                stop,
            )
            .map_err(Error::Run)?;
            (t, stats, "gpu")
        }
    };
    Ok(HeapRun {
        table,
        engine: HeapEngine::Blocked,
        backend: name,
        gpu,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Heaps `0..=to` on the general engine (codes leaving three or more heaps).
fn general_run(
    code: &Code,
    to: u64,
    progress: &dyn Fn(u64),
    stop: &dyn Fn() -> bool,
) -> Result<HeapRun> {
    let start = Instant::now();
    // It starts from heap 0 on every call, so only Ctrl-C stops it early: a
    // checkpoint's timer would make it redo the same heaps forever.
    let interrupted = || stop() && crate::interrupt::requested();
    let table = general::sequence_until(code, to, progress, &interrupted).map_err(Error::Input)?;
    Ok(HeapRun {
        table,
        engine: HeapEngine::General,
        backend: "cpu",
        gpu: GpuStats::default(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The blocked scheme on the CPU: the CPU twins of the two kernels, block
/// after block, with the same widening rule as the GPU.
pub fn cpu_blocked(
    code: &HeapKernelCode,
    table: Vec<u16>,
    to: u32,
    progress: &dyn Fn(u64),
) -> Result<Vec<u16>> {
    cpu_blocked_until(code, table, to, progress, &|| false)
}

/// Option reads per CPU block, about: past a million heaps the GPU's block
/// of 2048 heaps would keep one CPU block (and so a Ctrl-C, or a due
/// checkpoint) waiting for seconds.
const CPU_BLOCK_WORK: u64 = 1 << 29;

/// The GPU's blocks, each cut into pieces of at most `CPU_BLOCK_WORK`
/// option reads (a block may start anywhere the table below it is known).
fn cpu_blocks(from: u32, to: u32) -> Vec<heap_kernel::Block> {
    let mut blocks = Vec::new();
    for blk in plan_blocks(from, to, MAX_BLOCK) {
        let cap = (CPU_BLOCK_WORK / (blk.s as u64).max(1)).clamp(64, MAX_BLOCK as u64) as u32;
        let mut s = blk.s;
        while s < blk.s + blk.b {
            let b = cap.min(blk.s + blk.b - s);
            blocks.push(heap_kernel::Block { s, b });
            s += b;
        }
    }
    blocks
}

/// As `cpu_blocked`, ending after the block during which `stop()` said so.
pub fn cpu_blocked_until(
    code: &HeapKernelCode,
    mut table: Vec<u16>,
    to: u32,
    progress: &dyn Fn(u64),
    stop: &dyn Fn() -> bool,
) -> Result<Vec<u16>> {
    use crate::kernel::heap::finish_block::{Halt, finish_block};
    let from = table.len() as u32;
    let mut max_value = table.iter().copied().max().unwrap_or(0) as u32;
    table.resize(to as usize + 1, 0);
    let mut min_words = 1;
    let blocks = cpu_blocks(from, to);
    let mut next = 0;
    while next < blocks.len() {
        let blk = blocks[next];
        let words = crate::kernel::heap::common::capacity_words(max_value, min_words);
        let below = crate::kernel::heap::options_below::options_below(code, &table, blk, words);
        match finish_block(code, &mut table, blk, words, &below) {
            Ok(block_max) => {
                max_value = max_value.max(block_max);
                next += 1;
                progress((blk.s + blk.b) as u64);
                if next < blocks.len() && stop() {
                    table.truncate((blk.s + blk.b) as usize);
                    return Ok(table);
                }
            }
            Err(Halt::TooNarrow { words, .. }) => min_words = words,
            Err(Halt::ValueTooLarge { n }) => {
                return Err(Error::Run(format!(
                    "G({n}) is larger than 65535, the most a u16 table holds"
                )));
            }
        }
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_blocks_tile_the_heaps_and_shrink_past_a_million() {
        let blocks = cpu_blocks(5, 3_000_000);
        assert_eq!(blocks[0].s, 5);
        for pair in blocks.windows(2) {
            assert_eq!(pair[0].s + pair[0].b, pair[1].s, "contiguous");
        }
        let last = blocks.last().unwrap();
        assert_eq!(last.s + last.b, 3_000_001);
        for blk in &blocks {
            // a piece starts at most one GPU block past where its cap was set
            assert!(blk.b <= MAX_BLOCK);
            assert!(blk.s as u64 * blk.b as u64 <= 2 * CPU_BLOCK_WORK, "{blk:?}");
        }
        assert!(
            blocks
                .iter()
                .any(|blk| blk.b < MAX_BLOCK && blk.s > 1_000_000)
        );
    }
}
