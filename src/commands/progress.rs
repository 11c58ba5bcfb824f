//! Progress in a log file: when stderr is not a terminal (a Slurm output
//! file, `nohup`, `2> log`), a line every `--log-every` seconds with what is
//! done of what, the rate, the time left, resident memory and the last
//! checkpoint. The terminal keeps its bar (`output::progress_bar`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use grundy::memory;

/// Milliseconds between log lines (0: none). Set once from `--log-every`.
static EVERY_MS: AtomicU64 = AtomicU64::new(60_000);
/// The last checkpoint written: when, and what it holds.
static LAST_CHECKPOINT: Mutex<Option<(Instant, String)>> = Mutex::new(None);

/// How often the log lines come (`--log-every`; 0 turns them off).
pub fn set_log_every(every: Duration) {
    EVERY_MS.store(every.as_millis() as u64, Ordering::SeqCst);
}

/// Notes a checkpoint just written, `holds` saying what it holds.
pub fn note_saved(holds: String) {
    if let Ok(mut last) = LAST_CHECKPOINT.lock() {
        *last = Some((Instant::now(), holds));
    }
}

/// Where the process's count of a unit started (when, and from what
/// position), and when the last line was written: a long run makes a new
/// bar for each piece between checkpoints, and its lines keep one rate and
/// one cadence across them.
struct LogState {
    unit: String,
    since: Instant,
    from: u64,
    last_line: Instant,
}

static STATE: Mutex<Option<LogState>> = Mutex::new(None);

/// Writes a log line about `bar` (counting `unit`) every `--log-every`
/// seconds until the bar is finished or dropped.
pub(crate) fn log_lines(bar: &ProgressBar, unit: &str) {
    let every = Duration::from_millis(EVERY_MS.load(Ordering::SeqCst));
    if every.is_zero() {
        return;
    }
    let weak = bar.downgrade();
    let unit = unit.to_string();
    let _ = std::thread::Builder::new()
        .name("progress log".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(100).min(every));
                let Some(bar) = weak.upgrade().filter(|b| !b.is_finished()) else {
                    return;
                };
                if let Some(line) = due_line(&bar, &unit, every) {
                    eprintln!("grundy: {line}");
                }
            }
        });
}

/// The line to write now about `bar`, if one is due.
fn due_line(bar: &ProgressBar, unit: &str, every: Duration) -> Option<String> {
    let done = bar.position();
    let mut state = STATE.lock().ok()?;
    let state = match state.as_mut() {
        Some(s) if s.unit == unit && done >= s.from => s,
        _ => state.insert(LogState {
            unit: unit.to_string(),
            since: Instant::now(),
            from: done,
            last_line: Instant::now(),
        }),
    };
    if state.last_line.elapsed() < every {
        return None;
    }
    state.last_line = Instant::now();
    let gained = done - state.from;
    Some(log_line(
        done,
        bar.length(),
        gained,
        state.since.elapsed(),
        unit,
    ))
}

/// `12345678 of 40000001 heaps (30.9%), 1234567 heaps/s, 22 s left, 312.0
/// MiB resident, last checkpoint 3 s ago (heaps 0..=12000000)`.
fn log_line(done: u64, total: Option<u64>, gained: u64, elapsed: Duration, unit: &str) -> String {
    let rate = gained as f64 / elapsed.as_secs_f64().max(1e-9);
    let mut line = match total {
        Some(total) => format!(
            "{done} of {total} {unit} ({:.1}%)",
            100.0 * done as f64 / total.max(1) as f64
        ),
        None => format!("{done} {unit}"),
    };
    if gained > 0 {
        line += &format!(", {rate:.0} {unit}/s");
    }
    if let Some(total) = total
        && rate > 0.0
    {
        let left = total.saturating_sub(done) as f64 / rate;
        line += &format!(", {} left", duration_text(left));
    }
    if let Some(resident) = memory::resident_bytes() {
        line += &format!(", {} resident", memory::human(resident));
    }
    if let Ok(last) = LAST_CHECKPOINT.lock()
        && let Some((at, holds)) = last.as_ref()
    {
        line += &format!(
            ", last checkpoint {} ago ({holds})",
            duration_text(at.elapsed().as_secs_f64())
        );
    }
    line
}

/// `42 s`, `3 min 20 s`, `5 h 02 min`.
fn duration_text(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_line_says_what_is_done_how_fast_and_how_long_is_left() {
        let line = log_line(300, Some(1000), 200, Duration::from_secs(2), "heaps");
        assert!(
            line.starts_with("300 of 1000 heaps (30.0%), 100 heaps/s, 7 s left"),
            "{line}"
        );
        let line = log_line(5, None, 5, Duration::from_secs(1), "pieces");
        assert!(line.starts_with("5 pieces, 5 pieces/s"), "{line}");
    }

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(duration_text(42.4), "42 s");
        assert_eq!(duration_text(200.0), "3 min 20 s");
        assert_eq!(duration_text(5.0 * 3600.0 + 125.0), "5 h 02 min");
    }
}
