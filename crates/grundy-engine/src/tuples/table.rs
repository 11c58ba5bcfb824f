//! The driver for games over ranked tuples (rectangles and boxes, Delete Nim
//! rules): levels by total, walked on the GPU (`gpu::tuples`) or on the CPU
//! twins (`kernel::tuples::rect_level`, `kernel::tuples::delete_level`).

use grundy_core::game::Convention;
use grundy_core::setting::{Marked, Setting};
use std::sync::atomic::AtomicU32;
use std::time::Instant;

use crate::backend::{Backend, Dual, Ran};
use crate::memory::{check_fits, human};
use crate::tuples::rect_sums;
use grundy_core::error::{Error, Result};
use grundy_core::game::delete_nim::DeleteNim;
use grundy_core::game::rect::Rect;
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::tuples::common::Overflow;
use grundy_core::kernel::tuples::delete_level::{delete_level, split_sets_level};
use grundy_core::kernel::tuples::rect_level::rect_level;
use grundy_core::kernel::tuples::{LevelPlan, MAX_VALUE, TupleKernel, TupleRule, VALUE_WORDS};
use grundy_gpu::{Runner, Unfit};

/// The kernel of Grundy's game on `dims`-dimensional boxes with sides up
/// to `max`, the pieces along a cut differing by at least `min_diff`.
pub fn rect_kernel(dims: usize, min_diff: u32, max: u32) -> Result<TupleKernel> {
    let rect = Rect::new(dims, min_diff).map_err(Error::Input)?;
    check_max(max, 1)?;
    TupleKernel::rect(rect, max).map_err(Error::Input)
}

/// The kernel of `game` (Delete Nim under a rule) with heaps up to `max`
/// (its sizes shifted by `game.shift()` where heaps may be empty).
pub fn delete_nim_kernel(game: DeleteNim, max: u32) -> Result<TupleKernel> {
    check_max(max, 1 - game.shift())?;
    TupleKernel::delete_nim(game, max, true).map_err(Error::Input)
}

fn check_max(max: u32, least: u32) -> Result<()> {
    if max < least {
        return Err(Error::Input(format!(
            "{}: expected at least {least}",
            Setting::Max.is(max)
        )));
    }
    Ok(())
}

/// A whole table and how it was made.
pub struct TupleRun {
    /// `table[rank]` = G of the tuple of that rank.
    pub table: Vec<u32>,
    pub backend: Ran,
    pub seconds: f64,
    /// Misère rectangles: the sums searched whole (counted first).
    pub sums: Option<usize>,
}

/// Host bytes a run needs: the kernel's tables, the table read back, and
/// the level lists while they are built.
pub fn host_bytes(kern: &TupleKernel) -> u64 {
    kern.table_bytes() + kern.space.count() * 8
}

/// Computes the whole table of `kern` on `backend` (the GPU when it can,
/// else the CPU twins, with a notice saying why).
pub fn solve(kern: &TupleKernel, backend: &Backend, hooks: &dyn RunHooks) -> Result<TupleRun> {
    check_fits(
        &format!("a table of {} positions", kern.space.count()),
        host_bytes(kern),
    )?;
    let start = Instant::now();
    if let (TupleRule::Rect(rect), Convention::Misere) = (&kern.rule, kern.convention) {
        if matches!(backend, Backend::Gpu(_)) {
            hooks.notice(Marked(
                "misère rectangles are valued by search over whole sums, on the CPU",
            ));
        }
        let (table, sums) = rect_sums::misere_table(kern, rect, hooks)?;
        return Ok(TupleRun {
            table,
            backend: Ran::Cpu,
            seconds: start.elapsed().as_secs_f64(),
            sums: Some(sums),
        });
    }
    let job = TableJob {
        kern,
        plan: LevelPlan::new(kern),
        hooks,
    };
    let (table, ran) = crate::backend::run(&job, backend, hooks)?;
    Ok(TupleRun {
        table,
        backend: ran,
        seconds: start.elapsed().as_secs_f64(),
        sums: None,
    })
}

/// The whole table on either backend.
struct TableJob<'a> {
    kern: &'a TupleKernel,
    plan: LevelPlan,
    hooks: &'a dyn RunHooks,
}

impl Dual for TableJob<'_> {
    type Output = Vec<u32>;

    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit> {
        grundy_gpu::tuples::fits(runner, self.kern)
    }

    fn on_gpu(&self, runner: &Runner) -> Result<Vec<u32>> {
        use grundy_gpu::tuples::{Failure, solve};
        solve(runner, self.kern, &self.plan, self.hooks).map_err(|e| match e {
            Failure::Overflow(o) => overflow_error(self.kern, o),
            Failure::Device(e) => e,
        })
    }

    fn on_cpu(&self) -> Result<Vec<u32>> {
        cpu_table(self.kern, &self.plan, self.hooks).map_err(|o| overflow_error(self.kern, o))
    }
}

/// The whole table on the CPU twins, level after level.
pub fn cpu_table(
    kern: &TupleKernel,
    plan: &LevelPlan,
    hooks: &dyn RunHooks,
) -> std::result::Result<Vec<u32>, Overflow> {
    let table: Vec<AtomicU32> = (0..kern.space.count()).map(|_| AtomicU32::new(0)).collect();
    let sets_len = kern.split_sets.as_ref().map_or(0, |(_, s)| s.count()) as usize;
    let split_sets: Vec<AtomicU32> = (0..sets_len * VALUE_WORDS)
        .map(|_| AtomicU32::new(0))
        .collect();
    let mut done = 0u64;
    for l in 0..plan.positions.len() {
        let ranks = plan.positions.level(l);
        match kern.rule {
            TupleRule::Rect(_) => rect_level(kern, &table, ranks)?,
            TupleRule::DeleteNim(_) => {
                delete_level(kern, &table, &split_sets, ranks)?;
                split_sets_level(kern, &table, &split_sets, plan.split_level(l));
            }
        }
        done += ranks.len() as u64;
        hooks.progress(done);
    }
    Ok(table.into_iter().map(AtomicU32::into_inner).collect())
}

fn overflow_error(kern: &TupleKernel, o: Overflow) -> Error {
    let mut h = vec![0u32; kern.space.heaps];
    kern.space.unrank(o.rank, &mut h);
    let shift = match &kern.rule {
        TupleRule::DeleteNim(g) => g.shift(),
        TupleRule::Rect(_) => 0,
    };
    let tuple: Vec<String> = h.iter().map(|x| (x - shift).to_string()).collect();
    Error::Run(format!(
        "the position ({}) has a value above {MAX_VALUE}, the most the kernels hold; ask for a \
         smaller {}",
        tuple.join(","),
        Setting::Max.named()
    ))
}

/// "N positions, about M of memory" for the summary before a run.
pub fn describe_size(kern: &TupleKernel) -> String {
    format!(
        "{} positions, about {} of memory",
        kern.space.count(),
        human(host_bytes(kern))
    )
}
