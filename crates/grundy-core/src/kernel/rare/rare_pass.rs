//! CPU twin of `shaders/rare_pass.wgsl`: the parallel pass of rare values
//! over a block of heaps, each heap (a rayon task here, a workgroup there)
//! marking its take moves and rare pairs below `s`, taking c′ and scanning
//! the pairs below `s` for the rare values under it, in the shader's steps
//! and chunks (so the pairs it counts are the shader's too).
//!
//! A test oracle: no run calls it. The CPU runs the pass as
//! `grundy-engine`'s `heap::rare::pass` (wider scans, a pass per core);
//! this twin is what the tests hold the shader to, step for step.
#![allow(
    clippy::needless_range_loop,
    reason = "kept comparable to the shader's loops"
)]

use rayon::prelude::*;

use super::split_words::{below_word, common_word, low_parity};
use super::{PassParams, SCAN_PER_THREAD, WG};

/// G(i) from the table's pieces of `1 << params.piece_shift` words.
fn g(params: &PassParams, table: &[&[u32]], i: u32) -> u32 {
    let w = i >> 1;
    let piece = w >> params.piece_shift;
    let at = w & ((1 << params.piece_shift) - 1);
    let word = match piece {
        0 => table[0][at as usize],
        1 => table[1][at as usize],
        2 => table[2][at as usize],
        3 => table[3][at as usize],
        4 => table[4][at as usize],
        5 => table[5][at as usize],
        6 => table[6][at as usize],
        _ => table[7][at as usize],
    };
    (word >> ((i & 1) << 4)) & 0xffff
}

fn mark(bits: &mut [u32], v: u32) {
    bits[(v >> 5) as usize] |= 1 << (v & 31);
}

/// The smaller parts a of the split pairs of m with both parts below s
/// and at least `diff` apart: lo..=hi (none when lo > hi).
fn pair_range(m: u32, diff: u32, s: u32) -> (u32, u32) {
    if m < 2 + diff {
        return (1, 0);
    }
    let lo = 1.max((m + 1).saturating_sub(s));
    (lo, (m - diff) / 2)
}

/// The whole block: `sets` gets each heap's marks then missing values
/// (`params.words` u32 each), `results` each heap's c′ and pairs read.
/// `table` is the shader's `TABLE_PIECES` pieces (the first repeated for
/// pieces the table does not reach).
pub fn rare_pass(
    params: &PassParams,
    code: &[u32],
    table: &[&[u32]],
    rare: &[u32],
    sets: &mut [u32],
    results: &mut [u32],
) {
    let words = params.words as usize;
    sets.par_chunks_mut(2 * words)
        .zip(results.par_chunks_mut(2))
        .enumerate()
        .for_each(|(i, (set, result))| {
            let n = params.first + i as u32;
            let (bits, missing) = set.split_at_mut(words);
            mark_below(params, code, table, rare, n, bits);
            let (c, need) = candidate(params, n, bits, missing);
            result[0] = c;
            result[1] = scan_below(params, code, table, n, c, need, missing);
        });
}

/// Take moves to heaps below s (and the whole heap), and the rare pairs
/// (r, b = m − r) with both parts below s.
fn mark_below(
    params: &PassParams,
    code: &[u32],
    table: &[&[u32]],
    rare: &[u32],
    n: u32,
    bits: &mut [u32],
) {
    let s = params.s;
    let (takes, splits) = (code[0], code[1]);
    for k in 0..takes as usize {
        let (j, d) = (code[2 + 2 * k], code[3 + 2 * k]);
        if j == n && d & 1 != 0 {
            mark(bits, 0);
        } else if j < n && n - j < s && d & 2 != 0 {
            mark(bits, g(params, table, n - j));
        }
    }
    let split_at = 2 + 2 * takes as usize;
    for k in 0..splits as usize {
        let (j, diff) = (code[split_at + 2 * k], code[split_at + 2 * k + 1]);
        if n < j + 2 {
            continue;
        }
        let m = n - j;
        for q in 0..params.rare_count as usize {
            let r = rare[2 * q];
            if r >= m {
                break;
            }
            let b = m - r;
            let apart = r.abs_diff(b);
            if b < s && (diff == 0 || apart >= diff) {
                mark(bits, rare[2 * q + 1] ^ g(params, table, b));
            }
        }
    }
}

/// c′, and the rare values below it no mark reached (`missing`) with
/// their count.
fn candidate(params: &PassParams, n: u32, bits: &[u32], missing: &mut [u32]) -> (u32, u32) {
    let flip = if params.parity != 0 {
        (n + params.parity - 1) & 1
    } else {
        0
    };
    let low = low_parity(params.mask);
    let words = params.words;
    let c = (0..words)
        .map(|w| {
            (
                w,
                !bits[w as usize] & common_word(params.mask, low, flip, w),
            )
        })
        .find(|&(_, free)| free != 0)
        .map_or(words * 32, |(w, free)| w * 32 + free.trailing_zeros());
    let mut count = 0;
    for w in 0..words {
        let common = common_word(params.mask, low, flip, w);
        let wanted = !bits[w as usize] & !common & below_word(c, w);
        missing[w as usize] = wanted;
        count += wanted.count_ones();
    }
    (c, count)
}

/// Scans the split pairs with both parts below s by the smaller part a,
/// in the shader's chunks of WG · SCAN_PER_THREAD, clearing the missing
/// values they reach; returns the pairs read.
fn scan_below(
    params: &PassParams,
    code: &[u32],
    table: &[&[u32]],
    n: u32,
    c: u32,
    mut left: u32,
    missing: &mut [u32],
) -> u32 {
    let (takes, splits) = (code[0] as usize, code[1] as usize);
    let split_at = 2 + 2 * takes;
    let digit = |k: usize| (code[split_at + 2 * k], code[split_at + 2 * k + 1]);
    let (mut a0, mut a_end) = (u32::MAX, 0);
    for k in 0..splits {
        let (j, diff) = digit(k);
        if n >= j + 2 {
            let (lo, hi) = pair_range(n - j, diff, params.s);
            if lo <= hi {
                (a0, a_end) = (a0.min(lo), a_end.max(hi + 1));
            }
        }
    }
    let mut pairs = 0;
    while left != 0 && a0 < a_end {
        for k in 0..splits {
            let (j, diff) = digit(k);
            if n < j + 2 {
                continue;
            }
            let m = n - j;
            let (lo, hi) = pair_range(m, diff, params.s);
            let (from, to) = (lo.max(a0), (hi + 1).min(a0 + WG * SCAN_PER_THREAD));
            if from >= to {
                continue;
            }
            pairs += to - from;
            for a in from..to {
                let v = g(params, table, a) ^ g(params, table, m - a);
                let bit = 1 << (v & 31);
                if v < c && missing[(v >> 5) as usize] & bit != 0 {
                    missing[(v >> 5) as usize] &= !bit;
                    left -= 1;
                }
            }
        }
        a0 += WG * SCAN_PER_THREAD;
    }
    pairs
}
