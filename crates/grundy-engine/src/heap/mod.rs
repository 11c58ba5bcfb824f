//! One Nim-sequence: its table (in memory or in a file, one byte a value
//! or wider), the engines that extend it (rare values, the blocked
//! kernels, the general engine), its checkpoints, and the driver of a run
//! from start to end.

pub mod checkpoint;
pub mod driver;
pub mod escaped;
pub mod filled;
pub mod general;
pub mod growing;
pub mod paged;
pub mod rare;
pub mod run;
pub mod sequence;
pub mod simd;
pub mod store;
pub mod table;
pub mod wide_bits;
pub mod wide_checks;
pub mod wide_scan;

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
