//! Criterion benches of the heap kernels: the same workloads as `grundy
//! bench`, on the GPU (when an adapter exists) and on the CPU twins, so
//! criterion reports both side by side.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::bench::{suite, time_workload};
use grundy::engine::Backend;
use grundy::gpu::GpuContext;

fn heap_kernels(c: &mut Criterion) {
    let gpu = GpuContext::open()
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

criterion_group!(benches, heap_kernels);
criterion_main!(benches);
