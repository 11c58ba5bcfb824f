//! Criterion benches of the edge games: the dense Game of Arrows and Game of
//! Cycles tables of `grundy bench --quick` on the GPU (when an adapter
//! exists) and on the CPU twin.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::internals::engine::Backend;
use grundy::internals::gpu::Runner;
use grundy_cli::bench::edges::{edge_suite, time_edges};

fn edge_kernels(c: &mut Criterion) {
    let gpu = Runner::open()
        .ok()
        .flatten()
        .map(|ctx| Backend::Gpu(Box::new(ctx)));
    let mut group = c.benchmark_group("edge games");
    group.sample_size(10);
    for w in edge_suite(true) {
        let game = w.game().expect("suite games build");
        group.bench_with_input(BenchmarkId::new("cpu", w.name), &game, |b, game| {
            b.iter(|| time_edges(game, &Backend::Cpu).expect("runs"))
        });
        if let Some(gpu) = &gpu {
            group.bench_with_input(BenchmarkId::new("gpu", w.name), &game, |b, game| {
                b.iter(|| time_edges(game, gpu).expect("runs"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, edge_kernels);
criterion_main!(benches);
