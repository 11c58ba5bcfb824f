//! Every SIMD path this CPU has (`GRUNDY_SIMD`) gives the same tables, end
//! to end, and says which path ran.

use std::process::Output;

use crate::common::{grundy_with_env, tmp};
use grundy::internals::engine::heap::rare::simd::{Simd, detected};

fn grundy_with(path: &str, args: &[&str]) -> Output {
    grundy_with_env(args, &[("GRUNDY_SIMD", path)])
}

#[test]
fn every_path_gives_the_same_tables() {
    let paths: Vec<&str> = [Simd::Plain, Simd::Portable, Simd::Avx2, Simd::Avx512]
        .into_iter()
        .filter(|&p| p <= detected())
        .map(Simd::name)
        .collect();
    // Officers (two bytes a value), Grundy's game (values past 255 kept
    // apart), .1777 (the bit steps past its last rare heap).
    for (code, n) in [("0.6", "300000"), ("4!.0", "300000"), ("0.1777", "400000")] {
        let mut tables = Vec::new();
        for path in &paths {
            let out = tmp(&format!("simd-{path}-{code}.raw"));
            let args = [
                "octal",
                code,
                "-n",
                n,
                "--no-fill",
                "--backend",
                "cpu",
                "--algorithm",
                "rare",
                "--format",
                "raw",
                "--out",
                out.to_str().unwrap(),
                "--json",
            ];
            let ran = grundy_with(path, &args);
            assert!(
                ran.status.success(),
                "{}",
                String::from_utf8_lossy(&ran.stderr)
            );
            let summary: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
            assert_eq!(summary["simd"], *path, "{code}");
            tables.push(std::fs::read(&out).unwrap());
        }
        assert!(
            tables.windows(2).all(|w| w[0] == w[1]),
            "{code}: the paths differ"
        );
    }
}

#[test]
fn a_path_the_cpu_lacks_or_a_bad_name_is_refused() {
    let mut refused = vec!["sse9"];
    if detected() < Simd::Avx512 {
        refused.push("avx512");
    }
    for path in refused {
        let out = grundy_with(path, &["octal", "0.07", "-n", "10"]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(&format!("GRUNDY_SIMD={path}")), "{said}");
    }
}
