//! What `shaders/graph_level.wgsl` and its CPU twin `kernel::graph::graph_level`
//! share: the dense table over all vertex subsets (one byte per subset,
//! indexed by the subset's mask), and the ranks that enumerate the subsets
//! of one popcount (a level) in colex order.

pub mod graph_level;

use crate::game::{Convention, Graph, GraphCode};

use crate::kernel::shader::Shader;

/// Vertices a dense table may have (2^34 bytes = 16 GiB).
pub const DENSE_MAX_VERTICES: usize = 34;
/// The largest removal the GPU kernel's stack holds.
pub const GPU_MAX_TAKE: usize = 8;
/// Binomials C(c, i) for c, i < this, row-major.
pub const BINOM_DIM: usize = DENSE_MAX_VERTICES + 1;
/// Table bytes hold the value in bits 0-6: a mex above this is an overflow.
pub const MAX_VALUE: u32 = 127;
pub const VALUE_BITS: u32 = 127;
/// Bit 7 of a table byte: the position is connected (one piece).
pub const CONNECTED: u32 = 128;
/// What a position's evaluation returns when its value does not fit.
pub const OVERFLOW: u32 = 256;

/// Strips the connected flags, leaving the values.
pub fn strip_flags(table: &mut [u8]) {
    for b in table {
        *b &= VALUE_BITS as u8;
    }
}

/// A graph game as both kernels read it.
#[derive(Clone, Debug)]
pub struct GraphKernel {
    pub n: usize,
    pub adj: Vec<u64>,
    /// `digits[i]` for removing `i` vertices.
    pub digits: Vec<u8>,
    /// `binom[c * BINOM_DIM + i]` = C(c, i).
    pub binom: Vec<u64>,
    /// Normal or misère play: what a position without a move is worth,
    /// and whether a disconnected position is its components' xor (normal
    /// play) or the mex over every move in every component (misère play).
    pub convention: Convention,
}

impl GraphKernel {
    pub fn new(graph: &Graph, code: &GraphCode) -> GraphKernel {
        let mut binom = vec![0u64; BINOM_DIM * BINOM_DIM];
        for c in 0..BINOM_DIM {
            binom[c * BINOM_DIM] = 1;
            for i in 1..=c {
                binom[c * BINOM_DIM + i] =
                    binom[(c - 1) * BINOM_DIM + i - 1] + binom[(c - 1) * BINOM_DIM + i];
            }
        }
        GraphKernel {
            n: graph.n(),
            adj: graph.adj.clone(),
            digits: code.digits.clone(),
            binom,
            convention: code.convention,
        }
    }

    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }

    pub fn binomial(&self, c: usize, i: usize) -> u64 {
        if i > c {
            0
        } else {
            self.binom[c * BINOM_DIM + i]
        }
    }

    /// Positions in level `k`: C(n, k).
    pub fn level_size(&self, k: usize) -> u64 {
        self.binomial(self.n, k)
    }

    /// The `rank`-th subset of `k` vertices in colex order.
    pub fn unrank(&self, mut rank: u64, k: usize) -> u64 {
        let mut mask = 0u64;
        let mut c = self.n;
        for i in (1..=k).rev() {
            c -= 1;
            while self.binomial(c, i) > rank {
                c -= 1;
            }
            mask |= 1 << c;
            rank -= self.binomial(c, i);
        }
        mask
    }
}

/// Bytes of a dense table over `n` vertices.
pub fn dense_table_bytes(n: usize) -> u64 {
    1u64.checked_shl(n as u32).unwrap_or(u64::MAX)
}

/// Connected vertex sets of each size up to `max_take` in the whole graph:
/// what one position may enumerate at most (for the llvmpipe loop budget).
pub fn connected_set_counts(adj: &[u64], max_take: usize) -> Vec<u64> {
    let mut counts = vec![0u64; max_take + 1];
    let all = crate::game::graph::mask_below(adj.len());
    for (size, count) in counts.iter_mut().enumerate().skip(1) {
        crate::game::connected_sets::for_each_connected_set(adj, all, size, |_| *count += 1);
    }
    counts
}

/// `shaders/graph_level.wgsl`: storage bindings are the graph (read), the
/// status words, and the eight table chunks.
pub const GRAPH_LEVEL: Shader = Shader {
    name: "graph_level",
    wgsl: include_str!("../../../shaders/graph_level.wgsl"),
    entry_points: &["graph_level"],
    read_only: &[
        true, false, false, false, false, false, false, false, false, false,
    ],
    constants: &[&[
        ("WG", WG as u32),
        ("MAX_TAKE", GPU_MAX_TAKE as u32),
        ("BINOM_DIM", BINOM_DIM as u32),
        ("MAX_VALUE", MAX_VALUE),
        ("VALUE_BITS", VALUE_BITS),
        ("CONNECTED", CONNECTED),
        ("OVERFLOW", OVERFLOW),
    ]],
};

/// The table chunks the graph kernel binds.
pub const CHUNKS: u64 = 8;
/// Threads per workgroup (`WG`).
pub const WG: u64 = 64;

/// The graph as the shader reads it (`GraphData`): neighbour masks,
/// binomials, digits, in vec4 rows.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GraphData {
    pub adj: [[u32; 4]; 32],
    pub binom: [[u32; 4]; 307],
    pub digits: [[u32; 4]; 17],
    pub n: u32,
    pub max_take: u32,
    pub chunk_shift: u32,
    /// What a position without a move is worth: 0, or 1 under misère play
    /// (which also values disconnected positions by their moves).
    pub no_move: u32,
}

/// One level's parameters.
pub use crate::kernel::shader::LevelParams as Params;

impl GraphKernel {
    /// The graph's data for the shader, with its table cut in chunks of
    /// 2^`chunk_shift` words.
    pub fn graph_data(&self, chunk_shift: u32) -> GraphData {
        use bytemuck::Zeroable;
        let mut d = GraphData::zeroed();
        for (v, &a) in self.adj.iter().enumerate() {
            d.adj[v / 2][(v % 2) * 2] = a as u32;
            d.adj[v / 2][(v % 2) * 2 + 1] = (a >> 32) as u32;
        }
        for c in 0..BINOM_DIM {
            for i in 0..BINOM_DIM {
                let k = c * BINOM_DIM + i;
                d.binom[k / 4][k % 4] = self.binomial(c, i).min(u32::MAX as u64) as u32;
            }
        }
        for (i, &digit) in self.digits.iter().enumerate() {
            d.digits[i / 4][i % 4] = digit as u32;
        }
        d.n = self.n as u32;
        d.max_take = self.max_take() as u32;
        d.chunk_shift = chunk_shift;
        d.no_move = self.convention.no_move_value();
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::graph;

    #[test]
    fn unrank_walks_each_level_in_colex_order() {
        let g = graph::path(9);
        let k = GraphKernel::new(&g, &GraphCode::parse("0.33").unwrap());
        for level in 0..=9 {
            let masks: Vec<u64> = (0..k.level_size(level))
                .map(|r| k.unrank(r, level))
                .collect();
            let mut expected: Vec<u64> = (0u64..512)
                .filter(|m| m.count_ones() as usize == level)
                .collect();
            expected.sort();
            // colex order of subsets is the numeric order of their masks
            assert_eq!(masks, expected, "level {level}");
        }
    }
}
