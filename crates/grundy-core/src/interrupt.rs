//! Signals that end a run: Ctrl-C (SIGINT), SIGTERM (Slurm's time limit,
//! `scancel`, `kill`) and SIGHUP (a closed ssh session). A run that
//! checkpoints listens for them: the first asks it to stop at the next safe
//! point and save. Any other run, or a second signal, ends the process at
//! once — after removing every temporary `.partial` file, so nothing
//! half-written is left behind. Either way the process then ends by the
//! signal itself (a shell reports 128 + its number, and a loop calling
//! grundy stops as it does for any program the signal ends).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::setting::{self, RustWords, Setting, Words};

/// The first signal received (0: none yet).
static RECEIVED: AtomicI32 = AtomicI32::new(0);
/// Runs now listening (they stop and save on the first signal).
static LISTENERS: AtomicUsize = AtomicUsize::new(0);
/// Temporary files being written, removed when the process is ended.
static PARTIALS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Held while a record is appended to a file that is read back (a survey
/// checkpoint): the process is not ended halfway through one.
static APPENDING: Mutex<()> = Mutex::new(());
/// Said when the process is ended by a signal (what was kept, how to go on).
static EXIT_NOTE: Mutex<Option<String>> = Mutex::new(None);
/// How the lines this module prints itself, as the process ends, word the
/// settings they name: the front end's words (`set_words`), else Rust's.
static WORDS: OnceLock<&'static (dyn Words + Sync)> = OnceLock::new();
/// The advice after a full disk ends the process, worded ahead (nothing
/// is formatted on the way out).
static FULL_DISK_ADVICE: OnceLock<String> = OnceLock::new();

pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGTERM: i32 = 15;

/// Installs the handler (the binary's `main`, once). SIGHUP ignored when
/// the process started stays ignored: `nohup` ignores it so that a run
/// outlives its terminal. (SIGINT and SIGTERM are always heard: a stop
/// asked for on purpose is never lost to a disposition inherited from a
/// shell.)
#[cfg(unix)]
pub fn install() {
    read_failing_allocations();
    use signal_hook::iterator::Signals;
    let wanted = [SIGINT, SIGTERM, SIGHUP]
        .into_iter()
        .filter(|&s| s != SIGHUP || !ignored_at_start(s));
    let Ok(mut signals) = Signals::new(wanted) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                on_signal(signal);
            }
        });
}

/// Whether `signal` was ignored when the process started (before any
/// handler of ours).
#[cfg(unix)]
fn ignored_at_start(signal: i32) -> bool {
    // SAFETY: an all-zero sigaction is a valid value to be overwritten.
    let mut now: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: a null new action only reads the current one into `now`.
    let read = unsafe { libc::sigaction(signal, std::ptr::null(), &mut now) };
    read == 0 && now.sa_sigaction == libc::SIG_IGN
}

/// Installs the handler (the binary's `main`, once): Ctrl-C alone here.
#[cfg(not(unix))]
pub fn install() {
    read_failing_allocations();
    let _ = ctrlc::set_handler(|| on_signal(SIGINT));
}

fn on_signal(signal: i32) {
    let first = RECEIVED
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok();
    if LISTENERS.load(Ordering::SeqCst) > 0 && first {
        say(format_args!(
            "\ngrundy: {}: stopping at the next safe point to save (a second signal quits \
             without saving)",
            name(signal)
        ));
        return;
    }
    // No record is left half-appended: wait for the one being written.
    let _appending = APPENDING.lock();
    remove_partials();
    let note = EXIT_NOTE.lock().ok().and_then(|n| n.clone());
    say(format_args!(
        "\ngrundy: interrupted by {}{}",
        name(signal),
        note.map_or(String::new(), |n| format!("; {n}"))
    ));
    end_by_signal(128 + signal);
}

/// Ends the process with `status`: for 128 + one of the signals above, by
/// that signal itself, its default action restored (so a shell loop that
/// ran grundy stops on Ctrl-C too, as it does for any program Ctrl-C
/// ends, and the shell still reports 128 + its number); any other status
/// as an exit.
pub fn end_by_signal(status: i32) -> ! {
    #[cfg(unix)]
    if [SIGHUP, SIGINT, SIGTERM].contains(&(status - 128)) {
        // SAFETY: restoring a default action and raising the signal touch
        // no Rust state; the process ends in `raise`.
        unsafe {
            libc::signal(status - 128, libc::SIG_DFL);
            libc::raise(status - 128);
        }
    }
    std::process::exit(status)
}

/// One line on stderr, or nothing when stderr cannot take it (a terminal
/// gone with its ssh session, a log on a full disk): `eprintln!` would
/// panic there, and the thread that ends the process would die instead.
fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// `SIGTERM` for 15, as `kill -l` names them.
pub fn name(signal: i32) -> String {
    match signal {
        SIGHUP => "SIGHUP".into(),
        SIGINT => "SIGINT (Ctrl-C)".into(),
        SIGTERM => "SIGTERM".into(),
        other => format!("signal {other}"),
    }
}

/// Whether a signal has asked the run to stop.
pub fn requested() -> bool {
    RECEIVED.load(Ordering::SeqCst) != 0
}

/// Asks the listening run to stop, as Ctrl-C does (tests, and callers that
/// stop a run for their own reasons).
pub fn request() {
    let _ = RECEIVED.compare_exchange(0, SIGINT, Ordering::SeqCst, Ordering::SeqCst);
}

/// The exit status of a run a signal stopped: 128 + its number (130 for
/// Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_status() -> i32 {
    128 + match RECEIVED.load(Ordering::SeqCst) {
        0 => SIGINT,
        signal => signal,
    }
}

/// The signal that stopped the run, named (Ctrl-C when none did).
pub fn received_name() -> String {
    name(exit_status() - 128)
}

/// While held, the first signal asks this run to stop instead of ending it.
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

/// Runs `append` with the process kept from ending until it returns.
pub fn appending<T>(append: impl FnOnce() -> T) -> T {
    let _held = APPENDING.lock();
    append()
}

/// What to say after "interrupted by SIGTERM" if a signal ends the process
/// (`None`: nothing more); its settings are worded now, as `set_words` says.
pub fn set_exit_note(note: Option<String>) {
    let words = WORDS.get().copied().unwrap_or(&RustWords);
    let note = note.map(|note| setting::word(&note, words));
    if let Ok(mut held) = EXIT_NOTE.lock() {
        *held = note;
    }
}

/// How the lines printed as the process ends (a signal's note, a full
/// disk) name the settings they mention: the binary's `main` sets its own
/// words once, before any run.
pub fn set_words(words: &'static (dyn Words + Sync)) {
    if WORDS.set(words).is_ok() {
        let advice = format!(
            ". Free room there, or run with a larger {}.",
            Setting::Memory.named()
        );
        let _ = FULL_DISK_ADVICE.set(setting::word(&advice, words));
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

/// Removes every temporary file still being written (the process is
/// about to end without finishing them).
pub fn remove_partials() {
    if let Ok(partials) = PARTIALS.lock() {
        remove_files(&partials);
    }
}

/// `remove_partials` from a failed allocation, which may have failed in
/// this very thread while it held the list: it is skipped then, not
/// waited for.
fn try_remove_partials() {
    if let Ok(partials) = PARTIALS.try_lock() {
        remove_files(&partials);
    }
}

fn remove_files(paths: &[PathBuf]) {
    for path in paths {
        let _ = std::fs::remove_file(path);
    }
}

std::thread_local! {
    /// Set while this thread asks for memory it can do without (`fallible`).
    static FALLIBLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `reserve` (a `try_reserve`) so that a failed allocation comes back
/// as its error instead of ending the process.
pub fn fallible<T>(reserve: impl FnOnce() -> T) -> T {
    let before = FALLIBLE.with(|f| f.replace(true));
    let result = reserve();
    FALLIBLE.with(|f| f.set(before));
    result
}

/// Allocations larger than this fail as if memory were full (tests:
/// `GRUNDY_FAIL_ALLOCATIONS_OVER=BYTES`, so the paths for a full memory run
/// for real without filling one).
static FAIL_OVER: AtomicUsize = AtomicUsize::new(usize::MAX);

fn read_failing_allocations() {
    if let Some(bytes) = crate::fault::allocations_over() {
        FAIL_OVER.store(bytes, Ordering::SeqCst);
    }
}

/// The system allocator, except that an allocation that fails outside
/// `fallible` ends the process with one line on stderr and status 1 (its
/// partial files removed, the last checkpoint named) instead of an abort
/// and a backtrace. The binary's `main` installs it.
pub struct GuardedAlloc;

// SAFETY: every call is passed to the system allocator unchanged; only a
// null result (a failure) is acted on.
unsafe impl std::alloc::GlobalAlloc for GuardedAlloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.size() > FAIL_OVER.load(Ordering::Relaxed) {
            return checked(std::ptr::null_mut(), layout.size());
        }
        // SAFETY: the caller's contract is the system allocator's.
        checked(unsafe { std::alloc::System.alloc(layout) }, layout.size())
    }
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if layout.size() > FAIL_OVER.load(Ordering::Relaxed) {
            return checked(std::ptr::null_mut(), layout.size());
        }
        // SAFETY: as `alloc`.
        checked(
            unsafe { std::alloc::System.alloc_zeroed(layout) },
            layout.size(),
        )
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, size: usize) -> *mut u8 {
        if size > FAIL_OVER.load(Ordering::Relaxed) {
            // A failed realloc leaves the old block to its owner.
            return checked(std::ptr::null_mut(), size);
        }
        // SAFETY: as `alloc`; `ptr` came from this allocator, so from System.
        checked(
            unsafe { std::alloc::System.realloc(ptr, layout, size) },
            size,
        )
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from this allocator, so from System.
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
}

#[inline]
fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() && !FALLIBLE.with(|f| f.get()) {
        out_of_memory(size);
    }
    ptr
}

#[cold]
fn out_of_memory(size: usize) -> ! {
    static ENDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if ENDING.swap(true, Ordering::SeqCst) {
        // Another thread is saying why and cleaning up: it ends the process.
        wait_for_the_end();
    }
    // Small allocations may still succeed, but none is asked for here: the
    // line is written from the stack.
    try_remove_partials();
    let mut line = StackLine::default();
    let _ = write!(
        line,
        "error: out of memory: an allocation of {:.1} MiB failed",
        size as f64 / (1 << 20) as f64
    );
    line.add_exit_note();
    let _ = writeln!(
        line,
        ". Ask for a smaller run, or run where more memory is free."
    );
    line.send();
    end_now(1)
}

/// Whether a full disk unwinds to the library's caller (`OutOfDisk`)
/// instead of ending the process: the Python module asks for it, so that a
/// notebook gets an exception, not a dead kernel.
static FULL_DISK_UNWINDS: AtomicBool = AtomicBool::new(false);

/// Makes `out_of_disk` unwind with `OutOfDisk` from now on, for a caller
/// that runs its work inside `catching_full_disk`.
pub fn unwind_on_full_disk() {
    FULL_DISK_UNWINDS.store(true, Ordering::SeqCst);
}

/// What a full disk unwinds with, once `unwind_on_full_disk` was asked.
#[derive(Debug)]
pub struct OutOfDisk {
    pub folder: PathBuf,
}

/// What a full disk under a table's file is called, the same whether it
/// ends the command or is handed to a caller (written without allocating).
struct FullDisk<'a>(&'a Path);

impl std::fmt::Display for FullDisk<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the table's file in {} could not grow (is its disk full?)",
            self.0.display()
        )
    }
}

impl std::fmt::Display for OutOfDisk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}; free room there, or allow more memory",
            FullDisk(&self.folder)
        )
    }
}

/// Runs `work`; a full disk's unwind comes back as `Err(OutOfDisk)`, and
/// any other panic goes on.
pub fn catching_full_disk<T>(work: impl FnOnce() -> T) -> Result<T, OutOfDisk> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(done) => Ok(done),
        Err(payload) => match payload.downcast::<OutOfDisk>() {
            Ok(full) => Err(*full),
            Err(other) => std::panic::resume_unwind(other),
        },
    }
}

/// Ends the process when a table kept in a file in `folder` cannot grow
/// (its disk is full): one line on stderr, status 1, partial files removed.
/// Under `unwind_on_full_disk` it unwinds instead (no panic message: the
/// panic hook is not called), and the files' destructors clean up.
#[cold]
pub fn out_of_disk(folder: &Path) -> ! {
    if FULL_DISK_UNWINDS.load(Ordering::SeqCst) {
        std::panic::resume_unwind(Box::new(OutOfDisk {
            folder: folder.to_path_buf(),
        }));
    }
    remove_partials();
    let mut line = StackLine::default();
    let _ = write!(line, "error: {}", FullDisk(folder));
    line.add_exit_note();
    let advice = FULL_DISK_ADVICE
        .get()
        .map_or(". Free room there.", String::as_str);
    let _ = writeln!(line, "{advice}");
    line.send();
    end_now(1)
}

/// A line of at most 1 KiB built on the stack (what does not fit is cut)
/// and written to stderr in one call, whatever stderr is.
struct StackLine {
    bytes: [u8; 1024],
    len: usize,
}

impl Default for StackLine {
    fn default() -> StackLine {
        StackLine {
            bytes: [0; 1024],
            len: 0,
        }
    }
}

impl std::fmt::Write for StackLine {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let room = self.bytes.len() - self.len;
        let take = text.len().min(room);
        self.bytes[self.len..self.len + take].copy_from_slice(&text.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

impl StackLine {
    /// `; NOTE` when an exit note is set and its lock free (the thread that
    /// failed may hold it).
    fn add_exit_note(&mut self) {
        if let Ok(note) = EXIT_NOTE.try_lock()
            && let Some(note) = note.as_deref()
        {
            let _ = write!(self, "; {note}");
        }
    }

    fn send(&self) {
        #[cfg(unix)]
        // SAFETY: the bytes are this line's, valid for `len` bytes; a
        // failed write is ignored.
        unsafe {
            libc::write(2, self.bytes.as_ptr().cast(), self.len);
        }
        #[cfg(not(unix))]
        {
            use std::io::Write;
            let _ = std::io::stderr().write_all(&self.bytes[..self.len]);
        }
    }
}

/// Waits, allocating nothing, for another thread to end the process.
fn wait_for_the_end() -> ! {
    loop {
        #[cfg(unix)]
        // SAFETY: pause only sleeps until a signal arrives.
        unsafe {
            libc::pause();
        }
        #[cfg(not(unix))]
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// Ends the process without running anything more (no destructors, no
/// allocation).
fn end_now(status: i32) -> ! {
    #[cfg(unix)]
    // SAFETY: _exit ends the process; it touches no Rust state.
    unsafe {
        libc::_exit(status)
    }
    #[cfg(not(unix))]
    std::process::exit(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_unwinds_to_a_caller_who_asked() {
        unwind_on_full_disk();
        let full = catching_full_disk(|| out_of_disk(Path::new("/data/tables"))).unwrap_err();
        assert!(
            full.to_string().contains("in /data/tables could not grow"),
            "{full}"
        );
        // any other panic goes on to the caller's caller
        let other = std::panic::catch_unwind(|| {
            catching_full_disk::<()>(|| std::panic::resume_unwind(Box::new(7u8)))
        });
        assert_eq!(other.unwrap_err().downcast_ref::<u8>(), Some(&7));
    }
}
