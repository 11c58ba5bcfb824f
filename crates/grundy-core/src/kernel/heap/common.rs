//! CPU twin of `shaders/shared/heap_common.wgsl`: digit lookup, bitset width and
//! the two-heap split rule, read the same way as on the GPU.

use crate::kernel::heap::{HeapKernelCode, MAX_WORDS, MOD_ALL_EQUAL, MOD_PLAIN};

impl HeapKernelCode {
    /// Digit `j` (CPU twin of `shaders/shared/code_digits.wgsl`).
    pub fn digit(&self, j: u32) -> u32 {
        if j < self.prefix_len {
            return self.digits[j as usize];
        }
        if self.tail_len == 0 {
            return 0;
        }
        self.digits[(self.prefix_len + (j - self.prefix_len) % self.tail_len) as usize]
    }

    /// Splits of m into heaps (a, m - a), a <= m - a, allowed by digit d: a
    /// runs over `x..=y`; empty when x > y.
    pub fn split_range(&self, d: u32, m: u32) -> (u32, u32) {
        let modifier = (d >> 8) & 3;
        if d & 4 == 0 || m < 2 {
            return (1, 0);
        }
        if modifier == MOD_ALL_EQUAL {
            if m & 1 == 0 && self.min_diff == 0 {
                return (m / 2, m / 2);
            }
            return (1, 0);
        }
        let mut diff = self.min_diff;
        if modifier != MOD_PLAIN {
            diff = diff.max(1);
        }
        if (m as u64) < diff as u64 + 2 {
            return (1, 0);
        }
        (1, (m - diff) / 2)
    }
}

/// Bitset words for a block whose earlier values are all <= max_value: twice
/// the next power of two, so that no option of the block can fill it.
pub fn capacity_words(max_value: u32, min_words: u32) -> u32 {
    let pow2 = 1u32 << (31 - (max_value | 1).leading_zeros() + 1);
    let words = (2 * pow2).max(64) / 32;
    words.max(min_words).min(MAX_WORDS)
}

/// An option bitset of `words` words.
pub struct Bits(pub Vec<u32>);

impl Bits {
    /// The shader reads the word before its atomic OR (threads share a
    /// read); one thread here needs no read.
    pub fn mark(&mut self, v: u32) {
        self.0[(v >> 5) as usize] |= 1 << (v & 31);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_doubles_the_next_power_of_two() {
        assert_eq!(capacity_words(0, 1), 2);
        assert_eq!(capacity_words(31, 1), 2);
        assert_eq!(capacity_words(32, 1), 4);
        assert_eq!(capacity_words(255, 1), 16);
        assert_eq!(capacity_words(3, 8), 8);
        assert_eq!(capacity_words(65535, 1), MAX_WORDS);
    }
}
