//! `arrows`, `cycles` and `hackenbush` as a user meets them.

use crate::common::{grundy, json, tmp};

#[test]
fn arrows_json_has_the_contract_fields() {
    // Theorem 12.1's consequence: odd legs, second player wins
    let v = json(&grundy(&["arrows", "--graph", "pode:3,3,5", "--json"]));
    assert_eq!(v["rule"], "arrows");
    assert_eq!(
        (v["vertices"].as_u64(), v["edges"].as_u64()),
        (Some(12), Some(11))
    );
    assert_eq!(
        (v["g"].as_u64(), v["outcome"].as_str()),
        (Some(0), Some("P"))
    );
    assert_eq!(v["solver"], "memo");
    assert!(v["states"].as_u64().unwrap() > 0 && v["seconds"].as_f64().unwrap() >= 0.0);
    // the dense solver agrees, and --state starts from a marked state:
    // T_2 (Proposition 5.4): the trimmed path 0-1-2-3 with 2>3 has G = 2
    let v = json(&grundy(&[
        "arrows",
        "--graph",
        "path:4",
        "--trimmed",
        "--state",
        "2>3",
        "--solver",
        "dense",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(
        (v["rule"].as_str(), v["g"].as_u64()),
        (Some("trimmed"), Some(2))
    );
    assert_eq!(
        (v["state"].as_str(), v["backend"].as_str()),
        (Some("2>3"), Some("cpu"))
    );
    // every state of the trimmed 3-edge path (brute force: 17 of the 27 markings)
    assert_eq!(v["states"], 17);
    // spiders past the graph specs' 64 vertices: odd legs, P (91 edges)
    let big = json(&grundy(&["arrows", "--graph", "pode:29,31,31", "--json"]));
    assert_eq!(
        (big["edges"].as_u64(), big["outcome"].as_str()),
        (Some(91), Some("P"))
    );
}

#[test]
fn trim_prints_the_trimming_and_plays_on_it() {
    let v = json(&grundy(&[
        "arrows",
        "--graph",
        "pode:2,3,4",
        "--trim",
        "--json",
    ]));
    assert_eq!(v["rule"], "trimmed");
    let trimming = &v["trimming"];
    assert_eq!(
        (trimming[0].as_u64(), trimming[1].as_array().unwrap().len()),
        (Some(7), 6)
    );
    let plain = json(&grundy(&["arrows", "--graph", "pode:2,3,4", "--json"]));
    assert_eq!(v["g"], plain["g"]);
}

#[test]
fn spider_tables_write_one_row_per_spider() {
    let path = tmp("spiders.csv");
    let v = json(&grundy(&[
        "arrows",
        "--spiders",
        "9",
        "--out",
        path.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["rows"], 165); // C(11, 3)
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("a,b,c,g\n1,1,1,0\n"), "{text}");
    // odd legs: P (Theorem 12.1 through trimming)
    for line in text.lines().skip(1) {
        let r: Vec<u32> = line.split(',').map(|x| x.parse().unwrap()).collect();
        if r[..3].iter().all(|l| l % 2 == 1) {
            assert_eq!(r[3], 0, "{line}");
        }
    }
    let four = tmp("spiders4.csv");
    let v = json(&grundy(&[
        "arrows",
        "--spiders",
        "4",
        "--legs",
        "4",
        "--trimmed",
        "--out",
        four.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["rows"], 35);
    let text = std::fs::read_to_string(&four).unwrap();
    assert!(text.starts_with("a,b,c,d,g\n"), "{text}");
}

#[test]
fn cycles_report_the_outcome_and_a_value_only_without_faces() {
    let v = json(&grundy(&[
        "cycles",
        "--graph",
        "cycle:3",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!((v["faces"].as_u64(), v["g"].is_null()), (Some(1), true));
    // on a triangle the first arrow can be answered only by one completing
    // the cell or blocked: the first player marks, the second is stuck or loses
    assert!(v["outcome"] == "N" || v["outcome"] == "P");
    let path = tmp("faces.txt");
    std::fs::write(&path, "0 1 2 3\n").unwrap();
    let with_file = json(&grundy(&[
        "cycles",
        "--graph",
        "cycle:4",
        "--faces",
        path.to_str().unwrap(),
        "--backend",
        "cpu",
        "--json",
    ]));
    let built_in = json(&grundy(&[
        "cycles",
        "--graph",
        "cycle:4",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(with_file["outcome"], built_in["outcome"]);
    // no faces: the Game of Arrows, with its value
    let tree = json(&grundy(&[
        "cycles",
        "--graph",
        "pode:2,2,2",
        "--backend",
        "cpu",
        "--json",
    ]));
    assert_eq!(
        (tree["faces"].as_u64(), tree["g"].as_u64()),
        (Some(0), Some(1))
    );
    // `play` on a tree too (the forest solver plays only the Game of Arrows)
    let played = json(&grundy(&["play", "cycles", "-g", "pode:2,2,2", "--json"]));
    assert_eq!(played["components"][0]["g"], 1, "{played}");
}

#[test]
fn hackenbush_values_a_rooted_graph() {
    let v = json(&grundy(&[
        "hackenbush",
        "--graph",
        "path:8",
        "--ground",
        "3",
        "--json",
    ]));
    // two stalks of 3 and 4 edges: 3 xor 4
    assert_eq!(
        (v["g"].as_u64(), v["outcome"].as_str()),
        (Some(7), Some("N"))
    );
    assert_eq!(v["edges"], 7);
}

#[test]
fn bad_edge_game_input_exits_2_naming_what_was_expected() {
    for (args, expected) in [
        (
            &["arrows", "--graph", "path:4", "--state", "0>1"][..],
            "sink or a source",
        ),
        (
            &["arrows", "--graph", "path:4", "--state", "0>2"][..],
            "not joined",
        ),
        (
            &["arrows", "--graph", "path:4", "--state", "1-2"][..],
            "u>v",
        ),
        (
            &["arrows", "--graph", "cycle:5", "--solver", "memo"][..],
            "forest",
        ),
        (
            &["arrows", "--graph", "grid:5x5", "--solver", "dense"][..],
            "20 edges",
        ),
        (&["arrows", "--spiders", "5", "--legs", "5"][..], "3 or 4"),
        (
            &["cycles", "--graph", "cycle:4", "--faces", "/nonexistent"][..],
            "cannot read",
        ),
        (
            &["hackenbush", "--graph", "path:4", "--ground", "x"][..],
            "--ground",
        ),
        (
            &["hackenbush", "--graph", "path:4", "--ground", "9"][..],
            "0..3",
        ),
    ] {
        let out = grundy(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let bad_face = tmp("bad-faces.txt");
    std::fs::write(&bad_face, "0 2 4\n").unwrap();
    let out = grundy(&[
        "cycles",
        "--graph",
        "cycle:5",
        "--faces",
        bad_face.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not joined"));
}
