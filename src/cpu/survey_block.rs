//! CPU twin of `shaders/survey_block.wgsl`: each code (a rayon task here, a
//! workgroup there) finishes its next heaps in order, marking every option's
//! value and taking the mex.

use rayon::prelude::*;

use super::heap_common::{Bits, capacity_words};
use crate::engine::survey_kernel::{STATE_WORDS, SurveyKernel};

/// G(i) of the code whose table is `table`.
fn g(table: &[u32], i: u32) -> u32 {
    (table[(i >> 1) as usize] >> ((i & 1) << 4)) & 0xffff
}

/// One dispatch: every code finishes up to `block` more heaps, up to its target.
pub fn survey_block(kern: &SurveyKernel, block: u32, state: &mut [u32], table: &mut [u32]) {
    let len = kern.digits_len as usize;
    state
        .par_chunks_mut(STATE_WORDS)
        .zip(table.par_chunks_mut(kern.stride))
        .zip(kern.digits.par_chunks(len))
        .for_each(|((state, table), digits)| {
            let start = state[0];
            let end = (state[0] + block).min(state[2]);
            let mut top = state[1];
            for n in start..end {
                let words = capacity_words(top, 1);
                let mut bits = Bits(vec![0; words as usize]);

                // Take j >= 1 tokens, leaving nothing or one heap.
                let jmax = n.min(kern.digits_len - 1);
                for j in 1..=jmax {
                    let d = digits[j as usize];
                    if j == n && d & 1 != 0 {
                        bits.mark(0);
                    }
                    if j < n && d & 2 != 0 {
                        bits.mark(g(table, n - j));
                    }
                }
                // Take j >= 0 tokens and split the rest into (a, m - a), a <= m - a.
                for j in 0..=jmax {
                    if digits[j as usize] & 4 == 0 {
                        continue;
                    }
                    let m = n - j;
                    for a in (1..).take_while(|a| 2 * a <= m) {
                        bits.mark(g(table, a) ^ g(table, m - a));
                    }
                }

                let v = (0..words)
                    .find(|&w| !bits.0[w as usize] != 0)
                    .map_or(words * 32, |w| {
                        w * 32 + (!bits.0[w as usize]).trailing_zeros()
                    });

                if v > 0xffff {
                    state[3] = 1;
                }
                let i = (n >> 1) as usize;
                let sh = (n & 1) << 4;
                table[i] = (table[i] & !(0xffff << sh)) | ((v & 0xffff) << sh);
                top = top.max(v);
            }
            state[0] = end;
            state[1] = top;
        });
}
