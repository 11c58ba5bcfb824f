//! What a newcomer meets in the first hour: outputs that behave alike in
//! every command, a path typo refused, a table numpy opens directly, the
//! exit statuses in --help.

use std::path::Path;
use std::process::Output;

use crate::common::{grundy, tmp};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every command that writes a table: with --out FILE the table goes there
/// and stdout gets a summary ending in `wrote FILE`; with -q, nothing.
#[test]
fn every_table_command_prints_a_summary_and_the_same_wrote_line() {
    let out = tmp("newcomer-table.csv");
    let commands: [&[&str]; 8] = [
        &["octal", "0.07", "-n", "500", "--backend", "cpu"],
        &["survey", "--digits", "1", "-n", "500", "--backend", "cpu"],
        &["podes", "0.33", "--max-legs", "5"],
        &["bipodes", "0.33", "--middle", "1", "--max", "3"],
        &["rect", "--max", "12", "--backend", "cpu"],
        &[
            "delete-nim",
            "--rule",
            "single",
            "--heaps",
            "2",
            "--max",
            "12",
            "--backend",
            "cpu",
        ],
        &["arrows", "--spiders", "6"],
        &["graph", "0.33", "--graph", "grid:2x3", "--backend", "cpu"],
    ];
    for args in commands {
        let _ = std::fs::remove_file(&out);
        let ran = grundy(&[args, &["--out", s(&out)]].concat());
        assert!(ran.status.success(), "{args:?}: {}", stderr(&ran));
        let text = stdout(&ran);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.last(),
            Some(&format!("wrote {}", s(&out)).as_str()),
            "{args:?}"
        );
        assert!(lines.len() <= 12, "{args:?} printed its table too:\n{text}");
        let table = std::fs::read_to_string(&out).unwrap();
        assert!(table.lines().count() > 1, "{args:?}");
        let quiet = grundy(&[args, &["--out", s(&out), "-q"]].concat());
        assert!(quiet.status.success(), "{args:?}");
        assert_eq!(
            (stdout(&quiet), stderr(&quiet)),
            (String::new(), String::new()),
            "{args:?}"
        );
    }
    // Without --out, a small table is printed; the header counts its edges.
    let one = stdout(&grundy(&["bipodes", "0.33", "--middle", "1", "--max", "1"]));
    assert!(one.contains("middle chain of 1 edge:"), "{one}");
}

#[test]
fn an_output_into_a_missing_folder_is_refused_unless_asked_for() {
    let dir = tmp("newcomer-missing");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("x.csv");
    for args in [
        vec!["octal", "0.07", "-n", "100", "--out", s(&path)],
        vec!["rect", "--max", "5", "--out", s(&path)],
        vec!["octal", "0.07", "-n", "100", "--checkpoint", s(&path)],
    ] {
        let out = grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let said = stderr(&out);
        assert!(
            said.contains(&format!("the folder {} does not exist", s(&dir))),
            "{said}"
        );
        assert!(said.contains("--mkdir"), "{said}");
        assert!(!dir.exists(), "{args:?} created the folder");
    }
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "100",
        "--out",
        s(&path),
        "--mkdir",
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(path.exists());
}

/// A `.npy` file as NumPy's format description lays it out: magic, version,
/// header length, a dict literal, the data.
fn read_npy(bytes: &[u8]) -> (String, Vec<u32>) {
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    assert_eq!(bytes[6], 1, "version 1.0");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + header_len) % 64, 0, "the data starts 64-byte aligned");
    let dict = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(
        dict.ends_with('\n') && dict.contains("'fortran_order': False"),
        "{dict}"
    );
    let field = |key: &str| {
        let at = dict.find(&format!("'{key}': ")).unwrap() + key.len() + 4;
        dict[at..]
            .split([',', '}'])
            .next()
            .unwrap()
            .trim()
            .to_string()
    };
    let descr = field("descr").trim_matches('\'').to_string();
    let shape: usize = field("shape").trim_start_matches('(').parse().unwrap();
    let data = &bytes[10 + header_len..];
    let values: Vec<u32> = match descr.as_str() {
        "|u1" | "<u1" => data.iter().map(|&b| b as u32).collect(),
        "<u2" => data
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32)
            .collect(),
        other => panic!("dtype {other}"),
    };
    assert_eq!(values.len(), shape);
    (descr, values)
}

#[test]
fn npy_tables_read_back_as_the_csv_says() {
    for (code, n, dtype) in [
        ("4!.0", "20000", "<u1"),
        ("0.77777777777777777777", "3000", "<u2"),
    ] {
        let (npy, csv) = (tmp("newcomer.npy"), tmp("newcomer.csv"));
        let run = |format: &str, path: &Path| {
            let out = grundy(&[
                "octal",
                code,
                "-n",
                n,
                "--format",
                format,
                "--out",
                s(path),
                "-q",
            ]);
            assert!(out.status.success(), "{}", stderr(&out));
        };
        run("npy", &npy);
        run("csv", &csv);
        let (descr, values) = read_npy(&std::fs::read(&npy).unwrap());
        assert_eq!(descr, dtype, "{code}");
        let expected: Vec<u32> = std::fs::read_to_string(&csv)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(values, expected, "{code}");
    }
}

#[test]
fn help_names_every_exit_status() {
    let help = stdout(&grundy(&["--help"]));
    for status in ["0 done", "2 bad input", "1 failure", "130", "143", "129"] {
        assert!(help.contains(status), "{status}: {help}");
    }
}
