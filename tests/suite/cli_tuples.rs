//! `rect` and `delete-nim` as a user meets them.

use crate::common::{grundy, json, tmp};

fn csv_rows(path: &std::path::Path) -> Vec<Vec<u32>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
        .collect()
}

#[test]
fn rect_writes_every_shape_once_and_summarises_in_json() {
    let path = tmp("rect.csv");
    let v = json(&grundy(&[
        "rect",
        "--max",
        "30",
        "--backend",
        "cpu",
        "--out",
        path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["game"], "rect");
    assert_eq!(v["dims"], 2);
    assert_eq!(v["min_diff"], 1);
    assert_eq!(v["positions"], 30 * 31 / 2);
    assert_eq!(v["levels"], 59);
    assert_eq!(v["backend"], "cpu");
    let header = std::fs::read_to_string(&path).unwrap();
    assert!(header.starts_with("a,b,g\n"), "{header}");
    let rows = csv_rows(&path);
    assert_eq!(rows.len(), 465);
    // lexicographic, a <= b; G(1, n) is Grundy's game: G(19) = 3, G(20) = 0
    assert_eq!(rows[0], vec![1, 1, 0]);
    assert!(
        rows.windows(2)
            .all(|w| (w[0][0], w[0][1]) < (w[1][0], w[1][1]))
    );
    assert!(rows.iter().all(|r| r[0] <= r[1]));
    assert!(rows.contains(&vec![2, 19, 3]) && rows.contains(&vec![1, 20, 0]));
    let p = rows.iter().filter(|r| r[2] == 0).count();
    assert_eq!(v["p_positions"], p);
    assert_eq!(v["max_value"], rows.iter().map(|r| r[2]).max().unwrap());

    // boxes: a,b,c,g
    let out = grundy(&[
        "rect",
        "--max",
        "6",
        "--dims",
        "3",
        "--out",
        "-",
        "--backend",
        "cpu",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("a,b,c,g\n1,1,1,0\n"), "{text}");
    assert_eq!(text.lines().count(), 1 + 8 * 7 * 6 / 6);
}

#[test]
fn delete_nim_rows_start_at_empty_heaps_for_delete_nim() {
    let path = tmp("delete.csv");
    let out = grundy(&[
        "delete-nim",
        "--rule",
        "delete",
        "--max",
        "12",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = csv_rows(&path);
    assert_eq!(rows.len(), 13 * 14 / 2);
    assert_eq!(rows[0], vec![0, 0, 0]);
    for r in rows {
        // Theorem 2.2
        assert_eq!(r[2], ((r[0] | r[1]) + 1).trailing_zeros(), "{r:?}");
    }
    // the summary on stdout (the table went to --out)
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("delete on 2 heaps up to 12"), "{text}");
    // both heaps even (Theorem 2.2): 7 even sizes, 7 * 8 / 2 pairs
    assert!(text.contains("P-positions 28"), "{text}");
}

#[test]
fn many_heap_rules_report_their_rule_heaps_and_k() {
    let path = tmp("k3.csv");
    let v = json(&grundy(&[
        "delete-nim",
        "--rule",
        "kdelete",
        "--heaps",
        "6",
        "--k",
        "3",
        "--max",
        "5",
        "--out",
        path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(
        (v["rule"].as_str(), v["heaps"].as_u64(), v["k"].as_u64()),
        (Some("kdelete"), Some(6), Some(3))
    );
    assert_eq!(v["positions"], 210); // C(10, 6)
    assert_eq!(v["split_sets"], true);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("h1,h2,h3,h4,h5,h6,g\n1,1,1,1,1,1,0\n"),
        "{text}"
    );
}

#[test]
fn bad_table_requests_exit_2_naming_what_was_expected() {
    for (args, expected) in [
        (
            &["delete-nim", "--rule", "vdn", "--heaps", "3", "--max", "5"][..],
            "two-heap",
        ),
        (
            &["delete-nim", "--rule", "half", "--heaps", "5", "--max", "5"][..],
            "even",
        ),
        (
            &[
                "delete-nim",
                "--rule",
                "kdelete",
                "--heaps",
                "6",
                "--max",
                "5",
            ][..],
            "--k",
        ),
        (
            &["delete-nim", "--rule", "abo", "--heaps", "12", "--max", "5"][..],
            "2 to 8",
        ),
        (
            &[
                "delete-nim",
                "--rule",
                "abo",
                "--heaps",
                "8",
                "--max",
                "100000",
            ][..],
            "positions",
        ),
        (
            &["delete-nim", "--rule", "vdn", "--max", "0"][..],
            "at least 1",
        ),
        (&["rect", "--max", "10", "--dims", "4"][..], "--dims 4"),
        (
            &["rect", "--max", "10", "--json", "--out", "-"][..],
            "stdout",
        ),
    ] {
        let out = grundy(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // an unknown rule: clap lists the rules
    let out = grundy(&["delete-nim", "--rule", "triple", "--max", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values"));
}
