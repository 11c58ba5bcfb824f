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
#[cfg(test)]
mod shader_check;
pub mod survey;
pub mod tuples;

/// Uniform offsets must be multiples of 256 bytes: parameter slot i starts
/// at i · PARAMS_STRIDE, and a dispatch binds its slot by a dynamic offset.
pub const PARAMS_STRIDE: u64 = 256;

/// One WGSL module as the GPU runner builds it: its sources (a shared
/// prelude first), its entry points, and its bindings. Binding 0 is always
/// the parameters (a uniform read at a dynamic offset); bindings 1, 2, …
/// are storage buffers, read-only where `read_only` says so. The CPU twin of
/// each entry point has the entry point's name, in the family's folder.
pub struct Shader {
    pub name: &'static str,
    pub sources: &'static [&'static str],
    pub entry_points: &'static [&'static str],
    pub read_only: &'static [bool],
}

impl Shader {
    /// The WGSL text handed to the device: the sources in order.
    pub fn source(&self) -> String {
        self.sources.join("\n")
    }
}

/// Every shader of every family (the naga test validates each).
pub const SHADERS: &[&Shader] = &[
    &heap::OPTIONS_BELOW,
    &heap::FINISH_BLOCK,
    &graph::GRAPH_LEVEL,
    &arrows::ARROWS_LEVEL,
    &tuples::RECT_LEVEL,
    &tuples::DELETE_LEVEL,
    &survey::SURVEY_BLOCK_SHADER,
];

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
