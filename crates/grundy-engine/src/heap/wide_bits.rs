//! Values below 64 turned into bits many at a time (AVX-512 or AVX2 where
//! the CPU has them): each value v of a one-byte table becomes bit v of a
//! word (`1 << v`, eight or four 64-bit lanes at a time), and the words
//! are ORed. Used
//! where a Nim-sequence's values are all below 64 (`.1777` past its last
//! rare heap): the values of a heap's middle split pairs, and the marks of
//! eight heaps at once from options at least eight heaps below them.

/// The values `low[k] ^ high[len − 1 − k]` (all below 64) as bits; `None`
/// when this CPU has neither AVX-512 (F, BW, VBMI) nor AVX2.
pub fn pair_bits(low: &[u8], high: &[u8]) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY (each): the CPU has the features, checked just before.
        if avx512::has() {
            return Some(unsafe { avx512::pair_bits(low, high) });
        }
        if avx2::has() {
            return Some(unsafe { avx2::pair_bits(low, high) });
        }
    }
    let _ = (low, high);
    None
}

/// For the eight heaps n..n + 8: the bits `1 << ((x ^ g[n + k − d]) & 63)`
/// of every entry (d, x), where every d is at least 8 (so every value read
/// lies below n); `None` when this CPU has neither AVX-512 nor AVX2.
pub fn eight_heaps(g: &[u8], n: usize, entries: &[(usize, u32)]) -> Option<[u64; 8]> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY (each): the CPU has the features, checked just before.
        if avx512::has() {
            return Some(unsafe { avx512::eight_heaps(g, n, entries) });
        }
        if avx2::has() {
            return Some(unsafe { avx2::eight_heaps(g, n, entries) });
        }
    }
    let _ = (g, n, entries);
    None
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use crate::heap::wide_scan::avx512::{byte_pairs, reverse_bytes};

    pub fn has() -> bool {
        use std::arch::is_x86_feature_detected as has;
        let allowed = crate::heap::simd::chosen() == crate::heap::simd::Simd::Avx512;
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

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    pub fn has() -> bool {
        use crate::heap::simd::{Simd, chosen};
        // `portable` keeps the bit steps plain, as on ARM.
        chosen() >= Simd::Avx2 && std::arch::is_x86_feature_detected!("avx2")
    }

    /// `1 << v` of each of the four low bytes of `bytes`, ORed into `acc`
    /// (a count of 64 or more shifts the bit out).
    #[target_feature(enable = "avx2")]
    fn or_bits(acc: __m256i, bytes: __m128i) -> __m256i {
        let counts = _mm256_cvtepu8_epi64(bytes);
        _mm256_or_si256(acc, _mm256_sllv_epi64(_mm256_set1_epi64x(1), counts))
    }

    /// The four 64-bit lanes of `acc` ORed.
    #[target_feature(enable = "avx2")]
    fn or_lanes(acc: __m256i) -> u64 {
        let half = _mm_or_si128(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256::<1>(acc),
        );
        (_mm_cvtsi128_si64(half) | _mm_extract_epi64::<1>(half)) as u64
    }

    #[target_feature(enable = "avx2")]
    pub fn pair_bits(low: &[u8], high: &[u8]) -> u64 {
        let len = low.len();
        assert_eq!(high.len(), len);
        let mut acc = _mm256_setzero_si256();
        let mut k = 0;
        while k + 16 <= len {
            let x: &[u8; 16] = low[k..k + 16].try_into().unwrap();
            let y: &[u8; 16] = high[len - k - 16..len - k].try_into().unwrap();
            let reverse = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
            // SAFETY: each load reads the 16 bytes of its array.
            let (x, y) = unsafe {
                (
                    _mm_loadu_si128(x.as_ptr().cast()),
                    _mm_loadu_si128(y.as_ptr().cast()),
                )
            };
            let v = _mm_xor_si128(x, _mm_shuffle_epi8(y, reverse));
            acc = or_bits(acc, v);
            acc = or_bits(acc, _mm_srli_si128::<4>(v));
            acc = or_bits(acc, _mm_srli_si128::<8>(v));
            acc = or_bits(acc, _mm_srli_si128::<12>(v));
            k += 16;
        }
        let rest = (k..len).fold(0u64, |bits, i| {
            bits | 1 << ((low[i] ^ high[len - 1 - i]) & 63)
        });
        or_lanes(acc) | rest
    }

    #[target_feature(enable = "avx2")]
    pub fn eight_heaps(g: &[u8], n: usize, entries: &[(usize, u32)]) -> [u64; 8] {
        let (mut first, mut last) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        let low6 = _mm256_set1_epi64x(63);
        let one = _mm256_set1_epi64x(1);
        for &(d, x) in entries {
            let eight: &[u8; 8] = g[n - d..n - d + 8].try_into().unwrap();
            // SAFETY: reads the 8 bytes of `eight`.
            let bytes = unsafe { _mm_loadl_epi64(eight.as_ptr().cast()) };
            let x = _mm256_set1_epi64x(x as i64);
            let bits = |four: __m128i| {
                let values = _mm256_xor_si256(_mm256_cvtepu8_epi64(four), x);
                _mm256_sllv_epi64(one, _mm256_and_si256(values, low6))
            };
            first = _mm256_or_si256(first, bits(bytes));
            last = _mm256_or_si256(last, bits(_mm_srli_si128::<4>(bytes)));
        }
        let mut out = [0u64; 8];
        // SAFETY: each store writes 32 of the 64 bytes of `out`.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast(), first);
            _mm256_storeu_si256(out.as_mut_ptr().add(4).cast(), last);
        }
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

    type PairBits = Box<dyn Fn(&[u8], &[u8]) -> u64>;
    type EightHeaps = Box<dyn Fn(&[u8], usize, &[(usize, u32)]) -> [u64; 8]>;

    /// Every wide way this CPU has, whatever GRUNDY_SIMD chose.
    fn ways() -> Vec<(&'static str, PairBits, EightHeaps)> {
        let mut ways: Vec<(&'static str, PairBits, EightHeaps)> = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vbmi") {
                // SAFETY (both): the CPU has the features, checked above.
                ways.push((
                    "avx512",
                    Box::new(|l, h| unsafe { avx512::pair_bits(l, h) }),
                    Box::new(|g, n, e| unsafe { avx512::eight_heaps(g, n, e) }),
                ));
            }
            if has!("avx2") {
                // SAFETY (both): the CPU has the feature, checked above.
                ways.push((
                    "avx2",
                    Box::new(|l, h| unsafe { avx2::pair_bits(l, h) }),
                    Box::new(|g, n, e| unsafe { avx2::eight_heaps(g, n, e) }),
                ));
            }
        }
        ways
    }

    #[test]
    fn pair_bits_are_the_pairs_values() {
        for (name, pair_bits, _) in ways() {
            let mut next = random();
            for case in 0..300 {
                let len = (next() % 150) as usize;
                let low: Vec<u8> = (0..len).map(|_| (next() % 64) as u8).collect();
                let high: Vec<u8> = (0..len).map(|_| (next() % 64) as u8).collect();
                let plain = (0..len).fold(0u64, |b, k| b | 1 << (low[k] ^ high[len - 1 - k]));
                assert_eq!(pair_bits(&low, &high), plain, "{name}, case {case}");
            }
        }
    }

    #[test]
    fn eight_heaps_are_each_heaps_marks() {
        for (name, _, eight_heaps) in ways() {
            let mut next = random();
            let g: Vec<u8> = (0..400).map(|_| (next() % 200) as u8).collect();
            for case in 0..200 {
                let n = 200 + (next() % 180) as usize;
                let entries: Vec<(usize, u32)> = (0..next() % 60)
                    .map(|_| (8 + (next() % 150) as usize, (next() % 64) as u32))
                    .collect();
                let bits = eight_heaps(&g, n, &entries);
                for (k, &heap) in bits.iter().enumerate() {
                    let plain = entries
                        .iter()
                        .fold(0u64, |b, &(d, x)| b | 1 << ((x ^ g[n + k - d] as u32) & 63));
                    assert_eq!(heap, plain, "{name}, case {case}, heap n + {k}");
                }
            }
        }
    }
}
