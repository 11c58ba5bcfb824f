//! Which SIMD path the rare values' wide steps take (`wide_scan`,
//! `wide_bits`): the widest this CPU has, or a narrower one a front end
//! chooses for the process (`choose`; the command line's and Python's
//! `GRUNDY_SIMD=avx512|avx2|portable|plain`), so one machine can measure
//! and test every path. Asking for a path wider than the CPU has is an
//! error. The steps are written once in portable SIMD (`fearless_simd`),
//! but for AVX-512's scans (intrinsics); `portable` is that code at 128-bit
//! registers: what ARM runs (NEON), and on x86 the SSE4.2 path of a CPU
//! without AVX2.

use std::sync::OnceLock;

use fearless_simd::Level;
use serde::Serialize;

/// A SIMD path, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Simd {
    /// Scalar code (eight pairs at a time).
    Plain,
    /// The portable SIMD code at 128-bit registers: NEON on ARM, SSE4.2 on
    /// x86 (whose 64-bit shifts by a count a lane are scalar code).
    Portable,
    /// AVX2: the portable SIMD code at 256-bit registers.
    Avx2,
    /// AVX-512: the scans in intrinsics (F, BW; VBMI for bytes), the bit
    /// steps in portable SIMD at 512-bit registers.
    Avx512,
}

impl Simd {
    pub fn name(self) -> &'static str {
        match self {
            Simd::Plain => "plain",
            Simd::Portable => "portable",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }
}

/// The widest path this CPU has.
pub fn detected() -> Simd {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx2") {
            return Simd::Avx512;
        }
        if has!("avx2") {
            return Simd::Avx2;
        }
        if has!("sse4.2") {
            return Simd::Portable;
        }
    }
    #[cfg(target_arch = "aarch64")]
    return Simd::Portable;
    #[allow(unreachable_code, reason = "every other CPU")]
    Simd::Plain
}

/// The path named `text` (`avx512`, `avx2`, `portable`, `plain`), checked
/// against the CPU: an error says what was expected.
pub fn parse(text: &str) -> Result<Simd, String> {
    let path = match text.trim() {
        "plain" => Simd::Plain,
        "portable" => Simd::Portable,
        "avx2" => Simd::Avx2,
        "avx512" => Simd::Avx512,
        _ => return Err("expected avx512, avx2, portable or plain".into()),
    };
    if path > detected() {
        return Err(format!(
            "this CPU's widest path is {}; expected that or a narrower one",
            detected().name()
        ));
    }
    Ok(path)
}

static CHOSEN: OnceLock<Simd> = OnceLock::new();

/// Makes `path` the one every wide step of this process takes, before the
/// first takes one (the steps look it up once): an error when `path` is
/// wider than the CPU's, or another path was chosen or used already.
pub fn choose(path: Simd) -> Result<(), String> {
    if path > detected() {
        return Err(format!(
            "{}: this CPU's widest path is {}; expected that or a narrower one",
            path.name(),
            detected().name()
        ));
    }
    let now = *CHOSEN.get_or_init(|| path);
    match now == path {
        true => Ok(()),
        false => Err(format!(
            "{}: this process already takes the {} path; the SIMD path is chosen once, \
             before the first run",
            path.name(),
            now.name()
        )),
    }
}

/// The path the wide steps take in this process: the one chosen, else the
/// widest the CPU has.
pub fn chosen() -> Simd {
    *CHOSEN.get_or_init(detected)
}

/// The level the code written in portable SIMD runs at on `path`: on x86,
/// AVX2 on the `avx2` path, the CPU's own on `avx512` (AVX-512 where it has
/// Ice Lake's set, else AVX2), SSE4.2 on `portable` (128-bit registers, as
/// NEON's: the nearest x86 comes to what ARM runs); elsewhere the CPU's
/// own (NEON); `None` on `plain`.
pub fn level(path: Simd) -> Option<Level> {
    let cpu = Level::new();
    #[cfg(target_arch = "x86_64")]
    return match path {
        Simd::Plain => None,
        Simd::Portable => cpu.as_sse4_2().map(Level::Sse4_2),
        Simd::Avx2 => cpu.as_avx2().map(Level::Avx2),
        Simd::Avx512 => Some(cpu),
    };
    #[allow(unreachable_code, reason = "every other CPU")]
    (path != Simd::Plain).then_some(cpu)
}
