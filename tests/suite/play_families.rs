//! `grundy play` beyond heaps and graphs: rectangles and boxes, every Delete
//! Nim rule, Hackenbush, the Game of Cycles, sums of different games, and
//! `--limit`. The moves `play` lists are the rules' (their mex is the
//! table's value, the table made by the kernels' own move walks), and every
//! winning move reaches what a separate run calls a P-position.

use crate::common::{grundy, json};
use grundy::game::Graph;
use grundy::game::arrows::cycles_game;
use grundy::game::delete_nim::{DeleteNim, Rule};
use grundy::game::rect::Rect;
use grundy::internals::engine::Backend;
use grundy::internals::engine::edges::hackenbush::Hackenbush;
use grundy::internals::engine::tuples::table::solve;
use grundy::tuples::TupleKernel;
use serde_json::Value;

fn mex(values: &[u32]) -> u32 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

/// Every tuple of the kernel's space with its value.
fn every_tuple(kern: &TupleKernel) -> Vec<(Vec<u32>, u32)> {
    let table = solve(kern, &Backend::Cpu, &grundy::hooks::Silent)
        .unwrap()
        .table;
    (0..kern.space.count() as u32)
        .map(|r| {
            let mut h = vec![0; kern.space.heaps];
            kern.space.unrank(r, &mut h);
            (h, table[r as usize])
        })
        .collect()
}

#[test]
fn the_cuts_of_a_box_have_the_tables_value_as_their_mex() {
    for (dims, max) in [(2, 14), (3, 7)] {
        for min_diff in 0..=2 {
            let rect = Rect::new(dims, min_diff).unwrap();
            let kern = TupleKernel::rect(rect.clone(), max).unwrap();
            let tuples = every_tuple(&kern);
            let value = |s: &[u32]| tuples[kern.space.rank(s) as usize].1;
            for (sides, g) in &tuples {
                let options: Vec<u32> = rect
                    .cuts_of(sides)
                    .iter()
                    .map(|(a, b)| value(a) ^ value(b))
                    .collect();
                assert_eq!(mex(&options), *g, "{sides:?} min-diff {min_diff}");
            }
        }
    }
}

#[test]
fn every_delete_nim_rules_options_have_the_tables_value_as_their_mex() {
    let rules = [
        (Rule::Delete, 2, None, 12),
        (Rule::Vdn, 2, None, 12),
        (Rule::Abo, 3, None, 8),
        (Rule::Abo, 4, None, 6),
        (Rule::Nmth, 4, None, 6),
        (Rule::Nmth, 5, None, 5),
        (Rule::Half, 4, None, 6),
        (Rule::Kdelete, 6, Some(3), 5),
        (Rule::Single, 3, None, 8),
        (Rule::Single, 4, None, 6),
    ];
    for (rule, heaps, k, max) in rules {
        let game = DeleteNim::new(rule, heaps, k).unwrap();
        let kern = TupleKernel::delete_nim(game.clone(), max, true).unwrap();
        let tuples = every_tuple(&kern);
        let value = |s: &[u32]| tuples[kern.space.rank(s) as usize].1;
        for (sizes, g) in &tuples {
            let options: Vec<u32> = game.options(sizes).iter().map(|o| value(&o.left)).collect();
            assert_eq!(mex(&options), *g, "{rule:?} n = {heaps} {sizes:?}");
        }
    }
}

fn play(args: &[&str]) -> Value {
    json(&grundy(
        &[&["play"], args, &["--json", "--limit", "all"]].concat(),
    ))
}

/// Every winning move of a rectangle or Delete Nim position, replayed on
/// its own, leaves the value the report says.
#[test]
fn winning_moves_of_boxes_and_delete_nim_reach_their_values() {
    let r = play(&["rect", "3x5,2x7,4x4"]);
    assert_eq!(r["outcome"], "N");
    assert!(r["winning_moves_total"].as_u64().unwrap() > 0);
    for m in r["winning_moves"].as_array().unwrap() {
        let after = play(&["rect", m["to"].as_str().unwrap().replace('+', ",").as_str()]);
        assert_eq!(after["nim_sum"], m["g"], "{m}");
    }
    for (rule, heaps) in [
        ("vdn", "4,6"),
        ("delete", "0,5"),
        ("single", "2,3,7"),
        ("abo", "3,4,9"),
    ] {
        let r = play(&["delete-nim", "--rule", rule, heaps]);
        let moves = r["winning_moves"].as_array().unwrap();
        assert_eq!(r["outcome"] == "P", moves.is_empty(), "{rule} {heaps}");
        for m in moves {
            let left: Vec<String> = m["left"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.to_string())
                .collect();
            let after = play(&["delete-nim", "--rule", rule, &left.join(",")]);
            assert_eq!(
                (after["nim_sum"].as_u64(), after["outcome"].as_str()),
                (Some(0), Some("P"))
            );
        }
    }
}

#[test]
fn hackenbush_cuts_follow_the_fusion_principle() {
    // Grounded at 0: a path of n edges is a stalk (G = n); a cycle of n
    // edges fuses to n loops (G = n mod 2).
    for (spec, g) in [
        ("path:5", 4),
        ("cycle:5", 1),
        ("cycle:6", 0),
        ("cycle:3", 1),
        ("grid:2x2", 0),
    ] {
        let r = play(&["hackenbush", "--graph", spec]);
        assert_eq!(r["components"][0]["g"], g, "{spec}");
        let graph = Graph::parse(spec).unwrap();
        let mut game = Hackenbush::new(&graph, &[0]).unwrap();
        let start = game.start();
        let zero_cuts = (0..game.edges.len())
            .filter(|&e| {
                let next = game.grounded(start & !(1 << e));
                game.value(next) == 0
            })
            .count();
        assert_eq!(r["winning_moves_total"], zero_cuts, "{spec}");
        assert_eq!(r["outcome"] == "P", zero_cuts == 0 || g == 0, "{spec}");
    }
}

#[test]
fn the_game_of_cycles_agrees_with_the_cycles_command() {
    for (spec, state) in [
        ("cycle:4", ""),
        ("cycle:5", ""),
        ("grid:2x3", "0>1,1>2"),
        ("wheel:4", ""),
    ] {
        let mut args = vec!["cycles", "--graph", spec];
        if !state.is_empty() {
            args.extend(["--state", state]);
        }
        let r = play(&args);
        let whole = json(&grundy(
            &[&args[..], &["--json", "--backend", "cpu", "-q"]].concat(),
        ));
        assert_eq!(r["outcome"], whole["outcome"], "{spec} {state}");
        for m in r["winning_moves"].as_array().unwrap() {
            let arrow = m["text"].as_str().unwrap().trim_start_matches("mark ");
            let next = if state.is_empty() {
                arrow.to_string()
            } else {
                format!("{state},{arrow}")
            };
            let after = json(&grundy(&[
                "cycles",
                "--graph",
                spec,
                "--state",
                &next,
                "--json",
                "--backend",
                "cpu",
                "-q",
            ]));
            // A move that completes a cell wins at once; any other leaves P.
            let game = cycles_game(spec, None).unwrap();
            let completes = game.has_cycle_cell(&game.parse_state(&next).unwrap());
            assert!(after["outcome"] == "P" || completes, "{spec} {next}");
        }
    }
}

#[test]
fn a_sum_of_different_games_is_its_components_side_by_side() {
    let games = [
        "octal 0.07 5,9",
        "subtraction 1,3 6",
        "graph 0.33 pode:1,2,2",
        "hackenbush --graph path:3",
        "rect 3x5",
        "delete-nim --rule vdn 4,6",
        "octal 4!.0 13",
    ];
    let sum = play(&[&["sum"], &games[..]].concat());
    let mut values = Vec::new();
    for game in games {
        let alone = play(&game.split_whitespace().collect::<Vec<_>>());
        values.extend(
            alone["components"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["g"].as_u64().unwrap()),
        );
    }
    let in_sum: Vec<u64> = sum["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["g"].as_u64().unwrap())
        .collect();
    assert_eq!(in_sum, values);
    let nim_sum = values.iter().fold(0, |s, v| s ^ v);
    assert_eq!(sum["nim_sum"], nim_sum);
    assert_eq!(sum["outcome"], if nim_sum == 0 { "P" } else { "N" });
    let moves = sum["winning_moves"].as_array().unwrap();
    assert_eq!(sum["winning_moves_total"], moves.len());
    assert!(nim_sum == 0 || !moves.is_empty());
    // Each heap or box move, replayed alone, has the value that cancels the rest.
    for m in moves {
        let c = &sum["components"][m["component"].as_u64().unwrap() as usize]["component"];
        let c = c.as_str().unwrap();
        let to = m["to"].as_str().unwrap().replace('+', ",");
        let replay = match c.split(':').next().unwrap() {
            "0.07" => vec!["octal", "0.07", to.as_str()],
            "4!.0" => vec!["octal", "4!.0", to.as_str()],
            "Grundy's game on rectangles" => vec!["rect", to.as_str()],
            _ => continue,
        };
        assert_eq!(play(&replay)["nim_sum"], m["g"], "{m}");
    }
}

#[test]
fn limit_lists_the_first_moves_and_counts_them_all() {
    let all = play(&["octal", "0.77", "3000,3"]);
    let total = all["winning_moves_total"].as_u64().unwrap();
    assert_eq!(all["winning_moves"].as_array().unwrap().len() as u64, total);
    assert!(total > 100, "{total}");
    let few = json(&grundy(&[
        "play", "octal", "0.77", "3000,3", "--json", "--limit", "5",
    ]));
    assert_eq!(few["winning_moves_total"], total);
    assert_eq!(
        few["winning_moves"].as_array().unwrap()[..],
        all["winning_moves"].as_array().unwrap()[..5]
    );
    // The default lists 100, and the text says what it counts.
    let out = grundy(&["play", "octal", "0.77", "3000,3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "{total} winning moves (moves to a P-position), the first 100 listed"
        )),
        "{text}"
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("  in ")).count(), 100);
}

#[test]
fn bad_positions_are_refused_by_name() {
    for (args, what) in [
        (vec!["rect", "3x"], "'3x'"),
        (vec!["rect", "3x5,2x3x4"], "same number of sides"),
        (vec!["delete-nim", "--rule", "vdn", "0,3"], "never empty"),
        (vec!["delete-nim", "--rule", "half", "1,2,3"], "even"),
        (
            vec!["hackenbush", "--graph", "path:3", "--ground", "9"],
            "--ground 9",
        ),
        (
            vec!["sum", "cycles --graph cycle:4", "octal 0.07 3"],
            "not a normal-play game",
        ),
        (vec!["sum", "octal 0.07"], "component 'octal 0.07'"),
        (vec!["octal", "0.07", "5", "--limit", "x"], "'x'"),
    ] {
        let out = grundy(&[&["play"], &args[..]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(what), "{args:?}: {err}");
    }
}
