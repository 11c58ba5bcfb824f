//! CPU twin of `shaders/graph_level.wgsl`: the value of every position of
//! one level (subsets of `k` vertices, by colex rank) of a graph octal game.
//!
//! A disconnected position is its first component's value xor the rest's
//! (both in earlier levels) under normal play. A connected one is the mex of
//! the positions left by removing a connected set of `i` vertices, when digit
//! `i` allows the number of pieces left (the connected sets come from
//! `game::connected_sets`). Under misère play a sum's value does not follow
//! from its parts', so a disconnected position is the mex over the moves of
//! every component too (`sum_value`), and a position without a move is
//! worth 1.
//!
//! Table bytes: the value in bits 0-6, bit 7 set when the position is
//! connected, so a move leaving one piece is recognised by one lookup.

use crate::game::Convention;
use crate::setting::Setting;
use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use crate::game::connected_sets::{
    for_each_connected_set, for_each_connected_set_from, next_colex,
};
use crate::kernel::graph::{CONNECTED, GraphKernel, MAX_VALUE, OVERFLOW, VALUE_BITS};

/// A value above `MAX_VALUE` appeared at this position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    pub mask: u64,
}

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the position {:#x} has a value above {MAX_VALUE}, the most the dense table holds; \
             use {} (values up to 255)",
            self.mask,
            Setting::Solver.is("memo")
        )
    }
}

fn table_get(table: &[AtomicU8], mask: u64) -> u32 {
    table[mask as usize].load(Ordering::Relaxed) as u32
}

fn neighbours(kern: &GraphKernel, vertices: u64, within: u64) -> u64 {
    let mut acc = 0u64;
    let mut s = vertices;
    while s != 0 {
        acc |= kern.adj[s.trailing_zeros() as usize];
        s &= s - 1;
    }
    acc & within
}

/// The component of `mask` holding the lowest vertex of `start`.
fn component(kern: &GraphKernel, mask: u64, start: u64) -> u64 {
    let mut comp = start & start.wrapping_neg();
    let mut frontier = comp;
    while frontier != 0 {
        let grown = neighbours(kern, frontier, mask) & !comp;
        comp |= grown;
        frontier = grown;
    }
    comp
}

/// Components of `rest`, counted up to 3 (no digit allows more than 2).
fn count_pieces(kern: &GraphKernel, rest: u64) -> u32 {
    let mut left = rest;
    let mut pieces = 0;
    while left != 0 && pieces < 3 {
        left &= !component(kern, left, left);
        pieces += 1;
    }
    pieces
}

/// Whether the digit allows the pieces `rest` falls into, `rest` being
/// what a move leaves of the component it was played in and `entry` its
/// table byte.
fn pieces_allowed(kern: &GraphKernel, rest: u64, entry: u32, digit: u32) -> bool {
    let mut pieces = 3;
    if rest == 0 {
        pieces = 0;
    } else if entry & CONNECTED != 0 {
        pieces = 1;
    } else if digit & 4 != 0 {
        pieces = count_pieces(kern, rest);
    }
    pieces < 3 && (digit >> pieces) & 1 == 1
}

fn mark(seen: &mut [u32; 4], entry: u32) {
    let g = entry & VALUE_BITS;
    seen[(g >> 5) as usize] |= 1 << (g & 31);
}

/// Marks in `seen` the value left by removing a connected set from the
/// connected position, when the digit allows the number of pieces left;
/// `entry` is the table byte of what is left (`rest`).
fn play_move(kern: &GraphKernel, rest: u64, entry: u32, digit: u32, seen: &mut [u32; 4]) {
    if pieces_allowed(kern, rest, entry, digit) {
        mark(seen, entry);
    }
}

/// Moves per run of `Moves`.
const MOVES_RUN: usize = 32;

/// Moves waiting for their table bytes. The table is far larger than the
/// caches and each load a likely miss: read in a run, with no branch
/// between them, the loads overlap (a GPU hides the same latency with
/// other threads, so the shader plays each move at once).
struct Moves {
    rest: [u64; MOVES_RUN],
    digit: [u32; MOVES_RUN],
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            rest: [0; MOVES_RUN],
            digit: [0; MOVES_RUN],
            len: 0,
        }
    }

    fn push(
        &mut self,
        kern: &GraphKernel,
        table: &[AtomicU8],
        rest: u64,
        digit: u32,
        seen: &mut [u32; 4],
    ) {
        self.rest[self.len] = rest;
        self.digit[self.len] = digit;
        self.len += 1;
        if self.len == MOVES_RUN {
            self.play(kern, table, seen);
        }
    }

    /// Plays every waiting move.
    fn play(&mut self, kern: &GraphKernel, table: &[AtomicU8], seen: &mut [u32; 4]) {
        let mut entries = [0u32; MOVES_RUN];
        for (e, &rest) in entries.iter_mut().zip(&self.rest[..self.len]) {
            *e = table_get(table, rest);
        }
        let waiting = self
            .rest
            .iter()
            .zip(&entries)
            .zip(&self.digit)
            .take(self.len);
        for ((&rest, &entry), &digit) in waiting {
            if digit & 4 != 0 {
                play_move(kern, rest, entry, digit, seen);
                continue;
            }
            // Without a split, play_move's test without its branches: the
            // piece count is 0 (nothing left) or 1 (connected), and whether
            // a removal disconnects is too random to predict.
            let pieces_bit = (rest == 0) as u32 | ((entry & CONNECTED != 0) as u32) << 1;
            let allowed = (digit & pieces_bit != 0) as u32;
            let g = entry & VALUE_BITS;
            seen[(g >> 5) as usize] |= allowed << (g & 31);
        }
        self.len = 0;
    }
}

/// Marks in `seen` the values of the positions left by removing a connected
/// set of `size` vertices from the connected position `mask`.
fn mark_options(
    kern: &GraphKernel,
    table: &[AtomicU8],
    mask: u64,
    size: usize,
    seen: &mut [u32; 4],
    moves: &mut Moves,
) {
    let digit = kern.digits[size] as u32;
    for_each_connected_set(&kern.adj, mask, size, |chosen| {
        moves.push(kern, table, mask & !chosen, digit, seen)
    });
}

fn mex(seen: &[u32; 4]) -> u32 {
    for (i, &w) in seen.iter().enumerate() {
        if w != u32::MAX {
            return 32 * i as u32 + (!w).trailing_zeros();
        }
    }
    128
}

/// The value of a position from the values its moves reach: their mex, or
/// the convention's value when it has no move (`OVERFLOW` past `MAX_VALUE`).
fn value_of(kern: &GraphKernel, seen: &[u32; 4]) -> u32 {
    let g = kern.convention.value(seen != &[0; 4], mex(seen));
    if g > MAX_VALUE { OVERFLOW } else { g }
}

/// The table byte of one position, all of whose options are in the table:
/// its value, with `CONNECTED` set when it is one piece (`OVERFLOW` when
/// the value is above `MAX_VALUE`).
pub fn position_value(kern: &GraphKernel, table: &[AtomicU8], mask: u64) -> u32 {
    let first = component(kern, mask, mask);
    if first != mask {
        if kern.convention == Convention::Misere {
            return sum_value(kern, table, mask);
        }
        let v = table_get(table, first) ^ table_get(table, mask & !first);
        return v & VALUE_BITS;
    }
    connected_value(kern, table, mask)
}

/// The misère value of a disconnected position: the mex over the moves of
/// every component. A move's pieces are read from what it leaves of its
/// component, its value from what it leaves of the whole position.
pub fn sum_value(kern: &GraphKernel, table: &[AtomicU8], mask: u64) -> u32 {
    let mut seen = [0u32; 4];
    let mut left = mask;
    while left != 0 {
        let comp = component(kern, left, left);
        left &= !comp;
        let others = mask & !comp;
        for size in 1..kern.digits.len() {
            let digit = kern.digits[size] as u32;
            if digit == 0 || size > comp.count_ones() as usize {
                continue;
            }
            for_each_connected_set(&kern.adj, comp, size, |chosen| {
                let rest = comp & !chosen;
                if pieces_allowed(kern, rest, table_get(table, rest), digit) {
                    mark(&mut seen, table_get(table, others | rest));
                }
            });
        }
    }
    value_of(kern, &seen)
}

/// The table byte of a connected position: the mex over its moves.
pub fn connected_value(kern: &GraphKernel, table: &[AtomicU8], mask: u64) -> u32 {
    let mut seen = [0u32; 4];
    let mut moves = Moves::new();
    for size in 1..kern.digits.len() {
        if kern.digits[size] != 0 && size <= mask.count_ones() as usize {
            mark_options(kern, table, mask, size, &mut seen, &mut moves);
        }
    }
    moves.play(kern, table, &mut seen);
    match value_of(kern, &seen) {
        OVERFLOW => OVERFLOW,
        g => g | CONNECTED,
    }
}

/// Values of the positions of level `k`, in colex order, runs of them in parallel.
pub fn graph_level(kern: &GraphKernel, table: &[AtomicU8], k: usize) -> Result<(), Overflow> {
    const RUN: u64 = 4096;
    let count = kern.level_size(k);
    (0..count.div_ceil(RUN))
        .into_par_iter()
        .try_for_each(|run| {
            let start = run * RUN;
            let end = (start + RUN).min(count);
            let mut mask = kern.unrank(start, k);
            for _ in start..end {
                let g = position_value(kern, table, mask);
                if g == OVERFLOW {
                    return Err(Overflow { mask });
                }
                table[mask as usize].store(g as u8, Ordering::Relaxed);
                mask = next_colex(mask);
            }
            Ok(())
        })
}

/// The table bytes of the connected positions of level `k`, found by ESU
/// rooted at each vertex in parallel instead of by rank (disconnected
/// positions are skipped: the caller knows no move reaches them), then
/// valued in increasing order: positions close in the table have options
/// close in the table, so their loads share cache lines (ESU's own order
/// is slower: BENCHMARKS.md).
pub fn graph_level_connected(
    kern: &GraphKernel,
    table: &[AtomicU8],
    k: usize,
) -> Result<u64, Overflow> {
    let all = crate::game::graph::mask_below(kern.n);
    let mut masks: Vec<u64> = (0..kern.n)
        .into_par_iter()
        .flat_map_iter(|v| {
            let mut out = Vec::new();
            for_each_connected_set_from(&kern.adj, all, k, 1 << v, |mask| out.push(mask));
            out
        })
        .collect();
    masks.par_sort_unstable();
    masks.par_chunks(4096).try_for_each(|run| {
        for &mask in run {
            let g = connected_value(kern, table, mask);
            if g == OVERFLOW {
                return Err(Overflow { mask });
            }
            table[mask as usize].store(g as u8, Ordering::Relaxed);
        }
        Ok(())
    })?;
    Ok(masks.len() as u64)
}
