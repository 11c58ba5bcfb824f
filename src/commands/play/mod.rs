//! `grundy play`: who wins a position that is a sum of components, and every
//! winning move (`grundy::play` finds them); this reads the games from the
//! command line and prints the report.

mod print;

use clap::Parser;

use super::output::{parse_set, print_json};
use crate::cli::{PlayArgs, PlayGame};
use grundy::analysis::sum_bound::heaps_bound;
use grundy::error::{Error, Result};
use grundy::game::{Code, GraphCode};
use grundy::play::{Position, parse_heaps, play_sum};

pub fn play(args: &PlayArgs) -> Result<()> {
    let report = match &args.game {
        game if misere_heaps(game)?.is_some() => {
            let (code, heaps) = misere_heaps(game)?.expect("matched");
            say_sums_needed(&code, &heaps);
            grundy::play::misere_heaps(&code, &heaps, args.limit.0)?
        }
        PlayGame::Graph {
            code,
            spec,
            misere: true,
        } => {
            let code = GraphCode::parse(code).map_err(Error::Input)?;
            grundy::play::misere_graph(&code, spec, args.limit.0)?
        }
        PlayGame::DeleteNim {
            rule,
            k,
            heaps,
            misere: true,
        } => grundy::play::misere_delete_nim(*rule, *k, heaps, args.limit.0)?,
        PlayGame::Arrows {
            spec,
            state,
            trimmed,
            misere: true,
        } => grundy::play::misere_arrows(spec, state.as_deref(), *trimmed, args.limit.0)?,
        PlayGame::Hackenbush {
            graph,
            ground,
            misere: true,
        } => grundy::play::misere_hackenbush(graph, ground, args.limit.0)?,
        PlayGame::Rect {
            boxes,
            min_diff,
            misere: true,
        } => grundy::play::misere_rect(boxes, *min_diff, args.limit.0)?,
        PlayGame::Sum { components, misere } => {
            let parts = components
                .iter()
                .map(|text| sum_component(text, *misere))
                .collect::<Result<Vec<_>>>()?;
            match misere {
                true => grundy::play::misere_play_sum(parts, args.limit.0)?,
                false => play_sum(parts, args.limit.0)?,
            }
        }
        game => part_of(game)?.report(args.limit.0)?,
    };
    if args.json {
        print_json(&report)
    } else {
        print::print_report(&report);
        Ok(())
    }
}

/// Before heaps under misère play whose search over the whole sum may pass
/// the memory budget: how many sums it can meet. A quotient, where one is
/// found, answers without that search.
fn say_sums_needed(code: &Code, heaps: &[u64]) {
    let budget = grundy::memory::sums_within_budget();
    let at_most = match heaps_bound(code, heaps) {
        Some(n) if n <= budget as u128 => return,
        Some(n) => format!("up to {n} sums"),
        None => "more sums than can be counted".into(),
    };
    eprintln!(
        "under misère play this sum's value is searched over the whole sum unless its heaps' \
         misère quotient is found: that search may meet {at_most}, more than the memory \
         budget's {budget}; it stops with an error if they pass it"
    );
}

/// The code and heaps of a heap game asked under misère play.
fn misere_heaps(game: &PlayGame) -> Result<Option<(Code, Vec<u64>)>> {
    match game {
        PlayGame::Octal {
            code,
            heaps,
            min_diff,
            misere: true,
        } => {
            let mut code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = min_diff {
                code = code.with_min_diff(*d);
            }
            Ok(Some((code, parse_heaps(heaps)?)))
        }
        PlayGame::Subtraction {
            set,
            heaps,
            misere: true,
        } => {
            let code = Code::subtraction(&parse_set(set)?).map_err(Error::Input)?;
            Ok(Some((code, parse_heaps(heaps)?)))
        }
        _ => Ok(None),
    }
}

/// One game's position, ready to report or to add to a sum.
fn part_of(game: &PlayGame) -> Result<Position> {
    let whole = matches!(
        game,
        PlayGame::Graph { misere: true, .. }
            | PlayGame::DeleteNim { misere: true, .. }
            | PlayGame::Arrows { misere: true, .. }
            | PlayGame::Hackenbush { misere: true, .. }
            | PlayGame::Rect { misere: true, .. }
    );
    if whole || misere_heaps(game)?.is_some() {
        return Err(Error::Input(
            "--misere in a sum: a sum is played under one convention; expected --misere on the \
             sum (`grundy play sum --misere 'octal 0.07 5' 'rect 3x4'`)"
                .into(),
        ));
    }
    match game {
        PlayGame::Octal {
            code,
            heaps,
            min_diff,
            ..
        } => {
            let mut code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = min_diff {
                code = code.with_min_diff(*d);
            }
            Position::code(&code, &parse_heaps(heaps)?)
        }
        PlayGame::Subtraction { set, heaps, .. } => {
            Position::subtraction(&parse_set(set)?, &parse_heaps(heaps)?)
        }
        PlayGame::Graph { code, spec, .. } => Position::graph(code, spec),
        PlayGame::Arrows {
            spec,
            state,
            trimmed,
            ..
        } => Position::arrows(spec, state.as_deref(), *trimmed),
        PlayGame::Rect {
            boxes, min_diff, ..
        } => Position::rect(boxes, *min_diff),
        PlayGame::DeleteNim { rule, k, heaps, .. } => Position::delete_nim(*rule, *k, heaps),
        PlayGame::Hackenbush { graph, ground, .. } => Position::hackenbush(graph, ground),
        PlayGame::Cycles {
            graph,
            faces,
            state,
        } => Position::cycles(graph, faces.as_deref(), state.as_deref()),
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

/// Parses one component of a sum ('octal 0.07 5,9') and its position; in
/// a sum under misère play (`misere`) a component may repeat `--misere`.
fn sum_component(text: &str, misere: bool) -> Result<Position> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words.contains(&"--misere") {
        if !misere {
            return Err(Error::Input(format!(
                "component '{text}': a sum is played under one convention; expected --misere \
                 on the sum (`grundy play sum --misere 'octal 0.07 5' 'rect 3x4'`)"
            )));
        }
        words.retain(|w| *w != "--misere");
    }
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
    if let Some(why) = part.not_summable() {
        return Err(Error::Input(format!("component '{text}': {why}")));
    }
    Ok(part)
}
