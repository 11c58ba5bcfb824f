//! `grundy bench`: the same work on the GPU and the CPU, timed in one run.

use std::time::Instant;

use serde::Serialize;

use crate::cli::BenchArgs;
use crate::engine::{Backend, BackendChoice, extend_heap_table};
use crate::error::{Error, Result};
use crate::game::Code;
use crate::gpu::heap::GpuTuning;

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
    )?;
    Ok((
        start.elapsed().as_secs_f64(),
        run.gpu.kernel_seconds,
        run.table,
    ))
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
    if !args.json {
        println!("GPU: {}", adapter.as_deref().unwrap_or("none"));
        println!("CPU: {threads} threads (rayon)");
        println!(
            "{:<14} {:>8} {:>12} {:>12} {:>12} {:>14} {:>14} {:>8}",
            "workload",
            "n",
            "gpu s",
            "kernel s",
            "cpu s",
            "gpu values/s",
            "cpu values/s",
            "gpu/cpu"
        );
    }
    let mut rows = Vec::new();
    for w in suite(args.quick) {
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
            let opt =
                |v: Option<f64>, prec: usize| v.map_or("-".to_string(), |v| format!("{v:.prec$}"));
            println!(
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
    if let Some(path) = &args.out {
        append_csv(path, adapter.as_deref(), threads, &rows)?;
    }
    if args.json {
        let report =
            serde_json::json!({ "adapter": adapter, "cpu_threads": threads, "workloads": rows });
        println!("{report}");
    }
    Ok(())
}

/// Appends rows to a CSV that collects runs from many machines.
fn append_csv(
    path: &std::path::Path,
    adapter: Option<&str>,
    threads: usize,
    rows: &[BenchRow],
) -> Result<()> {
    let new = !path.exists();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::Input(format!("cannot append to {}: {e}", path.display())))?;
    let mut w = csv::Writer::from_writer(file);
    let csv_err = |e: csv::Error| Error::Run(e.to_string());
    if new {
        w.write_record([
            "adapter",
            "cpu_threads",
            "workload",
            "code",
            "n",
            "gpu_seconds",
            "gpu_kernel_seconds",
            "cpu_seconds",
            "gpu_over_cpu",
        ])
        .map_err(csv_err)?;
    }
    let f = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.6}"));
    for r in rows {
        w.write_record([
            adapter.unwrap_or("none").to_string(),
            threads.to_string(),
            r.workload.clone(),
            r.code.clone(),
            r.n.to_string(),
            f(r.gpu_seconds),
            f(r.gpu_kernel_seconds),
            format!("{:.6}", r.cpu_seconds),
            f(r.gpu_over_cpu),
        ])
        .map_err(csv_err)?;
    }
    w.flush()?;
    Ok(())
}
