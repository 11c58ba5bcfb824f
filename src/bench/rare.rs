//! Long-sequence workloads: rare values against the blocked brute force.

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use std::time::Instant;

use serde::Serialize;

use super::heaps::{Workload, time_workload};
use super::report::{Columns, CsvRow, opt};
use grundy::error::{Error, Result};
use grundy::game::Code;
use grundy::internals::engine::Backend;
use grundy::internals::engine::heap::sequence::{Algorithm, SequenceRun};
use grundy::internals::engine::heap::storage::table::HeapTable;

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

pub fn rare_rows(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<Vec<RareBenchRow>> {
    if !json {
        columns(gpu.is_some()).print_header();
    }
    let mut rows = Vec::new();
    for w in rare_suite(quick) {
        let (rare_s, rare_table) = time_rare(&w)?;
        let brute = Workload {
            name: w.name,
            code: w.code,
            n: w.n,
            misere: false,
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
            columns(gpu.is_some()).print_row(&[
                row.workload.to_string(),
                row.n.to_string(),
                format!("{:.3}", row.rare_seconds),
                format!("{:.3}", row.cpu_brute_seconds),
                opt(row.gpu_brute_seconds, 3),
                opt(row.gpu_kernel_seconds, 3),
                format!("{:.1}", row.rare_over_cpu_brute),
                opt(row.rare_over_gpu_brute, 1),
            ]);
        }
        rows.push(row);
    }
    Ok(rows)
}

pub fn csv_rows(rows: &[RareBenchRow]) -> Vec<CsvRow> {
    rows.iter()
        .map(|r| CsvRow {
            part: "rare",
            workload: r.workload.clone(),
            size: r.n + 1,
            gpu_seconds: r.gpu_brute_seconds,
            gpu_kernel_seconds: r.gpu_kernel_seconds,
            cpu_seconds: Some(r.cpu_brute_seconds),
            baseline: Some(("rare values", r.rare_seconds)),
        })
        .collect()
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    Columns::new(
        gpu,
        &[
            ("rare values", 12, false),
            ("n", 8, false),
            ("rare s", 9, false),
            ("cpu brute s", 11, false),
            ("gpu brute s", 11, true),
            ("kernel s", 9, true),
            ("rare/cpu bf", 11, false),
            ("rare/gpu bf", 11, true),
        ],
    )
}

/// This part, as `grundy bench` runs it.
pub struct Rare;

impl Part for Rare {
    const PART: BenchPart = BenchPart::Rare;
    const KEY: &'static str = "rare";
    type Rows = Vec<RareBenchRow>;
    fn rows(setup: &Setup) -> Result<Vec<RareBenchRow>> {
        rare_rows(setup.gpu, setup.quick, setup.json)
    }
    fn csv(rows: &Vec<RareBenchRow>) -> Vec<CsvRow> {
        csv_rows(rows)
    }
}
