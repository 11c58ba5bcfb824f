//! Green Hackenbush (the lecture notes on impartial games (2007)) against the principles that value it exactly.

use grundy::game::Graph;
use grundy::game::graph::path;
use grundy::internals::engine::edges::hackenbush::Hackenbush;

use crate::common::Rng;

fn value(g: &Graph, ground: &[usize]) -> u8 {
    let mut game = Hackenbush::new(g, ground).unwrap();
    let start = game.start();
    game.value(start)
}

#[test]
fn bamboo_stalks_are_nim_heaps() {
    for n in 0..=20usize {
        assert_eq!(value(&path(n + 1), &[0]), n as u8, "stalk of {n}");
    }
    // grounded in the middle: two stalks, a sum of two heaps
    for (a, b) in [(3, 5), (4, 4), (1, 6), (7, 2)] {
        assert_eq!(
            value(&path(a + b + 1), &[a]),
            (a ^ b) as u8,
            "stalks {a} and {b}"
        );
    }
    // an edge between two ground vertices is a loop at the ground: 1
    assert_eq!(value(&path(2), &[0, 1]), 1);
}

/// The colon principle: a rooted tree is worth the xor over the root's
/// children of (the child's subtree + 1).
fn colon(children: &[Vec<usize>], v: usize) -> u8 {
    children[v]
        .iter()
        .fold(0, |acc, &c| acc ^ (colon(children, c) + 1))
}

#[test]
fn rooted_trees_follow_the_colon_principle() {
    let mut rng = Rng(0xc010);
    for _ in 0..200 {
        let n = 2 + rng.below(22) as usize;
        let mut g = Graph::empty(n);
        let mut children = vec![Vec::new(); n];
        for v in 1..n {
            let p = rng.below(v as u64) as usize;
            g.add_edge(p, v);
            children[p].push(v);
        }
        assert_eq!(value(&g, &[0]), colon(&children, 0), "{children:?}");
    }
}

#[test]
fn cycles_follow_the_fusion_principle() {
    // ground - a, a cycle of k edges through a, and a stalk of m edges from
    // another vertex of the cycle: fusing the cycle into a leaves k loops
    // (worth 1 each) and the stalk at a, so G = ((k mod 2) xor m) + 1
    for k in 3..=9usize {
        for m in 0..=5usize {
            // vertices: 0 ground, 1 = a, cycle 1..=k, stalk k+1..
            let mut g = Graph::empty(2 + k - 1 + m);
            g.add_edge(0, 1);
            for i in 1..k {
                g.add_edge(i, i + 1);
            }
            g.add_edge(k, 1);
            let mut prev = 2; // a vertex of the cycle other than a
            for j in 0..m {
                let v = k + 1 + j;
                g.add_edge(prev, v);
                prev = v;
            }
            assert_eq!(
                value(&g, &[0]),
                (((k % 2) ^ m) + 1) as u8,
                "k = {k}, m = {m}"
            );
        }
        // a cycle hanging at the ground itself: k loops
        let cycle = Graph::parse(&format!("cycle:{k}")).unwrap();
        assert_eq!(value(&cycle, &[0]), (k % 2) as u8, "cycle of {k}");
    }
}
