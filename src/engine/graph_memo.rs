//! The memo solver, for graphs too large for a dense table: the value of a
//! position is the xor of its connected components', and each component's
//! value is remembered under a canonical form, so isomorphic pieces are
//! solved once (rooted-tree codes for trees, the eight symmetries of the
//! square for grid pieces, the induced adjacency otherwise). One memo may
//! serve many graphs: the pode and bipode tables share theirs.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::graph_dense::for_each_option;
use crate::error::{Error, Result};
use crate::game::graph::bits;
use crate::game::{Graph, GraphCode};

/// A connected piece up to isomorphism (or up to grid symmetry).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// AHU code of the tree: 1, the children's codes in order, 0.
    Tree(u128),
    /// A grid piece in its bounding box, least of its eight images.
    Shape { h: u8, w: u8, cells: u64 },
    /// Any other piece: the adjacency of its vertices renumbered in order.
    Labelled(Vec<u64>),
}

/// A hasher for vertex masks and keys: a multiply and a rotate per word,
/// where the default SipHash would cost more than the lookup it serves.
#[derive(Default)]
pub struct MaskHasher(u64);

impl Hasher for MaskHasher {
    fn finish(&self) -> u64 {
        // a product's low bits see only the inputs' low bits: fold the high
        // half in, as hash tables index by the low bits
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// A hash map with a fast multiplicative hasher (keys are not adversarial).
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<MaskHasher>>;

/// One evaluated piece, as `--out` writes it.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub mask: u64,
    pub size: u32,
    pub g: u8,
}

pub struct MemoSolver {
    code: GraphCode,
    memo: FastMap<Key, u8>,
    /// Pieces evaluated, in order, with the mask they had when first met.
    pub records: Vec<Record>,
    /// Keep `records` (the `graph --out` table).
    pub keep_records: bool,
}

impl MemoSolver {
    pub fn new(code: &GraphCode) -> MemoSolver {
        MemoSolver {
            code: code.clone(),
            memo: FastMap::default(),
            records: Vec::new(),
            keep_records: false,
        }
    }

    /// Distinct pieces evaluated so far.
    pub fn positions(&self) -> u64 {
        self.memo.len() as u64
    }

    /// G of the position `mask` of `graph`.
    pub fn value(&mut self, graph: &Graph, mask: u64) -> Result<u8> {
        let mut local = FastMap::default();
        self.position(graph, mask, &mut local)
    }

    fn position(&mut self, graph: &Graph, mask: u64, local: &mut FastMap<u64, u8>) -> Result<u8> {
        let mut v = 0;
        for comp in graph.iter_components(mask) {
            v ^= self.piece(graph, comp, local)?;
        }
        Ok(v)
    }

    /// G of a connected piece: the mex over its options.
    fn piece(&mut self, graph: &Graph, comp: u64, local: &mut FastMap<u64, u8>) -> Result<u8> {
        if let Some(&v) = local.get(&comp) {
            return Ok(v);
        }
        let key = canonical_key(graph, comp);
        if let Some(&v) = self.memo.get(&key) {
            local.insert(comp, v);
            return Ok(v);
        }
        // `comp` is one piece, so its options are the position's options.
        let mut options = Vec::new();
        for_each_option(graph, &self.code, comp, |rest| options.push(rest));
        let mut seen = [0u64; 5];
        for rest in options {
            let g = self.position(graph, rest, local)? as usize;
            seen[g >> 6] |= 1 << (g & 63);
        }
        let g = (0..320)
            .find(|&v| seen[v >> 6] >> (v & 63) & 1 == 0)
            .unwrap_or(320);
        if g > 255 {
            return Err(Error::Run(format!(
                "the piece {comp:#x} has a value above 255, the most grundy's graph tables hold"
            )));
        }
        let g = g as u8;
        self.memo.insert(key, g);
        local.insert(comp, g);
        if self.keep_records {
            self.records.push(Record {
                mask: comp,
                size: comp.count_ones(),
                g,
            });
        }
        Ok(g)
    }
}

/// The canonical key of the connected piece `comp` of `graph`.
pub fn canonical_key(graph: &Graph, comp: u64) -> Key {
    let vertices = comp.count_ones();
    if graph.edges_within(comp) + 1 == vertices {
        return Key::Tree(tree_code(graph, comp));
    }
    if let Some((_, cols)) = graph.grid {
        return grid_shape(comp, cols);
    }
    Key::Labelled(graph.induced(comp).adj)
}

/// The AHU code of the tree `comp`, rooted at its centre (the smaller code
/// of the two rootings when it has two centres).
pub fn tree_code(graph: &Graph, comp: u64) -> u128 {
    let mut core = comp;
    while core.count_ones() > 2 {
        let leaves = bits(core)
            .filter(|&v| (graph.adj[v] & core).count_ones() <= 1)
            .fold(0u64, |acc, v| acc | 1 << v);
        core &= !leaves;
    }
    bits(core)
        .map(|c| rooted_code(graph, comp, c, usize::MAX).0)
        .min()
        .expect("a tree has a centre")
}

/// (code, length in bits) of the subtree of `comp` at `v` away from `parent`.
fn rooted_code(graph: &Graph, comp: u64, v: usize, parent: usize) -> (u128, u32) {
    let mut children: Vec<(u128, u32)> = bits(graph.adj[v] & comp)
        .filter(|&c| c != parent)
        .map(|c| rooted_code(graph, comp, c, v))
        .collect();
    children.sort_unstable_by_key(|&(code, len)| (len, code));
    let mut code: u128 = 1;
    let mut len = 1;
    for (c, l) in children {
        code = code << l | c;
        len += l;
    }
    (code << 1, len + 1)
}

/// The least of the eight images of a grid piece, in its bounding box.
fn grid_shape(comp: u64, cols: usize) -> Key {
    let cells: Vec<(usize, usize)> = bits(comp).map(|v| (v / cols, v % cols)).collect();
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let h = cells.iter().map(|c| c.0).max().unwrap_or(0) - r0 + 1;
    let w = cells.iter().map(|c| c.1).max().unwrap_or(0) - c0 + 1;
    let mut best: Option<(u8, u8, u64)> = None;
    for t in 0..8 {
        let (th, tw) = if t & 4 == 0 { (h, w) } else { (w, h) };
        let mut bitsout = 0u64;
        for &(r, c) in &cells {
            let (mut y, mut x) = (r - r0, c - c0);
            if t & 1 == 1 {
                y = h - 1 - y;
            }
            if t & 2 == 2 {
                x = w - 1 - x;
            }
            if t & 4 == 4 {
                std::mem::swap(&mut y, &mut x);
            }
            bitsout |= 1 << (y * tw + x);
        }
        let cand = (th as u8, tw as u8, bitsout);
        if best.is_none_or(|b| cand < b) {
            best = Some(cand);
        }
    }
    let (h, w, cells) = best.expect("eight images");
    Key::Shape { h, w, cells }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::graph;

    #[test]
    fn isomorphic_trees_share_a_code() {
        // The same spider written two ways, and a different tree of the same size.
        let a = graph::pode(&[1, 2, 3]);
        let b = graph::pode(&[3, 1, 2]);
        let c = graph::pode(&[2, 2, 2]);
        assert_eq!(tree_code(&a, a.all()), tree_code(&b, b.all()));
        assert_ne!(tree_code(&a, a.all()), tree_code(&c, c.all()));
        // A path with two centres, rooted either way, and reversed.
        let p = graph::path(6);
        assert_eq!(tree_code(&p, 0b111110), tree_code(&p, 0b011111));
    }

    #[test]
    fn grid_pieces_match_under_symmetry() {
        let g = graph::grid(4, 4);
        // An L tromino in two corners, mirrored and rotated.
        let l1 = 1 | 1 << 4 | 1 << 5;
        let l2 = 1 << 15 | 1 << 11 | 1 << 10;
        assert_eq!(grid_shape(l1, 4), grid_shape(l2, 4));
        // A 2x2 square is not an L.
        assert_ne!(grid_shape(l1, 4), grid_shape(l1 | 1 << 1, 4));
        let _ = canonical_key(&g, l1);
    }
}
