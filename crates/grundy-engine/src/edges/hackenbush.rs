//! Green Hackenbush on a rooted graph (the 2007 lecture notes on impartial games): a position is the mask of
//! the edges still standing; a move cuts one and drops every edge no longer
//! connected to the ground. Positions are remembered by mask (a position
//! only ever holds grounded edges, so few masks are met).

use grundy_core::error::Error;
use grundy_core::fast_map::FastMap;
use grundy_core::game::graph::bits;
use grundy_core::game::{Convention, Graph};
use grundy_core::setting::Setting;

/// The most edges a position mask holds.
pub const MAX_EDGES: usize = 64;

/// A graph with a ground, ready to play.
pub struct Hackenbush {
    pub edges: Vec<(usize, usize)>,
    /// The ground vertices, as a vertex mask.
    pub ground: u64,
    /// Normal play, or misère play: what the picture without an edge is
    /// worth (every other position has a move).
    pub convention: Convention,
    memo: FastMap<u64, u8>,
}

impl Hackenbush {
    pub fn new(graph: &Graph, ground: &[usize]) -> Result<Hackenbush, String> {
        let mut edges = Vec::new();
        for u in 0..graph.n() {
            for v in bits(graph.adj[u]) {
                if u < v {
                    edges.push((u, v));
                }
            }
        }
        if edges.len() > MAX_EDGES {
            return Err(format!(
                "the graph has {} edges; Hackenbush positions hold at most {MAX_EDGES}",
                edges.len()
            ));
        }
        let mut mask = 0u64;
        for &g in ground {
            if g >= graph.n() {
                return Err(format!(
                    "{}: expected vertices 0..{}",
                    Setting::Ground.is(g),
                    graph.n() - 1
                ));
            }
            mask |= 1 << g;
        }
        if mask == 0 {
            return Err(format!(
                "{}: expected at least one vertex",
                Setting::Ground.named()
            ));
        }
        Ok(Hackenbush {
            edges,
            ground: mask,
            convention: Convention::Normal,
            memo: FastMap::default(),
        })
    }

    /// Every edge, less those not connected to the ground.
    pub fn start(&self) -> u64 {
        self.grounded(grundy_core::game::graph::mask_below(self.edges.len()))
    }

    /// The edges of `edges` still connected to the ground.
    pub fn grounded(&self, edges: u64) -> u64 {
        let mut reached = self.ground;
        let mut kept = 0u64;
        loop {
            let before = kept;
            for e in bits(edges & !kept) {
                let (u, v) = self.edges[e];
                if reached >> u & 1 == 1 || reached >> v & 1 == 1 {
                    kept |= 1 << e;
                    reached |= 1 << u | 1 << v;
                }
            }
            if kept == before {
                return kept;
            }
        }
    }

    /// G of the position `edges` (grounded edges only).
    pub fn value(&mut self, edges: u64) -> u8 {
        if edges == 0 {
            return self.convention.no_move_value() as u8;
        }
        if let Some(&g) = self.memo.get(&edges) {
            return g;
        }
        let mut seen = [0u64; 4];
        for e in bits(edges) {
            let next = self.grounded(edges & !(1 << e));
            let v = self.value(next) as usize;
            seen[v >> 6] |= 1 << (v & 63);
        }
        let g = (0..256)
            .find(|&v| seen[v >> 6] >> (v & 63) & 1 == 0)
            .expect("fewer than 256 options") as u8;
        self.memo.insert(edges, g);
        g
    }

    /// Positions valued so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }
}

/// `--ground 0,3` → [0, 3].
pub fn parse_ground(text: &str) -> grundy_core::error::Result<Vec<usize>> {
    text.split(',')
        .map(|t| {
            t.trim().parse().map_err(|_| {
                Error::Input(format!(
                    "bad {}: '{}' is not a vertex number; expected vertices like 0,3",
                    Setting::Ground.is(format!("'{text}'")),
                    t.trim()
                ))
            })
        })
        .collect()
}
