//! Which solver an edge game runs, and the run: the memo over pieces for
//! forests, else the dense table of every marking (on the GPU when one is
//! open and the table fits it).

use std::time::Instant;

use super::arrows_dense::solve_dense;
use super::arrows_memo::ArrowMemo;
use crate::{Backend, BackendChoice, GpuFrom, RanOn};
use grundy_core::error::{Error, Result};
use grundy_core::game::Convention;
use grundy_core::game::arrows::{ArrowGame, ArrowRule};
use grundy_core::hooks::RunHooks;
use grundy_core::setting::Setting;

/// How `arrows` solves.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArrowSolver {
    /// memo for forests, else dense.
    Auto,
    /// A table over every marking (up to 20 edges; GPU or CPU twin).
    Dense,
    /// Pieces of forests under canonical forms (CPU).
    Memo,
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct EdgeRun {
    /// G of the start state.
    pub g: u16,
    /// States in the dense table, or pieces the memo remembered.
    pub states: u64,
    /// The solver that ran.
    pub solver: ArrowSolver,
    pub ran_on: RanOn,
    pub seconds: f64,
}

/// Solves `game` from `start` with `solver` (`Auto`: the memo for forests
/// outside the Game of Cycles, else the dense table), opening the backend
/// `choice` only for a dense table; `hooks` count its states.
pub fn solve(
    game: &ArrowGame,
    start: &[u8],
    solver: ArrowSolver,
    choice: BackendChoice,
    hooks: &dyn RunHooks,
) -> Result<EdgeRun> {
    // The memo adds a forest's pieces, a sum misère play does not allow.
    let normal = game.convention == Convention::Normal;
    let solver = match solver {
        ArrowSolver::Auto if normal && game.rule != ArrowRule::Cycles && game.is_forest() => {
            ArrowSolver::Memo
        }
        ArrowSolver::Auto => ArrowSolver::Dense,
        s => s,
    };
    if solver == ArrowSolver::Memo && !normal {
        return Err(Error::Input(format!(
            "{} with {}: the memo adds a forest's pieces, whose misère value is not the xor of \
             theirs; expected {} (every marking, up to 20 edges)",
            Setting::Misere.named(),
            Setting::Solver.is("memo"),
            Setting::Solver.is("dense")
        )));
    }
    if solver == ArrowSolver::Memo {
        let begin = Instant::now();
        let mut memo = ArrowMemo::new();
        let g = memo.value_of_state(game, start).map_err(Error::Input)?;
        return Ok(EdgeRun {
            g,
            states: memo.pieces() as u64,
            solver,
            ran_on: RanOn::cpu(),
            seconds: begin.elapsed().as_secs_f64(),
        });
    }
    let states = 3u64.saturating_pow(game.edges.len() as u32);
    let backend = Backend::open_for(choice, states, GpuFrom::POSITIONS, hooks)?;
    hooks.begin(states, "states");
    let run = solve_dense(game, start, &backend, false, hooks);
    hooks.end();
    let run = run?;
    Ok(EdgeRun {
        g: u16::from(run.value),
        states: run.states,
        solver,
        ran_on: backend.ran_on(run.backend),
        seconds: run.seconds,
    })
}
