//! `--graphs`: many graphs, one row each. Generated families hold each
//! graph once; every row equals what another solver says of that graph
//! alone; files, stdin and geng's header are read; bad lines are named.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{grundy, json, tmp};
use grundy::game::graph_families::trees;
use grundy::game::{Graph, GraphCode};
use grundy::internals::engine::Backend;
use grundy::internals::engine::graph::dense::{DenseTuning, solve_dense};
use grundy::internals::engine::graph::memo::tree_code;

/// The CSV rows `args` writes to stdout, as field lists (header first).
fn rows(args: &[&str]) -> Vec<Vec<String>> {
    let out = grundy(&[args, &["--out", "-", "-q"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(csv_fields)
        .collect()
}

fn csv_fields(line: &str) -> Vec<String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    reader
        .records()
        .next()
        .unwrap()
        .unwrap()
        .iter()
        .map(String::from)
        .collect()
}

#[test]
fn generated_trees_are_pairwise_non_isomorphic() {
    for n in 1..=13 {
        let mut codes: Vec<u128> = trees(n)
            .unwrap()
            .iter()
            .map(|t| tree_code(t, t.all()))
            .collect();
        let count = codes.len();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), count, "trees on {n}");
    }
}

#[test]
fn batch_rows_equal_the_dense_table_of_each_graph() {
    for code_text in ["0.33", "0.03", "0.137"] {
        let code = GraphCode::parse(code_text).unwrap();
        for source in ["trees:9", "spiders:9", "grids:12"] {
            let rows = rows(&["graph", code_text, "--graphs", source]);
            assert_eq!(
                rows[0][..5],
                ["graph6", "vertices", "edges", "g", "outcome"]
            );
            for row in &rows[1..] {
                let g = Graph::parse(&row[0]).unwrap();
                let run = solve_dense(
                    &g,
                    &code,
                    &Backend::Cpu,
                    false,
                    &DenseTuning::default(),
                    &grundy::hooks::Silent,
                )
                .unwrap();
                assert_eq!(
                    row[3],
                    run.value.to_string(),
                    "{code_text} {source} {row:?}"
                );
                assert_eq!(row[4], if run.value == 0 { "P" } else { "N" });
                assert_eq!(row[1..3], [g.n().to_string(), g.edge_count().to_string()]);
            }
        }
    }
}

#[test]
fn paths_among_the_trees_follow_dailly_theorem_44() {
    // Dailly, Octal games on graphs, Theorem 44: G(P_m) = m mod 3 for 0.33.
    for n in 2..=14 {
        let rows = rows(&["graph", "0.33", "--graphs", &format!("trees:{n}")]);
        // The path is the one tree with no vertex of degree 3 or more.
        let is_path = |g: &Graph| g.adj.iter().all(|a| a.count_ones() <= 2);
        let paths: Vec<_> = rows[1..]
            .iter()
            .filter(|r| is_path(&Graph::parse(&r[0]).unwrap()))
            .collect();
        assert_eq!(paths.len(), 1, "trees on {n}");
        assert_eq!(paths[0][3], (n % 3).to_string(), "P_{n}");
    }
}

#[test]
fn files_stdin_and_geng_headers_give_the_same_rows_as_single_runs() {
    let lines = ">>graph6<<Ds_\nD~{\n\n# a comment\nEhEG\ncycle:5\nFhCGG\n";
    let file = tmp("graphs.g6");
    std::fs::write(&file, lines).unwrap();
    let from_file = rows(&[
        "graph",
        "0.03",
        "--graphs",
        file.to_str().unwrap(),
        "--moves",
    ]);
    assert_eq!(from_file.len(), 6);
    assert_eq!(from_file[0].last().unwrap(), "spec");
    for row in &from_file[1..] {
        let one = json(&grundy(&[
            "graph",
            "0.03",
            "--graph",
            row.last().unwrap(),
            "--moves",
            "--json",
            "--backend",
            "cpu",
        ]));
        assert_eq!(row[3], one["g"].to_string(), "{row:?}");
        assert_eq!(row[5], one["moves"].to_string(), "{row:?}");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "graph", "0.03", "--graphs", "-", "--moves", "--out", "-", "-q",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let from_stdin: Vec<Vec<String>> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(csv_fields)
        .collect();
    assert_eq!(from_stdin, from_file);
}

#[test]
fn arrows_and_cycles_batches_equal_single_runs() {
    let arrows = rows(&["arrows", "--graphs", "trees:8"]);
    assert_eq!(arrows.len(), 24);
    for row in &arrows[1..] {
        let one = json(&grundy(&[
            "arrows",
            "--graph",
            &row[0],
            "--json",
            "--backend",
            "cpu",
        ]));
        assert_eq!(row[3], one["g"].to_string(), "{row:?}");
    }
    let cycles = rows(&["cycles", "--graphs", "grids:9"]);
    assert_eq!(
        cycles[0],
        [
            "graph6", "vertices", "edges", "g", "outcome", "faces", "spec"
        ]
    );
    for row in &cycles[1..] {
        let one = json(&grundy(&[
            "cycles",
            "--graph",
            &row[6],
            "--json",
            "--backend",
            "cpu",
            "-q",
        ]));
        assert_eq!(row[4], one["outcome"].as_str().unwrap(), "{row:?}");
        assert_eq!(row[5], one["faces"].to_string(), "{row:?}");
    }
}

#[test]
fn bad_sources_are_refused_by_name() {
    let file = tmp("bad.g6");
    std::fs::write(&file, "Ds_\nX!\n").unwrap();
    let big = tmp("big.g6");
    std::fs::write(&big, "path:4\ngrid:5x5\n").unwrap();
    let empty = tmp("empty.g6");
    std::fs::write(&empty, "# nothing\n").unwrap();
    for (args, what) in [
        (
            vec!["graph", "0.33", "--graphs", file.to_str().unwrap()],
            "line 2",
        ),
        (
            vec!["graph", "0.33", "--graphs", empty.to_str().unwrap()],
            "no graphs found",
        ),
        (vec!["graph", "0.33", "--graphs", "trees:30"], "trees:30"),
        (vec!["graph", "0.33", "--graphs", "spiders:3"], "three legs"),
        (
            vec!["graph", "0.33", "--graphs", "/no/such/file"],
            "/no/such/file",
        ),
        (
            vec!["arrows", "--graphs", big.to_str().unwrap()],
            "grid:5x5",
        ),
    ] {
        let out = grundy(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(what), "{args:?}: {err}");
    }
}
