//! `play` of heap games under misère play. A sum has no nim-sum there: its
//! misère value is searched over the whole sum (`analysis::whole_sum`), and
//! a winning move is one to a sum whose misère value is 0.

use super::heaps::{heap_move, heap_part};
use super::report::{MoveLimit, Part, PlayReport, WinningMove};
use crate::memory::{human, sums_within_budget};
use grundy_core::analysis::genus::HeapsAndNimHeaps;
use grundy_core::analysis::whole_sum::{POSITION_BYTES, Stopped, SumSearch};
use grundy_core::error::{Error, Result};
use grundy_core::game::{Code, Convention};

/// Moves of one heap looked at, at most.
const MOVE_LIMIT: u64 = 1_000_000;

/// A misère report's start: the heaps' normal values and their nim-sum,
/// for comparison. Normal play's moves to a nim-sum of 0 are not looked
/// for: they are not misère play's winning moves.
fn normal_columns(part: Part) -> PlayReport {
    let nim_sum = part.components.iter().fold(0, |s, c| s ^ c.g);
    PlayReport {
        game: part.game,
        position: part.position,
        components: part.components,
        nim_sum,
        convention: Convention::Misere,
        misere_value: None,
        outcome: "N",
        winning_moves_total: 0,
        winning_moves: Vec::new(),
        notes: part.notes,
    }
}

/// The report of heaps of `code` under misère play: the components' normal
/// values beside the whole sum's misère value, and every move to a sum of
/// misère value 0 (up to `limit` listed).
pub fn misere_heap_play(
    code: &Code,
    heaps: &[u64],
    name: String,
    limit: MoveLimit,
) -> Result<PlayReport> {
    let mut r = normal_columns(heap_part(code, heaps, name)?);
    let cap = sums_within_budget();
    let stop = || grundy_core::interrupt::requested();
    let mut search = SumSearch::new(HeapsAndNimHeaps::new(code), Convention::Misere, cap, &stop);
    let parts: Vec<u32> = heaps.iter().map(|&h| HeapsAndNimHeaps::heap(h)).collect();
    let too_many = |s: Stopped| match s.full {
        true => Error::WontFit(format!(
            "the misère value of {} needs more than {} sums searched whole ({}); expected \
             fewer or smaller heaps",
            r.position,
            s.positions,
            human(s.positions as u64 * POSITION_BYTES)
        )),
        false => Error::Stopped("stopped while searching the sum under misère play".into()),
    };
    let value = search.value(&parts).map_err(too_many)?;
    let mut moves = Vec::new();
    let mut total = 0;
    for (k, &h) in heaps.iter().enumerate() {
        let mut options = Vec::new();
        let complete = code.for_each_move(h, MOVE_LIMIT, &mut |take, left| {
            options.push((take, left.to_vec()))
        });
        if !complete {
            r.notes.push(format!(
                "the heap of {h} has more than {MOVE_LIMIT} moves; winning moves among the first \
                 {MOVE_LIMIT} are counted"
            ));
        }
        for (take, left) in options {
            let mut sum: Vec<u32> = parts.clone();
            sum.remove(k);
            sum.extend(left.iter().map(|&x| HeapsAndNimHeaps::heap(x)));
            if search.value(&sum).map_err(too_many)? != 0 {
                continue;
            }
            total += 1;
            if limit.0.is_none_or(|l| moves.len() < l) {
                let (text, to, play) = heap_move(h, take, &left);
                moves.push(WinningMove {
                    component: k,
                    text,
                    to,
                    g: 0,
                    play,
                });
            }
        }
    }
    r.misere_value = Some(value);
    r.outcome = if value == 0 { "P" } else { "N" };
    (r.winning_moves_total, r.winning_moves) = (total, moves);
    r.notes.push(format!(
        "misère play: the sum has no nim-sum; its misère value is searched over the whole sum \
         ({} sums)",
        search.positions()
    ));
    Ok(r)
}
