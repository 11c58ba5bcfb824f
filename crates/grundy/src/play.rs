//! `Position`: who wins a position, and every winning move, as `grundy
//! play` reports it; `play_sum` for a sum of positions of different games.
//! Positions are written as the command line writes them (`"3x5,2x7"`,
//! `"0>1,1>2"`, a graph spec), heaps as numbers.

use std::path::Path;

use grundy_core::error::{Error, Result};
use grundy_core::game::delete_nim::Rule;
use grundy_core::game::{Code, GraphCode};
use grundy_engine::play::{self as engine, Part};

pub use grundy_engine::play::{Component, MoveLimit, Play, PlayReport, WinningMove, parse_heaps};

/// One game's position: its components and their values, ready to report
/// alone (`report`) or to add to a sum (`play_sum`).
///
/// ```
/// use grundy::play::{Play, Position};
///
/// // Heaps 5, 7 and 9 of Dawson's Kayles (0.07): 0 xor 1 xor 0 = 1, a win
/// // in six ways; the first takes 2 from the heap of 5, leaving 3 (G 1).
/// let report = Position::heaps("0.07", &[5, 7, 9])?.report(None)?;
/// assert_eq!((report.nim_sum, report.outcome, report.winning_moves_total), (1, "N", 6));
/// let first = &report.winning_moves[0];
/// assert_eq!((first.component, &first.play), (0, &Play::Left(vec![3])));
/// # Ok::<(), grundy::Error>(())
/// ```
pub struct Position(Part);

impl Position {
    /// Heaps of a take-and-break game in CGSuite's code notation (`0.07`,
    /// `4!.0`), each heap a component; heaps up to 2^24.
    pub fn heaps(code: &str, heaps: &[u64]) -> Result<Position> {
        let code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
        Ok(Position(engine::heap_part(&code, heaps, code.name())?))
    }

    /// Heaps of a parsed take-and-break code (one with a minimum
    /// difference, say), each heap a component.
    pub fn code(code: &Code, heaps: &[u64]) -> Result<Position> {
        Ok(Position(engine::heap_part(code, heaps, code.name())?))
    }

    /// Heaps of the subtraction game whose moves take a number in `set`.
    pub fn subtraction(set: &[u32], heaps: &[u64]) -> Result<Position> {
        Ok(Position(engine::subtraction_part(set, heaps)?))
    }

    /// An octal game on a graph (`grundy play graph`): its connected
    /// components are the sum; `graph` is a spec such as `grid:2x3+path:4`.
    pub fn graph(code: &str, graph: &str) -> Result<Position> {
        let code = GraphCode::parse(code).map_err(Error::Input)?;
        Ok(Position(engine::graph_part(&code, graph)?))
    }

    /// The Game of Arrows (`trimmed`: its trimmed variant) on a graph, from
    /// a state such as `0>1` (none: every edge unmarked).
    pub fn arrows(graph: &str, state: Option<&str>, trimmed: bool) -> Result<Position> {
        Ok(Position(engine::arrows_part(graph, state, trimmed)?))
    }

    /// The Game of Cycles on a graph, its faces read from `faces`, from a
    /// state. Its value is the outcome, not a Grundy value: it stands
    /// alone, never in a sum (unless the graph has no faces).
    pub fn cycles(graph: &str, faces: Option<&Path>, state: Option<&str>) -> Result<Position> {
        Ok(Position(engine::cycles_part(graph, faces, state)?))
    }

    /// Boxes of Grundy's game on rectangles (`3x5,2x7`), each a
    /// component; a cut leaves parts at least `min_diff` apart in area (1:
    /// Grundy's rule, unequal parts; 0: equal parts allowed).
    pub fn rect(boxes: &str, min_diff: u32) -> Result<Position> {
        Ok(Position(engine::rect_part(boxes, min_diff)?))
    }

    /// A Delete Nim position under `rule` (`k` for the (k−1)/k rule), the
    /// heaps written `0,5`.
    pub fn delete_nim(rule: Rule, k: Option<usize>, heaps: &str) -> Result<Position> {
        Ok(Position(engine::delete_nim_part(rule, k, heaps)?))
    }

    /// Green Hackenbush on a graph, grounded at the vertices `ground`
    /// (`0` or `0,3`).
    pub fn hackenbush(graph: &str, ground: &str) -> Result<Position> {
        Ok(Position(engine::hackenbush_part(graph, ground)?))
    }

    /// Why the position cannot be a component of a sum (the Game of Cycles
    /// with faces: its value is an outcome, not a Grundy value).
    pub fn not_summable(&self) -> Option<&str> {
        self.0.not_summable.as_deref()
    }

    /// The components' values, the nim-sum, the outcome, and the winning
    /// moves (the first `limit` listed; `None`: every one; the count is
    /// always of every one).
    pub fn report(self, limit: Option<usize>) -> Result<PlayReport> {
        engine::report(self.0, MoveLimit(limit))
    }
}

/// Heaps of a take-and-break code under misère play (the last player to
/// move loses), as `grundy play octal CODE HEAPS --misere` reports them:
/// the sum's misère value, searched over the whole sum (misère play has no
/// nim-sum), and the moves to a sum of misère value 0 (up to `limit`).
///
/// ```
/// // Misère Nim: heaps 1, 1, 1 are a P-position (an odd count of ones);
/// // 2, 2 too (no heap of 1 and nim-sum 0); 1, 2 is won by taking the 2.
/// let code = grundy::game::Code::parse("0.[3]").unwrap();
/// assert_eq!(grundy::play::misere_heaps(&code, &[1, 1, 1], None)?.outcome, "P");
/// assert_eq!(grundy::play::misere_heaps(&code, &[2, 2], None)?.outcome, "P");
/// let won = grundy::play::misere_heaps(&code, &[1, 2], None)?;
/// assert_eq!((won.outcome, won.winning_moves_total), ("N", 1));
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn misere_heaps(code: &Code, heaps: &[u64], limit: Option<usize>) -> Result<PlayReport> {
    engine::misere_heap_play(code, heaps, code.name(), MoveLimit(limit))
}

/// A Delete Nim position under misère play: its misère value from the
/// misère table of every position up to its heaps, and every move to a
/// position of misère value 0 (up to `limit` listed).
pub fn misere_delete_nim(
    rule: Rule,
    k: Option<usize>,
    heaps: &str,
    limit: Option<usize>,
) -> Result<PlayReport> {
    engine::misere_delete_nim_play(rule, k, heaps, MoveLimit(limit))
}

/// An octal game on a graph under misère play: every component together
/// is one position (misère play has no nim-sum), valued by a dense table
/// over the whole graph's vertex subsets (up to 24 vertices); every move
/// to misère value 0 (up to `limit` listed).
///
/// ```
/// use grundy::game::GraphCode;
/// // 0.33 on a path of 2 vertices: under normal play the first player
/// // takes both and wins; under misère play taking both loses, so the
/// // winner takes one.
/// let code = GraphCode::parse("0.33").unwrap();
/// let r = grundy::play::misere_graph(&code, "path:2", None)?;
/// assert_eq!((r.outcome, r.winning_moves_total), ("N", 2));
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn misere_graph(code: &GraphCode, spec: &str, limit: Option<usize>) -> Result<PlayReport> {
    engine::misere_graph_play(code, spec, MoveLimit(limit))
}

/// The Game of Arrows (`trimmed`: its trimmed variant) under misère play,
/// from a state: every component together is one position, valued by a
/// dense table over the whole graph's states; every move to misère value
/// 0 (up to `limit` listed).
pub fn misere_arrows(
    spec: &str,
    state: Option<&str>,
    trimmed: bool,
    limit: Option<usize>,
) -> Result<PlayReport> {
    engine::misere_arrows_play(spec, state, trimmed, MoveLimit(limit))
}

/// Green Hackenbush on a graph grounded at `ground`, under misère play
/// (the last player to cut loses): the rooted graph's misère value and
/// every cut to misère value 0 (up to `limit` listed).
pub fn misere_hackenbush(spec: &str, ground: &str, limit: Option<usize>) -> Result<PlayReport> {
    engine::misere_hackenbush_play(spec, ground, MoveLimit(limit))
}

/// Boxes of Grundy's game on rectangles (`3x5,2x7`) or boxes side by side
/// under misère play: the sum's misère value, searched over whole sums of
/// shapes, and every cut to misère value 0 (up to `limit` listed).
pub fn misere_rect(boxes: &str, min_diff: u32, limit: Option<usize>) -> Result<PlayReport> {
    engine::misere_rect_play(boxes, min_diff, MoveLimit(limit))
}

/// A sum of positions of any games (the Game of Cycles with faces excepted):
/// each component is named with its game.
///
/// ```
/// use grundy::play::{Position, play_sum};
///
/// // A heap of 5 in subtraction {1,2} (value 2) and a heap of 6 in
/// // subtraction {1,3} (value 0): a win, by taking 2 from the first.
/// let sum = play_sum(
///     vec![Position::subtraction(&[1, 2], &[5])?, Position::subtraction(&[1, 3], &[6])?],
///     None,
/// )?;
/// assert_eq!((sum.nim_sum, sum.winning_moves_total), (2, 1));
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn play_sum(positions: Vec<Position>, limit: Option<usize>) -> Result<PlayReport> {
    let parts = positions.into_iter().map(|p| p.0).collect();
    engine::sum_report(parts, MoveLimit(limit), true)
}

/// A sum of positions of different games under misère play (the last
/// player to move loses), as `grundy play sum --misere` reports it: there
/// is no nim-sum, so the whole sum is searched, and every move to a sum of
/// misère value 0 is found (the first `limit` listed). The Game of Cycles,
/// where completing a cycle cell wins outright, is refused.
///
/// ```
/// use grundy::play::{Position, misere_play_sum};
///
/// // A heap of 1 of Nim (0.[3]) beside a 1x3 rectangle (one cut, to 1x1
/// // and 1x2, which have none): two games of one move each. Their nim-sum
/// // is 0, a loss under normal play; under misère play the player to move
/// // wins by moving in either, leaving the last move to the other.
/// let sum = misere_play_sum(
///     vec![Position::heaps("0.[3]", &[1])?, Position::rect("1x3", 1)?],
///     None,
/// )?;
/// assert_eq!((sum.nim_sum, sum.outcome, sum.misere_value), (0, "N", Some(1)));
/// assert_eq!(sum.winning_moves_total, 2);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn misere_play_sum(positions: Vec<Position>, limit: Option<usize>) -> Result<PlayReport> {
    let parts = positions.into_iter().map(|p| p.0).collect();
    engine::misere_sum_report(parts, limit)
}
