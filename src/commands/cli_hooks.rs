//! The command line's run context: notices on stderr (`grundy: …`), a
//! progress bar (or log lines when stderr is a file), a stop on a signal.

use std::sync::Mutex;

use indicatif::ProgressBar;

use super::output::progress_bar;
use grundy::hooks::RunHooks;
use grundy::interrupt;

pub struct CliHooks {
    quiet: bool,
    /// What the bar counts ("heaps", "positions").
    unit: &'static str,
    bar: Mutex<ProgressBar>,
}

impl CliHooks {
    /// Notices unless `quiet`, and a bar of `unit`s for each stretch the
    /// run begins.
    pub fn new(quiet: bool, unit: &'static str) -> CliHooks {
        CliHooks::with_bar(quiet, unit, ProgressBar::hidden())
    }

    /// Notices unless `quiet`, and progress on `bar`, made by the command.
    pub fn with_bar(quiet: bool, unit: &'static str, bar: ProgressBar) -> CliHooks {
        CliHooks {
            quiet,
            unit,
            bar: Mutex::new(bar),
        }
    }

    /// Shows progress on `bar` (a command's own bar or counter) from now on.
    pub fn show(&self, bar: ProgressBar) {
        *self.bar() = bar;
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, ProgressBar> {
        // A worker that panicked holding it left a bar, still good to draw.
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl RunHooks for CliHooks {
    fn notice(&self, message: &str) {
        if !self.quiet {
            self.bar().suspend(|| eprintln!("grundy: {message}"));
        }
    }

    fn begin(&self, units: u64) {
        *self.bar() = progress_bar(units, self.quiet, self.unit);
    }

    fn progress(&self, done: u64) {
        self.bar().set_position(done);
    }

    fn end(&self) {
        self.bar().finish_and_clear();
    }

    /// For the log lines' "last checkpoint".
    fn saved(&self, holds: &str) {
        super::progress::note_saved(holds.to_string());
    }

    /// A signal, when the command listens for one (a run with a
    /// checkpoint); otherwise the signal ends the process as usual.
    fn stop(&self) -> bool {
        interrupt::requested()
    }
}
