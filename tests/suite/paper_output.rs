//! Output for papers: LaTeX tables hold the CSV's values, cell for cell;
//! the CGSuite list is CGSuite's own sequence; CGSuite's code forms read.

use std::collections::BTreeMap;

use crate::common::{grundy, grundy_stdout as stdout, tmp};

/// The rows of a tabular: its cells, trimmed, line by line (rules skipped).
fn tabular_rows(tex: &str) -> Vec<Vec<String>> {
    tex.lines()
        .filter(|l| l.ends_with("\\\\"))
        .map(|l| {
            l.trim_end_matches("\\\\")
                .split('&')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_latex_matrix_holds_every_value_of_the_csv() {
    let csv = stdout(&[
        "rect",
        "--max",
        "12",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
    ]);
    let tex = stdout(&[
        "rect",
        "--max",
        "12",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
        "--format",
        "latex",
    ]);
    assert!(
        tex.starts_with("% grundy: G of Grundy's game on rectangles up to 12\n\\begin{tabular}{r|")
    );
    let rows = tabular_rows(&tex);
    let columns: Vec<String> = rows[0][1..].to_vec();
    let mut cells = BTreeMap::new();
    for row in &rows[1..] {
        for (b, g) in columns.iter().zip(&row[1..]) {
            if !g.is_empty() {
                cells.insert((row[0].clone(), b.clone()), g.clone());
            }
        }
    }
    let mut count = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(
            cells
                .get(&(f[0].to_string(), f[1].to_string()))
                .map(String::as_str),
            Some(f[2]),
            "{line}"
        );
        count += 1;
    }
    assert_eq!(count, cells.len());
    // Tables of other shapes: one row per CSV row, names escaped.
    let tex = stdout(&[
        "survey",
        "--digits",
        "1",
        "-n",
        "200",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
        "--format",
        "latex",
    ]);
    let rows = tabular_rows(&tex);
    assert_eq!(rows[0][5], "max\\_value");
    let csv = stdout(&[
        "survey",
        "--digits",
        "1",
        "-n",
        "200",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
    ]);
    for (row, line) in rows[1..].iter().zip(csv.lines().skip(1)) {
        assert_eq!(row.join(","), line.replace('_', "\\_"));
    }
}

#[test]
fn a_sequence_in_latex_and_for_cgsuite_holds_the_tables_values() {
    let csv = stdout(&[
        "octal",
        "0.07",
        "-n",
        "123",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
    ]);
    let values: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().to_string())
        .collect();
    let tex = stdout(&[
        "octal",
        "0.07",
        "-n",
        "123",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
        "--format",
        "latex",
    ]);
    let rows = tabular_rows(&tex);
    assert_eq!(
        rows[0],
        ["$n$", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    );
    let mut from_tex = Vec::new();
    for (r, row) in rows[1..].iter().enumerate() {
        assert_eq!(row[0], (10 * r).to_string());
        from_tex.extend(row[1..].iter().filter(|c| !c.is_empty()).cloned());
    }
    assert_eq!(from_tex, values);
    // CGSuite's own test of Grundy's game (game.heap.GrundysGame, heaps 0..20).
    let list = stdout(&[
        "octal",
        "4!.0",
        "-n",
        "20",
        "--backend",
        "cpu",
        "-q",
        "--out",
        "-",
        "--format",
        "cgsuite",
    ]);
    let (comment, body) = list.split_once('\n').unwrap();
    assert!(
        comment.starts_with("// grundy") && comment.contains("TakeAndBreak(\"4!.0\")"),
        "{comment}"
    );
    let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(body, "[0,0,0,1,0,2,1,0,2,1,0,2,1,3,2,1,3,2,4,3,0]");
}

#[test]
fn cgsuite_code_forms_give_the_tables_of_their_plain_forms() {
    for (cgsuite, plain) in [
        ("0.&6;", "0.6"),
        ("0.*", "0.{0+}"),
        ("0.{2!,3!}", "0.{2,3}!"),
        ("4.&7;", "4.7"),
    ] {
        let table = |code: &str| {
            stdout(&[
                "octal",
                code,
                "-n",
                "300",
                "--backend",
                "cpu",
                "-q",
                "--out",
                "-",
                "--format",
                "digits",
            ])
        };
        assert_eq!(table(cgsuite), table(plain), "{cgsuite}");
    }
    let out = grundy(&["octal", "14.0", "-n", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("additive digits"));
}

#[test]
fn a_merged_survey_in_latex_is_the_single_runs() {
    let codes = tmp("codes.txt");
    std::fs::write(&codes, "0.07\n0.77\n0.137\n0.6\n").unwrap();
    let c = codes.to_str().unwrap();
    let whole = stdout(&[
        "survey",
        "--codes",
        c,
        "-n",
        "2000",
        "-q",
        "--out",
        "-",
        "--format",
        "latex",
        "--backend",
        "cpu",
    ]);
    let parts: Vec<String> = (0..2)
        .map(|k| {
            let part = tmp(&format!("part-{k}.csv"));
            let shard = format!("{k}/2");
            stdout(&[
                "survey",
                "--codes",
                c,
                "-n",
                "2000",
                "-q",
                "--shard",
                &shard,
                "--out",
                part.to_str().unwrap(),
                "--backend",
                "cpu",
            ]);
            part.to_str().unwrap().to_string()
        })
        .collect();
    let merged = stdout(&[
        "survey", "merge", "-", &parts[0], &parts[1], "--format", "latex",
    ]);
    assert_eq!(merged, whole);
    let out = grundy(&[
        "survey", "--codes", c, "-n", "20", "--shard", "0/2", "--out", &parts[0], "--format",
        "latex",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
