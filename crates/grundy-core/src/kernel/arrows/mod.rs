//! What the dense edge-game kernel (`shaders/arrows_level.wgsl` and its
//! CPU twin) is told about a game, laid out as one array of u32 words.
//!
//! A state is the base-3 number sum of mark(e) * 3^e; level k holds the
//! states with k marked edges, C(E, k) * 2^k of them: thread t takes the
//! k-subset of colex rank t >> k and orients its j-th edge by bit j of t.

pub mod arrows_level;

use crate::game::arrows::{ArrowGame, ArrowRule};
use crate::kernel::shader::Shader;

/// The most edges a dense table may have (3^20 < 2^32 table indices).
pub const DENSE_MAX_EDGES: usize = 20;
/// Faces an edge may bound in the kernel's per-edge list.
pub const FACES_PER_EDGE: usize = 4;
/// Header words before the sections.
const HEADER: usize = 16;

/// The kernel's view of an edge game.
#[derive(Clone, Debug)]
pub struct ArrowKernel {
    pub edges: usize,
    pub n: usize,
    pub cycles: bool,
    /// What a state without a follower is worth: 0, or 1 under misère play.
    pub no_move: u32,
    /// (u, v) of each edge, u < v.
    pub ends: Vec<(u32, u32)>,
    pub pow3: Vec<u32>,
    /// The edges at vertex v: `inc[inc_start[v]..inc_start[v + 1]]`.
    pub inc_start: Vec<u32>,
    pub inc: Vec<u32>,
    pub constrained: Vec<u32>,
    /// Face ids + 1 of the faces each edge bounds (0: none).
    pub edge_faces: Vec<[u32; FACES_PER_EDGE]>,
    /// Face f's edges: `face_edges[face_start[f]..face_start[f + 1]]`, each e * 4 + mark.
    pub face_start: Vec<u32>,
    pub face_edges: Vec<u32>,
    /// C(a, j) at a * (edges + 1) + j.
    pub binom: Vec<u32>,
}

impl ArrowKernel {
    pub fn new(game: &ArrowGame) -> Result<ArrowKernel, String> {
        let e = game.edges.len();
        if e > DENSE_MAX_EDGES {
            return Err(format!(
                "a dense table over {e} edges has 3^{e} states; the dense solver stops at {DENSE_MAX_EDGES} edges"
            ));
        }
        let mut inc_start = vec![0u32];
        let mut inc = Vec::new();
        for list in &game.incident {
            inc.extend(list.iter().map(|&x| x as u32));
            inc_start.push(inc.len() as u32);
        }
        let mut edge_faces = vec![[0u32; FACES_PER_EDGE]; e];
        let mut face_start = vec![0u32];
        let mut face_edges = Vec::new();
        for (f, face) in game.faces.iter().enumerate() {
            for &(edge, mark) in face {
                let slot = edge_faces[edge]
                    .iter()
                    .position(|&x| x == 0)
                    .ok_or_else(|| {
                        format!(
                            "edge {}-{} bounds more than {FACES_PER_EDGE} faces",
                            game.edges[edge].0, game.edges[edge].1
                        )
                    })?;
                edge_faces[edge][slot] = f as u32 + 1;
                face_edges.push(edge as u32 * 4 + mark as u32);
            }
            face_start.push(face_edges.len() as u32);
        }
        let dim = e + 1;
        let mut binom = vec![0u32; dim * dim];
        for a in 0..dim {
            binom[a * dim] = 1;
            for j in 1..=a {
                binom[a * dim + j] = binom[(a - 1) * dim + j - 1] + binom[(a - 1) * dim + j];
            }
        }
        Ok(ArrowKernel {
            edges: e,
            n: game.n,
            cycles: game.rule == ArrowRule::Cycles,
            no_move: game.convention.no_move_value(),
            ends: game
                .edges
                .iter()
                .map(|&(u, v)| (u as u32, v as u32))
                .collect(),
            pow3: (0..e).map(|i| 3u32.pow(i as u32)).collect(),
            inc_start,
            inc,
            constrained: game.constrained.iter().map(|&c| c as u32).collect(),
            edge_faces,
            face_start,
            face_edges,
            binom,
        })
    }

    pub fn binomial(&self, a: usize, j: usize) -> u32 {
        if j > a {
            0
        } else {
            self.binom[a * (self.edges + 1) + j]
        }
    }

    /// States with k marks: C(E, k) * 2^k.
    pub fn level_size(&self, k: usize) -> u64 {
        self.binomial(self.edges, k) as u64 * (1u64 << k)
    }

    /// Bytes of the dense table: one per base-3 number.
    pub fn table_bytes(&self) -> u64 {
        3u64.pow(self.edges as u32)
    }

    /// The words of the shader's `game` buffer: a header of section offsets, then the sections.
    pub fn words(&self) -> Vec<u32> {
        let mut w = vec![0u32; HEADER];
        w[0] = self.edges as u32;
        w[1] = self.n as u32;
        w[2] = self.cycles as u32;
        w[3] = self.no_move;
        let section = |w: &mut Vec<u32>, slot: usize, data: &[u32]| {
            w[slot] = w.len() as u32;
            w.extend_from_slice(data);
        };
        let ends: Vec<u32> = self.ends.iter().flat_map(|&(u, v)| [u, v]).collect();
        let faces: Vec<u32> = self.edge_faces.iter().flatten().copied().collect();
        section(&mut w, 4, &ends);
        section(&mut w, 5, &self.pow3);
        section(&mut w, 6, &self.inc_start);
        section(&mut w, 7, &self.inc);
        section(&mut w, 8, &self.constrained);
        section(&mut w, 9, &faces);
        section(&mut w, 10, &self.face_start);
        section(&mut w, 11, &self.face_edges);
        section(&mut w, 12, &self.binom);
        w
    }

    /// The table index (base-3 number) of a state.
    pub fn index(&self, marks: &[u8]) -> u32 {
        marks
            .iter()
            .zip(&self.pow3)
            .map(|(&m, &p)| m as u32 * p)
            .sum()
    }
}
/// `shaders/arrows_level.wgsl`: storage bindings are the game (read), the
/// table and the status words.
pub const ARROWS_LEVEL: Shader = Shader {
    name: "arrows_level",
    wgsl: include_str!("../../../shaders/arrows_level.wgsl"),
    entry_points: &["arrows_level"],
    read_only: &[true, false, false],
    constants: &[&[
        ("WG", WG as u32),
        ("MAX_EDGES", DENSE_MAX_EDGES as u32),
        ("FACES_PER_EDGE", FACES_PER_EDGE as u32),
    ]],
};

/// Threads per workgroup (`WG`).
pub const WG: u64 = 64;

/// One level's parameters.
pub use crate::kernel::shader::LevelParams as Params;
