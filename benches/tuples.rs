//! Criterion benches of the tuple kernels (rectangles, Delete Nim rules):
//! the quick suite of `grundy bench` on the GPU (when an adapter exists) and
//! the CPU twins, and the CPU walking every option instead of split sets.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::internals::engine::Backend;
use grundy::internals::gpu::Runner;
use grundy_cli::bench::tables::{time_tuples, tuple_suite};

fn tuple_kernels(c: &mut Criterion) {
    let gpu = Runner::open()
        .ok()
        .flatten()
        .map(|ctx| Backend::Gpu(Box::new(ctx)));
    let mut group = c.benchmark_group("tuple tables");
    group.sample_size(10);
    for w in tuple_suite(true) {
        let name = w.label();
        let kern = w.kernel(true).expect("suite workloads are valid");
        group.bench_with_input(BenchmarkId::new("cpu", &name), &kern, |b, k| {
            b.iter(|| time_tuples(k, &Backend::Cpu).expect("runs"))
        });
        if let Some(gpu) = &gpu {
            group.bench_with_input(BenchmarkId::new("gpu", &name), &kern, |b, k| {
                b.iter(|| time_tuples(k, gpu).expect("runs"))
            });
        }
        if w.compare_walked {
            let walked = w.kernel(false).expect("suite workloads are valid");
            group.bench_with_input(BenchmarkId::new("cpu walked", &name), &walked, |b, k| {
                b.iter(|| time_tuples(k, &Backend::Cpu).expect("runs"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, tuple_kernels);
criterion_main!(benches);
