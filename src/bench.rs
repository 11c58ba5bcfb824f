//! `grundy bench`: the same work on the GPU and the CPU, timed in one run.

use std::time::Instant;

use serde::Serialize;

use std::collections::{BTreeMap, HashMap};

use crate::cli::{BenchArgs, BenchPart, Solver};
use crate::commands::graph::{MemoRun, pick_solver, solve_memo};
use crate::engine::arrows_dense;
use crate::engine::arrows_memo::ArrowMemo;
use crate::engine::graph_dense::{DenseTuning, for_each_option, solve_dense};
use crate::engine::grid_levels::GridLevels;
use crate::engine::heap_table::HeapTable;
use crate::engine::sequence::{Algorithm, SequenceRun};
use crate::engine::{Backend, BackendChoice, extend_heap_table, tuple_table};
use crate::error::{Error, Result};
use crate::game::arrows::{ArrowGame, ArrowRule, spider, standard_faces};
use crate::game::delete_nim::{DeleteNim, Rule};
use crate::game::rect::Rect;
use crate::game::{Code, Graph, GraphCode};
use crate::gpu::heap::GpuTuning;
use crate::gpu::survey::workgroup_for;
use crate::kernel::tuples::TupleKernel;

/// One workload: a code computed to heap `n`.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub name: &'static str,
    pub code: &'static str,
    pub n: u64,
}

/// The suite: a quadratic octal game without sparse space (`0.007`) and
/// Grundy's game, at 2^16 heaps (2^14 with `--quick`).
pub fn suite(quick: bool) -> Vec<Workload> {
    let n = if quick { 1 << 14 } else { 1 << 16 };
    vec![
        Workload {
            name: "octal 0.007",
            code: "0.007",
            n,
        },
        Workload {
            name: "grundy 4!.0",
            code: "4!.0",
            n,
        },
        Workload {
            name: "kayles 0.77",
            code: "0.77",
            n,
        },
    ]
}

#[derive(Serialize, Debug, Clone)]
pub struct BenchRow {
    pub workload: String,
    pub code: String,
    pub n: u64,
    pub gpu_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    pub cpu_seconds: f64,
    pub gpu_values_per_second: Option<f64>,
    pub cpu_values_per_second: f64,
    /// CPU time / GPU time: above 1 the GPU is faster.
    pub gpu_over_cpu: Option<f64>,
    /// Both backends gave the same table.
    pub agree: Option<bool>,
}

/// Times one workload on `backend`; returns (seconds, kernel seconds, table).
pub fn time_workload(w: &Workload, backend: &Backend) -> Result<(f64, f64, Vec<u16>)> {
    let code = Code::parse(w.code).map_err(|e| Error::Input(e.to_string()))?;
    let start = Instant::now();
    let run = extend_heap_table(
        &code,
        Vec::new(),
        w.n,
        backend,
        &GpuTuning::default(),
        &mut |_| {},
        &|_| {},
        &|| false,
    )?;
    Ok((
        start.elapsed().as_secs_f64(),
        run.gpu.kernel_seconds,
        run.table,
    ))
}

/// A graph workload: the dense table of a code on a graph, and the memo
/// solver on the same graph.
#[derive(Clone, Copy, Debug)]
pub struct GraphWorkload {
    pub code: &'static str,
    pub graph: &'static str,
    /// Also time the memoised-recursion baseline and Dailly's Algorithm 2.
    pub baseline: bool,
}

/// 0.33 and 0.03 on grids: 4x6 and 5x5, and 5x6 (30 vertices, 2^30
/// positions) in the full suite; 4x5 with `--quick`. The baselines run
/// wherever they finish in seconds: to 4x6 for 0.33, on every grid for
/// 0.03 (few positions are reachable when every move takes two vertices).
pub fn graph_suite(quick: bool) -> Vec<GraphWorkload> {
    let grids: &[&str] = if quick {
        &["grid:4x5"]
    } else {
        &["grid:4x5", "grid:4x6", "grid:5x5", "grid:5x6"]
    };
    grids
        .iter()
        .flat_map(|&graph| {
            ["0.33", "0.03"].map(|code| GraphWorkload {
                code,
                graph,
                baseline: code == "0.03" || Graph::parse(graph).is_ok_and(|g| g.n() <= 24),
            })
        })
        .collect()
}

/// Times the dense table of one graph workload; returns (seconds, kernel seconds, G).
pub fn time_graph(w: &GraphWorkload, backend: &Backend) -> Result<(f64, f64, u8)> {
    let code = GraphCode::parse(w.code).map_err(Error::Input)?;
    let g = Graph::parse(w.graph).map_err(Error::Input)?;
    let start = Instant::now();
    let run = solve_dense(
        &g,
        &code,
        backend,
        false,
        &DenseTuning::default(),
        &mut |_| {},
        &|_| {},
    )?;
    Ok((
        start.elapsed().as_secs_f64(),
        run.gpu.kernel_seconds,
        run.value,
    ))
}

/// Runs `run` until a quarter second has passed (at least once) and
/// returns the mean seconds per run with the last result: runs of a
/// millisecond are timed as steadily as runs of seconds.
pub fn mean_time<T>(mut run: impl FnMut() -> T) -> (f64, T) {
    let start = Instant::now();
    let mut runs = 1;
    let mut last = run();
    while start.elapsed().as_secs_f64() < 0.25 {
        last = run();
        runs += 1;
    }
    (start.elapsed().as_secs_f64() / runs as f64, last)
}

/// The memo solver's times on one graph workload, as `grundy graph
/// --solver memo` runs it (level by level where that applies, else the
/// recursion), a fresh memo each run.
pub struct MemoTimes {
    /// On one thread: the per-core comparison with the recursion.
    pub one_thread: f64,
    /// On every thread, for the level memo (the recursion has one).
    pub all_threads: Option<f64>,
    pub pieces: u64,
    pub value: u8,
}

/// The memo solver as `grundy graph` runs it, without progress or notices.
fn quiet_memo(g: &Graph, code: &GraphCode) -> Result<MemoRun> {
    let hidden = indicatif::ProgressBar::hidden();
    solve_memo(g, code, false, false, &hidden, &mut |_| {})
}

pub fn time_graph_memo(w: &GraphWorkload) -> Result<MemoTimes> {
    let code = GraphCode::parse(w.code).map_err(Error::Input)?;
    let g = Graph::parse(w.graph).map_err(Error::Input)?;
    let run = || quiet_memo(&g, &code);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::Run(format!("a one-thread pool: {e}")))?;
    let (one_thread, first) = one.install(|| mean_time(run));
    let first = first?;
    let all_threads = match GridLevels::applies(&g, &code) {
        Some(_) if rayon::current_num_threads() > 1 => {
            let (seconds, again) = mean_time(run);
            if again?.value != first.value {
                return Err(Error::Run(format!(
                    "the level memo differs between thread counts for {} on {}",
                    w.code, w.graph
                )));
            }
            Some(seconds)
        }
        _ => None,
    };
    Ok(MemoTimes {
        one_thread,
        all_threads,
        pieces: first.positions,
        value: first.value,
    })
}

/// The baseline the seed's program used (Algorithm 2): a plain memoised
/// recursion over vertex sets, one thread, no component sums. Returns
/// (G of the whole graph, positions evaluated).
pub fn memo_recursion_baseline(g: &Graph, code: &GraphCode) -> (u8, usize) {
    fn solve(g: &Graph, code: &GraphCode, mask: u64, memo: &mut HashMap<u64, u8>) -> u8 {
        if let Some(&v) = memo.get(&mask) {
            return v;
        }
        let mut options = Vec::new();
        for_each_option(g, code, mask, |o| options.push(o));
        let seen: Vec<u8> = options
            .into_iter()
            .map(|o| solve(g, code, o, memo))
            .collect();
        let v = (0..=255u8).find(|v| !seen.contains(v)).unwrap_or(255);
        memo.insert(mask, v);
        v
    }
    let mut memo = HashMap::new();
    let v = solve(g, code, g.all(), &mut memo);
    (v, memo.len())
}

/// Seed 000's Algorithm 2 as its text describes it: the outcome only (stop
/// at the first move to a P-position), positions kept in an ordered map
/// (C++'s std::map) under strings of 0s and 1s. Returns (N-position?,
/// positions stored).
pub fn seed_algorithm_2(g: &Graph, code: &GraphCode) -> (bool, usize) {
    fn key(mask: u64, n: usize) -> String {
        (0..n)
            .map(|v| if mask >> v & 1 == 1 { '1' } else { '0' })
            .collect()
    }
    fn solve(g: &Graph, code: &GraphCode, mask: u64, table: &mut BTreeMap<String, bool>) -> bool {
        if let Some(&n) = table.get(&key(mask, g.n())) {
            return n;
        }
        let mut options = Vec::new();
        for_each_option(g, code, mask, |o| options.push(o));
        let n = options.into_iter().any(|o| !solve(g, code, o, table));
        table.insert(key(mask, g.n()), n);
        n
    }
    let mut table = BTreeMap::new();
    let n = solve(g, code, g.all(), &mut table);
    (n, table.len())
}

#[derive(Serialize, Debug, Clone)]
pub struct GraphBenchRow {
    pub code: String,
    pub graph: String,
    pub positions: u64,
    pub gpu_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    pub cpu_seconds: f64,
    pub gpu_positions_per_second: Option<f64>,
    pub cpu_positions_per_second: f64,
    /// CPU time / GPU time: above 1 the GPU is faster.
    pub gpu_over_cpu: Option<f64>,
    /// The baseline's time on one thread, when run.
    pub baseline_seconds: Option<f64>,
    /// Baseline time / (dense CPU time x threads): the speed-up per core.
    pub per_core_over_baseline: Option<f64>,
    /// Seed 000's Algorithm 2 as described (outcome, ordered map of 0/1 strings), one thread.
    pub seed_algorithm_seconds: Option<f64>,
    pub per_core_over_seed_algorithm: Option<f64>,
    /// The memo solver (canonical pieces) on one thread: its time, the
    /// pieces it solved, and the baseline's time over it; and its time on
    /// every thread where it runs level by level.
    pub memo_seconds: f64,
    pub memo_all_threads_seconds: Option<f64>,
    pub memo_pieces: u64,
    pub memo_over_baseline: Option<f64>,
    /// The solver `grundy graph` picks for this workload.
    pub auto_solver: Solver,
}

fn graph_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<GraphBenchRow>> {
    let threads = rayon::current_num_threads() as f64;
    if !json {
        crate::outln!();
        crate::outln!(
            "{:<14} {:>10} {:>9} {:>9} {:>9} {:>12} {:>12} {:>8} {:>10} {:>9} {:>8} {:>9} {:>8} {:>9} {:>10}",
            "graph",
            "positions",
            &gpu_head("gpu s"),
            "kernel s",
            "cpu s",
            &gpu_head("gpu pos/s"),
            "cpu pos/s",
            &gpu_head("gpu/cpu"),
            "baseline s",
            "core/base",
            "alg2 s",
            "core/alg2",
            "memo s",
            "memo/base",
            "memo all s"
        );
    }
    let mut rows = Vec::new();
    for w in graph_suite(quick) {
        let g = Graph::parse(w.graph).map_err(Error::Input)?;
        let positions = 1u64 << g.n();
        let gpu_run = gpu.map(|b| time_graph(&w, b)).transpose()?;
        let (cpu_s, _, cpu_value) = time_graph(&w, &Backend::Cpu)?;
        if let Some((_, _, v)) = gpu_run
            && v != cpu_value
        {
            return Err(Error::Run(format!(
                "GPU and CPU differ for {} on {}",
                w.code, w.graph
            )));
        }
        // The two baselines, timed, each checked against the dense table.
        let code = GraphCode::parse(w.code).map_err(Error::Input)?;
        let baseline = w
            .baseline
            .then(|| mean_time(|| memo_recursion_baseline(&g, &code).0 == cpu_value));
        let seed = w
            .baseline
            .then(|| mean_time(|| seed_algorithm_2(&g, &code).0 == (cpu_value != 0)));
        let memo = time_graph_memo(&w)?;
        if memo.value != cpu_value {
            return Err(Error::Run(format!(
                "the memo solver differs from the dense table for {} on {}",
                w.code, w.graph
            )));
        }
        for (name, run) in [("the recursion", baseline), ("Algorithm 2", seed)] {
            if let Some((_, false)) = run {
                return Err(Error::Run(format!(
                    "{name} differs from the dense table for {} on {}",
                    w.code, w.graph
                )));
            }
        }
        let row = GraphBenchRow {
            code: w.code.to_string(),
            graph: w.graph.to_string(),
            positions,
            gpu_seconds: gpu_run.map(|r| r.0),
            gpu_kernel_seconds: gpu_run.map(|r| r.1).filter(|k| *k > 0.0),
            cpu_seconds: cpu_s,
            gpu_positions_per_second: gpu_run.map(|r| positions as f64 / r.0),
            cpu_positions_per_second: positions as f64 / cpu_s,
            gpu_over_cpu: gpu_run.map(|r| cpu_s / r.0),
            baseline_seconds: baseline.map(|b| b.0),
            per_core_over_baseline: baseline.map(|b| b.0 / (cpu_s * threads)),
            seed_algorithm_seconds: seed.map(|b| b.0),
            per_core_over_seed_algorithm: seed.map(|b| b.0 / (cpu_s * threads)),
            memo_seconds: memo.one_thread,
            memo_all_threads_seconds: memo.all_threads,
            memo_pieces: memo.pieces,
            memo_over_baseline: baseline.map(|b| b.0 / memo.one_thread),
            auto_solver: pick_solver(&g, &code, Solver::Auto, false),
        };
        if !json {
            crate::outln!(
                "{:<14} {:>10} {:>9} {:>9} {:>9.3} {:>12} {:>12.0} {:>8} {:>10} {:>9} {:>8} {:>9} {:>8.4} {:>9} {:>10}",
                format!("{} {}", w.code, w.graph.trim_start_matches("grid:")),
                positions,
                opt(row.gpu_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                row.cpu_seconds,
                opt(row.gpu_positions_per_second, 0),
                row.cpu_positions_per_second,
                opt(row.gpu_over_cpu, 2),
                opt(row.baseline_seconds, 2),
                opt(row.per_core_over_baseline, 1),
                opt(row.seed_algorithm_seconds, 2),
                opt(row.per_core_over_seed_algorithm, 1),
                row.memo_seconds,
                opt(row.memo_over_baseline, 1),
                opt(row.memo_all_threads_seconds, 3),
            );
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The grids r x c (r <= c) with at most `max` vertices: 30 in the full
/// sweep (the graph issue's target: each in under 10 s on an H100), 16 with
/// `--quick`.
pub fn grid_sweep(quick: bool) -> Vec<(usize, usize)> {
    let max = if quick { 16 } else { 30 };
    (1..=max)
        .flat_map(|r| (r..=max / r).map(move |c| (r, c)))
        .collect()
}

#[derive(Serialize, Debug, Clone)]
pub struct GridRow {
    pub code: String,
    pub graph: String,
    pub vertices: usize,
    pub solver: Solver,
    pub backend: String,
    pub g: u8,
    pub seconds: f64,
}

/// Solves every grid of `grid_sweep` under 0.33 and 0.03 the way `grundy
/// graph` would (its solver; the dense table on the GPU when there is one).
fn grid_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<GridRow>> {
    let backend = gpu.unwrap_or(&Backend::Cpu);
    let mut rows = Vec::new();
    for code_text in ["0.33", "0.03"] {
        let code = GraphCode::parse(code_text).map_err(Error::Input)?;
        for (r, c) in grid_sweep(quick) {
            let g = Graph::parse(&format!("grid:{r}x{c}")).map_err(Error::Input)?;
            let solver = pick_solver(&g, &code, Solver::Auto, false);
            let start = Instant::now();
            let (value, used) = match solver {
                Solver::Memo => (quiet_memo(&g, &code)?.value, "cpu"),
                _ => {
                    let tuning = DenseTuning::default();
                    let run =
                        solve_dense(&g, &code, backend, false, &tuning, &mut |_| {}, &|_| {})?;
                    (run.value, run.backend)
                }
            };
            rows.push(GridRow {
                code: code_text.to_string(),
                graph: g.spec.clone(),
                vertices: g.n(),
                solver,
                backend: used.to_string(),
                g: value,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
    }
    if !json {
        crate::outln!();
        crate::outln!(
            "{:<8} {:>6} {:>10} {:>10} {:>22} {:>12}",
            "grids",
            "count",
            "total s",
            "under 10 s",
            "slowest",
            "slowest s"
        );
        for code in ["0.33", "0.03"] {
            let of_code: Vec<&GridRow> = rows.iter().filter(|r| r.code == code).collect();
            let slowest = of_code
                .iter()
                .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
                .expect("the sweep has grids");
            crate::outln!(
                "{:<8} {:>6} {:>10.2} {:>10} {:>22} {:>12.3}",
                code,
                of_code.len(),
                of_code.iter().map(|r| r.seconds).sum::<f64>(),
                of_code.iter().filter(|r| r.seconds < 10.0).count(),
                format!("{} ({}, {})", slowest.graph, slowest.backend, slowest.g),
                slowest.seconds
            );
        }
    }
    Ok(rows)
}

/// A table workload: rectangles (boxes) or a Delete Nim rule.
#[derive(Clone, Copy, Debug)]
pub struct TupleWorkload {
    pub name: &'static str,
    /// Rectangles: (dims, min_diff); Delete Nim: None.
    pub rect: Option<(usize, u32)>,
    pub rule: Rule,
    pub heaps: usize,
    pub max: u32,
    /// Also time the CPU walking every option of moves that keep no heap
    /// (the algorithm before split sets).
    pub compare_walked: bool,
}

/// Two-heap VDN and rectangles (the sizes the issue names), boxes, and
/// many-heap rules; smaller with `--quick`.
pub fn tuple_suite(quick: bool) -> Vec<TupleWorkload> {
    let w = |name, rect, rule, heaps, max, compare_walked| TupleWorkload {
        name,
        rect,
        rule,
        heaps,
        max,
        compare_walked,
    };
    if quick {
        return vec![
            w("vdn 2 heaps", None, Rule::Vdn, 2, 1024, true),
            w("rect", Some((2, 1)), Rule::Vdn, 2, 512, false),
            w("single 4 heaps", None, Rule::Single, 4, 24, false),
        ];
    }
    vec![
        w("vdn 2 heaps", None, Rule::Vdn, 2, 4096, false),
        w("vdn 2 heaps", None, Rule::Vdn, 2, 1024, true),
        w("rect", Some((2, 1)), Rule::Vdn, 2, 2048, false),
        w("boxes", Some((3, 1)), Rule::Vdn, 3, 128, false),
        w("abo 4 heaps", None, Rule::Abo, 4, 40, true),
        w("single 4 heaps", None, Rule::Single, 4, 40, false),
    ]
}

impl TupleWorkload {
    pub fn kernel(&self, split_sets: bool) -> Result<TupleKernel> {
        match self.rect {
            Some((dims, d)) => {
                TupleKernel::rect(Rect::new(dims, d).map_err(Error::Input)?, self.max)
            }
            None => TupleKernel::delete_nim(
                DeleteNim::new(self.rule, self.heaps, None).map_err(Error::Input)?,
                self.max,
                split_sets,
            ),
        }
        .map_err(Error::Input)
    }

    pub fn label(&self) -> String {
        format!("{} to {}", self.name, self.max)
    }
}

/// Times one table on `backend`; returns (seconds, kernel seconds, table),
/// or `None` when a GPU was asked for and the table did not fit it.
pub fn time_tuples(kern: &TupleKernel, backend: &Backend) -> Result<Option<(f64, f64, Vec<u32>)>> {
    let run = tuple_table::solve(kern, backend, &mut |_| {}, &|_| {})?;
    let fell_back = matches!(backend, Backend::Gpu(_)) && run.backend != "gpu";
    Ok((!fell_back).then_some((run.seconds, run.gpu.kernel_seconds, run.table)))
}

#[derive(Serialize, Debug, Clone)]
pub struct TupleBenchRow {
    pub workload: String,
    pub positions: u64,
    pub gpu_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    pub cpu_seconds: f64,
    pub gpu_positions_per_second: Option<f64>,
    pub cpu_positions_per_second: f64,
    /// CPU time / GPU time: above 1 the GPU is faster.
    pub gpu_over_cpu: Option<f64>,
    /// The CPU walking every option (no split sets), when compared.
    pub walked_cpu_seconds: Option<f64>,
    /// Walked time / split-set time on the CPU.
    pub split_sets_over_walked: Option<f64>,
}

fn tuple_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<TupleBenchRow>> {
    if !json {
        crate::outln!();
        crate::outln!(
            "{:<22} {:>10} {:>9} {:>9} {:>9} {:>12} {:>12} {:>8} {:>9} {:>8}",
            "table",
            "positions",
            &gpu_head("gpu s"),
            "kernel s",
            "cpu s",
            &gpu_head("gpu pos/s"),
            "cpu pos/s",
            &gpu_head("gpu/cpu"),
            "walked s",
            "sets/walk"
        );
    }
    let mut rows = Vec::new();
    for w in tuple_suite(quick) {
        let kern = w.kernel(true)?;
        let positions = kern.space.count();
        let gpu_run = gpu.map(|b| time_tuples(&kern, b)).transpose()?.flatten();
        let (cpu_s, _, cpu_table) =
            time_tuples(&kern, &Backend::Cpu)?.expect("the CPU runs every table");
        let walked = if w.compare_walked {
            let (s, _, table) =
                time_tuples(&w.kernel(false)?, &Backend::Cpu)?.expect("the CPU runs every table");
            if table != cpu_table {
                return Err(Error::Run(format!(
                    "split sets and walking differ for {}",
                    w.label()
                )));
            }
            Some(s)
        } else {
            None
        };
        if let Some((_, _, t)) = &gpu_run
            && *t != cpu_table
        {
            return Err(Error::Run(format!(
                "GPU and CPU tables differ for {}",
                w.label()
            )));
        }
        let row = TupleBenchRow {
            workload: w.label(),
            positions,
            gpu_seconds: gpu_run.as_ref().map(|r| r.0),
            gpu_kernel_seconds: gpu_run.as_ref().map(|r| r.1).filter(|k| *k > 0.0),
            cpu_seconds: cpu_s,
            gpu_positions_per_second: gpu_run.as_ref().map(|r| positions as f64 / r.0),
            cpu_positions_per_second: positions as f64 / cpu_s,
            gpu_over_cpu: gpu_run.as_ref().map(|r| cpu_s / r.0),
            walked_cpu_seconds: walked,
            split_sets_over_walked: walked.map(|s| s / cpu_s),
        };
        if !json {
            crate::outln!(
                "{:<22} {:>10} {:>9} {:>9} {:>9.3} {:>12} {:>12.0} {:>8} {:>9} {:>8}",
                row.workload,
                positions,
                opt(row.gpu_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                row.cpu_seconds,
                opt(row.gpu_positions_per_second, 0),
                row.cpu_positions_per_second,
                opt(row.gpu_over_cpu, 2),
                opt(row.walked_cpu_seconds, 2),
                opt(row.split_sets_over_walked, 1),
            );
        }
        rows.push(row);
    }
    Ok(rows)
}

/// An edge-game workload: a dense table (GPU and CPU) or a spider table
/// (the decomposition solver, CPU).
#[derive(Clone, Copy, Debug)]
pub struct EdgeWorkload {
    pub name: &'static str,
    pub graph: &'static str,
    pub rule: ArrowRule,
}

/// A tree of 18 edges and the wheel of 7 spokes (the Game of Cycles) in the
/// full suite; 12 and 10 edges with `--quick`.
pub fn edge_suite(quick: bool) -> Vec<EdgeWorkload> {
    let w = |name, graph, rule| EdgeWorkload { name, graph, rule };
    if quick {
        vec![
            w("arrows tree 12 edges", "pode:4,4,4", ArrowRule::Arrows),
            w("cycles wheel:5", "wheel:5", ArrowRule::Cycles),
        ]
    } else {
        vec![
            w("arrows tree 18 edges", "pode:6,6,6", ArrowRule::Arrows),
            w("cycles wheel:7", "wheel:7", ArrowRule::Cycles),
        ]
    }
}

impl EdgeWorkload {
    pub fn game(&self) -> Result<ArrowGame> {
        let g = Graph::parse(self.graph).map_err(Error::Input)?;
        let mut game = ArrowGame::new(&g, self.rule, Vec::new());
        if self.rule == ArrowRule::Cycles {
            let faces = standard_faces(&g, self.graph).unwrap_or_default();
            game.faces = faces
                .iter()
                .map(|f| game.face_of(f))
                .collect::<std::result::Result<_, _>>()
                .map_err(Error::Input)?;
        }
        Ok(game)
    }
}

/// Times the dense table of an edge game; returns (seconds, kernel seconds,
/// G, states), or `None` when a GPU was asked for and the table did not fit it.
pub fn time_edges(game: &ArrowGame, backend: &Backend) -> Result<Option<(f64, f64, u8, u64)>> {
    let start = vec![0; game.edges.len()];
    let run = arrows_dense::solve_dense(game, &start, backend, false, &mut |_| {}, &|_| {})?;
    let fell_back = matches!(backend, Backend::Gpu(_)) && run.backend != "gpu";
    Ok((!fell_back).then_some((run.seconds, run.gpu.kernel_seconds, run.value, run.states)))
}

#[derive(Serialize, Debug, Clone)]
pub struct EdgeBenchRow {
    pub workload: String,
    /// Numbers in the dense table (3^edges), or spiders in the table.
    pub positions: u64,
    pub gpu_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    pub cpu_seconds: f64,
    pub gpu_positions_per_second: Option<f64>,
    pub cpu_positions_per_second: f64,
    pub gpu_over_cpu: Option<f64>,
}

fn edge_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<EdgeBenchRow>> {
    if !json {
        crate::outln!();
        crate::outln!(
            "{:<24} {:>12} {:>9} {:>9} {:>9} {:>12} {:>12} {:>8}",
            "edge game",
            "positions",
            &gpu_head("gpu s"),
            "kernel s",
            "cpu s",
            &gpu_head("gpu pos/s"),
            "cpu pos/s",
            &gpu_head("gpu/cpu")
        );
    }
    let mut rows = Vec::new();
    let print = |row: &EdgeBenchRow| {
        if !json {
            crate::outln!(
                "{:<24} {:>12} {:>9} {:>9} {:>9.3} {:>12} {:>12.0} {:>8}",
                row.workload,
                row.positions,
                opt(row.gpu_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                row.cpu_seconds,
                opt(row.gpu_positions_per_second, 0),
                row.cpu_positions_per_second,
                opt(row.gpu_over_cpu, 2),
            );
        }
    };
    for w in edge_suite(quick) {
        let game = w.game()?;
        let positions = 3u64.pow(game.edges.len() as u32);
        let gpu_run = gpu.map(|b| time_edges(&game, b)).transpose()?.flatten();
        let (cpu_s, _, value, states) =
            time_edges(&game, &Backend::Cpu)?.expect("the CPU runs every table");
        if let Some((_, _, v, s)) = gpu_run
            && (v, s) != (value, states)
        {
            return Err(Error::Run(format!("GPU and CPU differ for {}", w.name)));
        }
        let row = EdgeBenchRow {
            workload: w.name.to_string(),
            positions,
            gpu_seconds: gpu_run.map(|r| r.0),
            gpu_kernel_seconds: gpu_run.map(|r| r.1).filter(|k| *k > 0.0),
            cpu_seconds: cpu_s,
            gpu_positions_per_second: gpu_run.map(|r| positions as f64 / r.0),
            cpu_positions_per_second: positions as f64 / cpu_s,
            gpu_over_cpu: gpu_run.map(|r| cpu_s / r.0),
        };
        print(&row);
        rows.push(row);
    }
    // the spider table, by the decomposition solver (CPU)
    let max = if quick { 12 } else { 24 };
    let start = Instant::now();
    let mut memo = ArrowMemo::new();
    let mut count = 0u64;
    for a in 1..=max {
        for b in a..=max {
            for c in b..=max {
                let g = spider(&[a, b, c], ArrowRule::Arrows);
                memo.value_of_state(&g, &vec![0; g.edges.len()])
                    .map_err(Error::Run)?;
                count += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let row = EdgeBenchRow {
        workload: format!("spiders to {max} (memo)"),
        positions: count,
        gpu_seconds: None,
        gpu_kernel_seconds: None,
        cpu_seconds: secs,
        gpu_positions_per_second: None,
        cpu_positions_per_second: count as f64 / secs,
        gpu_over_cpu: None,
    };
    print(&row);
    rows.push(row);
    Ok(rows)
}

/// A long-sequence workload: the same code to the same heap by rare values
/// (CPU) and by the blocked brute force (GPU and CPU).
#[derive(Clone, Copy, Debug)]
pub struct RareWorkload {
    pub name: &'static str,
    pub code: &'static str,
    pub n: u64,
}

/// `.16` (very sparse) and Grundy's game (sparse, no period) at 2^18 heaps;
/// 2^15 with `--quick`.
pub fn rare_suite(quick: bool) -> Vec<RareWorkload> {
    let n = if quick { 1 << 15 } else { 1 << 18 };
    vec![
        RareWorkload {
            name: "rare .16",
            code: "0.16",
            n,
        },
        RareWorkload {
            name: "rare 4!.0",
            code: "4!.0",
            n,
        },
    ]
}

/// Times the rare-value algorithm on one code; returns (seconds, table).
pub fn time_rare(w: &RareWorkload) -> Result<(f64, Vec<u16>)> {
    let code = Code::parse(w.code).map_err(|e| Error::Input(e.to_string()))?;
    let start = Instant::now();
    let mut run = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default())?;
    run.extend_on_cpu(w.n)?;
    let seconds = start.elapsed().as_secs_f64();
    Ok((seconds, run.table.into_wide()))
}

#[derive(Serialize, Debug, Clone)]
pub struct RareBenchRow {
    pub workload: String,
    pub code: String,
    pub n: u64,
    /// Rare values on the CPU.
    pub rare_seconds: f64,
    /// The blocked brute force on the CPU and on the GPU.
    pub cpu_brute_seconds: f64,
    pub gpu_brute_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    /// Brute-force time / rare-value time: the new algorithm's gain.
    pub rare_over_cpu_brute: f64,
    pub rare_over_gpu_brute: Option<f64>,
}

fn rare_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<RareBenchRow>> {
    if !json {
        crate::outln!();
        crate::outln!(
            "{:<12} {:>8} {:>9} {:>11} {:>11} {:>9} {:>11} {:>11}",
            "rare values",
            "n",
            "rare s",
            "cpu brute s",
            &gpu_head("gpu brute s"),
            "kernel s",
            "rare/cpu bf",
            "rare/gpu bf"
        );
    }
    let mut rows = Vec::new();
    for w in rare_suite(quick) {
        let (rare_s, rare_table) = time_rare(&w)?;
        let brute = Workload {
            name: w.name,
            code: w.code,
            n: w.n,
        };
        let (cpu_s, _, cpu_table) = time_workload(&brute, &Backend::Cpu)?;
        let gpu_run = gpu.map(|b| time_workload(&brute, b)).transpose()?;
        if rare_table != cpu_table || gpu_run.as_ref().is_some_and(|r| r.2 != cpu_table) {
            return Err(Error::Run(format!(
                "rare values and the brute force differ for {}",
                w.code
            )));
        }
        let row = RareBenchRow {
            workload: w.name.to_string(),
            code: w.code.to_string(),
            n: w.n,
            rare_seconds: rare_s,
            cpu_brute_seconds: cpu_s,
            gpu_brute_seconds: gpu_run.as_ref().map(|r| r.0),
            gpu_kernel_seconds: gpu_run.as_ref().map(|r| r.1).filter(|k| *k > 0.0),
            rare_over_cpu_brute: cpu_s / rare_s,
            rare_over_gpu_brute: gpu_run.as_ref().map(|r| r.0 / rare_s),
        };
        if !json {
            crate::outln!(
                "{:<12} {:>8} {:>9.3} {:>11.3} {:>11} {:>9} {:>11.1} {:>11}",
                row.workload,
                row.n,
                row.rare_seconds,
                row.cpu_brute_seconds,
                opt(row.gpu_brute_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                row.rare_over_cpu_brute,
                opt(row.rare_over_gpu_brute, 1),
            );
        }
        rows.push(row);
    }
    Ok(rows)
}

#[derive(Serialize, Debug, Clone)]
pub struct SurveyBenchRow {
    pub workload: String,
    pub codes: usize,
    pub n: u64,
    pub gpu_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    pub cpu_seconds: f64,
    pub gpu_values_per_second: Option<f64>,
    pub cpu_values_per_second: f64,
    /// CPU time / GPU time: above 1 the GPU is faster.
    pub gpu_over_cpu: Option<f64>,
    /// The GPU survey by brute force only (`--algorithm naive`), and its
    /// time over the default's (rare values where they pay).
    pub gpu_brute_seconds: Option<f64>,
    pub gpu_rare_over_brute: Option<f64>,
    /// The GPU survey at 64 threads per code, the kernel's first shape, when
    /// the adapter's default is another (a GPU: 256), and its time over the
    /// default's.
    pub gpu_64_threads_seconds: Option<f64>,
    pub gpu_default_over_64_threads: Option<f64>,
    pub certified: usize,
}

/// Every 2-digit code to 2^12 heaps with `--quick`, every 3-digit code to
/// 2^13 otherwise, as `grundy survey` runs them: on the GPU one code per
/// workgroup (rare values where they pay, and again by brute force only),
/// on the CPU codes in parallel by rare values where they pay.
fn survey_bench(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<SurveyBenchRow> {
    let (digits, n) = if quick { (2, 1 << 12) } else { (3, 1 << 13) };
    let codes: Vec<Code> = crate::commands::survey::all_codes("0", digits)
        .iter()
        .map(|t| Code::parse(t).map_err(|e| Error::Input(e.to_string())))
        .collect::<Result<_>>()?;
    let start = Instant::now();
    let rows = crate::commands::survey::survey_rows(&codes, n, Algorithm::Auto, &|| {})?;
    let cpu_s = start.elapsed().as_secs_f64();
    let on_gpu = |algorithm: Algorithm, workgroup: Option<u32>| -> Result<Option<(f64, f64)>> {
        let Some(Backend::Gpu(ctx)) = gpu else {
            return Ok(None);
        };
        let start = Instant::now();
        let (gpu_rows, stats) =
            crate::commands::survey::survey_rows_gpu(ctx, &codes, n, algorithm, workgroup, &|| {})?;
        let secs = start.elapsed().as_secs_f64();
        if rows.iter().zip(&gpu_rows).any(|(c, g)| c.0 != g.0) {
            return Err(Error::Run("GPU and CPU surveys differ".into()));
        }
        Ok(Some((secs, stats.kernel_seconds)))
    };
    let gpu_run = on_gpu(Algorithm::Auto, None)?;
    let gpu_brute = on_gpu(Algorithm::Naive, None)?.map(|r| r.0);
    let default_threads = match gpu {
        Some(Backend::Gpu(ctx)) => Some(workgroup_for(ctx, None).map_err(Error::Run)?),
        _ => None,
    };
    let gpu_64_threads = match default_threads {
        Some(threads) if threads != 64 => on_gpu(Algorithm::Auto, Some(64))?.map(|r| r.0),
        _ => None,
    };
    let values = (rows.len() as u64 * (n + 1)) as f64;
    let row = SurveyBenchRow {
        workload: format!("survey {digits} digits to {n}"),
        codes: rows.len(),
        n,
        gpu_seconds: gpu_run.map(|r| r.0),
        gpu_kernel_seconds: gpu_run.map(|r| r.1).filter(|k| *k > 0.0),
        cpu_seconds: cpu_s,
        gpu_values_per_second: gpu_run.map(|r| values / r.0),
        cpu_values_per_second: values / cpu_s,
        gpu_over_cpu: gpu_run.map(|r| cpu_s / r.0),
        gpu_brute_seconds: gpu_brute,
        gpu_rare_over_brute: gpu_run.zip(gpu_brute).map(|(r, b)| b / r.0),
        gpu_64_threads_seconds: gpu_64_threads,
        gpu_default_over_64_threads: gpu_run.zip(gpu_64_threads).map(|(r, o)| o / r.0),
        certified: rows.iter().filter(|(r, _)| r.certified).count(),
    };
    if !json {
        crate::outln!();
        crate::outln!(
            "{:<26} {:>6} {:>9} {:>9} {:>9} {:>14} {:>14} {:>8} {:>12} {:>12} {:>10}",
            "survey",
            "codes",
            &gpu_head("gpu s"),
            "kernel s",
            "cpu s",
            &gpu_head("gpu values/s"),
            "cpu values/s",
            &gpu_head("gpu/cpu"),
            &gpu_head("gpu brute s"),
            &gpu_head("gpu 64thr s"),
            "certified"
        );
        crate::outln!(
            "{:<26} {:>6} {:>9} {:>9} {:>9.3} {:>14} {:>14.0} {:>8} {:>12} {:>12} {:>10}",
            row.workload,
            row.codes,
            opt(row.gpu_seconds, 3),
            opt(row.gpu_kernel_seconds, 3),
            row.cpu_seconds,
            opt(row.gpu_values_per_second, 0),
            row.cpu_values_per_second,
            opt(row.gpu_over_cpu, 2),
            opt(row.gpu_brute_seconds, 3),
            opt(row.gpu_64_threads_seconds, 3),
            row.certified
        );
    }
    Ok(row)
}

/// The GPU is a software adapter: its columns say so.
static SOFTWARE_GPU: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A GPU column's heading ("sw-gpu s" on a software adapter).
fn gpu_head(head: &str) -> String {
    if SOFTWARE_GPU.load(std::sync::atomic::Ordering::Relaxed) {
        format!("sw-{head}")
    } else {
        head.to_string()
    }
}

pub fn run(args: &BenchArgs) -> Result<()> {
    let mut notice = |m: &str| eprintln!("grundy: {m}");
    let gpu = match args.backend {
        BackendChoice::Cpu => None,
        choice => match Backend::open(choice, &mut notice)? {
            Backend::Gpu(ctx) => Some(Backend::Gpu(ctx)),
            Backend::Cpu => None,
        },
    };
    let adapter = match &gpu {
        Some(Backend::Gpu(ctx)) => Some(ctx.adapter_detail()),
        _ => None,
    };
    let threads = rayon::current_num_threads();
    let software = matches!(&gpu, Some(Backend::Gpu(ctx)) if ctx.is_software());
    SOFTWARE_GPU.store(software, std::sync::atomic::Ordering::Relaxed);
    if !args.json {
        crate::outln!("GPU: {}", adapter.as_deref().unwrap_or("none"));
        if software {
            crate::outln!(
                "     a software adapter: its columns (sw-gpu) time the CPU emulating a GPU, \
                 not a GPU"
            );
        }
        crate::outln!("CPU: {threads} threads (rayon)");
    }
    if !args.json && args.only.contains(&BenchPart::Heaps) {
        crate::outln!(
            "{:<14} {:>8} {:>12} {:>12} {:>12} {:>14} {:>14} {:>8}",
            "workload",
            "n",
            &gpu_head("gpu s"),
            "kernel s",
            "cpu s",
            &gpu_head("gpu values/s"),
            "cpu values/s",
            &gpu_head("gpu/cpu")
        );
    }
    let mut rows = Vec::new();
    let heaps = if args.only.contains(&BenchPart::Heaps) {
        suite(args.quick)
    } else {
        Vec::new()
    };
    for w in heaps {
        let gpu_run = gpu.as_ref().map(|b| time_workload(&w, b)).transpose()?;
        let (cpu_s, _, cpu_table) = time_workload(&w, &Backend::Cpu)?;
        let values = (w.n + 1) as f64;
        let row = BenchRow {
            workload: w.name.to_string(),
            code: w.code.to_string(),
            n: w.n,
            gpu_seconds: gpu_run.as_ref().map(|r| r.0),
            gpu_kernel_seconds: gpu_run.as_ref().map(|r| r.1).filter(|k| *k > 0.0),
            cpu_seconds: cpu_s,
            gpu_values_per_second: gpu_run.as_ref().map(|r| values / r.0),
            cpu_values_per_second: values / cpu_s,
            gpu_over_cpu: gpu_run.as_ref().map(|r| cpu_s / r.0),
            agree: gpu_run.as_ref().map(|r| r.2 == cpu_table),
        };
        if row.agree == Some(false) {
            return Err(Error::Run(format!(
                "GPU and CPU tables differ for {}",
                w.code
            )));
        }
        if !args.json {
            crate::outln!(
                "{:<14} {:>8} {:>12} {:>12} {:>12.4} {:>14} {:>14.0} {:>8}",
                row.workload,
                row.n,
                opt(row.gpu_seconds, 4),
                opt(row.gpu_kernel_seconds, 4),
                row.cpu_seconds,
                opt(row.gpu_values_per_second, 0),
                row.cpu_values_per_second,
                opt(row.gpu_over_cpu, 2)
            );
        }
        rows.push(row);
    }
    let graphs = if args.only.contains(&BenchPart::Graphs) {
        graph_rows(gpu.as_ref(), args.quick, args.json)?
    } else {
        Vec::new()
    };
    let rare = if args.only.contains(&BenchPart::Rare) {
        rare_rows(gpu.as_ref(), args.quick, args.json)?
    } else {
        Vec::new()
    };
    let survey = if args.only.contains(&BenchPart::Survey) {
        Some(survey_bench(gpu.as_ref(), args.quick, args.json)?)
    } else {
        None
    };
    let edge_games = if args.only.contains(&BenchPart::Edges) {
        edge_rows(gpu.as_ref(), args.quick, args.json)?
    } else {
        Vec::new()
    };
    let tables = if args.only.contains(&BenchPart::Tables) {
        tuple_rows(gpu.as_ref(), args.quick, args.json)?
    } else {
        Vec::new()
    };
    let grids = if args.only.contains(&BenchPart::Grids) {
        grid_rows(gpu.as_ref(), args.quick, args.json)?
    } else {
        Vec::new()
    };
    if let Some(path) = &args.out {
        let mut lines = Vec::new();
        for r in &rows {
            lines.push(CsvRow {
                part: "heaps",
                workload: r.workload.clone(),
                size: r.n + 1,
                gpu_seconds: r.gpu_seconds,
                gpu_kernel_seconds: r.gpu_kernel_seconds,
                cpu_seconds: Some(r.cpu_seconds),
                baseline: None,
            });
        }
        for r in &rare {
            lines.push(CsvRow {
                part: "rare",
                workload: r.workload.clone(),
                size: r.n + 1,
                gpu_seconds: r.gpu_brute_seconds,
                gpu_kernel_seconds: r.gpu_kernel_seconds,
                cpu_seconds: Some(r.cpu_brute_seconds),
                baseline: Some(("rare values", r.rare_seconds)),
            });
        }
        if let Some(r) = &survey {
            lines.push(CsvRow {
                part: "survey",
                workload: r.workload.clone(),
                size: r.codes as u64 * (r.n + 1),
                gpu_seconds: r.gpu_seconds,
                gpu_kernel_seconds: r.gpu_kernel_seconds,
                cpu_seconds: Some(r.cpu_seconds),
                baseline: r.gpu_brute_seconds.map(|b| ("GPU brute force", b)),
            });
            if let Some(b) = r.gpu_64_threads_seconds {
                lines.push(CsvRow {
                    part: "survey",
                    workload: format!("{}, default threads per code", r.workload),
                    size: r.codes as u64 * (r.n + 1),
                    gpu_seconds: r.gpu_seconds,
                    gpu_kernel_seconds: r.gpu_kernel_seconds,
                    cpu_seconds: None,
                    baseline: Some(("GPU at 64 threads per code", b)),
                });
            }
        }
        for r in &graphs {
            lines.push(CsvRow {
                part: "graphs",
                workload: format!("{} {}", r.code, r.graph),
                size: r.positions,
                gpu_seconds: r.gpu_seconds,
                gpu_kernel_seconds: r.gpu_kernel_seconds,
                cpu_seconds: Some(r.cpu_seconds),
                baseline: r.baseline_seconds.map(|b| ("memoised recursion", b)),
            });
            lines.push(CsvRow {
                part: "graphs",
                workload: format!("{} {} memo one thread", r.code, r.graph),
                size: r.memo_pieces,
                gpu_seconds: None,
                gpu_kernel_seconds: None,
                cpu_seconds: Some(r.memo_seconds),
                baseline: r.baseline_seconds.map(|b| ("memoised recursion", b)),
            });
            if let Some(all) = r.memo_all_threads_seconds {
                lines.push(CsvRow {
                    part: "graphs",
                    workload: format!("{} {} memo all threads", r.code, r.graph),
                    size: r.memo_pieces,
                    gpu_seconds: None,
                    gpu_kernel_seconds: None,
                    cpu_seconds: Some(all),
                    baseline: None,
                });
            }
        }
        for r in &edge_games {
            lines.push(CsvRow {
                part: "edges",
                workload: r.workload.clone(),
                size: r.positions,
                gpu_seconds: r.gpu_seconds,
                gpu_kernel_seconds: r.gpu_kernel_seconds,
                cpu_seconds: Some(r.cpu_seconds),
                baseline: None,
            });
        }
        for r in &tables {
            lines.push(CsvRow {
                part: "tables",
                workload: r.workload.clone(),
                size: r.positions,
                gpu_seconds: r.gpu_seconds,
                gpu_kernel_seconds: r.gpu_kernel_seconds,
                cpu_seconds: Some(r.cpu_seconds),
                baseline: r.walked_cpu_seconds.map(|b| ("walked options", b)),
            });
        }
        for r in &grids {
            let on_gpu = r.backend == "gpu";
            lines.push(CsvRow {
                part: "grids",
                workload: format!("{} {} {:?}", r.code, r.graph, r.solver).to_lowercase(),
                size: r.vertices as u64,
                gpu_seconds: on_gpu.then_some(r.seconds),
                gpu_kernel_seconds: None,
                cpu_seconds: (!on_gpu).then_some(r.seconds),
                baseline: None,
            });
        }
        append_csv(path, adapter.as_deref(), threads, &lines)?;
    }
    if args.json {
        let report = serde_json::json!({
            "adapter": adapter,
            "software_adapter": software,
            "cpu_threads": threads,
            "workloads": rows,
            "rare": rare,
            "survey": survey,
            "graphs": graphs,
            "tables": tables,
            "grids": grids,
            "edge_games": edge_games,
        });
        crate::outln!("{report}");
    }
    Ok(())
}

/// A figure with `prec` decimals, or "-" when it was not measured.
fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.prec$}"))
}

/// One line of `--out`: any part of the suite in the same columns.
pub struct CsvRow {
    pub part: &'static str,
    pub workload: String,
    /// Values or positions computed.
    pub size: u64,
    pub gpu_seconds: Option<f64>,
    pub gpu_kernel_seconds: Option<f64>,
    pub cpu_seconds: Option<f64>,
    /// Another algorithm timed on the same work: its name and seconds.
    pub baseline: Option<(&'static str, f64)>,
}

const CSV_HEADER: [&str; 11] = [
    "adapter",
    "cpu_threads",
    "part",
    "workload",
    "size",
    "gpu_seconds",
    "gpu_kernel_seconds",
    "cpu_seconds",
    "gpu_over_cpu",
    "baseline",
    "baseline_seconds",
];

/// Appends rows to a CSV that collects runs from many machines; refuses a
/// file whose header is not this one (another program's, or an older grundy's).
fn append_csv(
    path: &std::path::Path,
    adapter: Option<&str>,
    threads: usize,
    rows: &[CsvRow],
) -> Result<()> {
    let header = CSV_HEADER.join(",");
    let new = !path.exists() || std::fs::metadata(path).is_ok_and(|m| m.len() == 0);
    if !new {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::Input(format!("cannot read {}: {e}", path.display())))?;
        let first = text.lines().next().unwrap_or("");
        if first != header {
            return Err(Error::Input(format!(
                "--out {}: its header is '{first}'; expected '{header}' (a file grundy bench \
                 started), or a new file",
                path.display()
            )));
        }
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::Input(format!("cannot append to {}: {e}", path.display())))?;
    let mut w = csv::Writer::from_writer(file);
    let csv_err = |e: csv::Error| Error::Run(e.to_string());
    if new {
        w.write_record(CSV_HEADER).map_err(csv_err)?;
    }
    let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
    for r in rows {
        w.write_record([
            adapter.unwrap_or("none").to_string(),
            threads.to_string(),
            r.part.to_string(),
            r.workload.clone(),
            r.size.to_string(),
            f(r.gpu_seconds),
            f(r.gpu_kernel_seconds),
            f(r.cpu_seconds),
            f(r.gpu_seconds.zip(r.cpu_seconds).map(|(g, c)| c / g)),
            r.baseline.map_or(String::new(), |b| b.0.to_string()),
            f(r.baseline.map(|b| b.1)),
        ])
        .map_err(csv_err)?;
    }
    w.flush()?;
    Ok(())
}
