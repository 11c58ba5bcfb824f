//! The library marks the settings its messages name; each front end words
//! them. These check the command line's words against its own flags, and
//! that a message reaches the user worded, not marked.

use std::process::Output;

use crate::common::grundy;
use grundy::frontend::setting::{ALL, Setting, word};
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
            "`every = 0`: expected a positive number of seconds, at most 31536000",
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
            grundy::Hunt::of(&dir, Duration::from_secs(400 * 24 * 3600))
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
            grundy::podes_of(
                &grundy::game::GraphCode::parse("0.137")
                    .unwrap()
                    .under(grundy::game::Convention::Misere),
                (3, 2),
                &grundy::Silent,
            )
            .unwrap_err(),
            "`convention = Convention::Misere` on podes: 0.137 may leave a piece in two",
            vec!["podes", "0.137", "--max-legs", "3", "--misere"],
            "--misere on podes: 0.137 may leave a piece in two",
        ),
        (
            grundy::SpiderTable::arrows(5, 3).unwrap_err(),
            "`legs = 5`: expected 3 or 4",
            vec!["arrows", "--spiders", "3", "--legs", "5"],
            "--legs 5: expected 3 or 4",
        ),
        (
            grundy::GraphBatch::graphs(
                grundy::graph_batch::BatchGame::Arrows { trimmed: false },
                "grids:0",
            )
            .err()
            .expect("no grid has 0 vertices"),
            "`source = grids:0`: ",
            vec!["arrows", "--graphs", "grids:0"],
            "--graphs grids:0: ",
        ),
    ];
    let settings = [
        Setting::CheckpointEvery,
        Setting::Budget,
        Setting::Digits,
        Setting::Misere,
        Setting::Legs,
        Setting::Graphs,
    ];
    for ((error, rust, args, cli), setting) in refusals.into_iter().zip(settings) {
        assert!(matches!(error, grundy::Error::Input(_)), "{error:?}");
        // The setting to change, as data.
        assert_eq!(error.settings()[0].0, setting, "{error}");
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

/// The identifiers a Rust caller writes: the names and parameters of the
/// library's public functions and methods, and its structs' public fields.
fn rust_names() -> std::collections::BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    for dir in ["crates/grundy/src", "crates/grundy-core/src/export"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                text += &std::fs::read_to_string(path).unwrap();
            }
        }
    }
    let mut names = std::collections::BTreeSet::new();
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    for (at, _) in text.match_indices("pub fn ") {
        let signature = &text[at..];
        let end = signature.find(['{', ';']).unwrap_or(signature.len());
        names.extend(words(&signature[..end]));
    }
    for line in text.lines() {
        if let Some(field) = line
            .trim()
            .strip_prefix("pub ")
            .and_then(|l| l.split_once(':'))
        {
            names.insert(field.0.to_string());
        }
    }
    names
}

/// Every setting the library may mark is worded for Rust as a name the
/// library has: a builder method, its parameter, or a field.
#[test]
fn every_setting_is_a_name_of_the_rust_library() {
    use grundy::setting::{RustWords, Words};
    let names = rust_names();
    for setting in ALL {
        let said = RustWords.setting(setting, None);
        let name = said.trim_matches('`');
        let name = name.split(" = ").next().unwrap();
        let last = name.rsplit("::").next().unwrap();
        assert!(
            names.contains(last),
            "{setting:?}: the library has no {name}"
        );
    }
    // The check sees what it checks.
    assert!(names.contains("heaps") && names.contains("create_folders"));
    assert!(!names.contains("mkdir"));
}
