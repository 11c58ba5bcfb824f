//! `play sum --misere`: a sum of components of different games under
//! misère play, where the last player to move loses. Misère play has no
//! nim-sum, so the sum is searched whole (`analysis::whole_sum`): each
//! game hands over its components as pieces (`Pieces`) and their moves,
//! every distinct piece met gets a number, and sums are remembered by the
//! multiset of their pieces' numbers. A winning move is one to a sum of
//! misère value 0.

use std::cell::RefCell;
use std::collections::HashMap;

use super::report::{Part, Piece, PieceMoves, PlayReport, WinningMove, side_by_side, sum_position};
use crate::memory::{sums_within_budget, walk_before_search, walked_note, whole_sum_error};
use grundy_core::analysis::whole_sum::{Parts, Stopped, SumSearch};
use grundy_core::error::{Error, Result};
use grundy_core::game::Convention;

/// Pieces of several games, each numbered the first time it is met: a
/// piece is its game's index and its key.
struct Numbered<'a> {
    moves: Vec<&'a PieceMoves>,
    ids: RefCell<HashMap<(usize, Piece), u32>>,
    pieces: RefCell<Vec<(usize, Piece)>>,
}

impl Numbered<'_> {
    /// The number of `piece` of game `game`.
    fn id(&self, game: usize, piece: &[u64]) -> u32 {
        let key = (game, piece.to_vec());
        if let Some(&id) = self.ids.borrow().get(&key) {
            return id;
        }
        let mut pieces = self.pieces.borrow_mut();
        let id = pieces.len() as u32;
        pieces.push(key.clone());
        self.ids.borrow_mut().insert(key, id);
        id
    }

    /// The numbers of the pieces of `game` in `left`.
    fn ids(&self, game: usize, left: &[Piece]) -> Vec<u32> {
        left.iter().map(|p| self.id(game, p)).collect()
    }
}

impl Parts for &Numbered<'_> {
    fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32])) {
        let (game, piece) = self.pieces.borrow()[part as usize].clone();
        for m in (self.moves[game])(&piece, false) {
            visit(&self.ids(game, &m.left));
        }
    }
}

/// The report of a sum of parts under misère play: the components' normal
/// values (labelled with their games) for comparison, the whole sum's
/// misère value and outcome, and every move to a sum of misère value 0
/// (the first `limit` listed).
pub fn misere_sum_report(mut parts: Vec<Part>, limit: Option<usize>) -> Result<PlayReport> {
    if let Some(part) = parts.iter().find(|p| p.pieces.is_none()) {
        return Err(Error::Input(format!(
            "component {}: misère play is not defined for it (completing a cycle cell wins \
             outright); expected games where the last player to move loses",
            part.game
        )));
    }
    let position = sum_position(&parts);
    let (components, owners, mut notes) = side_by_side(&mut parts, true);
    let pieces: Vec<_> = parts.iter().filter_map(|p| p.pieces.as_ref()).collect();
    let numbered = Numbered {
        moves: pieces.iter().map(|p| p.moves.as_ref()).collect(),
        ids: RefCell::default(),
        pieces: RefCell::default(),
    };
    let start: Vec<u32> = owners
        .iter()
        .map(|&(p, i)| numbered.id(p, &pieces[p].start[i]))
        .collect();
    let stop = || grundy_core::interrupt::requested();
    let mut search = SumSearch::new(&numbered, Convention::Misere, sums_within_budget(), &stop);
    let expected = "fewer or smaller components";
    let walked = walk_before_search(&mut search, &start, &position, expected)?;
    let too_many = |s: Stopped| whole_sum_error(s, &position, expected);
    let value = search.value(&start).map_err(too_many)?;
    let mut winning = Vec::new();
    for (k, &(p, i)) in owners.iter().enumerate() {
        for m in (pieces[p].moves)(&pieces[p].start[i], true) {
            let mut sum = start.clone();
            sum.remove(k);
            sum.extend(numbered.ids(p, &m.left));
            if search.value(&sum).map_err(too_many)? != 0 {
                continue;
            }
            let (text, to, play) = m.words.expect("asked for");
            winning.push(WinningMove {
                component: k,
                text,
                to,
                g: 0,
                play,
            });
        }
    }
    notes.push(format!(
        "misère play: the sum has no nim-sum; its misère value is searched over the whole sum \
         ({} sums remembered, of {} counted before the search), each move's too; the \
         components' values shown are normal play's",
        search.positions(),
        walked_note(&walked)
    ));
    let nim_sum = components.iter().fold(0, |s, c| s ^ c.g);
    Ok(PlayReport {
        game: "sum of games".into(),
        position,
        components,
        nim_sum,
        convention: Convention::Misere,
        misere_value: Some(value),
        outcome: if value == 0 { "P" } else { "N" },
        winning_moves_total: winning.len(),
        winning_moves: winning
            .into_iter()
            .take(limit.unwrap_or(usize::MAX))
            .collect(),
        notes,
    })
}
