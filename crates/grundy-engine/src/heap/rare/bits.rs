//! Bit helpers of the value bitsets: set, clear, find, transpose.

/// Transposes a 64 × 64 matrix of bits: bit i of word k goes to bit k of
/// word i (six rounds of swapping ever smaller blocks).
pub(super) fn transpose64(a: &mut [u64; 64]) {
    let (mut j, mut m) = (32, 0x0000_0000_FFFF_FFFFu64);
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

/// Sets value v's bit in `bits`.
#[inline]
pub(super) fn set_bit(bits: &mut [u64], v: u32) {
    bits[(v >> 6) as usize] |= 1 << (v & 63);
}

/// Marks kept in a fixed array of words while many are made, then folded
/// into a bitset: no bounds check, and words the compiler knows apart from
/// the table the marks are read from (values below `64 * LOCAL_WORDS`).
#[derive(Default)]
pub(super) struct LocalMarks([u64; LOCAL_WORDS]);

/// Words a `LocalMarks` holds (values below 1024).
pub(super) const LOCAL_WORDS: usize = 16;

impl LocalMarks {
    /// Whether a bitset of `words` words fits.
    pub(super) fn fits(words: usize) -> bool {
        words <= LOCAL_WORDS
    }

    #[inline(always)]
    pub(super) fn mark(&mut self, v: u32) {
        self.0[(v >> 6) as usize & (LOCAL_WORDS - 1)] |= 1 << (v & 63);
    }

    /// Sets the marks' bits in `bits`.
    pub(super) fn fold_into(self, bits: &mut [u64]) {
        bits.iter_mut()
            .zip(self.0)
            .for_each(|(word, marks)| *word |= marks);
    }
}

/// The lowest `k` bits set (all 64 from k = 64 on).
pub(super) fn low_bits(k: u32) -> u64 {
    if k >= 64 { !0 } else { (1u64 << k) - 1 }
}

/// Clears every bit from value `c` on.
pub(super) fn clear_from(bits: &mut [u64], c: u32) {
    let w = (c / 64) as usize;
    if w < bits.len() {
        bits[w] &= (1u64 << (c % 64)) - 1;
        for word in &mut bits[w + 1..] {
            *word = 0;
        }
    }
}

/// The smallest set bit of `bits` at `from` or above.
pub(super) fn first_set_from(bits: &[u64], from: u32) -> Option<u32> {
    let w = (from / 64) as usize;
    let first = bits.get(w)? & (!0u64 << (from % 64));
    if first != 0 {
        return Some(w as u32 * 64 + first.trailing_zeros());
    }
    bits[w + 1..]
        .iter()
        .position(|&x| x != 0)
        .map(|i| (w + 1 + i) as u32 * 64 + bits[w + 1 + i].trailing_zeros())
}

/// The smallest set bit of `bits` (the capacity when none is).
pub(super) fn first_set(bits: &[u64]) -> u32 {
    bits.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map_or(bits.len() as u32 * 64, |(i, w)| {
            i as u32 * 64 + w.trailing_zeros()
        })
}

/// Bit i set when value 64·w + i is common at a heap with this flip.
#[inline]
pub(super) fn common_word(mask: u32, flip: u32, w: usize) -> u64 {
    // Parity of popcount((64w + i) & mask) = parity of the high part xor
    // parity of the low 6 bits; the low part repeats in every word.
    let high = ((w as u32 * 64) & mask).count_ones() & 1;
    let low = LOW_PARITY[(mask & 63) as usize];
    if (high ^ flip) == 1 { !low } else { low }
}

/// LOW_PARITY[m] bit i: popcount(i & m) is odd, for i < 64.
pub(super) const LOW_PARITY: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut m = 0;
    while m < 64 {
        let mut i = 0;
        while i < 64 {
            if (i & m as u32).count_ones() & 1 == 1 {
                table[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    table
};

/// The smallest value whose bit is clear in `bits` and set in `wanted(w)`,
/// or the bitset's capacity.
#[inline]
pub(super) fn first_unmarked(bits: &[u64], wanted: impl Fn(usize) -> u64) -> u32 {
    for (w, &word) in bits.iter().enumerate() {
        let free = !word & wanted(w);
        if free != 0 {
            return w as u32 * 64 + free.trailing_zeros();
        }
    }
    bits.len() as u32 * 64
}

/// How many values below `c` are unmarked.
#[inline]
pub(super) fn unmarked_below(bits: &[u64], c: u32) -> u32 {
    let full = (c / 64) as usize;
    let mut count: u32 = bits[..full].iter().map(|w| (!w).count_ones()).sum();
    if !c.is_multiple_of(64) {
        count += (!bits[full] & ((1u64 << (c % 64)) - 1)).count_ones();
    }
    count
}

/// Bitset words for values below `2 * next_pow2(max + 1)`: every option of
/// a table whose values are at most `max` is below the power of two, and the
/// mex fits in the other half.
pub(super) fn words_for(max: u32) -> usize {
    ((2 * (max + 1).next_power_of_two()) as usize).div_ceil(64)
}
