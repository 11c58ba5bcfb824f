//! What every family's contract is made of: a shader as the runner builds
//! it, parameter slots, the level parameters the level kernels share, and
//! the dispatch arithmetic.

/// Uniform offsets must be multiples of 256 bytes: parameter slot i starts
/// at i · PARAMS_STRIDE, and a dispatch binds its slot by a dynamic offset.
pub const PARAMS_STRIDE: u64 = 256;

/// One WGSL module as the GPU runner builds it: the constants it shares
/// with Rust (written from Rust's values before the WGSL, so the two cannot
/// differ), its file (which names the shared modules it uses, `// import
/// NAME`), its entry points, and its bindings. Binding 0 is always
/// the parameters (a uniform read at a dynamic offset); bindings 1, 2, …
/// are storage buffers, read-only where `read_only` says so. The CPU twin of
/// each entry point has the entry point's name, in the family's folder.
pub struct Shader {
    pub name: &'static str,
    /// The kernel's file, `shaders/NAME.wgsl`.
    pub wgsl: &'static str,
    pub entry_points: &'static [&'static str],
    pub read_only: &'static [bool],
    /// The `u32` constants the kernel and the shared modules it imports
    /// read, by name, in groups (a family's list, then the kernel's own):
    /// Rust's values, declared by `source`, never in the WGSL.
    pub constants: &'static [Constants],
}

/// Constants a shader shares with Rust: its WGSL name and Rust's value.
pub type Constants = &'static [(&'static str, u32)];

impl Shader {
    /// The WGSL text handed to the device: the constants shared with Rust,
    /// each shared module the file imports (and what it imports) once, then
    /// the file.
    pub fn source(&self) -> String {
        let mut out = self.prelude();
        compose(self.wgsl, &mut Vec::new(), &mut out);
        out
    }

    /// The constants shared with Rust, as WGSL declarations.
    pub fn prelude(&self) -> String {
        let mut out = format!(
            "// {}: constants from Rust (`Shader::constants`)\n",
            self.name
        );
        for (name, value) in self.constants.iter().copied().flatten() {
            out.push_str(&format!("const {name}: u32 = {value}u;\n"));
        }
        out
    }
}

/// The shared WGSL modules a kernel may import, by name (`shaders/shared/`):
/// each states at its top what its importer must declare (`mex` reads the
/// importer's `bits`), and `shader_check` checks every importer does.
pub const SHARED: &[(&str, &str)] = &[
    (
        "heap_common",
        include_str!("../../shaders/shared/heap_common.wgsl"),
    ),
    (
        "code_digits",
        include_str!("../../shaders/shared/code_digits.wgsl"),
    ),
    (
        "genus_common",
        include_str!("../../shaders/shared/genus_common.wgsl"),
    ),
    ("mex", include_str!("../../shaders/shared/mex.wgsl")),
    (
        "rare_scan",
        include_str!("../../shaders/shared/rare_scan.wgsl"),
    ),
    (
        "rare_split",
        include_str!("../../shaders/shared/rare_split.wgsl"),
    ),
    (
        "tuple_common",
        include_str!("../../shaders/shared/tuple_common.wgsl"),
    ),
];

/// The names a WGSL file imports: its `// import NAME` lines.
pub fn imports(wgsl: &str) -> impl Iterator<Item = &str> {
    wgsl.lines()
        .filter_map(|line| line.strip_prefix("// import "))
        .map(str::trim)
}

/// Appends `wgsl` to `out` after the modules it imports, each once (`done`
/// names those appended). An unknown name is a defect of the shaders, which
/// `every_import_names_a_shared_module` catches in the tests.
fn compose(wgsl: &str, done: &mut Vec<&'static str>, out: &mut String) {
    for name in imports(wgsl) {
        let Some(&(name, module)) = SHARED.iter().find(|(known, _)| *known == name) else {
            panic!("a shader imports {name}, which is no shared module (kernel::shader::SHARED)");
        };
        if !done.contains(&name) {
            done.push(name);
            compose(module, done, out);
        }
    }
    out.push_str(wgsl);
    out.push('\n');
}

/// One level's parameters, as the level kernels read them (`Params` in
/// graph_level.wgsl and arrows_level.wgsl).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LevelParams {
    pub level: u32,
    pub count: u32,
    pub groups_x: u32,
    pub pad: u32,
}

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

/// `values` as u16s two to a u32 word, the first in the low half: how the
/// kernels that read a heap table hold it.
pub fn pack_u16<T: Copy + Into<u32>>(values: &[T]) -> Vec<u32> {
    values
        .chunks(2)
        .map(|p| p[0].into() | p.get(1).map_or(0, |&v| v.into()) << 16)
        .collect()
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
