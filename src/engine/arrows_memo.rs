//! The decomposition solver for edge games on forests (seed 003, Section 4):
//! the marked edges cut a forest into pieces of unmarked edges that are
//! independent games once every vertex remembers what the marks at it
//! allow. G of a state is the xor of its pieces' values, and pieces are
//! remembered under canonical forms, so long-legged spiders and trees of
//! hundreds of edges are solved.
//!
//! A vertex's label says what its marked edges allow: FREE (unconstrained,
//! or it already has an arrow in and an arrow out), NONE (constrained, no
//! arrow yet), IN (constrained, only arrows in), OUT (only arrows out). A
//! piece is a rooted tree held as an interned node (label, sorted child
//! ids): equal ids are isomorphic rooted pieces.

use std::collections::HashMap;

use crate::game::arrows::{ArrowGame, ArrowRule};

pub const FREE: u8 = 0;
pub const NONE: u8 = 1;
pub const IN: u8 = 2;
pub const OUT: u8 = 3;

/// The label of a vertex that gains an arrow pointing away from it.
fn as_tail(label: u8) -> u8 {
    match label {
        NONE => OUT,
        IN => FREE,
        l => l,
    }
}

/// The label of a vertex that gains an arrow pointing at it.
fn as_head(label: u8) -> u8 {
    match label {
        NONE => IN,
        OUT => FREE,
        l => l,
    }
}

/// Values of pieces, remembered across every state it is asked about.
#[derive(Default)]
pub struct ArrowMemo {
    /// Interned nodes: (label, sorted child ids).
    nodes: Vec<(u8, Vec<u32>)>,
    ids: HashMap<(u8, Vec<u32>), u32>,
    /// G of the piece rooted at each node (255: not yet known).
    values: Vec<u8>,
}

impl ArrowMemo {
    pub fn new() -> ArrowMemo {
        ArrowMemo::default()
    }

    /// Distinct rooted pieces met so far.
    pub fn pieces(&self) -> usize {
        self.values.iter().filter(|&&v| v != u8::MAX).count()
    }

    fn node(&mut self, label: u8, mut children: Vec<u32>) -> u32 {
        children.sort_unstable();
        let key = (label, children);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(key.clone());
        self.ids.insert(key, id);
        self.values.push(u8::MAX);
        id
    }

    /// G of a state of a forest game; `Err` when the graph has a cycle.
    pub fn value_of_state(&mut self, game: &ArrowGame, marks: &[u8]) -> Result<u8, String> {
        if game.rule == ArrowRule::Cycles {
            return Err("the decomposition solver plays the Game of Arrows, not Cycles".into());
        }
        let n = game.n;
        let label: Vec<u8> = (0..n)
            .map(|v| {
                let arrows = game.incident[v].iter().filter(|&&e| marks[e] != 0);
                let outs = arrows.clone().filter(|&&e| game.tail(e, marks[e]) == v).count();
                let ins = arrows.count() - outs;
                match (game.constrained[v], ins > 0, outs > 0) {
                    (false, _, _) | (true, true, true) => FREE,
                    (true, false, false) => NONE,
                    (true, true, false) => IN,
                    (true, false, true) => OUT,
                }
            })
            .collect();
        // the forest of unmarked edges
        let mut adj = vec![Vec::new(); n];
        for (e, &(u, v)) in game.edges.iter().enumerate() {
            if marks[e] == 0 {
                adj[u].push(v);
                adj[v].push(u);
            }
        }
        let mut seen = vec![false; n];
        let mut total = 0u8;
        for root in 0..n {
            if seen[root] || adj[root].is_empty() {
                continue;
            }
            let comp = component(&adj, root, &mut seen);
            let edges: usize = comp.iter().map(|&v| adj[v].len()).sum::<usize>() / 2;
            if edges + 1 != comp.len() {
                return Err(
                    "the decomposition solver needs a forest; this graph has a cycle (use --solver dense)"
                        .into(),
                );
            }
            let centre = centre(&adj, &comp);
            let id = self.build(&adj, &label, centre, usize::MAX);
            total ^= self.value(id);
        }
        Ok(total)
    }

    /// Interns the subtree at v away from `parent`.
    fn build(&mut self, adj: &[Vec<usize>], label: &[u8], v: usize, parent: usize) -> u32 {
        let children: Vec<u32> = adj[v]
            .iter()
            .filter(|&&c| c != parent)
            .map(|&c| self.build(adj, label, c, v))
            .collect();
        self.node(label[v], children)
    }

    /// G of the piece rooted at node `id`.
    pub fn value(&mut self, id: u32) -> u8 {
        let known = self.values[id as usize];
        if known != u8::MAX {
            return known;
        }
        let mut seen = [0u64; 4];
        let mut path = Vec::new();
        self.options(id, id, &mut path, &mut seen);
        let g = (0..256u32)
            .find(|&v| seen[(v >> 6) as usize] >> (v & 63) & 1 == 0)
            .expect("fewer than 256 option values") as u8;
        self.values[id as usize] = g;
        g
    }

    /// Marks the values of every move on an edge below node `x`, reached
    /// from `root` by `path` (ancestor node, index of the child taken).
    fn options(&mut self, root: u32, x: u32, path: &mut Vec<(u32, usize)>, seen: &mut [u64; 4]) {
        let (x_label, x_children) = self.nodes[x as usize].clone();
        for (ci, &c) in x_children.iter().enumerate() {
            let (c_label, c_children) = self.nodes[c as usize].clone();
            // x keeps its parent edge (unless it is the root) and its other children
            let x_degree = x_children.len() - 1 + usize::from(!path.is_empty());
            for x_is_tail in [true, false] {
                let (x_new, c_new) = if x_is_tail {
                    (as_tail(x_label), as_head(c_label))
                } else {
                    (as_head(x_label), as_tail(c_label))
                };
                let forbidden = |label: u8, degree: usize, tail: bool| {
                    degree == 0 && label == if tail { OUT } else { IN }
                };
                if forbidden(x_new, x_degree, x_is_tail) || forbidden(c_new, c_children.len(), !x_is_tail) {
                    continue;
                }
                let lower = if c_children.is_empty() {
                    0
                } else {
                    let id = self.node(c_new, c_children.clone());
                    self.value(id)
                };
                let upper = if x_degree == 0 {
                    0
                } else {
                    let mut rest = x_children.clone();
                    rest.remove(ci);
                    let mut id = self.node(x_new, rest);
                    // rebuild the ancestors with the changed child
                    for &(a, ai) in path.iter().rev() {
                        let (a_label, mut a_children) = self.nodes[a as usize].clone();
                        a_children[ai] = id;
                        id = self.node(a_label, a_children);
                    }
                    self.value(id)
                };
                let v = (lower ^ upper) as usize;
                seen[v >> 6] |= 1 << (v & 63);
            }
            path.push((x, ci));
            self.options(root, c, path, seen);
            path.pop();
        }
    }
}

/// The vertices connected to `start`, marking them seen.
fn component(adj: &[Vec<usize>], start: usize, seen: &mut [bool]) -> Vec<usize> {
    let mut comp = vec![start];
    seen[start] = true;
    let mut i = 0;
    while i < comp.len() {
        for &w in &adj[comp[i]] {
            if !seen[w] {
                seen[w] = true;
                comp.push(w);
            }
        }
        i += 1;
    }
    comp
}

/// A centre of the tree `comp` (stripping leaves until one or two remain).
fn centre(adj: &[Vec<usize>], comp: &[usize]) -> usize {
    let mut degree: HashMap<usize, usize> = comp.iter().map(|&v| (v, adj[v].len())).collect();
    let mut layer: Vec<usize> = comp.iter().copied().filter(|v| degree[v] <= 1).collect();
    let mut left = comp.len();
    while left > 2 {
        left -= layer.len();
        let mut next = Vec::new();
        for &v in &layer {
            for &w in &adj[v] {
                let d = degree.get_mut(&w).expect("in the component");
                if *d > 1 {
                    *d -= 1;
                    if *d == 1 {
                        next.push(w);
                    }
                }
            }
        }
        layer = next;
    }
    layer[0]
}
