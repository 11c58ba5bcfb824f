//! `--misere` on the whole-position families as a user meets it: the CSV
//! columns and the JSON field that say the convention, the values of small
//! cases worked by hand, and the refusals (exit status 2, naming the flags).

use crate::common::{grundy, grundy_stdout as stdout, json};

fn refused(args: &[&str]) -> String {
    let out = grundy(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn delete_nim_under_misere_play_names_its_columns() {
    let csv = stdout(&[
        "delete-nim",
        "--rule",
        "vdn",
        "--max",
        "3",
        "--misere",
        "--out",
        "-",
    ]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "h1,h2,g_misere,outcome_misere");
    // (1,1) has no move: misère value 1; (1,2) and (2,2) move only to it
    assert_eq!(&lines[1..4], ["1,1,1,N", "1,2,0,P", "1,3,1,N"]);
    // (2,3) moves to (1,2) and (1,1)
    assert!(lines.contains(&"2,3,2,N"), "{csv}");
    assert!(lines.contains(&"2,2,0,P"), "{csv}");
    let v = json(&grundy(&[
        "delete-nim",
        "--rule",
        "vdn",
        "--max",
        "3",
        "--misere",
        "--json",
    ]));
    assert_eq!(v["convention"], "misere");
    let normal = json(&grundy(&[
        "delete-nim",
        "--rule",
        "vdn",
        "--max",
        "3",
        "--json",
    ]));
    assert_eq!(normal["convention"], "normal");
}

#[test]
fn graphs_under_misere_play() {
    // 0.33 on a chain is subtraction {1, 2}: misère values 1 0 2 1 0 …
    for (n, g) in [(1, 0), (2, 2), (3, 1), (4, 0), (5, 2)] {
        let v = json(&grundy(&[
            "graph",
            "0.33",
            "--graph",
            &format!("path:{n}"),
            "--misere",
            "--json",
        ]));
        assert_eq!(v["g"], g, "P{n}");
        assert_eq!(v["convention"], "misere");
    }
    // a forest is a sum: auto leaves the memo for the dense table
    let v = json(&grundy(&[
        "graph",
        "0.33",
        "--graph",
        "tree:0,0,1",
        "--misere",
        "--json",
    ]));
    assert_eq!(
        v["solver"], "memo",
        "a connected tree under 0.33 stays on the memo"
    );
    let v = json(&grundy(&[
        "graph", "0.137", "--graph", "path:7", "--misere", "--json",
    ]));
    assert_eq!(v["solver"], "dense");
    let said = refused(&[
        "graph", "0.137", "--graph", "path:7", "--misere", "--solver", "memo",
    ]);
    assert!(said.contains("--misere with --solver memo"), "{said}");
    assert!(said.contains("--solver dense"), "{said}");
    let rows = stdout(&[
        "graph", "0.33", "--graph", "path:3", "--misere", "--solver", "dense", "--out", "-",
    ]);
    assert_eq!(rows.lines().next(), Some("mask,size,g_misere"));
    // the empty graph has no move: misère value 1
    assert_eq!(rows.lines().nth(1), Some("0,0,1"));
}

#[test]
fn podes_and_bipodes_under_misere_play() {
    let v = json(&grundy(&[
        "podes",
        "0.33",
        "--max-legs",
        "3",
        "--misere",
        "--json",
    ]));
    assert_eq!(v["convention"], "misere");
    let csv = stdout(&["podes", "0.33", "--max-legs", "2", "--misere", "--out", "-"]);
    assert_eq!(csv.lines().next(), Some("legs,long_legs,g_misere"));
    // the 0-pode is one vertex: its one move empties it, so misère value 0
    assert_eq!(csv.lines().nth(1), Some("0,0,0"));
    let said = refused(&["podes", "0.137", "--max-legs", "3", "--misere"]);
    assert!(
        said.contains("--misere on podes: 0.137 may leave a piece in two"),
        "{said}"
    );
    let v = json(&grundy(&[
        "bipodes", "0.33", "--max", "1", "--misere", "--json",
    ]));
    assert_eq!(v["convention"], "misere");
}

#[test]
fn edge_games_under_misere_play() {
    // the trimmed game on a path of n edges: R_n alternates under normal
    // play; under misère play one edge (2 vertices) is taken and lost
    let v = json(&grundy(&[
        "arrows",
        "--graph",
        "path:2",
        "--trimmed",
        "--misere",
        "--json",
    ]));
    assert_eq!(
        (v["g"].as_u64(), v["convention"].as_str()),
        (Some(0), Some("misere"))
    );
    assert_eq!(v["solver"], "dense");
    let said = refused(&["arrows", "--spiders", "4", "--misere"]);
    assert!(said.contains("--misere"), "{said}");
    // a stalk of two edges is a misère nim-heap of 2
    let v = json(&grundy(&[
        "hackenbush",
        "--graph",
        "path:3",
        "--ground",
        "0",
        "--misere",
        "--json",
    ]));
    assert_eq!(
        (v["g"].as_u64(), v["convention"].as_str()),
        (Some(2), Some("misere"))
    );
}
