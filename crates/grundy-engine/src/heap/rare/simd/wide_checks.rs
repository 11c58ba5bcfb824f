//! Which of a few candidate values the rare pairs of 32 heaps reach, the
//! heaps side by side in one register: for each rare heap r (value G(r))
//! the partners of 32 consecutive heaps are 32 consecutive values of the
//! table, and a candidate c of heap i is reached when G(r) ⊕ partner = c.
//! No store per pair: each candidate keeps, lane by lane, the least
//! `G(r) ⊕ partner ⊕ c` seen, which is 0 once c is reached. Written once
//! in portable SIMD (`fearless_simd`), with a scalar twin the tests hold
//! it to.

use std::sync::OnceLock;

use fearless_simd::Level;

use super::path as simd;
use crate::heap::storage::table::Value;

/// The level the checks run at in this process (`None`: the plain path,
/// where a check of every candidate costs more than the mark it spares).
fn level() -> Option<Level> {
    static LEVEL: OnceLock<Option<Level>> = OnceLock::new();
    *LEVEL.get_or_init(|| simd::level(simd::chosen()))
}

/// Heaps side by side.
pub const LANES: usize = 32;
/// Candidates a heap: the first free common values left by the marks of
/// the rare heaps that were marked.
pub const CANDIDATES: usize = 8;

/// A candidate that no value reaches (every value of a table is smaller).
pub const NO_CANDIDATE: u16 = u16::MAX;

/// One rare heap's pairs over the 32 lanes: its value, and where in the
/// table lane 0's partner lies (lane i's is `start + i`).
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub value: u16,
    pub start: usize,
}

/// Whether the checks pay on this process's path: with AVX-512's 32
/// registers of 32 lanes the candidates and their minima stay in
/// registers; on narrower ones (AVX2, NEON, SSE4.2) they spill, and the
/// checks cost what they spare (BENCHMARKS.md).
pub fn pay() -> bool {
    #[cfg(target_arch = "x86_64")]
    return matches!(level(), Some(Level::Avx512(_)));
    #[allow(unreachable_code, reason = "every other CPU")]
    false
}

/// `reached_at` the level of this process.
pub fn reached<U: Value>(
    candidates: &[[u16; LANES]; CANDIDATES],
    table: &[U],
    rows: &[Row],
) -> [u16; LANES] {
    reached_at(level(), candidates, table, rows)
}

/// Bit k of lane i: some row reaches `candidates[k][i]`, that is
/// `row.value ^ table[row.start + i] == candidates[k][i]`, at `level`.
fn reached_at<U: Value>(
    level: Option<Level>,
    candidates: &[[u16; LANES]; CANDIDATES],
    table: &[U],
    rows: &[Row],
) -> [u16; LANES] {
    match level {
        Some(level) => {
            fearless_simd::dispatch!(level, simd => portable::reached(simd, candidates, table, rows))
        }
        None => reached_plain(candidates, table, rows),
    }
}

/// `reached` one pair at a time.
fn reached_plain<U: Value>(
    candidates: &[[u16; LANES]; CANDIDATES],
    table: &[U],
    rows: &[Row],
) -> [u16; LANES] {
    let mut bits = [0u16; LANES];
    for row in rows {
        for (i, lane) in bits.iter_mut().enumerate() {
            let x = row.value ^ table[row.start + i].narrow();
            for (k, candidate) in candidates.iter().enumerate() {
                *lane |= ((x == candidate[i]) as u16) << k;
            }
        }
    }
    bits
}

mod portable {
    use fearless_simd::{Simd, SimdBase, u8x32, u16x32};

    use crate::heap::rare::simd::wide_checks::{CANDIDATES, LANES, Row};
    use crate::heap::storage::table::Value;

    /// The 32 values of a row as two-byte lanes.
    #[inline(always)]
    fn lanes<S: Simd, U: Value>(simd: S, table: &[U], start: usize) -> u16x32<S> {
        let run = &table[start..start + LANES];
        if let Some(words) = U::words(run) {
            return u16x32::from_slice(simd, words);
        }
        let bytes = U::bytes(run).expect("a table is one or two bytes a value");
        let (low, high) = simd.widen_u8x32(u8x32::from_slice(simd, bytes));
        simd.combine_u16x16(low, high)
    }

    #[inline(always)]
    pub(super) fn reached<S: Simd, U: Value>(
        simd: S,
        candidates: &[[u16; LANES]; CANDIDATES],
        table: &[U],
        rows: &[Row],
    ) -> [u16; LANES] {
        let wanted: [u16x32<S>; CANDIDATES] =
            std::array::from_fn(|k| u16x32::from_slice(simd, &candidates[k]));
        let mut least = [u16x32::splat(simd, u16::MAX); CANDIDATES];
        for row in rows {
            let x = lanes(simd, table, row.start) ^ u16x32::splat(simd, row.value);
            for k in 0..CANDIDATES {
                least[k] = simd.min_u16x32(least[k], x ^ wanted[k]);
            }
        }
        let zero = u16x32::splat(simd, 0);
        let mut bits = [0u16; LANES];
        for (k, least) in least.iter().enumerate() {
            let hit = simd.to_bitmask_mask16x32(simd.simd_eq_u16x32(*least, zero));
            for (i, lane) in bits.iter_mut().enumerate() {
                *lane |= (((hit >> i) & 1) as u16) << k;
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare<U: Value>(range: u64, level: Level, name: &str) {
        let mut next = crate::heap::xorshift(0x0c0f_fee5);
        let table: Vec<U> = (0..2000).map(|_| U::of((next() % range) as u32)).collect();
        let mut reaching = 0;
        for case in 0..100 {
            // Candidates drawn from the same range, so that many are reached.
            let mut candidates = [[0u16; LANES]; CANDIDATES];
            for lane in candidates.iter_mut().flatten() {
                *lane = match next() % 9 {
                    0 => NO_CANDIDATE,
                    _ => (next() % range) as u16,
                };
            }
            let rows: Vec<Row> = (0..next() % 40)
                .map(|_| Row {
                    value: (next() % range) as u16,
                    start: (next() % (2000 - LANES as u64)) as usize,
                })
                .collect();
            let plain = reached_plain(&candidates, &table, &rows);
            assert_eq!(
                reached_at(Some(level), &candidates, &table, &rows),
                plain,
                "{name}, case {case}"
            );
            reaching += plain.iter().any(|&b| b != 0) as u32;
        }
        // The cases test something: most reach a candidate.
        assert!(reaching > 50, "{name}: {reaching} cases reach a candidate");
    }

    /// The portable code at every level this CPU runs it at reaches what
    /// the pair-by-pair twin reaches, on one- and two-byte tables.
    #[test]
    fn the_wide_checks_reach_what_the_plain_ones_reach() {
        let mut ran = 0;
        for path in [simd::Simd::Portable, simd::Simd::Avx2, simd::Simd::Avx512] {
            if let Some(level) = simd::level(path).filter(|_| path <= simd::detected()) {
                compare::<u8>(40, level, &format!("bytes, {}", path.name()));
                compare::<u16>(40, level, &format!("words, {}", path.name()));
                compare::<u16>(700, level, &format!("large words, {}", path.name()));
                ran += 1;
            }
        }
        assert!(ran > 0 || simd::detected() == simd::Simd::Plain);
    }
}
