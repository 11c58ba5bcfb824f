//! What the misère heap kernels (`genus_below`, `genus_finish`, GPU and CPU
//! twin) share: a code that never splits a heap, its heaps' states in one
//! table, and how a run is cut into blocks.
//!
//! A heap's state is the g⁻ of every sum of it with a nim-heaps of 2 and b
//! of 1 (a + b ≤ `GENUS_DEPTH`, in `analysis::genus::States`' order), then
//! its normal value: `PLANES` values, a heap's row of the table. A heap's
//! options are heaps, so each plane of a heap is the mex of the same plane
//! of its options, plus, for a sum with nim-heaps, the same heap's earlier
//! planes (a heap of 2 taken to 1 or to 0, a heap of 1 taken): the planes
//! are valued in order. This is `GenusStream::step` cut into blocks, as the
//! normal brute force is (`kernel::heap`): a pass over every option below
//! the block, heaps in parallel, then the block's heaps in order.
//!
//! The card pays where a heap's options are many: codes whose takes are
//! unbounded (a `[..]` tail). A code with bounded takes has each heap follow
//! from the few before it, and the CPU's stream certifies its period
//! within a few heaps (`analysis::genus_stream`).

pub mod genus_below;
pub mod genus_finish;

use crate::analysis::genus::{GENUS_DEPTH, States, refuse_splitting};
use crate::game::Code;
/// The bitset and workgroup sizes are the heap kernels': `MAX_WORDS`
/// words (values up to 65535), `SLICE` options per workgroup of the first
/// pass, `WG` and `FINISH_WG` threads.
pub use crate::kernel::heap::{FINISH_WG, MAX_WORDS, SLICE, WG};
use crate::kernel::heap::{HeapKernelCode, UNBOUNDED};
use crate::kernel::shader::{Constants, Shader};

/// Values of a heap's row: its sums' g⁻, then its normal value.
pub const PLANES: u32 = ((GENUS_DEPTH + 1) * (GENUS_DEPTH + 2) / 2 + 1) as u32;
/// The row's last value: the heap's normal nim value.
pub const NORMAL_PLANE: u32 = PLANES - 1;
/// Heaps a block holds at most: the in-order pass values a block's
/// `PLANES` planes one after another.
pub const MAX_BLOCK: u32 = 512;

/// Status words the kernels leave (`status[ST_*]`): 0 running, 1 a value
/// passed what the bitset holds; the heap where it did; heaps done.
pub const ST_HALT: usize = 0;
pub const ST_HALT_AT: usize = 1;
pub const ST_DONE: usize = 2;

/// A code as the misère heap kernels read it: the heap kernels' digits
/// (bit 0 taking a whole heap, bit 1 leaving one heap; a code that never
/// splits sets no other count) and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenusKernelCode {
    pub heap: HeapKernelCode,
}

impl GenusKernelCode {
    /// `Err` names why the kernels cannot run `code`: it splits a heap.
    /// What a split allows (`--min-diff`; `!`, `?` and `=` on a digit that
    /// splits) moves nothing in a code that never splits, so it is read
    /// past.
    pub fn new(code: &Code) -> Result<GenusKernelCode, String> {
        refuse_splitting(code)?;
        Ok(GenusKernelCode {
            heap: HeapKernelCode::new(code)?,
        })
    }

    /// Digit `j` (0 past a code without a tail).
    pub fn digit(&self, j: u32) -> u32 {
        self.heap.digit(j)
    }

    /// Whether taking `j` from heap `n` is a move: taking it whole, or
    /// leaving one heap.
    pub fn allowed(&self, n: u32, j: u32) -> bool {
        let d = self.digit(j);
        match n == j {
            true => d & 1 != 0,
            false => d & 2 != 0,
        }
    }

    /// Whether the takes are unbounded: the card's work grows with the
    /// square of the heaps.
    pub fn unbounded(&self) -> bool {
        self.heap.take_jmax == UNBOUNDED
    }

    /// The most options a heap below `end` has: the takes 1 ..= end - 1
    /// (at most `take_jmax`) whose digit allows some move, counted.
    pub fn most_options_below(&self, end: u32) -> u32 {
        let code = &self.heap;
        let hi = end.saturating_sub(1).min(code.take_jmax) as u64;
        let counted = |digits: &[u32], len: u64| -> u64 {
            digits
                .iter()
                .take(len as usize)
                .filter(|&&d| d != 0)
                .count() as u64
        };
        let (p, t) = (code.prefix_len as u64, code.tail_len as u64);
        // digits 0 ..= hi, less digit 0 (no take)
        let prefix = counted(&code.digits[..p as usize], (hi + 1).min(p));
        let first = (code.digits.first().is_some_and(|&d| d != 0) && p > 0) as u64;
        let mut count = prefix - first;
        if hi >= p && t > 0 {
            let tail = &code.digits[p as usize..];
            let len = hi - p + 1;
            count += len / t * counted(tail, t) + counted(tail, len % t);
        }
        count.min(u32::MAX as u64) as u32
    }

    /// Bitset words for the heaps below `end`: a heap's values are at most
    /// its options and three of its own planes, so its mex is at most that
    /// many; capped at `MAX_WORDS`, where a value past 65535 halts the run.
    pub fn words_below(&self, end: u32) -> u32 {
        (self.most_options_below(end) + 4)
            .div_ceil(32)
            .clamp(1, MAX_WORDS)
    }
}

/// The planes each plane's value reads of the same heap, one byte each
/// (plane + 1; 0 for none): a heap of 2 taken to 1, a heap of 2 taken, a
/// heap of 1 taken. The normal plane reads none.
pub fn plane_deps() -> Vec<u32> {
    let states = States { depth: GENUS_DEPTH };
    let mut deps = vec![0; PLANES as usize];
    for a in 0..=GENUS_DEPTH {
        for b in 0..=GENUS_DEPTH - a {
            let mut earlier = Vec::new();
            if a > 0 {
                earlier.push(states.index(a - 1, b + 1));
                earlier.push(states.index(a - 1, b));
            }
            if b > 0 {
                earlier.push(states.index(a, b - 1));
            }
            deps[states.index(a, b)] = earlier
                .iter()
                .enumerate()
                .map(|(i, &p)| (p as u32 + 1) << (8 * i))
                .sum();
        }
    }
    deps
}

/// The plane of γk (the heap with k nim-heaps of 2) in a heap's row.
pub fn gamma_plane(k: usize) -> usize {
    States { depth: GENUS_DEPTH }.index(k, 0)
}

/// Table bytes for heaps `0..=n`.
pub fn table_bytes(n: u32) -> u64 {
    (n as u64 + 1) * PLANES as u64 * 4
}

/// One block's parameters (`Params` in genus_common.wgsl).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable, Debug, PartialEq, Eq)]
pub struct Params {
    /// The block's first heap and its heaps.
    pub s: u32,
    pub b: u32,
    pub groups_x: u32,
    pub prefix_len: u32,
    pub tail_len: u32,
    pub take_jmax: u32,
    /// Workgroups per heap in `genus_below`.
    pub slices: u32,
    /// Bitset words of each of the block's planes.
    pub words: u32,
}

impl Params {
    /// The parameters of the block `[s, s + b)` of `code`.
    pub fn of(code: &GenusKernelCode, s: u32, b: u32) -> Params {
        Params {
            s,
            b,
            groups_x: 0,
            prefix_len: code.heap.prefix_len,
            tail_len: code.heap.tail_len,
            take_jmax: code.heap.take_jmax,
            slices: s.div_ceil(SLICE).max(1),
            words: code.words_below(s + b),
        }
    }
}

/// Index of word `w` of plane `k` of the block's heap `i` in `below`.
pub fn below_at(p: &Params, i: u32, k: u32, w: u32) -> usize {
    ((i * PLANES + k) * p.words + w) as usize
}

/// Loop iterations one invocation of `genus_below` makes at most (llvmpipe
/// ends every loop of an invocation after 65535 in all).
pub fn below_loop_trips() -> u64 {
    SLICE as u64 / WG * (PLANES as u64 + 1) + 1
}

/// Loop iterations the invocation of `genus_finish` makes at most for a
/// block of `b` heaps with `words`-word bitsets.
pub fn finish_loop_trips(b: u32, words: u32) -> u64 {
    let per_plane = 2 * (words as u64 / FINISH_WG + 1) + b as u64 / FINISH_WG + 1 + 3;
    b as u64 * PLANES as u64 * per_plane
}

/// Storage bindings: the digits and the plane deps (read), the below
/// bitsets, the status words, the table.
const GENUS_BINDINGS: &[bool] = &[true, true, false, false, false];

const GENUS_CONSTANTS: Constants = &[
    ("PLANES", PLANES),
    ("NORMAL_PLANE", NORMAL_PLANE),
    ("ST_HALT", ST_HALT as u32),
    ("ST_HALT_AT", ST_HALT_AT as u32),
    ("ST_DONE", ST_DONE as u32),
];

/// The first pass over a block: every option below it, heaps in parallel.
pub const GENUS_BELOW: Shader = Shader {
    name: "genus_below",
    wgsl: include_str!("../../../shaders/genus_below.wgsl"),
    entry_points: &["genus_below"],
    read_only: GENUS_BINDINGS,
    constants: &[GENUS_CONSTANTS, &[("WG", WG as u32), ("SLICE", SLICE)]],
};

/// The second: the block's heaps and planes in order, one workgroup.
pub const GENUS_FINISH: Shader = Shader {
    name: "genus_finish",
    wgsl: include_str!("../../../shaders/genus_finish.wgsl"),
    entry_points: &["genus_finish"],
    read_only: GENUS_BINDINGS,
    constants: &[
        GENUS_CONSTANTS,
        &[("FINISH_WG", FINISH_WG as u32), ("MAX_WORDS", MAX_WORDS)],
    ],
};
