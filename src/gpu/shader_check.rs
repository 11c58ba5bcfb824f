//! Shaders checked without a GPU (tests only): naga parses and validates a
//! WGSL source exactly as the host hands it to wgpu, and reads back the
//! constants and struct sizes the shader shares with Rust, so a type error
//! or a constant copied wrong fails `cargo test` on a machine with no
//! adapter at all. Each family's module checks its own shaders with these.

use naga::valid::{Capabilities, ValidationFlags, Validator};

/// The module of `source`, parsed and validated; panics with naga's
/// message, naming `label`, when either fails.
pub fn validated(label: &str, source: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(source)));
    Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(source)));
    module
}

/// The value of the shader's `const NAME: u32` (or the default of an
/// `override`).
pub fn constant(module: &naga::Module, name: &str) -> u32 {
    let init = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))
        .map(|(_, c)| c.init)
        .or_else(|| {
            module
                .overrides
                .iter()
                .find(|(_, o)| o.name.as_deref() == Some(name))
                .and_then(|(_, o)| o.init)
        })
        .unwrap_or_else(|| panic!("the shader has no constant {name}"));
    match module.global_expressions[init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => v,
        ref other => panic!("{name} is {other:?}, not a u32 literal"),
    }
}

/// The size in bytes of the shader's struct `name`, as WGSL lays it out.
pub fn struct_size(module: &naga::Module, name: &str) -> u32 {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("a layout");
    let (handle, _) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("the shader has no struct {name}"));
    layouter[handle].size
}

#[test]
fn a_shader_with_a_type_error_is_refused() {
    let broken = "@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }";
    let caught = std::panic::catch_unwind(|| validated("broken", broken));
    assert!(caught.is_err(), "naga accepted a type error");
    let fine = validated(
        "fine",
        "const N: u32 = 7u;\n@compute @workgroup_size(1) fn main() {}",
    );
    assert_eq!(constant(&fine, "N"), 7);
}
