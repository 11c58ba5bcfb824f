//! `grundy hunt`: the published unsolved table's four filled rows, budgets
//! that continue where a former hunt stopped, a hunt killed mid-code and
//! resumed, shards that cover the list once, damaged rows refused.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{grundy, json, tmp};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn hunt(dir: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["hunt", "--dir", s(dir), "--json", "-q", "--backend", "cpu"];
    all.extend_from_slice(args);
    let out = grundy(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

/// The rows the published table of unsolved octal games fills (T. Czajka's
/// octal-games tables): code, N, largest value's first heap, largest
/// value, rare mask, rare heaps, last rare heap.
const PUBLISHED: [(&str, u64, u64, u64, &str, u64, u64); 4] = [
    ("4!.0", 1 << 21, 763_622, 231, "0xfe", 1274, 82_860),
    ("0.6", 1 << 21, 1_274_955, 319, "0x1ee", 1584, 20_627),
    ("0.04", 1 << 17, 109_363, 1024, "0x7b8", 18_860, 131_003),
    ("0.06", 1 << 17, 127_083, 1045, "0x5a0", 52_923, 131_070),
];

#[test]
fn the_published_rows_at_their_published_n() {
    let dir = tmp("hunt-published");
    let _ = std::fs::remove_dir_all(&dir);
    for (code, n, first_max_at, max_value, mask, rare, last) in PUBLISHED {
        let n_text = n.to_string();
        let v = hunt(
            &dir,
            &[
                code, "--budget", "600", "--start", &n_text, "--max-n", &n_text,
            ],
        );
        let row = &v["rows"][0];
        assert_eq!(
            (row["code"].as_str(), row["n"].as_u64()),
            (Some(code), Some(n))
        );
        assert_eq!(row["end"], "max-n", "{code}");
        assert_eq!(row["first_max_at"], first_max_at, "{code}");
        assert_eq!(row["max_value"], max_value, "{code}");
        assert_eq!(row["rare_mask"], mask, "{code}");
        assert_eq!(row["rare_count"], rare, "{code}");
        assert_eq!(row["last_rare"], last, "{code}");
        let counts: u64 = row["frequencies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert_eq!(counts, n + 1, "{code}: frequencies over heaps 0..=N");
        // Its frequency file: every power of two from 1024 to N.
        let freq = std::fs::read_to_string(dir.join(format!("{code}.freq"))).unwrap();
        let heads = freq.lines().filter(|l| l.starts_with("# n ")).count() as u32;
        assert_eq!(
            heads,
            n.trailing_zeros() - 10 + 1,
            "{code}: N is a power of two"
        );
    }
}

#[test]
fn a_larger_budget_goes_on_where_the_last_hunt_stopped() {
    let dir = tmp("hunt-budgets");
    let _ = std::fs::remove_dir_all(&dir);
    let first = hunt(&dir, &["0.6", "0.004", "0.07", "--budget", "1"]);
    let second = hunt(&dir, &["0.6", "0.004", "0.07", "--budget", "2"]);
    for i in 0..2 {
        let (a, b) = (&first["rows"][i], &second["rows"][i]);
        assert_eq!(a["end"], "budget");
        assert!(b["n"].as_u64() > a["n"].as_u64(), "{a} then {b}");
        assert_eq!(
            b["resumed_heaps"].as_u64(),
            Some(a["n"].as_u64().unwrap() + 1)
        );
        assert!(
            b["seconds"].as_f64().unwrap() >= 2.0 && b["seconds"].as_f64().unwrap() < 4.0,
            "{b}"
        );
    }
    // Dawson's Kayles is solved at once; the second hunt keeps its row.
    let (a, b) = (&first["rows"][2], &second["rows"][2]);
    assert_eq!(
        (a["end"].as_str(), a["period"].as_u64()),
        (Some("solved"), Some(34))
    );
    assert_eq!(a, b);
    // The same figures as a run to that heap.
    let row = &second["rows"][0];
    let out = grundy(&[
        "octal",
        "0.6",
        "-n",
        &row["n"].to_string(),
        "--json",
        "--backend",
        "cpu",
    ]);
    let run = json(&out);
    for key in [
        "max_value",
        "first_max_at",
        "rare_mask",
        "rare_count",
        "last_rare",
        "p_positions",
    ] {
        assert_eq!(row[key], run[key], "{key}");
    }
}

#[test]
fn a_hunt_killed_mid_code_resumes_from_its_checkpoint() {
    let dir = tmp("hunt-killed");
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "hunt",
            "0.004",
            "0.6",
            "--budget",
            "60",
            "--dir",
            s(&dir),
            "-q",
            "--backend",
            "cpu",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    crate::common::assert_ended_by(
        &status,
        libc::SIGTERM,
        "a stopped hunt ends as the signal asks",
    );
    let row = std::fs::read_to_string(dir.join("0.004.row")).unwrap();
    assert!(row.contains("\"end\":\"stopped\""), "{row}");
    assert!(
        !dir.join("0.6.row").exists(),
        "the hunt stops after the code in flight"
    );
    let v = hunt(&dir, &["0.004", "0.6", "--budget", "2"]);
    let resumed = v["rows"][0]["resumed_heaps"].as_u64().unwrap();
    assert!(
        resumed > 1024,
        "0.004 goes on from its checkpoint: {resumed}"
    );
    assert!(v["rows"][0]["seconds"].as_f64().unwrap() >= 2.0);
    assert_eq!(v["rows"][1]["resumed_heaps"], 0);
}

#[test]
fn shards_cover_the_unsolved_list_once_and_damaged_rows_are_refused() {
    let dir = tmp("hunt-shards");
    let _ = std::fs::remove_dir_all(&dir);
    let mut seen = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let v = hunt(
            &dir,
            &[
                "--unsolved",
                "--budget",
                "0.01",
                "--max-n",
                "1024",
                "--shard",
                &shard,
            ],
        );
        seen.extend(
            v["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["code"].as_str().unwrap().to_string()),
        );
    }
    seen.sort();
    let mut list: Vec<String> = grundy::UNSOLVED.iter().map(|c| c.to_string()).collect();
    list.sort();
    assert_eq!(seen, list);
    let row = dir.join("0.6.row");
    let text = std::fs::read_to_string(&row)
        .unwrap()
        .replace("\"max_value\":", "\"max_value\":1");
    std::fs::write(&row, text).unwrap();
    let out = grundy(&["hunt", "0.6", "--budget", "1", "--dir", s(&dir), "-q"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("0.6.row") && err.contains("checksum"), "{err}");
}

/// The figures of a row that do not depend on how the run kept its table.
fn found(row: &serde_json::Value) -> serde_json::Value {
    let mut row = row.clone();
    for key in ["seconds", "resumed_heaps", "engine"] {
        row.as_object_mut().unwrap().remove(key);
    }
    row
}

#[test]
fn a_hunt_past_keep_past_keeps_a_prefix_and_a_window_with_the_same_rows() {
    let codes = ["0.6", "4!.0", "0.161", "0.167", "0.1777"];
    let run = |name: &str, keep: &[&str]| {
        let dir = tmp(name);
        let _ = std::fs::remove_dir_all(&dir);
        let mut args = codes.to_vec();
        args.extend(["--budget", "600", "--max-n", "4194304"]);
        args.extend_from_slice(keep);
        (hunt(&dir, &args), dir)
    };
    let (whole, whole_dir) = run("hunt-whole", &["--keep-past", "4194304"]);
    // The last stage keeps a quarter of its heaps (Officers' scan of heap
    // 1,697,097 reads pairs past 262,144; Grundy's game's window must pass
    // twice its last rare heap, 82,860).
    let kept_args = ["--keep-past", "16384"];
    let sizes = ["--keep-prefix", "524288", "--keep-window", "524288"];
    let (kept, kept_dir) = run("hunt-kept", &[&kept_args[..], &sizes[..]].concat());
    for (i, code) in codes.iter().enumerate() {
        let (a, b) = (&whole["rows"][i], &kept["rows"][i]);
        assert_eq!(a["end"], "max-n", "{code}");
        assert_eq!(found(a), found(b), "{code}");
        let freq = |dir: &Path| std::fs::read_to_string(dir.join(format!("{code}.freq"))).unwrap();
        assert_eq!(freq(&whole_dir), freq(&kept_dir), "{code}: every milestone");
        let ckpt = |dir: &Path| {
            std::fs::metadata(dir.join(format!("{code}.ckpt")))
                .unwrap()
                .len()
        };
        assert!(ckpt(&whole_dir) > 4_194_304, "{code}: the whole table");
        let kept_bytes = ckpt(&kept_dir);
        assert!(
            kept_bytes < 2 * 1_048_576 + 65_536,
            "{code}: {kept_bytes} bytes"
        );
    }
}

#[test]
fn a_code_that_needs_more_than_is_kept_ends_not_kept_and_the_hunt_goes_on() {
    let dir = tmp("hunt-not-kept");
    let _ = std::fs::remove_dir_all(&dir);
    let args = [
        "0.6",
        "0.167",
        "--budget",
        "600",
        "--max-n",
        "524288",
        "--keep-past",
        "4096",
        "--keep-prefix",
        "2048",
        "--keep-window",
        "65536",
    ];
    let mut all = vec!["hunt", "--dir", s(&dir), "--backend", "cpu"];
    all.extend_from_slice(&args);
    let out = grundy(&all);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("0.6: ") && err.contains("It needs at least --keep-prefix"),
        "{err}"
    );
    assert!(err.contains("delete its files"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("not-kept"));
    // A later hunt leaves it as it ended.
    let v = hunt(&dir, &args);
    let officers = &v["rows"][0];
    assert_eq!(officers["end"], "not-kept");
    let reached = officers["n"].as_u64().unwrap();
    assert!((65_536..524_288).contains(&reached), "{officers}");
    assert_eq!(v["rows"][1]["end"], "max-n");
}
