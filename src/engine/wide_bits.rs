//! Values below 64 turned into bits many at a time (AVX-512 where the CPU
//! has it): each value v of a one-byte table becomes bit v of a word
//! (`1 << v`, eight 64-bit lanes at a time), and the words are ORed. Used
//! where a Nim-sequence's values are all below 64 (`.1777` past its last
//! rare heap): the values of a heap's middle split pairs, and the marks of
//! eight heaps at once from options at least eight heaps below them.

/// The values `low[k] ^ high[len − 1 − k]` (all below 64) as bits; `None`
/// when this CPU has no AVX-512 (F, BW, VBMI).
pub fn pair_bits(low: &[u8], high: &[u8]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if avx512::has() {
        // SAFETY: the CPU has the features, checked just above.
        return Some(unsafe { avx512::pair_bits(low, high) });
    }
    let _ = (low, high);
    None
}

/// For the eight heaps n..n + 8: the bits `1 << ((x ^ g[n + k − d]) & 63)`
/// of every entry (d, x), where every d is at least 8 (so every value read
/// lies below n); `None` when this CPU has no AVX-512.
pub fn eight_heaps(g: &[u8], n: usize, entries: &[(usize, u32)]) -> Option<[u64; 8]> {
    #[cfg(target_arch = "x86_64")]
    if avx512::has() {
        // SAFETY: the CPU has the features, checked just above.
        return Some(unsafe { avx512::eight_heaps(g, n, entries) });
    }
    let _ = (g, n, entries);
    None
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use crate::engine::wide_scan::avx512::{byte_pairs, reverse_bytes};

    pub fn has() -> bool {
        use std::arch::is_x86_feature_detected as has;
        let allowed = crate::engine::simd::chosen() == crate::engine::simd::Simd::Avx512;
        allowed && has!("avx512f") && has!("avx512bw") && has!("avx512vbmi")
    }

    /// `1 << v` of each of the eight low bytes of `bytes`, ORed into `acc`
    /// (a count of 64 or more shifts the bit out).
    #[target_feature(enable = "avx512f")]
    fn or_bits(acc: __m512i, bytes: __m128i) -> __m512i {
        let counts = _mm512_cvtepu8_epi64(bytes);
        _mm512_or_si512(acc, _mm512_sllv_epi64(_mm512_set1_epi64(1), counts))
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub fn pair_bits(low: &[u8], high: &[u8]) -> u64 {
        let len = low.len();
        assert_eq!(high.len(), len);
        let reverse = reverse_bytes();
        let mut acc = _mm512_setzero_si512();
        let mut k = 0;
        while k < len {
            let t = (len - k).min(64);
            let valid = if t == 64 { !0 } else { (1u64 << t) - 1 };
            // Lanes past the pairs read 255: their bit is shifted out.
            let pairs = byte_pairs(reverse, low, high, k);
            let v = _mm512_mask_blend_epi8(valid, _mm512_set1_epi8(-1), pairs);
            let quarters = [
                _mm512_extracti32x4_epi32::<0>(v),
                _mm512_extracti32x4_epi32::<1>(v),
                _mm512_extracti32x4_epi32::<2>(v),
                _mm512_extracti32x4_epi32::<3>(v),
            ];
            // Only the quarters that hold pairs.
            for &quarter in &quarters[..t.div_ceil(16)] {
                acc = or_bits(acc, quarter);
                acc = or_bits(acc, _mm_srli_si128::<8>(quarter));
            }
            k += t;
        }
        _mm512_reduce_or_epi64(acc) as u64
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub fn eight_heaps(g: &[u8], n: usize, entries: &[(usize, u32)]) -> [u64; 8] {
        let mut acc = _mm512_setzero_si512();
        let low6 = _mm512_set1_epi64(63);
        for &(d, x) in entries {
            let eight: &[u8; 8] = g[n - d..n - d + 8].try_into().unwrap();
            // SAFETY: reads the 8 bytes of `eight`.
            let bytes = unsafe { _mm_loadl_epi64(eight.as_ptr().cast()) };
            let values = _mm512_xor_si512(_mm512_cvtepu8_epi64(bytes), _mm512_set1_epi64(x as i64));
            let counts = _mm512_and_si512(values, low6);
            acc = _mm512_or_si512(acc, _mm512_sllv_epi64(_mm512_set1_epi64(1), counts));
        }
        let mut out = [0u64; 8];
        // SAFETY: writes the 64 bytes of `out`.
        unsafe { _mm512_storeu_epi64(out.as_mut_ptr().cast(), acc) };
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random() -> impl FnMut() -> u64 {
        let mut seed = 0x00dd_ba11_u64;
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    #[test]
    fn pair_bits_are_the_pairs_values() {
        let mut next = random();
        for case in 0..300 {
            let len = (next() % 150) as usize;
            let low: Vec<u8> = (0..len).map(|_| (next() % 64) as u8).collect();
            let high: Vec<u8> = (0..len).map(|_| (next() % 64) as u8).collect();
            let Some(bits) = pair_bits(&low, &high) else {
                return; // no AVX-512 here: nothing to compare
            };
            let plain = (0..len).fold(0u64, |b, k| b | 1 << (low[k] ^ high[len - 1 - k]));
            assert_eq!(bits, plain, "case {case}");
        }
    }

    #[test]
    fn eight_heaps_are_each_heaps_marks() {
        let mut next = random();
        let g: Vec<u8> = (0..400).map(|_| (next() % 200) as u8).collect();
        for case in 0..200 {
            let n = 200 + (next() % 180) as usize;
            let entries: Vec<(usize, u32)> = (0..next() % 60)
                .map(|_| (8 + (next() % 150) as usize, (next() % 64) as u32))
                .collect();
            let Some(bits) = eight_heaps(&g, n, &entries) else {
                return;
            };
            for (k, &heap) in bits.iter().enumerate() {
                let plain = entries
                    .iter()
                    .fold(0u64, |b, &(d, x)| b | 1 << ((x ^ g[n + k - d] as u32) & 63));
                assert_eq!(heap, plain, "case {case}, heap n + {k}");
            }
        }
    }
}
