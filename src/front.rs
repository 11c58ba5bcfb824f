//! The command line as a front end of the library: the flag it names for
//! each setting the library's messages mark.

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
        // A graph's every position goes to the table's file.
        Setting::Rows => "--out".to_string(),
        other => format!("--{}", other.key().replace('_', "-")),
    }
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
