//! CPU twin of `shaders/shared/mex.wgsl`: the mex of a bitset of marked values,
//! shared by the kernels that take one (`survey_block`, `finish_block`).

/// The smallest value whose bit in `bits` is clear; `cap` when every bit
/// is set (the shader's `mex_best` keeps the capacity its caller stored).
pub fn smallest_unmarked(bits: &[u32], cap: u32) -> u32 {
    let mut mex_best = cap;
    for (w, word) in bits.iter().enumerate() {
        let free = !word;
        if free != 0 {
            mex_best = mex_best.min(w as u32 * 32 + free.trailing_zeros());
        }
    }
    mex_best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_clear_bit_or_the_capacity() {
        assert_eq!(smallest_unmarked(&[0b1011, 0], 64), 2);
        assert_eq!(smallest_unmarked(&[u32::MAX, 0b1], 64), 33);
        assert_eq!(smallest_unmarked(&[u32::MAX, u32::MAX], 64), 64);
        assert_eq!(smallest_unmarked(&[], 0), 0);
    }
}
