//! Heap tables extended block by block: the heap kernels on the GPU or
//! their CPU twins, or the general engine for codes the kernels cannot run.

use crate::heap::bounds::{Reach, check_last_heap};
use grundy_core::setting::Marked;
use std::time::Instant;

use crate::backend::{Backend, Dual, Ran};
use crate::heap::brute::general;
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::{NoStop, RunHooks, StopAlso};
use grundy_core::kernel::heap::{self as heap_kernel, HeapKernelCode, MAX_BLOCK, plan_blocks};
use grundy_gpu::heap::GpuTuning;
use grundy_gpu::{Runner, Unfit};

/// Which engine computed a heap table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HeapEngine {
    /// The blocked kernels (GPU, or their CPU twins).
    Blocked,
    /// The general CPU engine (codes that leave three or more heaps).
    General,
    /// The rare-value (sparse space) algorithm (CPU, or the survey kernel's rare mode).
    Rare,
}

impl HeapEngine {
    /// The engine in words, as the summary of a sequence says it.
    pub fn describe(self) -> &'static str {
        match self {
            HeapEngine::Rare => "rare values",
            HeapEngine::Blocked => "blocked brute force",
            HeapEngine::General => "general engine",
        }
    }
}

/// A heap table extended by one call, with how it was made.
pub struct HeapRun {
    pub table: Vec<u16>,
    pub engine: HeapEngine,
    /// Where the values were computed.
    pub backend: Ran,
    pub seconds: f64,
}

/// Extends `table` (values of heaps below its length) to heaps `0..=to`,
/// or fewer when `hooks.stop()` says so between blocks (the table then ends
/// at the last finished block). Codes the heap kernels handle run blocked
/// on `backend`; the others run on the general CPU engine, and a notice
/// says so when a GPU was open. The caller has checked that the table fits
/// in memory (`SequenceRun::extend` does, once per run).
pub fn extend_heap_table(
    code: &Code,
    table: Vec<u16>,
    to: u64,
    backend: &Backend,
    tuning: &GpuTuning,
    hooks: &dyn RunHooks,
) -> Result<HeapRun> {
    check_last_heap("heap", to, Reach::BruteForce)?;
    let start = Instant::now();
    if table.len() as u64 > to {
        let mut table = table;
        table.truncate(to as usize + 1);
        return Ok(HeapRun {
            table,
            engine: HeapEngine::Blocked,
            backend: backend.ran(),
            seconds: 0.0,
        });
    }
    let kernel_code = match HeapKernelCode::new(code) {
        Ok(k) => k,
        Err(why) => {
            if matches!(backend, Backend::Gpu(_)) {
                hooks.notice(Marked(&format!("{why}; running on the general CPU engine")));
            }
            return general_run(code, to, hooks);
        }
    };
    let job = BlockedJob {
        code: &kernel_code,
        table: std::cell::Cell::new(table),
        to: to as u32,
        tuning,
        hooks,
    };
    let (table, ran) = crate::backend::run(&job, backend, hooks)?;
    Ok(HeapRun {
        table,
        engine: HeapEngine::Blocked,
        backend: ran,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The blocked scheme on either backend: extend `table` to heap `to`.
struct BlockedJob<'a> {
    code: &'a HeapKernelCode,
    table: std::cell::Cell<Vec<u16>>,
    to: u32,
    tuning: &'a GpuTuning,
    hooks: &'a dyn RunHooks,
}

impl Dual for BlockedJob<'_> {
    type Output = Vec<u16>;

    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit> {
        let values = self.to as u64 + 1;
        grundy_gpu::heap::chunk_shift_for(runner, values, self.tuning)?;
        grundy_gpu::heap::block_limit(runner, self.code, self.to, self.tuning).map(|_| ())
    }

    fn on_gpu(&self, runner: &Runner) -> Result<Vec<u16>> {
        let table = self.table.take();
        let run =
            grundy_gpu::heap::extend(runner, self.code, &table, self.to, self.tuning, self.hooks);
        Ok(run?.0)
    }

    fn on_cpu(&self) -> Result<Vec<u16>> {
        cpu_blocked(self.code, self.table.take(), self.to, self.hooks)
    }
}

/// Heaps `0..=to` on the general engine (codes leaving three or more heaps).
fn general_run(code: &Code, to: u64, hooks: &dyn RunHooks) -> Result<HeapRun> {
    let start = Instant::now();
    // It starts from heap 0 on every call, so only the caller's cancel (a
    // signal, Ctrl-C in Python) stops it early: a checkpoint's timer would
    // make it redo the same heaps forever. `stop` is asked first, so that a
    // driver hears its caller asked.
    let interrupted = StopAlso {
        hooks: &NoStop(hooks),
        also: || hooks.stop() && hooks.cancelled(),
    };
    let table = general::sequence(code, to, &interrupted).map_err(Error::Input)?;
    Ok(HeapRun {
        table,
        engine: HeapEngine::General,
        backend: Ran::Cpu,
        seconds: start.elapsed().as_secs_f64(),
    })
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

/// The blocked scheme on the CPU: the CPU twins of the two kernels, block
/// after block, with the same widening rule as the GPU; it ends after the
/// block during which `hooks.stop()` said so.
pub fn cpu_blocked(
    code: &HeapKernelCode,
    mut table: Vec<u16>,
    to: u32,
    hooks: &dyn RunHooks,
) -> Result<Vec<u16>> {
    use grundy_core::kernel::heap::finish_block::{Halt, finish_block};
    let from = table.len() as u32;
    let mut max_value = table.iter().copied().max().unwrap_or(0) as u32;
    table.resize(to as usize + 1, 0);
    let mut min_words = 1;
    let blocks = cpu_blocks(from, to);
    let mut next = 0;
    while next < blocks.len() {
        let blk = blocks[next];
        let words = grundy_core::kernel::heap::common::capacity_words(max_value, min_words);
        let below =
            grundy_core::kernel::heap::options_below::options_below(code, &table, blk, words);
        match finish_block(code, &mut table, blk, words, &below) {
            Ok(block_max) => {
                max_value = max_value.max(block_max);
                next += 1;
                hooks.progress((blk.s + blk.b) as u64);
                if next < blocks.len() && hooks.stop() {
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
