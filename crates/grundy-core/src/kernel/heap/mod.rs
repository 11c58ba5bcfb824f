//! What the heap-game kernels (GPU and CPU twin) need to know of a code, and
//! how a run is cut into blocks.
//!
//! The kernels handle the codes whose moves leave at most two heaps (octal
//! codes with `!`, `?`, `=` and `--min-diff`, subtraction games, Grundy's
//! game). Codes that split into three or more heaps run on the general CPU
//! engine (`engine::heap::brute::general`).

pub mod common;
pub mod finish_block;
pub mod options_below;

use crate::game::{Code, Modifier};
use crate::kernel::shader::{Constants, Shader};

/// Heaps finished in order by one workgroup; `MAX_BLOCK` in the shaders.
pub const MAX_BLOCK: u32 = 2048;
/// The most heaps finish_block copies into workgroup memory (`HEAD_HEAPS`
/// in the shader): a block's small heaps but its last 16, so that its three
/// arrays fit the 16 KiB of workgroup memory every device offers.
pub const HEAD_HEAPS: u32 = MAX_BLOCK - 16;
/// Bitset words for values up to 65535; `MAX_WORDS` in the shaders.
pub const MAX_WORDS: u32 = 2048;
/// Options per digit one workgroup of `options_below` scans (`SLICE`).
pub const SLICE: u32 = 4096;
/// The first block: small, it holds every option itself.
pub const FIRST_BLOCK: u32 = 64;
/// `take_jmax` / `split_jmax` when the tail repeats forever.
pub const UNBOUNDED: u32 = u32::MAX;

/// A code as the heap kernels read it: one `u32` per digit (bits 0..2 the
/// heap counts 0, 1, 2; bits 8..9 the modifier).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapKernelCode {
    pub digits: Vec<u32>,
    pub prefix_len: u32,
    pub tail_len: u32,
    pub min_diff: u32,
    pub take_jmax: u32,
    pub split_jmax: u32,
}

pub const MOD_PLAIN: u32 = 0;
pub const MOD_DISTINCT: u32 = 1;
pub const MOD_NOT_ALL_EQUAL: u32 = 2;
pub const MOD_ALL_EQUAL: u32 = 3;

impl HeapKernelCode {
    /// `Err` names why the kernels cannot run this code.
    pub fn new(code: &Code) -> Result<HeapKernelCode, String> {
        let encode = |j: usize, d: &crate::game::Digit| -> Result<u32, String> {
            if d.at_least.is_some() || d.counts >> 3 != 0 {
                return Err(format!(
                    "digit {j} of {} leaves 3 or more heaps; the heap kernels handle at most 2",
                    code.text
                ));
            }
            let modifier = match d.modifier {
                Modifier::Plain => MOD_PLAIN,
                Modifier::Distinct => MOD_DISTINCT,
                Modifier::NotAllEqual => MOD_NOT_ALL_EQUAL,
                Modifier::AllEqual => MOD_ALL_EQUAL,
            };
            Ok(d.counts as u32 | modifier << 8)
        };
        let mut digits = Vec::new();
        for (j, d) in code.digits.iter().chain(&code.tail).enumerate() {
            digits.push(encode(j, d)?);
        }
        if digits.len() > u32::MAX as usize / 2 {
            return Err("the code is too long".into());
        }
        let prefix_len = code.digits.len() as u32;
        let last = |mask: u32| -> u32 {
            if code
                .tail
                .iter()
                .zip(&digits[code.digits.len()..])
                .any(|(_, w)| w & mask != 0)
            {
                UNBOUNDED
            } else {
                digits[..code.digits.len()]
                    .iter()
                    .rposition(|w| w & mask != 0)
                    .unwrap_or(0) as u32
            }
        };
        Ok(HeapKernelCode {
            take_jmax: last(0b011),
            split_jmax: last(0b100),
            prefix_len,
            tail_len: code.tail.len() as u32,
            min_diff: code.min_diff,
            digits,
        })
    }
}

/// One level-block of heaps `[s, s + b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub s: u32,
    pub b: u32,
}

/// The blocks that take a table known below `from` to heaps `0..=to`:
/// small first blocks, then blocks as long as the table below them, capped
/// at `max_block`, so that the in-order phase B stays a small part of the
/// work while the table is short.
pub fn plan_blocks(from: u32, to: u32, max_block: u32) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut s = from;
    let end = to as u64 + 1;
    while (s as u64) < end {
        let b = s.clamp(FIRST_BLOCK, max_block.max(1)).min(max_block.max(1));
        let b = (b as u64).min(end - s as u64) as u32;
        blocks.push(Block { s, b });
        s += b;
    }
    blocks
}

/// Workgroups per heap in `options_below` for a block starting at `s`: the
/// options below `s` of one digit number at most `s`.
pub fn slices(s: u32) -> u32 {
    s.div_ceil(SLICE).max(1)
}

/// Threads per workgroup in the shaders (`WG`).
pub const WG: u64 = 64;
/// Threads of finish_block's workgroup (`FINISH_WG`).
pub const FINISH_WG: u64 = 256;
/// Below-bitset words each of them fetches a heap ahead (`AHEAD`).
pub const FINISH_AHEAD: u64 = 2;

/// Split digits among `0..=j_hi`.
fn split_digits_upto(code: &HeapKernelCode, j_hi: u64) -> u64 {
    let (p, t) = (code.prefix_len as u64, code.tail_len as u64);
    let is_split = |w: &u32| w & 4 != 0;
    let prefix = code.digits[..p as usize]
        .iter()
        .take(j_hi as usize + 1)
        .filter(|w| is_split(w))
        .count() as u64;
    if j_hi < p || t == 0 {
        return prefix;
    }
    let tail_split = code.digits[p as usize..]
        .iter()
        .filter(|w| is_split(w))
        .count() as u64;
    let tail_len = j_hi - p + 1;
    prefix
        + tail_len / t * tail_split
        + code.digits[p as usize..]
            .iter()
            .take((tail_len % t) as usize)
            .filter(|w| is_split(w))
            .count() as u64
}

/// Loop iterations one invocation of `options_below` makes, at most, for
/// heaps up to `n` (software rasterisers cap the loop iterations of one
/// invocation: llvmpipe stops every loop after 65535 in all).
pub fn below_loop_trips(code: &HeapKernelCode, n: u64, words: u32) -> u64 {
    let split_hi = n.min(code.split_jmax as u64);
    let word_loops = 2 * (words as u64 / WG + 1);
    word_loops
        + SLICE as u64 / WG
        + 1
        + (split_hi + 1)
        + split_digits_upto(code, split_hi) * (SLICE as u64 / WG + 1)
}

/// Loop iterations the one invocation of `finish_block` makes, at most, for
/// a block of `b` heaps.
pub fn finish_loop_trips(code: &HeapKernelCode, b: u32, words: u32) -> u64 {
    // per heap: the stores of the words fetched ahead, the rest, the next
    // fetch and the mex; once: the head's copy, the first fetch, the write
    let word_loops = 2 * (words as u64 / FINISH_WG + 1) + 2 * FINISH_AHEAD;
    let mut trips =
        (b as u64 / 2 / FINISH_WG + 1) + (HEAD_HEAPS as u64 / 2 / FINISH_WG + 1) + FINISH_AHEAD;
    for i in 0..b as u64 {
        let take = i.min(code.take_jmax as u64) / FINISH_WG + 1;
        let split_hi = i.min(code.split_jmax as u64);
        trips += 1
            + word_loops
            + take
            + (split_hi + 1)
            + split_digits_upto(code, split_hi) * (i / FINISH_WG + 1);
    }
    trips
}

/// A rough count of the option reads one block costs, used to size GPU
/// submissions.
pub fn block_work(code: &HeapKernelCode, block: Block) -> u64 {
    let per_heap = if code.split_jmax != 0 || code.digits.first().is_some_and(|d| d & 4 != 0) {
        block.s as u64 / 2 + 64
    } else if code.take_jmax == UNBOUNDED {
        block.s as u64 + 64
    } else {
        code.take_jmax as u64 + 64
    };
    per_heap * block.b as u64
}

/// Storage bindings of the heap kernels: digits (read), the below bitsets,
/// the status words, and the four table chunks.
const HEAP_BINDINGS: &[bool] = &[true, false, false, false, false, false, false];

/// What heap_common.wgsl reads of Rust's constants.
const HEAP_CONSTANTS: Constants = &[
    ("WG", WG as u32),
    ("MAX_WORDS", MAX_WORDS),
    ("MAX_BLOCK", MAX_BLOCK),
    ("SLICE", SLICE),
    ("ST_HALT", ST_HALT as u32),
    ("ST_MAX", ST_MAX as u32),
    ("ST_MIN_WORDS", ST_MIN_WORDS as u32),
    ("ST_DONE", ST_DONE as u32),
    ("ST_HALT_AT", ST_HALT_AT as u32),
    ("MOD_PLAIN", MOD_PLAIN),
    ("MOD_DISTINCT", MOD_DISTINCT),
    ("MOD_NOT_ALL_EQUAL", MOD_NOT_ALL_EQUAL),
    ("MOD_ALL_EQUAL", MOD_ALL_EQUAL),
];

/// The first pass over a block: every option whose heaps lie below it.
pub const OPTIONS_BELOW: Shader = Shader {
    name: "options_below",
    wgsl: include_str!("../../../shaders/options_below.wgsl"),
    entry_points: &["options_below"],
    read_only: HEAP_BINDINGS,
    constants: &[HEAP_CONSTANTS],
};

/// The second: the block's heaps in order, one workgroup.
pub const FINISH_BLOCK: Shader = Shader {
    name: "finish_block",
    wgsl: include_str!("../../../shaders/finish_block.wgsl"),
    entry_points: &["finish_block"],
    read_only: HEAP_BINDINGS,
    constants: &[
        HEAP_CONSTANTS,
        &[
            ("HEAD_HEAPS", HEAD_HEAPS),
            ("FINISH_WG", FINISH_WG as u32),
            ("AHEAD", FINISH_AHEAD as u32),
        ],
    ],
};

/// The table chunks the heap kernels bind.
pub const CHUNKS: u64 = 4;

/// Status words the kernels leave (`status[ST_*]`).
pub const ST_HALT: usize = 0;
pub const ST_MAX: usize = 1;
pub const ST_MIN_WORDS: usize = 2;
pub const ST_DONE: usize = 3;
pub const ST_HALT_AT: usize = 4;

/// One block's parameters (`Params` in heap_common.wgsl).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable, Debug)]
pub struct Params {
    pub s: u32,
    pub b: u32,
    pub groups_x: u32,
    pub prefix_len: u32,
    pub tail_len: u32,
    pub min_diff: u32,
    pub chunk_shift: u32,
    pub take_jmax: u32,
    pub split_jmax: u32,
    pub slices: u32,
    /// Heaps below this (at most `HEAD_HEAPS`) that finish_block keeps in
    /// workgroup memory.
    pub head_heaps: u32,
    pub pad: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_the_range_in_order() {
        for (from, to) in [(0, 0), (0, 63), (0, 10_000), (37, 5000), (4096, 4096)] {
            let blocks = plan_blocks(from, to, MAX_BLOCK);
            let mut next = from;
            for blk in &blocks {
                assert_eq!(blk.s, next);
                assert!(blk.b >= 1 && blk.b <= MAX_BLOCK);
                assert!(blk.s == 0 || blk.b <= blk.s.max(FIRST_BLOCK));
                next += blk.b;
            }
            assert_eq!(next, to + 1);
        }
    }
}
