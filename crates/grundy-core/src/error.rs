//! The kinds of failure and the exit status each gets. A message marks the
//! settings it names (see `setting`); `Display` words them for Rust callers.

use std::fmt;

use crate::setting::{self, RustWords, Words};

#[derive(Debug)]
pub enum Error {
    /// Something the user typed or gave us is wrong: exit status 2.
    Input(String),
    /// The run failed while running: exit status 1.
    Run(String),
    /// The run would need more memory than it may take, and was refused
    /// before it started: exit status 2, as for bad input.
    WontFit(String),
    /// An allocation failed while the run was running: exit status 1.
    OutOfMemory(String),
    /// A signal (Ctrl-C, SIGTERM, SIGHUP) stopped the run after saving a
    /// checkpoint: exit status 128 + the signal's number.
    Interrupted { message: String, status: i32 },
    /// The caller's run hooks asked the run to stop; what was computed is
    /// kept (and saved, with a checkpoint): exit status 1.
    Stopped(String),
    /// A run keeping only a prefix and a window of its table reached a heap
    /// that needs a value it gave back; the heaps before are saved with a
    /// checkpoint, and the message names the sizes that would have held
    /// it: exit status 1.
    NotKept(String),
}

impl Error {
    /// The message as the library wrote it, settings marked (see `setting`).
    pub fn message(&self) -> &str {
        match self {
            Error::Input(m)
            | Error::Run(m)
            | Error::WontFit(m)
            | Error::OutOfMemory(m)
            | Error::Stopped(m)
            | Error::NotKept(m)
            | Error::Interrupted { message: m, .. } => m,
        }
    }

    /// The message with its settings worded by a front end.
    pub fn worded(&self, words: &dyn Words) -> String {
        setting::word(self.message(), words)
    }

    /// The settings the message names, in order, each with the value it
    /// gives (the setting's own, or the one expected): which to change, as
    /// data a caller can match.
    ///
    /// ```
    /// use grundy_core::setting::Setting;
    ///
    /// let e = grundy_core::error::Error::Input(format!("{}: too many", Setting::Heaps.is(3)));
    /// assert_eq!(e.settings(), [(Setting::Heaps, Some("3".to_string()))]);
    /// ```
    pub fn settings(&self) -> Vec<(setting::Setting, Option<String>)> {
        setting::marks(self.message())
    }

    /// The process's exit status for this failure (2 for bad input or a
    /// run that will not fit, 1 for a failure while running, 128 + the
    /// signal's number for a signal).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::WontFit(_) => 2,
            Error::Run(_) | Error::OutOfMemory(_) | Error::Stopped(_) | Error::NotKept(_) => 1,
            Error::Interrupted { status, .. } => *status,
        }
    }
}

/// The message in the Rust library's words.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(&RustWords))
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Run(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Error>;
