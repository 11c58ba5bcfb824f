//! The survey workload: every short code, as `grundy survey` runs them.

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use std::time::Instant;

use serde::Serialize;

use super::report::{Columns, CsvRow, opt, with_kernel_seconds};
use grundy::error::{Error, Result};
use grundy::game::Code;
use grundy::internals::engine::Backend;
use grundy::internals::engine::heap::sequence::Algorithm;
use grundy::internals::engine::survey::{all_codes, survey_rows, survey_rows_gpu};
use grundy::internals::gpu::survey::workgroup_for;

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
pub fn survey_bench(gpu: Option<&Backend>, quick: bool, json: bool) -> Result<SurveyBenchRow> {
    let (digits, n) = if quick { (2, 1 << 12) } else { (3, 1 << 13) };
    let codes: Vec<Code> = all_codes("0", digits)
        .iter()
        .map(|t| Code::parse(t).map_err(|e| Error::Input(e.to_string())))
        .collect::<Result<_>>()?;
    let start = Instant::now();
    let rows = survey_rows(&codes, n, Algorithm::Auto, &|_, _| {})?;
    let cpu_s = start.elapsed().as_secs_f64();
    let on_gpu = |algorithm: Algorithm, workgroup: Option<u32>| -> Result<Option<(f64, f64)>> {
        let Some(backend @ Backend::Gpu(runner)) = gpu else {
            return Ok(None);
        };
        let start = Instant::now();
        let workgroup = workgroup_for(runner, workgroup)?;
        let ((gpu_rows, _), kernel) = with_kernel_seconds(backend, || {
            survey_rows_gpu(runner, &codes, n, algorithm, workgroup, &|_, _| {})
        })?;
        let secs = start.elapsed().as_secs_f64();
        if rows.iter().zip(&gpu_rows).any(|(c, g)| c.0 != g.0) {
            return Err(Error::Run("GPU and CPU surveys differ".into()));
        }
        Ok(Some((secs, kernel)))
    };
    let gpu_run = on_gpu(Algorithm::Auto, None)?;
    let gpu_brute = on_gpu(Algorithm::Naive, None)?.map(|r| r.0);
    let default_threads = match gpu {
        Some(Backend::Gpu(runner)) => Some(workgroup_for(runner, None)?),
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
        print_row(&row);
    }
    Ok(row)
}

fn print_row(row: &SurveyBenchRow) {
    columns(row.gpu_seconds.is_some()).print_header();
    columns(row.gpu_seconds.is_some()).print_row(&[
        row.workload.to_string(),
        row.codes.to_string(),
        opt(row.gpu_seconds, 3),
        opt(row.gpu_kernel_seconds, 3),
        format!("{:.3}", row.cpu_seconds),
        opt(row.gpu_values_per_second, 0),
        format!("{:.0}", row.cpu_values_per_second),
        opt(row.gpu_over_cpu, 2),
        opt(row.gpu_brute_seconds, 3),
        opt(row.gpu_64_threads_seconds, 3),
        row.certified.to_string(),
    ]);
}

pub fn csv_rows(r: &SurveyBenchRow) -> Vec<CsvRow> {
    let mut lines = vec![CsvRow {
        part: "survey",
        workload: r.workload.clone(),
        size: r.codes as u64 * (r.n + 1),
        gpu_seconds: r.gpu_seconds,
        gpu_kernel_seconds: r.gpu_kernel_seconds,
        cpu_seconds: Some(r.cpu_seconds),
        baseline: r.gpu_brute_seconds.map(|b| ("GPU brute force", b)),
    }];
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
    lines
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    let extra = [
        ("gpu brute s", 12, true),
        ("gpu 64thr s", 12, true),
        ("certified", 10, false),
    ];
    Columns::timed(gpu, ("survey", 26), ("codes", 6), "values", &extra)
}

/// This part, as `grundy bench` runs it.
pub struct Survey;

impl Part for Survey {
    const PART: BenchPart = BenchPart::Survey;
    const KEY: &'static str = "survey";
    type Rows = Option<SurveyBenchRow>;
    fn rows(setup: &Setup) -> Result<Option<SurveyBenchRow>> {
        survey_bench(setup.gpu, setup.quick, setup.json).map(Some)
    }
    fn csv(rows: &Option<SurveyBenchRow>) -> Vec<CsvRow> {
        rows.as_ref().map_or(Vec::new(), csv_rows)
    }
}
