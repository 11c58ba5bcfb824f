//! The GPU runner's contract, seen from the command line: every GPU run's
//! JSON summary says what it asked of the GPU, pipelines are built once per
//! kernel per run whatever N is, and a CPU run says it used no GPU.

use crate::common::{grundy, json};

/// The `gpu` object of a run's JSON summary.
fn gpu_of(args: &[&str]) -> serde_json::Value {
    let summary = json(&grundy(args));
    assert_eq!(summary["backend"], "gpu", "{args:?}: {summary}");
    summary["gpu"].clone()
}

fn count(gpu: &serde_json::Value, field: &str) -> u64 {
    gpu[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} in {gpu}"))
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn pipelines_are_built_once_per_kernel_per_run_whatever_n() {
    // A Nim-sequence by brute force extends its table once per doubling
    // (period checks at 4096 heaps and each doubling): more blocks and more
    // calls at 4N, the same two pipelines.
    let run = |n: &str| {
        let args = [
            "octal",
            "0.07",
            "-n",
            n,
            "--algorithm",
            "naive",
            "--no-fill",
        ];
        gpu_of(&[&args[..], &["--backend", "gpu", "--json", "-q"]].concat())
    };
    let (small, large) = (run("8000"), run("32000"));
    assert_eq!(count(&small, "pipelines_built"), 2, "{small}");
    assert_eq!(count(&large, "pipelines_built"), 2, "{large}");
    assert!(count(&large, "submits") > count(&small, "submits"));
    // the table comes back once: two bytes a value, and the status words
    assert!(count(&large, "bytes_read_back") >= 2 * 32001);
    assert!(count(&large, "bytes_uploaded") > 0);
    // A survey builds its kernel once for every batch and round.
    let survey = |n: &str| {
        gpu_of(&[
            "survey",
            "--digits",
            "1",
            "-n",
            n,
            "--backend",
            "gpu",
            "--json",
            "-q",
        ])
    };
    let (small, large) = (survey("5000"), survey("20000"));
    assert_eq!(count(&small, "pipelines_built"), 1, "{small}");
    assert_eq!(count(&large, "pipelines_built"), 1, "{large}");
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn every_gpu_family_reports_its_gpu_work() {
    let families: [&[&str]; 4] = [
        &["graph", "0.33", "-g", "grid:3x4", "--solver", "dense"],
        &["arrows", "--graph", "path:6", "--solver", "dense"],
        &["rect", "--max", "12"],
        &["delete-nim", "--rule", "vdn", "--max", "12"],
    ];
    for args in families {
        let mut args = args.to_vec();
        args.extend(["--backend", "gpu", "--json", "-q"]);
        let gpu = gpu_of(&args);
        assert_eq!(
            count(&gpu, "pipelines_built"),
            match args[0] {
                // Delete Nim's module has two entry points (the levels and the split sets)
                "delete-nim" => 2,
                _ => 1,
            },
            "{args:?}: {gpu}"
        );
        assert!(count(&gpu, "submits") >= 1, "{args:?}: {gpu}");
        assert!(count(&gpu, "bytes_read_back") >= 4, "{args:?}: {gpu}");
    }
}

#[test]
fn a_cpu_run_reports_no_gpu_work() {
    for args in [
        &["octal", "0.07", "-n", "3000", "--backend", "cpu", "--json"][..],
        &[
            "graph",
            "0.33",
            "-g",
            "grid:3x3",
            "--backend",
            "cpu",
            "--json",
        ],
        &["rect", "--max", "10", "--backend", "cpu", "--json"],
        &[
            "survey",
            "--digits",
            "1",
            "-n",
            "1000",
            "--backend",
            "cpu",
            "--json",
        ],
    ] {
        let summary = json(&grundy(args));
        assert_eq!(summary["backend"], "cpu", "{args:?}");
        assert!(summary["gpu"].is_null(), "{args:?}: {summary}");
        assert!(summary.get("gpu").is_some(), "{args:?}: the field is there");
    }
}
