//! What every bench part shares: timing, GPU column headings, figures.

use std::time::Instant;

use crate::engine::Backend;
use crate::error::Result;

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
