//! The GPU kernels against their CPU twins (and the general engine) on the
//! same inputs. Without an adapter these print a skip notice; under
//! `GRUNDY_REQUIRE_GPU=1` they fail instead.

use crate::common::{Rng, gpu_or_skip, random_kernel_code};
use grundy::game::Code;
use grundy::internals::engine::{Backend, cpu_blocked};
use grundy::internals::gpu::Runner;
use grundy::internals::gpu::heap::{GpuTuning, block_limit, extend};
use grundy::internals::kernel::heap::HeapKernelCode;

fn ctx(backend: &Backend) -> &Runner {
    match backend {
        Backend::Gpu(ctx) => ctx,
        Backend::Cpu => unreachable!(),
    }
}

fn gpu_table(ctx: &Runner, code: &Code, n: u32, tuning: &GpuTuning) -> Vec<u16> {
    let k = HeapKernelCode::new(code).unwrap();
    extend(ctx, &k, &[], n, tuning, &grundy::hooks::Silent)
        .unwrap()
        .0
}

fn cpu_table(code: &Code, n: u32) -> Vec<u16> {
    cpu_blocked(
        &HeapKernelCode::new(code).unwrap(),
        Vec::new(),
        n,
        &grundy::hooks::Silent,
    )
    .unwrap()
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_equals_cpu_on_random_codes() {
    let Some(backend) = gpu_or_skip("gpu_equals_cpu_on_random_codes") else {
        return;
    };
    let ctx = ctx(&backend);
    let mut rng = Rng(0x6e0_0002);
    let mut ran = 0;
    let mut widenings = 0;
    for _ in 0..300 {
        let code = random_kernel_code(&mut rng);
        let n = 100 + rng.below(300) as u32;
        let k = HeapKernelCode::new(&code).unwrap();
        if block_limit(ctx, &k, n, &GpuTuning::default()).is_err() {
            continue; // a repeating split tail too long for llvmpipe's loop cap
        }
        let (g, stats) = extend(
            ctx,
            &k,
            &[],
            n,
            &GpuTuning::default(),
            &grundy::hooks::Silent,
        )
        .unwrap();
        assert_eq!(g, cpu_table(&code, n), "{}", code.name());
        widenings += stats.widenings;
        ran += 1;
    }
    assert!(ran >= 250, "only {ran} codes ran");
    // Some codes' values outgrow the bitset inside a block: the redo path ran.
    assert!(widenings > 0, "no code needed a wider bitset");
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_equals_cpu_across_blocks_chunks_and_2d_grids() {
    let Some(backend) = gpu_or_skip("gpu_equals_cpu_across_blocks_chunks_and_2d_grids") else {
        return;
    };
    let ctx = ctx(&backend);
    // Tiny value chunks (1024 words = 2048 values each) so the table spans all
    // four bindings, and 7 workgroups per row so every dispatch folds into 2D.
    let tuning = GpuTuning {
        chunk_shift: Some(10),
        max_groups_x: 7,
        ..GpuTuning::default()
    };
    for text in ["0.07", "4!.0", "0.16", "0.[3]", "0.3033", "4?.07"] {
        let code = Code::parse(text).unwrap();
        let n = 8000;
        assert_eq!(
            gpu_table(ctx, &code, n, &tuning),
            cpu_table(&code, n),
            "{text}"
        );
    }
    // Schrage's variant: splits differing by at least 3.
    let code = Code::parse("4.0").unwrap().with_min_diff(3);
    assert_eq!(
        gpu_table(ctx, &code, 5000, &GpuTuning::default()),
        cpu_table(&code, 5000)
    );
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_follows_values_that_keep_growing() {
    let Some(backend) = gpu_or_skip("gpu_follows_values_that_keep_growing") else {
        return;
    };
    let ctx = ctx(&backend);
    // Nim's values double the bitset again and again inside large blocks.
    let code = Code::parse("0.[3]").unwrap();
    let g = gpu_table(ctx, &code, 6000, &GpuTuning::default());
    assert!(g.iter().enumerate().all(|(n, &v)| v as usize == n));
    // 0.007's values grow past several widths too.
    let code = Code::parse("0.007").unwrap();
    assert_eq!(
        gpu_table(ctx, &code, 12000, &GpuTuning::default()),
        cpu_table(&code, 12000)
    );
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_extends_a_table_from_an_odd_length() {
    let Some(backend) = gpu_or_skip("gpu_extends_a_table_from_an_odd_length") else {
        return;
    };
    let ctx = ctx(&backend);
    let code = Code::parse("0.77").unwrap();
    let k = HeapKernelCode::new(&code).unwrap();
    let whole = cpu_table(&code, 5000);
    let (g, _) = extend(
        ctx,
        &k,
        &whole[..1235],
        5000,
        &GpuTuning::default(),
        &grundy::hooks::Silent,
    )
    .unwrap();
    assert_eq!(g, whole);
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_finishes_blocks_past_the_cached_heaps() {
    let Some(backend) = gpu_or_skip("gpu_finishes_blocks_past_the_cached_heaps") else {
        return;
    };
    let ctx = ctx(&backend);
    // finish_block keeps the table's first heaps in workgroup memory, all
    // but the last 16 a full block's splits reach; reads past them go to the
    // table. llvmpipe's blocks are short, so the tuning caches fewer heaps
    // (none, then 100). Dense codes whose bitsets outgrow the words fetched
    // ahead of each heap (Nim's at once).
    for (text, head_heaps) in [("0.04", 0), ("0.06", 100), ("0.[3]", 100), ("4!.0", 7)] {
        let code = Code::parse(text).unwrap();
        let n = 6000;
        let tuning = GpuTuning {
            head_heaps,
            ..GpuTuning::default()
        };
        assert_eq!(
            gpu_table(ctx, &code, n, &tuning),
            cpu_table(&code, n),
            "{text}"
        );
    }
}

/// Random codes that never split, with unbounded takes: a prefix and a
/// repeating tail of digits 0–3, the tail taking something.
fn random_unbounded_code(rng: &mut Rng) -> String {
    loop {
        let digit = |r: u64| char::from(b'0' + (r % 4) as u8);
        let prefix: String = (0..1 + rng.below(5))
            .map(|_| digit(rng.next_u64()))
            .collect();
        let tail: String = (0..1 + rng.below(3))
            .map(|_| digit(rng.next_u64()))
            .collect();
        if tail.chars().any(|c| c != '0') {
            return format!("0.{prefix}[{tail}]");
        }
    }
}

/// The misère heap kernels (`genus_below`, `genus_finish`) against their
/// CPU twin, every heap's every plane, on random codes with unbounded
/// takes, across blocks of every length the plan makes.
#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_equals_cpu_on_random_codes_under_misere_play() {
    use grundy::internals::engine::misere_heaps::cpu_table;
    use grundy::internals::gpu::genus::table;
    use grundy::internals::kernel::genus::GenusKernelCode;
    let Some(backend) = gpu_or_skip("gpu_equals_cpu_on_random_codes_under_misere_play") else {
        return;
    };
    let ctx = ctx(&backend);
    let mut rng = Rng(0x6e0_0076);
    let mut codes: Vec<String> = (0..10).map(|_| random_unbounded_code(&mut rng)).collect();
    codes.push("0.[3]".into());
    for text in &codes {
        let code = GenusKernelCode::new(&Code::parse(text).unwrap()).unwrap();
        let n = 200 + rng.below(1000) as u32;
        let silent = &grundy::hooks::Silent;
        let on_card = table(ctx, &code, n, silent).unwrap().unwrap();
        assert_eq!(
            on_card,
            cpu_table(&code, n, silent).unwrap().unwrap(),
            "{text} to {n}"
        );
    }
}

/// `octal --misere --backend gpu` writes the CPU's table, says it ran on
/// the card by the blocked kernels, and refuses a code the card does not
/// run (one whose takes are bounded) with status 2.
#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn the_misere_table_of_nim_on_the_card_is_the_cpus() {
    use crate::common::{grundy, json, tmp};
    if gpu_or_skip("the_misere_table_of_nim_on_the_card_is_the_cpus").is_none() {
        return;
    }
    let mut tables = Vec::new();
    for backend in ["gpu", "cpu"] {
        let path = tmp(&format!("misere-nim-{backend}.csv"));
        let path_text = path.to_str().unwrap();
        let out = grundy(&[
            "octal",
            "0.3[03]",
            "-n",
            "1500",
            "--misere",
            "--backend",
            backend,
            "--json",
            "--out",
            path_text,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        assert_eq!(
            (v["backend"].as_str(), v["method"].as_str()),
            (Some(backend), Some("blocked"))
        );
        tables.push(std::fs::read_to_string(&path).unwrap());
    }
    assert_eq!(tables[0], tables[1]);
    let out = grundy(&["octal", "0.33", "-n", "50", "--misere", "--backend", "gpu"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--backend gpu") && said.contains("0.33"),
        "{said}"
    );
}
