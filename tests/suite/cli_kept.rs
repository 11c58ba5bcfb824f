//! Runs that keep only a prefix and a window of their table, from the
//! command line (`--keep-prefix`, `--keep-window`): the table streamed to
//! --out and the statistics are a whole run's; what needs the whole table
//! is refused before any work; a killed run resumes from a checkpoint as
//! small as what it keeps; a heap that needs more stops the run.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{grundy, json, tmp};

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// `grundy octal CODE -n N --json -q` with `extra`, run to its end.
fn octal(code: &str, n: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["octal", code, "-n", n, "--backend", "cpu", "--json", "-q"];
    args.extend(extra);
    grundy(&args)
}

/// The figures two runs must share: the statistics, the rare summary, the
/// period, the milestones.
fn figures(v: &serde_json::Value) -> serde_json::Value {
    serde_json::json!([
        v["stats"],
        v["rare"],
        v["period"],
        v["preperiod"],
        v["milestones"]
    ])
}

#[test]
fn a_kept_run_streams_the_whole_runs_table_and_counts_its_statistics() {
    let (whole, kept) = (tmp("kept-whole.raw"), tmp("kept-part.raw"));
    let (whole_f, kept_f) = (tmp("kept-whole.txt"), tmp("kept-part.txt"));
    for code in ["0.167", "0.1777"] {
        let at = "1024,65536,100000,123457,262144";
        let base = ["--format", "raw", "--stats-at", at];
        let mut a = base.to_vec();
        a.extend(["--out", s(&whole), "--stats-out", s(&whole_f)]);
        let w = octal(code, "300000", &a);
        let mut b = base.to_vec();
        b.extend(["--out", s(&kept), "--stats-out", s(&kept_f)]);
        b.extend(["--keep-prefix", "4096", "--keep-window", "4096"]);
        let k = octal(code, "300000", &b);
        assert!(k.status.success(), "{}", String::from_utf8_lossy(&k.stderr));
        assert_eq!(
            std::fs::read(&kept).unwrap(),
            std::fs::read(&whole).unwrap(),
            "{code}"
        );
        assert_eq!(
            std::fs::read(&kept_f).unwrap(),
            std::fs::read(&whole_f).unwrap(),
            "{code}"
        );
        let (w, k) = (json(&w), json(&k));
        assert_eq!(figures(&k), figures(&w), "{code}");
        assert_eq!(k["milestones"].as_array().unwrap().len(), 5, "{code}: {k}");
    }
}

#[test]
fn what_needs_the_whole_table_is_refused_before_any_work() {
    let out = tmp("kept-refused.npy");
    let ck = tmp("kept-refused.ck");
    std::fs::write(&ck, b"not a checkpoint").unwrap();
    for (extra, said) in [
        (vec!["--format", "npy", "--out", s(&out)], "--format npy"),
        (vec!["--plot", "p.svg"], "--plot"),
        (vec!["--rare-out", "r.csv"], "--rare-out"),
        (vec!["--p-out", "p.csv"], "--p-out"),
        (vec!["--until-periodic"], "--until-periodic"),
        (vec!["--backend", "gpu"], "--backend gpu"),
        (vec!["--algorithm", "naive"], "--algorithm naive"),
        (vec!["--keep-window", "10"], "--keep-window 10"),
        (vec!["--resume", s(&ck), "--out", s(&out)], "--out"),
        (vec!["--resume", s(&ck)], "--resume"),
    ] {
        let mut args = vec!["octal", "0.6", "-n", "100000", "--keep-prefix", "4096"];
        args.extend(&extra);
        let o = grundy(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(said), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?}");
    }
}

#[test]
fn a_heap_that_needs_more_stops_the_run_naming_the_sizes() {
    let ck = tmp("kept-short.ck");
    let o = octal(
        "0.6",
        "300000",
        &[
            "--keep-prefix",
            "2048",
            "--keep-window",
            "65536",
            "--checkpoint",
            s(&ck),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    // The least prefix for the part its scan reached first: 2049 when the
    // finish scanned the heap's pairs, more when the pass had scanned its
    // pairs from the 4097th on first (whichever thread got there first).
    let said = err
        .split("It needs at least --keep-prefix ")
        .nth(1)
        .unwrap_or("");
    let prefix: u64 = said.split(' ').next().unwrap_or("").parse().unwrap_or(0);
    assert!(prefix > 2048, "{err}");
    assert!(err.contains("holds heaps 0..="), "{err}");
    assert!(ck.exists(), "the heaps done were saved");
}

#[test]
fn a_killed_kept_run_resumes_to_the_same_statistics_from_a_small_checkpoint() {
    let n = "3000000";
    let keep = [
        "--keep-prefix",
        "4096",
        "--keep-window",
        "4096",
        "--stats-at",
        "pow2",
    ];
    let whole = json(&octal("0.167", n, &["--stats-at", "pow2"]));
    let mut resumed_cases = 0;
    for signal in ["KILL", "INT"] {
        let ck = tmp(&format!("kept-run-{signal}.ck"));
        let mut args = vec!["octal", "0.167", "-n", n, "--backend", "cpu", "-q"];
        args.extend(keep);
        args.extend(["--checkpoint", s(&ck), "--checkpoint-every", "0.05"]);
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(&args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !ck.exists() {
            assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(Duration::from_millis(100));
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        if child.wait().unwrap().success() {
            continue;
        }
        // What is kept, the rare heaps and the counts: not the heaps done.
        let size = std::fs::metadata(&ck).unwrap().len();
        assert!(size < 4 * 8192 + (1 << 20), "{size} bytes");
        let mut again = keep.to_vec();
        again.extend(["--resume", s(&ck)]);
        let v = json(&octal("0.167", n, &again));
        let from = v["resumed_heaps"].as_u64().unwrap();
        assert!(from > 0 && from < 3_000_001, "resumed from {from}");
        assert_eq!(figures(&v), figures(&whole), "after SIG{signal}");
        resumed_cases += 1;
    }
    assert!(resumed_cases >= 1, "every run finished before its signal");
}

/// With the table going to a raw file, a heap that needs heaps the run gave
/// back reads them from it and the run goes on keeping more: the same
/// table and figures as a whole run's, the larger sizes in its checkpoint.
#[test]
fn a_heap_that_needs_more_reads_it_back_from_a_raw_out() {
    let (whole, kept, ck) = (tmp("back-whole.raw"), tmp("back-kept.raw"), tmp("back.ck"));
    let w = octal("0.6", "300000", &["--format", "raw", "--out", s(&whole)]);
    assert!(w.status.success());
    let sizes = ["--keep-prefix", "2048", "--keep-window", "65536"];
    let mut args = vec!["octal", "0.6", "-n", "300000", "--backend", "cpu", "--json"];
    args.extend(sizes);
    args.extend(["--format", "raw", "--out", s(&kept), "--checkpoint", s(&ck)]);
    let k = grundy(&args);
    let err = String::from_utf8_lossy(&k.stderr);
    assert!(k.status.success(), "{err}");
    assert!(
        err.contains("needed heaps this run had given back: read them back from --out"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    let (w, k) = (json(&w), json(&k));
    assert_eq!(figures(&k), figures(&w));
    assert!(
        k["kept"]["prefix"].as_u64().unwrap() > 2048,
        "{}",
        k["kept"]
    );
    // The checkpoint keeps the larger sizes; a resume with the first ones
    // takes them from it.
    let again = octal(
        "0.6",
        "300001",
        &[&sizes[..], &["--resume", s(&ck)]].concat(),
    );
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(json(&again)["kept"], k["kept"]);
    // Written to a CSV file, the run cannot read back: it stops.
    let csv = octal(
        "0.6",
        "300000",
        &[&sizes[..], &["--out", s(&tmp("back.csv"))]].concat(),
    );
    assert_eq!(csv.status.code(), Some(1));
}
