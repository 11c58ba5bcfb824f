//! Many small graphs at once, each a row: an octal game's value (and the
//! moves played, with `moves`), or the Game of Arrows' or of Cycles'
//! value from the empty state. Graphs run in parallel on the CPU; each
//! thread keeps its memo across graphs, since a family's graphs share most
//! of their pieces.

use rayon::prelude::*;
use serde::Serialize;

use crate::backend::Backend;
use crate::edges::arrows_dense::solve_dense;
use crate::edges::arrows_memo::ArrowMemo;
use crate::graph::memo::{MemoSolver, takes_misere};
use crate::graph::reach::solve_reachable;
use grundy_core::error::{Error, Result};
use grundy_core::game::arrows::{ArrowGame, ArrowRule};
use grundy_core::game::{Convention, Graph, GraphCode};

/// Pieces a thread's memo holds before it starts afresh (bounds memory on
/// long batches).
const MEMO_PIECES: u64 = 1 << 22;

/// What each graph of a batch is played as.
#[derive(Clone, Debug)]
pub enum BatchGame {
    Octal { code: GraphCode, moves: bool },
    Arrows { trimmed: bool },
    Cycles,
}

/// One graph of a batch: the graph (its spec is the row's name) and, for
/// the Game of Cycles, its bounded faces.
pub struct BatchGraph {
    pub graph: Graph,
    pub faces: Vec<Vec<usize>>,
}

/// One row of a batch.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BatchRow {
    pub graph6: String,
    pub vertices: usize,
    pub edges: usize,
    /// Empty for the Game of Cycles on a graph with faces (outcome only).
    pub g: Option<u16>,
    pub outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faces: Option<usize>,
}

/// Each thread's memos, kept across the graphs it runs.
#[derive(Default)]
struct Memos {
    octal: Option<MemoSolver<'static>>,
    arrows: ArrowMemo,
}

/// Every graph's row, in order; `done` is called as each finishes. A graph
/// the game cannot be played on is an input error naming it.
pub fn solve_batch(
    graphs: &[BatchGraph],
    game: &BatchGame,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<BatchRow>> {
    graphs
        .par_iter()
        .map_init(Memos::default, |memos, item| {
            let row = row_of(item, game, memos);
            done();
            row.map_err(|e| match e {
                Error::Input(m) => Error::Input(format!("graph {}: {m}", item.graph.spec)),
                other => other,
            })
        })
        .collect()
}

fn row_of(item: &BatchGraph, game: &BatchGame, memos: &mut Memos) -> Result<BatchRow> {
    let g = &item.graph;
    let mut row = BatchRow {
        graph6: g.to_graph6(),
        vertices: g.n(),
        edges: g.edge_count(),
        g: None,
        outcome: "P",
        moves: None,
        faces: None,
    };
    let value = match game {
        // The memo adds pieces: under misère play it takes only graphs
        // and codes where no position is a sum (`takes_misere`).
        BatchGame::Octal { code, moves }
            if *moves
                || (code.convention == Convention::Misere
                    && takes_misere(g, code, g.all()).is_err()) =>
        {
            let run = solve_reachable(g, code, false, &grundy_core::hooks::Silent)?;
            row.moves = moves.then_some(run.moves);
            Some(run.value as u16)
        }
        BatchGame::Octal { code, .. } => {
            let memo = match &mut memos.octal {
                Some(m) if m.positions() < MEMO_PIECES => m,
                slot => slot.insert(MemoSolver::new(code)),
            };
            Some(memo.value(g, g.all())? as u16)
        }
        BatchGame::Arrows { trimmed } => {
            let rule = match trimmed {
                true => ArrowRule::Trimmed,
                false => ArrowRule::Arrows,
            };
            Some(arrows_value(&ArrowGame::new(g, rule, Vec::new()), memos)?)
        }
        BatchGame::Cycles => {
            let has_faces = !item.faces.is_empty();
            // Without cycle cells the Game of Cycles is the Game of Arrows.
            let rule = if has_faces {
                ArrowRule::Cycles
            } else {
                ArrowRule::Arrows
            };
            let game = ArrowGame::new(g, rule, Vec::new())
                .with_faces(&item.faces)
                .map_err(|e| Error::Input(format!("bad face: {e}")))?;
            row.faces = Some(game.faces.len());
            let v = arrows_value(&game, memos)?;
            row.outcome = if v == 0 { "P" } else { "N" };
            (!has_faces).then_some(v)
        }
    };
    if let Some(v) = value {
        row.g = Some(v);
        row.outcome = if v == 0 { "P" } else { "N" };
    }
    Ok(row)
}

/// G from the empty state: the memo on forests (no cycle cells), else a
/// dense table on the CPU.
fn arrows_value(game: &ArrowGame, memos: &mut Memos) -> Result<u16> {
    let empty = vec![0; game.edges.len()];
    if game.faces.is_empty() && game.is_forest() {
        return memos
            .arrows
            .value_of_state(game, &empty)
            .map_err(Error::Input);
    }
    let run = solve_dense(
        game,
        &empty,
        &Backend::Cpu,
        false,
        &grundy_core::hooks::Silent,
    )?;
    Ok(run.value as u16)
}
