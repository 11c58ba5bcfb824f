//! The command line as a front end of the library: the flag it names for
//! each setting the library's messages mark, and the output rules its
//! `--force` and `--mkdir` ask for, set once per process.

use std::sync::OnceLock;

use grundy::export::OutputRules;
use grundy::setting::{Setting, Words};

/// The command line's words: a setting is its flag (`--memory 4G`, `-n 9`).
pub struct CliWords;

impl Words for CliWords {
    fn setting(&self, setting: Setting, value: Option<&str>) -> String {
        let flag = flag(setting);
        match value {
            Some(value) => format!("{flag} {value}"),
            None => flag,
        }
    }
}

/// The flag that sets `setting`.
pub fn flag(setting: Setting) -> String {
    match setting {
        Setting::N => "-n".to_string(),
        other => format!("--{}", other.key().replace('_', "-")),
    }
}

static RULES: OnceLock<OutputRules> = OnceLock::new();

/// What `--force` and `--mkdir` allow this process's outputs (set before
/// any command runs).
pub fn set_output_rules(rules: OutputRules) {
    let _ = RULES.set(rules);
}

/// The output rules this process was started with (none given: neither).
pub fn output_rules() -> OutputRules {
    RULES.get().copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_become_flags() {
        let message = format!(
            "{}: expected {} or {}",
            Setting::MaxLegs.is(3),
            Setting::N.is(10),
            Setting::Mkdir.named()
        );
        let said = grundy::setting::word(&message, &CliWords);
        assert_eq!(said, "--max-legs 3: expected -n 10 or --mkdir");
    }
}
