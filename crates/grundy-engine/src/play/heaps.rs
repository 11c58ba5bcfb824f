//! Heaps of a take-and-break game (octal codes, subtraction games): each
//! heap is a component, its moves the code's.

use super::report::{
    Component, MoveLimit, Part, PieceMove, Pieces, Play, PlayReport, and_list, report,
};
use crate::heap::sequence::{Algorithm, SequenceRun};
use crate::heap::storage::table::HeapTable;
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;

/// The largest heap `play` computes a table for.
pub const MAX_PLAY_HEAP: u64 = 1 << 24;
/// Moves of one heap looked at, at most (codes that leave many heaps have more).
const MOVE_LIMIT: u64 = 1_000_000;

/// `5,7,9` (or `5+7+9`) → [5, 7, 9].
pub fn parse_heaps(text: &str) -> Result<Vec<u64>> {
    let heaps: Vec<u64> = text
        .split([',', '+'])
        .map(|part| {
            let part = part.trim();
            part.parse::<u64>()
                .ok()
                .filter(|&h| h <= MAX_PLAY_HEAP)
                .ok_or_else(|| {
                    Error::Input(format!(
                        "bad heaps '{text}': '{part}' is not a heap size; expected whole numbers \
                         up to {MAX_PLAY_HEAP} like 5,7,9"
                    ))
                })
        })
        .collect::<Result<_>>()?;
    Ok(heaps)
}

/// A sum of heaps of a take-and-break game, every winning move listed.
pub fn heap_play(code: &Code, heaps: &[u64], name: String) -> Result<PlayReport> {
    report(heap_part(code, heaps, name)?, MoveLimit(None))
}

/// Heaps of the subtraction game of `set`, named as `play` names it.
pub fn subtraction_part(set: &[u32], heaps: &[u64]) -> Result<Part> {
    let code = Code::subtraction(set).map_err(Error::Input)?;
    let text: Vec<String> = set.iter().map(u32::to_string).collect();
    let name = format!("subtraction {{{}}} ({})", text.join(","), code.text);
    heap_part(&code, heaps, name)
}

/// The heaps' values from the code's table, and their moves.
pub fn heap_part(code: &Code, heaps: &[u64], name: String) -> Result<Part> {
    if let Some(why) = crate::heap::brute::general::unsupported(code) {
        return Err(Error::Input(why));
    }
    if let Some(&big) = heaps.iter().find(|&&h| h > MAX_PLAY_HEAP) {
        return Err(Error::Input(format!(
            "bad heap {big}: expected heap sizes up to {MAX_PLAY_HEAP}"
        )));
    }
    let heaps = heaps.to_vec();
    let top = heaps.iter().copied().max().unwrap_or(0);
    let mut run = SequenceRun::new(code, Algorithm::Auto, HeapTable::default())?;
    run.extend_on_cpu(top)?;
    let table = run.table;
    let components = heaps
        .iter()
        .map(|&h| Component {
            component: h.to_string(),
            g: table.get(h as usize) as u32,
        })
        .collect();
    let pieces = heap_pieces(code, &heaps);
    let code = code.clone();
    let position: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let moves_to = move |i: usize, target: u32, notes: &mut Vec<String>| {
        let g = |h: u64| table.get(h as usize) as u32;
        let h = heaps[i];
        let mut found = Vec::new();
        let complete = code.for_each_move(h, MOVE_LIMIT, &mut |take, left| {
            if left.iter().fold(0, |s, &x| s ^ g(x)) == target {
                found.push(heap_move(h, take, left));
            }
        });
        if !complete {
            notes.push(format!(
                "the heap of {h} has more than {MOVE_LIMIT} moves; winning moves among the first \
                 {MOVE_LIMIT} are counted"
            ));
        }
        Ok(found)
    };
    Ok(Part {
        game: name,
        position: position.join(" + "),
        components,
        moves_to: Box::new(moves_to),
        not_summable: None,
        notes: Vec::new(),
        pieces: Some(pieces),
    })
}

/// Heaps as pieces: a heap's size; every move, none left out (the search
/// must see them all).
fn heap_pieces(code: &Code, heaps: &[u64]) -> Pieces {
    let code = code.clone();
    let moves = move |key: &[u64], words: bool| {
        let h = key[0];
        let mut found = Vec::new();
        code.for_each_move(h, u64::MAX, &mut |take, left| {
            found.push(PieceMove {
                words: words.then(|| heap_move(h, take, left)),
                left: left.iter().filter(|&&x| x > 0).map(|&x| vec![x]).collect(),
            })
        });
        found
    };
    Pieces {
        start: heaps.iter().map(|&h| vec![h]).collect(),
        moves: Box::new(moves),
    }
}

/// Taking `take` from the heap of h and leaving `left`, in words and numbers.
pub(super) fn heap_move(h: u64, take: u64, left: &[u64]) -> (String, String, Play) {
    let names: Vec<String> = left.iter().map(u64::to_string).collect();
    let text = match (take, left.len()) {
        (_, 0) => format!("take all {h} from the heap of {h}"),
        (0, _) => format!("split the heap of {h} into {}", and_list(&names)),
        (_, 1) => format!("take {take} from the heap of {h}, leaving {}", names[0]),
        _ => format!(
            "take {take} from the heap of {h}, leaving heaps of {}",
            and_list(&names)
        ),
    };
    let to = if names.is_empty() {
        "nothing".into()
    } else {
        names.join("+")
    };
    (text, to, Play::Left(left.to_vec()))
}
