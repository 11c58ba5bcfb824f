//! Ctrl-C. A run that checkpoints listens for it: the first Ctrl-C asks it
//! to stop at the next safe point and save. Any other run, or a second
//! Ctrl-C, ends the process at once — after removing every temporary
//! `.partial` file, so nothing half-written is left behind.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
/// Runs now listening (they stop and save on the first Ctrl-C).
static LISTENERS: AtomicUsize = AtomicUsize::new(0);
/// Temporary files being written, removed when the process is ended.
static PARTIALS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Exit status of a run ended by Ctrl-C (128 + SIGINT).
pub const EXIT_INTERRUPTED: i32 = 130;

/// Installs the handler (the binary's `main`, once).
pub fn install() {
    let _ = ctrlc::set_handler(on_interrupt);
}

fn on_interrupt() {
    let again = REQUESTED.swap(true, Ordering::SeqCst);
    if LISTENERS.load(Ordering::SeqCst) > 0 && !again {
        eprintln!(
            "\ngrundy: stopping at the next safe point to save (Ctrl-C again quits without saving)"
        );
        return;
    }
    remove_partials();
    eprintln!("\ngrundy: interrupted");
    std::process::exit(EXIT_INTERRUPTED);
}

/// Whether Ctrl-C has been pressed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}

/// Asks the listening run to stop, as Ctrl-C does (tests, and callers that
/// stop a run for their own reasons).
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// While held, the first Ctrl-C asks this run to stop instead of ending it.
pub struct Listening(());

impl Listening {
    pub fn start() -> Listening {
        LISTENERS.fetch_add(1, Ordering::SeqCst);
        Listening(())
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        LISTENERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Notes a temporary file, to be removed if the process is ended.
pub fn add_partial(path: &Path) {
    if let Ok(mut partials) = PARTIALS.lock() {
        partials.push(path.to_path_buf());
    }
}

/// The temporary file is gone (renamed into place, or removed).
pub fn drop_partial(path: &Path) {
    if let Ok(mut partials) = PARTIALS.lock() {
        partials.retain(|p| p != path);
    }
}

fn remove_partials() {
    if let Ok(partials) = PARTIALS.lock() {
        for path in partials.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}
