//! CPU twin of `shaders/shared/tuple_common.wgsl`: the mex bitset and the tuple
//! helpers the rectangle and Delete Nim kernels share. Ranks are
//! `TupleSpace::rank` and `TupleSpace::unrank`.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::kernel::tuples::space::MAX_HEAPS;
use crate::kernel::tuples::{OVERFLOW, VALUE_WORDS};

/// A tuple as the kernels hold it.
pub type Tuple = [u32; MAX_HEAPS];

/// The first position of a level whose value passed 255 (its rank).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    pub rank: u32,
}

/// Option values seen so far, below 256.
#[derive(Clone, Copy, Default)]
pub struct Seen(pub [u32; VALUE_WORDS]);

impl Seen {
    pub fn mark(&mut self, v: u32) {
        if v < 32 * VALUE_WORDS as u32 {
            self.0[(v >> 5) as usize] |= 1 << (v & 31);
        }
    }

    pub fn mex(&self) -> u32 {
        for (i, &w) in self.0.iter().enumerate() {
            if w != u32::MAX {
                return 32 * i as u32 + (!w).trailing_zeros();
            }
        }
        OVERFLOW
    }

    /// The mex, or `no_move` when nothing was marked (a position without a
    /// move: every option marks its value, all below 256).
    pub fn mex_or(&self, no_move: u32) -> u32 {
        if self.0.iter().all(|&w| w == 0) {
            return no_move;
        }
        self.mex()
    }
}

/// Sorts the first n entries (n <= 8: insertion sort).
pub fn sort_tuple(h: &mut Tuple, n: usize) {
    for i in 1..n {
        let x = h[i];
        let mut j = i;
        while j > 0 && h[j - 1] > x {
            h[j] = h[j - 1];
            j -= 1;
        }
        h[j] = x;
    }
}

pub fn table_get(table: &[AtomicU32], rank: u32) -> u32 {
    table[rank as usize].load(Ordering::Relaxed)
}

/// Stores a position's value, or reports the first value past 255.
pub fn store_value(table: &[AtomicU32], rank: u32, g: u32) -> Result<(), Overflow> {
    if g == OVERFLOW {
        return Err(Overflow { rank });
    }
    table[rank as usize].store(g, Ordering::Relaxed);
    Ok(())
}

/// A table of `count` values up to 255 from a fixed xorshift walk seeded
/// with `seed` (not 0), for the kernels' tests.
#[cfg(test)]
pub fn random_table(count: u64, seed: u32) -> Vec<AtomicU32> {
    let mut x = seed;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            AtomicU32::new(x & 255)
        })
        .collect()
}
