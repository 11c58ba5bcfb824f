//! Criterion benches of the heap kernels: the same workloads as `grundy
//! bench`, on the GPU (when an adapter exists) and on the CPU twins, so
//! criterion reports both side by side; rare values against the brute
//! force on the same codes; the survey of every 2-digit code.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::game::Code;
use grundy::internals::engine::Backend;
use grundy::internals::engine::heap::sequence::Algorithm;
use grundy::internals::engine::survey::{all_codes, survey_rows, survey_rows_gpu};
use grundy::internals::gpu::Runner;
use grundy_cli::bench::heaps::{Workload, suite, time_workload};
use grundy_cli::bench::rare::{rare_suite, time_rare};

fn heap_kernels(c: &mut Criterion) {
    let gpu = Runner::open()
        .ok()
        .flatten()
        .map(|ctx| Backend::Gpu(Box::new(ctx)));
    let mut group = c.benchmark_group("heap sequences");
    group.sample_size(10);
    for w in suite(true) {
        group.bench_with_input(BenchmarkId::new("cpu", w.name), &w, |b, w| {
            b.iter(|| time_workload(w, &Backend::Cpu).expect("runs"))
        });
        if let Some(gpu) = &gpu {
            group.bench_with_input(BenchmarkId::new("gpu", w.name), &w, |b, w| {
                b.iter(|| time_workload(w, gpu).expect("runs"))
            });
        }
    }
    group.finish();
}

fn rare_values(c: &mut Criterion) {
    let mut group = c.benchmark_group("rare values vs brute force");
    group.sample_size(10);
    for w in rare_suite(true) {
        group.bench_with_input(BenchmarkId::new("rare", w.name), &w, |b, w| {
            b.iter(|| time_rare(w).expect("runs"))
        });
        let brute = Workload {
            name: w.name,
            code: w.code,
            n: w.n,
            misere: false,
        };
        group.bench_with_input(BenchmarkId::new("brute cpu", w.name), &brute, |b, w| {
            b.iter(|| time_workload(w, &Backend::Cpu).expect("runs"))
        });
    }
    group.finish();
}

fn survey(c: &mut Criterion) {
    let codes: Vec<Code> = all_codes("0", 2)
        .iter()
        .map(|t| Code::parse(t).expect("survey codes parse"))
        .collect();
    let mut group = c.benchmark_group("survey");
    group.sample_size(10);
    // to 8192: the GPU's first round (4096 heaps) is the brute force, the
    // second runs rare values where they pay
    group.bench_function("2 digits to 8192 (cpu)", |b| {
        b.iter(|| survey_rows(&codes, 8192, Algorithm::Auto, &|_, _| {}).expect("runs"))
    });
    if let Some(ctx) = Runner::open().ok().flatten() {
        for (name, algorithm) in [
            ("gpu", Algorithm::Auto),
            ("gpu brute force", Algorithm::Naive),
        ] {
            group.bench_function(format!("2 digits to 8192 ({name})"), |b| {
                b.iter(|| {
                    let wg = grundy::internals::gpu::survey::workgroup_for(&ctx, None)
                        .expect("a workgroup");
                    survey_rows_gpu(&ctx, &codes, 8192, algorithm, wg, &|_, _| {}).expect("runs")
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, heap_kernels, rare_values, survey);
criterion_main!(benches);
