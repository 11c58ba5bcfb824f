//! CPU twin of `shaders/options_below.wgsl`: phase A of a block, every heap
//! of the block in parallel (rayon stands for the workgroups; each
//! workgroup's threads become one sequential loop, its slices another).

use rayon::prelude::*;

use super::common::Bits;
use crate::kernel::heap::{Block, HeapKernelCode, SLICE, slices};

/// The option bitsets (`words` words per heap) of heaps `s..s + b` from
/// options whose heaps all lie below `s`.
pub fn options_below(code: &HeapKernelCode, table: &[u16], block: Block, words: u32) -> Vec<u32> {
    let g = |i: u32| table[i as usize] as u32;
    let Block { s, b } = block;
    let mut below = vec![0u32; (b * words) as usize];
    below
        .par_chunks_mut(words as usize)
        .enumerate()
        .for_each(|(i, out)| {
            let n = s + i as u32;
            for slice in 0..slices(s) {
                let mut bits = Bits(vec![0; words as usize]);

                // Take j, leave nothing (m = 0) or one heap m < s.
                let take_lo = n + 1 - s.max(1) + slice * SLICE;
                let take_hi = n.min(code.take_jmax).min(take_lo + SLICE - 1);
                for j in take_lo..=take_hi {
                    let d = code.digit(j);
                    let m = n - j;
                    if m == 0 {
                        if d & 1 != 0 {
                            bits.mark(0);
                        }
                    } else if d & 2 != 0 {
                        bits.mark(g(m));
                    }
                }
                // Take j, split the rest into (a, m - a) with both heaps below s.
                let split_hi = n.min(code.split_jmax);
                for j in 0..=split_hi {
                    let m = n - j;
                    let (x, y) = code.split_range(code.digit(j), m);
                    let mut lo = x;
                    if m >= s {
                        lo = lo.max(m - s + 1);
                    }
                    lo += slice * SLICE;
                    let hi = y.min(lo + SLICE - 1);
                    for a in lo..=hi {
                        bits.mark(g(a) ^ g(m - a));
                    }
                }
                for (o, w) in out.iter_mut().zip(&bits.0) {
                    *o |= w;
                }
            }
        });
    below
}
