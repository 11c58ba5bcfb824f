//! `play` under misère play of positions valued whole: a Delete Nim
//! position (one component) and an octal game on a graph (every component
//! together). Each family gives the position's misère value and its
//! options with theirs, from its misère table; a winning move is one to an
//! option of misère value 0.

use super::graphs::{
    arrows_misere, arrows_part, graph_misere, graph_part, hackenbush_misere, hackenbush_part,
};
use super::misere::normal_columns;
use super::report::{MisereOptions, MoveLimit, Part, PlayReport, WinningMove};
use super::tuples::{delete_nim_misere, delete_nim_part, rect_misere, rect_part};
use grundy_core::error::Result;
use grundy_core::game::GraphCode;
use grundy_core::game::delete_nim::Rule;

/// A Delete Nim position under misère play.
pub fn misere_delete_nim_play(
    rule: Rule,
    k: Option<usize>,
    heaps: &str,
    limit: MoveLimit,
) -> Result<PlayReport> {
    let normal = delete_nim_part(rule, k, heaps)?;
    let (value, options) = delete_nim_misere(rule, k, heaps)?;
    let note = "misère play: the position's misère value is read from the misère table of every \
                position up to its heaps";
    Ok(whole_report(normal, value, options, limit, note))
}

/// An octal game on a graph under misère play: the whole graph is one
/// position (its components have no nim-sum to be added by).
pub fn misere_graph_play(code: &GraphCode, spec: &str, limit: MoveLimit) -> Result<PlayReport> {
    let normal = graph_part(code, spec)?;
    let (value, options) = graph_misere(code, spec)?;
    let note = "misère play: the components are valued together, by a dense table of misère \
                values over every vertex subset of the whole graph (misère play has no nim-sum); \
                the components' values shown are normal play's";
    Ok(whole_report(normal, value, options, limit, note))
}

/// The Game of Arrows (or its trimmed variant) under misère play: every
/// component together is one position.
pub fn misere_arrows_play(
    spec: &str,
    state: Option<&str>,
    trimmed: bool,
    limit: MoveLimit,
) -> Result<PlayReport> {
    let normal = arrows_part(spec, state, trimmed)?;
    let (value, options) = arrows_misere(spec, state, trimmed)?;
    let note = "misère play: the components are valued together, by a dense table of misère \
                values over every state of the whole graph (misère play has no nim-sum); the \
                components' values shown are normal play's";
    Ok(whole_report(normal, value, options, limit, note))
}

/// Green Hackenbush under misère play: the rooted graph is one position.
pub fn misere_hackenbush_play(spec: &str, ground: &str, limit: MoveLimit) -> Result<PlayReport> {
    let normal = hackenbush_part(spec, ground)?;
    let (value, options) = hackenbush_misere(spec, ground)?;
    let note = "misère play: the last player to cut loses; the misère value is the rooted \
                graph's, each cut's from the positions it leaves";
    Ok(whole_report(normal, value, options, limit, note))
}

/// Boxes of Grundy's game on rectangles (or boxes) side by side under
/// misère play: the sum searched whole.
pub fn misere_rect_play(boxes: &str, min_diff: u32, limit: MoveLimit) -> Result<PlayReport> {
    let normal = rect_part(boxes, min_diff)?;
    let (value, options) = rect_misere(boxes, min_diff)?;
    let note = "misère play: the boxes have no nim-sum; the misère value is searched over whole \
                sums of shapes, each cut's too";
    Ok(whole_report(normal, value, options, limit, note))
}

/// The report: the normal columns of `normal` for comparison, the whole
/// position's misère value and outcome, and its moves to misère value 0.
fn whole_report(
    normal: Part,
    value: u32,
    options: MisereOptions,
    limit: MoveLimit,
    note: &str,
) -> PlayReport {
    let mut r = normal_columns(normal);
    let winning: Vec<WinningMove> = options
        .into_iter()
        .filter(|o| o.4 == 0)
        .map(|(component, text, to, play, g)| WinningMove {
            component,
            text,
            to,
            g,
            play,
        })
        .collect();
    r.winning_moves_total = winning.len();
    r.winning_moves = winning
        .into_iter()
        .take(limit.0.unwrap_or(usize::MAX))
        .collect();
    r.misere_value = Some(value);
    r.outcome = if value == 0 { "P" } else { "N" };
    r.notes.push(note.to_string());
    r
}
