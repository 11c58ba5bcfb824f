//! Kernel contracts, below both backends. Each family (one folder) holds
//! what its WGSL kernels and their CPU twins agree on: the parameters the
//! host writes, the constants, the level plan, the shader sources with
//! their bindings (`SHADERS`), and the twins themselves, named as the
//! shaders' entry points. The GPU runner (`gpu`) and the drivers (`engine`)
//! sit above; nothing here knows which backend runs.

pub mod arrows;
pub mod graph;
pub mod heap;
pub mod rare;
pub mod survey;
pub mod tuples;

/// Workgroups for `count` heaps folded into rows of at most `max_x`.
pub fn grid_2d(count: u32, max_x: u32) -> (u32, u32) {
    let max_x = max_x.max(1);
    if count <= max_x {
        (count.max(1), 1)
    } else {
        (max_x, count.div_ceil(max_x))
    }
}

/// u32 words holding `values` u16 values, two per word.
pub fn packed_words(values: u64) -> u64 {
    values.div_ceil(2).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_fold_past_the_row_limit() {
        assert_eq!(grid_2d(1, 65535), (1, 1));
        assert_eq!(grid_2d(65535, 65535), (65535, 1));
        assert_eq!(grid_2d(65536, 65535), (65535, 2));
        assert_eq!(grid_2d(20, 7), (7, 3));
    }
}
