//! Which graph solver runs (`Solver`, `pick_solver`), and the memo solver's
//! run: level by level for grids, else the recursion from the whole graph.

use std::time::Instant;

use crate::graph::grid_levels::GridLevels;
use crate::graph::memo::{MemoSolver, Record, takes_misere};
use grundy_core::error::Result;
use grundy_core::game::graph::Graph;
use grundy_core::game::{Convention, GraphCode};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::graph::DENSE_MAX_VERTICES;

/// How `graph` solves.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Solver {
    /// memo for forests, for grids under codes that never take one vertex (0.03), and for graphs too large for a dense table (reach with --moves); else dense.
    Auto,
    /// A table over every vertex subset (GPU or CPU twin).
    Dense,
    /// Components under canonical forms, remembered (CPU; level by level on every core for grids up to 7x7 under codes that take one vertex, such as 0.33).
    Memo,
    /// Only the positions reachable from the whole graph, level by level (CPU; gives --moves past 34 vertices).
    Reach,
}

/// What a memo run found: the whole graph's value, the pieces valued and,
/// when asked, every piece's row and every corner grid's value.
pub struct MemoRun {
    pub value: u8,
    pub positions: u64,
    pub records: Vec<Record>,
    pub corners: Option<Vec<u8>>,
    /// The time of the whole graph's run (the corners come after it).
    pub seconds: f64,
}

/// The memo solver: level by level on every core where it applies (grids
/// under codes that take single vertices, which reach every piece), else
/// the recursion from the whole graph.
pub fn solve_memo(
    g: &Graph,
    code: &GraphCode,
    keep: bool,
    corners: bool,
    hooks: &dyn RunHooks,
) -> Result<MemoRun> {
    let start = Instant::now();
    let corner_values = |value: &mut dyn FnMut(u64) -> Result<u8>| -> Result<Option<Vec<u8>>> {
        match (corners, g.grid) {
            (true, Some((r, c))) => corner_masks(r, c)
                .into_iter()
                .map(value)
                .collect::<Result<_>>()
                .map(Some),
            _ => Ok(None),
        }
    };
    if let Some((rows, cols)) = GridLevels::applies(g, code) {
        let levels = GridLevels::solve(code, rows, cols, hooks)?;
        let value = levels.value(g.all())?;
        let seconds = start.elapsed().as_secs_f64();
        return Ok(MemoRun {
            value,
            positions: levels.positions(),
            records: if keep { levels.records() } else { Vec::new() },
            corners: corner_values(&mut |m| levels.value(m))?,
            seconds,
        });
    }
    let mut memo = MemoSolver::new(code);
    memo.keep_records = keep;
    memo.hooks = hooks;
    let value = memo.value(g, g.all())?;
    let seconds = start.elapsed().as_secs_f64();
    let records = std::mem::take(&mut memo.records);
    Ok(MemoRun {
        value,
        positions: memo.positions(),
        records,
        corners: corner_values(&mut |m| memo.value(g, m))?,
        seconds,
    })
}

/// Which solver `auto` means for this graph.
pub fn pick_solver(graph: &Graph, code: &GraphCode, asked: Solver, moves: bool) -> Solver {
    // Under misère play the memo takes only positions that are never sums.
    let memo_refuses =
        code.convention == Convention::Misere && takes_misere(graph, code, graph.all()).is_err();
    match asked {
        Solver::Auto if (moves || memo_refuses) && graph.n() > DENSE_MAX_VERTICES => Solver::Reach,
        Solver::Auto if moves || memo_refuses => Solver::Dense,
        Solver::Auto => {
            let forest = graph.edge_count() + graph.components(graph.all()).len() == graph.n();
            // A code that never takes one vertex (0.03) reaches few of a
            // grid's subsets, and the memo keys grid pieces by shape:
            // thousands of pieces where the table has millions
            // (BENCHMARKS.md, "Figures that chose a design").
            let sparse_grid = code.digits[1] == 0 && graph.grid.is_some();
            if forest || sparse_grid || graph.n() > DENSE_MAX_VERTICES {
                Solver::Memo
            } else {
                Solver::Dense
            }
        }
        s => s,
    }
}

/// The masks of the a x b corner grids of a grid with `cols` columns, for
/// a = 1..=rows and b = 1..=cols, row by row.
pub fn corner_masks(rows: usize, cols: usize) -> Vec<u64> {
    let corner = |a: usize, b: usize| (0..a).map(|i| ((1u64 << b) - 1) << (i * cols)).sum();
    (1..=rows)
        .flat_map(|a| (1..=cols).map(move |b| corner(a, b)))
        .collect()
}
