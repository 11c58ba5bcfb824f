//! CPU twin of `shaders/finish_block.wgsl`: phase B of a block, the heaps in
//! order, each adding the options that touch the block and taking the mex.

use super::common::Bits;
use crate::kernel::heap::{Block, HeapKernelCode, MAX_WORDS};
use crate::kernel::mex::smallest_unmarked;

/// Why a block stopped before its end (the GPU's `ST_HALT` reasons).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A heap's bitset was full: redo the block from `s` with `words` words.
    TooNarrow { s: u32, words: u32 },
    /// Heap `n` has a value above 65535.
    ValueTooLarge { n: u32 },
}

/// Finishes heaps `s..s + b` into `table` (which holds every heap below `s`
/// and has room for the block). Returns the block's largest value.
pub fn finish_block(
    code: &HeapKernelCode,
    table: &mut [u16],
    block: Block,
    words: u32,
    below: &[u32],
) -> Result<u32, Halt> {
    let Block { s, b } = block;
    let cap = words * 32;
    let mut block_max = 0u32;
    // The shader copies the table's first heaps into workgroup memory
    // (`head`) and fetches each heap's below-bitset while the heap before it
    // is finished; here the table and `below` are at hand.
    for i in 0..b {
        let n = s + i;
        let mut bits = Bits(below[(i * words) as usize..((i + 1) * words) as usize].to_vec());
        // On the CPU the block and head live in the table itself: gb(x) = G(x).
        let gb = |x: u32| table[x as usize] as u32;

        // Take j, leave one heap m >= s (m >= 1).
        if n >= s.max(1) {
            let take_hi = (n - s.max(1)).min(code.take_jmax);
            for j in 0..=take_hi {
                if code.digit(j) & 2 != 0 {
                    bits.mark(gb(n - j));
                }
            }
        }
        // Take j, split the rest into (a, m - a) with m - a >= s.
        let split_hi = n.min(code.split_jmax);
        for j in 0..=split_hi {
            let m = n - j;
            if m < s {
                break;
            }
            let (x, y) = code.split_range(code.digit(j), m);
            let hi = y.min(m - s);
            for a in x..=hi {
                bits.mark(gb(a) ^ gb(m - a));
            }
        }

        let v = smallest_unmarked(&bits.0, cap);
        if v >= cap {
            // The bitset is full: the mex is not known. Redo wider, or give
            // up when it is already as wide as u16 values allow.
            if words >= MAX_WORDS {
                return Err(Halt::ValueTooLarge { n });
            }
            return Err(Halt::TooNarrow {
                s,
                words: 2 * words,
            });
        }
        table[n as usize] = v as u16;
        block_max = block_max.max(v);
    }
    Ok(block_max)
}
