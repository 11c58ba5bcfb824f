//! `EdgeGame`: the Game of Arrows, its trimmed variant and the Game of
//! Cycles on a graph, as `grundy arrows` and `grundy cycles` solve them.

use std::path::Path;

use grundy_core::error::{Error, Result};
use grundy_core::game::arrows::{ArrowGame, ArrowRule, cycles_game};
use grundy_core::game::{Convention, Graph};
use grundy_core::hooks::{RunHooks, Silent};
use grundy_engine::BackendChoice;
use grundy_engine::edges::hackenbush::{Hackenbush, parse_ground};
use grundy_engine::edges::solve::{ArrowSolver, EdgeRun, solve};

/// An edge game on a graph, from a state of its edges.
///
/// ```
/// use grundy::EdgeGame;
///
/// // The Game of Arrows on a path: a forest, solved by the memo.
/// let path = EdgeGame::arrows("path:7")?.run()?;
/// // The same graph with every marking in a dense table.
/// let dense = EdgeGame::arrows("path:7")?.solver(grundy::ArrowSolver::Dense).run()?;
/// assert_eq!(path.g, dense.g);
/// assert_eq!((path.solver, dense.solver), (grundy::ArrowSolver::Memo, grundy::ArrowSolver::Dense));
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct EdgeGame {
    game: ArrowGame,
    start: Vec<u8>,
    solver: ArrowSolver,
    backend: BackendChoice,
}

impl EdgeGame {
    /// The Game of Arrows on the graph `spec` (`path:6`, `pode:2,3`,
    /// `tree:…`, and the other forms of `grundy arrows --graph`), every edge
    /// unmarked.
    pub fn arrows(spec: &str) -> Result<EdgeGame> {
        EdgeGame::on(spec, ArrowRule::Arrows)
    }

    /// The trimmed Game of Arrows (`grundy arrows --trimmed`).
    pub fn trimmed(spec: &str) -> Result<EdgeGame> {
        EdgeGame::on(spec, ArrowRule::Trimmed)
    }

    fn on(spec: &str, rule: ArrowRule) -> Result<EdgeGame> {
        let graph = Graph::parse(spec).map_err(Error::Input)?;
        Ok(EdgeGame::of(ArrowGame::new(&graph, rule, Vec::new())))
    }

    /// The Game of Cycles on the graph `spec`, its faces read from the
    /// file `faces` (none: no cycle closes a face).
    pub fn cycles(spec: &str, faces: Option<&Path>) -> Result<EdgeGame> {
        let mut game = EdgeGame::of(cycles_game(spec, faces)?);
        game.solver = ArrowSolver::Dense;
        Ok(game)
    }

    /// A built game (`ArrowGame::from_edges` for graphs past 64 vertices).
    pub fn of(game: ArrowGame) -> EdgeGame {
        let start = vec![0; game.edges.len()];
        EdgeGame {
            game,
            start,
            solver: ArrowSolver::Auto,
            backend: BackendChoice::Cpu,
        }
    }

    /// Starts from the state `text` (arrows as `u>v`, as `--state`).
    pub fn state(mut self, text: &str) -> Result<EdgeGame> {
        self.start = self.game.parse_state(text).map_err(Error::Input)?;
        Ok(self)
    }

    /// The play convention (default: normal play). Under misère play the
    /// last player to mark loses and the value is the misère nim value g⁻;
    /// it runs on the dense table (a forest's pieces are a sum, which the
    /// memo would add). The Game of Cycles has no misère form: refused.
    pub fn convention(mut self, convention: Convention) -> Result<EdgeGame> {
        self.game = self.game.under(convention).map_err(Error::Input)?;
        Ok(self)
    }

    /// The game, as its solvers read it.
    pub fn game(&self) -> &ArrowGame {
        &self.game
    }

    /// The start state: each edge's mark (0 unmarked, 1 or 2 its arrow's way).
    pub fn marks(&self) -> &[u8] {
        &self.start
    }

    /// Which solver runs (default: `Auto`, as the command chooses).
    pub fn solver(mut self, solver: ArrowSolver) -> EdgeGame {
        self.solver = solver;
        self
    }

    /// Where a dense table runs (default: the CPU).
    pub fn backend(mut self, backend: BackendChoice) -> EdgeGame {
        self.backend = backend;
        self
    }

    /// Solves the game, telling no one.
    pub fn run(&self) -> Result<EdgeRun> {
        self.run_with(&Silent)
    }

    /// Solves the game, telling `hooks` of notices and progress.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<EdgeRun> {
        solve(&self.game, &self.start, self.solver, self.backend, hooks)
    }
}

/// A Green Hackenbush picture solved (`hackenbush`).
#[derive(Clone, Debug)]
pub struct HackenbushValue {
    /// G of the whole picture (g⁻ under misère play).
    pub value: u8,
    /// Normal play, or misère play (the last player to cut loses).
    pub convention: Convention,
    /// Positions (edge sets still grounded) solved.
    pub positions: usize,
    /// Edges of the picture.
    pub edges: usize,
    /// The ground vertices, as given.
    pub ground: Vec<usize>,
    /// Seconds the solve took.
    pub seconds: f64,
}

/// Green Hackenbush on the graph `spec` rooted at the `ground` vertices
/// (as `grundy hackenbush --ground 0,3`): the value of the whole picture,
/// the positions (edge sets still grounded) solved, its edges, its ground
/// and the time taken, as `grundy hackenbush` reports them.
///
/// ```
/// // A stalk of n edges is a nim-heap of n.
/// assert_eq!(grundy::hackenbush("path:6", "0")?.value, 5);
/// // A triangle on the ground fuses to three loops there (the fusion
/// // principle): *1 + *1 + *1 = *1.
/// let triangle = grundy::hackenbush("cycle:3", "0")?;
/// assert_eq!((triangle.value, triangle.edges), (1, 3));
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn hackenbush(spec: &str, ground: &str) -> Result<HackenbushValue> {
    hackenbush_under(spec, ground, Convention::Normal)
}

/// `hackenbush` under `convention`: under misère play the last player to
/// cut loses, and the value is the misère nim value g⁻ of the whole
/// picture (its positions are whole pictures, never sums of parts).
///
/// ```
/// use grundy::game::Convention;
///
/// // A stalk of n edges is a nim-heap of n, whose misère value is 1 - n
/// // for n <= 1 and n past it (Winning Ways, chapter 13): path:2 is one
/// // edge, a P-position (the player who cuts it loses); path:4 is three.
/// let misere = |spec| grundy::hackenbush_under(spec, "0", Convention::Misere);
/// assert_eq!(misere("path:2")?.value, 0);
/// assert_eq!(misere("path:4")?.value, 3);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn hackenbush_under(
    spec: &str,
    ground: &str,
    convention: Convention,
) -> Result<HackenbushValue> {
    let graph = Graph::parse(spec).map_err(Error::Input)?;
    let ground = parse_ground(ground)?;
    let mut game = Hackenbush::new(&graph, &ground).map_err(Error::Input)?;
    game.convention = convention;
    let started = std::time::Instant::now();
    let start = game.start();
    let value = game.value(start);
    Ok(HackenbushValue {
        value,
        convention,
        positions: game.positions(),
        edges: game.edges.len(),
        ground,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// 0.1's `hackenbush` with the picture's details, from when `hackenbush`
/// gave only the value and the positions: the same as `hackenbush` now.
#[deprecated(
    since = "0.2.0",
    note = "`hackenbush` now gives the whole `HackenbushValue`"
)]
pub fn hackenbush_solved(spec: &str, ground: &str) -> Result<HackenbushValue> {
    hackenbush(spec, ground)
}
