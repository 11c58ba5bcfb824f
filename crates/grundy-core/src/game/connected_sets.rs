//! Connected vertex sets of a graph: every connected set of a size inside
//! a mask, each once (Wernicke's ESU with an explicit stack), and the colex
//! walk over subsets of one size. The graph games' removals are these sets.

use super::graph::bits;

/// The next subset of the same size in colex order (Gosper's hack).
#[inline]
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

/// Calls `visit` once with every connected set of `size` vertices inside
/// `mask`: Wernicke's ESU, a set grown only by vertices above its first
/// vertex and outside the closed neighbourhood it had before.
#[inline]
pub fn for_each_connected_set(adj: &[u64], mask: u64, size: usize, visit: impl FnMut(u64)) {
    for_each_connected_set_from(adj, mask, size, mask, visit)
}

/// The connected sets of `for_each_connected_set` whose lowest vertex is in `roots`.
#[inline]
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
    #[inline]
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
