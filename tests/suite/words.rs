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

/// Each refusal a builder checks, worded for Rust (`Display`) and by the
/// command line (its flag, on stderr, status 2); the Python module's words
/// are checked by its own tests.
#[test]
fn each_builder_refusal_in_rust_and_command_line_words() {
    use std::time::Duration;
    let dir = crate::common::tmp("refusals");
    std::fs::create_dir_all(&dir).unwrap();
    let ck = dir.join("r.ck");
    let refusals: Vec<(grundy::Error, &str, Vec<&str>, &str)> = vec![
        (
            grundy::Sequence::octal("0.6")
                .unwrap()
                .heaps(10)
                .checkpoint(&ck, Duration::ZERO)
                .run()
                .err()
                .expect("checkpoints every 0 s are refused"),
            "`checkpoint_every = 0`: expected a positive number of seconds, at most 31536000",
            vec![
                "octal",
                "0.6",
                "-n",
                "10",
                "--checkpoint",
                ck.to_str().unwrap(),
                "--checkpoint-every",
                "0",
            ],
            "--checkpoint-every 0: expected a positive number of seconds, at most 31536000",
        ),
        (
            grundy::Hunt::new(&dir, Duration::from_secs(400 * 24 * 3600))
                .run_code(&grundy::game::Code::parse("0.6").unwrap(), &grundy::Silent)
                .unwrap_err(),
            "`budget = 34560000`: expected a positive number of seconds, at most 31536000 (a year)",
            vec![
                "hunt",
                "0.6",
                "--dir",
                dir.to_str().unwrap(),
                "--budget",
                "34560000",
            ],
            "--budget 34560000: expected a positive number of seconds, at most 31536000 (a year)",
        ),
        (
            grundy::Survey::all("0", 9).unwrap_err(),
            "`digits = 9`: expected 1 to 6 (or `codes = FILE`)",
            vec!["survey", "--digits", "9", "-n", "10"],
            "--digits 9: expected 1 to 6 (or --codes FILE)",
        ),
        (
            grundy::SpiderTable::new(5, 3).unwrap_err(),
            "`legs = 5`: expected 3 or 4",
            vec!["arrows", "--spiders", "3", "--legs", "5"],
            "--legs 5: expected 3 or 4",
        ),
        (
            grundy::GraphBatch::new(
                grundy::graph_batch::BatchGame::Arrows { trimmed: false },
                "grids:0",
            )
            .err()
            .expect("no grid has 0 vertices"),
            "`graphs = grids:0`: ",
            vec!["arrows", "--graphs", "grids:0"],
            "--graphs grids:0: ",
        ),
    ];
    for (error, rust, args, cli) in refusals {
        assert!(matches!(error, grundy::Error::Input(_)), "{error:?}");
        assert!(error.to_string().starts_with(rust), "{error}");
        let out = grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = stderr(&out);
        assert!(
            said.starts_with(&format!("error: {cli}")),
            "{args:?}: {said}"
        );
    }
}
