//! `GraphGame`: an octal code played on a graph, as `grundy graph` solves
//! it (a dense table over every vertex subset on the GPU or the CPU, the
//! memo solver over canonical pieces, or the positions reachable from the
//! whole graph).

use std::time::Instant;

use grundy_core::error::{Error, Result};
use grundy_core::game::GraphCode;
use grundy_core::game::graph::Graph;
use grundy_core::hooks::{RunHooks, Silent};
use grundy_engine::graph::dense::{DenseTuning, check_dense, dense_bytes, solve_dense};
use grundy_engine::graph::reach::solve_reachable;
use grundy_engine::graph::solve::{Solver, pick_solver, solve_memo};
use grundy_engine::memory::check_fits;
use grundy_engine::{Backend, BackendChoice, RanOn};

/// An octal code on a graph of up to 64 vertices: a move takes vertices
/// as the code's digit allows and leaves the rest, split into components.
///
/// ```
/// use grundy::GraphGame;
///
/// // On a path, a move of 0.33 takes one or two neighbours from an end:
/// // the octal game 0.33 on a heap as long as the path.
/// let heaps = grundy::Sequence::octal("0.33")?.heaps(12).run()?;
/// for n in 1..=12 {
///     let path = GraphGame::new("0.33", &format!("path:{n}"))?.run()?;
///     assert_eq!(Some(u16::from(path.value)), heaps.get(n));
/// }
/// // The 3x3 grid, every subset's value kept.
/// let grid = GraphGame::new("0.33", "grid:3x3")?.keep_table(true).run()?;
/// let table = grid.table.expect("kept");
/// assert_eq!(table.len(), 1 << 9);
/// assert_eq!(table[(1 << 9) - 1], grid.value);
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct GraphGame {
    code: GraphCode,
    graph: Graph,
    solver: Solver,
    backend: BackendChoice,
    keep_table: bool,
}

/// A solved graph.
#[derive(Clone, Debug)]
pub struct GraphValue {
    /// G of the whole graph.
    pub value: u8,
    /// Positions evaluated (dense: every subset; memo: distinct pieces;
    /// reach: the positions reachable).
    pub positions: u64,
    /// The solver that ran.
    pub solver: Solver,
    /// Where it ran.
    pub ran_on: RanOn,
    pub seconds: f64,
    /// `table[mask]` = G of the subset `mask`, when asked for (dense only).
    pub table: Option<Vec<u8>>,
}

impl GraphGame {
    /// `code` (an octal code: `0.33`, `0.03`, `0.137`) on the graph `spec`
    /// (`path:6`, `cycle:5`, `grid:3x4`, `pode:2,3,4`, and the other forms
    /// of `grundy graph --graph`).
    pub fn new(code: &str, spec: &str) -> Result<GraphGame> {
        let code = GraphCode::parse(code).map_err(Error::Input)?;
        let graph = Graph::parse(spec).map_err(Error::Input)?;
        Ok(GraphGame::of(code, graph))
    }

    /// A parsed code on a built graph (`game::graph::grid`, `game::graph::pode` …).
    pub fn of(code: GraphCode, graph: Graph) -> GraphGame {
        GraphGame {
            code,
            graph,
            solver: Solver::Auto,
            backend: BackendChoice::Cpu,
            keep_table: false,
        }
    }

    /// Which solver runs (default: `Auto`, as `grundy graph` chooses).
    pub fn solver(mut self, solver: Solver) -> GraphGame {
        self.solver = solver;
        self
    }

    /// Where a dense table runs (default: the CPU).
    pub fn backend(mut self, backend: BackendChoice) -> GraphGame {
        self.backend = backend;
        self
    }

    /// Keeps every subset's value (the dense solver; 2^n bytes).
    pub fn keep_table(mut self, keep: bool) -> GraphGame {
        self.keep_table = keep;
        self
    }

    /// Solves the graph, telling no one.
    pub fn run(&self) -> Result<GraphValue> {
        self.run_with(&Silent)
    }

    /// Solves the graph, telling `hooks` of notices and progress.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<GraphValue> {
        let (graph, code) = (&self.graph, &self.code);
        let solver = match self.keep_table {
            true => Solver::Dense,
            false => pick_solver(graph, code, self.solver, false),
        };
        if self.keep_table && !matches!(self.solver, Solver::Auto | Solver::Dense) {
            return Err(Error::Input(format!(
                "keep_table needs the dense solver; expected Solver::Dense or Auto, not {:?}",
                self.solver
            )));
        }
        let start = Instant::now();
        let (value, positions, ran_on, table) = match solver {
            Solver::Reach => {
                let run = solve_reachable(graph, code, false, hooks)?;
                (run.value, run.positions, RanOn::cpu(), None)
            }
            Solver::Memo => {
                let run = solve_memo(graph, code, false, false, hooks)?;
                (run.value, run.positions, RanOn::cpu(), None)
            }
            _ => {
                check_dense(graph.n())?;
                let what = format!("a dense table over {} vertices", graph.n());
                check_fits(&what, dense_bytes(graph.n(), self.keep_table, false))?;
                let backend = Backend::open(self.backend, hooks)?;
                let tuning = DenseTuning::default();
                let run = solve_dense(graph, code, &backend, self.keep_table, &tuning, hooks)?;
                let ran_on = backend.ran_on(run.backend);
                (run.value, run.positions, ran_on, run.table)
            }
        };
        Ok(GraphValue {
            value,
            positions,
            solver,
            ran_on,
            seconds: start.elapsed().as_secs_f64(),
            table,
        })
    }
}
