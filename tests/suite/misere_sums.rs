//! `play sum --misere` (`grundy::play::misere_play_sum`): sums of different
//! games under misère play, where the last player to move loses, against a
//! brute force that shares nothing with the search: each game's moves read
//! naively (a subtraction game's takes, every cut of a box, every connected
//! removal of a graph), sums valued by recursion over their sorted pieces.
//! Then misère Nim's rule across games, and the refusals.

use std::collections::{BTreeSet, HashMap};

use crate::common::{Rng, grundy, json};
use crate::graphs::random_graph;
use crate::misere_graphs::{options as graph_options, reach_from};
use crate::tuples::naive_cuts;
use grundy::game::rect::Rect;
use grundy::game::{Graph, GraphCode};
use grundy::play::{Position, misere_play_sum};

/// A piece of the brute force's sums.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Piece {
    Heap(u64),
    Box(Vec<u32>),
    Vertices(u64),
}

/// The games of a sum: a subtraction set, a rectangle rule, a graph and
/// its code.
struct Games {
    set: Vec<u64>,
    rect: Rect,
    graph: Graph,
    code: GraphCode,
}

impl Games {
    /// The distinct sets of pieces one move of `piece` leaves.
    fn moves(&self, piece: &Piece) -> BTreeSet<Vec<Piece>> {
        match piece {
            Piece::Heap(h) => self
                .set
                .iter()
                .filter(|&&s| s <= *h)
                .map(|&s| {
                    (h - s > 0)
                        .then_some(Piece::Heap(h - s))
                        .into_iter()
                        .collect()
                })
                .collect(),
            Piece::Box(sides) => naive_cuts(&self.rect, std::slice::from_ref(sides))
                .into_iter()
                .map(|(_, pieces)| pieces.into_iter().map(Piece::Box).collect())
                .collect(),
            Piece::Vertices(mask) => graph_options(&self.graph, &self.code, *mask)
                .into_iter()
                .map(|rest| {
                    components(&self.graph, rest)
                        .into_iter()
                        .map(Piece::Vertices)
                        .collect()
                })
                .collect(),
        }
    }

    /// The sum `sum` becomes when its piece `i` leaves `left`.
    fn after(sum: &[Piece], i: usize, left: &[Piece]) -> Vec<Piece> {
        let mut next = sum.to_vec();
        next.remove(i);
        next.extend(left.iter().cloned());
        next
    }

    /// g⁻ of a sum: 1 without a move, else the mex of its options'.
    fn value(&self, mut sum: Vec<Piece>, memo: &mut HashMap<Vec<Piece>, u32>) -> u32 {
        sum.sort();
        if let Some(&v) = memo.get(&sum) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..sum.len() {
            for left in self.moves(&sum[i]) {
                seen.push(self.value(Games::after(&sum, i, &left), memo));
            }
        }
        let v = match seen.is_empty() {
            true => 1,
            false => (0..).find(|v| !seen.contains(v)).unwrap(),
        };
        memo.insert(sum, v);
        v
    }
}

/// The connected components of `mask`.
fn components(g: &Graph, mut mask: u64) -> Vec<u64> {
    let mut found = Vec::new();
    while mask != 0 {
        let comp = reach_from(g, mask, mask.trailing_zeros() as usize);
        found.push(comp);
        mask &= !comp;
    }
    found
}

/// A random small sum: heaps of a subtraction game, boxes of Grundy's
/// game on rectangles, a graph of several components under a graph code.
fn random_sum(rng: &mut Rng) -> (Games, Vec<Piece>, Vec<Position>) {
    let set: Vec<u64> = [1, 2, 3, 4]
        .into_iter()
        .filter(|_| rng.below(2) == 1)
        .collect();
    let set = if set.is_empty() { vec![2] } else { set };
    let heaps: Vec<u64> = (0..1 + rng.below(2)).map(|_| 1 + rng.below(7)).collect();
    let boxes: Vec<Vec<u32>> = (0..rng.below(3))
        .map(|_| {
            let mut b = vec![1 + rng.below(3) as u32, 1 + rng.below(5) as u32];
            b.sort_unstable();
            b
        })
        .collect();
    let code_text = ["0.33", "0.137", "0.7", "0.6"][rng.below(4) as usize];
    let vertices = 2 + rng.below(5) as usize;
    let graph = random_graph(rng, vertices, 35);
    let games = Games {
        set: set.clone(),
        rect: Rect::new(2, 1).unwrap(),
        code: GraphCode::parse(code_text).unwrap(),
        graph: graph.clone(),
    };
    let mut pieces: Vec<Piece> = heaps.iter().map(|&h| Piece::Heap(h)).collect();
    pieces.extend(boxes.iter().cloned().map(Piece::Box));
    pieces.extend(
        components(&graph, graph.all())
            .into_iter()
            .map(Piece::Vertices),
    );
    let set32: Vec<u32> = set.iter().map(|&s| s as u32).collect();
    let mut positions = vec![Position::subtraction(&set32, &heaps).unwrap()];
    if !boxes.is_empty() {
        let names: Vec<String> = boxes.iter().map(|b| format!("{}x{}", b[0], b[1])).collect();
        positions.push(Position::rect(&names.join(","), 1).unwrap());
    }
    let spec = format!("graph6:{}", graph.to_graph6());
    positions.push(Position::graph(code_text, &spec).unwrap());
    (games, pieces, positions)
}

/// On random sums of three games, the misère value, the outcome and the
/// count of moves to misère value 0 are the brute force's.
#[test]
fn misere_sums_of_different_games_equal_the_brute_force() {
    let mut rng = Rng(0x313e_5000);
    for i in 0..40 {
        let (games, pieces, positions) = random_sum(&mut rng);
        let report = misere_play_sum(positions, None).unwrap();
        let mut memo = HashMap::new();
        let value = games.value(pieces.clone(), &mut memo);
        assert_eq!(report.misere_value, Some(value), "#{i} {pieces:?}");
        assert_eq!(report.outcome == "P", value == 0, "#{i}");
        let mut winning = 0;
        for (k, piece) in pieces.iter().enumerate() {
            for left in games.moves(piece) {
                winning += (games.value(Games::after(&pieces, k, &left), &mut memo) == 0) as usize;
            }
        }
        assert_eq!(report.winning_moves_total, winning, "#{i} {pieces:?}");
        assert!(report.winning_moves.iter().all(|m| m.g == 0));
    }
}

/// Nim heaps written as three games (octal 0.[3] heaps, green Hackenbush
/// stalks, and 0.3333 on paths, which removes a run of vertices from an
/// end) follow Bouton's misère rule: a P-position exactly when some heap
/// is 2 or more and the nim-sum is 0, or every heap is at most 1 and their
/// count is odd.
#[test]
fn misere_nim_across_games_follows_boutons_rule() {
    for (octal, stalk, path) in [
        (1, 1, 1),
        (2, 2, 1),
        (1, 2, 3),
        (3, 1, 2),
        (2, 3, 1),
        (1, 1, 2),
        (4, 1, 4),
    ] {
        let positions = vec![
            Position::heaps("0.[3]", &[octal]).unwrap(),
            Position::hackenbush(&format!("path:{}", stalk + 1), "0").unwrap(),
            Position::graph("0.3333", &format!("path:{path}")).unwrap(),
        ];
        let report = misere_play_sum(positions, None).unwrap();
        let heaps = [octal, stalk, path];
        let p = match heaps.iter().any(|&h| h >= 2) {
            true => heaps.iter().fold(0, |s, h| s ^ h) == 0,
            false => heaps.iter().filter(|&&h| h == 1).count() % 2 == 1,
        };
        assert_eq!(report.outcome == "P", p, "{heaps:?}");
    }
}

/// `grundy play sum --misere` reports the convention, the whole sum's
/// misère value and its moves; a component's own --misere needs the sum's,
/// and the Game of Cycles, where completing a cell wins, is refused.
#[test]
fn play_sum_misere_on_the_command_line() {
    let v = json(&grundy(&[
        "play",
        "sum",
        "--misere",
        "octal 0.[3] 1",
        "rect 1x3",
        "--json",
    ]));
    assert_eq!(v["convention"], "misere", "{v}");
    assert_eq!(
        (v["misere_value"].as_u64(), v["nim_sum"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(v["winning_moves_total"], 2, "{v}");
    let err = refused(&["play", "sum", "octal 0.07 5", "rect 3x4 --misere"]);
    assert!(err.contains("expected --misere on the sum"), "{err}");
    let err = refused(&[
        "play",
        "sum",
        "--misere",
        "octal 0.07 5",
        "cycles -g path:3",
    ]);
    assert!(err.contains("misère play is not defined"), "{err}");
}

/// The message of a command refused with status 2.
fn refused(args: &[&str]) -> String {
    let out = grundy(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}
