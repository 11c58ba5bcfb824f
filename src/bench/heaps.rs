//! The heap workloads: octal and Grundy's game tables, blocked, GPU against
//! CPU, and misère Nim's, blocked the same way (`misere_heaps`).

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use std::time::Instant;

use serde::Serialize;

use super::report::{Columns, CsvRow, opt, with_kernel_seconds};
use grundy::error::{Error, Result};
use grundy::game::Code;
use grundy::internals::engine::misere_heaps::table_on;
use grundy::internals::engine::{Backend, extend_heap_table};
use grundy::internals::gpu::heap::GpuTuning;
use grundy::internals::kernel::genus::GenusKernelCode;

/// One workload: a code computed to heap `n`, under misère play where
/// `misere` says (every heap's genus planes, `kernel::genus`).
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub name: &'static str,
    pub code: &'static str,
    pub n: u64,
    pub misere: bool,
}

/// The suite: a quadratic octal game without sparse space (`0.007`),
/// Grundy's game and Kayles at 2^16 heaps (2^14 with `--quick`), and Nim
/// under misère play at 2^15 (2^11): its 29 planes a heap, each heap's
/// options every heap below it.
pub fn suite(quick: bool) -> Vec<Workload> {
    let n = if quick { 1 << 14 } else { 1 << 16 };
    let misere_n = if quick { 1 << 11 } else { 1 << 15 };
    vec![
        Workload {
            name: "octal 0.007",
            code: "0.007",
            n,
            misere: false,
        },
        Workload {
            name: "grundy 4!.0",
            code: "4!.0",
            n,
            misere: false,
        },
        Workload {
            name: "kayles 0.77",
            code: "0.77",
            n,
            misere: false,
        },
        Workload {
            name: "misère 0.[3]",
            code: "0.[3]",
            n: misere_n,
            misere: true,
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
    if w.misere {
        return time_misere(&code, w.n, backend);
    }
    let start = Instant::now();
    let tuning = GpuTuning::default();
    let (run, kernel) = with_kernel_seconds(backend, || {
        extend_heap_table(
            &code,
            Vec::new(),
            w.n,
            backend,
            &tuning,
            &grundy::hooks::Silent,
        )
    })?;
    Ok((start.elapsed().as_secs_f64(), kernel, run.table))
}

/// Times a misère table in blocks on `backend` (the card, or the CPU
/// twin); its states, which the bitsets keep below 65536, as the table.
fn time_misere(code: &Code, n: u64, backend: &Backend) -> Result<(f64, f64, Vec<u16>)> {
    let kernel = GenusKernelCode::new(code).map_err(Error::Input)?;
    let silent = &grundy::hooks::Silent;
    let start = Instant::now();
    let ((states, _), kernel_seconds) =
        with_kernel_seconds(backend, || table_on(&kernel, n as u32, backend, silent))?;
    let seconds = start.elapsed().as_secs_f64();
    let states = states.ok_or_else(|| Error::Run("the misère workload was stopped".into()))?;
    Ok((
        seconds,
        kernel_seconds,
        states.iter().map(|&v| v as u16).collect(),
    ))
}

/// Times every heap workload on the GPU (when given) and the CPU, and
/// prints a row each unless `json`.
pub fn heap_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<BenchRow>> {
    if !json {
        columns(gpu.is_some()).print_header();
    }
    let mut rows = Vec::new();
    for w in suite(quick) {
        let gpu_run = gpu.map(|b| time_workload(&w, b)).transpose()?;
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
        if !json {
            columns(gpu.is_some()).print_row(&[
                row.workload.to_string(),
                row.n.to_string(),
                opt(row.gpu_seconds, 4),
                opt(row.gpu_kernel_seconds, 4),
                format!("{:.4}", row.cpu_seconds),
                opt(row.gpu_values_per_second, 0),
                format!("{:.0}", row.cpu_values_per_second),
                opt(row.gpu_over_cpu, 2),
            ]);
        }
        rows.push(row);
    }
    Ok(rows)
}

pub fn csv_rows(rows: &[BenchRow]) -> Vec<CsvRow> {
    rows.iter()
        .map(|r| CsvRow {
            part: "heaps",
            workload: r.workload.clone(),
            size: r.n + 1,
            gpu_seconds: r.gpu_seconds,
            gpu_kernel_seconds: r.gpu_kernel_seconds,
            cpu_seconds: Some(r.cpu_seconds),
            baseline: None,
        })
        .collect()
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    Columns::timed(gpu, ("workload", 14), ("n", 8), "values", &[])
}

/// This part, as `grundy bench` runs it.
pub struct Heaps;

impl Part for Heaps {
    const PART: BenchPart = BenchPart::Heaps;
    const KEY: &'static str = "workloads";
    type Rows = Vec<BenchRow>;
    fn rows(setup: &Setup) -> Result<Vec<BenchRow>> {
        heap_rows(setup.gpu, setup.quick, setup.json)
    }
    fn csv(rows: &Vec<BenchRow>) -> Vec<CsvRow> {
        csv_rows(rows)
    }
}
