//! Values below 64 turned into bits many at a time: each value v of a
//! one-byte table becomes bit v of a word (`1 << v`, many 64-bit lanes at
//! a time), and the words are ORed. Used where a Nim-sequence's values are
//! all below 64 (`.1777` past its last rare heap): the values of a heap's
//! middle split pairs, and the marks of eight heaps at once from options
//! at least eight heaps below them. AVX-512 (F, BW, VBMI) in intrinsics;
//! AVX2 and NEON written once in portable SIMD (`fearless_simd`).

use std::sync::OnceLock;

use fearless_simd::Level;

use crate::heap::simd;

/// How the bit steps run in this process: chosen once, as they are called
/// for every heap.
#[derive(Clone, Copy)]
enum Way {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    Portable(Level),
    Plain,
}

fn way() -> Way {
    static WAY: OnceLock<Way> = OnceLock::new();
    *WAY.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if avx512::has() {
            return Way::Avx512;
        }
        simd::level(simd::chosen()).map_or(Way::Plain, Way::Portable)
    })
}

/// The values `low[k] ^ high[len − 1 − k]` (all below 64) as bits; `None`
/// on the `plain` path.
pub fn pair_bits(low: &[u8], high: &[u8]) -> Option<u64> {
    match way() {
        // SAFETY: `way` checked that the CPU has the features.
        #[cfg(target_arch = "x86_64")]
        Way::Avx512 => Some(unsafe { avx512::pair_bits(low, high) }),
        Way::Portable(level) => Some(portable::pair_bits(level, low, high)),
        Way::Plain => None,
    }
}

/// For the eight heaps n..n + 8: the bits `1 << ((x ^ g[n + k − d]) & 63)`
/// of every entry (d, x), where every d is at least 8 (so every value read
/// lies below n); `None` on the `plain` path.
pub fn eight_heaps(g: &[u8], n: usize, entries: &[(usize, u32)]) -> Option<[u64; 8]> {
    match way() {
        // SAFETY: `way` checked that the CPU has the features.
        #[cfg(target_arch = "x86_64")]
        Way::Avx512 => Some(unsafe { avx512::eight_heaps(g, n, entries) }),
        Way::Portable(level) => Some(portable::eight_heaps(level, g, n, entries)),
        Way::Plain => None,
    }
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

/// The bit steps in portable SIMD (`fearless_simd`): the values read as
/// bytes of 64-bit lanes, each byte shifted down to a count, so no
/// widening step is needed (NEON has none from bytes to 64 bits).
mod portable {
    use fearless_simd::{Bytes, Level, Simd, SimdBase, u8x32, u64x4, u64x8};

    use crate::heap::wide_scan::next_start;

    pub fn pair_bits(level: Level, low: &[u8], high: &[u8]) -> u64 {
        fearless_simd::dispatch!(level, simd => pair_bits_at(simd, low, high))
    }

    pub fn eight_heaps(level: Level, g: &[u8], n: usize, entries: &[(usize, u32)]) -> [u64; 8] {
        fearless_simd::dispatch!(level, simd => eight_heaps_at(simd, g, n, entries))
    }

    /// `1 << b` of each byte b of `words` (every one below 64), ORed
    /// in pairs so that no OR waits on more than three before it.
    #[inline(always)]
    fn bits_of<S: Simd>(simd: S, words: u64x4<S>) -> u64x4<S> {
        let (one, low6) = (u64x4::splat(simd, 1), u64x4::splat(simd, 63));
        let bit = |byte: u32| simd.shlv_u64x4(one, (words >> (8 * byte)) & low6);
        ((bit(0) | bit(1)) | (bit(2) | bit(3))) | ((bit(4) | bit(5)) | (bit(6) | bit(7)))
    }

    #[inline(always)]
    pub(super) fn pair_bits_at<S: Simd>(simd: S, low: &[u8], high: &[u8]) -> u64 {
        let len = low.len();
        assert_eq!(high.len(), len);
        let mut acc = u64x4::splat(simd, 0);
        let mut k = 0;
        // A last part shorter than the register is read as the register's
        // width before the end (an OR of a pair twice changes nothing).
        while let Some(at) = next_start(k, len, 32) {
            let x = u8x32::from_slice(simd, &low[at..at + 32]);
            let y = u8x32::from_slice(simd, &high[len - at - 32..len - at]).reverse();
            acc |= bits_of(simd, u64x4::from_bytes(x ^ y));
            k = at + 32;
        }
        let rest = (k..len).fold(0u64, |bits, i| {
            bits | 1 << ((low[i] ^ high[len - 1 - i]) & 63)
        });
        acc.as_slice().iter().fold(rest, |bits, &lane| bits | lane)
    }

    #[inline(always)]
    pub(super) fn eight_heaps_at<S: Simd>(
        simd: S,
        g: &[u8],
        n: usize,
        entries: &[(usize, u32)],
    ) -> [u64; 8] {
        // Lane k takes byte k of the eight values.
        let at = u64x8::from_slice(simd, &[0, 8, 16, 24, 32, 40, 48, 56]);
        let (one, low6) = (u64x8::splat(simd, 1), u64x8::splat(simd, 63));
        let mut acc = u64x8::splat(simd, 0);
        for &(d, x) in entries {
            let eight: [u8; 8] = g[n - d..n - d + 8].try_into().unwrap();
            // (x ^ v) & 63 = ((x & 63) ^ v) & 63, byte by byte.
            let xored = u64::from_le_bytes(eight) ^ (x as u64 & 63) * 0x0101_0101_0101_0101;
            let counts = simd.shrv_u64x8(u64x8::splat(simd, xored), at) & low6;
            acc |= simd.shlv_u64x8(one, counts);
        }
        acc.into()
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

    /// Every wide way this CPU has, whatever GRUNDY_SIMD chose: the
    /// portable code at each level it runs at (on x86, SSE4.2 stands for
    /// NEON's 128-bit registers).
    fn ways() -> Vec<(String, PairBits, EightHeaps)> {
        let mut ways: Vec<(String, PairBits, EightHeaps)> = Vec::new();
        for path in [simd::Simd::Portable, simd::Simd::Avx2] {
            if let Some(level) = simd::level(path) {
                ways.push((
                    format!("portable at {level:?}"),
                    Box::new(move |l, h| portable::pair_bits(level, l, h)),
                    Box::new(move |g, n, e| portable::eight_heaps(level, g, n, e)),
                ));
            }
        }
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            if has!("avx512f") && has!("avx512bw") && has!("avx512vbmi") {
                // SAFETY (both): the CPU has the features, checked above.
                ways.push((
                    "avx512".into(),
                    Box::new(|l, h| unsafe { avx512::pair_bits(l, h) }),
                    Box::new(|g, n, e| unsafe { avx512::eight_heaps(g, n, e) }),
                ));
            }
        }
        assert!(!ways.is_empty() || simd::detected() == simd::Simd::Plain);
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
