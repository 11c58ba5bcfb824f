//! One graph solved from start to end: the solver chosen (`pick_solver`),
//! what it needs checked before work (a dense table's size and memory),
//! the run on its backend, and the moves table when asked. The command line
//! and the library both solve a graph through here.

use grundy_core::setting::Marked;
use grundy_core::setting::Setting;
use std::time::Instant;

use super::dense::{DenseTuning, check_dense, dense_bytes, moves_table, solve_dense};
use super::memo::Record;
use super::reach::solve_reachable;
use super::solve::{Solver, pick_solver, solve_memo};
use crate::memory::{check_fits, human};
use crate::{Backend, BackendChoice, GpuFrom, RanOn};
use grundy_core::error::{Error, Result};
use grundy_core::game::GraphCode;
use grundy_core::game::graph::Graph;
use grundy_core::hooks::RunHooks;

/// What a graph solve is asked for.
#[derive(Clone, Copy, Debug)]
pub struct GraphJob {
    /// The solver asked for (`Auto`: as `pick_solver` chooses).
    pub solver: Solver,
    /// Where a dense table runs.
    pub backend: BackendChoice,
    /// Keep every row the solver met (subsets, reachable positions or
    /// pieces), for a table or a picture.
    pub rows: bool,
    /// The corner grids' values, when the memo solves a grid.
    pub corners: bool,
    /// The moves played from every position (dense or reach only).
    pub moves: bool,
}

/// The rows a solve kept.
#[derive(Clone, Debug)]
pub enum GraphRows {
    /// Every subset's value by mask, and its moves when asked.
    Subsets(Vec<u8>, Option<Vec<u8>>),
    /// (mask, value, moves) of every position reachable from the whole
    /// graph; whether the moves were asked for.
    Reached(Vec<(u64, u8, u8)>, bool),
    /// Every canonical piece the memo solved.
    Pieces(Vec<Record>),
}

/// A solved graph.
#[derive(Clone, Debug)]
pub struct GraphSolved {
    /// G of the whole graph.
    pub value: u8,
    /// Positions evaluated (dense: every subset; memo: distinct pieces;
    /// reach: the positions reachable).
    pub positions: u64,
    pub solver: Solver,
    pub ran_on: RanOn,
    pub seconds: f64,
    /// Moves played from the whole graph, when asked.
    pub moves: Option<u8>,
    pub rows: GraphRows,
    /// The a x b corner grids' values, when the memo solved a grid.
    pub corners: Option<Vec<u8>>,
}

/// Solves `graph` under `code` as `job` asks, the solver chosen as
/// `grundy graph` chooses it; `hooks` hear of progress and fallbacks.
pub fn solve_graph(
    graph: &Graph,
    code: &GraphCode,
    job: &GraphJob,
    hooks: &dyn RunHooks,
) -> Result<GraphSolved> {
    match pick_solver(graph, code, job.solver, job.moves) {
        Solver::Reach => reach(graph, code, job, hooks),
        Solver::Memo => memo(graph, code, job, hooks),
        _ => dense(graph, code, job, hooks),
    }
}

/// Says that `solver` runs on the CPU when the GPU was asked for.
fn say_on_cpu(solver: &str, job: &GraphJob, hooks: &dyn RunHooks) {
    if job.backend == BackendChoice::Gpu {
        hooks.notice(Marked(&format!(
            "the {solver} solver runs on the CPU; {} puts the table on the GPU",
            Setting::Solver.is("dense")
        )));
    }
}

fn reach(
    graph: &Graph,
    code: &GraphCode,
    job: &GraphJob,
    hooks: &dyn RunHooks,
) -> Result<GraphSolved> {
    say_on_cpu("reach", job, hooks);
    hooks.begin(1 << graph.n().min(40), "positions");
    let run = solve_reachable(graph, code, job.rows, hooks);
    hooks.end();
    let run = run?;
    Ok(GraphSolved {
        value: run.value,
        positions: run.positions,
        solver: Solver::Reach,
        ran_on: RanOn::cpu(),
        seconds: run.seconds,
        moves: job.moves.then_some(run.moves),
        rows: GraphRows::Reached(run.rows, job.moves),
        corners: None,
    })
}

fn memo(
    graph: &Graph,
    code: &GraphCode,
    job: &GraphJob,
    hooks: &dyn RunHooks,
) -> Result<GraphSolved> {
    if job.moves {
        return Err(Error::Input(format!(
            "{} needs the dense solver (moves do not add over components); drop {}",
            Setting::Moves.named(),
            Setting::Solver.is("memo")
        )));
    }
    say_on_cpu("memo", job, hooks);
    if let Some(said) = super::estimate::memo_notice(graph, code.digits[1] != 0) {
        hooks.notice(Marked(&said));
    }
    // Pieces, counted as they come: how many there will be is not known.
    hooks.begin(0, "pieces");
    let run = solve_memo(graph, code, job.rows, job.corners, hooks);
    hooks.end();
    let run = run?;
    Ok(GraphSolved {
        value: run.value,
        positions: run.positions,
        solver: Solver::Memo,
        ran_on: RanOn::cpu(),
        seconds: run.seconds,
        moves: None,
        rows: GraphRows::Pieces(run.records),
        corners: run.corners,
    })
}

fn dense(
    graph: &Graph,
    code: &GraphCode,
    job: &GraphJob,
    hooks: &dyn RunHooks,
) -> Result<GraphSolved> {
    let n = graph.n();
    check_dense(n)?;
    let keep_table = job.rows || job.moves;
    if job.rows && n > 20 {
        hooks.notice(Marked(&format!(
            "{} will hold {} rows, one per subset (about {})",
            Setting::Rows.named(),
            1u64 << n,
            human((1u64 << n) * (12 + 2 * n as u64 / 3))
        )));
    }
    let what = format!("a dense table over {n} vertices");
    check_fits(&what, dense_bytes(n, keep_table, job.moves))?;
    let backend = Backend::open_for(job.backend, 1 << n, GpuFrom::POSITIONS, hooks)?;
    if matches!(backend, Backend::Cpu)
        && let Some(said) = super::estimate::dense_notice(n)
    {
        hooks.notice(Marked(&said));
    }
    hooks.begin(1 << n, "positions");
    let run = solve_dense(
        graph,
        code,
        &backend,
        keep_table,
        &DenseTuning::default(),
        hooks,
    );
    hooks.end();
    let run = run?;
    let mut solved = GraphSolved {
        value: run.value,
        positions: run.positions,
        solver: Solver::Dense,
        ran_on: backend.ran_on(run.backend),
        seconds: run.seconds,
        moves: None,
        rows: GraphRows::Pieces(Vec::new()),
        corners: None,
    };
    if let Some(table) = run.table {
        let start = Instant::now();
        let moves = job.moves.then(|| moves_table(graph, code, &table));
        solved.seconds += start.elapsed().as_secs_f64();
        solved.moves = moves.as_ref().map(|m| m[m.len() - 1]);
        solved.rows = GraphRows::Subsets(table, moves);
    }
    Ok(solved)
}
