//! The decomposition solver for edge games on forests (Mathews, The Game of Arrows on 3-legged spider graphs, Section 4):
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

use grundy_core::setting::Setting;
use std::collections::HashMap;

use grundy_core::fast_map::FastMap;

use grundy_core::game::arrows::{ArrowGame, ArrowRule};

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

/// The tag of a chain node: `len` NONE vertices in a line above `below`.
const CHAIN: u8 = 4;
/// A piece's value not computed yet.
const UNKNOWN: u16 = u16::MAX;

/// Values of pieces, remembered across every state it is asked about.
#[derive(Default)]
pub struct ArrowMemo {
    /// Interned nodes: (label, sorted child ids), or (CHAIN, [len, below]).
    nodes: Vec<(u8, Vec<u32>)>,
    ids: FastMap<(u8, Vec<u32>), u32>,
    /// G of the piece rooted at each node (`UNKNOWN`: not yet known).
    values: Vec<u16>,
}

impl ArrowMemo {
    pub fn new() -> ArrowMemo {
        ArrowMemo::default()
    }

    /// Distinct rooted pieces valued so far.
    pub fn pieces(&self) -> usize {
        self.values.iter().filter(|&&v| v != UNKNOWN).count()
    }

    fn intern(&mut self, key: (u8, Vec<u32>)) -> u32 {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(key.clone());
        self.ids.insert(key, id);
        self.values.push(UNKNOWN);
        id
    }

    /// The node of a vertex with this label and these subtrees below it. A
    /// NONE vertex with one child starts a chain: chains of such vertices are
    /// held as one node, so moves along a long leg cost O(1) to rebuild.
    fn node(&mut self, label: u8, mut children: Vec<u32>) -> u32 {
        if label == NONE && children.len() == 1 {
            return self.chain(1, children[0]);
        }
        children.sort_unstable();
        self.intern((label, children))
    }

    /// `len` NONE vertices in a line above `below` (merged with a chain below).
    fn chain(&mut self, len: u32, below: u32) -> u32 {
        if len == 0 {
            return below;
        }
        let (tag, ref body) = self.nodes[below as usize];
        if tag == CHAIN {
            let (k, b) = (body[0], body[1]);
            return self.intern((CHAIN, vec![len + k, b]));
        }
        self.intern((CHAIN, vec![len, below]))
    }

    /// The label and subtrees of a node's top vertex.
    fn top(&mut self, id: u32) -> (u8, Vec<u32>) {
        let (tag, body) = self.nodes[id as usize].clone();
        if tag == CHAIN {
            let rest = self.chain(body[0] - 1, body[1]);
            (NONE, vec![rest])
        } else {
            (tag, body)
        }
    }

    /// G of a state of a forest game; `Err` when the graph has a cycle.
    pub fn value_of_state(&mut self, game: &ArrowGame, marks: &[u8]) -> Result<u16, String> {
        if game.rule == ArrowRule::Cycles {
            return Err("the decomposition solver plays the Game of Arrows, not Cycles".into());
        }
        let n = game.n;
        let label: Vec<u8> = (0..n)
            .map(|v| {
                let arrows = game.incident[v].iter().filter(|&&e| marks[e] != 0);
                let outs = arrows
                    .clone()
                    .filter(|&&e| game.tail(e, marks[e]) == v)
                    .count();
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
        let mut total = 0u16;
        for root in 0..n {
            if seen[root] || adj[root].is_empty() {
                continue;
            }
            let comp = component(&adj, root, &mut seen);
            let edges: usize = comp.iter().map(|&v| adj[v].len()).sum::<usize>() / 2;
            if edges + 1 != comp.len() {
                return Err(format!(
                    "the decomposition solver needs a forest; this graph has a cycle (use {})",
                    Setting::Solver.is("dense")
                ));
            }
            let centre = centre(&adj, &comp);
            let id = self.build(&adj, &label, centre, usize::MAX);
            total ^= self.value(id);
        }
        Ok(total)
    }

    /// Interns the subtree at v away from `parent` (iteratively: legs may be
    /// hundreds of edges long).
    fn build(&mut self, adj: &[Vec<usize>], label: &[u8], root: usize, parent: usize) -> u32 {
        // post-order over (vertex, parent)
        let mut order = vec![(root, parent)];
        let mut i = 0;
        while i < order.len() {
            let (v, p) = order[i];
            order.extend(adj[v].iter().filter(|&&c| c != p).map(|&c| (c, v)));
            i += 1;
        }
        let mut id = vec![u32::MAX; adj.len()];
        for &(v, p) in order.iter().rev() {
            let children = adj[v].iter().filter(|&&c| c != p).map(|&c| id[c]).collect();
            id[v] = self.node(label[v], children);
        }
        id[root]
    }

    /// G of the piece rooted at node `id`.
    pub fn value(&mut self, id: u32) -> u16 {
        let known = self.values[id as usize];
        if known != UNKNOWN {
            return known;
        }
        let mut seen = vec![0u64; 4];
        let mut path = Vec::new();
        self.options(id, &mut path, &mut seen);
        // The mex: the first word with a zero bit. Values stay below
        // UNKNOWN: a piece has far fewer than 65535 options.
        let word = seen
            .iter()
            .position(|&w| w != u64::MAX)
            .unwrap_or(seen.len());
        let low = seen.get(word).map_or(0, |w| w.trailing_ones());
        let g = (64 * word as u32 + low).min(UNKNOWN as u32 - 1) as u16;
        self.values[id as usize] = g;
        g
    }

    /// The root of the piece after node `path`'s last ancestor has its
    /// child (or chain below) replaced by `id`, rebuilt up to the top.
    fn rebuild(&mut self, path: &[(u32, usize)], mut id: u32) -> u32 {
        for &(a, ai) in path.iter().rev() {
            let (tag, mut body) = self.nodes[a as usize].clone();
            id = if tag == CHAIN {
                self.chain(body[0], id)
            } else {
                body[ai] = id;
                self.node(tag, body)
            };
        }
        id
    }

    /// G of the piece the rest of the tree makes when the subtree at
    /// `path`'s end is replaced by `id` (0 when nothing is left).
    fn value_above(&mut self, path: &[(u32, usize)], id: Option<u32>) -> u16 {
        match id {
            None => 0,
            Some(id) => {
                let root = self.rebuild(path, id);
                self.value(root)
            }
        }
    }

    /// Marks the values of every move on an edge below node `x`, reached
    /// from the piece's root by `path` (ancestor node, index of the child taken).
    fn options(&mut self, x: u32, path: &mut Vec<(u32, usize)>, seen: &mut Vec<u64>) {
        let (tag, body) = self.nodes[x as usize].clone();
        if tag == CHAIN {
            // the edges inside the chain v1 - ... - v_len - below
            let (len, below) = (body[0], body[1]);
            for i in 1..=len {
                let above_i = i > 1 || !path.is_empty();
                let (w_label, w_children) = if i < len {
                    let rest = self.chain(len - i - 1, below);
                    (NONE, vec![rest])
                } else {
                    self.top(below)
                };
                for v_is_tail in [true, false] {
                    let (v_new, w_new) = if v_is_tail {
                        (as_tail(NONE), as_head(w_label))
                    } else {
                        (as_head(NONE), as_tail(w_label))
                    };
                    if forbidden(v_new, usize::from(above_i), v_is_tail)
                        || forbidden(w_new, w_children.len(), !v_is_tail)
                    {
                        continue;
                    }
                    let lower = self.value_below(w_new, w_children.clone());
                    let upper = if above_i {
                        let cut = self.node(v_new, Vec::new());
                        let truncated = self.chain(i - 1, cut);
                        self.value_above(path, Some(truncated))
                    } else {
                        0
                    };
                    mark(seen, lower ^ upper);
                }
            }
            path.push((x, 0));
            self.options(below, path, seen);
            path.pop();
            return;
        }
        let (x_label, x_children) = (tag, body);
        for (ci, &c) in x_children.iter().enumerate() {
            let (c_label, c_children) = self.top(c);
            // x keeps its parent edge (unless it is the root) and its other children
            let x_degree = x_children.len() - 1 + usize::from(!path.is_empty());
            for x_is_tail in [true, false] {
                let (x_new, c_new) = if x_is_tail {
                    (as_tail(x_label), as_head(c_label))
                } else {
                    (as_head(x_label), as_tail(c_label))
                };
                if forbidden(x_new, x_degree, x_is_tail)
                    || forbidden(c_new, c_children.len(), !x_is_tail)
                {
                    continue;
                }
                let lower = self.value_below(c_new, c_children.clone());
                let upper = if x_degree == 0 {
                    0
                } else {
                    let mut rest = x_children.clone();
                    rest.remove(ci);
                    let id = self.node(x_new, rest);
                    self.value_above(path, Some(id))
                };
                mark(seen, lower ^ upper);
            }
            path.push((x, ci));
            self.options(c, path, seen);
            path.pop();
        }
    }

    /// G of the subtree a move cuts off below an edge (0 when it is one vertex).
    fn value_below(&mut self, label: u8, children: Vec<u32>) -> u16 {
        if children.is_empty() {
            return 0;
        }
        let id = self.node(label, children);
        self.value(id)
    }
}

/// A vertex left with no unmarked edge must not be a constrained source
/// (as the tail) or sink (as the head).
fn forbidden(label: u8, degree: usize, tail: bool) -> bool {
    degree == 0 && label == if tail { OUT } else { IN }
}

fn mark(seen: &mut Vec<u64>, v: u16) {
    let word = (v >> 6) as usize;
    if word >= seen.len() {
        seen.resize(word + 1, 0);
    }
    seen[word] |= 1 << (v & 63);
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
