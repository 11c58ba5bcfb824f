//! `grundy play`: who wins a position that is a sum of components, and every
//! winning move. The position's value is the nim-sum s of its components'; a
//! winning move takes one component of value g to an option worth g xor s,
//! which cancels the rest. Seed 004's recipe (the component whose value has
//! the top bit of s, moved down) always finds one; options worth more than
//! their component give the others.

use serde::Serialize;

use super::output::{parse_set, print_json};
use crate::cli::{PlayArgs, PlayGame};
use crate::engine::arrows_dense::solve_dense;
use crate::engine::arrows_memo::ArrowMemo;
use crate::engine::graph_dense::for_each_option;
use crate::engine::graph_memo::MemoSolver;
use crate::engine::sequence::{Algorithm, SequenceRun};
use crate::engine::{Backend, heap_table::HeapTable};
use crate::error::{Error, Result};
use crate::game::arrows::{ArrowGame, ArrowRule};
use crate::game::graph::bits;
use crate::game::{Code, Graph, GraphCode};
use crate::kernel::arrows::ArrowKernel;

/// The largest heap `play` computes a table for.
pub const MAX_PLAY_HEAP: u64 = 1 << 24;
/// Moves of one heap listed at most (codes that leave many heaps have more).
const MOVE_LIMIT: u64 = 1_000_000;

/// One component of the position and its value.
#[derive(Serialize)]
pub struct Component {
    pub component: String,
    pub g: u32,
}

/// A move to a P-position.
#[derive(Serialize)]
pub struct WinningMove {
    /// Index into `components`.
    pub component: usize,
    /// The move in words.
    pub text: String,
    /// What the component becomes.
    pub to: String,
    /// The component's value after the move: its value xor the nim-sum.
    pub g: u32,
    /// The move for scripts: heaps left, vertices removed, or the arrow (tail, head).
    #[serde(flatten)]
    pub play: Play,
}

/// A move in numbers.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// Heaps the heap is left as.
    Left(Vec<u64>),
    /// Vertices removed.
    Removed(Vec<usize>),
    /// The arrow marked: (tail, head).
    Arrow((usize, usize)),
}

/// What `play` reports.
#[derive(Serialize)]
pub struct PlayReport {
    pub game: String,
    pub position: String,
    pub components: Vec<Component>,
    pub nim_sum: u32,
    /// N: the player to move wins; P: the player to move loses.
    pub outcome: &'static str,
    pub winning_moves: Vec<WinningMove>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Moves of component `i` that leave it worth `target`: (in words, what it becomes).
type MovesTo<'a> =
    dyn FnMut(usize, u32, &mut Vec<String>) -> Result<Vec<(String, String, Play)>> + 'a;

/// Lists the moves of every component to an option worth its value xor the nim-sum.
fn report(
    game: String,
    position: String,
    components: Vec<Component>,
    moves_to: &mut MovesTo,
) -> Result<PlayReport> {
    let nim_sum = components.iter().fold(0, |s, c| s ^ c.g);
    let mut winning_moves = Vec::new();
    let mut notes = Vec::new();
    // The recipe finds the components whose value drops; a component may
    // also have an option worth more than itself, so every component is
    // searched for options worth g xor nim-sum.
    for (i, c) in components.iter().enumerate() {
        let target = c.g ^ nim_sum;
        if nim_sum == 0 {
            break;
        }
        for (text, to, play) in moves_to(i, target, &mut notes)? {
            winning_moves.push(WinningMove {
                component: i,
                text,
                to,
                g: target,
                play,
            });
        }
    }
    Ok(PlayReport {
        game,
        position,
        components,
        nim_sum,
        outcome: if nim_sum == 0 { "P" } else { "N" },
        winning_moves,
        notes,
    })
}

pub fn play(args: &PlayArgs) -> Result<()> {
    let report = match &args.game {
        PlayGame::Octal {
            code,
            heaps,
            min_diff,
        } => {
            let mut code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = min_diff {
                code = code.with_min_diff(*d);
            }
            heap_play(&code, heaps, code.name())?
        }
        PlayGame::Subtraction { set, heaps } => {
            let set = parse_set(set)?;
            let code = Code::subtraction(&set).map_err(Error::Input)?;
            let name = format!("subtraction {{{}}} ({})", set_text(&set), code.text);
            heap_play(&code, heaps, name)?
        }
        PlayGame::Graph { code, spec } => {
            let code = GraphCode::parse(code).map_err(Error::Input)?;
            graph_play(&code, spec)?
        }
        PlayGame::Arrows {
            spec,
            state,
            trimmed,
        } => arrows_play(spec, state.as_deref(), *trimmed)?,
    };
    if args.json {
        print_json(&report)
    } else {
        print_report(&report);
        Ok(())
    }
}

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

/// "1, 4 and 6".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn set_text(set: &[u32]) -> String {
    set.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// A sum of heaps of a take-and-break game.
pub fn heap_play(code: &Code, heaps_text: &str, name: String) -> Result<PlayReport> {
    if let Some(why) = crate::engine::general::unsupported(code) {
        return Err(Error::Input(why));
    }
    let heaps = parse_heaps(heaps_text)?;
    let top = heaps.iter().copied().max().unwrap_or(0);
    let mut run = SequenceRun::new(code, Algorithm::Auto, HeapTable::default())?;
    run.extend_on_cpu(top)?;
    let g = |h: u64| run.table.get(h as usize) as u32;
    let components = heaps
        .iter()
        .map(|&h| Component {
            component: h.to_string(),
            g: g(h),
        })
        .collect();
    let mut moves_to = |i: usize, target: u32, notes: &mut Vec<String>| {
        let h = heaps[i];
        let mut found = Vec::new();
        let complete = code.for_each_move(h, MOVE_LIMIT, &mut |take, left| {
            if left.iter().fold(0, |s, &x| s ^ g(x)) != target {
                return;
            }
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
            found.push((text, to, Play::Left(left.to_vec())));
        });
        if !complete {
            notes.push(format!(
                "the heap of {h} has more than {MOVE_LIMIT} moves; winning moves among the first \
                 {MOVE_LIMIT} are listed"
            ));
        }
        Ok(found)
    };
    report(
        name,
        heaps
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" + "),
        components,
        &mut moves_to,
    )
}

/// Vertices as a short list: `0-3,7`.
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

/// An octal game on a graph: its connected components are the sum.
pub fn graph_play(code: &GraphCode, spec: &str) -> Result<PlayReport> {
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
    let mut moves_to = |i: usize, target: u32, _: &mut Vec<String>| {
        let comp = comps[i];
        let mut options = Vec::new();
        for_each_option(&g, code, comp, |rest| options.push(rest));
        let mut found = Vec::new();
        for rest in options {
            if memo.value(&g, rest)? as u32 != target {
                continue;
            }
            let pieces: Vec<String> = g.components(rest).into_iter().map(vertex_list).collect();
            let left = match pieces.len() {
                0 => "nothing".to_string(),
                _ => and_list(&pieces),
            };
            found.push((
                format!("remove {}, leaving {left}", vertex_list(comp & !rest)),
                if pieces.is_empty() {
                    "nothing".into()
                } else {
                    pieces.join("+")
                },
                Play::Removed(bits(comp & !rest).collect()),
            ));
        }
        Ok(found)
    };
    report(
        format!("{} on a graph", code.text),
        g.spec.clone(),
        components,
        &mut moves_to,
    )
}

/// G of every state of one component's game: the memo solver on a forest,
/// a dense table (CPU) otherwise.
enum ArrowValues {
    Memo(ArrowMemo),
    Dense(ArrowKernel, Vec<u8>),
}

impl ArrowValues {
    fn new(game: &ArrowGame, start: &[u8]) -> Result<ArrowValues> {
        if game.is_forest() {
            return Ok(ArrowValues::Memo(ArrowMemo::new()));
        }
        let kern = ArrowKernel::new(game).map_err(Error::Input)?;
        let run = solve_dense(game, start, &Backend::Cpu, true, &mut |_| {}, &|_| {})?;
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

/// The Game of Arrows: the graph's connected components (those with edges)
/// are the sum, each from its part of the state.
pub fn arrows_play(spec: &str, state: Option<&str>, trimmed: bool) -> Result<PlayReport> {
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
    let mut moves_to = |i: usize, target: u32, _: &mut Vec<String>| {
        let (game, sub, values) = &mut parts[i];
        let mut found = Vec::new();
        for e in 0..game.edges.len() {
            if sub[e] != 0 {
                continue;
            }
            for mark in [1u8, 2] {
                let mut next = sub.clone();
                next[e] = mark;
                if !game.is_state(&next) || values.value(game, &next)? != target {
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
    report(name.into(), position, components, &mut moves_to)
}

fn print_report(r: &PlayReport) {
    crate::outln!("game        {}", r.game);
    crate::outln!("position    {}", r.position);
    for (i, c) in r.components.iter().enumerate() {
        let label = if i == 0 { "components" } else { "" };
        crate::outln!("{label:<11} {:<24} G = {}", c.component, c.g);
    }
    let values: Vec<String> = r.components.iter().map(|c| c.g.to_string()).collect();
    crate::outln!(
        "nim-sum     {} = {}",
        if values.is_empty() {
            "(no component)".into()
        } else {
            values.join(" xor ")
        },
        r.nim_sum
    );
    if r.outcome == "P" {
        crate::outln!(
            "outcome     P: the player to move loses; every move leaves a nonzero nim-sum"
        );
    } else {
        crate::outln!(
            "outcome     N: the player to move wins with {} move{}",
            r.winning_moves.len(),
            if r.winning_moves.len() == 1 { "" } else { "s" }
        );
        for m in &r.winning_moves {
            crate::outln!(
                "  in {} (G {} -> {}): {}",
                r.components[m.component].component,
                r.components[m.component].g,
                m.g,
                m.text
            );
        }
    }
    for note in &r.notes {
        crate::outln!("note        {note}");
    }
}
