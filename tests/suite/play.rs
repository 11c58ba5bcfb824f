//! `grundy play`: the moves a heap, graph or arrow position has are the
//! rules' moves, the outcome is the nim-sum's, and every winning move listed
//! reaches a P-position (checked by solvers that do not share play's code).

use std::collections::HashMap;

use crate::common::{Rng, grundy, json, random_kernel_code};
use grundy::game::arrows::{ArrowGame, ArrowRule};
use grundy::game::{Code, Graph, GraphCode};
use grundy::internals::engine::Backend;
use grundy::internals::engine::edges::arrows_memo::ArrowMemo;
use grundy::internals::engine::graph::dense::{DenseTuning, solve_dense};
use grundy::internals::engine::play::{Play, arrows_play, graph_play, heap_play, parse_heaps};

fn mex(values: &[u32]) -> u32 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

#[test]
fn the_moves_of_a_heap_have_the_engines_value_as_their_mex() {
    // every two-digit code, and random codes with modifiers and tails
    let mut codes: Vec<Code> = (0..64)
        .map(|i| Code::parse(&format!("0.{}{}", i / 8, i % 8)).unwrap())
        .collect();
    let mut rng = Rng(0x005e_ed0f_91a7);
    codes.extend((0..60).map(|_| random_kernel_code(&mut rng)));
    codes.push(Code::parse("4!.0").unwrap());
    codes.push(Code::parse("0.{2+}").unwrap());
    codes.push(Code::parse("4.0").unwrap().with_min_diff(3));
    for code in &codes {
        let g = grundy::internals::engine::heap::brute::general::sequence(
            code,
            40,
            &grundy::hooks::Silent,
        )
        .unwrap();
        for h in 0..=40u64 {
            let mut options = Vec::new();
            let complete = code.for_each_move(h, u64::MAX, &mut |take, left| {
                assert_eq!(take + left.iter().sum::<u64>(), h, "{}", code.text);
                assert!(left.windows(2).all(|w| w[0] <= w[1]));
                options.push(left.iter().fold(0, |s, &x| s ^ g[x as usize] as u32));
            });
            assert!(complete);
            assert_eq!(
                mex(&options),
                g[h as usize] as u32,
                "{} heap {h}",
                code.text
            );
        }
    }
}

#[test]
fn dawsons_kayles_5_7_9_has_a_winning_move_in_every_heap() {
    // G = 0, 1, 0 (0.07: 0 0 1 1 2 0 3 1 1 0 ...): nim-sum 1. The recipe
    // moves the heap of 7 down to 0; the heaps of 5 and 9 have options worth
    // 1, more than their own value, which win as well.
    let r = heap_play(&Code::parse("0.07").unwrap(), &[5, 7, 9], "0.07".into()).unwrap();
    let values: Vec<u32> = r.components.iter().map(|c| c.g).collect();
    assert_eq!(values, [0, 1, 0]);
    assert_eq!((r.nim_sum, r.outcome), (1, "N"));
    let moves: Vec<(usize, Play)> = r
        .winning_moves
        .iter()
        .map(|m| (m.component, m.play.clone()))
        .collect();
    let left = |i: usize, heaps: &[u64]| (i, Play::Left(heaps.to_vec()));
    assert_eq!(
        moves,
        [
            left(0, &[3]),
            left(0, &[1, 2]),
            left(1, &[5]),
            left(1, &[2, 3]),
            left(2, &[7]),
            left(2, &[2, 5]),
        ]
    );
}

#[test]
fn every_heap_move_to_a_zero_nim_sum_is_listed_and_nothing_else() {
    let mut rng = Rng(0x0a11_7e57);
    for _ in 0..40 {
        let code = random_kernel_code(&mut rng);
        let heaps: Vec<u64> = (0..1 + rng.below(4)).map(|_| rng.below(30)).collect();
        let text = heaps
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let g = grundy::internals::engine::heap::brute::general::sequence(
            &code,
            30,
            &grundy::hooks::Silent,
        )
        .unwrap();
        let r = heap_play(&code, &parse_heaps(&text).unwrap(), code.text.clone()).unwrap();
        let sum = heaps.iter().fold(0, |s, &h| s ^ g[h as usize] as u32);
        assert_eq!(r.nim_sum, sum);
        assert_eq!(r.outcome, if sum == 0 { "P" } else { "N" });
        // brute force: every move of every heap, kept when the whole sum is 0
        let mut want = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            code.for_each_move(h, u64::MAX, &mut |_, left| {
                let v = left.iter().fold(0, |s, &x| s ^ g[x as usize] as u32);
                if sum ^ g[h as usize] as u32 ^ v == 0 {
                    want.push((i, Play::Left(left.to_vec())));
                }
            });
        }
        let got: Vec<(usize, Play)> = r
            .winning_moves
            .iter()
            .map(|m| (m.component, m.play.clone()))
            .collect();
        assert_eq!(got, want, "{} {text}", code.text);
    }
}

#[test]
fn graph_winning_moves_reach_positions_the_dense_table_calls_p() {
    let specs = [
        "grid:2x3+path:4",
        "pode:1,2,3",
        "cycle:5+path:2",
        "grid:3x3",
        "bipode:1,2/2/1",
    ];
    for code_text in ["0.33", "0.03", "0.137", "0.7"] {
        let code = GraphCode::parse(code_text).unwrap();
        for spec in specs {
            let g = Graph::parse_sum(spec).unwrap();
            let run = solve_dense(
                &g,
                &code,
                &Backend::Cpu,
                true,
                &DenseTuning::default(),
                &grundy::hooks::Silent,
            )
            .unwrap();
            let table = run.table.unwrap();
            let r = graph_play(&code, spec).unwrap();
            assert_eq!(r.nim_sum, run.value as u32, "{code_text} {spec}");
            let mut zero_options = 0;
            grundy::internals::engine::graph::dense::for_each_option(&g, &code, g.all(), |rest| {
                zero_options += usize::from(table[rest as usize] == 0);
            });
            assert_eq!(r.winning_moves.len(), zero_options, "{code_text} {spec}");
            for m in &r.winning_moves {
                let Play::Removed(vs) = &m.play else {
                    panic!("a graph move removes vertices")
                };
                let rest = vs.iter().fold(g.all(), |mask, &v| mask & !(1u64 << v));
                assert_eq!(table[rest as usize], 0, "{code_text} {spec}: {}", m.text);
            }
        }
    }
}

#[test]
fn arrow_winning_moves_reach_states_the_whole_game_values_at_zero() {
    for (spec, trimmed) in [
        ("pode:2,2,2", false),
        ("pode:1,2,3+path:4", false),
        ("pode:3,3,1", true),
        ("cycle:4+path:3", false),
        ("tree:0,0,1,1,2", false),
    ] {
        let g = Graph::parse_sum(spec).unwrap();
        let rule = if trimmed {
            ArrowRule::Trimmed
        } else {
            ArrowRule::Arrows
        };
        let whole = ArrowGame::new(&g, rule, Vec::new());
        let r = arrows_play(spec, None, trimmed).unwrap();
        let mut memo = ArrowMemo::new();
        let start = vec![0; whole.edges.len()];
        if whole.is_forest() {
            let v = memo.value_of_state(&whole, &start).unwrap();
            assert_eq!(r.nim_sum, v as u32, "{spec}");
        }
        assert_eq!(r.outcome == "P", r.winning_moves.is_empty(), "{spec}");
        for m in &r.winning_moves {
            let Play::Arrow((tail, head)) = m.play else {
                panic!("an arrow move marks an edge")
            };
            let e = whole.edge_index(tail, head).unwrap();
            let mut next = start.clone();
            next[e] = whole.mark_from(e, tail);
            assert!(whole.is_state(&next));
            if whole.is_forest() {
                assert_eq!(
                    memo.value_of_state(&whole, &next).unwrap(),
                    0,
                    "{spec} {}",
                    m.text
                );
            }
        }
    }
}

#[test]
fn play_on_the_command_line() {
    let v = json(&grundy(&["play", "octal", "0.07", "5,7,9", "--json"]));
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"][3]["left"], serde_json::json!([2, 3]));
    let out = grundy(&["play", "subtraction", "1,3,4", "6,7"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("take 4 from the heap of 6, leaving 2"),
        "{text}"
    );
    let out = grundy(&["play", "graph", "0.33", "path:6"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("P: the player to move loses"));
    for bad in [
        vec!["play", "octal", "0.07", "5,x"],
        vec!["play", "octal", "0.0$", "5"],
        vec!["play", "graph", "0.33", "grid:3y4"],
        vec!["play", "arrows", "path:4", "--state", "0>7"],
    ] {
        let out = grundy(&bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("expected"),
            "{bad:?}"
        );
    }
}

/// The library's `Position` and `play_sum` report what `grundy play --json`
/// prints, game by game and for a sum of different games.
#[test]
fn the_library_reports_what_the_command_prints() {
    use grundy::game::delete_nim::Rule;
    use grundy::play::{Position, play_sum};
    let cases: Vec<(Vec<&str>, Position)> = vec![
        (
            vec!["octal", "0.07", "5,7,9"],
            Position::heaps("0.07", &[5, 7, 9]).unwrap(),
        ),
        (
            vec!["subtraction", "1,3", "6,7"],
            Position::subtraction(&[1, 3], &[6, 7]).unwrap(),
        ),
        (
            vec!["graph", "0.33", "grid:2x3+path:4"],
            Position::graph("0.33", "grid:2x3+path:4").unwrap(),
        ),
        (
            vec!["arrows", "pode:2,2,2", "--trimmed", "--state", "0>1"],
            Position::arrows("pode:2,2,2", Some("0>1"), true).unwrap(),
        ),
        (
            vec!["rect", "3x5,2x7"],
            Position::rect("3x5,2x7", 1).unwrap(),
        ),
        (
            vec!["delete-nim", "--rule", "delete", "3,5"],
            Position::delete_nim(Rule::Delete, None, "3,5").unwrap(),
        ),
        (
            vec!["hackenbush", "--graph", "cycle:4", "--ground", "0"],
            Position::hackenbush("cycle:4", "0").unwrap(),
        ),
    ];
    for (args, position) in cases {
        let mut command = vec!["play"];
        command.extend(&args);
        command.extend(["--json", "--limit", "all"]);
        let printed = json(&grundy(&command));
        let report = serde_json::to_value(position.report(None).unwrap()).unwrap();
        assert_eq!(report, printed, "grundy play {}", args.join(" "));
        assert!(printed["winning_moves_total"].is_u64(), "{args:?}");
    }
    let printed = json(&grundy(&[
        "play",
        "sum",
        "octal 0.07 5,9",
        "rect 3x5",
        "--json",
        "--limit",
        "2",
    ]));
    let parts = vec![
        Position::heaps("0.07", &[5, 9]).unwrap(),
        Position::rect("3x5", 1).unwrap(),
    ];
    let report = serde_json::to_value(play_sum(parts, Some(2)).unwrap()).unwrap();
    assert_eq!(report, printed, "grundy play sum");
    assert_eq!(printed["winning_moves"].as_array().unwrap().len(), 2);
}

/// g⁻ of a sum of heaps of `code`: every move of every heap tried, the
/// sum remembered by its sorted heaps (an independent search for the test).
fn misere_brute(code: &Code, mut heaps: Vec<u64>, memo: &mut HashMap<Vec<u64>, u32>) -> u32 {
    heaps.retain(|&h| h > 0);
    heaps.sort_unstable();
    if let Some(&v) = memo.get(&heaps) {
        return v;
    }
    let mut seen = std::collections::HashSet::new();
    for i in 0..heaps.len() {
        let mut lefts = Vec::new();
        code.for_each_move(heaps[i], u64::MAX, &mut |_, left| lefts.push(left.to_vec()));
        for left in lefts {
            let mut next = heaps.clone();
            next.remove(i);
            next.extend(left);
            seen.insert(misere_brute(code, next, memo));
        }
    }
    let v = match seen.is_empty() {
        true => 1,
        false => (0..).find(|v| !seen.contains(v)).unwrap(),
    };
    memo.insert(heaps, v);
    v
}

/// `play` under misère play against the search above: the outcome of
/// random sums of heaps of random codes (splitting ones too), and the
/// count of winning moves (each a move to a sum of misère value 0).
#[test]
fn misere_play_of_heaps_equals_a_search_over_whole_sums() {
    let mut rng = Rng(0x0313_e9a7);
    for text in ["0.[3]", "0.07", "0.77", "0.137", "4.07", "0.33", "0.6"] {
        let code = Code::parse(text).unwrap();
        let mut memo = HashMap::new();
        for _ in 0..12 {
            let heaps: Vec<u64> = (0..1 + rng.below(4)).map(|_| rng.below(9)).collect();
            let report = grundy::play::misere_heaps(&code, &heaps, None).unwrap();
            let g = misere_brute(&code, heaps.clone(), &mut memo);
            assert_eq!(report.misere_value, Some(g), "{text} {heaps:?}");
            assert_eq!(report.outcome == "P", g == 0, "{text} {heaps:?}");
            let mut winning = 0;
            for (i, &h) in heaps.iter().enumerate() {
                let mut lefts = Vec::new();
                code.for_each_move(h, u64::MAX, &mut |_, left| lefts.push(left.to_vec()));
                for left in lefts {
                    let mut next = heaps.clone();
                    next.remove(i);
                    next.extend(left);
                    winning += (misere_brute(&code, next, &mut memo) == 0) as usize;
                }
            }
            assert_eq!(report.winning_moves_total, winning, "{text} {heaps:?}");
            assert_eq!(report.winning_moves.len(), winning);
        }
    }
}

/// 0.312's genera as Plambeck prints them on his pages of misère octal
/// games: 1^{03131}, 2^{20}, 0^{02}, 2^{1420}, 0^{02}, 1^{13}, then period
/// 2. Ours stop where the superscripts alternate (1^031 for 1^{03131}).
#[test]
fn the_genera_of_0_312_are_plambecks() {
    let table = grundy::MisereSequence::of(Code::parse("0.312").unwrap())
        .heaps(40)
        .run()
        .unwrap();
    let printed = ["1^031", "2^20", "0^02", "2^1420", "0^02", "1^13"];
    for (h, genus) in (1..).zip(printed) {
        assert_eq!(table.genus(h).to_string(), genus, "heap {h}");
    }
    for h in 7..=40 {
        assert_eq!(table.genus(h).to_string(), table.genus(h - 2).to_string());
    }
}

/// The library's misère table (`MisereSequence`, both methods) against
/// the search above on single heaps, its normal values against the
/// normal table's, and `Sequence::misere()` the same builder.
#[test]
fn misere_tables_from_the_library_equal_a_search_over_whole_sums() {
    for text in [
        "0.[3]", "0.07", "0.77", "0.137", "4.07", "0.33", "0.6", "0.3033",
    ] {
        let code = Code::parse(text).unwrap();
        let n = 12;
        let table = grundy::MisereSequence::of(code.clone())
            .heaps(n)
            .run()
            .unwrap();
        let normal = grundy::Sequence::of(code.clone()).heaps(n).run().unwrap();
        let mut memo = HashMap::new();
        assert_eq!(table.len(), n + 1, "{text}");
        for h in 0..=n {
            assert_eq!(
                table.misere(h),
                misere_brute(&code, vec![h], &mut memo),
                "{text} {h}"
            );
            assert_eq!(table.normal(h), normal.get(h).unwrap() as u32, "{text} {h}");
            assert_eq!(table.genus(h).misere(), table.misere(h));
        }
        let sequence = grundy::MisereSequence::of(code.clone());
        let searched = sequence.method() == grundy::misere::MisereMethod::Sums;
        let via = grundy::Sequence::of(code).heaps(n).misere().run().unwrap();
        assert_eq!(via.gammas(), table.gammas(), "{text}");
        assert_eq!(table.end().sums.is_some(), searched, "{text}");
        assert_eq!(table.end().method, sequence.method(), "{text}");
    }
}

/// A genus as CGSuite writes it, read back into γ0 … γ(len−1). CGSuite
/// drops what the game's kind implies: a nim-heap *g is written `g`
/// (γ0 = 1 − g for g < 2, else g; then g, g ⊕ 2 alternating from γ1); a
/// tame game writes γ0 alone (`2^2`), the rest as a nim-heap's; any other
/// writes its superscripts until the last two alternate (`4^046`), with
/// commas inside parentheses where one passes 9 (`6^(1,9,10,8)`).
fn cgsuite_genus(written: &str, len: usize) -> (u32, Vec<u32>) {
    let (g, sup) = written.split_once('^').unwrap_or((written, ""));
    let g: u32 = g.parse().unwrap();
    let sup: Vec<u32> = match sup.strip_prefix('(') {
        Some(listed) => listed
            .trim_end_matches(')')
            .split(',')
            .map(|s| s.parse().unwrap())
            .collect(),
        None => sup.chars().map(|c| c.to_digit(10).unwrap()).collect(),
    };
    let tail = |k: usize| g ^ (2 * (k as u32 % 2));
    let gammas = (0..len).map(|k| match sup.len() {
        0 if k == 0 && g < 2 => 1 - g,
        0 => tail(k),
        1 if k == 0 => sup[0],
        1 => tail(k),
        m if k < m => sup[k],
        m => sup[m - 2 + (k - (m - 2)) % 2],
    });
    (g, gammas.collect())
}

/// The genera of heaps 0 … 20 as CGSuite computes them, by misère
/// canonical forms, one game at a time: the values its own test suite
/// holds for Kayles, Dawson's Kayles, Grundy's game, 0.3f and the
/// subtraction game {2, 3, 7}. Every superscript γ0 … γ6 we compute (on
/// whole sums, or heap by heap for codes that never split) is CGSuite's.
#[test]
fn the_genera_of_kayles_dawsons_kayles_and_grundys_game_are_cgsuites() {
    let printed: [(&str, [&str; 21]); 5] = [
        (
            "0.77",
            [
                "0", "1", "2", "3", "1", "4^146", "3", "2^2", "1^1", "4^046", "2^2", "6^46",
                "4^046", "1^1", "2^2", "7^57", "1^13", "4^64", "3^31", "2^20", "1^031",
            ],
        ),
        (
            "0.07",
            [
                "0", "0", "1", "1", "2", "0", "3", "1", "1", "0", "3^1431", "3", "2^0520", "2",
                "4^146", "0", "5^057", "2^0520", "2", "3^1431", "3",
            ],
        ),
        (
            "4!.0",
            [
                "0", "0", "0", "1", "0", "2", "1", "0", "2", "1", "0", "2", "1", "3^1431", "2",
                "1", "3^1431", "2", "4^0564", "3^1431", "0^20",
            ],
        ),
        (
            "0.3f",
            [
                "0",
                "1",
                "2",
                "0",
                "1",
                "2",
                "3^1431",
                "4^0564",
                "5^46",
                "3^1431",
                "4^0564",
                "5^4875",
                "6^(1,9,10,8)",
                "7^075",
                "8^6875",
                "6^(1,9,10,8)",
                "7^075",
                "8^(6,10,8)",
                "9^(1,9,12,11,9)",
                "10^(0,11,13,9,11)",
                "11^(6,10,8)",
            ],
        ),
        (
            "{2,3,7}",
            [
                "0", "0", "1", "1", "2", "0", "0", "1", "1", "2", "0", "0", "1", "1", "2", "0",
                "0", "1", "1", "2", "0",
            ],
        ),
    ];
    for (game, genera) in printed {
        let sequence = match game.strip_prefix('{') {
            Some(set) => grundy::MisereSequence::subtraction(
                &set.trim_end_matches('}')
                    .split(',')
                    .map(|s| s.parse().unwrap())
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
            None => grundy::MisereSequence::of(Code::parse(game).unwrap()),
        };
        let table = sequence.heaps(20).run().unwrap();
        for (h, written) in (0..).zip(genera) {
            let ours = table.genus(h);
            let (g, gammas) = cgsuite_genus(written, ours.gammas.len());
            assert_eq!(
                (ours.normal, &ours.gammas),
                (g, &gammas),
                "{game} heap {h}: {written}"
            );
        }
    }
}
