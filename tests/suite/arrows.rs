//! The Game of Arrows, its trimmed form and the Game of Cycles (Mathews, The Game of Arrows on 3-legged spider graphs):
//! the dense solver against the seed's propositions and theorems, the GPU
//! against the CPU twin, the trimming theorem on random trees.

use grundy::game::Graph;
use grundy::game::arrows::{ArrowGame, ArrowRule, spider, standard_faces, trim};
use grundy::game::graph::{path, pode};
use grundy::internals::engine::Backend;
use grundy::internals::engine::edges::arrows_dense::solve_dense;
use grundy::internals::engine::edges::arrows_memo::ArrowMemo;

use crate::common::{Rng, gpu_or_skip};

fn value(game: &ArrowGame, start: &[u8]) -> u8 {
    solve_dense(game, start, &Backend::Cpu, false, &crate::common::NoNotice)
        .unwrap()
        .value
}

fn empty(game: &ArrowGame) -> Vec<u8> {
    vec![0; game.edges.len()]
}

/// The trimmed game on a path 0..=len with these arrows (tail, head).
fn trimmed_path(len: usize, arrows: &[(usize, usize)]) -> u8 {
    let game = ArrowGame::new(&path(len + 1), ArrowRule::Trimmed, Vec::new());
    let mut marks = empty(&game);
    for &(t, h) in arrows {
        let e = game.edge_index(t, h).unwrap();
        marks[e] = game.mark_from(e, t);
    }
    assert!(game.is_state(&marks));
    value(&game, &marks)
}

#[test]
fn paths_flows_crashes_twigs_and_rods() {
    for n in 0..=11usize {
        // F_n: vertices -1..=n+1 shifted to 0..=n+2, arrows (0,1) and (n+1,n+2)
        assert_eq!(
            trimmed_path(n + 2, &[(0, 1), (n + 1, n + 2)]),
            (n % 2) as u8,
            "F_{n}"
        );
        if n >= 1 {
            // C_n: arrows (0,1) and (n+2,n+1), both pointing in
            assert_eq!(
                trimmed_path(n + 2, &[(0, 1), (n + 2, n + 1)]),
                (n % 2) as u8 ^ 1,
                "C_{n}"
            );
            // R_n: the empty path with n edges (Proposition 5.6)
            assert_eq!(trimmed_path(n, &[]), (n % 2) as u8, "R_{n}");
        }
        // T_n: path 0..=n+1 with the arrow (n, n+1) (Proposition 5.4)
        assert_eq!(trimmed_path(n + 1, &[(n, n + 1)]), n as u8, "T_{n}");
    }
    // The Game of Arrows on a path: player two wins iff the edge count is
    // even (Mathews, The Game of Arrows on 3-legged spider graphs, introduction) - from 2 edges on: a single edge can
    // never be marked (both ends are leaves), so it too is a second-player win
    let single = ArrowGame::new(&path(2), ArrowRule::Arrows, Vec::new());
    assert_eq!(value(&single, &empty(&single)), 0);
    for edges in 2..=13usize {
        let game = ArrowGame::new(&path(edges + 1), ArrowRule::Arrows, Vec::new());
        assert_eq!(
            value(&game, &empty(&game)) == 0,
            edges % 2 == 0,
            "path of {edges} edges"
        );
    }
}

/// The leaf edge of leg `leg` of a pode (the last two vertices of that leg).
fn leaf_edge(legs: &[usize], leg: usize) -> (usize, usize) {
    let leaf: usize = legs[..=leg].iter().sum();
    let before = if legs[leg] == 1 { 0 } else { leaf - 1 };
    (before, leaf)
}

#[test]
fn three_marked_legs_follow_theorem_8_2() {
    // S[a~, b~, c~]: the trimmed spider S(a+1, b+1, c+1) with its leaf edges
    // marked either way: g = ((a-2) xor (b-2) xor (c-2)) + 2 for a, b, c >= 2
    let mut rng = Rng(82);
    for a in 2..=4usize {
        for b in a..=4 {
            // dense tables: at most 13 edges here (the memo solver goes further)
            for c in (b..=10usize.saturating_sub(a + b)).filter(|&c| c >= b) {
                let legs = [a + 1, b + 1, c + 1];
                let game = ArrowGame::new(&pode(&legs), ArrowRule::Trimmed, Vec::new());
                let mut marks = empty(&game);
                for leg in 0..3 {
                    let (x, leaf) = leaf_edge(&legs, leg);
                    let e = game.edge_index(x, leaf).unwrap();
                    marks[e] = 1 + rng.below(2) as u8;
                }
                let expected = (((a - 2) ^ (b - 2) ^ (c - 2)) + 2) as u16;
                assert_eq!(
                    u16::from(value(&game, &marks)),
                    expected,
                    "S[{a}~,{b}~,{c}~] {marks:?}"
                );
            }
        }
    }
}

#[test]
fn spiders_with_even_legs_trimmed_and_odd_legs_untrimmed_are_second_player_wins() {
    // Theorem 12.1 (trimmed, even legs) and its consequence for the Game of
    // Arrows on spiders with odd legs (trimming takes one edge off each leg)
    for a in (2..=4).step_by(2) {
        for b in (a..=4).step_by(2) {
            for c in (b..=12 - a - b).step_by(2) {
                let trimmed = ArrowGame::new(&pode(&[a, b, c]), ArrowRule::Trimmed, Vec::new());
                assert_eq!(
                    value(&trimmed, &empty(&trimmed)),
                    0,
                    "trimmed S({a},{b},{c})"
                );
                if a + b + c + 3 <= 13 {
                    let odd = ArrowGame::new(
                        &pode(&[a + 1, b + 1, c + 1]),
                        ArrowRule::Arrows,
                        Vec::new(),
                    );
                    assert_eq!(
                        value(&odd, &empty(&odd)),
                        0,
                        "S({},{},{})",
                        a + 1,
                        b + 1,
                        c + 1
                    );
                }
            }
        }
    }
}

/// A random tree on n vertices (each vertex after the first joins an earlier one).
fn random_tree(rng: &mut Rng, n: usize) -> Graph {
    let mut g = Graph::empty(n);
    for v in 1..n {
        g.add_edge(rng.below(v as u64) as usize, v);
    }
    g
}

#[test]
fn the_game_of_arrows_equals_the_trimmed_game_on_the_trimming() {
    // Theorem 3.4, on random trees
    let mut rng = Rng(34);
    for _ in 0..40 {
        let n = 3 + rng.below(13) as usize;
        let g = random_tree(&mut rng, n);
        let arrows = ArrowGame::new(&g, ArrowRule::Arrows, Vec::new());
        let (tn, tedges) = trim(&g);
        let trimmed = ArrowGame::from_edges(tn, tedges, ArrowRule::Trimmed, Vec::new());
        assert_eq!(
            value(&arrows, &empty(&arrows)),
            value(&trimmed, &empty(&trimmed)),
            "{:?}",
            arrows.edges
        );
    }
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_tables_equal_the_cpu_twin_on_random_graphs() {
    let Some(gpu) = gpu_or_skip("gpu_tables_equal_the_cpu_twin_on_random_graphs") else {
        return;
    };
    let mut rng = Rng(0xa220_0005);
    let mut games = Vec::new();
    for i in 0..10 {
        let n = 4 + rng.below(8) as usize;
        let mut g = random_tree(&mut rng, n);
        // a few extra edges make cycles
        for _ in 0..rng.below(4) {
            let (u, v) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if u != v && g.edge_count() < 13 {
                g.add_edge(u, v);
            }
        }
        let rule = [ArrowRule::Arrows, ArrowRule::Trimmed][i % 2];
        games.push(ArrowGame::new(&g, rule, Vec::new()));
    }
    for spec in ["wheel:5", "grid:2x4", "cycle:7"] {
        let g = Graph::parse(spec).unwrap();
        let mut game = ArrowGame::new(&g, ArrowRule::Cycles, Vec::new());
        let faces = standard_faces(&g, spec).unwrap();
        game.faces = faces.iter().map(|f| game.face_of(f).unwrap()).collect();
        games.push(game);
    }
    for game in games {
        let start = empty(&game);
        let cpu = solve_dense(&game, &start, &Backend::Cpu, true, &grundy::hooks::Silent).unwrap();
        let run = solve_dense(&game, &start, &gpu, true, &crate::common::NoNotice).unwrap();
        assert_eq!(run.backend, grundy::internals::engine::Ran::Gpu);
        assert_eq!(
            (run.value, run.states),
            (cpu.value, cpu.states),
            "{:?}",
            game.edges
        );
        assert!(run.table == cpu.table, "{:?} {:?}", game.rule, game.edges);
    }
}

/// A random state of `game`: each edge marked with probability 1/3 either
/// way, dropping arrows that break the rule.
fn random_state(rng: &mut Rng, game: &ArrowGame) -> Vec<u8> {
    let mut marks = empty(game);
    for e in 0..marks.len() {
        if rng.below(3) == 0 {
            marks[e] = 1 + rng.below(2) as u8;
            if !game.is_state(&marks) {
                marks[e] = 0;
            }
        }
    }
    marks
}

#[test]
fn the_decomposition_solver_equals_the_dense_one() {
    let mut rng = Rng(44);
    let mut memo = ArrowMemo::new();
    for i in 0..60 {
        let n = 2 + rng.below(12) as usize;
        let mut g = random_tree(&mut rng, n);
        if i % 5 == 0 {
            // a forest: drop an edge
            let e = rng.below(n as u64 - 1) as usize + 1;
            g = {
                let mut h = Graph::empty(n);
                for v in 1..n {
                    for u in 0..v {
                        if g.adj[v] >> u & 1 == 1 && v != e {
                            h.add_edge(u, v);
                        }
                    }
                }
                h
            };
        }
        let rule = [ArrowRule::Arrows, ArrowRule::Trimmed][i % 2];
        let game = ArrowGame::new(&g, rule, Vec::new());
        let marks = if i % 3 == 0 {
            empty(&game)
        } else {
            random_state(&mut rng, &game)
        };
        assert_eq!(
            memo.value_of_state(&game, &marks).unwrap(),
            u16::from(value(&game, &marks)),
            "{rule:?} {:?} {marks:?}",
            game.edges
        );
    }
}

#[test]
fn the_decomposition_solver_carries_the_theorems_past_dense_tables() {
    let mut memo = ArrowMemo::new();
    let mut rng = Rng(812);
    // Theorem 8.2 with legs up to 14 (up to 45 edges)
    for a in 2..=12usize {
        for b in a..=12 {
            for c in [b, b + 1, 14] {
                let legs = [a + 1, b + 1, c + 1];
                let game = spider(&legs, ArrowRule::Trimmed);
                let mut marks = empty(&game);
                for leg in 0..3 {
                    let (x, leaf) = leaf_edge(&legs, leg);
                    let e = game.edge_index(x, leaf).unwrap();
                    marks[e] = 1 + rng.below(2) as u8;
                }
                let expected = (((a - 2) ^ (b - 2) ^ (c - 2)) + 2) as u16;
                assert_eq!(
                    memo.value_of_state(&game, &marks).unwrap(),
                    expected,
                    "S[{a}~,{b}~,{c}~]"
                );
            }
        }
    }
    // Theorem 12.1 and the odd-legged Game of Arrows, legs up to 21
    let mut arrows = ArrowMemo::new();
    for a in (1..=21).step_by(2) {
        for b in (a..=21).step_by(2) {
            for c in (b..=21).step_by(2) {
                let g = spider(&[a, b, c], ArrowRule::Arrows);
                assert_eq!(
                    arrows.value_of_state(&g, &empty(&g)).unwrap(),
                    0,
                    "S({a},{b},{c})"
                );
            }
        }
    }
    // beyond the paper: a leg of one edge (never markable) leaves G = (b + c) mod 2
    for b in 1..=20 {
        for c in b..=20 {
            let g = spider(&[1, b, c], ArrowRule::Arrows);
            assert_eq!(
                arrows.value_of_state(&g, &empty(&g)).unwrap(),
                ((b + c) % 2) as u16
            );
        }
    }
}

#[test]
fn four_odd_legs_are_not_always_a_second_player_win() {
    // Beyond Mathews, The Game of Arrows on 3-legged spider graphs: with four legs, odd lengths do not settle it. The
    // smallest exception in the spider table to 16 is S(3, 7, 9, 11), an
    // N-position; the trimmed game on its trimming S(2, 6, 8, 10) agrees
    // (Theorem 3.4), and S(3, 7, 9, 9) is P as three odd legs would suggest.
    let mut memo = ArrowMemo::new();
    let g = spider(&[3, 7, 9, 11], ArrowRule::Arrows);
    assert_eq!(memo.value_of_state(&g, &empty(&g)).unwrap(), 1);
    let t = spider(&[2, 6, 8, 10], ArrowRule::Trimmed);
    assert_eq!(memo.value_of_state(&t, &empty(&t)).unwrap(), 1);
    let p = spider(&[3, 7, 9, 9], ArrowRule::Arrows);
    assert_eq!(memo.value_of_state(&p, &empty(&p)).unwrap(), 0);
}
