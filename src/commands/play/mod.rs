//! `grundy play`: who wins a position that is a sum of components, and every
//! winning move. The position's value is the nim-sum s of its components'; a
//! winning move takes one component of value g to an option worth g xor s,
//! which cancels the rest. The lecture notes' recipe (the component whose
//! value has the top bit of s, moved down) always finds one; options worth
//! more than their component give the others.

mod graphs;
mod heaps;
mod report;
mod tuples;

use clap::Parser;

use super::output::{parse_set, print_json};
use crate::cli::{PlayArgs, PlayGame};
use grundy::error::{Error, Result};
use grundy::game::{Code, GraphCode};

pub use graphs::{arrows_play, graph_play};
pub use heaps::{MAX_PLAY_HEAP, heap_play, parse_heaps};
pub use report::{Component, MoveLimit, Play, PlayReport, WinningMove};

pub fn play(args: &PlayArgs) -> Result<()> {
    let report = match &args.game {
        PlayGame::Sum { components } => {
            let parts = components
                .iter()
                .map(|text| sum_component(text))
                .collect::<Result<Vec<_>>>()?;
            report::sum_report(parts, args.limit, true)?
        }
        game => report::report(part_of(game)?, args.limit)?,
    };
    if args.json {
        print_json(&report)
    } else {
        report::print_report(&report);
        Ok(())
    }
}

/// One game's position, ready to report or to add to a sum.
fn part_of(game: &PlayGame) -> Result<report::Part> {
    match game {
        PlayGame::Octal {
            code,
            heaps,
            min_diff,
        } => {
            let mut code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = min_diff {
                code = code.with_min_diff(*d);
            }
            heaps::heap_part(&code, heaps, code.name())
        }
        PlayGame::Subtraction { set, heaps } => {
            let set = parse_set(set)?;
            let code = Code::subtraction(&set).map_err(Error::Input)?;
            let text: Vec<String> = set.iter().map(u32::to_string).collect();
            let name = format!("subtraction {{{}}} ({})", text.join(","), code.text);
            heaps::heap_part(&code, heaps, name)
        }
        PlayGame::Graph { code, spec } => {
            let code = GraphCode::parse(code).map_err(Error::Input)?;
            graphs::graph_part(&code, spec)
        }
        PlayGame::Arrows {
            spec,
            state,
            trimmed,
        } => graphs::arrows_part(spec, state.as_deref(), *trimmed),
        PlayGame::Rect { boxes, min_diff } => tuples::rect_part(boxes, *min_diff),
        PlayGame::DeleteNim { rule, k, heaps } => tuples::delete_nim_part(*rule, *k, heaps),
        PlayGame::Hackenbush { graph, ground } => graphs::hackenbush_part(graph, ground),
        PlayGame::Cycles {
            graph,
            faces,
            state,
        } => graphs::cycles_part(graph, faces.as_deref(), state.as_deref()),
        PlayGame::Sum { .. } => Err(Error::Input(
            "a sum inside a sum: list its components in the outer sum instead".into(),
        )),
    }
}

/// One game of `play sum`, written as `play` takes it.
#[derive(Parser, Debug)]
#[command(name = "play sum COMPONENT", no_binary_name = true)]
struct SumComponent {
    #[command(subcommand)]
    game: PlayGame,
}

/// Parses one component of a sum ('octal 0.07 5,9') and its position.
fn sum_component(text: &str) -> Result<report::Part> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let parsed = SumComponent::try_parse_from(&words).map_err(|e| {
        let message = e.to_string();
        let first = message
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        Error::Input(format!(
            "component '{text}': {first}; expected a game as `grundy play` takes it, such as \
             'octal 0.07 5,9' or 'rect 3x5'"
        ))
    })?;
    let part = part_of(&parsed.game).map_err(|e| match e {
        Error::Input(m) => Error::Input(format!("component '{text}': {m}")),
        other => other,
    })?;
    if let Some(why) = &part.not_summable {
        return Err(Error::Input(format!("component '{text}': {why}")));
    }
    Ok(part)
}
