//! What runs may use of this machine, set once per process by a front end
//! before the first run: wgpu's backends and the GPU's largest binding, and
//! the CPU's SIMD path for the rare values' wide steps. A library caller
//! who sets none of them gets the widest of each; the command line and
//! the Python module read `GRUNDY_SIMD` and `GRUNDY_GPU_MAX_BINDING` from
//! the environment and set them here.

pub use grundy_engine::heap::rare::simd::{Simd, chosen as simd, detected as widest_simd};
pub use grundy_gpu::context::{MIN_BINDING_CAP, compiled_backends, quiet_device_select};

/// wgpu is compiled in (the `gpu` feature): without it every run is on
/// the CPU and asking for the GPU is refused.
pub const WITH_WGPU: bool = grundy_gpu::WITH_WGPU;

/// The SIMD path named `text` (`avx512`, `avx2`, `portable`, `plain`),
/// checked against this CPU.
///
/// ```
/// use grundy::device::{Simd, parse_simd};
///
/// assert_eq!(parse_simd("plain"), Ok(Simd::Plain));
/// assert!(parse_simd("avx1024").is_err());
/// ```
pub fn parse_simd(text: &str) -> Result<Simd, String> {
    grundy_engine::heap::rare::simd::parse(text)
}

/// Makes `path` the SIMD path of every run of this process; call it before
/// the first run (the steps look the path up once). An error when the CPU
/// lacks it, or a different path is already in use.
pub fn choose_simd(path: Simd) -> Result<(), String> {
    grundy_engine::heap::rare::simd::choose(path)
}

/// Plans every GPU run of this process as if the card's largest storage
/// binding and buffer were `bytes` (at least `MIN_BINDING_CAP`): long
/// tables then go in pieces on any adapter, which is how the tests run
/// them on a software one. Set once, before the first GPU opens.
pub fn cap_binding(bytes: u64) -> Result<(), String> {
    grundy_gpu::context::cap_binding(bytes)
}

/// A binding cap written as a number of bytes (`cap_binding` checks it
/// against `MIN_BINDING_CAP`).
pub fn parse_binding(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected a number of bytes, at least {MIN_BINDING_CAP}"))
}

/// The environment variable the command line and Python read for the SIMD
/// path (the library reads none: a front end hands it the text).
pub const SIMD_VAR: &str = "GRUNDY_SIMD";
/// The environment variable the command line and Python read for the
/// binding cap.
pub const BINDING_VAR: &str = "GRUNDY_GPU_MAX_BINDING";

/// Sets the SIMD path and the binding cap from the texts a front end read
/// from `SIMD_VAR` and `BINDING_VAR` (`None`: unset or empty); the error
/// names the variable and its value.
pub fn set_from_env_texts(simd: Option<&str>, binding: Option<&str>) -> Result<(), String> {
    let named = |name: &str, text: &str, why: String| format!("{name}={text}: {why}");
    if let Some(text) = simd {
        let chosen = parse_simd(text).and_then(choose_simd);
        chosen.map_err(|why| named(SIMD_VAR, text, why))?;
    }
    if let Some(text) = binding.filter(|t| !t.is_empty()) {
        let capped = parse_binding(text).and_then(cap_binding);
        capped.map_err(|why| named(BINDING_VAR, text, why))?;
    }
    Ok(())
}
