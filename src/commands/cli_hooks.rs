//! The command line's run context: notices on stderr (`grundy: …`), a
//! progress bar (or log lines when stderr is a file), a stop on a signal.

use grundy::setting::Marked;
use std::sync::Mutex;

use indicatif::ProgressBar;

use super::output::{progress_bar, progress_counter};
use grundy::frontend::interrupt;
use grundy::hooks::RunHooks;

pub struct CliHooks {
    quiet: bool,
    bar: Mutex<ProgressBar>,
}

impl CliHooks {
    /// Notices unless `quiet`, and a bar (or a counter, when how many is
    /// not known) for each stretch the run begins.
    pub fn new(quiet: bool) -> CliHooks {
        CliHooks {
            quiet,
            bar: Mutex::new(ProgressBar::hidden()),
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, ProgressBar> {
        // A worker that panicked holding it left a bar, still good to draw.
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl RunHooks for CliHooks {
    fn notice(&self, message: Marked<'_>) {
        if !self.quiet {
            let said = message.worded(&crate::front::CliWords);
            self.bar().suspend(|| eprintln!("grundy: {said}"));
        }
    }

    fn begin(&self, units: u64, unit: &str) {
        *self.bar() = match units {
            0 => progress_counter(self.quiet, unit),
            _ => progress_bar(units, self.quiet, unit),
        };
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
