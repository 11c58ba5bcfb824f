//! `grundy bench`: the same work on the GPU and the CPU, timed in one run,
//! one module per workload family.

pub mod edges;
pub mod graphs;
pub mod heaps;
pub mod long;
pub mod part;
pub mod rare;
pub mod report;
pub mod survey;
pub mod tables;

use crate::cli::BenchArgs;
use grundy::error::{Error, Result};
use grundy::internals::engine::{Backend, BackendChoice};
use grundy::setting::Marked;
use part::{Setup, run_part};
use report::CsvRow;

/// Notices on stderr: which GPU opened, or why none did; the last is kept
/// for the `GPU:` line and the verdicts.
#[derive(Default)]
struct Said(std::sync::Mutex<Option<String>>);

impl grundy::hooks::RunHooks for Said {
    fn notice(&self, message: Marked<'_>) {
        let said = message.worded(&crate::front::CliWords);
        eprintln!("grundy: {said}");
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(said);
    }
}

/// What a run without a GPU says instead of its ratios.
fn why_no_gpu(args: &BenchArgs, said: &Said) -> String {
    match args.backend {
        BackendChoice::Cpu => "--backend cpu".to_string(),
        _ => said
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .unwrap_or_else(|| "no GPU adapter".to_string()),
    }
}

/// The GPU `bench` compares with the CPU (none with `--backend cpu`), its
/// description, and whether it is a software adapter; says which unless
/// `--json`.
fn open_gpu(args: &BenchArgs) -> Result<(Option<Backend>, Option<String>, bool, String)> {
    let said = Said::default();
    let gpu = match args.backend {
        BackendChoice::Cpu => None,
        choice => match Backend::open(choice, &said)? {
            Backend::Gpu(runner) => Some(Backend::Gpu(runner)),
            Backend::Cpu => None,
        },
    };
    let (adapter, software) = match &gpu {
        Some(Backend::Gpu(runner)) => (Some(runner.adapter_detail()), runner.is_software()),
        _ => (None, false),
    };
    report::SOFTWARE_GPU.store(software, std::sync::atomic::Ordering::Relaxed);
    let why_none = why_no_gpu(args, &said);
    if !args.json {
        match &adapter {
            Some(adapter) => grundy::frontend::outln!("GPU: {adapter}"),
            None => grundy::frontend::outln!("GPU: none ({why_none})"),
        }
        if software {
            grundy::frontend::outln!(
                "     a software adapter: its columns (sw-gpu) time the CPU emulating a GPU, \
                 not a GPU"
            );
        }
        grundy::frontend::outln!(
            "CPU: {} threads (rayon), SIMD path {} (GRUNDY_SIMD chooses a narrower one)",
            rayon::current_num_threads(),
            grundy::internals::engine::heap::rare::simd::chosen().name()
        );
    }
    Ok((gpu, adapter, software, why_none))
}

/// A part's rows when it was asked for, else none.
pub fn run(args: &BenchArgs) -> Result<()> {
    let (gpu, adapter, software, why_none) = open_gpu(args)?;
    let threads = rayon::current_num_threads();
    let setup = Setup {
        gpu: gpu.as_ref(),
        quick: args.quick,
        json: args.json,
    };
    let mut report = serde_json::Map::new();
    let only = &args.only;
    let heap_rows = run_part::<heaps::Heaps>(&setup, only, &mut report)?;
    let graph_rows = run_part::<graphs::Graphs>(&setup, only, &mut report)?;
    let rare_rows = run_part::<rare::Rare>(&setup, only, &mut report)?;
    let long_rows = run_part::<long::Long>(&setup, only, &mut report)?;
    let survey_rows = run_part::<survey::Survey>(&setup, only, &mut report)?;
    let edge_rows = run_part::<edges::Edges>(&setup, only, &mut report)?;
    let table_rows = run_part::<tables::Tables>(&setup, only, &mut report)?;
    let grid_rows = run_part::<graphs::Grids>(&setup, only, &mut report)?;
    let lines: Vec<CsvRow> = [
        heap_rows,
        rare_rows,
        long_rows,
        survey_rows,
        graph_rows,
        edge_rows,
        table_rows,
        grid_rows,
    ]
    .into_iter()
    .flatten()
    .collect();
    if let Some(path) = &args.out {
        append_csv(path, adapter.as_deref(), threads, &lines)?;
    }
    if !args.json {
        report::print_legend();
        report::print_verdicts(&lines, &why_none);
        return Ok(());
    }
    let counters = gpu.as_ref().and_then(Backend::gpu_counters);
    let head = serde_json::json!({
        "adapter": adapter,
        "software_adapter": software,
        "gpu": counters,
        "cpu_threads": threads,
        "simd": grundy::internals::engine::heap::rare::simd::chosen(),
    });
    if let serde_json::Value::Object(head) = head {
        report.extend(head);
    }
    grundy::frontend::outln!("{}", serde_json::Value::Object(report));
    Ok(())
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
