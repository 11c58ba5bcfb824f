//! CPU twin of `shaders/graph_level.wgsl`: the value of every position of
//! one level (subsets of `k` vertices, by colex rank) of a graph octal game.
//!
//! A disconnected position is its first component's value xor the rest's
//! (both in earlier levels). A connected one is the mex of the positions left
//! by removing a connected set of `i` vertices, when digit `i` allows the
//! number of pieces left. Connected sets are enumerated once each by
//! Wernicke's ESU with an explicit stack.
//!
//! Table bytes: the value in bits 0-6, bit 7 set when the position is
//! connected, so a move leaving one piece is recognised by one lookup.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use crate::engine::graph_kernel::{CONNECTED, GraphKernel, MAX_VALUE, OVERFLOW, VALUE_BITS};
use crate::game::graph::bits;

/// A value above `MAX_VALUE` appeared at this position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    pub mask: u64,
}

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the position {:#x} has a value above {MAX_VALUE}, the most the dense table holds; \
             use --solver memo (values up to 255)",
            self.mask
        )
    }
}

fn table_get(table: &[AtomicU8], mask: u64) -> u32 {
    table[mask as usize].load(Ordering::Relaxed) as u32
}

fn neighbours(kern: &GraphKernel, vertices: u64, within: u64) -> u64 {
    let mut acc = 0u64;
    let mut s = vertices;
    while s != 0 {
        acc |= kern.adj[s.trailing_zeros() as usize];
        s &= s - 1;
    }
    acc & within
}

/// The component of `mask` holding the lowest vertex of `start`.
fn component(kern: &GraphKernel, mask: u64, start: u64) -> u64 {
    let mut comp = start & start.wrapping_neg();
    let mut frontier = comp;
    while frontier != 0 {
        let grown = neighbours(kern, frontier, mask) & !comp;
        comp |= grown;
        frontier = grown;
    }
    comp
}

/// Components of `rest`, counted up to 3 (no digit allows more than 2).
fn count_pieces(kern: &GraphKernel, rest: u64) -> u32 {
    let mut left = rest;
    let mut pieces = 0;
    while left != 0 && pieces < 3 {
        left &= !component(kern, left, left);
        pieces += 1;
    }
    pieces
}

/// Marks in `seen` the value left by removing `chosen` from the connected
/// position `mask`, when the digit allows the number of pieces left;
/// `entry` is the table byte of what is left.
fn play_move(kern: &GraphKernel, rest: u64, entry: u32, digit: u32, seen: &mut [u32; 4]) {
    let mut pieces = 3;
    if rest == 0 {
        pieces = 0;
    } else if entry & CONNECTED != 0 {
        pieces = 1;
    } else if digit & 4 != 0 {
        pieces = count_pieces(kern, rest);
    }
    if pieces < 3 && (digit >> pieces) & 1 == 1 {
        let g = entry & VALUE_BITS;
        seen[(g >> 5) as usize] |= 1 << (g & 31);
    }
}

/// Moves per run of `Moves`.
const MOVES_RUN: usize = 32;

/// Moves waiting for their table bytes. The table is far larger than the
/// caches and each load a likely miss: read in a run, with no branch
/// between them, the loads overlap (a GPU hides the same latency with
/// other threads, so the shader plays each move at once).
struct Moves {
    rest: [u64; MOVES_RUN],
    digit: [u32; MOVES_RUN],
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            rest: [0; MOVES_RUN],
            digit: [0; MOVES_RUN],
            len: 0,
        }
    }

    fn push(
        &mut self,
        kern: &GraphKernel,
        table: &[AtomicU8],
        rest: u64,
        digit: u32,
        seen: &mut [u32; 4],
    ) {
        self.rest[self.len] = rest;
        self.digit[self.len] = digit;
        self.len += 1;
        if self.len == MOVES_RUN {
            self.play(kern, table, seen);
        }
    }

    /// Plays every waiting move.
    fn play(&mut self, kern: &GraphKernel, table: &[AtomicU8], seen: &mut [u32; 4]) {
        let mut entries = [0u32; MOVES_RUN];
        for (e, &rest) in entries.iter_mut().zip(&self.rest[..self.len]) {
            *e = table_get(table, rest);
        }
        let waiting = self
            .rest
            .iter()
            .zip(&entries)
            .zip(&self.digit)
            .take(self.len);
        for ((&rest, &entry), &digit) in waiting {
            if digit & 4 != 0 {
                play_move(kern, rest, entry, digit, seen);
                continue;
            }
            // Without a split, play_move's test without its branches: the
            // piece count is 0 (nothing left) or 1 (connected), and whether
            // a removal disconnects is too random to predict.
            let pieces_bit = (rest == 0) as u32 | ((entry & CONNECTED != 0) as u32) << 1;
            let allowed = (digit & pieces_bit != 0) as u32;
            let g = entry & VALUE_BITS;
            seen[(g >> 5) as usize] |= allowed << (g & 31);
        }
        self.len = 0;
    }
}

/// Marks in `seen` the values of the positions left by removing a connected
/// set of `size` vertices from the connected position `mask`.
fn mark_options(
    kern: &GraphKernel,
    table: &[AtomicU8],
    mask: u64,
    size: usize,
    seen: &mut [u32; 4],
    moves: &mut Moves,
) {
    let digit = kern.digits[size] as u32;
    for_each_connected_set(&kern.adj, mask, size, |chosen| {
        moves.push(kern, table, mask & !chosen, digit, seen)
    });
}

fn mex(seen: &[u32; 4]) -> u32 {
    for (i, &w) in seen.iter().enumerate() {
        if w != u32::MAX {
            return 32 * i as u32 + (!w).trailing_zeros();
        }
    }
    128
}

/// The table byte of one position, all of whose options are in the table:
/// its value, with `CONNECTED` set when it is one piece (`OVERFLOW` when
/// the value is above `MAX_VALUE`).
pub fn position_value(kern: &GraphKernel, table: &[AtomicU8], mask: u64) -> u32 {
    let first = component(kern, mask, mask);
    if first != mask {
        let v = table_get(table, first) ^ table_get(table, mask & !first);
        return v & VALUE_BITS;
    }
    connected_value(kern, table, mask)
}

/// The table byte of a connected position: the mex over its moves.
pub fn connected_value(kern: &GraphKernel, table: &[AtomicU8], mask: u64) -> u32 {
    let mut seen = [0u32; 4];
    let mut moves = Moves::new();
    for size in 1..kern.digits.len() {
        if kern.digits[size] != 0 && size <= mask.count_ones() as usize {
            mark_options(kern, table, mask, size, &mut seen, &mut moves);
        }
    }
    moves.play(kern, table, &mut seen);
    let g = mex(&seen);
    if g > MAX_VALUE {
        return OVERFLOW;
    }
    g | CONNECTED
}

/// Values of the positions of level `k`, in colex order, runs of them in parallel.
pub fn graph_level(kern: &GraphKernel, table: &[AtomicU8], k: usize) -> Result<(), Overflow> {
    const RUN: u64 = 4096;
    let count = kern.level_size(k);
    (0..count.div_ceil(RUN))
        .into_par_iter()
        .try_for_each(|run| {
            let start = run * RUN;
            let end = (start + RUN).min(count);
            let mut mask = kern.unrank(start, k);
            for _ in start..end {
                let g = position_value(kern, table, mask);
                if g == OVERFLOW {
                    return Err(Overflow { mask });
                }
                table[mask as usize].store(g as u8, Ordering::Relaxed);
                mask = next_colex(mask);
            }
            Ok(())
        })
}

/// The next subset of the same size in colex order (Gosper's hack).
pub fn next_colex(mask: u64) -> u64 {
    if mask == 0 {
        return 0;
    }
    let low = mask & mask.wrapping_neg();
    let ripple = mask.wrapping_add(low);
    if ripple == 0 {
        return 0;
    }
    ripple | (((mask ^ ripple) >> 2) / low)
}

/// The table bytes of the connected positions of level `k`, found by ESU
/// rooted at each vertex in parallel instead of by rank (disconnected
/// positions are skipped: the caller knows no move reaches them), then
/// valued in increasing order: positions close in the table have options
/// close in the table, so their loads share cache lines (ESU's order
/// measured 1.4x slower on 0.33 over grid:4x6, 2.2x on grid:5x6).
pub fn graph_level_connected(
    kern: &GraphKernel,
    table: &[AtomicU8],
    k: usize,
) -> Result<u64, Overflow> {
    let all = crate::game::graph::mask_below(kern.n);
    let mut masks: Vec<u64> = (0..kern.n)
        .into_par_iter()
        .flat_map_iter(|v| {
            let mut out = Vec::new();
            for_each_connected_set_from(&kern.adj, all, k, 1 << v, |mask| out.push(mask));
            out
        })
        .collect();
    masks.par_sort_unstable();
    masks.par_chunks(4096).try_for_each(|run| {
        for &mask in run {
            let g = connected_value(kern, table, mask);
            if g == OVERFLOW {
                return Err(Overflow { mask });
            }
            table[mask as usize].store(g as u8, Ordering::Relaxed);
        }
        Ok(())
    })?;
    Ok(masks.len() as u64)
}

/// Calls `visit` once with every connected set of `size` vertices inside
/// `mask`: Wernicke's ESU, a set grown only by vertices above its first
/// vertex and outside the closed neighbourhood it had before.
pub fn for_each_connected_set(adj: &[u64], mask: u64, size: usize, visit: impl FnMut(u64)) {
    for_each_connected_set_from(adj, mask, size, mask, visit)
}

/// The connected sets of `for_each_connected_set` whose lowest vertex is in `roots`.
pub fn for_each_connected_set_from(
    adj: &[u64],
    mask: u64,
    size: usize,
    roots: u64,
    mut visit: impl FnMut(u64),
) {
    if size == 0 {
        return;
    }
    // Single vertices and edges, the usual removals, need no stack.
    if size <= 2 {
        let mut vs = mask & roots;
        while vs != 0 {
            let v = vs.trailing_zeros();
            vs &= vs - 1;
            if size == 1 {
                visit(1 << v);
                continue;
            }
            let mut ws = adj[v as usize] & mask & !((2u64 << v).wrapping_sub(1));
            while ws != 0 {
                visit(1 << v | ws & ws.wrapping_neg());
                ws &= ws - 1;
            }
        }
        return;
    }
    let mut stack = EsuStack::new(size);
    for v in bits(mask & roots) {
        let root = EsuNode::root(adj, mask, v);
        grow(adj, mask, size, size, root, &mut stack, &mut visit);
    }
}

/// A node of ESU's search tree: the set grown so far, its closed
/// neighbourhood, the vertices it may still grow by, and the vertices
/// above its first (the only ones it may hold).
#[derive(Clone, Copy, Debug)]
pub struct EsuNode {
    pub set: u64,
    closed: u64,
    ext: u64,
    above: u64,
}

impl EsuNode {
    fn root(adj: &[u64], mask: u64, v: usize) -> EsuNode {
        let above = !((2u64 << v).wrapping_sub(1));
        EsuNode {
            set: 1 << v,
            closed: adj[v] | 1 << v,
            ext: adj[v] & mask & above,
            above,
        }
    }
}

/// ESU's tree over the connected sets of at most `max_size` vertices
/// inside `mask` whose lowest vertex is in `roots`, cut `depth` levels
/// below the roots: every node down to the cut, each with whether the
/// sets below it are still to be listed (`grow_from`). A parallel listing
/// hands the nodes out as tasks; one root's tree alone is most of the work
/// on a grid's corner.
pub fn esu_nodes(
    adj: &[u64],
    mask: u64,
    max_size: usize,
    roots: u64,
    depth: usize,
) -> Vec<(EsuNode, bool)> {
    fn expand(
        adj: &[u64],
        mask: u64,
        max_size: usize,
        node: EsuNode,
        depth: usize,
        out: &mut Vec<(EsuNode, bool)>,
    ) {
        let grows = (node.set.count_ones() as usize) < max_size;
        if depth == 0 || !grows {
            out.push((node, grows));
            return;
        }
        out.push((node, false));
        let mut ext = node.ext;
        while ext != 0 {
            let w = ext.trailing_zeros() as usize;
            ext &= ext - 1;
            let child = EsuNode {
                set: node.set | 1 << w,
                closed: node.closed | adj[w],
                ext: ext | (adj[w] & mask & node.above & !node.closed),
                above: node.above,
            };
            expand(adj, mask, max_size, child, depth - 1, out);
        }
    }
    let mut out = Vec::new();
    if max_size > 0 {
        for v in bits(mask & roots) {
            expand(
                adj,
                mask,
                max_size,
                EsuNode::root(adj, mask, v),
                depth,
                &mut out,
            );
        }
    }
    out
}

/// Every connected set below `node` in ESU's tree (not its own set), of at
/// most `max_size` vertices.
pub fn grow_from(
    adj: &[u64],
    mask: u64,
    max_size: usize,
    node: EsuNode,
    mut visit: impl FnMut(u64),
) {
    let mut stack = EsuStack::new(max_size);
    grow(adj, mask, 1, max_size, node, &mut stack, &mut visit);
}

/// ESU's stack: the set, its closed neighbourhood and the vertices it may
/// grow by at each depth, on the machine stack for the usual small removals.
enum EsuStack {
    Small([[u64; 8]; 3]),
    Large([Vec<u64>; 3]),
}

impl EsuStack {
    /// A stack for sets of at most `max_size` vertices.
    fn new(max_size: usize) -> EsuStack {
        match max_size <= 8 {
            true => EsuStack::Small([[0; 8]; 3]),
            false => EsuStack::Large([vec![0; max_size], vec![0; max_size], vec![0; max_size]]),
        }
    }

    fn parts(&mut self) -> [&mut [u64]; 3] {
        match self {
            EsuStack::Small([a, b, c]) => [a, b, c],
            EsuStack::Large([a, b, c]) => [a, b, c],
        }
    }
}

/// ESU (Wernicke) below `node`: the sets of `min_size` to `max_size`
/// vertices, each met once, at the depth of its size.
#[inline(always)]
fn grow(
    adj: &[u64],
    mask: u64,
    min_size: usize,
    max_size: usize,
    node: EsuNode,
    stack: &mut EsuStack,
    visit: &mut impl FnMut(u64),
) {
    let start = node.set.count_ones() as usize;
    if start >= max_size {
        return;
    }
    let [sub, closed, ext] = stack.parts();
    let above = node.above;
    sub[0] = node.set;
    closed[0] = node.closed;
    ext[0] = node.ext;
    let mut d = 0usize;
    loop {
        if ext[d] == 0 {
            if d == 0 {
                break;
            }
            d -= 1;
            continue;
        }
        let w = ext[d].trailing_zeros();
        ext[d] &= ext[d] - 1;
        let next = sub[d] | 1 << w;
        let size = start + d + 1;
        if size >= min_size {
            visit(next);
        }
        if size < max_size {
            sub[d + 1] = next;
            closed[d + 1] = closed[d] | adj[w as usize];
            ext[d + 1] = ext[d] | (adj[w as usize] & mask & above & !closed[d]);
            d += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::graph;

    /// Connected sets by brute force: every subset, checked by flood fill.
    fn brute(g: &crate::game::Graph, mask: u64, size: usize) -> Vec<u64> {
        let mut out: Vec<u64> = (0..1u64 << g.n())
            .filter(|s| s & !mask == 0 && s.count_ones() as usize == size && g.is_connected(*s))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn esu_visits_each_connected_set_once() {
        for spec in ["grid:3x4", "pode:2,3,1", "cycle:9", "IheA@GUAo"] {
            let g = crate::game::Graph::parse(spec).unwrap();
            for mask in [g.all(), g.all() & 0b1011_0110_1101] {
                for size in 1..=5 {
                    let mut got = Vec::new();
                    for_each_connected_set(&g.adj, mask, size, |s| got.push(s));
                    got.sort();
                    assert_eq!(
                        got,
                        brute(&g, mask, size),
                        "{spec} mask {mask:b} size {size}"
                    );
                }
                // every size at once, from the roots asked for, through
                // ESU's tree cut into tasks at each depth
                let roots = 0b1100_1011;
                for depth in 0..4 {
                    let mut got = Vec::new();
                    for (node, grows) in esu_nodes(&g.adj, mask, 5, roots, depth) {
                        got.push(node.set);
                        if grows {
                            grow_from(&g.adj, mask, 5, node, |s| got.push(s));
                        }
                    }
                    got.sort();
                    let mut want: Vec<u64> =
                        (1..=5).flat_map(|size| brute(&g, mask, size)).collect();
                    want.retain(|s| roots >> s.trailing_zeros() & 1 == 1);
                    want.sort();
                    assert_eq!(got, want, "{spec} mask {mask:b} up to 5, cut at {depth}");
                }
            }
        }
        let _ = graph::path(1);
    }

    #[test]
    fn gosper_steps_through_a_level() {
        let mut m = 0b111u64;
        let mut count = 1;
        while next_colex(m) < 1 << 8 {
            m = next_colex(m);
            count += 1;
        }
        assert_eq!(count, 56);
    }
}
