//! One Nim-sequence, a folder per concern: where its table lives
//! (`storage`: in memory or in a file, one byte a value or wider, filled
//! from a period), the engines that extend it (`rare`: rare values with
//! their SIMD scans; `brute`: the blocked kernels and the general engine),
//! how far it may go (`bounds`), and the run from start to end: `driver`
//! (the job, its checkpoints and fill) over `sequence` (each extension,
//! by the engine that pays) and `checkpoint` (the file a run saves);
//! `keeping` and `kept_checkpoint` for a run that keeps only a prefix and
//! a window of its table (`rare::kept`).

pub mod bounds;
pub mod brute;
pub mod checkpoint;
pub mod driver;
pub mod keeping;
pub mod kept_checkpoint;
pub mod rare;
pub mod sequence;
pub mod storage;

/// Xorshift64 from `seed` (not 0): random words for the tests.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
