//! The edge games under misère play (the last player to move loses): the
//! Game of Arrows on its dense table against a brute force over arrow
//! states that shares nothing with the kernel, green Hackenbush on stalks
//! against misère Nim (Bouton's misère rule, Winning Ways chapter 13), and
//! the refusals where misère play is undefined or a solver would add a sum.

use std::collections::HashMap;

use crate::common::{Rng, gpu_or_skip};
use grundy::game::Convention;
use grundy::game::arrows::{ArrowGame, ArrowRule};
use grundy::game::graph::{Graph, pode};
use grundy::internals::engine::Backend;
use grundy::internals::engine::edges::arrows_dense::solve_dense;
use grundy::{ArrowSolver, EdgeGame};

/// Whether vertex v, all of whose edges are marked, has them all pointing
/// the same way relative to it (a sink or a source).
fn sink_or_source(edges: &[(usize, usize)], marks: &[u8], v: usize) -> bool {
    let at: Vec<usize> = (0..edges.len())
        .filter(|&e| edges[e].0 == v || edges[e].1 == v)
        .collect();
    if at.iter().any(|&e| marks[e] == 0) || at.is_empty() {
        return false;
    }
    // mark 1: the arrow runs from the smaller end to the larger
    let away = |e: usize| (marks[e] == 1) == (edges[e].0 == v);
    at.iter().all(|&e| away(e)) || at.iter().all(|&e| !away(e))
}

/// The arrow states one move leaves from `marks`: an unmarked edge marked
/// either way, unless it makes a constrained end a sink or a source.
fn followers((edges, trimmed): (&[(usize, usize)], bool), marks: &[u8]) -> Vec<Vec<u8>> {
    let degree = |v: usize| edges.iter().filter(|&&(a, b)| a == v || b == v).count();
    let constrained = |v: usize| !trimmed || degree(v) >= 2;
    let mut after = Vec::new();
    for e in (0..edges.len()).filter(|&e| marks[e] == 0) {
        for mark in 1..=2 {
            let mut next = marks.to_vec();
            next[e] = mark;
            let (a, b) = edges[e];
            let bad = [a, b]
                .iter()
                .any(|&v| constrained(v) && sink_or_source(edges, &next, v));
            if !bad {
                after.push(next);
            }
        }
    }
    after
}

/// g⁻ (with `no_move` 1) or G (0) of an arrow state, every follower tried.
fn brute_arrows(
    game: (&[(usize, usize)], bool),
    marks: &[u8],
    no_move: u8,
    memo: &mut HashMap<Vec<u8>, u8>,
) -> u8 {
    if let Some(&v) = memo.get(marks) {
        return v;
    }
    let values: Vec<u8> = followers(game, marks)
        .iter()
        .map(|next| brute_arrows(game, next, no_move, memo))
        .collect();
    let v = match values.is_empty() {
        true => no_move,
        false => (0..).find(|v| !values.contains(v)).unwrap(),
    };
    memo.insert(marks.to_vec(), v);
    v
}

fn random_graph(rng: &mut Rng, n: usize) -> Graph {
    let mut g = Graph::empty(n);
    for v in 1..n {
        g.add_edge(rng.below(v as u64) as usize, v);
    }
    for _ in 0..rng.below(3) {
        let (u, v) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
        if u != v {
            g.add_edge(u, v);
        }
    }
    g
}

#[test]
fn misere_arrows_on_the_dense_table_equal_the_brute_force() {
    let mut rng = Rng(0x313e_e001);
    for i in 0..30 {
        let n = 3 + rng.below(5) as usize;
        let g = random_graph(&mut rng, n);
        let rule = [ArrowRule::Arrows, ArrowRule::Trimmed][i % 2];
        let game = ArrowGame::new(&g, rule, Vec::new());
        let misere = game.clone().under(Convention::Misere).unwrap();
        let start = vec![0u8; game.edges.len()];
        let run = solve_dense(&misere, &start, &Backend::Cpu, true, &grundy::hooks::Silent);
        let table = run.unwrap().table.unwrap();
        let mut memo = HashMap::new();
        let trimmed = rule == ArrowRule::Trimmed;
        // every state of the table (byte = value + 1; 0: not a state)
        for (index, &byte) in table.iter().enumerate() {
            if byte == 0 {
                continue;
            }
            let marks: Vec<u8> = (0..game.edges.len())
                .map(|e| (index / 3usize.pow(e as u32) % 3) as u8)
                .collect();
            let expected = brute_arrows((&game.edges, trimmed), &marks, 1, &mut memo);
            assert_eq!(
                byte - 1,
                expected,
                "{rule:?} {:?} state {marks:?}",
                game.edges
            );
        }
    }
}

#[test]
fn misere_arrows_refuse_the_game_of_cycles_and_the_memo() {
    let said = EdgeGame::cycles("cycle:4", None)
        .unwrap()
        .convention(Convention::Misere)
        .unwrap_err()
        .to_string();
    assert!(said.contains("no misère form"), "{said}");
    let memo = EdgeGame::arrows("path:6")
        .unwrap()
        .convention(Convention::Misere)
        .unwrap()
        .solver(ArrowSolver::Memo)
        .run()
        .unwrap_err()
        .to_string();
    assert!(memo.contains("`solver = dense`"), "{memo}");
    // auto takes the dense table for a forest under misère play
    let run = EdgeGame::arrows("path:6")
        .unwrap()
        .convention(Convention::Misere)
        .unwrap()
        .run()
        .unwrap();
    assert_eq!(run.solver, ArrowSolver::Dense);
}

/// Bouton's misère rule: P exactly when some heap is at least 2 and the
/// nim-sum is 0, or every heap is at most 1 and their count is odd.
fn misere_nim_p(heaps: &[usize]) -> bool {
    let nim_sum = heaps.iter().fold(0, |x, &h| x ^ h);
    match heaps.iter().any(|&h| h >= 2) {
        true => nim_sum == 0,
        false => heaps.iter().filter(|&&h| h == 1).count() % 2 == 1,
    }
}

#[test]
fn hackenbush_stalks_under_misere_play_are_misere_nim() {
    // Stalks of a, b, c edges grounded at the centre of a pode: a sum of
    // nim-heaps, valued here as one whole picture.
    for a in 0..=5 {
        for b in a..=5 {
            for c in b..=5 {
                let legs: Vec<usize> = [a, b, c].into_iter().filter(|&x| x > 0).collect();
                let spec = match legs.is_empty() {
                    true => "path:1".to_string(),
                    false => format!(
                        "pode:{}",
                        legs.iter()
                            .map(|l| l.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    ),
                };
                let solved = grundy::hackenbush_under(&spec, "0", Convention::Misere).unwrap();
                assert_eq!(solved.value == 0, misere_nim_p(&[a, b, c]), "{a} {b} {c}");
                let normal = grundy::hackenbush(&spec, "0").unwrap();
                assert_eq!(normal.value as usize, a ^ b ^ c, "{a} {b} {c}");
            }
        }
    }
    // one stalk: misère nim values 1, 0, 2, 3, …
    for n in 0..=8usize {
        let picture = pode(&[n]);
        let spec = format!("graph6:{}", picture.to_graph6());
        let g = grundy::hackenbush_under(&spec, "0", Convention::Misere)
            .unwrap()
            .value;
        let expected = match n {
            0 => 1,
            1 => 0,
            n => n as u8,
        };
        assert_eq!(g, expected, "stalk of {n}");
    }
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_misere_arrows_equal_the_cpu_twin() {
    let Some(gpu) = gpu_or_skip("gpu_misere_arrows_equal_the_cpu_twin") else {
        return;
    };
    let mut rng = Rng(0x313e_e002);
    for i in 0..8 {
        let n = 5 + rng.below(5) as usize;
        let g = random_graph(&mut rng, n);
        let rule = [ArrowRule::Arrows, ArrowRule::Trimmed][i % 2];
        let game = ArrowGame::new(&g, rule, Vec::new())
            .under(Convention::Misere)
            .unwrap();
        let start = vec![0u8; game.edges.len()];
        let cpu = solve_dense(&game, &start, &Backend::Cpu, true, &grundy::hooks::Silent).unwrap();
        let run = solve_dense(&game, &start, &gpu, true, &crate::common::NoNotice).unwrap();
        assert_eq!(run.backend, grundy::internals::engine::Ran::Gpu);
        assert!(run.table == cpu.table, "{rule:?} {:?}", game.edges);
    }
}

/// `play arrows --misere`: a graph of two components is one position under
/// misère play; its misère value and its count of moves to misère value 0
/// are the brute force's.
#[test]
fn misere_play_of_arrows_equals_the_brute_force() {
    let mut rng = Rng(0x313e_e003);
    for i in 0..16 {
        let (a, b) = (2 + rng.below(4) as usize, 2 + rng.below(3) as usize);
        let (ga, gb) = (random_graph(&mut rng, a), random_graph(&mut rng, b));
        let spec = format!("graph6:{}+graph6:{}", ga.to_graph6(), gb.to_graph6());
        let trimmed = i % 2 == 1;
        let report = grundy::play::misere_arrows(&spec, None, trimmed, None).unwrap();
        let g = Graph::parse_sum(&spec).unwrap();
        let rule = [ArrowRule::Arrows, ArrowRule::Trimmed][i % 2];
        let edges = ArrowGame::new(&g, rule, Vec::new()).edges;
        let mut memo = HashMap::new();
        let start = vec![0u8; edges.len()];
        let value = brute_arrows((&edges, trimmed), &start, 1, &mut memo);
        assert_eq!(report.misere_value, Some(value as u32), "{spec} {rule:?}");
        let winning = followers((&edges, trimmed), &start)
            .iter()
            .filter(|next| brute_arrows((&edges, trimmed), next, 1, &mut memo) == 0)
            .count();
        assert_eq!(report.winning_moves_total, winning, "{spec} {rule:?}");
    }
}

/// `play hackenbush --misere` on stalks grounded at a pode's centre is
/// misère Nim: the outcome is Bouton's rule's, and the winning cuts are
/// the moves of misère Nim to its P-positions (a cut at height t of a
/// stalk of h edges leaves t − 1 of them).
#[test]
fn misere_play_of_hackenbush_stalks_is_misere_nim() {
    for heaps in [
        [1, 2, 3],
        [2, 2, 0],
        [1, 1, 1],
        [3, 4, 5],
        [1, 1, 4],
        [2, 3, 0],
    ] {
        let legs: Vec<String> = heaps
            .iter()
            .filter(|&&h| h > 0)
            .map(usize::to_string)
            .collect();
        let spec = format!("pode:{}", legs.join(","));
        let report = grundy::play::misere_hackenbush(&spec, "0", None).unwrap();
        assert_eq!(report.outcome == "P", misere_nim_p(&heaps), "{heaps:?}");
        let mut winning = 0;
        for (i, &h) in heaps.iter().enumerate() {
            for left in 0..h {
                let mut after = heaps;
                after[i] = left;
                winning += misere_nim_p(&after) as usize;
            }
        }
        assert_eq!(report.winning_moves_total, winning, "{heaps:?}");
    }
}
