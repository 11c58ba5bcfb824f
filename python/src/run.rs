//! Running a computation from Python: on a thread of its own with the GIL
//! released, while the calling thread wakes every 50 ms to let Python run
//! its signal handlers (Ctrl-C becomes `KeyboardInterrupt`, and the run is
//! asked to stop: a checkpoint is left whole) and to call the progress
//! callback; its notices go to the `grundy` logger (`logging`, at INFO).
//! Errors become the Python exceptions a caller expects.

use grundy::setting::Marked;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use grundy::setting::{RustWords, Setting, Words};
use grundy::{Error, RunHooks};
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// How often the calling thread looks at signals and progress.
const TICK: Duration = Duration::from_millis(50);

/// What the run tells the calling thread, and what it is told back.
#[derive(Default)]
struct Watch {
    done: AtomicU64,
    total: AtomicU64,
    stop: AtomicBool,
    notices: Mutex<Vec<String>>,
}

impl Watch {
    /// Hands the notices said so far to the `grundy` logger, at INFO.
    fn log_notices(&self, py: Python<'_>) -> PyResult<()> {
        let said: Vec<String> =
            std::mem::take(&mut *self.notices.lock().unwrap_or_else(|e| e.into_inner()));
        if said.is_empty() {
            return Ok(());
        }
        let logger = py
            .import("logging")?
            .call_method1("getLogger", ("grundy",))?;
        for notice in said {
            logger.call_method1("info", (notice,))?;
        }
        Ok(())
    }
}

impl RunHooks for Watch {
    fn notice(&self, message: Marked<'_>) {
        let mut said = self.notices.lock().unwrap_or_else(|e| e.into_inner());
        said.push(message.worded(&PyWords));
    }

    fn begin(&self, units: u64, _unit: &str) {
        self.total.store(units, Relaxed);
        self.done.store(0, Relaxed);
    }

    fn progress(&self, done: u64) {
        self.done.store(done, Relaxed);
    }

    fn stop(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

/// The Python module's words: a setting is its keyword argument
/// (`memory='4G'`, `n=9`); one the module does not take is named as the
/// library names it.
pub struct PyWords;

impl Words for PyWords {
    fn setting(&self, setting: Setting, value: Option<&str>) -> String {
        if setting == Setting::NoFill {
            return "fill=False".into();
        }
        if setting == Setting::Misere {
            return "misere=True".into();
        }
        let Some(key) = keyword(setting) else {
            return RustWords.setting(setting, value);
        };
        match value {
            Some(v) if v.parse::<f64>().is_ok() || v.starts_with('\'') => format!("{key}={v}"),
            Some(v) => format!("{key}='{v}'"),
            None => key.to_string(),
        }
    }
}

/// The keyword argument that sets `setting`, where the module has one.
fn keyword(setting: Setting) -> Option<&'static str> {
    match setting {
        Setting::MaxN => Some("until_periodic"),
        Setting::Force | Setting::Mkdir | Setting::Format | Setting::Ground => None,
        Setting::Moves | Setting::Out | Setting::Shard | Setting::Solver => None,
        Setting::Workgroup | Setting::NoFill => None,
        Setting::Codes | Setting::Graphs => None,
        Setting::Legs | Setting::Spiders | Setting::Rows => None,
        other => Some(other.key()),
    }
}

/// The Python exception for a failed run, its message in the module's words.
pub fn py_err(e: Error) -> PyErr {
    let said = e.worded(&PyWords);
    match e {
        Error::Input(_) => PyValueError::new_err(said),
        Error::WontFit(_) | Error::OutOfMemory(_) => PyMemoryError::new_err(said),
        Error::Stopped(_) | Error::Interrupted { .. } => PyKeyboardInterrupt::new_err(said),
        Error::Run(_) | Error::NotKept(_) => PyRuntimeError::new_err(said),
    }
}

/// Runs `work` with the GIL released; `progress(done, total)` is called
/// from this thread as the run goes (total 0: not known).
pub fn run<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&dyn RunHooks) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let watch = Watch::default();
    let progress = progress.map(|p| p.clone().unbind());
    let mut raised: Option<PyErr> = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel();
            let watch = &watch;
            scope.spawn(move || {
                // A full disk under a table kept in a file unwinds to here
                // (the module asked at import), and is raised as an error.
                let result = grundy::frontend::interrupt::catching_full_disk(|| work(watch))
                    .unwrap_or_else(|full| Err(grundy::Error::Run(full.to_string())));
                let _ = sender.send(result);
            });
            let mut shown = u64::MAX;
            loop {
                match receiver.recv_timeout(TICK) {
                    Ok(result) => break result,
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        break Err(Error::Run("the run's thread ended without a result".into()));
                    }
                }
                if raised.is_some() {
                    continue; // asked to stop: wait for the run to save and end
                }
                Python::attach(|py| {
                    let done = watch.done.load(Relaxed);
                    let call = match (&progress, done != shown) {
                        (Some(callback), true) => {
                            shown = done;
                            callback
                                .call1(py, (done, watch.total.load(Relaxed)))
                                .map(|_| ())
                        }
                        _ => Ok(()),
                    };
                    let logged = call.and_then(|()| watch.log_notices(py));
                    if let Err(e) = logged.and_then(|()| py.check_signals()) {
                        raised = Some(e);
                        watch.stop.store(true, Relaxed);
                    }
                });
            }
        })
    });
    watch.log_notices(py)?;
    if let Some(e) = raised {
        return Err(e);
    }
    let value = result.map_err(py_err)?;
    if let Some(callback) = &progress {
        let total = watch.total.load(Relaxed);
        callback.call1(py, (total.max(watch.done.load(Relaxed)), total))?;
    }
    Ok(value)
}
