//! The command line as a user meets it: outputs, exit statuses, files.

use std::path::Path;
use std::process::Command;

use crate::common::{grundy, json, skip_without_gpu, tmp};

#[test]
fn octal_json_summary_has_the_contract_fields() {
    let v = json(&grundy(&[
        "octal",
        "0.77",
        "-n",
        "500",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(v["code"], "0.77");
    assert_eq!(v["n"], 500);
    assert_eq!(v["backend"], "cpu");
    assert!(v["adapter"].is_null());
    assert_eq!(v["max_value"], 8);
    assert_eq!(v["p_positions"], 1);
    assert_eq!(v["period"], 12);
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["certified"], true);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["checkpoint_saves"], 0, "no --checkpoint");
    assert_eq!(v["checkpoint_seconds"], 0.0);
}

#[test]
fn until_periodic_extends_until_certified() {
    let v = json(&grundy(&[
        "octal",
        "0.07",
        "--until-periodic",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(
        (v["period"].as_u64(), v["preperiod"].as_u64()),
        (Some(34), Some(53))
    );
    assert_eq!(v["certified"], true);
    // Grundy's game has no period below 2^12: the cap stops the search.
    let v = json(&grundy(&[
        "octal",
        "4!.0",
        "--until-periodic",
        "--max-n",
        "4096",
        "--backend",
        "cpu",
        "--json",
        "-q",
    ]));
    assert_eq!(v["n"], 4096);
    assert!(v["period"].is_null());
    assert_eq!(v["certified"], false);
}

#[test]
fn subtraction_is_its_code() {
    let a = json(&grundy(&[
        "subtraction",
        "1,3,4",
        "-n",
        "1000",
        "--backend",
        "cpu",
        "--json",
    ]));
    let b = json(&grundy(&[
        "octal",
        "0.3033",
        "-n",
        "1000",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(a["code"], "0.3033");
    assert_eq!(a["p_positions"], b["p_positions"]);
    assert_eq!(
        (a["period"].as_u64(), a["preperiod"].as_u64()),
        (Some(7), Some(0))
    );
}

#[test]
fn table_formats() {
    let csv = tmp("kayles.csv");
    let out = grundy(&[
        "octal",
        "0.77",
        "-n",
        "30",
        "--backend",
        "cpu",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "n,g");
    assert_eq!(lines[1], "0,0");
    assert_eq!(lines[28], "27,8");
    assert_eq!(lines.len(), 32);
    // No temporary file is left beside the table.
    let leftovers = std::fs::read_dir(csv.parent().unwrap())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("partial")
        })
        .count();
    assert_eq!(leftovers, 0);

    let out = grundy(&[
        "octal",
        "0.77",
        "-n",
        "11",
        "--backend",
        "cpu",
        "--format",
        "bfile",
        "--out",
        "-",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().nth(11),
        Some("11 6")
    );
    let out = grundy(&[
        "octal",
        "0.[3]",
        "-n",
        "40",
        "--backend",
        "cpu",
        "--format",
        "digits",
        "--out",
        "-",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "0123456789abcdefghijklmnopqrstuvwxyz(36)(37)(38)(39)(40)"
    );
}

#[test]
fn bad_input_exits_2_with_a_pointed_message() {
    let out = grundy(&["octal", "0.0/7", "-n", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unexpected '/'") && err.contains("expected a digit"),
        "{err}"
    );
    assert!(err.contains("     ^"), "caret under the slash: {err}");

    for (args, needle) in [
        (vec!["octal", "1.07", "-n", "10"], "d0"),
        (vec!["octal", "0.[]", "-n", "10"], "empty '[]'"),
        (vec!["octal", "0.{2,", "-n", "10"], "expected a heap count"),
        (vec!["octal", "0.4!!", "-n", "10"], "second modifier"),
        (vec!["octal", "007", "-n", "10"], "expected '.'"),
        (vec!["octal", "0.{2+}!", "-n", "10"], "unbounded"),
        (
            vec!["subtraction", "1,x", "-n", "10"],
            "'x' is not a whole number",
        ),
        (
            vec!["subtraction", "0,2", "-n", "10"],
            "0 is not a subtraction",
        ),
        (vec!["octal", "0.07", "-n", "9999999999999"], "too large"),
        (
            vec!["octal", "0.07", "-n", "10", "--json", "--out", "-"],
            "both write to stdout",
        ),
        (vec!["octal", "0.07"], "-n"),
        (
            vec!["octal", "0.07", "-n", "10", "--backend", "tpu"],
            "possible values",
        ),
    ] {
        let out = grundy(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: expected '{needle}' in: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// The tuning variables take only what they name: any other value is
/// refused with status 2 naming the variable and what it takes (it used
/// to fall back to the default, silently); an unset or empty one is the
/// default.
#[test]
fn a_bad_tuning_variable_is_refused_naming_it() {
    let bin = env!("CARGO_BIN_EXE_grundy");
    let run = |name: &str, value: &str| {
        Command::new(bin)
            .args(["octal", "0.6", "-n", "2000"])
            .env(name, value)
            .output()
            .unwrap()
    };
    for (name, value, takes) in [
        ("GRUNDY_PASS_AHEAD", "yes", "expected 1 or 0"),
        ("GRUNDY_STRETCHES", "2", "expected 1, 0 or idle"),
        ("GRUNDY_STRETCH_RUNS", "17", "expected a count from 2 to 16"),
        (
            "GRUNDY_STRETCH_RUNS",
            "many",
            "expected a count from 2 to 16",
        ),
    ] {
        let out = run(name, value);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}={value}: {err}");
        assert!(err.contains(&format!("{name}={value}: {takes}")), "{err}");
    }
    for (name, value) in [("GRUNDY_STRETCHES", "idle"), ("GRUNDY_PASS_AHEAD", "")] {
        let out = run(name, value);
        assert!(out.status.success(), "{name}={value}: {:?}", out.stderr);
    }
}

#[test]
fn help_has_examples_and_version_names_backends() {
    let commands = [
        "octal",
        "survey",
        "subtraction",
        "graph",
        "podes",
        "bipodes",
        "rect",
        "delete-nim",
        "arrows",
        "cycles",
        "hackenbush",
        "play",
        "completions",
        "bench",
    ];
    for cmd in commands {
        let out = grundy(&[cmd, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Examples:\n  grundy"), "{cmd}: {text}");
        assert!(text.contains(&format!("grundy {cmd} ")), "{cmd}");
    }
    // Every environment variable the program reads is named in its help.
    let text = String::from_utf8_lossy(&grundy(&["--help"]).stdout).into_owned();
    for variable in [
        "GRUNDY_SIMD",
        "GRUNDY_GPU_MAX_BINDING",
        "GRUNDY_PASS_AHEAD",
        "GRUNDY_STRETCHES",
        "GRUNDY_STRETCH_RUNS",
        "SLURM_ARRAY_TASK_ID",
    ] {
        assert!(text.contains(variable), "{variable}: {text}");
    }
    for game in ["octal", "subtraction", "graph", "arrows"] {
        let out = grundy(&["play", game, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("Examples:\n  grundy play {game} ")),
            "{game}"
        );
    }
    let out = grundy(&["--version"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("grundy {}", env!("CARGO_PKG_VERSION"))));
    // The commit it was built from, as git names it (none without git).
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let commit = format!("(commit {}", head.as_deref().unwrap_or("unknown commit"));
    assert!(text.contains(&commit), "{text} names {commit}");
    let here = if cfg!(target_os = "macos") {
        "Metal"
    } else {
        "Vulkan"
    };
    assert!(
        text.contains(&format!("GPU backends compiled in: {here}")),
        "{text}"
    );
}

#[test]
fn completions_cover_every_subcommand_and_unknown_shells_exit_2() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = grundy(&["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&out.stdout);
        for word in [
            "octal",
            "survey",
            "play",
            "delete-nim",
            "plot",
            "until-periodic",
        ] {
            assert!(text.contains(word), "{shell} lacks {word}");
        }
    }
    let out = grundy(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values"));
}

#[test]
fn bench_grid_sweep_solves_every_small_grid() {
    let v = json(&grundy(&[
        "bench",
        "--quick",
        "--backend",
        "cpu",
        "--only",
        "grids",
        "--json",
    ]));
    let rows = v["grids"].as_array().unwrap();
    // r x c with r <= c and rc <= 16, under 0.33 and 0.03
    assert_eq!(rows.len(), 2 * 27);
    let g = |code: &str, grid: &str| {
        let row = rows
            .iter()
            .find(|r| r["code"] == code && r["graph"] == grid)
            .unwrap_or_else(|| panic!("{code} {grid}"));
        row["g"].as_u64().unwrap()
    };
    // 0.03 on 2 x n: N exactly when n is odd (Dailly, Octal games on graphs, Corollary 35)
    for n in 2..=8 {
        assert_eq!(g("0.03", &format!("grid:2x{n}")) != 0, n % 2 == 1, "2x{n}");
    }
    // 0.33 on 3 x n is a P-position (Conjecture 63), on a path n mod 3
    for n in 3..=5 {
        assert_eq!(g("0.33", &format!("grid:3x{n}")), 0, "3x{n}");
    }
    for n in 1..=16 {
        assert_eq!(g("0.33", &format!("grid:1x{n}")), n % 3, "1x{n}");
    }
    assert!(rows.iter().any(|r| r["solver"] == "memo"));
    assert!(rows.iter().any(|r| r["solver"] == "dense"));
}

#[test]
fn bench_quick_reports_every_workload() {
    let csv = tmp("bench.csv");
    let _ = std::fs::remove_file(&csv);
    let v = json(&grundy(&[
        "bench",
        "--quick",
        "--backend",
        "cpu",
        "--json",
        "--out",
        csv.to_str().unwrap(),
    ]));
    let rows = v["workloads"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[3]["workload"], "misère 0.[3]");
    assert!(
        rows.iter()
            .all(|r| r["cpu_values_per_second"].as_f64().unwrap() > 0.0)
    );
    // rare values against the brute force on the same codes, and the survey
    let rare = v["rare"].as_array().unwrap();
    assert_eq!(rare.len(), 2);
    assert!(
        rare.iter()
            .all(|r| r["rare_over_cpu_brute"].as_f64().unwrap() > 0.0)
    );
    assert_eq!(v["survey"]["codes"], 64);
    // long sequences by rare values: Officers, Grundy's game, .1777, each
    // on every thread and on one, the pass's marks counted
    let long = v["long"].as_array().unwrap();
    assert_eq!(long.len(), 3);
    assert!(
        long.iter()
            .all(|r| r["values_per_second"].as_f64().unwrap() > 0.0
                && r["one_thread_seconds"].as_f64().unwrap() > 0.0)
    );
    assert!(
        long[0]["pass_marks"].as_u64().unwrap() > 1_000_000,
        "Officers marks rare pairs"
    );
    // 16 runs a stretch in rounds: their critical path well under their heaps
    assert!(
        long[0]["path_gain"].as_f64().unwrap() > 1.5
            && long[0]["rounds_bound"].as_f64().unwrap() > 0.0,
        "Officers' stretches in rounds: {}",
        long[0]
    );
    let parts = [
        "heaps", "rare", "long", "survey", "graphs", "edges", "tables",
    ];
    let counts: Vec<usize> = [
        "workloads",
        "rare",
        "long",
        "graphs",
        "edge_games",
        "tables",
    ]
    .iter()
    .map(|k| v[k].as_array().unwrap().len())
    .collect();
    // one CSV row per workload of every part, under one header
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("adapter,cpu_threads,part,workload,size,"));
    let lines: Vec<&str> = text.lines().skip(1).collect();
    // the survey's row, and a second row per graph workload the memo runs
    // (on one thread; misère play leaves it where positions are sums), a
    // third where the level memo runs on every thread
    let graphs = v["graphs"].as_array().unwrap();
    let memo = graphs
        .iter()
        .filter(|r| r["memo_seconds"].is_number())
        .count();
    let all_threads = graphs
        .iter()
        .filter(|r| r["memo_all_threads_seconds"].is_number())
        .count();
    // misère play: 0.33 (the memo takes it) and 0.137 (it does not)
    let misere: Vec<&serde_json::Value> = graphs
        .iter()
        .filter(|r| r["convention"] == "misere")
        .collect();
    assert_eq!(misere.len(), 2);
    assert!(misere[0]["memo_seconds"].is_number() && misere[1]["memo_seconds"].is_null());
    assert_eq!(
        lines.len(),
        counts.iter().sum::<usize>() + 1 + memo + all_threads
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(" memo one thread,"))
            .count(),
        memo
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(" memo all threads,"))
            .count(),
        all_threads
    );
    // the memo solver is timed against the recursion on the quick grid
    // (under normal play: the recursion adds pieces by xor)
    assert!(
        graphs
            .iter()
            .filter(|r| r["convention"] == "normal")
            .all(|r| r["memo_over_baseline"].as_f64().unwrap() > 0.0)
    );
    for part in parts {
        assert!(
            lines.iter().any(|l| l.split(',').nth(2) == Some(part)),
            "{part}"
        );
    }
    // a second run appends under the same header; a foreign file is refused
    let out = grundy(&[
        "bench",
        "--quick",
        "--backend",
        "cpu",
        "--only",
        "survey",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    // it names the GPU it did not time, and ends with a verdict per part
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("GPU: none (--backend cpu)\n"), "{said}");
    assert!(
        said.contains("\nverdicts\n  survey   GPU not timed (--backend cpu)"),
        "{said}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), lines.len() + 2);
    let foreign = tmp("foreign.csv");
    std::fs::write(&foreign, "a,b\n1,2\n").unwrap();
    let out = grundy(&[
        "bench",
        "--quick",
        "--backend",
        "cpu",
        "--only",
        "survey",
        "--out",
        foreign.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected 'adapter,"));
}

/// A run of the brute force, far below the size where `auto` looks for a GPU.
const SMALL_BRUTE_FORCE: [&str; 7] = [
    "octal",
    "0.07",
    "-n",
    "300",
    "--algorithm",
    "naive",
    "--json",
];

/// A backend wgpu cannot find on this platform, to hide every adapter.
#[cfg(target_os = "macos")]
const NO_ADAPTER_BACKEND: &str = "dx12";
#[cfg(not(target_os = "macos"))]
const NO_ADAPTER_BACKEND: &str = "metal";

#[test]
fn without_an_adapter_gpu_is_an_error_and_auto_falls_back() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(args)
            .env("WGPU_BACKEND", NO_ADAPTER_BACKEND)
            .output()
            .unwrap()
    };
    // The brute force: the run needs a backend (rare values never open one).
    let out = run(&[SMALL_BRUTE_FORCE.as_slice(), &["--backend", "gpu"]].concat());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no GPU adapter found"), "{err}");
    // A software driver is no way to speed: the message does not send people to one.
    assert!(!err.contains("mesa") && !err.contains("software"), "{err}");
    // Auto looks for a GPU for a job large enough to pay (2^24 positions),
    // finds none, says so and runs on the CPU.
    let out = run(&[
        "graph", "0.03", "--graph", "grid:4x6", "--solver", "dense", "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        err.contains("no GPU adapter found (Vulkan, Metal or DX12); running on the CPU"),
        "{err}"
    );
    let v = json(&out);
    assert_eq!(v["backend"], "cpu");
    assert_eq!(v["g"], 0, "0.03 on the 4x6 grid is a P-position");
}

#[test]
fn auto_runs_on_the_gpu_when_there_is_one() {
    match grundy::internals::gpu::Runner::open() {
        Ok(Some(ctx)) if ctx.is_software() => {
            // A software adapter is no GPU: auto runs on the CPU (tests/trust.rs).
            let v = json(&grundy(&SMALL_BRUTE_FORCE));
            assert_eq!(v["backend"], "cpu");
            return;
        }
        Ok(Some(_)) => {}
        _ => return skip_without_gpu("auto_runs_on_the_gpu_when_there_is_one", "no GPU adapter"),
    }
    // The brute force from 2^16 heaps, where a real GPU pays, runs on it.
    let naive = ["--algorithm", "naive", "--no-fill", "--json"];
    let out = grundy(&[&["octal", "0.07", "-n", "65536"][..], &naive].concat());
    let v = json(&out);
    assert_eq!(v["backend"], "gpu");
    assert!(v["adapter"].is_string());
    assert_eq!(
        (v["period"].as_u64(), v["preperiod"].as_u64()),
        (Some(34), Some(53))
    );
    // Delete Nim's tables stay on the CPU, where they ran faster on an H200;
    // rectangles take the card from 2^20 positions.
    for (args, backend, positions) in [
        (
            "delete-nim --rule single --heaps 2 --max 1500",
            "cpu",
            1125750,
        ),
        ("rect --max 1000", "cpu", 500500),
        ("rect --max 1448", "gpu", 1049076),
    ] {
        let args: Vec<&str> = args.split(' ').chain(["--json"]).collect();
        let v = json(&grundy(&args));
        assert_eq!(
            (&v["backend"], &v["positions"]),
            (&backend.into(), &positions.into()),
            "{args:?}"
        );
    }
    // Rare values run their blocks' parallel pass on the GPU when asked to.
    let out = grundy(&["octal", "0.07", "-n", "300", "--backend", "gpu", "--json"]);
    let v = json(&out);
    assert_eq!(
        (&v["backend"], &v["engine"]),
        (&"gpu".into(), &"rare".into())
    );
    assert_eq!(v["gpu"]["pipelines_built"], 1);
}

#[test]
fn bench_on_a_gpu_ends_with_its_verdict() {
    let out = grundy(&["bench", "--quick", "--only", "heaps", "--backend", "gpu"]);
    if out.status.code() == Some(2) {
        crate::common::skip_without_gpu("bench_on_a_gpu_ends_with_its_verdict", "no GPU adapter");
        return;
    }
    let said = String::from_utf8_lossy(&out.stdout);
    let verdict = said
        .lines()
        .skip_while(|l| *l != "verdicts")
        .nth(1)
        .unwrap_or("");
    // four workloads on the card (sw-GPU on llvmpipe) against the CPU,
    // misère Nim's blocks among them
    assert!(verdict.starts_with("  heaps    "), "{said}");
    assert!(said.contains("misère 0.[3]"), "{said}");
    assert!(
        verdict.contains("GPU at ") && verdict.ends_with(" of 4 workloads"),
        "{said}"
    );
}

/// `man/` holds what `grundy man --dir` writes now: a page per command,
/// made from the same definitions as `--help`.
#[test]
fn the_man_pages_in_the_repository_are_current() {
    let dir = tmp("man-pages");
    let _ = std::fs::remove_dir_all(&dir);
    let out = grundy(&["man", "--dir", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names = |d: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let kept = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let stale = "man/ is stale: run `cargo run --release -- man --dir man`";
    assert_eq!(names(&dir), names(&kept), "{stale}");
    assert!(names(&dir).len() > 20 && names(&dir).contains(&"grundy-octal.1".into()));
    for name in names(&dir) {
        let (now, then) = (
            std::fs::read(dir.join(&name)),
            std::fs::read(kept.join(&name)),
        );
        assert!(now.unwrap() == then.unwrap(), "{name}: {stale}");
    }
    let top = grundy(&["man"]);
    assert!(String::from_utf8_lossy(&top.stdout).starts_with(".ie \\n(.g .ds Aq"));
    assert_eq!(top.stdout, std::fs::read(kept.join("grundy.1")).unwrap());
}

/// `--misere` on a subtraction game: each heap's misère value and outcome
/// equal a plain recursion over the game's own moves (g⁻ = 1 with no move,
/// else the mex of the options'), beside the normal value; the JSON says
/// which convention it holds.
#[test]
fn a_misere_table_of_a_subtraction_game_is_the_recursions() {
    let path = tmp("misere-134.csv");
    let out = grundy(&[
        "subtraction",
        "1,3,4",
        "-n",
        "300",
        "--misere",
        "--json",
        "--out",
        path.to_str().unwrap(),
    ]);
    let v = json(&out);
    assert_eq!(
        (v["convention"].as_str(), v["n"].as_u64()),
        (Some("misere"), Some(300))
    );
    let mex = |seen: &[u32]| (0..).find(|v| !seen.contains(v)).unwrap();
    let (mut normal, mut misere) = (Vec::new(), Vec::new());
    for h in 0..=300usize {
        let options: Vec<usize> = [1, 3, 4]
            .iter()
            .filter(|&&s| s <= h)
            .map(|&s| h - s)
            .collect();
        let g: Vec<u32> = options.iter().map(|&o| normal[o]).collect();
        let m: Vec<u32> = options.iter().map(|&o| misere[o]).collect();
        normal.push(mex(&g));
        misere.push(if options.is_empty() { 1 } else { mex(&m) });
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("n,g,g_misere,outcome_misere,genus"));
    for (h, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        let outcome = if misere[h] == 0 { "P" } else { "N" };
        let want = [h.to_string(), normal[h].to_string(), misere[h].to_string()];
        assert_eq!(cells[..3], want, "heap {h}");
        assert_eq!(cells[3], outcome, "heap {h}");
    }
    let p = misere.iter().filter(|&&m| m == 0).count() as u64;
    assert_eq!(v["p_positions"].as_u64(), Some(p));
}

/// `--misere` refuses, with status 2 and the reason, a code that splits
/// heaps (its heaps are sums under misère play) and the flags of the
/// normal engines.
#[test]
fn misere_refuses_the_normal_engines_flags() {
    for flags in [
        &["--until-periodic"][..],
        &["--format", "raw"],
        &["--algorithm", "rare"],
        // the card runs codes that take without bound; 0.33 takes at most 2
        &["--backend", "gpu"],
    ] {
        let mut args = vec!["octal", "0.33", "-n", "10", "--misere"];
        args.extend_from_slice(flags);
        let out = grundy(&args);
        let text = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}: {text}");
        assert!(text.contains(flags[0]), "{flags:?}: {text}");
    }
}

/// Kayles splits heaps: its misère table is valued over whole sums, its
/// normal column is Kayles' Nim-sequence, and the JSON says how.
#[test]
fn misere_kayles_is_searched_over_whole_sums() {
    let out = grundy(&["octal", "0.77", "-n", "20", "--misere", "--out", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 21);
    // Kayles' normal values (Winning Ways, chapter 4): 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1
    let kayles = [
        0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1,
    ];
    for (row, g) in rows.iter().zip(kayles) {
        assert_eq!(row[1], g.to_string(), "{row:?}");
    }
    // no heap: misère value 1; one pin: its one move loses
    assert_eq!((rows[0][2], rows[1][2]), ("1", "0"));
    let v = json(&grundy(&[
        "octal", "0.77", "-n", "20", "--misere", "--json",
    ]));
    assert_eq!(
        (v["method"].as_str(), v["last_heap"].as_u64()),
        (Some("sums"), Some(20))
    );
    assert!(v["sums"].as_u64().unwrap() > 20);
    let v = json(&grundy(&[
        "octal", "0.33", "-n", "20", "--misere", "--json",
    ]));
    assert_eq!(v["method"], "linear");
    assert!(v.get("sums_bound").is_none());
}

/// `--min-diff` moves nothing in a code that never splits: misère Nim keeps
/// its blocks and its values (before, it fell back to the heap-by-heap
/// stream, and `--backend gpu` refused it).
#[test]
fn misere_nim_with_min_diff_keeps_its_blocks() {
    let nim = |extra: &[&str]| {
        let mut args = vec!["octal", "0.[3]", "-n", "300", "--misere", "--out", "-"];
        args.extend_from_slice(extra);
        grundy(&args)
    };
    let (plain, restricted) = (nim(&[]), nim(&["--min-diff", "2"]));
    assert!(restricted.status.success() && restricted.stdout.len() > 300 * 6);
    assert_eq!(plain.stdout, restricted.stdout);
    let v = json(&grundy(&[
        "octal",
        "0.[3]",
        "-n",
        "300",
        "--misere",
        "--min-diff",
        "2",
        "--json",
    ]));
    assert_eq!(v["method"], "blocked");
}

/// A search over whole sums is counted before it starts: Dawson's Kayles
/// to heap 40 meets at most the multisets of heaps of 2 or more within 40
/// counters (the partitions of 40: p(40) = 37,338) beside each of the 28
/// pairs of nim-heaps the genus adds, and meets no more than that.
#[test]
fn misere_whole_sum_search_is_bounded_before_it_starts() {
    let v = json(&grundy(&[
        "octal", "0.07", "-n", "40", "--misere", "--json",
    ]));
    assert_eq!(v["sums_bound"].as_u64(), Some(28 * 37_338));
    let sums = v["sums"].as_u64().unwrap();
    assert!(sums > 0 && sums <= 28 * 37_338, "{sums}");
    assert_eq!(v["sums_certain_to"].as_u64(), Some(40));
}
