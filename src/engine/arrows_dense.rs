//! The dense edge-game solver: every base-3 number over the edges, walked
//! level by level from the fullest (all edges marked) down, on the GPU
//! (`gpu::arrows`) or on the CPU twin (`kernel::arrows::arrows_level`).

use std::sync::atomic::AtomicU8;
use std::time::Instant;

use super::Backend;
use super::memory::check_fits;
use crate::error::{Error, Result};
use crate::game::arrows::ArrowGame;
use crate::gpu::heap::GpuStats;
use crate::kernel::arrows::ArrowKernel;
use crate::kernel::arrows::arrows_level::arrows_level;

/// A dense run and how it went.
pub struct ArrowDenseRun {
    /// G of the start state (the outcome only, in the Game of Cycles).
    pub value: u8,
    /// Every byte (value + 1; 0 where the number is not a state), when kept.
    pub table: Option<Vec<u8>>,
    /// States in the table.
    pub states: u64,
    pub backend: &'static str,
    pub seconds: f64,
    pub gpu: GpuStats,
}

/// Solves `game` from `start` with a dense table on `backend` (the GPU when
/// it can, else the CPU twin, with `notice` saying why).
pub fn solve_dense(
    game: &ArrowGame,
    start: &[u8],
    backend: &Backend,
    keep_table: bool,
    notice: &mut dyn FnMut(&str),
    progress: &dyn Fn(u64),
) -> Result<ArrowDenseRun> {
    let kern = ArrowKernel::new(game).map_err(Error::Input)?;
    let begin = Instant::now();
    let start_index = kern.index(start);
    if let Backend::Gpu(ctx) = backend {
        match crate::gpu::arrows::plan(ctx, &kern) {
            Ok(()) => {
                let run = crate::gpu::arrows::dense(ctx, &kern, start_index, keep_table, progress)
                    .map_err(Error::Run)?;
                return Ok(ArrowDenseRun {
                    value: run.start_byte - 1,
                    table: run.table,
                    states: run.states,
                    backend: "gpu",
                    seconds: begin.elapsed().as_secs_f64(),
                    gpu: run.stats,
                });
            }
            Err(why) => notice(&format!("{why}; running the CPU twin")),
        }
    }
    check_fits(
        &format!("a dense table over {} edges", kern.edges),
        kern.table_bytes(),
    )?;
    let (table, states) = cpu_dense(&kern, progress);
    Ok(ArrowDenseRun {
        value: table[start_index as usize] - 1,
        table: keep_table.then_some(table),
        states,
        backend: "cpu",
        seconds: begin.elapsed().as_secs_f64(),
        gpu: GpuStats::default(),
    })
}

/// The whole table on the CPU twin; returns it and how many states it holds.
pub fn cpu_dense(kern: &ArrowKernel, progress: &dyn Fn(u64)) -> (Vec<u8>, u64) {
    let table: Vec<AtomicU8> = (0..kern.table_bytes()).map(|_| AtomicU8::new(0)).collect();
    let mut states = 0;
    let mut done = 0;
    for k in (0..=kern.edges).rev() {
        states += arrows_level(kern, &table, k);
        done += kern.level_size(k);
        progress(done);
    }
    (
        table.into_iter().map(AtomicU8::into_inner).collect(),
        states,
    )
}
