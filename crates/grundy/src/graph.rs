//! `GraphGame`: an octal code played on a graph, as `grundy graph` solves
//! it (a dense table over every vertex subset on the GPU or the CPU, the
//! memo solver over canonical pieces, or the positions reachable from the
//! whole graph).

use grundy_core::error::{Error, Result};
use grundy_core::game::graph::Graph;
use grundy_core::game::{Convention, GraphCode};
use grundy_core::hooks::{RunHooks, Silent};
use grundy_engine::graph::driver::{GraphJob, solve_graph};
use grundy_engine::graph::families::{FamilyTable, bipode_table, pode_table};
use grundy_engine::graph::solve::Solver;

pub use grundy_engine::graph::driver::GraphRows;
pub use grundy_engine::graph::solve::corner_masks;
use grundy_engine::{BackendChoice, RanOn};

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
///     let path = GraphGame::octal("0.33", &format!("path:{n}"))?.run()?;
///     assert_eq!(Some(u16::from(path.value)), heaps.get(n));
/// }
/// // The 3x3 grid, every subset's value kept.
/// let grid = GraphGame::octal("0.33", "grid:3x3")?.keep_table(true).run()?;
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
    /// Keep what the solver evaluated, the corner grids' values, the moves.
    rows: bool,
    corners: bool,
    moves: bool,
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
    /// Normal play, or misère play, where every value is a misère nim
    /// value g⁻ (0: the player to move loses).
    pub convention: Convention,
    /// Seconds the solve took.
    pub seconds: f64,
    /// `table[mask]` = G of the subset `mask`, when asked for (dense only).
    pub table: Option<Vec<u8>>,
    /// Every position the solver evaluated (dense: each subset; memo: each
    /// canonical piece; reach: each position reached), when asked for.
    pub rows: Option<GraphRows>,
    /// Moves played from the whole graph to the game's end, when asked for.
    pub moves: Option<u8>,
    /// G of each a x b corner grid of a grid, when asked for and the memo
    /// solved it (`corner_masks` orders them).
    pub corners: Option<Vec<u8>>,
}

impl GraphGame {
    /// `code` (an octal code: `0.33`, `0.03`, `0.137`) on the graph `spec`
    /// (`path:6`, `cycle:5`, `grid:3x4`, `pode:2,3,4`, and the other forms
    /// of `grundy graph --graph`).
    pub fn octal(code: &str, spec: &str) -> Result<GraphGame> {
        let code = GraphCode::parse(code).map_err(Error::Input)?;
        let graph = Graph::parse(spec).map_err(Error::Input)?;
        Ok(GraphGame::of(code, graph))
    }

    /// The name `GraphGame::octal` had in 0.1.
    #[deprecated(since = "0.2.0", note = "renamed `GraphGame::octal`")]
    pub fn new(code: &str, spec: &str) -> Result<GraphGame> {
        GraphGame::octal(code, spec)
    }

    /// A parsed code on a built graph (`game::graph::grid`, `game::graph::pode` …).
    pub fn of(code: GraphCode, graph: Graph) -> GraphGame {
        GraphGame {
            code,
            graph,
            solver: Solver::Auto,
            backend: BackendChoice::Cpu,
            keep_table: false,
            rows: false,
            corners: false,
            moves: false,
        }
    }

    /// The play convention (default: normal play). Under misère play the
    /// last player to move loses and every value is the misère nim value
    /// g⁻: a position of several pieces is valued over its moves, never by
    /// its pieces' xor, so `Auto` takes the dense (or reach) solver where
    /// the memo would add pieces.
    pub fn convention(mut self, convention: Convention) -> GraphGame {
        self.code = self.code.under(convention);
        self
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

    /// Keeps every position the solver evaluated (`GraphValue::rows`), as
    /// `grundy graph --out` writes them.
    pub fn rows(mut self, keep: bool) -> GraphGame {
        self.rows = keep;
        self
    }

    /// Keeps G of each corner grid of a grid the memo solves, for a picture.
    pub fn corners(mut self, keep: bool) -> GraphGame {
        self.corners = keep;
        self
    }

    /// Counts the moves of each position (the dense solver: moves do not
    /// add over components).
    pub fn moves(mut self, count: bool) -> GraphGame {
        self.moves = count;
        self
    }

    /// Solves the graph, telling no one.
    pub fn run(&self) -> Result<GraphValue> {
        self.run_with(&Silent)
    }

    /// Solves the graph, telling `hooks` of notices and progress.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<GraphValue> {
        if self.keep_table && !matches!(self.solver, Solver::Auto | Solver::Dense) {
            return Err(Error::Input(format!(
                "keep_table needs the dense solver; expected Solver::Dense or Auto, not {:?}",
                self.solver
            )));
        }
        let job = GraphJob {
            solver: if self.keep_table {
                Solver::Dense
            } else {
                self.solver
            },
            backend: self.backend,
            rows: self.keep_table || self.rows,
            corners: self.corners,
            moves: self.moves,
        };
        let solved = solve_graph(&self.graph, &self.code, &job, hooks)?;
        let (table, rows) = match solved.rows {
            GraphRows::Subsets(table, moves) if self.keep_table && self.rows => {
                (Some(table.clone()), Some(GraphRows::Subsets(table, moves)))
            }
            GraphRows::Subsets(table, _) if self.keep_table => (Some(table), None),
            rows => (None, self.rows.then_some(rows)),
        };
        Ok(GraphValue {
            value: solved.value,
            positions: solved.positions,
            solver: solved.solver,
            ran_on: solved.ran_on,
            convention: self.code.convention,
            seconds: solved.seconds,
            table,
            rows,
            moves: solved.moves,
            corners: solved.corners,
        })
    }
}

/// G of every k-pode of `code` with up to `max_legs` legs of lengths
/// 1..=`max_length`, as `grundy podes` tabulates them: each row counts the
/// legs of each length.
///
/// ```
/// // 0.33 on podes with up to 4 legs of lengths 1 and 2, each row checked
/// // against the pode solved on its own.
/// let table = grundy::podes("0.33", 4, 2)?;
/// for (counts, g) in &table.rows {
///     let legs: Vec<&str> = [("1", counts[0]), ("2", counts[1])]
///         .iter()
///         .flat_map(|&(len, k)| std::iter::repeat_n(len, k))
///         .collect();
///     if legs.is_empty() {
///         continue;
///     }
///     let pode = grundy::GraphGame::octal("0.33", &format!("pode:{}", legs.join(",")))?;
///     assert_eq!(pode.run()?.value, *g, "{counts:?}");
/// }
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn podes(code: &str, max_legs: usize, max_length: usize) -> Result<FamilyTable<Vec<usize>>> {
    podes_with(code, (max_legs, max_length), &Silent)
}

/// `podes`, telling `hooks` of its progress and stopping when they say so.
pub fn podes_with(
    code: &str,
    (max_legs, max_length): (usize, usize),
    hooks: &dyn RunHooks,
) -> Result<FamilyTable<Vec<usize>>> {
    let code = GraphCode::parse(code).map_err(Error::Input)?;
    podes_of(&code, (max_legs, max_length), hooks)
}

/// `podes_with` for a parsed code: `GraphCode::parse("0.33")?.under(Convention::Misere)`
/// gives the misère table (codes that never leave two pieces; the others
/// are refused, since the table values pieces apart).
pub fn podes_of(
    code: &GraphCode,
    limits: (usize, usize),
    hooks: &dyn RunHooks,
) -> Result<FamilyTable<Vec<usize>>> {
    let (max_legs, max_length) = limits;
    pode_table(code, max_legs, max_length, hooks)
}

/// G of every bipode of `code` with legs a1, a2, b1, b2 up to `max` and a
/// middle chain of `middle` edges, as `grundy bipodes` tabulates them.
pub fn bipodes(code: &str, max: usize, middle: usize) -> Result<FamilyTable<[usize; 4]>> {
    bipodes_with(code, (max, middle), &Silent)
}

/// `bipodes`, telling `hooks` of its progress and stopping when they say so.
pub fn bipodes_with(
    code: &str,
    (max, middle): (usize, usize),
    hooks: &dyn RunHooks,
) -> Result<FamilyTable<[usize; 4]>> {
    let code = GraphCode::parse(code).map_err(Error::Input)?;
    bipodes_of(&code, (max, middle), hooks)
}

/// `bipodes_with` for a parsed code, under its convention (as `podes_of`).
pub fn bipodes_of(
    code: &GraphCode,
    limits: (usize, usize),
    hooks: &dyn RunHooks,
) -> Result<FamilyTable<[usize; 4]>> {
    let (max, middle) = limits;
    bipode_table(code, max, middle, hooks)
}
