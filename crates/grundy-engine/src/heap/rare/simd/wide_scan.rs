//! The scan of split pairs for the wanted values, many pairs at a time:
//! the pairs' values G(a) ⊕ G(m − a) in one register and their membership
//! in the wanted set in a few shuffles, so a block of pairs that reaches no
//! wanted value costs one test; a block that does is looked at pair by
//! pair. With AVX-512 (BW, and VBMI for bytes): 64 pairs a test, in
//! intrinsics; with AVX2, NEON or SSE4.2, 32 pairs a test (a two-byte
//! table's values narrowed to bytes for one lookup), written once in
//! portable SIMD (`fearless_simd`); without any of them, eight pairs at a
//! time in scalar code. Wider tests take fewer branches: most of a scan's
//! cost beside the lookups is the blocks that hit a wanted value.

use crate::heap::storage::table::Value;

/// The scans a CPU may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wide {
    /// AVX-512 F, BW and VBMI: both tables.
    Avx512Vbmi,
    /// AVX-512 F and BW: two-byte tables.
    Avx512,
    /// AVX2: both tables (the portable scans at AVX2).
    Avx2,
    /// Portable SIMD at the CPU's level (NEON on ARM): both tables.
    Portable,
    Plain,
}

impl Wide {
    /// The scan of the path `simd::chosen` gives (never wider than the
    /// CPU's), with the level its portable code runs at: looked up once,
    /// as every scan starts from it.
    fn chosen() -> (Wide, Option<fearless_simd::Level>) {
        use std::sync::OnceLock;
        static CHOSEN: OnceLock<(Wide, Option<fearless_simd::Level>)> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let wide = Wide::of(super::path::chosen());
            (wide, wide.level())
        })
    }

    /// The scan of SIMD path `path`, which this CPU has.
    fn of(path: super::path::Simd) -> Wide {
        use super::path::Simd;
        match path {
            Simd::Plain => Wide::Plain,
            Simd::Portable => Wide::Portable,
            Simd::Avx2 => Wide::Avx2,
            Simd::Avx512 if has_vbmi() => Wide::Avx512Vbmi,
            Simd::Avx512 => Wide::Avx512,
        }
    }

    /// The level the portable scans run at (`None`: the plain scan).
    fn level(self) -> Option<fearless_simd::Level> {
        use super::path::{Simd, level};
        match self {
            Wide::Plain => None,
            Wide::Portable => level(Simd::Portable),
            Wide::Avx2 | Wide::Avx512 | Wide::Avx512Vbmi => level(Simd::Avx2),
        }
    }
}

/// AVX-512 VBMI, for the one-byte table's 64-pair scan.
fn has_vbmi() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx512vbmi");
    #[allow(unreachable_code, reason = "every other CPU")]
    false
}

/// The values a scan looks for: those below 512 as bits, for the wide
/// tests, and one byte per value (1 while wanted) for the values from 512
/// on, and for all of them on the plain path, whose test pair by pair is
/// then a load with no shift and no bounds check (every value of a `u8` or
/// `u16` table indexes it). The wide paths leave the bytes below 512
/// alone: setting and clearing one for every wanted value of every scan
/// was a measurable part of a run (BENCHMARKS.md).
pub struct Wanted<'t> {
    table: &'t mut [u8; 1 << 16],
    bits: [u64; 8],
    left: u32,
    /// The table holds the values below 512 too (the plain path).
    bytes_below_512: bool,
    wide: Wide,
    /// `wide.level()`.
    level: Option<fearless_simd::Level>,
}

impl<'t> Wanted<'t> {
    /// The values set in `words` (value 64w + i at bit i of word w);
    /// `table` is all zero.
    pub fn new(table: &'t mut [u8; 1 << 16], words: &[u64]) -> Wanted<'t> {
        let (wide, level) = Wide::chosen();
        Wanted::on(wide, level, table, words)
    }

    /// `new` for the scans `wide` at portable SIMD's `level`.
    fn on(
        wide: Wide,
        level: Option<fearless_simd::Level>,
        table: &'t mut [u8; 1 << 16],
        words: &[u64],
    ) -> Wanted<'t> {
        let bytes_below_512 = wide == Wide::Plain;
        let mut bits = [0u64; 8];
        bits.iter_mut()
            .zip(words)
            .for_each(|(bit, &word)| *bit = word);
        let from = if bytes_below_512 { 0 } else { bits.len() };
        for (w, &word) in words.iter().enumerate().skip(from) {
            for i in set_bits(word) {
                table[w * 64 + i as usize] = 1;
            }
        }
        Wanted {
            table,
            bits,
            left: words.iter().map(|w| w.count_ones()).sum(),
            bytes_below_512,
            wide,
            level,
        }
    }

    /// How many values are still wanted.
    #[cfg(test)]
    pub fn left(&self) -> u32 {
        self.left
    }

    /// Clears value v if it is wanted; true when none is left.
    #[inline]
    pub fn take(&mut self, v: usize) -> bool {
        let wanted = match self.bits.get_mut(v / 64) {
            Some(word) => {
                let bit = 1 << (v % 64);
                let wanted = *word & bit != 0;
                *word &= !bit;
                wanted
            }
            None => self.table[v] != 0,
        };
        if wanted {
            self.left -= 1;
            // Already zero below 512 on the wide paths: clearing it anyway
            // spares a branch.
            self.table[v] = 0;
        }
        self.left == 0
    }

    /// `take` for the wide scans, whose table holds no value below 512:
    /// such a value is cleared with no branch on whether it was wanted.
    #[inline(always)]
    fn take_unbranched(&mut self, v: usize) {
        match self.bits.get_mut(v / 64) {
            Some(word) => {
                self.left -= (*word >> (v % 64)) as u32 & 1;
                *word &= !(1 << (v % 64));
            }
            None => {
                self.take(v);
            }
        }
    }

    /// Clears the values of `words` that are no longer wanted, and leaves
    /// the table all zero.
    pub fn finish(self, words: &mut [u64]) {
        for (w, word) in words.iter_mut().enumerate() {
            if let Some(&bits) = self.bits.get(w) {
                if self.bytes_below_512 {
                    set_bits(bits).for_each(|i| self.table[w * 64 + i as usize] = 0);
                }
                *word = bits;
                continue;
            }
            for i in set_bits(*word) {
                let v = w * 64 + i as usize;
                if self.table[v] == 0 {
                    *word &= !(1 << i);
                }
                self.table[v] = 0;
            }
        }
    }

    /// Scans the pairs `(low[k], high[len − 1 − k])`, clearing the wanted
    /// values they reach; true as soon as none is left.
    #[inline]
    pub fn scan<T: Value>(&mut self, low: &[T], high: &[T]) -> bool {
        let (bytes, words) = (
            (T::bytes(low), T::bytes(high)),
            (T::words(low), T::words(high)),
        );
        #[cfg(target_arch = "x86_64")]
        match (self.wide, bytes, words) {
            // SAFETY (each arm): the CPU has the features `wide` names.
            (Wide::Avx512Vbmi, (Some(l), Some(h)), _) => {
                return unsafe { avx512::scan_bytes(self, l, h) };
            }
            (Wide::Avx512Vbmi | Wide::Avx512, _, (Some(l), Some(h))) => {
                return unsafe { avx512::scan_words(self, l, h) };
            }
            _ => {}
        }
        // AVX2, NEON and SSE4.2: one source (it matched the AVX2
        // intrinsics it replaced, BENCHMARKS.md).
        match (self.level, bytes, words) {
            (None, _, _) => {}
            (Some(level), (Some(l), Some(h)), _) => return portable::scan(level, self, l, h),
            (Some(level), _, (Some(l), Some(h))) => {
                return portable::scan_words(level, self, l, h);
            }
            _ => {}
        }
        self.scan_plain(low, high)
    }

    /// `scan` eight pairs at a time into eight bytes: loads that do not
    /// wait on each other, and one test for the eight; only a group that
    /// hit is looked at pair by pair.
    fn scan_plain<T: Value>(&mut self, low: &[T], high: &[T]) -> bool {
        let value = |x: &T, y: &T| -> usize { (x.narrow() ^ y.narrow()) as usize };
        let (lows, highs) = (low.chunks_exact(8), high.rchunks_exact(8));
        let (low_rest, high_rest) = (lows.remainder(), highs.remainder());
        for (x, y) in lows.zip(highs) {
            let (x, y): (&[T; 8], &[T; 8]) = (x.try_into().unwrap(), y.try_into().unwrap());
            let mut hits = [0u8; 8];
            for k in 0..8 {
                hits[k] = self.table[value(&x[k], &y[7 - k])];
            }
            if u64::from_ne_bytes(hits) != 0 && (0..8).any(|k| self.take(value(&x[k], &y[7 - k]))) {
                return true;
            }
        }
        low_rest
            .iter()
            .zip(high_rest.iter().rev())
            .any(|(x, y)| self.take(value(x, y)))
    }
}

/// Where the next 32 (or 16) pairs start: `k`, or for a last part
/// shorter than the register, the register's width before the end (a
/// second look at pairs already scanned clears nothing they did not);
/// `None` when the pairs are done or fewer than the register holds.
pub(crate) fn next_start(k: usize, len: usize, width: usize) -> Option<usize> {
    match (k + width <= len, k < len && len >= width) {
        (true, _) => Some(k),
        (false, true) => Some(len - width),
        (false, false) => None,
    }
}

/// The bit positions set in `word`, lowest first.
pub fn set_bits(mut word: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let i = word.trailing_zeros();
            word &= word - 1;
            i
        })
    })
}

/// Takes the values of the pairs (`x[i]`, `y[len − 1 − i]`) at the lanes
/// i set in `hits`; true when no value is left wanted. A value below 512
/// is cleared with no branch on whether it was still wanted (a value
/// repeated in the lanes made that branch a guess). (Scalar code: it needs
/// none of its caller's target features.)
#[inline(always)]
fn take_lanes<T: Copy + Into<u32>>(wanted: &mut Wanted, hits: u64, x: &[T], y: &[T]) -> bool {
    let last = x.len() - 1;
    for i in set_bits(hits) {
        let i = i as usize;
        wanted.take_unbranched((x[i].into() ^ y[last - i].into()) as usize);
    }
    wanted.left == 0
}

/// The scans in portable SIMD (the steps of the AVX2 intrinsics they
/// replaced): 32 pairs of a one-byte table or 16 of a two-byte one a
/// register, the set's byte v / 8 and its bit v % 8 by shuffles (for a
/// two-byte table, on the bytes of two registers' values at once). On x86
/// they run at AVX2 (their registers' width), elsewhere at the CPU's level
/// (NEON).
mod portable {
    use fearless_simd::{Bytes, Level, Select, Simd, SimdBase, SimdMask, u8x32, u16x16};

    use crate::heap::rare::simd::wide_scan::{Wanted, next_start, take_lanes};

    /// Bit v % 8 of a byte, for v % 8 looked up in each 16-byte block.
    const POWERS: [u8; 32] = [
        1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0,
        0, 0, 0, 0, 0,
    ];

    pub fn scan(level: Level, wanted: &mut Wanted, low: &[u8], high: &[u8]) -> bool {
        fearless_simd::dispatch!(level, simd => scan_bytes(simd, wanted, low, high))
    }

    pub fn scan_words(level: Level, wanted: &mut Wanted, low: &[u16], high: &[u16]) -> bool {
        fearless_simd::dispatch!(level, simd => scan_words_at(simd, wanted, low, high))
    }

    /// The wanted values below 256 as 32 bytes of bits: bit v % 8 of byte
    /// v / 8.
    #[inline(always)]
    fn wanted_bits<S: Simd>(simd: S, wanted: &Wanted) -> u8x32<S> {
        let bytes: &[u8; 64] = bytemuck::cast_ref(&wanted.bits);
        u8x32::from_slice(simd, &bytes[..32])
    }

    #[inline(always)]
    fn scan_bytes<S: Simd>(simd: S, wanted: &mut Wanted, low: &[u8], high: &[u8]) -> bool {
        let len = low.len();
        let powers = u8x32::from_slice(simd, &POWERS);
        let zero = u8x32::splat(simd, 0);
        let mut bits = wanted_bits(simd, wanted);
        let mut k = 0;
        while let Some(at) = next_start(k, len, 32) {
            k = at;
            let (x, y) = (&low[k..k + 32], &high[len - k - 32..len - k]);
            let v = u8x32::from_slice(simd, x) ^ u8x32::from_slice(simd, y).reverse();
            let byte = bits.swizzle_dyn(v >> 3);
            let bit = powers.swizzle_dyn_within_blocks(v & 7);
            let hits = !(byte & bit).simd_eq(zero).to_bitmask() & 0xffff_ffff;
            if hits != 0 {
                if take_lanes(wanted, hits, x, y) {
                    return true;
                }
                bits = wanted_bits(simd, wanted);
            }
            k += 32;
        }
        (k..len).any(|i| wanted.take((low[i] ^ high[len - 1 - i]) as usize))
    }

    /// The wanted values below 512 as 64 bytes of bits (bit v % 8 of byte
    /// v / 8), in two halves.
    #[inline(always)]
    fn wanted_halves<S: Simd>(simd: S, wanted: &Wanted) -> [u8x32<S>; 2] {
        let bytes: &[u8; 64] = bytemuck::cast_ref(&wanted.bits);
        [
            u8x32::from_slice(simd, &bytes[..32]),
            u8x32::from_slice(simd, &bytes[32..]),
        ]
    }

    /// The lanes of 16 pair values of a two-byte table whose value is in
    /// the set `halves`, or is 512 or more (the set does not hold those:
    /// they go pair by pair).
    #[inline(always)]
    fn hits_of_words<S: Simd>(simd: S, v: u16x16<S>, halves: &[u8x32<S>; 2]) -> u64 {
        // Byte v / 8 of the set, in each lane's low byte.
        let index = (v >> 3).to_bytes();
        let within = index & 31;
        let upper = (index & 32).simd_eq(u8x32::splat(simd, 32));
        let byte = upper.select(halves[1].swizzle_dyn(within), halves[0].swizzle_dyn(within));
        // Bit v % 8 of it.
        let powers = u8x32::from_slice(simd, &POWERS);
        let bit = powers.swizzle_dyn_within_blocks(v.to_bytes() & 7);
        let found = u16x16::from_bytes(byte & bit) & 0xff;
        let missed = found.simd_eq(u16x16::splat(simd, 0)) & v.simd_lt(u16x16::splat(simd, 512));
        !missed.to_bitmask() & 0xffff
    }

    /// `hits_of_words` for 32 pair values, `v0`'s lanes first: the lookup
    /// done once on their bytes (v / 8, saturated, and v % 8) instead of on
    /// each register's two-byte lanes.
    #[inline(always)]
    fn hits_of_two_words<S: Simd>(
        simd: S,
        [v0, v1]: [u16x16<S>; 2],
        halves: &[u8x32<S>; 2],
    ) -> u64 {
        // Byte v / 8 of the set; 64 or more for a value of 512 or more.
        let index = simd.saturating_narrow_u16x16(v0 >> 3, v1 >> 3);
        let within = index & 31;
        let upper = (index & 32).simd_eq(u8x32::splat(simd, 32));
        let byte = upper.select(halves[1].swizzle_dyn(within), halves[0].swizzle_dyn(within));
        // Bit v % 8 of it.
        let powers = u8x32::from_slice(simd, &POWERS);
        let bit = powers.swizzle_dyn_within_blocks(simd.narrow_u16x16(v0, v1) & 7);
        let small = index.simd_lt(u8x32::splat(simd, 64));
        let missed = (byte & bit).simd_eq(u8x32::splat(simd, 0)) & small;
        !missed.to_bitmask() & 0xffff_ffff
    }

    #[inline(always)]
    fn scan_words_at<S: Simd>(simd: S, wanted: &mut Wanted, low: &[u16], high: &[u16]) -> bool {
        let len = low.len();
        let mut halves = wanted_halves(simd, wanted);
        // 32 pairs a test: one branch, and one loop step, for two registers.
        let mut k = 0;
        while k + 32 <= len {
            let (x, y) = (&low[k..k + 32], &high[len - k - 32..len - k]);
            let v0 =
                u16x16::from_slice(simd, &x[..16]) ^ u16x16::from_slice(simd, &y[16..]).reverse();
            let v1 =
                u16x16::from_slice(simd, &x[16..]) ^ u16x16::from_slice(simd, &y[..16]).reverse();
            let hits = hits_of_two_words(simd, [v0, v1], &halves);
            if hits != 0 {
                if take_lanes(wanted, hits, x, y) {
                    return true;
                }
                halves = wanted_halves(simd, wanted);
            }
            k += 32;
        }
        while let Some(at) = next_start(k, len, 16) {
            k = at;
            let (x, y) = (&low[k..k + 16], &high[len - k - 16..len - k]);
            let v = u16x16::from_slice(simd, x) ^ u16x16::from_slice(simd, y).reverse();
            let hits = hits_of_words(simd, v, &halves);
            if hits != 0 {
                if take_lanes(wanted, hits, x, y) {
                    return true;
                }
                halves = wanted_halves(simd, wanted);
            }
            k += 16;
        }
        (k..len).any(|i| wanted.take((low[i] ^ high[len - 1 - i]) as usize))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512 {
    use std::arch::x86_64::*;

    use crate::heap::rare::simd::wide_scan::Wanted;

    /// The wanted values below 512 as 512 bits: value v at bit v % 16 of
    /// 16-bit word v / 16 (and at bit v % 8 of byte v / 8); with it how
    /// many they are (`write_back` puts them back).
    #[target_feature(enable = "avx512f")]
    fn wanted_bits(wanted: &Wanted) -> (__m512i, u32) {
        let small = wanted.bits.iter().map(|w| w.count_ones()).sum();
        // SAFETY: reads the 64 bytes of `bits`.
        (
            unsafe { _mm512_loadu_epi64(wanted.bits.as_ptr().cast()) },
            small,
        )
    }

    /// Lanes in reverse order: a run of the larger parts read backwards.
    const REVERSE_WORDS: [u16; 32] = {
        let mut index = [0u16; 32];
        let mut k = 0;
        while k < 32 {
            index[k] = 31 - k as u16;
            k += 1;
        }
        index
    };
    const REVERSE_BYTES: [u8; 64] = {
        let mut index = [0u8; 64];
        let mut k = 0;
        while k < 64 {
            index[k] = 63 - k as u8;
            k += 1;
        }
        index
    };

    /// The lane order that reads a run of 64 bytes backwards.
    #[target_feature(enable = "avx512f")]
    pub(crate) fn reverse_bytes() -> __m512i {
        // SAFETY: reads the 64 bytes of the array.
        unsafe { _mm512_loadu_epi8(REVERSE_BYTES.as_ptr().cast()) }
    }

    /// Lane i < t of the pairs' values `low[k + i] ^ high[len − 1 − k − i]`
    /// (t = the pairs left from k, at most 64); the lanes past t are zero.
    /// `reverse` is `reverse_bytes()`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(crate) fn byte_pairs(reverse: __m512i, low: &[u8], high: &[u8], k: usize) -> __m512i {
        let len = low.len();
        assert!(high.len() == len && k < len);
        let t = (len - k).min(64);
        let valid = lanes(t);
        // SAFETY: masked loads read lanes k..k + t of `low` and
        // len − k − t..len − k of `high` only (the others are neither read
        // nor faulted on), all inside the slices.
        let (x, y) = unsafe {
            let x = _mm512_maskz_loadu_epi8(valid, low.as_ptr().add(k).cast());
            let top = high.as_ptr().wrapping_add(len - k).wrapping_sub(64);
            let y = _mm512_maskz_loadu_epi8(valid << (64 - t), top.cast());
            (x, _mm512_permutexvar_epi8(reverse, y))
        };
        _mm512_xor_si512(x, y)
    }

    /// The lanes of 32 pair values whose value is in `set`, and those whose
    /// value is 512 or more (the set does not hold those: they go pair by
    /// pair).
    #[target_feature(enable = "avx512f,avx512bw")]
    fn hits_of_words(v: __m512i, set: __m512i) -> (u32, u32) {
        let word = _mm512_permutexvar_epi16(_mm512_srli_epi16::<4>(v), set);
        let bit = _mm512_srlv_epi16(word, _mm512_and_si512(v, _mm512_set1_epi16(15)));
        let large = _mm512_test_epi16_mask(v, _mm512_set1_epi16(!511));
        (
            _mm512_test_epi16_mask(bit, _mm512_set1_epi16(1)) & !large,
            large,
        )
    }

    /// `set` without the values of the lanes `lanes` of `values` (each
    /// below 512). The set stays in its register, with no branch on
    /// whether a lane's value was still wanted (a value repeated in the
    /// lanes made that branch a guess); the first `FIXED` lanes are cleared
    /// with no branch at all (most blocks that hit have no more: a loop
    /// over them mispredicted its end about once a block).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn clear_lanes<T: Copy + Into<u32>>(set: __m512i, values: &[T; 64], lanes: u64) -> __m512i {
        const FIXED: usize = 2;
        let mut left = lanes;
        let mut cleared = _mm512_setzero_si512();
        for _ in 0..FIXED {
            // Lane 0 with no bit of the set when no lane is left.
            let v = values[left.trailing_zeros() as usize & 63].into() & 511;
            let word = ((left != 0) as u32) << (v >> 4);
            // Bit v % 16 of 16-bit word v / 16.
            let one = _mm512_maskz_set1_epi16(word, (1u16 << (v & 15)) as i16);
            cleared = _mm512_or_si512(cleared, one);
            left &= left.wrapping_sub(1);
        }
        for i in crate::heap::rare::simd::wide_scan::set_bits(left) {
            let v = values[i as usize & 63].into() & 511;
            let one = _mm512_maskz_set1_epi16(1 << (v >> 4), (1u16 << (v & 15)) as i16);
            cleared = _mm512_or_si512(cleared, one);
        }
        _mm512_andnot_si512(cleared, set)
    }

    /// The pairs' values of lanes `in_set` (in the set) and `large` (512
    /// or more, taken one by one) cleared; true when no value is left
    /// wanted. `small` is how many values below 512 were wanted when
    /// `wanted.bits` was last written, which `wanted.left` still counts.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn clear_hits<T: Copy + Into<u32>>(
        wanted: &mut Wanted,
        set: &mut __m512i,
        values: &[T; 64],
        small: u32,
        in_set: u64,
        large: u64,
    ) -> bool {
        *set = clear_lanes(*set, values, in_set);
        for i in crate::heap::rare::simd::wide_scan::set_bits(large) {
            wanted.take(values[i as usize & 63].into() as usize);
        }
        _mm512_test_epi64_mask(*set, *set) == 0 && wanted.left == small
    }

    /// Writes `set` back to `wanted` (`small` as for `clear_hits`), and
    /// counts its values in `wanted.left`.
    #[target_feature(enable = "avx512f")]
    fn write_back(wanted: &mut Wanted, set: __m512i, small: u32) {
        // SAFETY: writes the 64 bytes of `bits`.
        unsafe { _mm512_storeu_epi64(wanted.bits.as_mut_ptr().cast(), set) };
        let now: u32 = wanted.bits.iter().map(|w| w.count_ones()).sum();
        wanted.left = wanted.left - small + now;
    }

    /// The lanes of 64 pair values of a one-byte table whose value is in
    /// `set`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn hits_of_bytes(v: __m512i, set: __m512i) -> u64 {
        // Byte v / 8 of the set (the shift is of 16-bit lanes: the mask
        // drops what came down from the byte above).
        let index = _mm512_and_si512(_mm512_srli_epi16::<3>(v), _mm512_set1_epi8(0x1f));
        let byte = _mm512_permutexvar_epi8(index, set);
        // Bit v % 8 of it.
        let powers = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
        let bit = _mm512_shuffle_epi8(powers, _mm512_and_si512(v, _mm512_set1_epi8(7)));
        _mm512_test_epi8_mask(byte, bit)
    }

    /// The lowest t of 64 lanes.
    fn lanes(t: usize) -> u64 {
        if t >= 64 { !0 } else { (1u64 << t) - 1 }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn scan_words(wanted: &mut Wanted, low: &[u16], high: &[u16]) -> bool {
        let (mut set, small) = wanted_bits(wanted);
        let found = scan_words_in(wanted, &mut set, small, low, high);
        write_back(wanted, set, small);
        found
    }

    /// `scan_words` with the wanted values below 512 in `set` (`small` of
    /// them when it was loaded).
    #[target_feature(enable = "avx512f,avx512bw")]
    fn scan_words_in(
        wanted: &mut Wanted,
        set: &mut __m512i,
        small: u32,
        low: &[u16],
        high: &[u16],
    ) -> bool {
        let len = low.len();
        assert_eq!(high.len(), len);
        // SAFETY: reads the 64 bytes of the array.
        let reverse = unsafe { _mm512_loadu_epi16(REVERSE_WORDS.as_ptr().cast()) };
        let mut values = [0u16; 64];
        let mut k = 0;
        // 64 pairs a test: one branch, and one loop step, for two registers.
        while k + 64 <= len {
            // SAFETY: reads lanes k..k + 64 of `low` and len − k − 64..len − k
            // of `high`, inside the slices.
            let (v0, v1) = unsafe {
                let (x, top) = (low.as_ptr().add(k), high.as_ptr().add(len - k - 64));
                let x0 = _mm512_loadu_epi16(x.cast());
                let x1 = _mm512_loadu_epi16(x.add(32).cast());
                let y0 = _mm512_permutexvar_epi16(reverse, _mm512_loadu_epi16(top.add(32).cast()));
                let y1 = _mm512_permutexvar_epi16(reverse, _mm512_loadu_epi16(top.cast()));
                (_mm512_xor_si512(x0, y0), _mm512_xor_si512(x1, y1))
            };
            let ((in0, large0), (in1, large1)) = (hits_of_words(v0, *set), hits_of_words(v1, *set));
            let in_set = in0 as u64 | (in1 as u64) << 32;
            let large = large0 as u64 | (large1 as u64) << 32;
            if in_set | large != 0 {
                // SAFETY: writes the 128 bytes of `values`.
                unsafe {
                    _mm512_storeu_epi16(values.as_mut_ptr().cast(), v0);
                    _mm512_storeu_epi16(values.as_mut_ptr().add(32).cast(), v1);
                }
                if clear_hits(wanted, set, &values, small, in_set, large) {
                    return true;
                }
            }
            k += 64;
        }
        while k < len {
            let t = (len - k).min(32);
            let valid = lanes(t) as u32;
            // SAFETY: masked loads read lanes k..k + t of `low` and
            // len − k − t..len − k of `high` only (the others are neither
            // read nor faulted on), all inside the slices.
            let v = unsafe {
                let x = _mm512_maskz_loadu_epi16(valid, low.as_ptr().add(k).cast());
                let top = high.as_ptr().wrapping_add(len - k).wrapping_sub(32);
                let y = _mm512_maskz_loadu_epi16(valid << (32 - t), top.cast());
                _mm512_xor_si512(x, _mm512_permutexvar_epi16(reverse, y))
            };
            let (in_set, large) = hits_of_words(v, *set);
            let (in_set, large) = ((in_set & valid) as u64, (large & valid) as u64);
            if in_set | large != 0 {
                // SAFETY: writes the first 64 bytes of `values`.
                unsafe { _mm512_storeu_epi16(values.as_mut_ptr().cast(), v) };
                if clear_hits(wanted, set, &values, small, in_set, large) {
                    return true;
                }
            }
            k += t;
        }
        false
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub fn scan_bytes(wanted: &mut Wanted, low: &[u8], high: &[u8]) -> bool {
        let (mut set, small) = wanted_bits(wanted);
        let found = scan_bytes_in(wanted, &mut set, small, low, high);
        write_back(wanted, set, small);
        found
    }

    /// `scan_bytes` with the wanted values below 512 in `set` (`small` of
    /// them when it was loaded).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn scan_bytes_in(
        wanted: &mut Wanted,
        set: &mut __m512i,
        small: u32,
        low: &[u8],
        high: &[u8],
    ) -> bool {
        let len = low.len();
        assert_eq!(high.len(), len);
        let reverse = reverse_bytes();
        let mut values = [0u8; 64];
        let mut k = 0;
        while k < len {
            let t = (len - k).min(64);
            let v = byte_pairs(reverse, low, high, k);
            let hits = hits_of_bytes(v, *set) & lanes(t);
            if hits != 0 {
                // SAFETY: writes the 64 bytes of `values`.
                unsafe { _mm512_storeu_epi8(values.as_mut_ptr().cast(), v) };
                // A byte's value is below 256: none is large.
                if clear_hits(wanted, set, &values, small, hits, 0) {
                    return true;
                }
            }
            k += t;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan pair by pair: what every wide one must match.
    fn plain<T: Value>(wanted: &mut Wanted, low: &[T], high: &[T]) -> bool {
        let len = low.len();
        let pair = |i: usize| (low[i].into() ^ high[len - 1 - i].into()) as usize;
        (0..len).any(|i| wanted.take(pair(i)))
    }

    /// Scans 400 random runs of values below `range` for a few wanted values
    /// (some beyond what a pair reaches) by `wide` and pair by pair, and
    /// compares what they cleared.
    fn compare<T: Value>(range: u64, wide: Wide) {
        let mut next = crate::heap::xorshift(0x5ca7);
        let (mut table_a, mut table_b) = (Box::new([0u8; 1 << 16]), Box::new([0u8; 1 << 16]));
        for case in 0..400 {
            let len = (next() % 200) as usize;
            let low: Vec<T> = (0..len).map(|_| T::of((next() % range) as u32)).collect();
            let high: Vec<T> = (0..len).map(|_| T::of((next() % range) as u32)).collect();
            let mut words = vec![0u64; 1024];
            for _ in 0..next() % 6 {
                let v = next() % (2 * range).min(1 << 16);
                words[(v / 64) as usize] |= 1 << (v % 64);
            }
            let (mut a, mut b) = (
                Wanted::on(wide, wide.level(), &mut table_a, &words),
                Wanted::on(Wide::Plain, None, &mut table_b, &words),
            );
            if a.left() == 0 {
                continue;
            }
            assert_eq!(
                a.scan(&low, &high),
                plain(&mut b, &low, &high),
                "case {case}"
            );
            assert_eq!((a.left(), a.bits), (b.left(), b.bits), "case {case}");
            let (mut words_a, mut words_b) = (words.clone(), words.clone());
            a.finish(&mut words_a);
            b.finish(&mut words_b);
            assert_eq!(words_a, words_b, "case {case}");
        }
        assert!(
            table_a.iter().chain(table_b.iter()).all(|&v| v == 0),
            "finish leaves the table zero"
        );
    }

    #[test]
    fn the_wide_scans_clear_what_the_plain_one_clears() {
        let mut ways = vec![Wide::Plain, Wide::Portable];
        let best = Wide::of(crate::heap::rare::simd::detected());
        ways.extend(match best {
            Wide::Avx512Vbmi => [Wide::Avx512Vbmi, Wide::Avx512, Wide::Avx2].as_slice(),
            Wide::Avx512 => &[Wide::Avx512, Wide::Avx2],
            Wide::Avx2 => &[Wide::Avx2],
            Wide::Portable | Wide::Plain => &[],
        });
        for wide in ways {
            compare::<u8>(256, wide);
            // Values below 512 (the set's reach) and beyond it.
            for range in [64, 512, 1 << 11, 1 << 16] {
                compare::<u16>(range, wide);
            }
        }
    }
}
