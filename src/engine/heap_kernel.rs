//! What the heap-game kernels (GPU and CPU twin) need to know of a code, and
//! how a run is cut into blocks.
//!
//! The kernels handle the codes whose moves leave at most two heaps (octal
//! codes with `!`, `?`, `=` and `--min-diff`, subtraction games, Grundy's
//! game). Codes that split into three or more heaps run on the general CPU
//! engine (`cpu::general`).

use crate::game::{Code, Modifier};

/// Heaps finished in order by one workgroup; `MAX_BLOCK` in the shaders.
pub const MAX_BLOCK: u32 = 2048;
/// Bitset words for values up to 65535; `MAX_WORDS` in the shaders.
pub const MAX_WORDS: u32 = 2048;
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
            if code.tail.iter().zip(&digits[code.digits.len()..]).any(|(_, w)| w & mask != 0) {
                UNBOUNDED
            } else {
                digits[..code.digits.len()].iter().rposition(|w| w & mask != 0).unwrap_or(0) as u32
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

/// A rough count of the option reads one block costs, used to size GPU
/// submissions and progress steps.
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
