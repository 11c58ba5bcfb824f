//! Rare values' block pass on the GPU: the kernel against its CPU twin on
//! real tables, whole runs on the GPU path against the CPU path and the
//! brute force, and checkpoints resumed on the GPU path.

use crate::common::{Rng, gpu_or_skip, grundy, grundy_with_env, json, random_kernel_code, tmp};
use grundy::game::Code;
use grundy::internals::engine::heap::rare::{RareCode, RareRun};
use grundy::internals::engine::heap::sequence::{Algorithm, SequenceRun};
use grundy::internals::engine::heap::storage::escaped::Escaped;
use grundy::internals::engine::heap::storage::table::HeapTable;
use grundy::internals::engine::{Backend, BackendChoice, LazyBackend, Ran, cpu_blocked};
use grundy::internals::gpu::heap::GpuTuning;
use grundy::internals::gpu::rare::{GpuPass, Table};
use grundy::internals::kernel::heap::HeapKernelCode;
use grundy::internals::kernel::rare::rare_pass::rare_pass;
use grundy::internals::kernel::rare::{MAX_WORDS, PassParams, TABLE_PIECES};

fn brute(code: &Code, n: u32) -> Vec<u16> {
    cpu_blocked(
        &HeapKernelCode::new(code).unwrap(),
        Vec::new(),
        n,
        &grundy::hooks::Silent,
    )
    .unwrap()
}

/// Codes with rare values: the literature's sparse ones and random ones.
fn sparse_codes(rng: &mut Rng, random: usize) -> Vec<Code> {
    let mut codes: Vec<Code> = ["0.6", "4!.0", "0.1777", "0.16", "0.07", "4.7"]
        .iter()
        .map(|t| Code::parse(t).unwrap())
        .collect();
    while codes.len() < 6 + random {
        let code = random_kernel_code(rng);
        if RareCode::new(&code).is_ok() {
            codes.push(code);
        }
    }
    codes
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn the_block_pass_on_the_gpu_equals_its_twin() {
    let Some(Backend::Gpu(runner)) = gpu_or_skip("the_block_pass_on_the_gpu_equals_its_twin")
    else {
        return;
    };
    let mut rng = Rng(0x5eed_2201);
    let mut compared = 0;
    for code in sparse_codes(&mut rng, 40) {
        let rc = RareCode::new(&code).unwrap();
        let n = 2000 + rng.below(4000) as usize;
        let g = brute(&code, n as u32);
        let s = 64 + rng.below(n as u64 / 2) as usize;
        let e = n.min(s + 1 + rng.below(700) as usize);
        let run = RareRun::new(&rc, &g[..s]);
        let max = *g[..s].iter().max().unwrap() as u32;
        let words = 2 * (2 * (max + 1).next_power_of_two()).div_ceil(64);
        if words > MAX_WORDS {
            continue;
        }
        let values: Vec<u32> = run.rare.iter().map(|&r| g[r] as u32).collect();
        let params = PassParams {
            s: s as u32,
            first: s as u32,
            count: (e - s) as u32,
            words,
            mask: run.split.mask,
            parity: run.split.parity.map_or(0, |t| t + 1),
            rare_count: run.rare.len() as u32,
            groups_x: 0,
            piece_shift: piece_shift(&mut rng, n),
        };
        let table = grundy::internals::kernel::pack_u16(&g[..s]);
        let mut pieces: Vec<&[u32]> = table.chunks(1 << params.piece_shift).collect();
        pieces.resize(TABLE_PIECES, pieces[0]);
        let rare: Vec<u32> = run
            .rare
            .iter()
            .zip(&values)
            .flat_map(|(&r, &v)| [r as u32, v])
            .collect();
        let mut sets = vec![0u32; (e - s) * 2 * words as usize];
        let mut results = vec![0u32; (e - s) * 2];
        rare_pass(
            &params,
            &rc.pass_words(),
            &pieces,
            &rare,
            &mut sets,
            &mut results,
        );
        let piece_bytes = 4 << params.piece_shift;
        let mut pass = GpuPass::in_pieces(&runner, &rc, n as u64 + 1, piece_bytes);
        assert_eq!(pass.holds(), n as u64 + 1 + (n as u64 + 1) % 2);
        let pack = Table::pack_slice(&g[..s]);
        let table = Table {
            len: s,
            pack: &pack,
        };
        let out = pass.run(params, &table, &run.rare, &values).unwrap();
        let name = code.name();
        assert_eq!(out.results, results, "{name}: c′ and pairs, heaps {s}..{e}");
        assert_eq!(
            out.sets, sets,
            "{name}: marks and missing values, heaps {s}..{e}"
        );
        compared += 1;
    }
    assert!(compared >= 30, "{compared} codes compared");
}

/// Words per table piece for a table of `n + 1` values: as few as let the
/// pass's pieces hold it (so most tables span several), or up to four
/// times more.
fn piece_shift(rng: &mut Rng, n: usize) -> u32 {
    let words = (n + 2) / 2;
    let least = words.div_ceil(TABLE_PIECES).next_power_of_two().ilog2();
    least.max(2) + rng.below(3) as u32
}

/// G(0..=n) by rare values on `backend`, where the last piece ran, and the
/// heaps whose pass ran on the GPU, ran there while the block before was
/// finished, and were finished in stretches by the host's cores.
fn rare_on(code: &Code, n: u64, backend: &LazyBackend) -> (Vec<u16>, Ran, (u64, u64, u64)) {
    rare_on_from(code, n, backend, HeapTable::default())
}

/// `rare_on`, from `table` (empty: of the kind the run starts with).
fn rare_on_from(
    code: &Code,
    n: u64,
    backend: &LazyBackend,
    table: HeapTable,
) -> (Vec<u16>, Ran, (u64, u64, u64)) {
    let mut run = SequenceRun::new(code, Algorithm::Rare, table).unwrap();
    let tuning = GpuTuning::default();
    let done = run
        .extend(n, backend, &tuning, &grundy::hooks::Silent)
        .unwrap();
    assert!(done);
    let counts = run.rare_counts().unwrap_or_default();
    let stretched = counts.guessed_kept + counts.guessed_redone;
    let gpu = (counts.gpu_heaps, counts.pass_ahead, stretched);
    (run.table.into_wide(), run.ran_on, gpu)
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn rare_values_with_the_gpu_pass_equal_the_cpu_and_the_brute_force() {
    if gpu_or_skip("rare_values_with_the_gpu_pass_equal_the_cpu_and_the_brute_force").is_none() {
        return;
    }
    let gpu = LazyBackend::new(BackendChoice::Gpu, &grundy::hooks::Silent).unwrap();
    let cpu = LazyBackend::cpu();
    // Officers, Grundy's game, .1777, .161 and .16 (periodic) far enough
    // for many blocks
    for (text, n) in [
        ("0.6", 40_000),
        ("4!.0", 40_000),
        ("0.1777", 60_000),
        ("0.161", 40_000),
        ("0.16", 40_000),
    ] {
        let code = Code::parse(text).unwrap();
        let (on_gpu, ran, gpu_heaps) = rare_on(&code, n, &gpu);
        assert_eq!(ran, Ran::Gpu, "{text}");
        assert!(gpu_heaps.0 > 0, "{text}: the pass ran on the GPU");
        if ["0.6", "4!.0"].contains(&text) {
            // (.1777 and .16 go mostly in order: no pass to launch ahead)
            assert!(
                gpu_heaps.1 > 0,
                "{text}: passes ran while blocks were finished"
            );
            // The card's blocks leave the host's cores free: the finish
            // runs in stretches on any number of threads from two.
            let cores = rayon::current_num_threads() >= 2;
            assert!(gpu_heaps.2 > 0 || !cores, "{text}: heaps in stretches");
        }
        assert_eq!(
            on_gpu,
            rare_on(&code, n, &cpu).0,
            "{text}: GPU pass against CPU pass"
        );
        assert_eq!(
            on_gpu,
            brute(&code, n as u32),
            "{text}: against the brute force"
        );
        // Values from 8 on kept apart: the upload reads through the escapes.
        let escaped = HeapTable::Escaped(Escaped::new(8, false));
        let (escaped_on_gpu, ran, _) = rare_on_from(&code, n, &gpu, escaped);
        assert_eq!(ran, Ran::Gpu, "{text}");
        assert_eq!(escaped_on_gpu, on_gpu, "{text}: escaped table on the GPU");
    }
    // and 200 random sparse codes against the brute force
    let mut rng = Rng(0x5eed_2202);
    for code in sparse_codes(&mut rng, 200).into_iter().skip(6) {
        let n = 500 + rng.below(2500);
        let (on_gpu, _, _) = rare_on(&code, n, &gpu);
        assert_eq!(on_gpu, brute(&code, n as u32), "{}", code.name());
    }
}

/// The card's passes with the host's eight threads finishing every block
/// in stretches, in rounds (what a card's host, its cores free, does by
/// default): the brute force's tables, and stretches and rounds taken.
#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn the_card_s_blocks_finished_in_rounds_on_eight_threads_give_the_brute_force() {
    if gpu_or_skip("the_card_s_blocks_finished_in_rounds_on_eight_threads_give_the_brute_force")
        .is_none()
    {
        return;
    }
    // The default: the card's passes leave every core to the stretches.
    let eight = rayon::ThreadPoolBuilder::new()
        .num_threads(8)
        .build()
        .unwrap();
    // (the backend is made on the pool's thread: it is not shared)
    eight.install(|| {
        let gpu = LazyBackend::new(BackendChoice::Gpu, &grundy::hooks::Silent).unwrap();
        for (text, n) in [("0.6", 40_000), ("4!.0", 40_000), ("0.161", 30_000)] {
            let code = Code::parse(text).unwrap();
            let mut run = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default()).unwrap();
            let tuning = GpuTuning::default();
            let done = run.extend(n, &gpu, &tuning, &grundy::hooks::Silent);
            assert!(done.unwrap(), "{text}");
            let counts = run.rare_counts().unwrap_or_default();
            assert!(
                counts.gpu_heaps > 0 && counts.stretches > 0,
                "{text}: {counts:?}"
            );
            if text != "0.161" {
                assert!(counts.rounds > 0, "{text}: {counts:?}");
            }
            assert_eq!(run.table.into_wide(), brute(&code, n as u32), "{text}");
        }
    });
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn a_checkpoint_resumes_on_the_gpu_path() {
    if gpu_or_skip("a_checkpoint_resumes_on_the_gpu_path").is_none() {
        return;
    }
    let (ck, a, b) = (tmp("officers.ck"), tmp("gpu.csv"), tmp("cpu.csv"));
    let ck = ck.to_str().unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let first = [
        "octal",
        "0.6",
        "-n",
        "20000",
        "--backend",
        "gpu",
        "--json",
        "-q",
    ];
    let summary = json(&grundy(&[&first[..], &["--checkpoint", ck]].concat()));
    assert_eq!(summary["backend"], "gpu");
    assert_eq!(summary["engine"], "rare");
    let resumed = [
        "octal",
        "0.6",
        "-n",
        "40000",
        "--backend",
        "gpu",
        "--json",
        "-q",
    ];
    let summary = json(&grundy(
        &[&resumed[..], &["--resume", ck, "--out", a]].concat(),
    ));
    assert_eq!(summary["resumed_heaps"], 20001);
    assert_eq!(summary["backend"], "gpu");
    let cpu = [
        "octal",
        "0.6",
        "-n",
        "40000",
        "--backend",
        "cpu",
        "-q",
        "--out",
        b,
    ];
    assert!(grundy(&cpu).status.success());
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
}

/// `octal CODE -n N --backend gpu` with the binding capped at `cap` bytes
/// (`GRUNDY_GPU_MAX_BINDING`): its output, CSV to `out`.
fn capped_run(code: &str, n: &str, cap: &str, out: &str) -> std::process::Output {
    let args = [
        "octal",
        code,
        "-n",
        n,
        "--backend",
        "gpu",
        "--json",
        "--out",
        out,
    ];
    grundy_with_env(&args, &[("GRUNDY_GPU_MAX_BINDING", cap)])
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn a_table_past_one_binding_runs_in_pieces_then_on_the_cpu() {
    if gpu_or_skip("a_table_past_one_binding_runs_in_pieces_then_on_the_cpu").is_none() {
        return;
    }
    for code in ["0.6", "4!.0", "0.1777"] {
        let cpu_out = tmp(&format!("pieces-cpu-{code}.csv"));
        let cpu = [
            "octal",
            code,
            "-n",
            "20000",
            "--backend",
            "cpu",
            "-q",
            "--out",
        ];
        assert!(
            grundy(&[&cpu[..], &[cpu_out.to_str().unwrap()]].concat())
                .status
                .success()
        );
        let cpu = std::fs::read(cpu_out).unwrap();
        // 16 KiB pieces: 8192 values each, the table in three of them; then
        // 4 KiB pieces: 2048 values each, the table in ten
        let out = tmp(&format!("pieces-3-{code}.csv"));
        let run = capped_run(code, "20000", "16384", out.to_str().unwrap());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{code}: {stderr}");
        assert_eq!(json(&run)["backend"], "gpu", "{code}");
        assert!(!stderr.contains("block pass runs"), "{code}: {stderr}");
        assert!(std::fs::read(&out).unwrap() == cpu, "{code}: in pieces");
        // 4 KiB pieces: the eight the pass binds hold 16,384 values
        let out = tmp(&format!("pieces-4-{code}.csv"));
        let run = capped_run(code, "20000", "4096", out.to_str().unwrap());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{code}: {stderr}");
        assert!(
            stderr.contains("pieces of 4 KiB; the pass binds 8")
                && stderr.contains("runs on the GPU below heap 16384 and on the CPU past it"),
            "{code}: {stderr}"
        );
        assert!(
            std::fs::read(&out).unwrap() == cpu,
            "{code}: past the pieces"
        );
    }
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn a_bad_binding_cap_is_refused() {
    if gpu_or_skip("a_bad_binding_cap_is_refused").is_none() {
        return;
    }
    let run = capped_run("0.6", "100", "4k", tmp("cap.csv").to_str().unwrap());
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("GRUNDY_GPU_MAX_BINDING=4k: expected a number of bytes"),
        "{stderr}"
    );
}

/// `--json`'s `gpu` object on a run with the pass on the GPU: two blocks
/// in flight (the one the host finishes and the pass launched ahead), one
/// submission per block (the pass and its read-back together), the host's
/// waits on the card and the card's idle time counted; the table equals
/// the CPU's, which has no `gpu` object and never started a pass ahead.
#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn the_gpu_pass_reports_its_pipeline() {
    if gpu_or_skip("the_gpu_pass_reports_its_pipeline").is_none() {
        return;
    }
    let (gpu_out, cpu_out) = (tmp("pipeline-gpu.csv"), tmp("pipeline-cpu.csv"));
    let run = |backend: &str, out: &std::path::Path| {
        let out = out.to_str().unwrap();
        let args = [
            "octal",
            "0.6",
            "-n",
            "30000",
            "--backend",
            backend,
            "--json",
            "-q",
        ];
        let output = grundy(&[&args[..], &["--out", out]].concat());
        assert!(output.status.success(), "{backend}: {output:?}");
        json(&output)
    };
    let on_gpu = run("gpu", &gpu_out);
    let gpu = &on_gpu["gpu"];
    let count = |key: &str| gpu[key].as_u64().unwrap_or_else(|| panic!("{key}: {gpu}"));
    assert_eq!(count("blocks_in_flight_max"), 2, "{gpu}");
    let blocks = on_gpu["rare_blocks"]["pass_heaps"].as_u64().unwrap();
    assert!(
        blocks > 0 && count("submits") * 256 <= blocks + 256 * 4,
        "{on_gpu}"
    );
    assert!(count("host_waits") <= count("submits"), "{gpu}");
    for key in ["host_wait_seconds", "card_idle_seconds"] {
        assert!(gpu[key].as_f64().is_some_and(|s| s >= 0.0), "{key}: {gpu}");
    }
    let ahead = on_gpu["rare_blocks"]["pass_ahead"].as_u64().unwrap();
    assert!(ahead > 0, "{on_gpu}");
    let on_cpu = run("cpu", &cpu_out);
    assert!(on_cpu["gpu"].is_null(), "{on_cpu}");
    assert_eq!(on_cpu["rare_blocks"]["pass_ahead"], 0, "{on_cpu}");
    let read = |p: &std::path::Path| std::fs::read(p).unwrap();
    assert!(read(&gpu_out) == read(&cpu_out), "the tables differ");
}
