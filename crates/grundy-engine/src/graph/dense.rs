//! The dense solver: a table over every vertex subset, walked level by level
//! (level = popcount) on the GPU (`gpu::graph`) or on the CPU twin
//! (`kernel::graph::graph_level`), and the moves table computed from it.

use grundy_core::setting::Setting;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use crate::backend::{Backend, Dual, Ran};
use crate::memory::check_fits;
use grundy_core::error::{Error, Result};
use grundy_core::game::connected_sets::{for_each_connected_set, next_colex};
use grundy_core::game::{Graph, GraphCode};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::graph::graph_level::{graph_level, graph_level_connected};
use grundy_core::kernel::graph::{DENSE_MAX_VERTICES, GraphKernel, dense_table_bytes, strip_flags};
use grundy_gpu::{Runner, Unfit};

/// Knobs tests turn to reach the paths large tables take.
#[derive(Clone, Copy, Debug)]
pub struct DenseTuning {
    /// log2 of the words per GPU table chunk (`None`: as large as a binding allows).
    pub chunk_shift: Option<u32>,
    /// Workgroups per dispatch row.
    pub max_groups_x: u32,
}

impl Default for DenseTuning {
    fn default() -> Self {
        DenseTuning {
            chunk_shift: None,
            max_groups_x: 65535,
        }
    }
}

/// A dense table and how it was made.
pub struct DenseRun {
    /// `table[mask]` = G(mask), when kept.
    pub table: Option<Vec<u8>>,
    /// G of the whole graph.
    pub value: u8,
    pub backend: Ran,
    pub positions: u64,
    pub seconds: f64,
}

/// Host bytes a dense run needs: the table, and the moves table with it.
pub fn dense_bytes(n: usize, keep_table: bool, moves: bool) -> u64 {
    let table = dense_table_bytes(n);
    match (keep_table, moves) {
        (_, true) => 2 * table,
        (true, false) => table,
        (false, false) => 0,
    }
}

/// Refuses graphs a dense table cannot hold.
pub fn check_dense(n: usize) -> Result<()> {
    if n > DENSE_MAX_VERTICES {
        return Err(Error::Input(format!(
            "a dense table over {n} vertices needs 2^{n} bytes ({}); the dense solver stops at \
             {DENSE_MAX_VERTICES} vertices (use {} for sparse graphs such as trees)",
            crate::memory::human(dense_table_bytes(n)),
            Setting::Solver.is("memo")
        )));
    }
    Ok(())
}

/// Solves `graph` with a dense table on `backend` (the GPU when it can,
/// else the CPU twin, with a notice saying why).
pub fn solve_dense(
    graph: &Graph,
    code: &GraphCode,
    backend: &Backend,
    keep_table: bool,
    tuning: &DenseTuning,
    hooks: &dyn RunHooks,
) -> Result<DenseRun> {
    check_dense(graph.n())?;
    let start = Instant::now();
    let job = DenseJob {
        graph,
        code,
        kern: GraphKernel::new(graph, code),
        keep_table,
        tuning,
        hooks,
    };
    let ((table, value, positions), ran) = crate::backend::run(&job, backend, hooks)?;
    Ok(DenseRun {
        table,
        value,
        backend: ran,
        positions,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// A dense table on either backend: (the table when kept, G of the whole
/// graph, positions evaluated).
struct DenseJob<'a> {
    graph: &'a Graph,
    code: &'a GraphCode,
    kern: GraphKernel,
    keep_table: bool,
    tuning: &'a DenseTuning,
    hooks: &'a dyn RunHooks,
}

impl Dual for DenseJob<'_> {
    type Output = (Option<Vec<u8>>, u8, u64);

    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit> {
        grundy_gpu::graph::fits(runner, &self.kern, self.tuning.chunk_shift).map(|_| ())
    }

    fn on_gpu(&self, runner: &Runner) -> Result<Self::Output> {
        let t = self.tuning;
        let run = grundy_gpu::graph::dense(
            runner,
            &self.kern,
            t.chunk_shift,
            t.max_groups_x,
            self.keep_table,
            self.hooks,
        )?;
        Ok((run.table, run.value, dense_table_bytes(self.graph.n())))
    }

    fn on_cpu(&self) -> Result<Self::Output> {
        let (graph, code) = (self.graph, self.code);
        let positions = dense_table_bytes(graph.n());
        check_fits(
            &format!("a dense table over {} vertices on the CPU", graph.n()),
            positions,
        )?;
        // Without splits into two pieces, a connected graph reaches only
        // connected positions: when no table is kept, evaluate just those.
        let connected_only = !self.keep_table
            && graph.is_connected(graph.all())
            && code.digits.iter().all(|d| d & 4 == 0);
        let (table, evaluated) = if connected_only {
            cpu_dense_connected(&self.kern, self.hooks)?
        } else {
            (cpu_dense(&self.kern, self.hooks)?, positions)
        };
        let value = table[(positions - 1) as usize];
        Ok((self.keep_table.then_some(table), value, evaluated))
    }
}

/// Views a byte table as atomics so rayon workers can fill one level at once.
fn as_atomic(table: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and
    // the exclusive borrow keeps every other access out while this view lives.
    unsafe { std::slice::from_raw_parts(table.as_mut_ptr() as *const AtomicU8, table.len()) }
}

/// A zeroed table of `bytes` bytes. Every option is a load from a random
/// place of a table far larger than the caches, so on Linux the table asks
/// for huge pages: with 4 KiB pages most of those loads also miss the TLB.
pub fn zeroed_table(bytes: usize) -> Vec<u8> {
    let table = vec![0u8; bytes];
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = table.as_ptr() as usize;
        let first = start.next_multiple_of(PAGE);
        let end = (start + bytes) / PAGE * PAGE;
        if end > first {
            // SAFETY: the range lies inside the table's allocation, page
            // aligned; MADV_HUGEPAGE changes how its pages are backed, not
            // their contents. A refusal (no THP) leaves it as it was.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    table
}

/// The whole dense table on the CPU twin.
pub fn cpu_dense(kern: &GraphKernel, hooks: &dyn RunHooks) -> Result<Vec<u8>> {
    let mut table = zeroed_table(dense_table_bytes(kern.n) as usize);
    table[0] = kern.convention.no_move_value() as u8;
    let view = as_atomic(&mut table);
    let mut done = 1;
    for k in 1..=kern.n {
        let count = kern.level_size(k);
        graph_level(kern, view, k).map_err(|o| Error::Run(o.to_string()))?;
        done += count;
        hooks.progress(done);
    }
    strip_flags(&mut table);
    Ok(table)
}

/// The levels a game from the whole graph can reach: the top, and every
/// level a move of an allowed size leads to from a reachable one (0.03,
/// which always takes two vertices, reaches every other level).
pub fn reachable_levels(kern: &GraphKernel) -> Vec<bool> {
    let mut reachable = vec![false; kern.n + 1];
    reachable[kern.n] = true;
    for k in (1..=kern.n).rev() {
        if reachable[k] {
            for size in (1..kern.digits.len()).filter(|&i| kern.digits[i] != 0 && i <= k) {
                reachable[k - size] = true;
            }
        }
    }
    reachable
}

/// The dense table with only the connected positions of the reachable
/// levels evaluated (the others left 0), and how many there were.
pub fn cpu_dense_connected(kern: &GraphKernel, hooks: &dyn RunHooks) -> Result<(Vec<u8>, u64)> {
    let mut table = zeroed_table(dense_table_bytes(kern.n) as usize);
    table[0] = kern.convention.no_move_value() as u8;
    let view = as_atomic(&mut table);
    let reachable = reachable_levels(kern);
    let mut evaluated = 0;
    let mut done = 1;
    for (k, &reachable) in reachable.iter().enumerate().skip(1) {
        if reachable {
            evaluated +=
                graph_level_connected(kern, view, k).map_err(|o| Error::Run(o.to_string()))?;
        }
        done += kern.level_size(k);
        hooks.progress(done);
    }
    strip_flags(&mut table);
    Ok((table, evaluated))
}

/// The options of any position (every component), as the positions left.
pub fn for_each_option(graph: &Graph, code: &GraphCode, mask: u64, mut visit: impl FnMut(u64)) {
    for comp in graph.iter_components(mask) {
        let others = mask & !comp;
        for size in 1..=code.max_take().min(comp.count_ones() as usize) {
            if code.digits[size] == 0 {
                continue;
            }
            for_each_connected_set(&graph.adj, comp, size, |set| {
                let rest = comp & !set;
                let pieces = graph.pieces(rest, 3) as u32;
                if code.allows(size, pieces) {
                    visit(others | rest);
                }
            });
        }
    }
}

/// Moves played from a position whose options are (G, moves played): the
/// winner (`winning`) takes the longest line among moves to a P-position,
/// the loser the shortest of all; none when there is no option.
pub fn moves_played(winning: bool, options: &[(u8, u8)]) -> u8 {
    let lines = options
        .iter()
        .filter(|&&(g, _)| !winning || g == 0)
        .map(|&(_, m)| m + 1);
    let best = if winning { lines.max() } else { lines.min() };
    best.unwrap_or(0)
}

/// Moves played from every position when the winner plays to empty the
/// graph (the longest game among winning moves) and the loser plays to stop
/// that (the shortest): Dailly, Octal games on graphs, Tables 2 and 3.
pub fn moves_table(graph: &Graph, code: &GraphCode, values: &[u8]) -> Vec<u8> {
    let kern = GraphKernel::new(graph, code);
    let mut moves = vec![0u8; values.len()];
    let view = as_atomic(&mut moves);
    for k in 1..=graph.n() {
        let count = kern.level_size(k);
        const RUN: u64 = 4096;
        (0..count.div_ceil(RUN)).into_par_iter().for_each(|run| {
            let start = run * RUN;
            let mut mask = kern.unrank(start, k);
            for _ in start..(start + RUN).min(count) {
                let winning = values[mask as usize] != 0;
                let mut options = Vec::new();
                for_each_option(graph, code, mask, |o| {
                    options.push((values[o as usize], view[o as usize].load(Ordering::Relaxed)))
                });
                let best = moves_played(winning, &options);
                view[mask as usize].store(best, Ordering::Relaxed);
                mask = next_colex(mask);
            }
        });
    }
    moves
}
