//! Octal games on graphs (Dailly, Octal games on graphs) from first principles: chains against
//! heaps, forests against the xor rule, k-podes against Theorems 53 and 64,
//! bipodes against Theorem 61's recursion and Lemma 55, grids against
//! Corollaries 35 and 42 and the moves of Tables 2 and 3; the GPU kernel
//! against its CPU twin and the memo solver against the dense one.

use std::collections::HashMap;

use crate::common::{Rng, gpu_or_skip};
use grundy::game::graph::{self, Graph};
use grundy::game::graph::{bipode_of, pode_of, pode_rows};
use grundy::game::{Code, GraphCode};
use grundy::internals::engine::Backend;
use grundy::internals::engine::graph::dense::{
    DenseTuning, cpu_dense, cpu_dense_connected, for_each_option, moves_table, reachable_levels,
    solve_dense,
};
use grundy::internals::engine::graph::grid_levels::GridLevels;
use grundy::internals::engine::graph::memo::MemoSolver;
use grundy::internals::engine::graph::reach::solve_reachable;
use grundy::internals::engine::heap::brute::general;
use grundy::internals::kernel::graph::GraphKernel;

fn code(text: &str) -> GraphCode {
    GraphCode::parse(text).unwrap()
}

fn dense(g: &Graph, c: &GraphCode) -> Vec<u8> {
    cpu_dense(&GraphKernel::new(g, c), &grundy::hooks::Silent).unwrap()
}

fn memo_value(g: &Graph, c: &GraphCode) -> u8 {
    MemoSolver::new(c).value(g, g.all()).unwrap()
}

fn whole(table: &[u8]) -> u8 {
    table[table.len() - 1]
}

/// A random code with octal digits, 1 to 4 of them, the last nonzero.
fn random_code(rng: &mut Rng) -> GraphCode {
    let len = 1 + rng.below(4) as usize;
    let mut text = String::from("0.");
    for i in 0..len {
        let d = if i + 1 == len {
            1 + rng.below(7)
        } else {
            rng.below(8)
        };
        text.push(char::from_digit(d as u32, 10).unwrap());
    }
    code(&text)
}

/// A random graph on `n` vertices with edge probability `p` percent.
pub(crate) fn random_graph(rng: &mut Rng, n: usize, p: u64) -> Graph {
    let mut g = Graph::empty(n);
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(100) < p {
                g.add_edge(u, v);
            }
        }
    }
    g
}

fn random_tree(rng: &mut Rng, n: usize) -> Graph {
    let mut g = Graph::empty(n);
    for v in 1..n {
        g.add_edge(rng.below(v as u64) as usize, v);
    }
    g
}

#[test]
fn chains_are_heaps() {
    // On a chain, Definition 22 is the heap game: compare with the heap engine.
    let mut rng = Rng(0x9a7_0001);
    for _ in 0..40 {
        let c = random_code(&mut rng);
        let heaps =
            general::sequence(&Code::parse(&c.text).unwrap(), 14, &grundy::hooks::Silent).unwrap();
        let table = dense(&graph::path(14), &c);
        for (n, &h) in heaps.iter().enumerate() {
            // The first n vertices of path:14 are path:n.
            let mask = (1u64 << n) - 1;
            assert_eq!(table[mask as usize] as u16, h, "{} on P{n}", c.text);
        }
    }
}

#[test]
fn chains_0_33_and_0_03() {
    for n in 1..=20 {
        let p = graph::path(n);
        // Dailly, Octal games on graphs, Theorem 44: G(P_m) = m mod 3 for 0.33.
        assert_eq!(
            memo_value(&p, &code("0.33")) as usize,
            n % 3,
            "0.33 on P{n}"
        );
        // Theorem 25: P_m is an N-position for 0.03 iff m = 2, 3 mod 4.
        let n_position = memo_value(&p, &code("0.03")) != 0;
        assert_eq!(n_position, n % 4 == 2 || n % 4 == 3, "0.03 on P{n}");
    }
}

#[test]
fn forests_are_xor_sums() {
    // Corollary 29 and Proposition 17: a forest is the xor of its trees.
    let mut rng = Rng(0x9a7_0002);
    for _ in 0..30 {
        let c = random_code(&mut rng);
        let sizes: Vec<usize> = (0..2 + rng.below(3))
            .map(|_| 1 + rng.below(6) as usize)
            .collect();
        let mut forest = Graph::empty(0);
        let mut expected = 0;
        for &s in &sizes {
            let t = random_tree(&mut rng, s);
            expected ^= whole(&dense(&t, &c));
            let base = forest.n();
            forest.adj.extend(t.adj.iter().map(|a| a << base));
        }
        assert_eq!(
            whole(&dense(&forest, &c)),
            expected,
            "{} on {sizes:?}",
            c.text
        );
        assert_eq!(memo_value(&forest, &c), expected);
    }
    // Corollary 28: for 0.03 a tree's value is 0 or 1.
    for _ in 0..30 {
        let n = 2 + rng.below(14) as usize;
        let t = random_tree(&mut rng, n);
        assert!(memo_value(&t, &code("0.03")) <= 1);
    }
}

/// G of the k-podes with legs of length 1 and 2, row k, column = long legs.
fn pode_table(max_legs: usize) -> HashMap<(usize, usize), u8> {
    let c = code("0.33");
    let mut memo = MemoSolver::new(&c);
    pode_rows(max_legs, 2)
        .into_iter()
        .map(|counts| {
            let g = pode_of(&counts);
            (
                (counts[0] + counts[1], counts[1]),
                memo.value(&g, g.all()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn podes_follow_theorems_53_and_64() {
    let table = pode_table(14);
    for ((k, n2), &g) in &table {
        let n1 = k - n2;
        // Theorem 53: the four N conditions.
        let n = (n1 == 0 && *n2 == 0)
            || (n2 % 2 == 1 && (n1, *n2) != (0, 1))
            || (*n2 == 2 && n1 % 2 == 0)
            || (*n2 != 2 && n2 % 2 == 0 && n1 % 2 == 1);
        assert_eq!(
            g != 0,
            n,
            "Pod with {n1} legs of length 1 and {n2} of length 2"
        );
        // Theorem 64 (row r = k + 1, r >= 5): rows 0312(03)* and 1203(12)*.
        if *k >= 4 {
            let pattern: &[u8] = if k % 2 == 0 {
                &[0, 3, 1, 2]
            } else {
                &[1, 2, 0, 3]
            };
            let tail: &[u8] = if k % 2 == 0 { &[0, 3] } else { &[1, 2] };
            let expected = if *n2 < 4 {
                pattern[*n2]
            } else {
                tail[(n2 - 4) % 2]
            };
            assert_eq!(g, expected, "row of {k} legs, {n2} long");
        }
    }
    // Corollary 51: legs reduce mod 3.
    let mut rng = Rng(0x9a7_0003);
    let c = code("0.33");
    for _ in 0..30 {
        let legs: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(8) as usize).collect();
        let reduced: Vec<usize> = legs.iter().map(|l| l % 3).collect();
        assert_eq!(
            memo_value(&graph::pode(&legs), &c),
            memo_value(&graph::pode(&reduced), &c),
            "Pod{legs:?}"
        );
    }
}

/// Theorem 61's recursion, with the pode values at its ends.
fn theorem_61(
    a: [usize; 4],
    m: usize,
    pode: &mut dyn FnMut(&[usize]) -> u8,
    memo: &mut HashMap<[usize; 4], u8>,
) -> u8 {
    if let Some(&v) = memo.get(&a) {
        return v;
    }
    let [a1, a2, b1, b2] = a;
    let legs = |ones: usize, twos: usize, extra: usize| {
        let mut v = vec![1; ones];
        v.extend(std::iter::repeat_n(2, twos));
        v.push(extra);
        v
    };
    let v = if a1 + a2 == 0 {
        pode(&legs(b1, b2, m))
    } else if b1 + b2 == 0 {
        pode(&legs(a1, a2, m))
    } else {
        let mut seen = Vec::new();
        let mut go = |s: [usize; 4], seen: &mut Vec<u8>| {
            let v = theorem_61(s, m, pode, memo);
            seen.push(v)
        };
        if a1 > 0 {
            go([a1 - 1, a2, b1, b2], &mut seen);
        }
        if b1 > 0 {
            go([a1, a2, b1 - 1, b2], &mut seen);
        }
        if a2 > 0 {
            go([a1, a2 - 1, b1, b2], &mut seen);
            go([a1 + 1, a2 - 1, b1, b2], &mut seen);
        }
        if b2 > 0 {
            go([a1, a2, b1, b2 - 1], &mut seen);
            go([a1, a2, b1 + 1, b2 - 1], &mut seen);
        }
        if a1 == 1 && a2 == 0 {
            seen.push(pode(&legs(b1, b2, m - 1)));
        }
        if b1 == 1 && b2 == 0 {
            seen.push(pode(&legs(a1, a2, m - 1)));
        }
        (0..).find(|v| !seen.contains(v)).unwrap()
    };
    memo.insert(a, v);
    v
}

#[test]
fn bipodes_follow_theorem_61() {
    let c = code("0.33");
    for m in [1, 2] {
        let mut solver = MemoSolver::new(&c);
        let mut pode_solver = MemoSolver::new(&c);
        let mut pode = |legs: &[usize]| {
            let g = graph::pode(legs);
            pode_solver.value(&g, g.all()).unwrap()
        };
        let mut memo = HashMap::new();
        let max = 4;
        for a1 in 0..=max {
            for a2 in 0..=max {
                for b1 in 0..=max {
                    for b2 in 0..=max {
                        let g = bipode_of(a1, a2, b1, b2, m);
                        let from_graph = solver.value(&g, g.all()).unwrap();
                        let from_formula = theorem_61([a1, a2, b1, b2], m, &mut pode, &mut memo);
                        assert_eq!(from_graph, from_formula, "B({a1},{a2},{b1},{b2}; {m})");
                    }
                }
            }
        }
    }
}

#[test]
fn bipode_chains_reduce_mod_3() {
    // Lemma 55 (middle chain) and Corollary 60 (legs).
    let c = code("0.33");
    let mut solver = MemoSolver::new(&c);
    let mut value = |a: &[usize], b: &[usize], m: usize| {
        let g = graph::bipode(a, b, m);
        solver.value(&g, g.all()).unwrap()
    };
    let mut rng = Rng(0x9a7_0004);
    for _ in 0..40 {
        let a: Vec<usize> = (0..1 + rng.below(3))
            .map(|_| 1 + rng.below(5) as usize)
            .collect();
        let b: Vec<usize> = (0..1 + rng.below(3))
            .map(|_| 1 + rng.below(5) as usize)
            .collect();
        let m = rng.below(8) as usize;
        let v = value(&a, &b, m);
        assert_eq!(v, value(&a, &b, m % 3), "Bipod({a:?}; {b:?}; {m})");
        let a3: Vec<usize> = a.iter().map(|l| l % 3).collect();
        let b3: Vec<usize> = b.iter().map(|l| l % 3).collect();
        assert_eq!(v, value(&a3, &b3, m), "Bipod({a:?}; {b:?}; {m}) legs mod 3");
    }
}

#[test]
fn grids_for_0_03() {
    let c = code("0.03");
    // Corollary 35: a 2 x n grid is N iff n is odd.
    for n in 1..=9 {
        let v = whole(&dense(&graph::grid(2, n), &c));
        assert_eq!(v != 0, n % 2 == 1, "2x{n}");
    }
    // Corollary 42: a 3 x n grid is N iff n = 1, 2 mod 4.
    // Table 2: the moves played on 3 x n, n <= 7: 1 3 4 6 7 9 10.
    for (n, moves) in (1..=7).zip([1, 3, 4, 6, 7, 9, 10]) {
        let g = graph::grid(3, n);
        let table = dense(&g, &c);
        assert_eq!(whole(&table) != 0, n % 4 == 1 || n % 4 == 2, "3x{n}");
        assert_eq!(whole(&moves_table(&g, &c, &table)), moves, "moves on 3x{n}");
    }
    // Table 3: 4 x n for n = 2..5 plays 4, 6, 8, 10 moves.
    for (n, moves) in (2..=5).zip([4, 6, 8, 10]) {
        let g = graph::grid(4, n);
        let table = dense(&g, &c);
        assert_eq!(whole(&moves_table(&g, &c, &table)), moves, "moves on 4x{n}");
    }
}

#[test]
fn moves_follow_the_winner_and_the_loser() {
    // On a chain of 0.03 every game empties it or leaves one vertex: moves = floor(n/2)
    // once the winner can force it; on P3 the only move leaves one vertex.
    let c = code("0.03");
    let g = graph::path(3);
    let t = dense(&g, &c);
    assert_eq!(whole(&moves_table(&g, &c, &t)), 1);
    // A terminal position plays no move; a P-position with options plays at least one.
    let g = graph::grid(2, 2);
    let t = dense(&g, &c);
    let m = moves_table(&g, &c, &t);
    assert_eq!(m[0b0001], 0);
    assert_eq!(t[0b1111], 0);
    assert_eq!(m[0b1111], 2);
}

#[test]
fn conjecture_63_on_small_grids() {
    // Dailly, Octal games on graphs, Conjecture 63: 3k x n grids are P-positions for 0.33.
    let c = code("0.33");
    for n in 1..=5 {
        assert_eq!(whole(&dense(&graph::grid(3, n), &c)), 0, "3x{n}");
    }
}

#[test]
fn memo_equals_dense() {
    let mut rng = Rng(0x9a7_0005);
    for i in 0..60 {
        let c = random_code(&mut rng);
        let g = match i % 3 {
            0 => {
                let n = 4 + rng.below(10) as usize;
                random_graph(&mut rng, n, 35)
            }
            1 => {
                let n = 4 + rng.below(12) as usize;
                random_tree(&mut rng, n)
            }
            _ => {
                let mut g = graph::grid(2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
                // Drop a few cells so the pieces are not all rectangles.
                let mask = g.all() & !(rng.next_u64() & rng.next_u64());
                let mut sub = g.induced(mask);
                sub.grid = None;
                if rng.below(2) == 0 {
                    g = sub;
                }
                g
            }
        };
        // Every position, not just the whole graph.
        assert_memo_matches_dense(&g, &c, 200);
    }
}

/// `value` of about `samples` positions of `g`, spread over the dense
/// table, equals the table's; returns the table.
fn assert_values_match_dense(
    g: &Graph,
    c: &GraphCode,
    samples: usize,
    mut value: impl FnMut(u64) -> u8,
) -> Vec<u8> {
    let table = dense(g, c);
    for mask in (0..table.len() as u64).step_by(1 + table.len() / samples) {
        assert_eq!(
            value(mask),
            table[mask as usize],
            "{} on {} at {mask:#x}",
            c.text,
            g.spec
        );
    }
    table
}

/// The memo solver's value of sampled positions equals the dense table's.
fn assert_memo_matches_dense(g: &Graph, c: &GraphCode, samples: usize) -> Vec<u8> {
    let mut memo = MemoSolver::new(c);
    assert_values_match_dense(g, c, samples, |mask| memo.value(g, mask).unwrap())
}

#[test]
fn level_memo_on_grids_equals_dense() {
    // Under codes that take one vertex and leave one piece, the memo lists
    // every piece of a grid up front and values it level by level in
    // parallel: every position's value (the xor of its pieces') is the
    // dense table's, on grids square and not, tall and wide.
    let mut rng = Rng(0x001e_7e15);
    let shapes = [
        (4, 5),
        (5, 4),
        (3, 7),
        (7, 3),
        (4, 4),
        (2, 7),
        (1, 7),
        (3, 3),
    ];
    for (i, &(rows, cols)) in shapes.iter().cycle().take(16).enumerate() {
        let c = match i % 4 {
            0 => code("0.33"),
            1 => code("0.37"),
            _ => {
                // a random code whose first digit may leave one piece
                let mut c = random_code(&mut rng);
                let first = [2, 3, 6, 7][rng.below(4) as usize];
                c.text.replace_range(2..3, &first.to_string());
                code(&c.text)
            }
        };
        let g = graph::grid(rows, cols);
        assert_eq!(GridLevels::applies(&g, &c), Some((rows, cols)));
        let levels = GridLevels::solve(&c, rows, cols, &grundy::hooks::Silent).unwrap();
        let table = assert_values_match_dense(&g, &c, 500, |mask| levels.value(mask).unwrap());
        assert_eq!(
            levels.value(g.all()).unwrap(),
            whole(&table),
            "{} on {rows}x{cols}",
            c.text
        );
        // its pieces are the ones the recursion meets from the whole grid
        let mut memo = MemoSolver::new(&c);
        memo.value(&g, g.all()).unwrap();
        assert_eq!(
            levels.positions(),
            memo.positions(),
            "{} on {rows}x{cols}",
            c.text
        );
    }
    // codes that never take one vertex, and grids past 7x7, go to the recursion
    assert_eq!(GridLevels::applies(&graph::grid(4, 4), &code("0.03")), None);
    assert_eq!(GridLevels::applies(&graph::grid(2, 8), &code("0.33")), None);
    assert_eq!(GridLevels::applies(&graph::path(5), &code("0.33")), None);
}

#[test]
fn memo_on_grids_equals_dense() {
    // Grid pieces are keyed by board shape (both sides at most 8) or by
    // bounding box (a longer side), and split by word-shift floods.
    let mut rng = Rng(0x9a7_0009);
    let shapes = [
        (4, 5),
        (5, 3),
        (2, 8),
        (8, 2),
        (3, 6),
        (2, 9),
        (9, 2),
        (1, 12),
    ];
    for (i, &(rows, cols)) in shapes.iter().cycle().take(24).enumerate() {
        let c = match i % 4 {
            0 => GraphCode::parse("0.03").unwrap(),
            1 => GraphCode::parse("0.33").unwrap(),
            _ => random_code(&mut rng),
        };
        let g = graph::grid(rows, cols);
        let table = assert_memo_matches_dense(&g, &c, 300);
        assert_eq!(
            MemoSolver::new(&c).value(&g, g.all()).unwrap(),
            whole(&table),
            "{} on {rows}x{cols}",
            c.text
        );
    }
}

#[test]
fn connected_only_walk_equals_the_full_table() {
    // Codes that never leave two pieces reach only connected positions.
    let mut rng = Rng(0x9a7_0007);
    for i in 0..30 {
        let mut c = random_code(&mut rng);
        c.digits.iter_mut().for_each(|d| *d &= 3);
        if c.digits.iter().all(|&d| d == 0) {
            continue;
        }
        let g = if i % 2 == 0 {
            graph::grid(2 + rng.below(3) as usize, 2 + rng.below(4) as usize)
        } else {
            let n = 5 + rng.below(10) as usize;
            random_graph(&mut rng, n, 40)
        };
        let full = dense(&g, &c);
        let kern = GraphKernel::new(&g, &c);
        let (part, evaluated) = cpu_dense_connected(&kern, &grundy::hooks::Silent).unwrap();
        // Only the levels a game from the whole graph reaches are walked:
        // every position reachable by moves lies on one of them.
        let levels = reachable_levels(&kern);
        let mut stack = vec![g.all()];
        let mut seen = std::collections::HashSet::new();
        while let Some(m) = stack.pop() {
            assert!(levels[m.count_ones() as usize], "{} reaches {m:#x}", c.text);
            for_each_option(&g, &c, m, |o| {
                if seen.insert(o) {
                    stack.push(o);
                }
            });
        }
        let connected: Vec<u64> = (1..full.len() as u64)
            .filter(|&m| g.is_connected(m) && levels[m.count_ones() as usize])
            .collect();
        assert_eq!(evaluated, connected.len() as u64);
        for m in connected {
            assert_eq!(
                part[m as usize], full[m as usize],
                "{} on {g:?} at {m:#x}",
                c.text
            );
        }
        // solve_dense takes this walk when no table is kept and the graph is connected.
        let run = solve_dense(
            &g,
            &c,
            &Backend::Cpu,
            false,
            &DenseTuning::default(),
            &grundy::hooks::Silent,
        )
        .unwrap();
        assert_eq!(run.value, whole(&full));
    }
}

/// The dense table of `c` on `g` from the GPU equals the CPU twin's, byte
/// for byte; an odd `i` takes small chunks and short dispatch rows, which
/// reach the multi-chunk and 2D paths.
pub(crate) fn assert_gpu_table_is_the_cpus(g: &Graph, c: &GraphCode, backend: &Backend, i: usize) {
    let tuning = if i.is_multiple_of(2) {
        DenseTuning::default()
    } else {
        DenseTuning {
            chunk_shift: Some((g.n() as u32).saturating_sub(5).max(1)),
            max_groups_x: 7,
        }
    };
    let notices = crate::common::Notices::default();
    let run = solve_dense(g, c, backend, true, &tuning, &notices).unwrap();
    assert_eq!(
        run.backend,
        grundy::internals::engine::Ran::Gpu,
        "{} on {} vertices: {:?}",
        c.text,
        g.n(),
        notices.heard()
    );
    let gpu = run.table.unwrap();
    let cpu = dense(g, c);
    assert_eq!(gpu.len(), cpu.len());
    let bad = (0..cpu.len()).find(|&m| gpu[m] != cpu[m]);
    assert_eq!(bad, None, "{} on {:?}", c.text, g);
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_equals_cpu_on_random_graphs() {
    let Some(backend) = gpu_or_skip("gpu_equals_cpu_on_random_graphs") else {
        return;
    };
    let mut rng = Rng(0x9a7_0006);
    for i in 0..16 {
        let c = random_code(&mut rng);
        let n = 6 + rng.below(13) as usize;
        let g = if i % 4 == 3 {
            graph::grid(2 + rng.below(3) as usize, 3 + rng.below(3) as usize)
        } else {
            let p = 10 + rng.below(40);
            random_graph(&mut rng, n, p)
        };
        assert_gpu_table_is_the_cpus(&g, &c, &backend, i);
    }
}

#[test]
fn benchmark_baselines_agree_with_the_dense_table() {
    use grundy_cli::bench::graphs::{memo_recursion_baseline, seed_algorithm_2};
    let mut rng = Rng(0x9a7_0008);
    for _ in 0..20 {
        let c = random_code(&mut rng);
        let n = 4 + rng.below(9) as usize;
        let g = random_graph(&mut rng, n, 40);
        let v = whole(&dense(&g, &c));
        assert_eq!(memo_recursion_baseline(&g, &c).0, v, "{} on {g:?}", c.text);
        assert_eq!(seed_algorithm_2(&g, &c).0, v != 0, "{} on {g:?}", c.text);
    }
}

#[test]
fn reachable_solver_equals_the_dense_table() {
    // Values and moves of every reachable position, on random codes and graphs.
    let mut rng = Rng(0x9a7_0009);
    for i in 0..40 {
        let c = random_code(&mut rng);
        let g = if i % 3 == 0 {
            graph::grid(2 + rng.below(3) as usize, 2 + rng.below(3) as usize)
        } else {
            let n = 4 + rng.below(10) as usize;
            random_graph(&mut rng, n, 35)
        };
        let table = dense(&g, &c);
        let moves = moves_table(&g, &c, &table);
        let run = solve_reachable(&g, &c, true, &grundy::hooks::Silent).unwrap();
        assert_eq!(run.value, whole(&table), "{} on {g:?}", c.text);
        assert_eq!(run.moves, whole(&moves), "{} on {g:?}", c.text);
        assert_eq!(run.rows.len() as u64, run.positions);
        for (mask, v, m) in run.rows {
            assert_eq!(
                (v, m),
                (table[mask as usize], moves[mask as usize]),
                "{} at {mask:#x}",
                c.text
            );
        }
    }
}
