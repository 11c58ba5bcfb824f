//! `graph`, `podes` and `bipodes` as a user meets them.

use crate::common::{grundy, json, tmp};

#[test]
fn graph_json_has_the_contract_fields() {
    let v = json(&grundy(&[
        "graph",
        "0.03",
        "--graph",
        "grid:3x5",
        "--moves",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(v["code"], "0.03");
    assert_eq!(v["graph"], "grid:3x5");
    assert_eq!(v["vertices"], 15);
    assert_eq!(v["edges"], 22);
    // Corollary 42: 3x5 is an N-position; Table 2: 7 moves.
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["g"], 1);
    assert_eq!(v["moves"], 7);
    assert_eq!(v["positions"], 1 << 15);
    assert_eq!(v["solver"], "dense");
    assert_eq!(v["backend"], "cpu");
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);

    // The reachable solver gives the same moves (and goes past 34 vertices).
    let v = json(&grundy(&[
        "graph", "0.03", "--graph", "grid:3x5", "--moves", "--solver", "reach", "--json",
    ]));
    assert_eq!((v["g"].as_u64(), v["moves"].as_u64()), (Some(1), Some(7)));
    assert_eq!(v["solver"], "reach");

    // A tree goes to the memo solver; Pod(1,2,2) is P for 0.33 (Theorem 53).
    let v = json(&grundy(&[
        "graph",
        "0.33",
        "--graph",
        "pode:1,2,2",
        "--json",
    ]));
    assert_eq!(v["solver"], "memo");
    assert_eq!(v["outcome"], "P");
}

#[test]
fn the_level_memo_writes_each_piece_once_with_the_dense_value() {
    // 0.33 on a grid: every piece listed up front, one per symmetry class
    let table = |solver: &str| {
        let path = tmp(&format!("g3x4-{solver}.csv"));
        let out = grundy(&[
            "graph",
            "0.33",
            "--graph",
            "grid:3x4",
            "--solver",
            solver,
            "--backend",
            "cpu",
            "--json",
            "--out",
            path.to_str().unwrap(),
        ]);
        let v = json(&out);
        let rows: Vec<Vec<u64>> = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect())
            .collect();
        (v, rows, String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (dense, subsets, _) = table("dense");
    let (memo, pieces, stderr) = table("memo");
    assert!(
        stderr.contains("pieces of grid:3x4 takes about"),
        "{stderr}"
    );
    assert_eq!(memo["g"], dense["g"]);
    assert_eq!(memo["positions"].as_u64(), Some(pieces.len() as u64));
    let mut masks: Vec<u64> = pieces.iter().map(|r| r[0]).collect();
    masks.sort();
    masks.dedup();
    assert_eq!(masks.len(), pieces.len());
    for row in &pieces {
        assert_eq!(row[1], row[0].count_ones() as u64);
        assert_eq!(row[2], subsets[row[0] as usize][2], "piece {:#x}", row[0]);
    }
    // the 3x4 grid's pieces: 1 cell, 2 dominoes... none twice under symmetry
    assert_eq!(pieces.iter().filter(|r| r[1] == 1).count(), 1);
    assert_eq!(pieces.iter().filter(|r| r[1] == 2).count(), 1);
    assert_eq!(pieces.iter().filter(|r| r[1] == 3).count(), 2);
    assert_eq!(pieces.iter().filter(|r| r[1] == 4).count(), 5);
}

#[test]
fn graph_out_writes_one_row_per_position() {
    let path = tmp("p4.csv");
    let out = grundy(&[
        "graph",
        "0.33",
        "--graph",
        "path:4",
        "--solver",
        "dense",
        "--backend",
        "cpu",
        "--moves",
        "--out",
        path.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "mask,size,g,moves");
    assert_eq!(rows.len(), 1 + 16);
    // mask 15 is the whole chain P4: G = 4 mod 3 = 1, and the winner plays to empty it.
    assert_eq!(rows[16], "15,4,1,3");
    // mask 5 = vertices 0 and 2: two single vertices, 1 xor 1.
    assert_eq!(rows[6], "5,2,0,2");
}

#[test]
fn bad_graph_input_exits_2_naming_the_part() {
    for (args, expected) in [
        (
            vec!["graph", "0.33", "--graph", "grid:3y4"],
            "expected grid:RxC",
        ),
        (
            vec!["graph", "0.33", "--graph", "pode:1,x"],
            "not a whole number",
        ),
        (vec!["graph", "0.8", "--graph", "path:3"], "octal digit"),
        (
            vec!["graph", "4.07", "--graph", "path:3"],
            "before the point",
        ),
        (
            vec!["graph", "0.33", "--graph", "edges:/nonexistent/file"],
            "cannot read",
        ),
        (
            vec!["graph", "0.33", "--graph", "grid:6x7", "--solver", "dense"],
            "stops at 34",
        ),
        (
            vec![
                "graph", "0.33", "--graph", "path:5", "--solver", "memo", "--moves",
            ],
            "dense solver",
        ),
        (vec!["bipodes", "0.33", "--max", "11"], "at most 64"),
        (vec!["podes", "0.33", "--max-length", "0"], "at least 1"),
    ] {
        let out = grundy(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn edge_lists_and_graph6_name_the_same_graph() {
    let path = tmp("c5.txt");
    std::fs::write(&path, "# a 5-cycle\n0 1\n1 2\n2 3\n3 4\n4 0\n").unwrap();
    let spec = format!("edges:{}", path.display());
    let a = json(&grundy(&[
        "graph",
        "0.137",
        "--graph",
        &spec,
        "--backend",
        "cpu",
        "--json",
    ]));
    let b = json(&grundy(&[
        "graph",
        "0.137",
        "--graph",
        "cycle:5",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(a["graph6"], b["graph6"]);
    assert_eq!(a["g"], b["g"]);
    let g6 = a["graph6"].as_str().unwrap().to_string();
    let c = json(&grundy(&[
        "graph",
        "0.137",
        "--graph",
        &g6,
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(c["g"], a["g"]);
}

#[test]
fn pode_and_bipode_tables_have_their_headers() {
    let path = tmp("podes.csv");
    let out = grundy(&[
        "podes",
        "0.33",
        "--max-legs",
        "6",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("legs,long_legs,g\n0,0,1\n1,0,2\n1,1,0\n"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1 + (1..=7).sum::<usize>());

    let out = grundy(&[
        "podes",
        "0.33",
        "--max-legs",
        "2",
        "--max-length",
        "3",
        "--out",
        "-",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("legs,len1,len2,len3,g\n0,0,0,0,1\n1,1,0,0,2\n"),
        "{text}"
    );

    let path = tmp("bipodes.csv");
    let v = json(&grundy(&[
        "bipodes",
        "0.33",
        "--middle",
        "1",
        "--max",
        "2",
        "--json",
        "--out",
        path.to_str().unwrap(),
    ]));
    assert_eq!(v["rows"], 81);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("a1,a2,b1,b2,g\n"));
    // Lemma 56: Bipod(1,1;1,1;1) is a P-position.
    assert!(text.lines().any(|l| l == "2,0,2,0,0"), "{text}");
}

/// A grid run that will take long says so before it starts: the memo's
/// pieces and time from the measured model, and that Ctrl-C stops it.
#[test]
fn a_long_grid_run_says_what_it_will_cost_first() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "graph",
            "0.33",
            "--graph",
            "grid:4x8",
            "--solver",
            "memo",
            "--backend",
            "cpu",
        ])
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        first.starts_with(
            "grundy: grid:4x8 (32 vertices): the memo solver will value about 2.6e7 pieces, about 56 s"
        ),
        "{first}"
    );
    assert!(first.contains("Ctrl-C stops it"), "{first}");
    // a grid of seconds gives no estimate (only the memo's memory)
    let quick = grundy(&["graph", "0.33", "--graph", "grid:4x5", "--solver", "memo"]);
    let said = String::from_utf8_lossy(&quick.stderr);
    assert!(quick.status.success(), "{said}");
    assert!(!said.contains("will value"), "{said}");
}
