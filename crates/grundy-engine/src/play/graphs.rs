//! Games on graphs: an octal game on a graph and the Game of Arrows (each
//! connected component a component of the sum), green Hackenbush (the
//! whole rooted graph one component) and the Game of Cycles (one
//! component, and no sums: completing a cycle cell wins at once).

use std::path::Path;

use super::report::{
    Component, MisereOptions, MoveLimit, Part, Piece, PieceMove, Pieces, Play, PlayReport,
    and_list, report,
};
use crate::Backend;
use crate::edges::arrows_dense::solve_dense;
use crate::edges::arrows_memo::ArrowMemo;
use crate::edges::hackenbush::{Hackenbush, parse_ground};
use crate::graph::dense::{cpu_dense, for_each_option};
use crate::graph::memo::MemoSolver;
use grundy_core::error::{Error, Result};
use grundy_core::game::arrows::{ArrowGame, ArrowRule, cycles_game};
use grundy_core::game::graph::bits;
use grundy_core::game::{Convention, Graph, GraphCode};
use grundy_core::kernel::arrows::ArrowKernel;
use grundy_core::kernel::graph::GraphKernel;

/// Vertices as a short list: `{0-3,7}`.
fn vertex_list(mask: u64) -> String {
    let vs: Vec<usize> = bits(mask).collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < vs.len() {
        let mut j = i;
        while j + 1 < vs.len() && vs[j + 1] == vs[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", vs[i], vs[j])
        } else {
            vs[i].to_string()
        });
        i = j + 1;
    }
    format!("{{{}}}", parts.join(","))
}

/// An octal game on a graph, every winning move listed.
pub fn graph_play(code: &GraphCode, spec: &str) -> Result<PlayReport> {
    report(graph_part(code, spec)?, MoveLimit(None))
}

/// An octal game on a graph: its connected components are the sum.
pub fn graph_part(code: &GraphCode, spec: &str) -> Result<Part> {
    let g = Graph::parse_sum(spec).map_err(Error::Input)?;
    let comps = g.components(g.all());
    let mut memo = MemoSolver::new(code);
    let mut components = Vec::new();
    for &c in &comps {
        components.push(Component {
            component: vertex_list(c),
            g: memo.value(&g, c)? as u32,
        });
    }
    let game = format!("{} on a graph", code.text);
    let pieces = graph_pieces(code, &g, &comps);
    let (code, graph) = (code.clone(), g.clone());
    let moves_to = move |i: usize, target: u32, _: &mut Vec<String>| {
        let comp = comps[i];
        let mut options = Vec::new();
        for_each_option(&graph, &code, comp, |rest| options.push(rest));
        let mut found = Vec::new();
        for rest in options {
            if memo.value(&graph, rest)? as u32 == target {
                found.push(removal(&graph, comp, rest));
            }
        }
        Ok(found)
    };
    Ok(Part {
        game,
        position: g.spec.clone(),
        components,
        moves_to: Box::new(moves_to),
        not_summable: None,
        notes: Vec::new(),
        pieces: Some(pieces),
    })
}

/// A graph's connected components as pieces: a component's vertices; a
/// removal leaves the pieces of what remains of it.
fn graph_pieces(code: &GraphCode, g: &Graph, comps: &[u64]) -> Pieces {
    let (code, graph) = (code.clone(), g.clone());
    let moves = move |piece: &[u64], words: bool| {
        let comp = piece[0];
        let mut found = Vec::new();
        for_each_option(&graph, &code, comp, |rest| {
            found.push(PieceMove {
                words: words.then(|| removal(&graph, comp, rest)),
                left: graph
                    .components(rest)
                    .into_iter()
                    .map(|c| vec![c])
                    .collect(),
            })
        });
        found
    };
    Pieces {
        start: comps.iter().map(|&c| vec![c]).collect(),
        moves: Box::new(moves),
    }
}

/// Vertices `play graph --misere` values whole: a dense table of 2^24
/// bytes, a second or two on the CPU.
const MISERE_PLAY_VERTICES: usize = 24;

/// An octal game on a graph under misère play (the last player to move
/// loses): every component together is one position, valued by a dense
/// table of misère values over every vertex subset of the whole graph
/// (misère play has no nim-sum to add components by); its misère value
/// and each option with its own (for `misere_whole`).
pub fn graph_misere(code: &GraphCode, spec: &str) -> Result<(u32, MisereOptions)> {
    let g = Graph::parse_sum(spec).map_err(Error::Input)?;
    if g.n() > MISERE_PLAY_VERTICES {
        return Err(Error::Input(format!(
            "{spec} has {} vertices: under misère play the whole graph is valued by a table of \
             its vertex subsets, which `play` makes up to {MISERE_PLAY_VERTICES} vertices; \
             expected a smaller graph (`grundy graph --misere` makes larger tables)",
            g.n()
        )));
    }
    let misere = code.clone().under(Convention::Misere);
    let kern = GraphKernel::new(&g, &misere);
    let table = cpu_dense(&kern, &grundy_core::hooks::Silent)?;
    let all = g.all();
    let comps = g.components(all);
    let mut options = Vec::new();
    for_each_option(&g, code, all, |rest| {
        let removed = all & !rest;
        let k = comps.iter().position(|&c| c & removed != 0).unwrap_or(0);
        let (text, _, play) = removal(&g, comps[k], rest & comps[k]);
        let pieces: Vec<String> = g.components(rest).into_iter().map(vertex_list).collect();
        let to = pieces_sum(&pieces);
        options.push((k, text, to, play, table[rest as usize] as u32));
    });
    Ok((table[all as usize] as u32, options))
}

/// Green Hackenbush under misère play (the last player to cut loses):
/// the rooted graph's misère value and each cut with the misère value of
/// what it leaves (for `misere_whole`).
pub fn hackenbush_misere(spec: &str, ground: &str) -> Result<(u32, MisereOptions)> {
    let (mut game, _) = hackenbush_game(spec, ground)?;
    game.convention = Convention::Misere;
    let start = game.start();
    let options = hackenbush_cuts(&game, start)
        .into_iter()
        .map(|(next, text, to, play)| (0, text, to, play, game.value(next) as u32))
        .collect();
    Ok((game.value(start) as u32, options))
}

/// A rooted graph's Hackenbush game, and its ground.
fn hackenbush_game(spec: &str, ground: &str) -> Result<(Hackenbush, Vec<usize>)> {
    let graph = Graph::parse(spec).map_err(Error::Input)?;
    let ground = parse_ground(ground)?;
    let game = Hackenbush::new(&graph, &ground).map_err(Error::Input)?;
    Ok((game, ground))
}

/// Every cut from the edges `start`: the edges left grounded, the cut in
/// words, what is left, and the edge in numbers.
fn hackenbush_cuts(game: &Hackenbush, start: u64) -> Vec<(u64, String, String, Play)> {
    let edge_list = |mask: u64| -> String {
        let edges: Vec<String> = bits(mask)
            .map(|e| format!("{}-{}", game.edges[e].0, game.edges[e].1))
            .collect();
        if edges.is_empty() {
            "nothing".into()
        } else {
            edges.join(",")
        }
    };
    bits(start)
        .map(|e| {
            let next = game.grounded(start & !(1 << e));
            let (u, v) = game.edges[e];
            let dropped = (start & !(1 << e) & !next).count_ones();
            let text = match dropped {
                0 => format!("cut {u}-{v}"),
                k => format!(
                    "cut {u}-{v} ({k} more edge{} fall)",
                    if k == 1 { "" } else { "s" }
                ),
            };
            (next, text, edge_list(next), Play::Cut((u, v)))
        })
        .collect()
}

/// Removing `comp & !rest` from a component, in words and numbers.
fn removal(graph: &Graph, comp: u64, rest: u64) -> (String, String, Play) {
    let pieces: Vec<String> = graph
        .components(rest)
        .into_iter()
        .map(vertex_list)
        .collect();
    let left = match pieces.len() {
        0 => "nothing".to_string(),
        _ => and_list(&pieces),
    };
    (
        format!("remove {}, leaving {left}", vertex_list(comp & !rest)),
        pieces_sum(&pieces),
        Play::Removed(bits(comp & !rest).collect()),
    )
}

/// The pieces of a position (`vertex_list`s) written as a sum (`0,1+3`),
/// or "nothing".
fn pieces_sum(pieces: &[String]) -> String {
    match pieces.is_empty() {
        true => "nothing".into(),
        false => pieces.join("+"),
    }
}

/// G of every state of one component's game: the memo solver on a forest,
/// a dense table (CPU) otherwise.
enum ArrowValues {
    Memo(ArrowMemo),
    Dense(ArrowKernel, Vec<u8>),
}

impl ArrowValues {
    fn new(game: &ArrowGame, start: &[u8]) -> Result<ArrowValues> {
        // The decomposition solver plays forests, and not the Game of Cycles.
        if game.is_forest() && game.faces.is_empty() && game.rule != ArrowRule::Cycles {
            return Ok(ArrowValues::Memo(ArrowMemo::new()));
        }
        let kern = ArrowKernel::new(game).map_err(Error::Input)?;
        let run = solve_dense(
            game,
            start,
            &Backend::Cpu,
            true,
            &grundy_core::hooks::Silent,
        )?;
        Ok(ArrowValues::Dense(kern, run.table.expect("kept")))
    }

    fn value(&mut self, game: &ArrowGame, marks: &[u8]) -> Result<u32> {
        match self {
            ArrowValues::Memo(memo) => {
                Ok(memo.value_of_state(game, marks).map_err(Error::Run)? as u32)
            }
            ArrowValues::Dense(kern, table) => Ok(table[kern.index(marks) as usize] as u32 - 1),
        }
    }
}

/// The Game of Arrows, every winning move listed.
pub fn arrows_play(spec: &str, state: Option<&str>, trimmed: bool) -> Result<PlayReport> {
    report(arrows_part(spec, state, trimmed)?, MoveLimit(None))
}

/// The Game of Arrows: the graph's connected components (those with edges)
/// are the sum, each from its part of the state.
pub fn arrows_part(spec: &str, state: Option<&str>, trimmed: bool) -> Result<Part> {
    let g = Graph::parse_sum(spec).map_err(Error::Input)?;
    let rule = if trimmed {
        ArrowRule::Trimmed
    } else {
        ArrowRule::Arrows
    };
    let whole = ArrowGame::new(&g, rule, Vec::new());
    let marks = match state {
        Some(text) => whole.parse_state(text).map_err(Error::Input)?,
        None => vec![0; whole.edges.len()],
    };
    let mut parts = Vec::new();
    let mut components = Vec::new();
    for comp in g.components(g.all()) {
        let edges: Vec<(usize, usize)> = whole
            .edges
            .iter()
            .copied()
            .filter(|&(u, _)| comp >> u & 1 == 1)
            .collect();
        if edges.is_empty() {
            continue;
        }
        let game = ArrowGame::from_edges(g.n(), edges, rule, Vec::new());
        let sub: Vec<u8> = game
            .edges
            .iter()
            .map(|&(u, v)| marks[whole.edge_index(u, v).expect("an edge of the whole")])
            .collect();
        let mut values = ArrowValues::new(&game, &sub)?;
        let v = values.value(&game, &sub)?;
        components.push(Component {
            component: vertex_list(comp),
            g: v,
        });
        parts.push((game, sub, values));
    }
    let pieces = arrow_pieces(&parts);
    let moves_to = move |i: usize, target: u32, _: &mut Vec<String>| {
        let (game, sub, values) = &mut parts[i];
        arrow_moves(game, sub, &mut |next| {
            Ok(values.value(game, next)? == target)
        })
    };
    let name = if trimmed {
        "Trimmed Game of Arrows"
    } else {
        "Game of Arrows"
    };
    let position = match state {
        Some(s) if !s.trim().is_empty() => format!("{} from {s}", g.spec),
        _ => g.spec.clone(),
    };
    Ok(Part {
        game: name.into(),
        position,
        components,
        moves_to: Box::new(moves_to),
        not_summable: None,
        notes: Vec::new(),
        pieces: Some(pieces),
    })
}

/// The Game of Arrows' components as pieces: a component's index, then its
/// edges' marks; marking an arrow leaves the component in its next state.
fn arrow_pieces(parts: &[(ArrowGame, Vec<u8>, ArrowValues)]) -> Pieces {
    let games: Vec<ArrowGame> = parts.iter().map(|(game, _, _)| game.clone()).collect();
    let key = |i: usize, marks: &[u8]| {
        let marks = marks.iter().map(|&m| m as u64);
        std::iter::once(i as u64).chain(marks).collect::<Vec<u64>>()
    };
    let start = parts
        .iter()
        .enumerate()
        .map(|(i, (_, sub, _))| key(i, sub))
        .collect();
    let moves = move |piece: &[u64], words: bool| {
        let i = piece[0] as usize;
        let marks: Vec<u8> = piece[1..].iter().map(|&m| m as u8).collect();
        let mut next = Vec::new();
        let described = arrow_moves(&games[i], &marks, &mut |after| {
            next.push(key(i, after));
            Ok(true)
        })
        .unwrap_or_default();
        let mark = |(moved, after): ((String, String, Play), Piece)| PieceMove {
            words: words.then_some(moved),
            left: vec![after],
        };
        described.into_iter().zip(next).map(mark).collect()
    };
    Pieces {
        start,
        moves: Box::new(moves),
    }
}

/// The Game of Arrows under misère play (the last player to move loses):
/// every component together is one position, valued by a dense table of
/// misère values over the whole graph's states (misère play has no
/// nim-sum to add components by); its misère value and each option with
/// its own (for `misere_whole`).
pub fn arrows_misere(
    spec: &str,
    state: Option<&str>,
    trimmed: bool,
) -> Result<(u32, MisereOptions)> {
    let g = Graph::parse_sum(spec).map_err(Error::Input)?;
    let rule = if trimmed {
        ArrowRule::Trimmed
    } else {
        ArrowRule::Arrows
    };
    let game = ArrowGame::new(&g, rule, Vec::new())
        .under(Convention::Misere)
        .map_err(Error::Input)?;
    let marks = match state {
        Some(text) => game.parse_state(text).map_err(Error::Input)?,
        None => vec![0; game.edges.len()],
    };
    let kern = ArrowKernel::new(&game).map_err(Error::Input)?;
    let run = solve_dense(
        &game,
        &marks,
        &Backend::Cpu,
        true,
        &grundy_core::hooks::Silent,
    )?;
    let table = run.table.expect("kept");
    let value = |m: &[u8]| table[kern.index(m) as usize] as u32 - 1;
    let mut after = Vec::new();
    let moves = arrow_moves(&game, &marks, &mut |next| {
        after.push(value(next));
        Ok(true)
    })?;
    let comps = g.components(g.all());
    let options = moves
        .into_iter()
        .zip(after)
        .map(|((text, to, play), v)| {
            let Play::Arrow((tail, _)) = play else {
                unreachable!("arrow moves mark arrows")
            };
            let k = comps
                .iter()
                .filter(|&&c| c.count_ones() > 1)
                .position(|&c| c >> tail & 1 == 1);
            (k.unwrap_or(0), text, to, play, v)
        })
        .collect();
    Ok((run.value as u32, options))
}

/// The arrows that can be marked from `marks` and whose state `wins`.
fn arrow_moves(
    game: &ArrowGame,
    marks: &[u8],
    wins: &mut dyn FnMut(&[u8]) -> Result<bool>,
) -> Result<Vec<(String, String, Play)>> {
    let mut found = Vec::new();
    for e in 0..game.edges.len() {
        if marks[e] != 0 {
            continue;
        }
        for mark in [1u8, 2] {
            let mut next = marks.to_vec();
            next[e] = mark;
            if !game.is_state(&next) || !wins(&next)? {
                continue;
            }
            let tail = game.tail(e, mark);
            let (u, v) = game.edges[e];
            let head = if tail == u { v } else { u };
            found.push((
                format!("mark {tail}>{head}"),
                game.describe_state(&next),
                Play::Arrow((tail, head)),
            ));
        }
    }
    Ok(found)
}

/// The Game of Cycles from a state: one component, won by a move that
/// completes a cycle cell or leaves a P-position. Its value is the outcome
/// (0 or 1), not a Grundy value, unless the graph has no faces.
pub fn cycles_part(spec: &str, faces: Option<&Path>, state: Option<&str>) -> Result<Part> {
    let game = cycles_game(spec, faces)?;
    let marks = match state {
        Some(text) => game.parse_state(text).map_err(Error::Input)?,
        None => vec![0; game.edges.len()],
    };
    let mut values = ArrowValues::new(&game, &marks)?;
    let value = values.value(&game, &marks)?;
    let has_faces = !game.faces.is_empty();
    // With cycle cells only the outcome means anything: 0 P, 1 N.
    let outcome = move |v: u32| if has_faces { u32::from(v != 0) } else { v };
    let g = outcome(value);
    let moves_to = move |_: usize, target: u32, _: &mut Vec<String>| {
        arrow_moves(&game, &marks, &mut |next| {
            // Completing a cell wins: the opponent is left as in a P-position.
            let after = match game.has_cycle_cell(next) {
                true => 0,
                false => outcome(values.value(&game, next)?),
            };
            Ok(after == target)
        })
    };
    let why = "the Game of Cycles is not a normal-play game (completing a cycle cell wins at once), \
               so its positions have no Grundy value to add to other games'";
    Ok(Part {
        game: "Game of Cycles".into(),
        position: match state {
            Some(s) if !s.trim().is_empty() => format!("{spec} from {s}"),
            _ => spec.to_string(),
        },
        components: vec![Component {
            component: spec.to_string(),
            g,
        }],
        moves_to: Box::new(moves_to),
        not_summable: has_faces.then(|| why.to_string()),
        notes: if has_faces {
            vec!["on a graph with cycle cells G is the outcome (1: the player to move wins), not a Grundy value".into()]
        } else {
            Vec::new()
        },
        // Completing a cycle cell wins outright: no misère play.
        pieces: None,
    })
}

/// Green Hackenbush on a graph with a ground: one component, the whole
/// graph; a move cuts an edge and drops what hangs free.
pub fn hackenbush_part(spec: &str, ground: &str) -> Result<Part> {
    let (mut game, ground) = hackenbush_game(spec, ground)?;
    let (cuts, _) = hackenbush_game(spec, &ground_text(&ground))?;
    let start = game.start();
    let g = game.value(start) as u32;
    let moves_to = move |_: usize, target: u32, _: &mut Vec<String>| {
        let mut found = Vec::new();
        for (next, text, to, play) in hackenbush_cuts(&game, start) {
            if game.value(next) as u32 == target {
                found.push((text, to, play));
            }
        }
        Ok(found)
    };
    // A piece: the edges still grounded; a cut leaves those grounded after it.
    let moves = move |piece: &[u64], words: bool| {
        let cut = |(next, text, to, play)| PieceMove {
            words: words.then_some((text, to, play)),
            left: if next == 0 { vec![] } else { vec![vec![next]] },
        };
        hackenbush_cuts(&cuts, piece[0])
            .into_iter()
            .map(cut)
            .collect()
    };
    Ok(Part {
        game: "green Hackenbush".into(),
        position: format!("{spec} grounded at {}", ground_text(&ground)),
        components: vec![Component {
            component: spec.to_string(),
            g,
        }],
        moves_to: Box::new(moves_to),
        not_summable: None,
        notes: Vec::new(),
        pieces: Some(Pieces {
            start: vec![vec![start]],
            moves: Box::new(moves),
        }),
    })
}

/// Ground vertices as `play` takes them: `0,3`.
fn ground_text(ground: &[usize]) -> String {
    let text: Vec<String> = ground.iter().map(usize::to_string).collect();
    text.join(",")
}
