//! Octal games on graphs under misère play (the last player to move loses)
//! against a brute force that shares nothing with the solvers: every subset
//! of a position tried as a removal, its connectedness and the pieces it
//! leaves found by a breadth-first search, the value the mex of the options'
//! (1 where there is no option). Then chains against the heap games' misère
//! values (`analysis::genus`), the dense table, the connected-only walk, the
//! reachable solver and the memo against the brute force, and the GPU
//! kernel against its CPU twin.

use std::collections::HashMap;

use crate::common::{Rng, gpu_or_skip};
use crate::graphs::{assert_gpu_table_is_the_cpus, random_graph};
use grundy::analysis::genus::heap_genera;
use grundy::game::graph::{self, Graph};
use grundy::game::{Code, Convention, GraphCode};
use grundy::internals::engine::graph::dense::{cpu_dense, cpu_dense_connected};
use grundy::internals::engine::graph::memo::MemoSolver;
use grundy::internals::engine::graph::reach::solve_reachable;
use grundy::internals::kernel::graph::GraphKernel;

fn misere(text: &str) -> GraphCode {
    GraphCode::parse(text).unwrap().under(Convention::Misere)
}

/// The vertices of `within` reachable from `start` (breadth first).
pub(crate) fn reach_from(g: &Graph, within: u64, start: usize) -> u64 {
    let mut seen = 1u64 << start;
    let mut queue = vec![start];
    while let Some(v) = queue.pop() {
        for w in 0..g.n() {
            if within >> w & 1 == 1 && seen >> w & 1 == 0 && g.adj[v] >> w & 1 == 1 {
                seen |= 1 << w;
                queue.push(w);
            }
        }
    }
    seen
}

fn pieces(g: &Graph, mut left: u64) -> u32 {
    let mut count = 0;
    while left != 0 {
        left &= !reach_from(g, left, left.trailing_zeros() as usize);
        count += 1;
    }
    count
}

/// The positions one move of `c` leaves from `mask`: every connected subset
/// of a size the code takes, leaving as many pieces of its component as the
/// digit allows.
pub(crate) fn options(g: &Graph, c: &GraphCode, mask: u64) -> Vec<u64> {
    let mut after = Vec::new();
    let mut sub = mask;
    while sub != 0 {
        let size = sub.count_ones() as usize;
        let first = sub.trailing_zeros() as usize;
        if size < c.digits.len() && c.digits[size] != 0 && reach_from(g, sub, first) == sub {
            let component = reach_from(g, mask, first);
            let left = pieces(g, component & !sub);
            if left < 3 && c.digits[size] >> left & 1 == 1 {
                after.push(mask & !sub);
            }
        }
        sub = (sub - 1) & mask;
    }
    after
}

/// g⁻ of `mask` by brute force, `no_move` the value of a position without
/// a move (so normal play too, with 0).
fn brute(g: &Graph, c: &GraphCode, mask: u64, no_move: u8, memo: &mut HashMap<u64, u8>) -> u8 {
    if let Some(&v) = memo.get(&mask) {
        return v;
    }
    let values: Vec<u8> = options(g, c, mask)
        .into_iter()
        .map(|after| brute(g, c, after, no_move, memo))
        .collect();
    let v = match values.is_empty() {
        true => no_move,
        false => (0..).find(|v| !values.contains(v)).unwrap(),
    };
    memo.insert(mask, v);
    v
}

fn random_code(rng: &mut Rng) -> String {
    let len = 1 + rng.below(3) as usize;
    let digits: String = (0..len)
        .map(|i| {
            let d = if i + 1 == len {
                1 + rng.below(7)
            } else {
                rng.below(8)
            };
            char::from_digit(d as u32, 10).unwrap()
        })
        .collect();
    format!("0.{digits}")
}

#[test]
fn the_misere_dense_table_equals_the_brute_force_on_every_subset() {
    let mut rng = Rng(0x313e_0001);
    for i in 0..40 {
        let text = random_code(&mut rng);
        let n = 3 + rng.below(7) as usize;
        let p = 20 + rng.below(50);
        let g = random_graph(&mut rng, n, p);
        let c = misere(&text);
        let table = cpu_dense(&GraphKernel::new(&g, &c), &grundy::hooks::Silent).unwrap();
        let mut memo = HashMap::new();
        for mask in 0..1u64 << n {
            let expected = brute(&g, &c, mask, 1, &mut memo);
            assert_eq!(
                table[mask as usize], expected,
                "#{i} {text} on {g:?} at {mask:#x}"
            );
        }
        // the same walk under normal play is the normal table
        let normal = GraphCode::parse(&text).unwrap();
        let normal_table =
            cpu_dense(&GraphKernel::new(&g, &normal), &grundy::hooks::Silent).unwrap();
        let mut normal_memo = HashMap::new();
        let top = (1u64 << n) - 1;
        assert_eq!(
            normal_table[top as usize],
            brute(&g, &normal, top, 0, &mut normal_memo),
            "{text} on {g:?} under normal play"
        );
    }
}

#[test]
fn misere_chains_are_the_heap_games_misere_values() {
    // A chain under a code that never splits it (digits at most 3) is the
    // heap game of the same code; analysis::genus values heaps its own way.
    let mut rng = Rng(0x313e_0002);
    for _ in 0..30 {
        let text: String = (0..1 + rng.below(4))
            .map(|_| char::from_digit(rng.below(4) as u32, 10).unwrap())
            .collect();
        let text = format!("0.{text}1");
        let genera = heap_genera(&Code::parse(&text).unwrap(), 14, 1).unwrap();
        let c = misere(&text);
        let table = cpu_dense(
            &GraphKernel::new(&graph::path(14), &c),
            &grundy::hooks::Silent,
        )
        .unwrap();
        for (n, genus) in genera.iter().enumerate() {
            let mask = (1u64 << n) - 1;
            assert_eq!(
                table[mask as usize] as u32,
                genus.misere(),
                "{text} on P{n}"
            );
        }
    }
}

#[test]
fn every_misere_solver_agrees_with_the_brute_force() {
    let mut rng = Rng(0x313e_0003);
    for i in 0..40 {
        // codes that never leave two pieces, so the memo takes them
        let text: String = (0..1 + rng.below(3))
            .map(|_| char::from_digit(rng.below(4) as u32, 10).unwrap())
            .collect();
        let text = format!("0.{text}3");
        let c = misere(&text);
        let n = 4 + rng.below(8) as usize;
        let g = match i % 3 {
            0 => {
                let mut t = Graph::empty(n);
                for v in 1..n {
                    t.add_edge(rng.below(v as u64) as usize, v);
                }
                t
            }
            1 => graph::grid(2, 2 + rng.below(3) as usize),
            _ => Graph::parse(&format!("cycle:{n}")).unwrap(),
        };
        let top = g.all();
        let expected = brute(&g, &c, top, 1, &mut HashMap::new());
        let kern = GraphKernel::new(&g, &c);
        let (connected, _) = cpu_dense_connected(&kern, &grundy::hooks::Silent).unwrap();
        assert_eq!(
            connected[top as usize], expected,
            "connected walk: {text} on {g:?}"
        );
        let reach = solve_reachable(&g, &c, false, &grundy::hooks::Silent).unwrap();
        assert_eq!(reach.value, expected, "reach: {text} on {g:?}");
        let memo = MemoSolver::new(&c).value(&g, top).unwrap();
        assert_eq!(memo, expected, "memo: {text} on {g:?}");
    }
}

#[test]
fn the_memo_refuses_misere_sums() {
    let splitting = misere("0.137");
    let said = MemoSolver::new(&splitting)
        .value(&graph::path(6), 0b111111)
        .unwrap_err()
        .to_string();
    assert!(said.contains("0.137 may leave a piece in two"), "{said}");
    let mut forest = Graph::empty(4);
    forest.add_edge(0, 1);
    forest.add_edge(1, 2);
    let said = MemoSolver::new(&misere("0.33"))
        .value(&forest, forest.all())
        .unwrap_err()
        .to_string();
    assert!(said.contains("several pieces"), "{said}");
    assert!(said.contains("`solver = dense`"), "{said}");
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_equals_cpu_on_random_graphs_under_misere_play() {
    let Some(backend) = gpu_or_skip("gpu_equals_cpu_on_random_graphs_under_misere_play") else {
        return;
    };
    let mut rng = Rng(0x313e_0004);
    for i in 0..12 {
        let c = misere(&random_code(&mut rng));
        let n = 6 + rng.below(10) as usize;
        let p = 10 + rng.below(40);
        let g = random_graph(&mut rng, n, p);
        assert_gpu_table_is_the_cpus(&g, &c, &backend, i);
    }
}

/// `play graph --misere`: the whole graph (every component together) is
/// one position; its misère value and its count of moves to misère value
/// 0 are the brute force's, on random graphs of several components.
#[test]
fn misere_play_on_a_graph_equals_the_brute_force() {
    let mut rng = Rng(0x313e_0003);
    for i in 0..30 {
        let text = random_code(&mut rng);
        let n = 2 + rng.below(8) as usize;
        let p = 15 + rng.below(30);
        let g = random_graph(&mut rng, n, p);
        let c = misere(&text);
        let normal = GraphCode::parse(&text).unwrap();
        let spec = format!("graph6:{}", g.to_graph6());
        let report = grundy::play::misere_graph(&normal, &spec, None).unwrap();
        let mut memo = HashMap::new();
        let top = (1u64 << n) - 1;
        let value = brute(&g, &c, top, 1, &mut memo);
        assert_eq!(
            report.misere_value,
            Some(value as u32),
            "#{i} {text} on {g:?}"
        );
        assert_eq!(report.outcome == "P", value == 0);
        let winning = options(&g, &c, top)
            .into_iter()
            .filter(|&after| brute(&g, &c, after, 1, &mut memo) == 0)
            .count();
        assert_eq!(report.winning_moves_total, winning, "#{i} {text} on {g:?}");
    }
}
