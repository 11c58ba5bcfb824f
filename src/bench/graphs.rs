//! Graph workloads: dense tables on grids (GPU against CPU), the memo
//! solver, the memoised-recursion baselines, and the sweep over grids.

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use std::time::Instant;

use serde::Serialize;

use std::collections::{BTreeMap, HashMap};

use super::report::{Columns, CsvRow, mean_time, opt, with_kernel_seconds};
use grundy::error::{Error, Result};
use grundy::game::{Convention, Graph, GraphCode};
use grundy::internals::engine::graph::dense::{DenseTuning, for_each_option, solve_dense};
use grundy::internals::engine::graph::grid_levels::GridLevels;
use grundy::internals::engine::graph::memo::takes_misere;
use grundy::internals::engine::graph::solve::{MemoRun, Solver, pick_solver, solve_memo};
use grundy::internals::engine::{Backend, GpuFrom, Ran};

/// A graph workload: the dense table of a code on a graph, and the memo
/// solver on the same graph.
#[derive(Clone, Copy, Debug)]
pub struct GraphWorkload {
    pub code: &'static str,
    pub graph: &'static str,
    /// Also time the memoised-recursion baseline and Dailly's Algorithm 2
    /// (normal play only).
    pub baseline: bool,
    /// Misère play: the same positions, a position without a move worth 1.
    pub misere: bool,
}

impl GraphWorkload {
    /// The code under the workload's convention.
    pub fn code(&self) -> Result<GraphCode> {
        let code = GraphCode::parse(self.code).map_err(Error::Input)?;
        Ok(code.under(Convention::misere_if(self.misere)))
    }

    /// "0.33 4x6", "0.33 4x6 misère".
    pub fn label(&self) -> String {
        let misere = if self.misere { " misère" } else { "" };
        format!(
            "{} {}{misere}",
            self.code,
            self.graph.trim_start_matches("grid:")
        )
    }
}

/// 0.33 and 0.03 on grids: 4x6 and 5x5, and 5x6 (30 vertices, 2^30
/// positions) in the full suite; 4x5 with `--quick`. The baselines run
/// wherever they finish in seconds: to 4x6 for 0.33, on every grid for
/// 0.03 (few positions are reachable when every move takes two vertices).
/// Then 0.33 and 0.137 under misère play on 4x5 and 4x6 (4x5 alone with
/// `--quick`): 0.137's moves split, so its disconnected subsets are valued
/// over their moves.
pub fn graph_suite(quick: bool) -> Vec<GraphWorkload> {
    let grids: &[&str] = if quick {
        &["grid:4x5"]
    } else {
        &["grid:4x5", "grid:4x6", "grid:5x5", "grid:5x6"]
    };
    let normal = grids.iter().flat_map(|&graph| {
        ["0.33", "0.03"].map(|code| GraphWorkload {
            code,
            graph,
            baseline: code == "0.03" || Graph::parse(graph).is_ok_and(|g| g.n() <= 24),
            misere: false,
        })
    });
    let misere_grids: &[&str] = if quick {
        &["grid:4x5"]
    } else {
        &["grid:4x5", "grid:4x6"]
    };
    let misere = misere_grids.iter().flat_map(|&graph| {
        ["0.33", "0.137"].map(|code| GraphWorkload {
            code,
            graph,
            baseline: false,
            misere: true,
        })
    });
    normal.chain(misere).collect()
}

/// Times the dense table of one graph workload; returns (seconds, kernel seconds, G).
pub fn time_graph(w: &GraphWorkload, backend: &Backend) -> Result<(f64, f64, u8)> {
    let code = w.code()?;
    let g = Graph::parse(w.graph).map_err(Error::Input)?;
    let start = Instant::now();
    let tuning = DenseTuning::default();
    let (run, kernel) = with_kernel_seconds(backend, || {
        solve_dense(&g, &code, backend, false, &tuning, &grundy::hooks::Silent)
    })?;
    Ok((start.elapsed().as_secs_f64(), kernel, run.value))
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
    solve_memo(g, code, false, false, &grundy::hooks::Silent)
}

pub fn time_graph_memo(w: &GraphWorkload) -> Result<Option<MemoTimes>> {
    let code = w.code()?;
    let g = Graph::parse(w.graph).map_err(Error::Input)?;
    if code.convention == Convention::Misere && takes_misere(&g, &code, g.all()).is_err() {
        return Ok(None);
    }
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
    Ok(Some(MemoTimes {
        one_thread,
        all_threads,
        pieces: first.positions,
        value: first.value,
    }))
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

/// Dailly's Algorithm 2 (Octal games on graphs) as its text describes it: the outcome only (stop
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
    /// Normal or misère play.
    pub convention: Convention,
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
    /// Dailly's Algorithm 2 as described (outcome, ordered map of 0/1 strings), one thread.
    pub seed_algorithm_seconds: Option<f64>,
    pub per_core_over_seed_algorithm: Option<f64>,
    /// The memo solver (canonical pieces) on one thread: its time, the
    /// pieces it solved, and the baseline's time over it; and its time on
    /// every thread where it runs level by level (none where misère play
    /// leaves it, the positions being sums).
    pub memo_seconds: Option<f64>,
    pub memo_all_threads_seconds: Option<f64>,
    pub memo_pieces: Option<u64>,
    pub memo_over_baseline: Option<f64>,
    /// The solver `grundy graph` picks for this workload.
    pub auto_solver: Solver,
}

pub fn graph_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<GraphBenchRow>> {
    if !json {
        columns(gpu.is_some()).print_header();
    }
    let mut rows = Vec::new();
    for w in graph_suite(quick) {
        let row = graph_row(&w, gpu)?;
        if !json {
            columns(gpu.is_some()).print_row(&[
                w.label(),
                row.positions.to_string(),
                opt(row.gpu_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                format!("{:.3}", row.cpu_seconds),
                opt(row.gpu_positions_per_second, 0),
                format!("{:.0}", row.cpu_positions_per_second),
                opt(row.gpu_over_cpu, 2),
                opt(row.baseline_seconds, 2),
                opt(row.per_core_over_baseline, 1),
                opt(row.seed_algorithm_seconds, 2),
                opt(row.per_core_over_seed_algorithm, 1),
                opt(row.memo_seconds, 4),
                opt(row.memo_over_baseline, 1),
                opt(row.memo_all_threads_seconds, 3),
            ]);
        }
        rows.push(row);
    }
    Ok(rows)
}

/// One graph workload: the dense table on both backends, the baselines and
/// the memo solver, each checked against the CPU's dense table.
fn graph_row(w: &GraphWorkload, gpu: Option<&Backend>) -> Result<GraphBenchRow> {
    let threads = rayon::current_num_threads() as f64;
    let g = Graph::parse(w.graph).map_err(Error::Input)?;
    let positions = 1u64 << g.n();
    let gpu_run = gpu.map(|b| time_graph(w, b)).transpose()?;
    let (cpu_s, _, cpu_value) = time_graph(w, &Backend::Cpu)?;
    let differs = |what: &str| {
        Error::Run(format!(
            "{what} differs from the dense table for {} on {}",
            w.code, w.graph
        ))
    };
    if gpu_run.is_some_and(|(_, _, v)| v != cpu_value) {
        return Err(differs("the GPU"));
    }
    let code = w.code()?;
    let baseline = w
        .baseline
        .then(|| mean_time(|| memo_recursion_baseline(&g, &code).0 == cpu_value));
    let seed = w
        .baseline
        .then(|| mean_time(|| seed_algorithm_2(&g, &code).0 == (cpu_value != 0)));
    let memo = time_graph_memo(w)?;
    if memo.as_ref().is_some_and(|m| m.value != cpu_value) {
        return Err(differs("the memo solver"));
    }
    for (name, run) in [("the recursion", baseline), ("Algorithm 2", seed)] {
        if let Some((_, false)) = run {
            return Err(differs(name));
        }
    }
    Ok(GraphBenchRow {
        code: w.code.to_string(),
        graph: w.graph.to_string(),
        convention: code.convention,
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
        memo_seconds: memo.as_ref().map(|m| m.one_thread),
        memo_all_threads_seconds: memo.as_ref().and_then(|m| m.all_threads),
        memo_pieces: memo.as_ref().map(|m| m.pieces),
        memo_over_baseline: baseline.zip(memo.as_ref()).map(|(b, m)| b.0 / m.one_thread),
        auto_solver: pick_solver(&g, &code, Solver::Auto, false),
    })
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
    pub backend: Ran,
    pub g: u8,
    pub seconds: f64,
}

/// Solves every grid of `grid_sweep` under 0.33 and 0.03 the way `grundy
/// graph` would (its solver; the dense table on the GPU when there is one
/// and the table is as large as `auto` takes it for).
pub fn grid_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<GridRow>> {
    let backend = gpu.unwrap_or(&Backend::Cpu);
    let mut rows = Vec::new();
    for code_text in ["0.33", "0.03"] {
        let code = GraphCode::parse(code_text).map_err(Error::Input)?;
        for (r, c) in grid_sweep(quick) {
            let g = Graph::parse(&format!("grid:{r}x{c}")).map_err(Error::Input)?;
            let solver = pick_solver(&g, &code, Solver::Auto, false);
            let start = Instant::now();
            let (value, used) = match solver {
                Solver::Memo => (quiet_memo(&g, &code)?.value, Ran::Cpu),
                _ => {
                    // as `grundy graph` under auto: small tables on the CPU
                    let on = if GpuFrom::POSITIONS.takes(1 << g.n()) {
                        backend
                    } else {
                        &Backend::Cpu
                    };
                    let tuning = DenseTuning::default();
                    let run = solve_dense(&g, &code, on, false, &tuning, &grundy::hooks::Silent)?;
                    (run.value, run.backend)
                }
            };
            rows.push(GridRow {
                code: code_text.to_string(),
                graph: g.spec.clone(),
                vertices: g.n(),
                solver,
                backend: used,
                g: value,
                seconds: start.elapsed().as_secs_f64(),
            });
        }
    }
    if !json {
        grid_columns(false).print_header();
        for code in ["0.33", "0.03"] {
            let of_code: Vec<&GridRow> = rows.iter().filter(|r| r.code == code).collect();
            let slowest = of_code
                .iter()
                .max_by(|a, b| a.seconds.total_cmp(&b.seconds))
                .expect("the sweep has grids");
            grid_columns(false).print_row(&[
                code.to_string(),
                of_code.len().to_string(),
                format!("{:.2}", of_code.iter().map(|r| r.seconds).sum::<f64>()),
                of_code
                    .iter()
                    .filter(|r| r.seconds < 10.0)
                    .count()
                    .to_string(),
                format!("{} ({}, {})", slowest.graph, slowest.backend, slowest.g),
                format!("{:.3}", slowest.seconds),
            ]);
        }
    }
    Ok(rows)
}

pub fn csv_rows(rows: &[GraphBenchRow]) -> Vec<CsvRow> {
    let mut lines = Vec::new();
    for r in rows {
        let name = match r.convention {
            Convention::Normal => format!("{} {}", r.code, r.graph),
            Convention::Misere => format!("{} {} misère", r.code, r.graph),
        };
        lines.push(CsvRow {
            part: "graphs",
            workload: name.clone(),
            size: r.positions,
            gpu_seconds: r.gpu_seconds,
            gpu_kernel_seconds: r.gpu_kernel_seconds,
            cpu_seconds: Some(r.cpu_seconds),
            baseline: r.baseline_seconds.map(|b| ("memoised recursion", b)),
        });
        let (Some(pieces), Some(one)) = (r.memo_pieces, r.memo_seconds) else {
            continue;
        };
        lines.push(CsvRow {
            part: "graphs",
            workload: format!("{name} memo one thread"),
            size: pieces,
            gpu_seconds: None,
            gpu_kernel_seconds: None,
            cpu_seconds: Some(one),
            baseline: r.baseline_seconds.map(|b| ("memoised recursion", b)),
        });
        if let Some(all) = r.memo_all_threads_seconds {
            lines.push(CsvRow {
                part: "graphs",
                workload: format!("{name} memo all threads"),
                size: pieces,
                gpu_seconds: None,
                gpu_kernel_seconds: None,
                cpu_seconds: Some(all),
                baseline: None,
            });
        }
    }
    lines
}

pub fn grid_csv_rows(rows: &[GridRow]) -> Vec<CsvRow> {
    rows.iter()
        .map(|r| {
            let on_gpu = r.backend == Ran::Gpu;
            CsvRow {
                part: "grids",
                workload: format!("{} {} {:?}", r.code, r.graph, r.solver).to_lowercase(),
                size: r.vertices as u64,
                gpu_seconds: on_gpu.then_some(r.seconds),
                gpu_kernel_seconds: None,
                cpu_seconds: (!on_gpu).then_some(r.seconds),
                baseline: None,
            }
        })
        .collect()
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    let extra = [
        ("baseline s", 10, false),
        ("core/base", 9, false),
        ("alg2 s", 8, false),
        ("core/alg2", 9, false),
        ("memo s", 8, false),
        ("memo/base", 9, false),
        ("memo all s", 10, false),
    ];
    Columns::timed(gpu, ("graph", 18), ("positions", 10), "pos", &extra)
}

/// This part's table: headings, widths, and which report the GPU.
fn grid_columns(gpu: bool) -> Columns {
    Columns::new(
        gpu,
        &[
            ("grids", 8, false),
            ("count", 6, false),
            ("total s", 10, false),
            ("under 10 s", 10, false),
            ("slowest", 22, false),
            ("slowest s", 12, false),
        ],
    )
}

/// This part, as `grundy bench` runs it.
pub struct Graphs;

impl Part for Graphs {
    const PART: BenchPart = BenchPart::Graphs;
    const KEY: &'static str = "graphs";
    type Rows = Vec<GraphBenchRow>;
    fn rows(setup: &Setup) -> Result<Vec<GraphBenchRow>> {
        graph_rows(setup.gpu, setup.quick, setup.json)
    }
    fn csv(rows: &Vec<GraphBenchRow>) -> Vec<CsvRow> {
        csv_rows(rows)
    }
}

/// This part, as `grundy bench` runs it.
pub struct Grids;

impl Part for Grids {
    const PART: BenchPart = BenchPart::Grids;
    const KEY: &'static str = "grids";
    type Rows = Vec<GridRow>;
    fn rows(setup: &Setup) -> Result<Vec<GridRow>> {
        grid_rows(setup.gpu, setup.quick, setup.json)
    }
    fn csv(rows: &Vec<GridRow>) -> Vec<CsvRow> {
        grid_csv_rows(rows)
    }
}
