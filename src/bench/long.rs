//! Long sparse sequences by rare values, the workloads people push to
//! billions of heaps: Officers (`0.6`), Grundy's game (`4!.0`) and `.1777`.
//! Each runs on every thread and on one; the parallel pass (the rare-pair
//! marks, c′ and the scan below the block) is timed apart and its marks
//! counted, so its cost per mark and its share of the run show. The
//! in-order finish's share of one thread's time bounds what any number of
//! cores or a card can gain (`bound`); finished in stretches on guesses
//! (`Stretches::Always`, one thread, 16 runs a stretch in rounds), only
//! their check and the heaps they redo stay in order (`in order %`,
//! `stretch bound`), beside the rounds' critical path (`path ×`, `rounds
//! bound`: what 16 cores would gain, counted on one). The threads go 1, 2,
//! 4, … up to the pool's, and the passes started ahead (`PassAhead::Always`
//! on the CPU, `Never` on the GPU) run against the default in the same run.

use super::part::{Part, Setup};
use crate::cli::BenchPart;
use std::time::Instant;

use serde::Serialize;

use super::report::{Columns, CsvRow};
use grundy::error::{Error, Result};
use grundy::game::Code;
use grundy::internals::engine::heap::rare::{PassAhead, RareCounts, Stretches, Tuning};
use grundy::internals::engine::heap::sequence::{Algorithm, SequenceRun};
use grundy::internals::engine::heap::storage::table::HeapTable;
use grundy::internals::engine::{BackendChoice, LazyBackend};
use grundy::internals::gpu::heap::GpuTuning;

/// Runs a stretch in the model of many cores (`path_gain`, `rounds_bound`).
pub const MODEL_RUNS: usize = 16;

/// A code to heap `n` by rare values.
#[derive(Clone, Copy, Debug)]
pub struct LongWorkload {
    pub name: &'static str,
    pub code: &'static str,
    pub n: u64,
}

/// Officers and Grundy's game to 2^20 heaps, `.1777` to 2·10^7 (2^16 and
/// 2^20 with `--quick`).
pub fn long_suite(quick: bool) -> Vec<LongWorkload> {
    let (n, n_1777) = if quick {
        (1 << 16, 1 << 20)
    } else {
        (1 << 20, 20_000_000)
    };
    vec![
        LongWorkload {
            name: "officers 0.6",
            code: "0.6",
            n,
        },
        LongWorkload {
            name: "grundy 4!.0",
            code: "4!.0",
            n,
        },
        LongWorkload {
            name: ".1777",
            code: "0.1777",
            n: n_1777,
        },
    ]
}

/// Rare values on `code` to heap `n` on the current thread pool, the pass
/// on the GPU when `backend` is one, started ahead as `ahead` says;
/// returns (seconds, the run's counts, the table).
pub fn time_long(
    w: &LongWorkload,
    backend: &LazyBackend,
    ahead: PassAhead,
) -> Result<(f64, RareCounts, Vec<u16>)> {
    let tuning = Tuning {
        pass_ahead: ahead,
        ..Tuning::default()
    };
    time_long_with(w, backend, tuning)
}

/// `time_long` with the pass started ahead, the stretches and their runs
/// as `tuning` says.
pub fn time_long_with(
    w: &LongWorkload,
    backend: &LazyBackend,
    tuning: Tuning,
) -> Result<(f64, RareCounts, Vec<u16>)> {
    let code = Code::parse(w.code).map_err(|e| Error::Input(e.to_string()))?;
    let start = Instant::now();
    let mut run = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default())?.tuned(tuning);
    let card = GpuTuning::default();
    run.extend(w.n, backend, &card, &grundy::hooks::Silent)?;
    let seconds = start.elapsed().as_secs_f64();
    let counts = run.rare_counts().unwrap_or_default();
    Ok((seconds, counts, run.table.into_wide()))
}

#[derive(Serialize, Debug, Clone)]
pub struct LongBenchRow {
    pub workload: String,
    pub code: String,
    pub n: u64,
    /// On every thread of the pool.
    pub threads: usize,
    pub seconds: f64,
    pub values_per_second: f64,
    /// On one thread, and the speed-up of all threads over it.
    pub one_thread_seconds: f64,
    pub thread_speedup: f64,
    /// The parallel pass: rare-pair marks, rare pairs checked instead of
    /// marked (AVX-512), split pairs its scans read, and (one thread, so
    /// wall time is CPU time) nanoseconds per mark, checks and pairs
    /// included, and its share of the run.
    pub pass_marks: u64,
    pub pass_checked: u64,
    pub pass_pairs: u64,
    pub pass_ns_per_mark: Option<f64>,
    pub pass_share: f64,
    /// The in-order finish's share of the one-thread run (its waits on the
    /// pass taken off), and one over it: the most any number of cores or a
    /// card can gain while the finish stays as it is.
    pub finish_share: f64,
    pub bound: f64,
    /// One thread finishing every block it can in stretches of
    /// `MODEL_RUNS` runs on guesses, in rounds:
    /// the share of its heaps redone in order, what stays in order (the
    /// check, the redone heaps, the heaps outside stretches, waits taken
    /// off) as a share of the default one-thread run, and one over it.
    pub stretch_redone_share: f64,
    pub in_order_share: f64,
    pub stretch_bound: f64,
    /// With `MODEL_RUNS` runs a stretch, in rounds: the stretch heaps over
    /// their critical path in heaps (per round the longest run, and the
    /// heaps redone in order), and the one-thread run over what stays in
    /// order plus the rounds' path in time (per round the longest run's
    /// time, `path_nanos`): the most that many cores gain.
    pub path_gain: f64,
    pub rounds_bound: f64,
    /// Seconds on 1, 2, 4, … threads up to the pool's (`threads:seconds`).
    pub thread_seconds: Vec<(usize, f64)>,
    /// On every thread with the next block's pass started on the other
    /// cores while a block is finished, and the default's time over it.
    pub ahead_seconds: f64,
    pub ahead_gain: f64,
    /// With the pass on the GPU (null without one), CPU time over it, and
    /// the GPU without its pass launched ahead.
    pub gpu_seconds: Option<f64>,
    pub gpu_over_cpu: Option<f64>,
    pub gpu_alone_seconds: Option<f64>,
    /// The GPU run's blocks in flight, its waits on the card and the
    /// card's idle time, and the host's finish time.
    pub gpu_counters: Option<grundy::internals::gpu::GpuCounters>,
    pub gpu_finish_seconds: Option<f64>,
}

fn pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::Run(format!("a {threads}-thread pool: {e}")))
}

/// Every long workload on every thread, on 1, 2, 4, … threads, with the
/// passes started ahead and not, and with the pass on the GPU when `gpu`.
pub fn long_rows(gpu: bool, quick: bool, json: bool) -> Result<Vec<LongBenchRow>> {
    let cpu = LazyBackend::cpu();
    let gpu = match gpu {
        true => Some(LazyBackend::new(
            BackendChoice::Gpu,
            &grundy::hooks::Silent,
        )?),
        false => None,
    };
    if !json {
        columns(gpu.is_some()).print_header();
    }
    let mut rows = Vec::new();
    for w in long_suite(quick) {
        let row = long_row(&w, &cpu, gpu.as_ref())?;
        if !json {
            print_row(&row);
        }
        rows.push(row);
    }
    Ok(rows)
}

/// One workload's row; an error when any two of its runs' tables differ.
fn long_row(
    w: &LongWorkload,
    cpu: &LazyBackend,
    gpu: Option<&LazyBackend>,
) -> Result<LongBenchRow> {
    let threads = rayon::current_num_threads();
    let (seconds, _, table) = time_long(w, cpu, PassAhead::Auto)?;
    let (ahead_seconds, _, ahead_table) = time_long(w, cpu, PassAhead::Always)?;
    let (mut tables, mut thread_seconds) = (vec![ahead_table], Vec::new());
    let mut one = None;
    for t in std::iter::successors(Some(1), |t| Some(t * 2)).take_while(|&t| t < threads) {
        let run = pool(t)?.install(|| time_long(w, &LazyBackend::cpu(), PassAhead::Auto))?;
        thread_seconds.push((t, run.0));
        one = one.or(Some((run.0, run.1)));
        tables.push(run.2);
    }
    thread_seconds.push((threads, seconds));
    let (one_s, counts) = one.unwrap_or((seconds, time_long(w, cpu, PassAhead::Auto)?.1));
    // Sixteen runs a stretch on one thread: a 16-core host's rounds and
    // critical path, counted (the time is one thread's work).
    let guessing = Tuning {
        stretches: Stretches::Always,
        stretch_runs: Some(MODEL_RUNS),
        ..Tuning::default()
    };
    let (_, stretched, stretch_table) =
        pool(1)?.install(|| time_long_with(w, &LazyBackend::cpu(), guessing))?;
    tables.push(stretch_table);
    let gpu_run = gpu.map(|b| time_gpu(w, b)).transpose()?;
    let gpu_alone = gpu.map(|b| time_long(w, b, PassAhead::Never)).transpose()?;
    tables.extend(gpu_run.iter().map(|r| r.2.clone()));
    tables.extend(gpu_alone.iter().map(|r| r.2.clone()));
    if tables.iter().any(|t| *t != table) {
        return Err(Error::Run(format!(
            "rare values differ between thread counts or backends for {}",
            w.code
        )));
    }
    let finish = counts.finish_nanos.saturating_sub(counts.finish_wait_nanos) as f64 * 1e-9;
    let in_order = stretched
        .finish_nanos
        .saturating_sub(stretched.finish_wait_nanos + stretched.guess_nanos)
        as f64
        * 1e-9;
    let guessed = stretched.guessed_kept + stretched.guessed_redone;
    // The rounds' critical path: per round, the longest run's time.
    let path = stretched.path_nanos as f64 * 1e-9;
    Ok(LongBenchRow {
        workload: w.name.to_string(),
        code: w.code.to_string(),
        n: w.n,
        threads,
        seconds,
        values_per_second: (w.n + 1) as f64 / seconds,
        one_thread_seconds: one_s,
        thread_speedup: one_s / seconds,
        pass_marks: counts.pass_marks,
        pass_checked: counts.pass_checked,
        pass_pairs: counts.pass_pairs,
        pass_ns_per_mark: (counts.pass_marks > 0)
            .then(|| counts.pass_nanos as f64 / counts.pass_marks as f64),
        pass_share: counts.pass_nanos as f64 * 1e-9 / one_s,
        finish_share: finish / one_s,
        bound: one_s / finish.max(1e-9),
        stretch_redone_share: stretched.guessed_redone as f64 / guessed.max(1) as f64,
        in_order_share: in_order / one_s,
        stretch_bound: one_s / in_order.max(1e-9),
        path_gain: guessed as f64 / (stretched.path_heaps + stretched.guessed_redone).max(1) as f64,
        rounds_bound: one_s / (in_order + path).max(1e-9),
        thread_seconds,
        ahead_seconds,
        ahead_gain: seconds / ahead_seconds,
        gpu_seconds: gpu_run.as_ref().map(|r| r.0),
        gpu_over_cpu: gpu_run.as_ref().map(|r| seconds / r.0),
        gpu_alone_seconds: gpu_alone.as_ref().map(|r| r.0),
        gpu_counters: gpu_run.as_ref().and_then(|r| r.3),
        gpu_finish_seconds: gpu_run.as_ref().map(|r| r.1.finish_nanos as f64 * 1e-9),
    })
}

/// `time_long` on the GPU, with the counters the run added to the card's.
fn time_gpu(
    w: &LongWorkload,
    gpu: &LazyBackend,
) -> Result<(
    f64,
    RareCounts,
    Vec<u16>,
    Option<grundy::internals::gpu::GpuCounters>,
)> {
    let before = gpu.opened().and_then(|b| b.gpu_counters());
    let (seconds, counts, table) = time_long(w, gpu, PassAhead::Auto)?;
    let after = gpu.opened().and_then(|b| b.gpu_counters());
    let counters = after.map(|a| a.since(before.unwrap_or_default()));
    Ok((seconds, counts, table, counters))
}

fn print_row(row: &LongBenchRow) {
    columns(row.gpu_seconds.is_some()).print_row(&[
        row.workload.to_string(),
        row.n.to_string(),
        format!("{:.3}", row.seconds),
        format!("{:.0}", row.values_per_second),
        format!("{:.3}", row.one_thread_seconds),
        format!("{:.2}", row.thread_speedup),
        row.pass_marks.to_string(),
        row.pass_checked.to_string(),
        row.pass_pairs.to_string(),
        row.pass_ns_per_mark
            .map_or("-".into(), |v| format!("{v:.2}"))
            .to_string(),
        format!("{:.0}", 100.0 * row.pass_share),
        format!("{:.0}", 100.0 * row.finish_share),
        format!("{:.1}", row.bound),
        format!("{:.0}", 100.0 * row.stretch_redone_share),
        format!("{:.1}", 100.0 * row.in_order_share),
        format!("{:.1}", row.stretch_bound),
        format!("{:.1}", row.path_gain),
        format!("{:.1}", row.rounds_bound),
        row.thread_seconds
            .iter()
            .map(|(t, s)| format!("{t}:{s:.2}"))
            .collect::<Vec<_>>()
            .join(" "),
        format!("{:.2}", row.ahead_gain),
        row.gpu_seconds
            .map_or("-".into(), |v| format!("{v:.3}"))
            .to_string(),
    ]);
}

pub fn csv_rows(rows: &[LongBenchRow]) -> Vec<CsvRow> {
    rows.iter()
        .map(|r| CsvRow {
            part: "long",
            workload: r.workload.clone(),
            size: r.n + 1,
            gpu_seconds: r.gpu_seconds,
            gpu_kernel_seconds: None,
            cpu_seconds: Some(r.seconds),
            baseline: Some(("one thread", r.one_thread_seconds)),
        })
        .collect()
}

/// This part's table: headings, widths, and which report the GPU.
fn columns(gpu: bool) -> Columns {
    Columns::new(
        gpu,
        &[
            ("long sequence", 14, false),
            ("n", 9, false),
            ("all s", 8, false),
            ("values/s", 13, false),
            ("1 thr s", 9, false),
            ("speedup", 7, false),
            ("pass marks", 13, false),
            ("checked", 13, false),
            ("pass pairs", 13, false),
            ("ns/mark", 8, false),
            ("pass %", 6, false),
            ("finish %", 8, false),
            ("bound", 5, false),
            ("redone %", 8, false),
            ("in order %", 10, false),
            ("stretch bound", 13, false),
            ("path ×", 6, false),
            ("rounds bound", 12, false),
            ("threads:s", 24, false),
            ("ahead", 5, false),
            ("gpu s", 8, true),
        ],
    )
}

/// This part, as `grundy bench` runs it.
pub struct Long;

impl Part for Long {
    const PART: BenchPart = BenchPart::Long;
    const KEY: &'static str = "long";
    type Rows = Vec<LongBenchRow>;
    fn rows(setup: &Setup) -> Result<Vec<LongBenchRow>> {
        long_rows(setup.gpu.is_some(), setup.quick, setup.json)
    }
    fn csv(rows: &Vec<LongBenchRow>) -> Vec<CsvRow> {
        csv_rows(rows)
    }
}
