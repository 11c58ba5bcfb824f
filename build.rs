//! The GPU tests are compiled as ignored unless `GRUNDY_REQUIRE_GPU=1` is
//! set when building: `cargo test` then reports them as ignored, never as
//! passed, on a machine where they did not run. CI (and
//! `scripts/gpu-prepare.sh`) build with it set, and there they must find an
//! adapter.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(require_gpu)");
    println!("cargo::rerun-if-env-changed=GRUNDY_REQUIRE_GPU");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("GRUNDY_REQUIRE_GPU").is_ok_and(|v| v == "1") {
        println!("cargo::rustc-cfg=require_gpu");
    }
}
