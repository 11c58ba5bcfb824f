//! CPU twin of `shaders/survey_block.wgsl`: each code (a rayon task here, a
//! workgroup there) finishes its next heaps in order, marking every option's
//! value and taking the mex; a code in rare mode marks the pairs with a rare
//! part, takes c and scans the split pairs only until every value below c
//! is marked.
//!
//! A test oracle: no run calls it. A survey on the CPU runs each code by
//! `grundy-engine`'s sequence engines; this twin is what the tests hold
//! the shader to, step for step.

use rayon::prelude::*;

use crate::kernel::heap::common::{Bits, capacity_words};
use crate::kernel::mex::smallest_unmarked;
use crate::kernel::rare::split_words::{below_word, common_word, low_parity};
use crate::kernel::survey::{MODE_RARE, STATE_WORDS, SurveyKernel};

/// Pairs each GPU thread tests per split digit between two looks at `need`
/// (the twin scans the same runs of pairs, WG × this many).
const SCAN_PER_THREAD: u32 = 4;
/// The GPU's threads per code at their fewest default (a software
/// adapter's); with more the scan's runs are longer, the values the same.
const WG: u32 = 64;

/// G(i) of the code whose table is `table`.
fn g(table: &[u32], i: u32) -> u32 {
    (table[(i >> 1) as usize] >> ((i & 1) << 4)) & 0xffff
}

/// One dispatch: every code finishes up to `block` more heaps, up to its
/// target. `rare` holds `kern.rare_cap` words per code. The shader's entry
/// point does the same per heap in one body; here its three phases are
/// the functions below, in the shader's order.
pub fn survey_block(
    kern: &SurveyKernel,
    block: u32,
    state: &mut [u32],
    table: &mut [u32],
    rare: &mut [u32],
) {
    let len = kern.digits_len as usize;
    state
        .par_chunks_mut(STATE_WORDS)
        .zip(table.par_chunks_mut(kern.stride))
        .zip(rare.par_chunks_mut(kern.rare_cap.max(1)))
        .zip(kern.digits.par_chunks(len))
        .for_each(|(((state, table), rare), digits)| {
            let start = state[0];
            let end = (state[0] + block).min(state[2]);
            let mut code = Code {
                kern,
                digits,
                top: state[1],
                mode: state[4],
                mask: state[5],
                parity: state[6],
                low: low_parity(state[5]),
                count: state[7],
            };
            for n in start..end {
                let words = capacity_words(code.top, 1);
                let mut bits = Bits(vec![0; words as usize]);
                // The position parity flips which values are common at odd or even heaps.
                let flip = if code.parity != 0 {
                    (n + code.parity - 1) & 1
                } else {
                    0
                };
                code.mark_options(n, table, rare, &mut bits);
                if code.mode == MODE_RARE {
                    code.scan_below_c(n, table, flip, &mut bits);
                }
                // The mex (in rare mode: c, or the smallest value the scan left).
                let v = smallest_unmarked(&bits.0, words * 32);
                if v > 0xffff {
                    state[3] = 1;
                }
                code.append(n, v, flip, table, rare);
            }
            state[0] = end;
            state[1] = code.top;
            state[4] = code.mode;
            state[7] = code.count;
        });
}

/// One code's state in a dispatch (the shader's workgroup variables).
struct Code<'a> {
    kern: &'a SurveyKernel,
    digits: &'a [u32],
    top: u32,
    mode: u32,
    mask: u32,
    parity: u32,
    low: u32,
    count: u32,
}

impl Code<'_> {
    fn split_digits(&self, jmax: u32) -> impl Iterator<Item = u32> + '_ {
        (0..=jmax).filter(|&j| self.digits[j as usize] & 4 != 0)
    }

    /// Marks the options' values: takes of j >= 1 leaving nothing or one
    /// heap, and splits of n - j into (a, m - a), a <= m - a: every pair,
    /// or in rare mode the pairs with a rare part r < m.
    fn mark_options(&self, n: u32, table: &[u32], rare: &[u32], bits: &mut Bits) {
        let jmax = n.min(self.kern.digits_len - 1);
        for j in 1..=jmax {
            let d = self.digits[j as usize];
            if j == n && d & 1 != 0 {
                bits.mark(0);
            }
            if j < n && d & 2 != 0 {
                bits.mark(g(table, n - j));
            }
        }
        for j in self.split_digits(jmax) {
            let m = n - j;
            if self.mode == MODE_RARE {
                for &r in &rare[..self.count as usize] {
                    if r < m {
                        bits.mark(g(table, r) ^ g(table, m - r));
                    }
                }
            } else {
                for a in (1..).take_while(|a| 2 * a <= m) {
                    bits.mark(g(table, a) ^ g(table, m - a));
                }
            }
        }
    }

    /// Rare mode: every common option is marked, so G(n) <= c, the
    /// smallest common value left; scans the split pairs by the smaller
    /// part a = 1, 2, ... until every value below c is marked or the
    /// pairs run out.
    fn scan_below_c(&self, n: u32, table: &[u32], flip: u32, bits: &mut Bits) {
        let words = bits.0.len() as u32;
        let jmax = n.min(self.kern.digits_len - 1);
        let c = (0..words)
            .map(|w| {
                (
                    w,
                    !bits.0[w as usize] & common_word(self.mask, self.low, flip, w),
                )
            })
            .find(|&(_, free)| free != 0)
            .map_or(words * 32, |(w, free)| w * 32 + free.trailing_zeros());
        // The values below c left unmarked: rare, each needs a split pair.
        let mut need: u32 = (0..words)
            .map(|w| (!bits.0[w as usize] & below_word(c, w)).count_ones())
            .sum();
        let mut a0 = 1;
        while need != 0 && 2 * a0 <= n {
            for j in self.split_digits(jmax) {
                let m = n - j;
                for a in (a0..a0 + WG * SCAN_PER_THREAD).take_while(|a| 2 * a <= m) {
                    let v = g(table, a) ^ g(table, m - a);
                    if v < c {
                        let bit = 1 << (v & 31);
                        let word = &mut bits.0[(v >> 5) as usize];
                        if *word & bit == 0 {
                            *word |= bit;
                            need -= 1;
                        }
                    }
                }
            }
            a0 += WG * SCAN_PER_THREAD;
        }
    }

    /// Stores G(n) = v; a rare position joins the list, and a full list
    /// ends rare mode.
    fn append(&mut self, n: u32, v: u32, flip: u32, table: &mut [u32], rare: &mut [u32]) {
        let i = (n >> 1) as usize;
        let sh = (n & 1) << 4;
        table[i] = (table[i] & !(0xffff << sh)) | ((v & 0xffff) << sh);
        self.top = self.top.max(v);
        let rare_here = ((v & self.mask).count_ones() & 1) ^ flip == 0;
        if self.mode == MODE_RARE && rare_here {
            if (self.count as usize) < self.kern.rare_cap {
                rare[self.count as usize] = n;
                self.count += 1;
            } else {
                self.mode = 0;
            }
        }
    }
}
