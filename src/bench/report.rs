//! What every bench part shares: timing, GPU column headings, figures.

use std::time::Instant;

use grundy::error::Result;
use grundy::internals::engine::Backend;

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

/// The GPU is a software adapter: its columns say so.
pub static SOFTWARE_GPU: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A GPU column's heading ("sw-gpu s" on a software adapter).
pub fn gpu_head(head: &str) -> String {
    if SOFTWARE_GPU.load(std::sync::atomic::Ordering::Relaxed) {
        format!("sw-{head}")
    } else {
        head.to_string()
    }
}

/// A figure with `prec` decimals, or "-" when it was not measured.
pub fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.prec$}"))
}

/// Runs `f` on `backend`; returns its result and the GPU kernel seconds it
/// took (0 on the CPU or without timestamp queries).
pub fn with_kernel_seconds<T>(
    backend: &Backend,
    f: impl FnOnce() -> Result<T>,
) -> Result<(T, f64)> {
    let kernel = || backend.gpu_counters().map_or(0.0, |c| c.kernel_seconds);
    let before = kernel();
    let out = f()?;
    Ok((out, kernel() - before))
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

/// A bench table on stdout: each column a heading, a width, and whether
/// it reports the GPU. With no GPU measured the GPU columns are left out
/// (they would hold only `-`); every heading shown is explained once, at
/// the end of the run (`print_legend`).
pub struct Columns {
    cols: Vec<(&'static str, usize, bool)>,
    gpu: bool,
}

/// Headings shown so far, for the legend.
static SHOWN: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());

impl Columns {
    /// Columns `(heading, width, reports the GPU)`; the first is the
    /// workload's name, left-aligned.
    pub fn new(gpu: bool, cols: &[(&'static str, usize, bool)]) -> Columns {
        Columns {
            cols: cols.to_vec(),
            gpu,
        }
    }

    /// The columns most parts share: the workload's name and its size,
    /// then the GPU's and the CPU's seconds, the kernels' seconds, both
    /// rates (`rate`: "values" or "pos") and their ratio, then `extra`.
    pub fn timed(
        gpu: bool,
        name: (&'static str, usize),
        size: (&'static str, usize),
        rate: &str,
        extra: &[(&'static str, usize, bool)],
    ) -> Columns {
        let (gpu_rate, cpu_rate, width) = match rate {
            "values" => ("gpu values/s", "cpu values/s", 14),
            _ => ("gpu pos/s", "cpu pos/s", 12),
        };
        let mut cols = vec![
            (name.0, name.1, false),
            (size.0, size.1, false),
            ("gpu s", 9, true),
            ("kernel s", 9, true),
            ("cpu s", 9, false),
            (gpu_rate, width, true),
            (cpu_rate, width, false),
            ("gpu/cpu", 8, true),
        ];
        cols.extend_from_slice(extra);
        Columns { cols, gpu }
    }

    fn shown(&self) -> impl Iterator<Item = (usize, &(&'static str, usize, bool))> {
        self.cols
            .iter()
            .enumerate()
            .filter(|(_, (_, _, gpu))| self.gpu || !gpu)
    }

    /// A blank line and the headings (sw-… on a software adapter).
    pub fn print_header(&self) {
        if let Ok(mut shown) = SHOWN.lock() {
            for (_, &(head, _, _)) in self.shown() {
                if !shown.contains(&head) {
                    shown.push(head);
                }
            }
        }
        let heads: Vec<String> = self
            .shown()
            .map(|(_, &(head, _, gpu))| if gpu { gpu_head(head) } else { head.into() })
            .collect();
        grundy::frontend::outln!();
        grundy::frontend::outln!("{}", self.line(&heads));
    }

    /// One row: a cell per column, GPU cells included (left out here when
    /// no GPU was measured).
    pub fn print_row(&self, cells: &[String]) {
        let cells: Vec<String> = self.shown().map(|(i, _)| cells[i].clone()).collect();
        grundy::frontend::outln!("{}", self.line(&cells));
    }

    fn line(&self, cells: &[String]) -> String {
        let widths = self.shown().map(|(_, &(_, width, _))| width);
        let mut out = String::new();
        for (k, (cell, width)) in cells.iter().zip(widths).enumerate() {
            match k {
                0 => out += &format!("{cell:<width$}"),
                _ => out += &format!(" {cell:>width$}"),
            }
        }
        out
    }
}

/// What each heading of the bench's tables measures.
const LEGEND: &[(&str, &str)] = &[
    ("n", "heaps 0..=n computed"),
    ("positions", "positions in the table"),
    ("codes", "codes surveyed, each to the same n"),
    (
        "gpu s",
        "wall seconds of the run on the GPU, the table read back",
    ),
    (
        "kernel s",
        "seconds the GPU spent in kernels (timestamp queries)",
    ),
    (
        "cpu s",
        "wall seconds of the CPU twins of the same kernels, every core",
    ),
    ("gpu values/s", "heaps computed per second on the GPU"),
    ("cpu values/s", "heaps computed per second on the CPU"),
    ("gpu pos/s", "positions per second on the GPU"),
    ("cpu pos/s", "positions per second on the CPU"),
    ("gpu/cpu", "cpu s / gpu s: above 1 the GPU is faster"),
    ("rare s", "rare values (sparse space) on the CPU"),
    ("cpu brute s", "the blocked brute force on the CPU"),
    (
        "gpu brute s",
        "the brute force on the GPU (a survey: --algorithm naive)",
    ),
    ("rare/cpu bf", "cpu brute s / rare s: what rare values gain"),
    ("rare/gpu bf", "gpu brute s / rare s"),
    ("all s", "wall seconds on every thread"),
    ("values/s", "heaps per second on every thread"),
    ("1 thr s", "wall seconds on one thread"),
    ("speedup", "1 thr s / all s"),
    (
        "pass marks",
        "rare-pair marks made by the blocks' parallel pass",
    ),
    (
        "checked",
        "rare pairs the pass checked against candidates instead of marking (AVX-512)",
    ),
    ("pass pairs", "split pairs the pass's scans read"),
    (
        "ns/mark",
        "nanoseconds of the pass per mark, its pairs included (one thread)",
    ),
    ("pass %", "the pass's share of the one-thread run"),
    (
        "finish %",
        "the in-order finish's share of the one-thread run, its waits on the pass taken off",
    ),
    (
        "bound",
        "100 / finish %: the most any number of cores or a card can gain with this finish",
    ),
    (
        "redone %",
        "one thread, every block in stretches of 16 runs, in rounds: the heaps redone in order",
    ),
    (
        "in order %",
        "what stretches leave in order (their check, redone heaps, waits off) over the 1-thread run",
    ),
    (
        "stretch bound",
        "100 / in order %: the most any number of cores can gain with the finish in stretches",
    ),
    (
        "path ×",
        "16 runs a stretch in rounds: its heaps over its critical path (longest runs, redone heaps)",
    ),
    (
        "rounds bound",
        "1-thread run over what stays in order plus the rounds' path: what 16 cores can gain",
    ),
    (
        "threads:s",
        "wall seconds on 1, 2, 4, ... threads up to all",
    ),
    (
        "ahead",
        "all s over all threads with the next block's pass started while a block is finished",
    ),
    (
        "gpu 64thr s",
        "the GPU survey at 64 threads per code instead of the default",
    ),
    ("certified", "codes whose period was certified within n"),
    ("walked s", "the CPU walking every option (no split sets)"),
    ("sets/walk", "walked s / cpu s: what split sets gain"),
    (
        "baseline s",
        "a plain memoised recursion over vertex sets, one thread",
    ),
    (
        "core/base",
        "baseline s / (cpu s x threads): the gain per core",
    ),
    (
        "alg2 s",
        "Dailly's Algorithm 2 as described (outcomes, ordered map), one thread",
    ),
    ("core/alg2", "alg2 s / (cpu s x threads)"),
    ("memo s", "the memo solver (canonical pieces), one thread"),
    ("memo/base", "baseline s / memo s"),
    (
        "memo all s",
        "the memo solver on every thread, level by level",
    ),
    ("count", "graphs of the family run"),
    ("total s", "seconds for all of them"),
    ("under 10 s", "graphs done within 10 seconds"),
    ("slowest", "the slowest graph (backend, G)"),
    ("slowest s", "its seconds"),
];

/// Says what each heading shown in this run measures (`-`: not measured
/// for that row).
pub fn print_legend() {
    let Ok(shown) = SHOWN.lock() else {
        return;
    };
    let explained: Vec<&(&str, &str)> = LEGEND.iter().filter(|(h, _)| shown.contains(h)).collect();
    if explained.is_empty() {
        return;
    }
    grundy::frontend::outln!();
    grundy::frontend::outln!("Columns (- where a row does not measure it):");
    if SOFTWARE_GPU.load(std::sync::atomic::Ordering::Relaxed) {
        grundy::frontend::outln!(
            "  {:<13} a GPU column run on a software adapter (the CPU emulating a GPU)",
            "sw-…"
        );
    }
    for (head, meaning) in explained {
        grundy::frontend::outln!("  {head:<13} {meaning}");
    }
}

/// The smallest and largest of `ratios`, as `a–b×` (one figure when equal).
fn ratio_range(ratios: &[f64]) -> String {
    let lo = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = ratios.iter().copied().fold(0.0, f64::max);
    if (hi - lo).abs() < 0.005 {
        format!("{lo:.2}×")
    } else {
        format!("{lo:.2}–{hi:.2}×")
    }
}

/// One part's verdict: the GPU's speed against the CPU's (CPU seconds over
/// GPU seconds) on every workload it ran, or why it ran none; and the time
/// each other algorithm took against the CPU column's.
fn verdict(rows: &[&CsvRow], why_no_gpu: &str) -> String {
    let gpu: Vec<f64> = rows
        .iter()
        .filter_map(|r| Some(r.cpu_seconds? / r.gpu_seconds?))
        .collect();
    let mut said = if gpu.is_empty() {
        format!("GPU not timed ({why_no_gpu})")
    } else {
        let device = gpu_head("GPU");
        let faster = gpu.iter().filter(|&&r| r > 1.0).count();
        format!(
            "{device} at {} the CPU's speed, faster on {faster} of {} workloads",
            ratio_range(&gpu),
            gpu.len()
        )
    };
    for name in distinct(rows.iter().filter_map(|r| Some(r.baseline?.0))) {
        let against: Vec<f64> = rows
            .iter()
            .filter_map(|r| Some(r.baseline.filter(|b| b.0 == name)?.1 / r.cpu_seconds?))
            .collect();
        if !against.is_empty() {
            said += &format!("; {name}: {} the CPU column's time", ratio_range(&against));
        }
    }
    said
}

/// Each name once, in the order first met.
fn distinct<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for name in names {
        if !seen.contains(&name) {
            seen.push(name);
        }
    }
    seen
}

/// A verdict line per part, after the tables and their legend.
pub fn print_verdicts(rows: &[CsvRow], why_no_gpu: &str) {
    let parts = distinct(rows.iter().map(|r| r.part));
    if parts.is_empty() {
        return;
    }
    grundy::frontend::outln!("\nverdicts");
    for part in parts {
        let mine: Vec<&CsvRow> = rows.iter().filter(|r| r.part == part).collect();
        grundy::frontend::outln!("  {part:<8} {}", verdict(&mine, why_no_gpu));
    }
}
