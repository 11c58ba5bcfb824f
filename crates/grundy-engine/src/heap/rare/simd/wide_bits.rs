//! Values below 64 turned into bits many at a time: each value v of a
//! one-byte table becomes bit v of a word (`1 << v`, many 64-bit lanes at
//! a time), and the words are ORed. Used where a Nim-sequence's values are
//! all below 64 (`.1777` past its last rare heap): the values of a heap's
//! middle split pairs, and the marks of eight heaps at once from options
//! at least eight heaps below them. Written once in portable SIMD
//! (`fearless_simd`) for every path: AVX-512, AVX2, NEON, SSE4.2.

use std::sync::OnceLock;

use fearless_simd::Level;

use super::path as simd;

/// The level the bit steps run at in this process (`None`: the plain
/// path), looked up once, as they are called for every heap.
fn level() -> Option<Level> {
    static LEVEL: OnceLock<Option<Level>> = OnceLock::new();
    *LEVEL.get_or_init(|| simd::level(simd::chosen()))
}

/// The values `low[k] ^ high[len − 1 − k]` (all below 64) as bits; `None`
/// on the `plain` path.
pub fn pair_bits(low: &[u8], high: &[u8]) -> Option<u64> {
    level().map(|level| portable::pair_bits(level, low, high))
}

/// For the eight heaps n..n + 8: the bits `1 << ((x ^ g[n + k − d]) & 63)`
/// of every entry (d, x), where every d is at least 8 (so every value read
/// lies below n); `None` on the `plain` path.
pub fn eight_heaps(g: &[u8], n: usize, entries: &[(usize, u32)]) -> Option<[u64; 8]> {
    level().map(|level| portable::eight_heaps(level, g, n, entries))
}

/// The bit steps in portable SIMD (`fearless_simd`): the values read as
/// bytes of 64-bit lanes, each byte shifted down to a count, so no
/// widening step is needed (NEON has none from bytes to 64 bits).
mod portable {
    use fearless_simd::{Bytes, Level, Simd, SimdBase, u8x32, u64x4, u64x8};

    use crate::heap::rare::simd::wide_scan::next_start;

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
            let xored = u64::from_le_bytes(eight) ^ ((x as u64 & 63) * 0x0101_0101_0101_0101);
            let counts = simd.shrv_u64x8(u64x8::splat(simd, xored), at) & low6;
            acc |= simd.shlv_u64x8(one, counts);
        }
        acc.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type PairBits = Box<dyn Fn(&[u8], &[u8]) -> u64>;
    type EightHeaps = Box<dyn Fn(&[u8], usize, &[(usize, u32)]) -> [u64; 8]>;

    /// The portable code at every level this CPU runs it at, whatever
    /// GRUNDY_SIMD chose (on x86, SSE4.2 stands for NEON's 128-bit
    /// registers).
    fn ways() -> Vec<(String, PairBits, EightHeaps)> {
        let mut ways: Vec<(String, PairBits, EightHeaps)> = Vec::new();
        for path in [simd::Simd::Portable, simd::Simd::Avx2, simd::Simd::Avx512] {
            if let Some(level) = simd::level(path).filter(|_| path <= simd::detected()) {
                ways.push((
                    format!("{} at {level:?}", path.name()),
                    Box::new(move |l, h| portable::pair_bits(level, l, h)),
                    Box::new(move |g, n, e| portable::eight_heaps(level, g, n, e)),
                ));
            }
        }
        assert!(!ways.is_empty() || simd::detected() == simd::Simd::Plain);
        ways
    }

    #[test]
    fn pair_bits_are_the_pairs_values() {
        for (name, pair_bits, _) in ways() {
            let mut next = crate::heap::xorshift(0x00dd_ba11);
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
            let mut next = crate::heap::xorshift(0x00dd_ba11);
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
