//! Criterion benches of the graph solvers: the dense table of 0.33 and 0.03
//! on a 4x5 grid on the GPU (when an adapter exists) and on the CPU twin,
//! the memo solver (canonical pieces, one thread), and the memoised
//! recursion over vertex sets that Dailly's program used.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::game::{Graph, GraphCode};
use grundy::internals::engine::Backend;
use grundy::internals::engine::graph::memo::MemoSolver;
use grundy::internals::gpu::Runner;
use grundy_cli::bench::graphs::{graph_suite, memo_recursion_baseline, time_graph};

fn graph_kernel(c: &mut Criterion) {
    let gpu = Runner::open()
        .ok()
        .flatten()
        .map(|ctx| Backend::Gpu(Box::new(ctx)));
    let mut group = c.benchmark_group("graph tables");
    group.sample_size(10);
    for w in graph_suite(true) {
        let name = format!("{} {}", w.code, w.graph);
        group.bench_with_input(BenchmarkId::new("cpu", &name), &w, |b, w| {
            b.iter(|| time_graph(w, &Backend::Cpu).expect("runs"))
        });
        if let Some(gpu) = &gpu {
            group.bench_with_input(BenchmarkId::new("gpu", &name), &w, |b, w| {
                b.iter(|| time_graph(w, gpu).expect("runs"))
            });
        }
        let g = Graph::parse(w.graph).expect("suite graphs parse");
        let code = GraphCode::parse(w.code).expect("suite codes parse");
        group.bench_with_input(BenchmarkId::new("memo", &name), &w, |b, _| {
            b.iter(|| MemoSolver::new(&code).value(&g, g.all()).expect("runs"))
        });
        group.bench_with_input(BenchmarkId::new("baseline", &name), &w, |b, _| {
            b.iter(|| memo_recursion_baseline(&g, &code))
        });
    }
    group.finish();
}

criterion_group!(benches, graph_kernel);
criterion_main!(benches);
