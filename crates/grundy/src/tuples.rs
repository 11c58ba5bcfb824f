//! `TupleGame`: a whole table of a game whose positions are several
//! numbers, as `grundy rect` and `grundy delete-nim` compute it: Grundy's
//! game on rectangles and boxes, Delete Nim and its many-heap rules.

use grundy_core::error::{Error, Result};
use grundy_core::game::Convention;
use grundy_core::game::delete_nim::{DeleteNim, Rule};
use grundy_core::hooks::{RunHooks, Silent};
pub use grundy_core::kernel::tuples::{TupleKernel, TupleRule};
use grundy_core::setting::Marked;
use grundy_engine::tuples::table::{delete_nim_kernel, describe_size, rect_kernel, solve};
use grundy_engine::{Backend, BackendChoice, GpuFrom, RanOn};

/// A game over tuples, to a largest size.
///
/// ```
/// use grundy::TupleGame;
///
/// // Grundy's game on rectangles: a 1 x n strip is Grundy's game on a
/// // heap of n, whose values for n = 1..9 are 0 0 1 0 2 1 0 2 1.
/// let rect = TupleGame::rect(2, 1, 9)?.run()?;
/// let strips: Vec<u32> = (1..=9).map(|n| rect.get(&[1, n]).unwrap()).collect();
/// assert_eq!(strips, [0, 0, 1, 0, 2, 1, 0, 2, 1]);
/// assert_eq!(rect.get(&[3, 2]), rect.get(&[2, 3]), "a table of unordered sides");
/// assert_eq!(rect.get(&[10, 1]), None, "past --max");
/// # Ok::<(), grundy::Error>(())
/// ```
pub struct TupleGame {
    kern: TupleKernel,
    /// What a size the user names adds to the kernel's (Delete Nim's
    /// heaps may be empty; the kernel's sizes start at 1).
    shift: u32,
    backend: BackendChoice,
    convention: Convention,
}

/// A computed table: every tuple of sizes up to the largest, unordered.
pub struct TupleTable {
    kern: TupleKernel,
    shift: u32,
    table: Vec<u32>,
    /// Where it ran.
    pub ran_on: RanOn,
    /// Seconds the table took.
    pub seconds: f64,
    /// Misère rectangles and boxes: the sums searched whole, counted
    /// before the search (`None` for the other tables, valued by levels).
    pub sums_searched: Option<usize>,
}

impl TupleGame {
    /// Grundy's game on `dims`-dimensional boxes (2: rectangles, 3: boxes)
    /// with sides up to `max`: a move cuts the box in two along one side,
    /// the pieces' sides there differing by at least `min_diff` (1:
    /// unequal pieces, Grundy's rule; as `grundy rect --min-diff`).
    pub fn rect(dims: usize, min_diff: u32, max: u32) -> Result<TupleGame> {
        Ok(TupleGame::of(rect_kernel(dims, min_diff, max)?, 0))
    }

    /// Delete Nim under `rule` on `heaps` heaps (`k`: the rule's parameter,
    /// where it has one) with heaps up to `max`, as `grundy delete-nim`.
    pub fn delete_nim(rule: Rule, heaps: usize, k: Option<usize>, max: u32) -> Result<TupleGame> {
        let game = DeleteNim::new(rule, heaps, k).map_err(Error::Input)?;
        let shift = game.shift();
        Ok(TupleGame::of(delete_nim_kernel(game, max)?, shift))
    }

    /// The Delete Nim game the table is of (its rule's name, heaps and
    /// parameter); `None` for boxes.
    pub fn delete_nim_game(&self) -> Option<&DeleteNim> {
        match &self.kern.rule {
            TupleRule::DeleteNim(game) => Some(game),
            TupleRule::Rect(_) => None,
        }
    }

    fn of(kern: TupleKernel, shift: u32) -> TupleGame {
        TupleGame {
            kern,
            shift,
            backend: BackendChoice::Cpu,
            convention: Convention::Normal,
        }
    }

    /// The play convention (default: normal play). Under misère play a
    /// position without a move is worth 1 and every value is the misère
    /// nim value g⁻ (0: the player to move loses). Delete Nim's positions
    /// are whole games, so its tables take it on either backend; a cut
    /// rectangle is a sum of two, so misère rectangles are valued by search
    /// over whole sums, on the CPU, as far as memory holds the sums.
    pub fn convention(mut self, convention: Convention) -> TupleGame {
        self.convention = convention;
        self
    }

    /// Where the table runs (default: the CPU).
    pub fn backend(mut self, backend: BackendChoice) -> TupleGame {
        self.backend = backend;
        self
    }

    /// Tuples in the table.
    pub fn positions(&self) -> u64 {
        self.kern.space.count()
    }

    /// Computes the table, telling no one.
    pub fn run(self) -> Result<TupleTable> {
        self.run_with(&Silent)
    }

    /// Computes the table, telling `hooks` of notices and progress.
    pub fn run_with(mut self, hooks: &dyn RunHooks) -> Result<TupleTable> {
        self.kern = self.kern.under(self.convention);
        let backend = Backend::open_for(
            self.backend,
            self.positions(),
            GpuFrom::tuples(&self.kern.rule),
            hooks,
        )?;
        hooks.notice(Marked(&describe_size(&self.kern)));
        hooks.begin(self.positions(), "positions");
        let run = solve(&self.kern, &backend, hooks);
        hooks.end();
        let run = run?;
        Ok(TupleTable {
            ran_on: backend.ran_on(run.backend),
            seconds: run.seconds,
            sums_searched: run.sums,
            table: run.table,
            kern: self.kern,
            shift: self.shift,
        })
    }
}

impl TupleTable {
    /// The game's rules and the positions' ranking, as the kernels read them.
    pub fn kernel(&self) -> &TupleKernel {
        &self.kern
    }

    /// The convention the values are under.
    pub fn convention(&self) -> Convention {
        self.kern.convention
    }

    /// What the stored sizes are above the game's own (Delete Nim stores
    /// heaps of size 0 as 1): subtract it from a ranked tuple.
    pub fn shift(&self) -> u32 {
        self.shift
    }

    /// G of every position by its rank (`kernel().space.rank`).
    pub fn values(&self) -> &[u32] {
        &self.table
    }

    /// Tuples in the table.
    pub fn len(&self) -> u64 {
        self.table.len() as u64
    }

    /// Whether the table is empty (it never is: every game has a tuple).
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// G of the tuple of sizes `sizes` in any order; none when the tuple
    /// has the wrong length or a size past the table's.
    pub fn get(&self, sizes: &[u32]) -> Option<u32> {
        let space = &self.kern.space;
        if sizes.len() != space.heaps {
            return None;
        }
        let mut inner: Vec<u32> = sizes
            .iter()
            .map(|&s| s.saturating_add(self.shift))
            .collect();
        inner.sort_unstable();
        if inner.iter().any(|&s| s == 0 || s > space.max) {
            return None;
        }
        Some(self.table[space.rank(&inner) as usize])
    }

    /// Every tuple (nondecreasing, in lexicographic order) with its value.
    pub fn for_each(&self, mut visit: impl FnMut(&[u32], u32)) {
        let space = &self.kern.space;
        let mut sizes = Vec::with_capacity(space.heaps);
        space.for_each_lex(|h| {
            sizes.clear();
            sizes.extend(h.iter().map(|x| x - self.shift));
            visit(&sizes, self.table[space.rank(h) as usize]);
        });
    }
}
