//! The run context: what a long computation tells its caller (notices,
//! progress) and asks of it (whether to pause), in one trait instead of
//! three callbacks per signature.

use crate::setting::Marked;

/// What a run reports and asks while it works. Every method has a no-op
/// default, so a caller implements only what it listens to. `Sync`: the
/// engine's parallel passes report progress from their workers.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use grundy_core::hooks::RunHooks;
///
/// /// Stops the run once a million units are done.
/// struct UpToAMillion(AtomicU64);
///
/// impl RunHooks for UpToAMillion {
///     fn progress(&self, done: u64) {
///         self.0.store(done, Ordering::Relaxed);
///     }
///     fn stop(&self) -> bool {
///         self.0.load(Ordering::Relaxed) >= 1_000_000
///     }
/// }
/// ```
pub trait RunHooks: Sync {
    /// Something the user should know: a fallback taken, a period found,
    /// a table moved to a file. The CLI prints it on stderr, in its words
    /// (`message.worded`); `Display` words it as the Rust library does.
    fn notice(&self, _message: Marked<'_>) {}

    /// A stretch of `units` units of work begins (0: how many is not
    /// known), `unit` naming them ("heaps", "positions"); the `progress`
    /// calls that follow count towards it.
    fn begin(&self, _units: u64, _unit: &str) {}

    /// Units done so far, of the stretch begun last.
    fn progress(&self, _done: u64) {}

    /// The stretch begun last is over (done, paused or failed).
    fn end(&self) {}

    /// A checkpoint was just written; it now `holds` this ("heaps 0..=K").
    fn saved(&self, _holds: &str) {}

    /// Whether the run should pause at its next safe point (a Ctrl-C, a
    /// checkpoint due, a caller's deadline). A paused run keeps what it
    /// computed and can be extended again.
    fn stop(&self) -> bool {
        false
    }

    /// Whether the caller wants the run ended for good (a signal, Ctrl-C
    /// in Python), not only paused: an engine that cannot pause (it would
    /// start over) ends on this alone. By default, whatever `stop` says.
    fn cancelled(&self) -> bool {
        self.stop()
    }
}

/// Hooks that hear nothing and never stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl RunHooks for Silent {}

/// `hooks` with its `stop` widened by `also`: a driver's own reasons to
/// pause (a checkpoint due) next to its caller's.
pub struct StopAlso<'a, F> {
    pub hooks: &'a dyn RunHooks,
    pub also: F,
}

impl<F: Fn() -> bool + Sync> RunHooks for StopAlso<'_, F> {
    fn notice(&self, message: Marked<'_>) {
        self.hooks.notice(message);
    }
    fn begin(&self, units: u64, unit: &str) {
        self.hooks.begin(units, unit);
    }
    fn progress(&self, done: u64) {
        self.hooks.progress(done);
    }
    fn end(&self) {
        self.hooks.end();
    }
    fn saved(&self, holds: &str) {
        self.hooks.saved(holds);
    }
    fn stop(&self) -> bool {
        self.hooks.stop() || (self.also)()
    }
    /// The driver's own reasons (`also`) pause the run; only the caller
    /// cancels it.
    fn cancelled(&self) -> bool {
        self.hooks.cancelled()
    }
}

/// `hooks` that hear everything but never stop: for work a pause would
/// only make start over (the general engine starts from heap 0 each call).
pub struct NoStop<'a>(pub &'a dyn RunHooks);

impl RunHooks for NoStop<'_> {
    fn notice(&self, message: Marked<'_>) {
        self.0.notice(message);
    }
    fn begin(&self, units: u64, unit: &str) {
        self.0.begin(units, unit);
    }
    fn progress(&self, done: u64) {
        self.0.progress(done);
    }
    fn end(&self) {
        self.0.end();
    }
    fn saved(&self, holds: &str) {
        self.0.saved(holds);
    }
    /// Never paused, still cancelled.
    fn cancelled(&self) -> bool {
        self.0.cancelled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

    struct Heard {
        done: AtomicU64,
        stop: AtomicBool,
    }

    impl RunHooks for Heard {
        fn progress(&self, done: u64) {
            self.done.store(done, Relaxed);
        }
        fn stop(&self) -> bool {
            self.stop.load(Relaxed)
        }
    }

    #[test]
    fn stop_also_passes_progress_through_and_stops_for_either_reason() {
        let heard = Heard {
            done: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        };
        let due = AtomicBool::new(false);
        let hooks = StopAlso {
            hooks: &heard,
            also: || due.load(Relaxed),
        };
        hooks.progress(42);
        assert_eq!(heard.done.load(Relaxed), 42);
        assert!(!hooks.stop());
        due.store(true, Relaxed);
        assert!(hooks.stop());
        due.store(false, Relaxed);
        heard.stop.store(true, Relaxed);
        assert!(hooks.stop());
        assert!(!NoStop(&heard).stop(), "NoStop never stops");
        NoStop(&heard).progress(7);
        assert_eq!(heard.done.load(Relaxed), 7);
        assert!(!Silent.stop());
    }
}
