//! Statistics at several heaps (`--stats-at`, `--stats-out`): each equals
//! what a run to exactly that heap reports, and the frequency file holds
//! the same counts.

use crate::common::{grundy, json, tmp};

fn run_json(args: &[&str]) -> serde_json::Value {
    let out = grundy(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

const SAME: [&str; 7] = [
    "max_value",
    "first_max_at",
    "p_positions",
    "rare_mask",
    "rare_count",
    "last_rare",
    "n",
];

#[test]
fn each_milestone_is_what_a_run_to_that_heap_reports() {
    // Officers by rare values, a brute-force code, and a code whose
    // period is certified before the end (its heaps after filled).
    for (code, n) in [("0.6", "40000"), ("0.137", "9000"), ("0.07", "20000")] {
        let freq = tmp(&format!("milestones-{code}.txt"));
        let whole = run_json(&[
            "octal",
            code,
            "-n",
            n,
            "--stats-at",
            "pow2",
            "--stats-out",
            freq.to_str().unwrap(),
            "--json",
            "--backend",
            "cpu",
        ]);
        let milestones = whole["milestones"].as_array().unwrap();
        let last: u64 = n.parse().unwrap();
        let expected: Vec<u64> = (10..64).map(|k| 1u64 << k).filter(|&p| p <= last).collect();
        assert_eq!(
            milestones.len(),
            expected.len(),
            "{code}: every power of two from 1024"
        );
        let file = std::fs::read_to_string(&freq).unwrap();
        for (m, &at) in milestones.iter().zip(&expected) {
            assert_eq!(m["n"], at);
            let cut = run_json(&[
                "octal",
                code,
                "-n",
                &at.to_string(),
                "--json",
                "--backend",
                "cpu",
            ]);
            for key in SAME {
                assert_eq!(m[key], cut[key], "{code} at {at}: {key}");
            }
            let counts: Vec<u64> = m["frequencies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap())
                .collect();
            assert_eq!(counts.iter().sum::<u64>(), at + 1, "{code} at {at}");
            assert_eq!(counts.len() as u64, cut["max_value"].as_u64().unwrap() + 1);
            assert_eq!(counts[0], cut["p_positions"].as_u64().unwrap());
            // The file's section for this heap: its head, then "value count" lines.
            let head = format!(
                "# n {at}: max {} first at {}",
                m["max_value"], m["first_max_at"]
            );
            let section = file.split("\n\n").find(|s| s.contains(&head)).expect(&head);
            let lines: Vec<u64> = section
                .lines()
                .filter(|l| !l.starts_with('#'))
                .enumerate()
                .map(|(v, l)| {
                    let (value, count) = l.split_once(' ').unwrap();
                    assert_eq!(value.parse::<usize>().unwrap(), v);
                    count.parse().unwrap()
                })
                .collect();
            assert_eq!(lines, counts, "{code} at {at}: the file's counts");
        }
    }
}

#[test]
fn listed_heaps_and_bad_lists() {
    let v = run_json(&[
        "octal",
        "0.6",
        "-n",
        "3000",
        "--stats-at",
        "100,2999,3000,4000",
        "--json",
    ]);
    let at: Vec<u64> = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["n"].as_u64().unwrap())
        .collect();
    assert_eq!(at, [100, 2999, 3000], "heaps past -n are left out");
    let out = grundy(&["octal", "0.6", "-n", "3000", "--stats-at", "1k"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--stats-at") && err.contains("pow2"), "{err}");
}
