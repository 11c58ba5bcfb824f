//! Shaders checked without a GPU (tests only): naga parses and validates a
//! WGSL source exactly as the host hands it to wgpu, and reads back the
//! constants and struct sizes the shader shares with Rust, so a type error
//! or a struct laid out unlike Rust's fails `cargo test` on a machine with no
//! adapter at all. Every shader of `kernel::SHADERS` is checked, with its
//! bindings against its registry entry, the constants Rust gives it, and
//! each family's shared structs against the Rust side.

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

/// The module's bindings as (binding, read-only storage?) with binding 0
/// the uniform parameters: (0, None), (1, Some(true)), ….
fn bindings(module: &naga::Module) -> Vec<(u32, Option<bool>)> {
    let mut out: Vec<(u32, Option<bool>)> = module
        .global_variables
        .iter()
        .filter_map(|(_, var)| {
            let binding = var.binding.as_ref()?;
            assert_eq!(binding.group, 0);
            let read_only = match var.space {
                naga::AddressSpace::Uniform => None,
                naga::AddressSpace::Storage { access } => {
                    Some(!access.contains(naga::StorageAccess::STORE))
                }
                other => panic!("binding {} in {other:?}", binding.binding),
            };
            Some((binding.binding, read_only))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_shader_validates_with_the_bindings_its_registry_entry_names() {
    for shader in super::SHADERS {
        let module = validated(shader.name, &shader.source());
        let mut want = vec![(0, None)];
        want.extend(
            shader
                .read_only
                .iter()
                .enumerate()
                .map(|(i, &r)| (i as u32 + 1, Some(r))),
        );
        // A shader may leave a binding of its layout unused (rect_level
        // shares the tuple layout, split sets and all), and may only read a
        // binding the layout makes writable; never the reverse.
        let got = bindings(&module);
        assert_eq!(
            got.first(),
            Some(&(0, None)),
            "{}: binding 0 is the parameters",
            shader.name
        );
        for (binding, access) in &got {
            let registry = want.get(*binding as usize).map(|w| w.1);
            assert!(
                registry == Some(*access) || registry == Some(Some(false)),
                "{}: binding {binding} is {access:?} in the shader, {registry:?} in the registry",
                shader.name
            );
        }
        for entry in shader.entry_points {
            assert!(
                module.entry_points.iter().any(|e| e.name == *entry),
                "{}: no entry point {entry}",
                shader.name
            );
        }
    }
}

/// Every `// import` names a shared module, every shared module is imported
/// by some kernel, each lands once in a composed source, and the mex loop
/// is written once (in `mex.wgsl`), not copied into the kernels.
#[test]
fn every_import_names_a_shared_module_and_each_lands_once() {
    use super::shader::{SHARED, imports};
    let mut used = std::collections::BTreeSet::new();
    for shader in super::SHADERS {
        for name in imports(shader.wgsl) {
            assert!(
                SHARED.iter().any(|(known, _)| *known == name),
                "{}: imports {name}",
                shader.name
            );
            used.insert(name);
            let (_, module) = SHARED.iter().find(|(known, _)| *known == name).unwrap();
            let first_line = module.lines().next().unwrap();
            let copies = shader.source().matches(first_line).count();
            assert_eq!(copies, 1, "{}: {name} composed {copies} times", shader.name);
        }
    }
    for (name, _) in SHARED {
        let imported_by_shared = SHARED.iter().any(|(_, m)| imports(m).any(|i| i == *name));
        assert!(
            used.contains(name) || imported_by_shared,
            "{name} is imported by no kernel"
        );
    }
    let mex_loops: Vec<&str> = super::SHADERS
        .iter()
        .filter(|s| s.wgsl.contains("atomicMin(&mex_best"))
        .map(|s| s.name)
        .collect();
    assert!(
        mex_loops.is_empty(),
        "the mex loop copied into {mex_loops:?}"
    );
    // mex reads its importer's workgroup bitset: every importer declares it
    // (itself or through another module it imports).
    for shader in super::SHADERS {
        if imports(shader.wgsl).any(|name| name == "mex") {
            let source = shader.source();
            let mut lines = source.lines();
            assert!(
                lines.any(|l| l.starts_with("var<workgroup> bits: array<atomic<u32>")),
                "{} imports mex without declaring its `bits`",
                shader.name
            );
        }
    }
}

/// The size of each struct the shader shares with Rust; a `Params` fits
/// its parameter slot.
fn check_structs(shader: &super::shader::Shader, structs: &[(&str, usize)]) {
    let module = validated(shader.name, &shader.source());
    for &(name, rust) in structs {
        assert_eq!(
            struct_size(&module, name) as usize,
            rust,
            "{}: {name}",
            shader.name
        );
        assert!(rust as u64 <= super::shader::PARAMS_STRIDE || name != "Params");
    }
}

/// The constants shared with Rust are declared once, from Rust's values,
/// before the WGSL (a WGSL file declaring one again fails validation in
/// `every_shader_validates_…`), and each is read by the kernel or a module
/// it imports: no stale name in a registry entry.
#[test]
fn each_kernel_reads_every_constant_rust_gives_it() {
    for shader in super::SHADERS {
        let source = shader.source();
        let module = validated(shader.name, &source);
        let (prelude, body) = source.split_at(shader.prelude().len());
        for &(name, rust) in shader.constants.iter().copied().flatten() {
            assert_eq!(constant(&module, name), rust, "{}: {name}", shader.name);
            assert!(
                prelude.contains(&format!("const {name}: u32")),
                "{}: {name}",
                shader.name
            );
            let read = body
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|word| word == name);
            assert!(read, "{}: {name} is given but never read", shader.name);
        }
    }
}

#[test]
fn the_shaders_structs_are_rusts() {
    use super::{arrows, genus, graph, heap, rare, survey, tuples};
    for shader in [&heap::OPTIONS_BELOW, &heap::FINISH_BLOCK] {
        check_structs(shader, &[("Params", size_of::<heap::Params>())]);
    }
    for shader in [&genus::GENUS_BELOW, &genus::GENUS_FINISH] {
        check_structs(shader, &[("Params", size_of::<genus::Params>())]);
    }
    let graph_structs = [
        ("GraphData", size_of::<graph::GraphData>()),
        ("Params", size_of::<graph::Params>()),
    ];
    check_structs(&graph::GRAPH_LEVEL, &graph_structs);
    assert_eq!(graph::GRAPH_LEVEL.read_only.len() as u64, graph::CHUNKS + 2);
    check_structs(
        &arrows::ARROWS_LEVEL,
        &[("Params", size_of::<arrows::Params>())],
    );
    for shader in [&tuples::RECT_LEVEL, &tuples::DELETE_LEVEL] {
        check_structs(shader, &[("Params", size_of::<tuples::Params>())]);
    }
    let survey_params = [("Params", size_of::<survey::Params>())];
    check_structs(&survey::SURVEY_BLOCK_SHADER, &survey_params);
    check_structs(
        &rare::RARE_PASS,
        &[("Params", size_of::<rare::PassParams>())],
    );
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
