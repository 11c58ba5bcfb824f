//! The scan of split pairs over a one-byte table, 32 pairs at a time where
//! the CPU has AVX2: the pairs' values G(a) ⊕ G(m − a) in one register and
//! their membership in the wanted set (256 bits) in a few shuffles, so a
//! block of 32 pairs that reaches no wanted value costs one test. A block
//! that does is looked at pair by pair, as `rare_values::scan_run` does.

/// Pairs (low[k], high[len − 1 − k]); `table[v]` is 1 for a wanted value v.
/// Clears the wanted values the pairs reach; `Some(true)` as soon as `left`
/// reaches 0, `Some(false)` when the pairs are done first, `None` when this
/// CPU has no AVX2 (the caller scans as before).
pub fn scan_bytes(
    low: &[u8],
    high: &[u8],
    table: &mut [u8; 1 << 16],
    left: &mut u32,
) -> Option<bool> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return Some(unsafe { avx2::scan(low, high, table, left) });
    }
    let _ = (low, high, table, left);
    None
}

/// Clears a wanted value a pair hit; true when none is left.
#[inline]
fn take(table: &mut [u8; 1 << 16], left: &mut u32, v: u8) -> bool {
    if table[v as usize] != 0 {
        table[v as usize] = 0;
        *left -= 1;
    }
    *left == 0
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::take;

    /// The wanted set as 32 bytes of bits: bit v % 8 of byte v / 8 (a
    /// byte mask of 32 table bytes is 32 bits of the set, in order).
    #[target_feature(enable = "avx2")]
    fn wanted_bits(table: &[u8; 1 << 16]) -> __m256i {
        let mut words = [0u32; 8];
        for (word, chunk) in words.iter_mut().zip(table[..256].chunks_exact(32)) {
            // SAFETY: reads the 32 bytes of `chunk`.
            let bytes = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
            let zero = _mm256_cmpeq_epi8(bytes, _mm256_setzero_si256());
            *word = !(_mm256_movemask_epi8(zero) as u32);
        }
        // SAFETY: reads the 32 bytes of `words`.
        unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
    }

    /// Whether any byte of `v` is in the set `bits`.
    #[target_feature(enable = "avx2")]
    fn any_wanted(v: __m256i, bits: __m256i) -> bool {
        // Byte v / 8 of the set: a shuffle looks up 16 bytes at a time.
        let index = _mm256_and_si256(_mm256_srli_epi16(v, 3), _mm256_set1_epi8(0x1f));
        let low_half = _mm256_permute2x128_si256(bits, bits, 0x00);
        let high_half = _mm256_permute2x128_si256(bits, bits, 0x11);
        let from_low = _mm256_shuffle_epi8(low_half, index);
        let from_high = _mm256_shuffle_epi8(high_half, index);
        let upper = _mm256_cmpeq_epi8(
            _mm256_and_si256(index, _mm256_set1_epi8(0x10)),
            _mm256_set1_epi8(0x10),
        );
        let byte = _mm256_blendv_epi8(from_low, from_high, upper);
        // Bit v % 8 of it.
        let powers = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0,
            0, 0, 0, 0, 0, 0, 0,
        );
        let bit = _mm256_shuffle_epi8(powers, _mm256_and_si256(v, _mm256_set1_epi8(7)));
        _mm256_testz_si256(byte, bit) == 0
    }

    /// The 32 bytes at `at` in reverse order.
    #[target_feature(enable = "avx2")]
    fn reversed(bytes: &[u8; 32]) -> __m256i {
        let reverse_lanes = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7,
            6, 5, 4, 3, 2, 1, 0,
        );
        // SAFETY: reads the 32 bytes of the array.
        let x = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let x = _mm256_shuffle_epi8(x, reverse_lanes);
        _mm256_permute2x128_si256(x, x, 0x01)
    }

    #[target_feature(enable = "avx2")]
    pub fn scan(low: &[u8], high: &[u8], table: &mut [u8; 1 << 16], left: &mut u32) -> bool {
        let len = low.len();
        let mut bits = wanted_bits(table);
        let mut k = 0;
        while k + 32 <= len {
            let x: &[u8; 32] = low[k..k + 32].try_into().unwrap();
            let y: &[u8; 32] = high[len - k - 32..len - k].try_into().unwrap();
            // SAFETY: reads the 32 bytes of `x`.
            let v = _mm256_xor_si256(
                unsafe { _mm256_loadu_si256(x.as_ptr().cast()) },
                reversed(y),
            );
            if any_wanted(v, bits) {
                let hit = (0..32).any(|i| take(table, left, x[i] ^ y[31 - i]));
                if hit {
                    return true;
                }
                bits = wanted_bits(table);
            }
            k += 32;
        }
        (k..len).any(|i| take(table, left, low[i] ^ high[len - 1 - i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan pair by pair: what the wide one must match.
    fn plain(low: &[u8], high: &[u8], table: &mut [u8; 1 << 16], left: &mut u32) -> bool {
        let len = low.len();
        (0..len).any(|i| take(table, left, low[i] ^ high[len - 1 - i]))
    }

    #[test]
    fn the_wide_scan_clears_what_the_plain_one_clears() {
        let mut seed = 0x5ca7_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let len = (next() % 200) as usize;
            let low: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let high: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            let mut a = Box::new([0u8; 1 << 16]);
            let wanted = next() % 6;
            for _ in 0..wanted {
                a[(next() % 256) as usize] = 1;
            }
            let mut b = a.clone();
            let need = a.iter().filter(|&&w| w != 0).count() as u32;
            if need == 0 {
                continue;
            }
            let (mut left_a, mut left_b) = (need, need);
            let Some(done) = scan_bytes(&low, &high, &mut a, &mut left_a) else {
                return; // no AVX2 here: nothing to compare
            };
            assert_eq!(done, plain(&low, &high, &mut b, &mut left_b), "case {case}");
            assert_eq!(left_a, left_b, "case {case}");
            assert_eq!(a[..256], b[..256], "case {case}");
        }
    }
}
