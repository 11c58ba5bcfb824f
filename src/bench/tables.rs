//! Tuple-table workloads: rectangles, boxes and Delete Nim rules.

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use serde::Serialize;

use super::report::{Columns, CsvRow, opt, with_kernel_seconds};
use grundy::error::{Error, Result};
use grundy::game::Convention;
use grundy::game::delete_nim::{DeleteNim, Rule};
use grundy::game::rect::Rect;
use grundy::internals::engine::{Backend, tuples::table as tuple_table};
use grundy::tuples::TupleKernel;

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
    /// Misère play (Delete Nim rules: whole positions, the same kernels).
    pub misere: bool,
}

/// Two-heap VDN and rectangles (the sizes the issue names), boxes, and
/// many-heap rules, then Delete Nim rules under misère play; smaller with
/// `--quick`.
pub fn tuple_suite(quick: bool) -> Vec<TupleWorkload> {
    let w = |name, rect, rule, heaps, max, compare_walked| TupleWorkload {
        name,
        rect,
        rule,
        heaps,
        max,
        compare_walked,
        misere: false,
    };
    let misere = |w: TupleWorkload| TupleWorkload { misere: true, ..w };
    if quick {
        return vec![
            w("vdn 2 heaps", None, Rule::Vdn, 2, 1024, true),
            w("rect", Some((2, 1)), Rule::Vdn, 2, 512, false),
            w("single 4 heaps", None, Rule::Single, 4, 24, false),
            misere(w("vdn 2 heaps", None, Rule::Vdn, 2, 1024, false)),
        ];
    }
    vec![
        w("vdn 2 heaps", None, Rule::Vdn, 2, 4096, false),
        w("vdn 2 heaps", None, Rule::Vdn, 2, 1024, true),
        w("rect", Some((2, 1)), Rule::Vdn, 2, 2048, false),
        w("boxes", Some((3, 1)), Rule::Vdn, 3, 128, false),
        w("abo 4 heaps", None, Rule::Abo, 4, 40, true),
        w("single 4 heaps", None, Rule::Single, 4, 40, false),
        misere(w("vdn 2 heaps", None, Rule::Vdn, 2, 4096, false)),
        misere(w("single 4 heaps", None, Rule::Single, 4, 40, false)),
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
        .map(|kern| kern.under(Convention::misere_if(self.misere)))
        .map_err(Error::Input)
    }

    pub fn label(&self) -> String {
        let misere = if self.misere { ", misère" } else { "" };
        format!("{} to {}{misere}", self.name, self.max)
    }
}

/// Times one table on `backend`; returns (seconds, kernel seconds, table),
/// or `None` when a GPU was asked for and the table did not fit it.
pub fn time_tuples(kern: &TupleKernel, backend: &Backend) -> Result<Option<(f64, f64, Vec<u32>)>> {
    let (run, kernel) = with_kernel_seconds(backend, || {
        tuple_table::solve(kern, backend, &grundy::hooks::Silent)
    })?;
    let fell_back = run.backend != backend.ran();
    Ok((!fell_back).then_some((run.seconds, kernel, run.table)))
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

pub fn tuple_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<TupleBenchRow>> {
    if !json {
        columns(gpu.is_some()).print_header();
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
            columns(gpu.is_some()).print_row(&[
                row.workload.to_string(),
                positions.to_string(),
                opt(row.gpu_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                format!("{:.3}", row.cpu_seconds),
                opt(row.gpu_positions_per_second, 0),
                format!("{:.0}", row.cpu_positions_per_second),
                opt(row.gpu_over_cpu, 2),
                opt(row.walked_cpu_seconds, 2),
                opt(row.split_sets_over_walked, 1),
            ]);
        }
        rows.push(row);
    }
    Ok(rows)
}

pub fn csv_rows(rows: &[TupleBenchRow]) -> Vec<CsvRow> {
    rows.iter()
        .map(|r| CsvRow {
            part: "tables",
            workload: r.workload.clone(),
            size: r.positions,
            gpu_seconds: r.gpu_seconds,
            gpu_kernel_seconds: r.gpu_kernel_seconds,
            cpu_seconds: Some(r.cpu_seconds),
            baseline: r.walked_cpu_seconds.map(|b| ("walked options", b)),
        })
        .collect()
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    let extra = [("walked s", 9, false), ("sets/walk", 8, false)];
    Columns::timed(gpu, ("table", 28), ("positions", 10), "pos", &extra)
}

/// This part, as `grundy bench` runs it.
pub struct Tables;

impl Part for Tables {
    const PART: BenchPart = BenchPart::Tables;
    const KEY: &'static str = "tables";
    type Rows = Vec<TupleBenchRow>;
    fn rows(setup: &Setup) -> Result<Vec<TupleBenchRow>> {
        tuple_rows(setup.gpu, setup.quick, setup.json)
    }
    fn csv(rows: &Vec<TupleBenchRow>) -> Vec<CsvRow> {
        csv_rows(rows)
    }
}
