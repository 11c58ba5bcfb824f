//! Edge-game workloads: the Game of Arrows and the Game of Cycles.

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use std::time::Instant;

use serde::Serialize;

use super::report::{Columns, CsvRow, opt, with_kernel_seconds};
use grundy::error::{Error, Result};
use grundy::game::Graph;
use grundy::game::arrows::{ArrowGame, ArrowRule, spider, standard_faces};
use grundy::internals::engine::Backend;
use grundy::internals::engine::edges::arrows_dense;
use grundy::internals::engine::edges::arrows_memo::ArrowMemo;

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
    let (run, kernel) = with_kernel_seconds(backend, || {
        arrows_dense::solve_dense(game, &start, backend, false, &grundy::hooks::Silent)
    })?;
    let fell_back = run.backend != backend.ran();
    Ok((!fell_back).then_some((run.seconds, kernel, run.value, run.states)))
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

pub fn edge_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<EdgeBenchRow>> {
    if !json {
        columns(gpu.is_some()).print_header();
    }
    let mut rows = Vec::new();
    let print = |row: &EdgeBenchRow| {
        if !json {
            columns(gpu.is_some()).print_row(&[
                row.workload.to_string(),
                row.positions.to_string(),
                opt(row.gpu_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                format!("{:.3}", row.cpu_seconds),
                opt(row.gpu_positions_per_second, 0),
                format!("{:.0}", row.cpu_positions_per_second),
                opt(row.gpu_over_cpu, 2),
            ]);
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
    let row = spider_row(if quick { 12 } else { 24 })?;
    print(&row);
    rows.push(row);
    Ok(rows)
}

/// The spider table with three legs up to `max`, by the decomposition
/// solver (CPU).
fn spider_row(max: usize) -> Result<EdgeBenchRow> {
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
    Ok(EdgeBenchRow {
        workload: format!("spiders to {max} (memo)"),
        positions: count,
        gpu_seconds: None,
        gpu_kernel_seconds: None,
        cpu_seconds: secs,
        gpu_positions_per_second: None,
        cpu_positions_per_second: count as f64 / secs,
        gpu_over_cpu: None,
    })
}

pub fn csv_rows(rows: &[EdgeBenchRow]) -> Vec<CsvRow> {
    rows.iter()
        .map(|r| CsvRow {
            part: "edges",
            workload: r.workload.clone(),
            size: r.positions,
            gpu_seconds: r.gpu_seconds,
            gpu_kernel_seconds: r.gpu_kernel_seconds,
            cpu_seconds: Some(r.cpu_seconds),
            baseline: None,
        })
        .collect()
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    Columns::timed(gpu, ("edge game", 24), ("positions", 12), "pos", &[])
}

/// This part, as `grundy bench` runs it.
pub struct Edges;

impl Part for Edges {
    const PART: BenchPart = BenchPart::Edges;
    const KEY: &'static str = "edge_games";
    type Rows = Vec<EdgeBenchRow>;
    fn rows(setup: &Setup) -> Result<Vec<EdgeBenchRow>> {
        edge_rows(setup.gpu, setup.quick, setup.json)
    }
    fn csv(rows: &Vec<EdgeBenchRow>) -> Vec<CsvRow> {
        csv_rows(rows)
    }
}
