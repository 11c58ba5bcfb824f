//! Small graphs (at most 64 vertices) as `u64` neighbour masks, and the
//! specs that name them on the command line: `path:N`, `cycle:N`,
//! `grid:RxC`, `pode:l1,l2,…`, `bipode:l1,…/m1,…/k`, `tree:p1,p2,…`,
//! `edges:FILE` and graph6 strings.

/// Grows connected components, for the solvers that find many: by
/// neighbour masks, or on a grid by shifting the whole mask a row or a
/// column at a time (a few word operations per step, no load per vertex).
#[derive(Clone, Copy, Debug)]
pub enum Flood<'a> {
    Adjacency(&'a [u64]),
    /// Vertex `r * cols + c`; `not_first` / `not_last` clear the first /
    /// last column, where a one-column shift wraps to the next row.
    Grid {
        cols: u32,
        not_first: u64,
        not_last: u64,
    },
}

impl Flood<'_> {
    /// The connected component of `mask` that holds the vertex `start`.
    pub fn component(&self, mask: u64, start: usize) -> u64 {
        self.grow_until(mask, start, !0)
    }

    /// The component of `mask` holding `start`, grown only until it holds
    /// every vertex of `targets`: a test that pieces join is mostly
    /// settled a few steps from where they meet.
    pub fn grow_until(&self, mask: u64, start: usize, targets: u64) -> u64 {
        let mut comp = 1u64 << start;
        match *self {
            Flood::Adjacency(_) => {
                let mut frontier = comp;
                while frontier != 0 && comp & targets != targets {
                    let grown = self.neighbours(frontier) & mask & !comp;
                    comp |= grown;
                    frontier = grown;
                }
                comp
            }
            Flood::Grid { .. } => loop {
                let grown = (comp | self.grid_neighbours(comp)) & mask;
                if grown == comp || grown & targets == targets {
                    return grown;
                }
                comp = grown;
            },
        }
    }

    /// The vertices adjacent to some vertex of `set`.
    pub fn neighbours(&self, set: u64) -> u64 {
        match *self {
            Flood::Adjacency(adj) => bits(set).fold(0, |acc, v| acc | adj[v]),
            Flood::Grid { .. } => self.grid_neighbours(set),
        }
    }

    /// The edges inside `within`, each as the mask of its two ends: on a
    /// grid, the cells whose right or lower neighbour is in `within` too.
    pub fn edges(&self, within: u64) -> impl Iterator<Item = u64> + '_ {
        let (adj, listed, across, down, cols): (&[u64], u64, u64, u64, usize) = match *self {
            Flood::Adjacency(adj) => (adj, within, 0, 0, 0),
            Flood::Grid { cols, not_last, .. } => (
                &[],
                0,
                within & within >> 1 & not_last,
                within & within >> cols,
                cols as usize,
            ),
        };
        let higher = move |v: usize| adj[v] & within & !((2u64 << v).wrapping_sub(1));
        bits(listed)
            .flat_map(move |v| bits(higher(v)).map(move |u| 1 << v | 1 << u))
            .chain(bits(across).map(|v| 3 << v))
            .chain(bits(down).map(move |v| 1 << v | 1 << (v + cols)))
    }

    fn grid_neighbours(&self, set: u64) -> u64 {
        let Flood::Grid {
            cols,
            not_first,
            not_last,
        } = *self
        else {
            unreachable!("a grid's flood")
        };
        set << cols | set >> cols | (set << 1) & not_first | (set >> 1) & not_last
    }
}

/// Vertices a graph may have: positions are `u64` masks.
pub const MAX_VERTICES: usize = 64;

/// An undirected simple graph on vertices `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// The spec it was built from, as the user wrote it.
    pub spec: String,
    /// `adj[v]`: bit `u` set when `u` and `v` are adjacent.
    pub adj: Vec<u64>,
    /// `Some((rows, cols))` for `grid:RxC`: vertex `r * cols + c`.
    pub grid: Option<(usize, usize)>,
}

impl Graph {
    /// A graph with `n` vertices and no edges.
    pub fn empty(n: usize) -> Graph {
        Graph {
            spec: String::new(),
            adj: vec![0; n],
            grid: None,
        }
    }

    pub fn n(&self) -> usize {
        self.adj.len()
    }

    /// The mask of every vertex.
    pub fn all(&self) -> u64 {
        mask_below(self.n())
    }

    pub fn add_edge(&mut self, u: usize, v: usize) {
        self.adj[u] |= 1 << v;
        self.adj[v] |= 1 << u;
    }

    pub fn edge_count(&self) -> usize {
        self.adj
            .iter()
            .map(|a| a.count_ones() as usize)
            .sum::<usize>()
            / 2
    }

    /// Edges inside `mask`.
    pub fn edges_within(&self, mask: u64) -> u32 {
        bits(mask)
            .map(|v| (self.adj[v] & mask).count_ones())
            .sum::<u32>()
            / 2
    }

    /// Vertices of `within` adjacent to some vertex of `set`.
    pub fn neighbours(&self, set: u64, within: u64) -> u64 {
        Flood::Adjacency(&self.adj).neighbours(set) & within
    }

    /// The connected component of `mask` that holds the vertex `start`.
    pub fn component(&self, mask: u64, start: usize) -> u64 {
        Flood::Adjacency(&self.adj).component(mask, start)
    }

    /// How this graph's components grow: by word shifts on a grid.
    pub fn flood(&self) -> Flood<'_> {
        match self.grid {
            Some((rows, cols)) if cols < MAX_VERTICES => {
                let first = (0..rows).fold(0u64, |m, r| m | 1 << (r * cols));
                Flood::Grid {
                    cols: cols as u32,
                    not_first: !first,
                    not_last: !(first << (cols - 1)),
                }
            }
            _ => Flood::Adjacency(&self.adj),
        }
    }

    /// The connected components of `mask`, lowest vertex first.
    pub fn components(&self, mask: u64) -> Vec<u64> {
        self.iter_components(mask).collect()
    }

    /// The connected components of `mask`, lowest vertex first, one at a time.
    pub fn iter_components(&self, mask: u64) -> impl Iterator<Item = u64> + '_ {
        let mut rest = mask;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let comp = self.component(rest, rest.trailing_zeros() as usize);
            rest &= !comp;
            Some(comp)
        })
    }

    /// How many pieces `mask` has, counted up to `cap`.
    pub fn pieces(&self, mask: u64, cap: usize) -> usize {
        self.iter_components(mask).take(cap).count()
    }

    pub fn is_connected(&self, mask: u64) -> bool {
        mask == 0 || self.component(mask, mask.trailing_zeros() as usize) == mask
    }

    /// The subgraph induced by `mask`, vertices renumbered in order.
    pub fn induced(&self, mask: u64) -> Graph {
        let vertices: Vec<usize> = bits(mask).collect();
        let mut g = Graph::empty(vertices.len());
        for (i, &u) in vertices.iter().enumerate() {
            for (j, &v) in vertices.iter().enumerate() {
                if self.adj[u] >> v & 1 == 1 {
                    g.adj[i] |= 1 << j;
                }
            }
        }
        g
    }

    /// The graph in graph6 format (nauty, House of Graphs).
    pub fn to_graph6(&self) -> String {
        let n = self.n();
        let mut out = String::new();
        if n <= 62 {
            out.push((n as u8 + 63) as char);
        } else {
            out.push('~');
            for shift in [12, 6, 0] {
                out.push(((n >> shift & 63) as u8 + 63) as char);
            }
        }
        let mut bitstream = Vec::new();
        for j in 1..n {
            for i in 0..j {
                bitstream.push(self.adj[i] >> j & 1 == 1);
            }
        }
        for chunk in bitstream.chunks(6) {
            let mut v = 0u8;
            for k in 0..6 {
                v = v << 1 | chunk.get(k).copied().unwrap_or(false) as u8;
            }
            out.push((v + 63) as char);
        }
        out
    }

    /// Parses a graph spec; the error says what was expected.
    /// Several graphs joined by `+` (`grid:2x3+path:4`): their disjoint
    /// union, the vertices of each part numbered after the previous part's.
    pub fn parse_sum(spec: &str) -> Result<Graph, String> {
        if !spec.contains('+') {
            return Graph::parse(spec);
        }
        let mut sum = Graph::empty(0);
        for part in spec.split('+') {
            let g = Graph::parse(part)?;
            let base = sum.n();
            if base + g.n() > MAX_VERTICES {
                return Err(format!(
                    "bad graph '{spec}': the parts have {} vertices together; at most {MAX_VERTICES}",
                    base + g.n()
                ));
            }
            sum.adj.extend(g.adj.iter().map(|a| a << base));
        }
        sum.spec = spec.trim().to_string();
        Ok(sum)
    }

    pub fn parse(spec: &str) -> Result<Graph, String> {
        let spec = spec.trim();
        let bad = |what: &str| format!("bad graph '{spec}': {what}");
        let mut g = match spec.split_once(':') {
            Some(("path", rest)) => path(count(rest, "path:N", 1).map_err(|e| bad(&e))?),
            Some(("cycle", rest)) => {
                let n = count(rest, "cycle:N", 3).map_err(|e| bad(&e))?;
                let mut g = path(n);
                g.add_edge(0, n - 1);
                g
            }
            Some(("wheel", rest)) => {
                let n = count(rest, "wheel:N (a hub joined to a cycle of N vertices)", 3)
                    .map_err(|e| bad(&e))?;
                check_size(n + 1).map_err(|e| bad(&e))?;
                wheel(n)
            }
            Some(("grid", rest)) => {
                let (r, c) = rest
                    .split_once(['x', 'X'])
                    .ok_or_else(|| bad("expected grid:RxC, e.g. grid:3x5"))?;
                let r = count(r, "grid:RxC", 1).map_err(|e| bad(&e))?;
                let c = count(c, "grid:RxC", 1).map_err(|e| bad(&e))?;
                if r * c > MAX_VERTICES {
                    return Err(bad(&format!(
                        "{r}x{c} has {} vertices; at most {MAX_VERTICES}",
                        r * c
                    )));
                }
                grid(r, c)
            }
            Some(("pode", rest)) => {
                let legs = lengths(rest, "pode:l1,l2,... (leg lengths)").map_err(|e| bad(&e))?;
                check_size(1 + legs.iter().sum::<usize>()).map_err(|e| bad(&e))?;
                pode(&legs)
            }
            Some(("bipode", rest)) => {
                let parts: Vec<&str> = rest.split('/').collect();
                let [a, b, m] = parts[..] else {
                    return Err(bad(
                        "expected bipode:l1,l2,.../m1,m2,.../k (two leg lists and the edges between the centres)",
                    ));
                };
                let what = "bipode:l1,.../m1,.../k";
                let a = lengths(a, what).map_err(|e| bad(&e))?;
                let b = lengths(b, what).map_err(|e| bad(&e))?;
                let m = count(m, what, 0).map_err(|e| bad(&e))?;
                let n = 2 + a.iter().sum::<usize>() + b.iter().sum::<usize>() + m.max(1) - 1;
                check_size(n).map_err(|e| bad(&e))?;
                bipode(&a, &b, m)
            }
            Some(("tree", rest)) => tree(rest).map_err(|e| bad(&e))?,
            Some(("edges", file)) => {
                let text = crate::input::read_text(std::path::Path::new(file), MAX_LIST_BYTES)
                    .map_err(|e| format!("the edge list {file}: {e}"))?;
                edge_list(&text).map_err(|e| format!("bad edge list {file}: {e}"))?
            }
            Some(("graph6" | "g6", rest)) => graph6(rest).map_err(|e| bad(&e))?,
            Some((family, _)) => {
                return Err(bad(&format!(
                    "unknown family '{family}'; expected path, cycle, wheel, grid, pode, bipode, tree, edges, graph6"
                )));
            }
            None => graph6(spec).map_err(|e| {
                bad(&format!(
                    "not a family:ARGS spec, and not graph6 either ({e}); expected e.g. path:7, grid:3x4, pode:1,2,2"
                ))
            })?,
        };
        g.spec = spec.to_string();
        Ok(g)
    }
}

/// The mask of vertices `0..n`.
pub fn mask_below(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The set bits of `mask`, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let v = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(v)
    })
}

fn check_size(n: usize) -> Result<(), String> {
    if n > MAX_VERTICES {
        Err(format!("{n} vertices; at most {MAX_VERTICES}"))
    } else {
        Ok(())
    }
}

fn count(text: &str, what: &str, min: usize) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a whole number; expected {what}", text.trim()))?;
    if n < min {
        return Err(format!("{n} is too small for {what}; at least {min}"));
    }
    check_size(n)?;
    Ok(n)
}

fn lengths(text: &str, what: &str) -> Result<Vec<usize>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    text.split(',').map(|t| count(t, what, 0)).collect()
}

pub fn path(n: usize) -> Graph {
    let mut g = Graph::empty(n);
    for v in 1..n {
        g.add_edge(v - 1, v);
    }
    g
}

/// A hub (vertex 0) joined to every vertex of the cycle 1, 2, ..., n.
pub fn wheel(n: usize) -> Graph {
    let mut g = Graph::empty(n + 1);
    for i in 1..=n {
        g.add_edge(0, i);
        g.add_edge(i, i % n + 1);
    }
    g
}

pub fn grid(rows: usize, cols: usize) -> Graph {
    let mut g = Graph::empty(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            if c + 1 < cols {
                g.add_edge(v, v + 1);
            }
            if r + 1 < rows {
                g.add_edge(v, v + cols);
            }
        }
    }
    g.grid = Some((rows, cols));
    g
}

/// Appends a chain of `len` new vertices to `at`.
fn add_leg(g: &mut Graph, at: usize, len: usize) {
    let mut prev = at;
    for _ in 0..len {
        let v = g.adj.len();
        g.adj.push(0);
        g.add_edge(prev, v);
        prev = v;
    }
}

/// A centre (vertex 0) with chains of the given lengths attached.
pub fn pode(legs: &[usize]) -> Graph {
    let mut g = Graph::empty(1);
    for &len in legs {
        add_leg(&mut g, 0, len);
    }
    g
}

/// Two podes whose centres are joined by a chain of `middle` edges
/// (`middle = 0`: one shared centre, a pode with both leg lists).
pub fn bipode(a: &[usize], b: &[usize], middle: usize) -> Graph {
    let mut g = pode(a);
    let other = if middle == 0 {
        0
    } else {
        add_leg(&mut g, 0, middle);
        g.n() - 1
    };
    for &len in b {
        add_leg(&mut g, other, len);
    }
    g
}

/// The leg-length multisets of the pode table, `counts[j]` legs of length
/// j + 1: by number of legs, then by longer legs (as Dailly, Octal games on graphs, Figure 34 reads).
pub fn pode_rows(max_legs: usize, max_length: usize) -> Vec<Vec<usize>> {
    fn fill(left: usize, idx: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if idx == 0 {
            cur[0] = left;
            out.push(cur.clone());
            return;
        }
        for c in 0..=left {
            cur[idx] = c;
            fill(left - c, idx - 1, cur, out);
        }
    }
    let mut out = Vec::new();
    for k in 0..=max_legs {
        fill(k, max_length - 1, &mut vec![0; max_length], &mut out);
    }
    out
}

/// The pode with `counts[j]` legs of length j + 1.
pub fn pode_of(counts: &[usize]) -> Graph {
    let legs: Vec<usize> = counts
        .iter()
        .enumerate()
        .flat_map(|(j, &c)| std::iter::repeat_n(j + 1, c))
        .collect();
    pode(&legs)
}

/// B(a1, a2, b1, b2) with a middle chain of `middle` edges.
pub fn bipode_of(a1: usize, a2: usize, b1: usize, b2: usize, middle: usize) -> Graph {
    let legs = |ones: usize, twos: usize| {
        let mut v = vec![1; ones];
        v.extend(std::iter::repeat_n(2, twos));
        v
    };
    bipode(&legs(a1, a2), &legs(b1, b2), middle)
}

/// `p1,p2,…`: the parent of vertex 1, 2, …; vertex 0 is the root.
fn tree(text: &str) -> Result<Graph, String> {
    let parents = lengths(text, "tree:p1,p2,... (the parent of vertex 1, 2, ...)")?;
    check_size(parents.len() + 1)?;
    let mut g = Graph::empty(parents.len() + 1);
    for (i, &p) in parents.iter().enumerate() {
        let v = i + 1;
        if p >= g.n() || p == v {
            return Err(format!(
                "vertex {v} has parent {p}; expected a vertex 0..{} other than itself",
                g.n() - 1
            ));
        }
        g.add_edge(p, v);
    }
    if g.edge_count() != parents.len() || !g.is_connected(g.all()) {
        return Err("the parent list has a cycle; expected a tree".into());
    }
    Ok(g)
}

/// The largest edge list read (64 vertices have at most 2,016 edges).
const MAX_LIST_BYTES: u64 = 1 << 20;

/// One `u v` pair per line (vertices from 0), `#` starts a comment.
pub fn edge_list(text: &str) -> Result<Graph, String> {
    let mut pairs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let nums: Vec<&str> = line.split_whitespace().collect();
        let parsed: Option<Vec<usize>> = nums.iter().map(|t| t.parse().ok()).collect();
        match parsed.as_deref() {
            Some(&[u, v]) if u != v && u < MAX_VERTICES && v < MAX_VERTICES => pairs.push((u, v)),
            _ => {
                return Err(format!(
                    "line {}: {}; expected two different vertex numbers 0..{} as 'u v'",
                    i + 1,
                    crate::input::quoted(line),
                    MAX_VERTICES - 1
                ));
            }
        }
    }
    let n = pairs.iter().map(|&(u, v)| u.max(v) + 1).max().unwrap_or(0);
    if n == 0 {
        return Err("no edges; expected lines of 'u v'".into());
    }
    let mut g = Graph::empty(n);
    for (u, v) in pairs {
        g.add_edge(u, v);
    }
    Ok(g)
}

/// A graph6 string (an optional `>>graph6<<` header is allowed).
pub fn graph6(text: &str) -> Result<Graph, String> {
    let text = text.trim();
    let text = text.strip_prefix(">>graph6<<").unwrap_or(text);
    let bytes: Vec<u8> = text.bytes().collect();
    if let Some(pos) = bytes.iter().position(|b| !(63..=126).contains(b)) {
        return Err(format!(
            "character {} ('{}') is outside graph6's range '?'..'~'",
            pos + 1,
            bytes[pos] as char
        ));
    }
    let (n, body) = match bytes.first() {
        None => return Err("empty graph6 string".into()),
        Some(126) if bytes.len() >= 4 && bytes[1] != 126 => {
            let n = bytes[1..4]
                .iter()
                .fold(0usize, |acc, &b| acc << 6 | (b - 63) as usize);
            (n, &bytes[4..])
        }
        Some(126) => return Err("a graph this large has more than 64 vertices".into()),
        Some(&b) => ((b - 63) as usize, &bytes[1..]),
    };
    check_size(n)?;
    let needed = (n * n.saturating_sub(1) / 2).div_ceil(6);
    if body.len() != needed {
        return Err(format!(
            "{n} vertices need {needed} characters after the size, found {}",
            body.len()
        ));
    }
    let mut g = Graph::empty(n);
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if (body[k / 6] - 63) >> (5 - k % 6) & 1 == 1 {
                g.add_edge(i, j);
            }
            k += 1;
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_have_the_right_shape() {
        let g = Graph::parse("path:5").unwrap();
        assert_eq!((g.n(), g.edge_count()), (5, 4));
        let g = Graph::parse("cycle:6").unwrap();
        assert_eq!((g.n(), g.edge_count()), (6, 6));
        let g = Graph::parse("grid:3x4").unwrap();
        assert_eq!((g.n(), g.edge_count()), (12, 17));
        let g = Graph::parse("pode:1,2,4").unwrap();
        assert_eq!((g.n(), g.edge_count()), (8, 7));
        assert_eq!(g.adj[0].count_ones(), 3);
        // Dailly, Octal games on graphs, Figure 24: Bipod(1,1,2; 1,1,2; 3) has 2 + 8 + 2 vertices.
        let g = Graph::parse("bipode:1,1,2/1,1,2/3").unwrap();
        assert_eq!((g.n(), g.edge_count()), (12, 11));
        assert_eq!(g.adj.iter().filter(|a| a.count_ones() == 4).count(), 2);
        let g = Graph::parse("bipode:1/1/0").unwrap();
        // middle 0: one shared centre, so Pod(1, 1) = P3 centred at vertex 0
        assert_eq!((g.n(), g.edge_count(), g.adj[0].count_ones()), (3, 2, 2));
        let g = Graph::parse("tree:0,0,1,1").unwrap();
        assert_eq!((g.n(), g.edge_count()), (5, 4));
    }

    #[test]
    fn graph6_round_trips() {
        // The Petersen graph as nauty writes it.
        let g = graph6("IheA@GUAo").unwrap();
        assert_eq!((g.n(), g.edge_count()), (10, 15));
        assert!(g.adj.iter().all(|a| a.count_ones() == 3));
        assert_eq!(g.to_graph6(), "IheA@GUAo");
        let grid = grid(3, 4);
        assert_eq!(graph6(&grid.to_graph6()).unwrap().adj, grid.adj);
        let big = path(64);
        assert_eq!(graph6(&big.to_graph6()).unwrap().adj, big.adj);
    }

    #[test]
    fn bad_specs_say_what_was_expected() {
        for (spec, expected) in [
            ("path:x", "not a whole number"),
            ("grid:3", "expected grid:RxC"),
            ("grid:9x9", "at most 64"),
            ("cycle:2", "at least 3"),
            ("tree:0,5", "expected a vertex"),
            ("tree:2,1", "cycle"),
            ("bipode:1,1/2", "two leg lists"),
            ("star:5", "unknown family"),
            ("I he", "outside graph6"),
            ("Ih", "need 8 characters"),
        ] {
            let e = Graph::parse(spec).unwrap_err();
            assert!(e.contains(expected), "{spec}: {e}");
        }
        assert!(edge_list("0 1\n1 x\n").unwrap_err().contains("line 2"));
        assert!(edge_list("# only a comment\n").is_err());
    }

    #[test]
    fn components_split_a_mask() {
        let g = path(7);
        let comps = g.components(0b1101101);
        assert_eq!(comps, vec![0b1, 0b1100, 0b1100000]);
    }
}
