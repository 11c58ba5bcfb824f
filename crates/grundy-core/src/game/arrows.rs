//! Edge games of Mathews, The Game of Arrows on 3-legged spider graphs: the Game of Arrows (mark an unmarked edge with
//! an arrow, never making a sink or a source at a constrained vertex), its
//! trimmed form (leaves unconstrained), and Francis Su's Game of Cycles
//! (the Game of Arrows on a plane graph where completing a cycle cell wins
//! at once).
//!
//! A state gives each edge (u, v), u < v, a mark: 0 unmarked, 1 u->v, 2 v->u.

use std::path::Path;

use super::convention::Convention;
use super::graph::{Graph, bits};
use crate::error::Error;
use crate::setting::Setting;
use crate::setting::Setting::{Faces, State};

/// Which edge game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArrowRule {
    /// No sink or source anywhere (a leaf edge is never marked).
    Arrows,
    /// Sinks and sources allowed at leaves (Mathews, The Game of Arrows on 3-legged spider graphs, Section 3).
    Trimmed,
    /// The Game of Arrows plus cycle cells: completing one wins at once.
    Cycles,
}

/// A bounded face: its edges with the mark that runs round it one way.
pub type Face = Vec<(usize, u8)>;

/// A graph with its edges numbered, as the edge games see it.
#[derive(Clone, Debug)]
pub struct ArrowGame {
    pub rule: ArrowRule,
    pub n: usize,
    /// Edge e joins `edges[e].0 < edges[e].1`; edges sorted.
    pub edges: Vec<(usize, usize)>,
    /// The edges at each vertex.
    pub incident: Vec<Vec<usize>>,
    /// Vertices that may not become a sink or a source.
    pub constrained: Vec<bool>,
    pub faces: Vec<Face>,
    /// Normal play, or misère play (`under`): the last player to mark loses.
    pub convention: Convention,
}

impl ArrowGame {
    /// The same game under `convention`. The Game of Cycles has no misère
    /// form: completing a cycle cell wins outright, whoever moves last.
    pub fn under(mut self, convention: Convention) -> Result<ArrowGame, String> {
        if convention == Convention::Misere && self.rule == ArrowRule::Cycles {
            return Err(format!(
                "{} with the Game of Cycles: a move that completes a cycle cell wins at once, \
                 so the game has no misère form; expected normal play",
                Setting::Misere.named()
            ));
        }
        self.convention = convention;
        Ok(self)
    }

    /// The game on `graph` (faces only for the Game of Cycles).
    pub fn new(graph: &Graph, rule: ArrowRule, faces: Vec<Face>) -> ArrowGame {
        let n = graph.n();
        let mut edges = Vec::new();
        for u in 0..n {
            for v in bits(graph.adj[u]) {
                if u < v {
                    edges.push((u, v));
                }
            }
        }
        Self::from_edges(n, edges, rule, faces)
    }

    /// The game on vertices `0..n` with these edges (u < v, no repeats).
    pub fn from_edges(
        n: usize,
        mut edges: Vec<(usize, usize)>,
        rule: ArrowRule,
        faces: Vec<Face>,
    ) -> ArrowGame {
        edges.sort_unstable();
        let mut incident = vec![Vec::new(); n];
        for (e, &(u, v)) in edges.iter().enumerate() {
            incident[u].push(e);
            incident[v].push(e);
        }
        let constrained = incident
            .iter()
            .map(|inc| rule != ArrowRule::Trimmed || inc.len() >= 2)
            .collect();
        ArrowGame {
            convention: Convention::Normal,
            rule,
            n,
            edges,
            incident,
            constrained,
            faces,
        }
    }

    /// Whether the graph is a forest: every edge joins two trees.
    pub fn is_forest(&self) -> bool {
        let mut parent: Vec<usize> = (0..self.n).collect();
        fn find(p: &mut [usize], mut x: usize) -> usize {
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        self.edges.iter().all(|&(u, v)| {
            let (a, b) = (find(&mut parent, u), find(&mut parent, v));
            parent[a] = b;
            a != b
        })
    }

    pub fn edge_index(&self, u: usize, v: usize) -> Option<usize> {
        self.edges.binary_search(&(u.min(v), u.max(v))).ok()
    }

    /// The mark that points from `tail` to `head` on edge e.
    pub fn mark_from(&self, e: usize, tail: usize) -> u8 {
        if self.edges[e].0 == tail { 1 } else { 2 }
    }

    /// The vertex an arrow with this mark on e points away from.
    pub fn tail(&self, e: usize, mark: u8) -> usize {
        if mark == 1 {
            self.edges[e].0
        } else {
            self.edges[e].1
        }
    }

    /// Whether `v` is a sink or a source of `marks` (every edge marked, all one way).
    pub fn is_sink_or_source(&self, marks: &[u8], v: usize) -> bool {
        let inc = &self.incident[v];
        if inc.is_empty() || inc.iter().any(|&e| marks[e] == 0) {
            return false;
        }
        let out = inc.iter().filter(|&&e| self.tail(e, marks[e]) == v).count();
        out == 0 || out == inc.len()
    }

    /// Whether `marks` is a state: no sink or source at a constrained vertex.
    pub fn is_state(&self, marks: &[u8]) -> bool {
        (0..self.n).all(|v| !self.constrained[v] || !self.is_sink_or_source(marks, v))
    }

    /// Whether `marks` completes a cycle cell.
    pub fn has_cycle_cell(&self, marks: &[u8]) -> bool {
        self.faces.iter().any(|f| {
            f.iter().all(|&(e, m)| marks[e] == m) || f.iter().all(|&(e, m)| marks[e] == 3 - m)
        })
    }

    /// `u>v,w>x,...` (arrows u->v): the state it names, or what is wrong.
    pub fn parse_state(&self, text: &str) -> Result<Vec<u8>, String> {
        let mut marks = vec![0u8; self.edges.len()];
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = |why: &str| format!("bad {} arrow '{part}': {why}", State.named());
            let (a, b) = part
                .split_once('>')
                .ok_or_else(|| bad("expected u>v (an arrow from vertex u to vertex v)"))?;
            let vertex = |t: &str| {
                t.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&x| x < self.n)
                    .ok_or_else(|| {
                        bad(&format!(
                            "'{}' is not a vertex; expected one of 0..{}",
                            t.trim(),
                            self.n - 1
                        ))
                    })
            };
            let (u, v) = (vertex(a)?, vertex(b)?);
            let e = self.edge_index(u, v).ok_or_else(|| {
                bad(&format!(
                    "{u} and {v} are not joined by an edge; expected the ends of an edge"
                ))
            })?;
            if marks[e] != 0 {
                return Err(bad("that edge is already marked; expected each edge once"));
            }
            marks[e] = self.mark_from(e, u);
        }
        for v in 0..self.n {
            if self.constrained[v] && self.is_sink_or_source(&marks, v) {
                return Err(format!(
                    "{} makes vertex {v} a sink or a source; expected a state of the game",
                    State.is(format!("'{text}'"))
                ));
            }
        }
        if self.has_cycle_cell(&marks) {
            return Err(format!(
                "{} already completes a cycle cell: the game is over; expected a state with no \
                 cycle cell",
                State.is(format!("'{text}'"))
            ));
        }
        Ok(marks)
    }

    /// `u>v` for every marked edge, the form `--state` reads.
    pub fn describe_state(&self, marks: &[u8]) -> String {
        let arrows: Vec<String> = (0..self.edges.len())
            .filter(|&e| marks[e] != 0)
            .map(|e| {
                let (u, v) = self.edges[e];
                if marks[e] == 1 {
                    format!("{u}>{v}")
                } else {
                    format!("{v}>{u}")
                }
            })
            .collect();
        arrows.join(",")
    }

    /// The game with these bounded faces, each a cycle of vertices in
    /// order round it.
    pub fn with_faces(mut self, cycles: &[Vec<usize>]) -> Result<ArrowGame, String> {
        self.faces = cycles
            .iter()
            .map(|c| self.face_of(c))
            .collect::<Result<_, _>>()?;
        Ok(self)
    }

    /// The faces of a cycle given as its vertices in order round it.
    pub fn face_of(&self, cycle: &[usize]) -> Result<Face, String> {
        if cycle.len() < 3 {
            return Err(format!(
                "a face needs at least 3 vertices, got {}",
                cycle.len()
            ));
        }
        (0..cycle.len())
            .map(|i| {
                let (a, b) = (cycle[i], cycle[(i + 1) % cycle.len()]);
                let e = self
                    .edge_index(a, b)
                    .ok_or_else(|| format!("{a} and {b} are not joined by an edge"))?;
                Ok((e, self.mark_from(e, a)))
            })
            .collect()
    }
}

/// The bounded faces the families with a standard drawing have: the cycle
/// itself, the unit squares of a grid, the triangles of a wheel.
pub fn standard_faces(graph: &Graph, spec: &str) -> Option<Vec<Vec<usize>>> {
    let (family, rest) = spec.split_once(':')?;
    match family {
        "cycle" => Some(vec![(0..graph.n()).collect()]),
        "wheel" => {
            let n = graph.n() - 1;
            Some((1..=n).map(|i| vec![0, i, i % n + 1]).collect())
        }
        "grid" => {
            let (rows, cols) = graph.grid?;
            let _ = rest;
            let mut faces = Vec::new();
            for r in 0..rows.saturating_sub(1) {
                for c in 0..cols.saturating_sub(1) {
                    let v = r * cols + c;
                    faces.push(vec![v, v + 1, v + cols + 1, v + cols]);
                }
            }
            Some(faces)
        }
        _ => None,
    }
}

/// Faces from a file: one cycle of vertices per line (spaces or commas), `#` comments.
pub fn parse_faces(text: &str) -> Result<Vec<Vec<usize>>, String> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| {
            l.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.parse::<usize>().map_err(|_| {
                        format!("line {}: '{t}' is not a vertex number; expected one cycle of vertices per line", i + 1)
                    })
                })
                .collect()
        })
        .collect()
}

/// The trimming T(G) of Mathews, The Game of Arrows on 3-legged spider graphs, Definition 3.3: drop the leaves, then
/// split the graph apart at every vertex that was next to a leaf (each edge
/// {a, x} at such a vertex a gets its own copy a_x). Returns the trimmed
/// graph's vertex count and edges; its edges correspond one to one to the
/// edges of G between internal vertices.
pub fn trim(graph: &Graph) -> (usize, Vec<(usize, usize)>) {
    let n = graph.n();
    let degree = |v: usize| graph.adj[v].count_ones();
    let internal: Vec<bool> = (0..n).map(|v| degree(v) >= 2).collect();
    let next_to_leaf: Vec<bool> = (0..n)
        .map(|v| internal[v] && bits(graph.adj[v]).any(|x| degree(x) == 1))
        .collect();
    // vertices of T(G): internal vertices not next to a leaf keep one copy;
    // a vertex next to a leaf gets one copy per internal neighbour
    let mut id = vec![usize::MAX; n];
    let mut count = 0;
    for v in 0..n {
        if internal[v] && !next_to_leaf[v] {
            id[v] = count;
            count += 1;
        }
    }
    let mut copy = std::collections::HashMap::new();
    let mut end = |a: usize, x: usize, count: &mut usize| -> usize {
        if next_to_leaf[a] {
            *copy.entry((a, x)).or_insert_with(|| {
                *count += 1;
                *count - 1
            })
        } else {
            id[a]
        }
    };
    let mut edges = Vec::new();
    for a in 0..n {
        for x in bits(graph.adj[a]) {
            if a < x && internal[a] && internal[x] {
                let (p, q) = (end(a, x, &mut count), end(x, a, &mut count));
                edges.push((p.min(q), p.max(q)));
            }
        }
    }
    (count, edges)
}

/// The spider with these leg lengths (in edges), hub 0, of any size (the
/// graph specs stop at 64 vertices; tables of spiders go further).
pub fn spider(legs: &[usize], rule: ArrowRule) -> ArrowGame {
    let mut edges = Vec::new();
    let mut n = 1;
    for &len in legs {
        let mut prev = 0;
        for _ in 0..len {
            edges.push((prev, n));
            prev = n;
            n += 1;
        }
    }
    ArrowGame::from_edges(n, edges, rule, Vec::new())
}

/// The Game of Cycles on the graph `spec`, with the faces of `faces` (a
/// file) or the standard drawing's.
pub fn cycles_game(spec: &str, faces: Option<&Path>) -> crate::error::Result<ArrowGame> {
    let graph = Graph::parse(spec).map_err(Error::Input)?;
    let cycles = match faces {
        Some(path) => {
            let text = crate::input::read_text(path, 1 << 20)
                .map_err(|e| Error::Input(format!("{}: {e}", Faces.is(path.display()))))?;
            parse_faces(&text)
                .map_err(|e| Error::Input(format!("bad faces file {}: {e}", path.display())))?
        }
        None => standard_faces(&graph, spec).unwrap_or_default(),
    };
    ArrowGame::new(&graph, ArrowRule::Cycles, Vec::new())
        .with_faces(&cycles)
        .map_err(|e| Error::Input(format!("bad face: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimming_a_spider_shortens_each_leg() {
        // S(2, 3, 4): 9 edges; T has legs 1, 2, 3 (6 edges), a tree
        let g = crate::game::graph::pode(&[2, 3, 4]);
        let (n, edges) = trim(&g);
        assert_eq!((n, edges.len()), (7, 6));
        // a star (all leaves) trims to nothing
        let (n, edges) = trim(&crate::game::graph::pode(&[1, 1, 1]));
        assert_eq!((n, edges.len()), (0, 0));
        // a path of 5 edges trims to a path of 3 edges
        let (n, edges) = trim(&crate::game::graph::path(6));
        assert_eq!((n, edges.len()), (4, 3));
    }

    #[test]
    fn states_forbid_constrained_sinks_and_sources() {
        let g = crate::game::graph::path(3); // 0 - 1 - 2
        let arrows = ArrowGame::new(&g, ArrowRule::Arrows, Vec::new());
        assert!(
            arrows
                .parse_state("0>1")
                .unwrap_err()
                .contains("sink or a source")
        );
        let trimmed = ArrowGame::new(&g, ArrowRule::Trimmed, Vec::new());
        assert_eq!(trimmed.parse_state("0>1").unwrap(), vec![1, 0]);
        assert!(
            trimmed
                .parse_state("0>1,2>1")
                .unwrap_err()
                .contains("vertex 1")
        );
        assert_eq!(trimmed.parse_state("0>1, 1>2").unwrap(), vec![1, 1]);
        assert!(
            trimmed
                .parse_state("0>2")
                .unwrap_err()
                .contains("not joined")
        );
        assert!(trimmed.parse_state("0-1").unwrap_err().contains("u>v"));
        assert_eq!(trimmed.describe_state(&[1, 2]), "0>1,2>1");
    }

    #[test]
    fn a_cycle_cell_runs_one_way_round() {
        let g = Graph::parse("cycle:3").unwrap();
        let faces = standard_faces(&g, "cycle:3").unwrap();
        let mut game = ArrowGame::new(&g, ArrowRule::Cycles, Vec::new());
        game.faces = faces.iter().map(|f| game.face_of(f).unwrap()).collect();
        let round = game.parse_state("0>1,1>2").unwrap();
        assert!(!game.has_cycle_cell(&round));
        let mut full = round.clone();
        full[game.edge_index(2, 0).unwrap()] = game.mark_from(game.edge_index(2, 0).unwrap(), 2);
        assert!(game.has_cycle_cell(&full));
        assert_eq!(
            parse_faces("0 1 2 # the triangle\n\n1,2,3\n").unwrap(),
            vec![vec![0, 1, 2], vec![1, 2, 3]]
        );
        assert!(parse_faces("0 x 2").unwrap_err().contains("line 1"));
    }
}
