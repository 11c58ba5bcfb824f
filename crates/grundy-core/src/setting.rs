//! The settings a message may tell its reader to change, carried as data:
//! the library marks a setting (and the value it has or should have) in its
//! errors and notices, and each front end words the mark in its own terms:
//! the command line names its flag (`--memory 4G`), the Python module its
//! keyword argument (`memory='4G'`), the Rust library its parameter or
//! builder method (`` `memory = 4G` ``).

use std::fmt::Display;

/// The settings, each with its key: the enum, `ALL` and `Setting::key`
/// from one list.
macro_rules! settings {
    ($($name:ident => $key:literal,)*) => {
        /// A setting a caller can change.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Setting {
            $($name,)*
        }

        /// Every setting, for front ends that check they word each one.
        pub const ALL: [Setting; [$($key),*].len()] = [$(Setting::$name),*];

        impl Setting {
            /// The setting's name in snake case: Python's keyword and the
            /// Rust builder's method where they have it.
            pub fn key(self) -> &'static str {
                match self {
                    $(Setting::$name => $key,)*
                }
            }
        }
    };
}

settings! {
    Algorithm => "algorithm",
    Backend => "backend",
    Budget => "budget",
    Checkpoint => "checkpoint",
    CheckpointEvery => "checkpoint_every",
    Codes => "codes",
    Digits => "digits",
    Dims => "dims",
    Faces => "faces",
    Force => "force",
    Format => "format",
    Graphs => "graphs",
    Ground => "ground",
    Heaps => "heaps",
    K => "k",
    KeepPrefix => "keep_prefix",
    KeepWindow => "keep_window",
    Legs => "legs",
    Max => "max",
    MaxLegs => "max_legs",
    MaxLength => "max_length",
    MaxN => "max_n",
    Memory => "memory",
    Middle => "middle",
    MinDiff => "min_diff",
    Misere => "misere",
    Mkdir => "mkdir",
    Moves => "moves",
    N => "n",
    NoFill => "no_fill",
    Out => "out",
    Resume => "resume",
    Rows => "rows",
    Rule => "rule",
    Seconds => "seconds",
    Shard => "shard",
    Solver => "solver",
    Spiders => "spiders",
    State => "state",
    Workgroup => "workgroup",
}

/// Opens a mark; the key, an optional `VALUE` and its value, then `CLOSE`.
/// Characters of Unicode's private use area: no path or number holds them.
const OPEN: char = '\u{E000}';
const VALUE: char = '\u{E001}';
const CLOSE: char = '\u{E002}';

impl Setting {
    /// The setting itself, marked for a message ("pass FORCE").
    pub fn named(self) -> String {
        format!("{OPEN}{}{CLOSE}", self.key())
    }

    /// The setting with a value, marked for a message ("HEAPS 7").
    pub fn is(self, value: impl Display) -> String {
        format!("{OPEN}{}{VALUE}{value}{CLOSE}", self.key())
    }

    fn from_key(key: &str) -> Option<Setting> {
        ALL.into_iter().find(|s| s.key() == key)
    }
}

/// The longest interval a setting of seconds takes (a checkpoint's, a
/// hunt's budget): a year.
pub const MAX_SECONDS: u64 = 365 * 24 * 3600;

/// `value` seconds for `setting`: a positive number of seconds, at most a
/// year; the error names the setting and its value.
pub fn seconds(setting: Setting, value: f64) -> Result<std::time::Duration, String> {
    std::time::Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero() && d.as_secs_f64() <= MAX_SECONDS as f64)
        .ok_or_else(|| {
            // As typed where it can be: 300, 0.5, 1e30.
            let shown = match value.fract() == 0.0 && value.abs() < 1e15 {
                true => format!("{value}"),
                false => format!("{value:?}"),
            };
            format!(
                "{}: expected a positive number of seconds, at most {MAX_SECONDS} (a year)",
                setting.is(shown)
            )
        })
}

/// How a front end words a marked setting.
pub trait Words {
    /// `setting`, with `value` where the mark has one.
    fn setting(&self, setting: Setting, value: Option<&str>) -> String;
}

/// `message` with every mark worded by `words`; text that is not a whole
/// mark of a known setting is kept as it is.
pub fn word(message: &str, words: &dyn Words) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find(OPEN) {
        out.push_str(&rest[..open]);
        let after = &rest[open + OPEN.len_utf8()..];
        let Some(close) = after.find(CLOSE) else {
            out.push_str(&rest[open..]);
            return out;
        };
        let mark = &after[..close];
        let (key, value) = match mark.split_once(VALUE) {
            Some((key, value)) => (key, Some(value)),
            None => (mark, None),
        };
        match Setting::from_key(key) {
            Some(setting) => out.push_str(&words.setting(setting, value)),
            None => out.push_str(&rest[open..open + OPEN.len_utf8() + close + CLOSE.len_utf8()]),
        }
        rest = &after[close + CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// The settings `message` marks, in order, with their values.
pub fn marks(message: &str) -> Vec<(Setting, Option<String>)> {
    struct Collect(std::cell::RefCell<Vec<(Setting, Option<String>)>>);
    impl Words for Collect {
        fn setting(&self, setting: Setting, value: Option<&str>) -> String {
            self.0
                .borrow_mut()
                .push((setting, value.map(str::to_string)));
            String::new()
        }
    }
    let found = Collect(std::cell::RefCell::new(Vec::new()));
    word(message, &found);
    found.0.into_inner()
}

/// A message of the library, its settings marked: `Display` words them as
/// the Rust library names them; a front end calls `worded`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marked<'a>(pub &'a str);

impl Marked<'_> {
    /// The message in `words`.
    pub fn worded(self, words: &dyn Words) -> String {
        word(self.0, words)
    }
}

impl std::fmt::Display for Marked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.worded(&RustWords))
    }
}

/// The Rust library's words, and the default wherever a message is shown
/// as text (`Display` of an error): the parameter or builder method by its
/// name, with its value (`` `memory = 4G` ``) or without (`` `OutputRules::force` ``).
pub struct RustWords;

impl Words for RustWords {
    fn setting(&self, setting: Setting, value: Option<&str>) -> String {
        // Where the builder's method, its parameter or the field is named
        // otherwise than the setting (`tests/suite/words.rs` checks each
        // name is one the library has).
        let name = match setting {
            Setting::N => "heaps",
            Setting::MaxN => "until_periodic",
            Setting::NoFill => return "`fill = false`".into(),
            Setting::CheckpointEvery => "every",
            Setting::Force => "OutputRules::force",
            Setting::Mkdir => "OutputRules::create_folders",
            Setting::Out => "stream_to",
            Setting::Graphs => "source",
            Setting::KeepPrefix => "prefix",
            Setting::KeepWindow => "window",
            Setting::Spiders => "max",
            Setting::Misere => return "`convention = Convention::Misere`".into(),
            other => other.key(),
        };
        match value {
            Some(value) => format!("`{name} = {value}`"),
            None => format!("`{name}`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Shout;

    impl Words for Shout {
        fn setting(&self, setting: Setting, value: Option<&str>) -> String {
            let key = setting.key().to_uppercase();
            value.map_or(key.clone(), |v| format!("{key}={v}"))
        }
    }

    #[test]
    fn marks_are_worded_and_other_text_kept() {
        let message = format!(
            "{}: no; use {} or {}",
            Setting::Heaps.is(7),
            Setting::Backend.is("cpu"),
            Setting::Force.named()
        );
        assert_eq!(
            word(&message, &Shout),
            "HEAPS=7: no; use BACKEND=cpu or FORCE"
        );
        assert_eq!(
            word(&message, &RustWords),
            "`heaps = 7`: no; use `backend = cpu` or `OutputRules::force`"
        );
        assert_eq!(word("plain, é", &Shout), "plain, é");
        let unclosed = format!("cut {OPEN}heaps");
        assert_eq!(word(&unclosed, &Shout), unclosed);
        let unknown = format!("a {OPEN}nothing{CLOSE} b");
        assert_eq!(word(&unknown, &Shout), unknown);
    }

    #[test]
    fn every_setting_has_its_own_key() {
        let keys: std::collections::HashSet<_> = ALL.iter().map(|s| s.key()).collect();
        assert_eq!(keys.len(), ALL.len());
        assert!(ALL.iter().all(|&s| Setting::from_key(s.key()) == Some(s)));
    }
}
