//! The library marks the settings its messages name; each front end words
//! them. These check the command line's words against its own flags, and
//! that a message reaches the user worded, not marked.

use std::process::Output;

use crate::common::grundy;
use grundy::setting::{ALL, Setting, word};
use grundy_cli::front::{CliWords, flag};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every setting the library may mark is a flag this command line has.
#[test]
fn every_setting_is_a_flag_of_the_command_line() {
    use clap::CommandFactory;
    let command = grundy_cli::cli::Cli::command();
    let mut flags = std::collections::BTreeSet::new();
    let mut stack = vec![&command];
    while let Some(c) = stack.pop() {
        for arg in c.get_arguments() {
            if let Some(long) = arg.get_long() {
                flags.insert(format!("--{long}"));
            }
            if let Some(short) = arg.get_short() {
                flags.insert(format!("-{short}"));
            }
        }
        stack.extend(c.get_subcommands());
    }
    for setting in ALL {
        let flag = flag(setting);
        assert!(flags.contains(&flag), "{setting:?}: no {flag} flag");
    }
    let said = word(&Setting::Backend.is("cpu"), &CliWords);
    assert_eq!(said, "--backend cpu");
}

/// A refusal the engine words with marks reaches the terminal as flags,
/// and no mark's private characters are left in it.
#[test]
fn an_engine_refusal_names_the_flag() {
    let out = grundy(&["delete-nim", "--rule", "vdn", "--heaps", "3", "--max", "4"]);
    assert_eq!(out.status.code(), Some(2));
    let said = stderr(&out);
    assert!(
        said.contains(
            "--heaps 3: the vdn rule is a two-heap game; expected --heaps 2 (or --rule abo"
        ),
        "{said}"
    );
    assert!(
        !said.contains(['\u{E000}', '\u{E001}', '\u{E002}']),
        "{said:?}"
    );
}
