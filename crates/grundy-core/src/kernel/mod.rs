//! Kernel contracts, below both backends. Each family (one folder) holds
//! what its WGSL kernels and their CPU twins agree on: the parameters the
//! host writes, the constants, the level plan, the shader sources with
//! their bindings (`SHADERS`), and the twins themselves, named as the
//! shaders' entry points. The GPU runner (`gpu`) and the drivers (`engine`)
//! sit above; nothing here knows which backend runs.

pub mod arrows;
pub mod genus;
pub mod graph;
pub mod heap;
pub mod mex;
pub mod rare;
pub mod shader;
#[cfg(test)]
mod shader_check;
pub mod survey;
pub mod tuples;

pub use shader::{LevelParams, PARAMS_STRIDE, Shader, grid_2d, pack_u16, packed_words};

/// Every shader of every family (the naga test validates each).
pub const SHADERS: &[&Shader] = &[
    &heap::OPTIONS_BELOW,
    &heap::FINISH_BLOCK,
    &graph::GRAPH_LEVEL,
    &arrows::ARROWS_LEVEL,
    &tuples::RECT_LEVEL,
    &tuples::DELETE_LEVEL,
    &survey::SURVEY_BLOCK_SHADER,
    &rare::RARE_PASS,
    &genus::GENUS_BELOW,
    &genus::GENUS_FINISH,
];
