//! Games over tuples: Grundy's game on rectangles and boxes (each box a
//! component; a cut leaves two) and the Delete Nim rules (the whole tuple
//! of heaps one component: a move changes several heaps at once).

use super::report::{Component, MisereOptions, Part, PieceMove, Pieces, Play, and_list};
use crate::Backend;
use crate::memory::{sums_within_budget, walk_before_search, whole_sum_error};
use crate::tuples::rect_sums::Shapes;
use crate::tuples::table::solve;
use grundy_core::analysis::whole_sum::{Stopped, SumSearch};
use grundy_core::error::{Error, Result};
use grundy_core::game::Convention;
use grundy_core::game::delete_nim::{DeleteMove, DeleteNim, Rule};
use grundy_core::game::rect::{Rect, box_name};
use grundy_core::kernel::tuples::TupleKernel;

/// `3x5,2x7` (or `3x5+2x7`): boxes with 2 or 3 sides each, all alike.
pub fn parse_boxes(text: &str) -> Result<Vec<Vec<u32>>> {
    let bad = |why: String| {
        Error::Input(format!(
            "bad boxes '{text}': {why}; expected rectangles like 3x5,2x7 or boxes like 2x3x4"
        ))
    };
    let mut boxes = Vec::new();
    for piece in text.split([',', '+']) {
        let sides = piece
            .trim()
            .split('x')
            .map(|s| s.trim().parse::<u32>().ok().filter(|&v| v >= 1))
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(|| {
                bad(format!(
                    "'{}' is not a box of sides 1 or more",
                    piece.trim()
                ))
            })?;
        boxes.push(sides);
    }
    let dims = boxes[0].len();
    if !(2..=3).contains(&dims) || boxes.iter().any(|b| b.len() != dims) {
        return Err(bad(
            "every box needs the same number of sides, 2 or 3".into()
        ));
    }
    Ok(boxes)
}

/// The most positions a table `play` makes may hold (a second or two).
const PLAY_POSITIONS: u64 = 1 << 22;

/// A table of every position up to the largest given (CPU), when it is
/// small enough to answer at once.
fn tuple_table(kern: &TupleKernel, command: &str) -> Result<Vec<u32>> {
    let count = kern.space.count();
    if count > PLAY_POSITIONS {
        return Err(Error::Input(format!(
            "this position needs a table of {count} positions; play makes at most \
             {PLAY_POSITIONS}; expected smaller sizes (`grundy {command}` makes whole tables)"
        )));
    }
    Ok(solve(kern, &Backend::Cpu, &grundy_core::hooks::Silent)?.table)
}

/// Boxes of Grundy's game on rectangles (or boxes) side by side.
pub fn rect_part(boxes_text: &str, min_diff: u32) -> Result<Part> {
    let boxes = parse_boxes(boxes_text)?;
    let rect = Rect::new(boxes[0].len(), min_diff).map_err(Error::Input)?;
    let max = boxes.iter().flatten().copied().max().unwrap_or(1);
    let kern = TupleKernel::rect(rect.clone(), max).map_err(Error::Input)?;
    let table = tuple_table(&kern, "rect")?;
    let value = move |sides: &[u32]| {
        let mut s = sides.to_vec();
        s.sort_unstable();
        table[kern.space.rank(&s) as usize]
    };
    let components = boxes
        .iter()
        .map(|b| Component {
            component: box_name(b),
            g: value(b),
        })
        .collect();
    let names: Vec<String> = boxes.iter().map(|b| box_name(b)).collect();
    let pieces = rect_pieces(&rect, &boxes);
    let boxes_dims = rect.dims;
    let moves_to = move |i: usize, target: u32, _: &mut Vec<String>| {
        let from = &boxes[i];
        let mut found = Vec::new();
        for (a, b) in rect.cuts_of(from) {
            if value(&a) ^ value(&b) == target {
                let (na, nb) = (box_name(&a), box_name(&b));
                let text = format!("cut {} into {na} and {nb}", box_name(from));
                found.push((text, format!("{na}+{nb}"), Play::Boxes(vec![a, b])));
            }
        }
        Ok(found)
    };
    let game = match (boxes_dims, min_diff) {
        (2, 1) => "Grundy's game on rectangles".to_string(),
        (3, 1) => "Grundy's game on boxes".to_string(),
        (2, d) => format!("Grundy's game on rectangles, pieces differing by {d}"),
        (_, d) => format!("Grundy's game on boxes, pieces differing by {d}"),
    };
    Ok(Part {
        game,
        position: names.join(" + "),
        components,
        moves_to: Box::new(moves_to),
        not_summable: None,
        notes: Vec::new(),
        pieces: Some(pieces),
    })
}

/// Boxes as pieces: a box's sides, sorted; a cut leaves two boxes.
fn rect_pieces(rect: &Rect, boxes: &[Vec<u32>]) -> Pieces {
    let rect = rect.clone();
    let key = |sides: &[u32]| {
        let mut key: Vec<u64> = sides.iter().map(|&s| s as u64).collect();
        key.sort_unstable();
        key
    };
    let moves = move |piece: &[u64], words: bool| {
        let from: Vec<u32> = piece.iter().map(|&s| s as u32).collect();
        let cut = |(a, b): (Vec<u32>, Vec<u32>)| {
            let (na, nb) = (box_name(&a), box_name(&b));
            let text = format!("cut {} into {na} and {nb}", box_name(&from));
            let left = vec![key(&a), key(&b)];
            let words = words.then(|| (text, format!("{na}+{nb}"), Play::Boxes(vec![a, b])));
            PieceMove { words, left }
        };
        rect.cuts_of(&from).into_iter().map(cut).collect()
    };
    Pieces {
        start: boxes.iter().map(|b| key(b)).collect(),
        moves: Box::new(moves),
    }
}

/// Boxes of Grundy's game on rectangles (or boxes) side by side under
/// misère play: the sum's misère value, searched over whole sums of shapes
/// (misère play has no nim-sum), and each cut with the misère value of the
/// sum it leaves (for `misere_whole`).
pub fn rect_misere(boxes_text: &str, min_diff: u32) -> Result<(u32, MisereOptions)> {
    let boxes = parse_boxes(boxes_text)?;
    let rect = Rect::new(boxes[0].len(), min_diff).map_err(Error::Input)?;
    let max = boxes.iter().flatten().copied().max().unwrap_or(1);
    let kern = TupleKernel::rect(rect.clone(), max).map_err(Error::Input)?;
    let space = &kern.space;
    let rank = |sides: &[u32]| {
        let mut s = sides.to_vec();
        s.sort_unstable();
        space.rank(&s)
    };
    let stop = || grundy_core::interrupt::requested();
    let shapes = Shapes::new(&rect, space);
    let mut search = SumSearch::new(shapes, Convention::Misere, sums_within_budget(), &stop);
    let expected = "fewer or smaller boxes";
    let parts: Vec<u32> = boxes.iter().map(|b| rank(b)).collect();
    walk_before_search(&mut search, &parts, boxes_text, expected)?;
    let too_many = |s: Stopped| whole_sum_error(s, boxes_text, expected);
    let value = search.value(&parts).map_err(too_many)?;
    let mut options = Vec::new();
    for (i, from) in boxes.iter().enumerate() {
        for (a, b) in rect.cuts_of(from) {
            let mut sum = parts.clone();
            sum.remove(i);
            sum.extend([rank(&a), rank(&b)]);
            let after = search.value(&sum).map_err(too_many)?;
            let (na, nb) = (box_name(&a), box_name(&b));
            let text = format!("cut {} into {na} and {nb}", box_name(from));
            options.push((
                i,
                text,
                format!("{na}+{nb}"),
                Play::Boxes(vec![a, b]),
                after,
            ));
        }
    }
    Ok((value, options))
}

/// `4,6` → [4, 6]: heaps of a Delete Nim position (empty heaps only in
/// Delete Nim itself).
fn parse_tuple(text: &str) -> Result<Vec<u32>> {
    text.split([',', '+'])
        .map(|t| {
            t.trim().parse::<u32>().map_err(|_| {
                Error::Input(format!(
                    "bad heaps '{text}': '{}' is not a heap; expected whole numbers like 4,6",
                    t.trim()
                ))
            })
        })
        .collect()
}

/// A Delete Nim position read: the game, its heaps as stored (shifted,
/// sorted), the shift, and the kernel of every position up to its heaps.
struct DeletePosition {
    game: DeleteNim,
    stored: Vec<u32>,
    shift: u32,
    kern: TupleKernel,
}

fn delete_position(rule: Rule, k: Option<usize>, heaps_text: &str) -> Result<DeletePosition> {
    let heaps = parse_tuple(heaps_text)?;
    let game = DeleteNim::new(rule, heaps.len(), k)
        .map_err(|e| Error::Input(format!("{} heaps given: {e}", heaps.len())))?;
    let shift = game.shift();
    if shift == 0 && heaps.contains(&0) {
        return Err(Error::Input(format!(
            "bad heaps '{heaps_text}': the {} rule's heaps are never empty; expected heaps of 1 or more",
            rule.name()
        )));
    }
    let max = heaps.iter().copied().max().unwrap_or(1).max(1);
    let kern = TupleKernel::delete_nim(game.clone(), max, true).map_err(Error::Input)?;
    let mut stored: Vec<u32> = heaps.iter().map(|h| h + shift).collect();
    stored.sort_unstable();
    Ok(DeletePosition {
        game,
        stored,
        shift,
        kern,
    })
}

/// A Delete Nim position under misère play (the last player to move
/// loses): its misère value from the misère table of every position up to
/// its heaps, and each option with its misère value (for `misere_whole`).
pub fn delete_nim_misere(
    rule: Rule,
    k: Option<usize>,
    heaps_text: &str,
) -> Result<(u32, MisereOptions)> {
    let DeletePosition {
        game,
        stored,
        shift,
        kern,
    } = delete_position(rule, k, heaps_text)?;
    let kern = kern.under(Convention::Misere);
    let table = tuple_table(&kern, "delete-nim")?;
    let value = |s: &[u32]| table[kern.space.rank(s) as usize];
    let options = game
        .options(&stored)
        .into_iter()
        .map(|option| {
            let left = option.left.iter().map(|&h| (h - shift) as u64).collect();
            let to = heaps_name(&option.left, shift);
            let g = value(&option.left);
            (0, delete_text(&option, shift), to, Play::Left(left), g)
        })
        .collect();
    Ok((value(&stored), options))
}

/// A Delete Nim position: the tuple is one component.
pub fn delete_nim_part(rule: Rule, k: Option<usize>, heaps_text: &str) -> Result<Part> {
    let DeletePosition {
        game,
        stored,
        shift,
        kern,
    } = delete_position(rule, k, heaps_text)?;
    let table = tuple_table(&kern, "delete-nim")?;
    let value = move |stored: &[u32]| table[kern.space.rank(stored) as usize];
    let name = heaps_name(&stored, shift);
    let component = Component {
        component: name.clone(),
        g: value(&stored),
    };
    let pieces = delete_nim_pieces(&game, &stored, shift);
    let moves_to = move |_: usize, target: u32, _: &mut Vec<String>| {
        let mut found = Vec::new();
        for option in game.options(&stored) {
            if value(&option.left) == target {
                let left = option.left.iter().map(|&h| (h - shift) as u64).collect();
                let to = heaps_name(&option.left, shift);
                found.push((delete_text(&option, shift), to, Play::Left(left)));
            }
        }
        Ok(found)
    };
    Ok(Part {
        game: format!("Delete Nim, rule {}", rule.name()),
        position: name,
        components: vec![component],
        moves_to: Box::new(moves_to),
        not_summable: None,
        notes: Vec::new(),
        pieces: Some(pieces),
    })
}

/// A Delete Nim position as one piece: its stored sizes; a move leaves
/// one position.
fn delete_nim_pieces(game: &DeleteNim, stored: &[u32], shift: u32) -> Pieces {
    let game = game.clone();
    let moves = move |piece: &[u64], words: bool| {
        let sizes: Vec<u32> = piece.iter().map(|&s| s as u32).collect();
        let option = |option: DeleteMove| {
            let words = words.then(|| {
                let left = option.left.iter().map(|&h| (h - shift) as u64).collect();
                let to = heaps_name(&option.left, shift);
                (delete_text(&option, shift), to, Play::Left(left))
            });
            let mut left: Vec<u64> = option.left.iter().map(|&s| s as u64).collect();
            left.sort_unstable();
            PieceMove {
                words,
                left: vec![left],
            }
        };
        game.options(&sizes).into_iter().map(option).collect()
    };
    Pieces {
        start: vec![stored.iter().map(|&s| s as u64).collect()],
        moves: Box::new(moves),
    }
}

/// Heaps as the user writes them (stored sizes less `shift`): `4,6`.
fn heaps_name(stored: &[u32], shift: u32) -> String {
    let heaps: Vec<String> = stored.iter().map(|h| (h - shift).to_string()).collect();
    heaps.join(",")
}

/// A Delete Nim move in words, in the user's sizes.
fn delete_text(option: &DeleteMove, shift: u32) -> String {
    let deleted: Vec<String> = option
        .deleted
        .iter()
        .map(|h| (h - shift).to_string())
        .collect();
    let splits: Vec<String> = option
        .split
        .iter()
        .map(|(h, parts)| {
            let parts: Vec<String> = parts.iter().map(|p| (p - shift).to_string()).collect();
            match shift {
                // Delete Nim: a token is taken, the rest split (parts may be empty).
                1 => format!(
                    "take a token from {} and split the rest into {}",
                    h - shift,
                    and_list(&parts)
                ),
                _ => format!("split {h} into {}", and_list(&parts)),
            }
        })
        .collect();
    format!("delete {}, {}", and_list(&deleted), and_list(&splits))
}
