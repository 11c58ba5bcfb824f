//! The dense edge-game solver: every base-3 number over the edges, walked
//! level by level from the fullest (all edges marked) down, on the GPU
//! (`gpu::arrows`) or on the CPU twin (`kernel::arrows::arrows_level`).

use std::sync::atomic::AtomicU8;
use std::time::Instant;

use crate::backend::{Backend, Dual, Ran};
use crate::memory::check_fits;
use grundy_core::error::{Error, Result};
use grundy_core::game::arrows::ArrowGame;
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::arrows::ArrowKernel;
use grundy_core::kernel::arrows::arrows_level::arrows_level;
use grundy_gpu::{Runner, Unfit};

/// A dense run and how it went.
pub struct ArrowDenseRun {
    /// G of the start state (the outcome only, in the Game of Cycles).
    pub value: u8,
    /// Every byte (value + 1; 0 where the number is not a state), when kept.
    pub table: Option<Vec<u8>>,
    /// States in the table.
    pub states: u64,
    pub backend: Ran,
    pub seconds: f64,
}

/// Solves `game` from `start` with a dense table on `backend` (the GPU when
/// it can, else the CPU twin, with a notice saying why).
pub fn solve_dense(
    game: &ArrowGame,
    start: &[u8],
    backend: &Backend,
    keep_table: bool,
    hooks: &dyn RunHooks,
) -> Result<ArrowDenseRun> {
    let kern = ArrowKernel::new(game).map_err(Error::Input)?;
    let begin = Instant::now();
    let start = kern.index(start);
    let job = DenseJob {
        kern,
        start,
        keep_table,
        hooks,
    };
    let ((start_byte, table, states), ran) = crate::backend::run(&job, backend, hooks)?;
    Ok(ArrowDenseRun {
        value: start_byte - 1,
        table,
        states,
        backend: ran,
        seconds: begin.elapsed().as_secs_f64(),
    })
}

/// A dense table on either backend: (the start state's byte, the table
/// when kept, the states in it).
struct DenseJob<'a> {
    kern: ArrowKernel,
    start: u32,
    keep_table: bool,
    hooks: &'a dyn RunHooks,
}

impl Dual for DenseJob<'_> {
    type Output = (u8, Option<Vec<u8>>, u64);

    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit> {
        grundy_gpu::arrows::fits(runner, &self.kern)
    }

    fn on_gpu(&self, runner: &Runner) -> Result<Self::Output> {
        let run =
            grundy_gpu::arrows::dense(runner, &self.kern, self.start, self.keep_table, self.hooks)?;
        Ok((run.start_byte, run.table, run.states))
    }

    fn on_cpu(&self) -> Result<Self::Output> {
        let kern = &self.kern;
        check_fits(
            &format!("a dense table over {} edges", kern.edges),
            kern.table_bytes(),
        )?;
        let (table, states) = cpu_dense(kern, self.hooks);
        let start_byte = table[self.start as usize];
        Ok((start_byte, self.keep_table.then_some(table), states))
    }
}

/// The whole table on the CPU twin; returns it and how many states it holds.
pub fn cpu_dense(kern: &ArrowKernel, hooks: &dyn RunHooks) -> (Vec<u8>, u64) {
    let table: Vec<AtomicU8> = (0..kern.table_bytes()).map(|_| AtomicU8::new(0)).collect();
    let mut states = 0;
    let mut done = 0;
    for k in (0..=kern.edges).rev() {
        states += arrows_level(kern, &table, k);
        done += kern.level_size(k);
        hooks.progress(done);
    }
    (
        table.into_iter().map(AtomicU8::into_inner).collect(),
        states,
    )
}
