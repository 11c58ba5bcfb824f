//! Sharded surveys: parts merged are the single run's file byte for byte;
//! a Slurm array task takes its slice; bad sets of parts are refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{crc32, grundy, tmp};
use grundy::game::Code;
use grundy::internals::engine::heap::sequence::Algorithm;
use grundy::internals::engine::survey::{balanced_shards, estimated_costs};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A survey of `codes` (a codes file) to 3000 heaps into `out`, with `extra` flags.
fn survey(codes: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "survey",
        "--codes",
        s(codes),
        "-n",
        "3000",
        "-q",
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    grundy(&args)
}

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Refused with status 2, the message naming `what`.
fn refused(out: Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(what), "expected {what} in: {err}");
}

/// A codes file mixing rare-value, brute-force and 4-prefixed codes.
fn codes_file() -> PathBuf {
    let path = tmp("codes.txt");
    let codes = "0.07\n0.77\n0.137\n4!.0 # Grundy's game\n0.6\n0.16\n0.51\n4.7\n0.3033\n0.17\n";
    std::fs::write(&path, codes).unwrap();
    path
}

/// The parts of a 3-way sharded survey.
fn parts(codes: &Path, tag: &str) -> Vec<PathBuf> {
    (0..3)
        .map(|k| {
            let part = tmp(&format!("{tag}-{k}.csv"));
            ok(survey(codes, &part, &["--shard", &format!("{k}/3")]));
            part
        })
        .collect()
}

/// `"key":value` as it stands in a part's JSON header line.
fn field(header: &str, key: &str) -> String {
    let at = header.find(&format!("\"{key}\":")).unwrap();
    let end = header[at..].find([',', '}']).unwrap();
    header[at..at + end].to_string()
}

fn merge(out: &Path, parts: &[&Path]) -> Output {
    let mut args = vec!["survey", "merge", s(out)];
    args.extend(parts.iter().map(|p| s(p)));
    grundy(&args)
}

/// A survey row with its rare mask (column 9) in decimal, as builds before
/// the hex masks wrote it: `0x6p0` becomes `6p0`.
fn decimal_mask(row: &str) -> String {
    let mut fields: Vec<String> = row.split(',').map(str::to_string).collect();
    let (hex, parity) = fields[8].split_once('p').unwrap_or((&fields[8], ""));
    let mask = u32::from_str_radix(hex.strip_prefix("0x").unwrap(), 16).unwrap();
    let parity = if parity.is_empty() {
        String::new()
    } else {
        format!("p{parity}")
    };
    fields[8] = format!("{mask}{parity}");
    fields.join(",")
}

#[test]
fn three_shards_merged_are_the_single_run() {
    let codes = codes_file();
    let whole = tmp("whole.csv");
    ok(survey(&codes, &whole, &[]));
    let parts = parts(&codes, "part");
    // Any order of the parts on the command line.
    let merged = tmp("merged.csv");
    ok(merge(&merged, &[&parts[2], &parts[0], &parts[1]]));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // Shard 1/3 holds the codes dealt to it by their estimated cost, each
    // row led by its place in the list.
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    let list: Vec<Code> = [
        "0.07", "0.77", "0.137", "4!.0", "0.6", "0.16", "0.51", "4.7", "0.3033", "0.17",
    ]
    .iter()
    .map(|t| Code::parse(t).unwrap())
    .collect();
    let costs = estimated_costs(&list, 3000, Algorithm::Auto).unwrap();
    let dealt = balanced_shards(&costs, 3);
    let expected: Vec<String> = (0..list.len())
        .filter(|&i| dealt[i] == 1)
        .map(|i| format!("{i},{}", list[i].name()))
        .collect();
    let held: Vec<String> = text
        .lines()
        .skip(2)
        .map(|l| l.splitn(3, ',').take(2).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(held, expected);
    assert!(text.lines().nth(1).unwrap().starts_with("place,code,"));
    // --help describes that dealing, not the one in turn down the list.
    let help = String::from_utf8(grundy(&["survey", "--help"]).stdout).unwrap();
    assert!(
        help.contains("dealt by estimated cost, costliest first"),
        "{help}"
    );
    assert!(!help.contains("K+N"), "{help}");
    // Parts of format 1 (dealt in turn down the list, by earlier builds,
    // which wrote the rare masks in decimal) still merge to the same file.
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    let rows: Vec<&str> = whole_text.lines().collect();
    let old: Vec<PathBuf> = (0..3)
        .map(|k| {
            let csv: String = std::iter::once(rows[0].to_string())
                .chain(rows[1..].iter().skip(k).step_by(3).map(|l| decimal_mask(l)))
                .map(|l| format!("{l}\n"))
                .collect();
            let json = std::fs::read_to_string(&parts[k]).unwrap();
            let header = json.lines().next().unwrap();
            let header = header
                .replace("\"format\":2", "\"format\":1")
                .replace(
                    &field(header, "rows"),
                    &format!("\"rows\":{}", csv.lines().count()),
                )
                .replace(
                    &field(header, "csv_crc32"),
                    &format!("\"csv_crc32\":{}", crc32(csv.as_bytes())),
                );
            let path = tmp(&format!("old-part-{k}.csv"));
            std::fs::write(&path, format!("{header}\n{csv}")).unwrap();
            path
        })
        .collect();
    let merged_old = tmp("merged-old.csv");
    ok(merge(&merged_old, &[&old[0], &old[1], &old[2]]));
    assert_eq!(
        std::fs::read(&merged_old).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    // Digits surveys too, with --prefix 4.
    let digits = [
        "survey", "--digits", "2", "--prefix", "4", "-n", "2000", "-q", "--out",
    ];
    let whole = tmp("digits.csv");
    ok(grundy(&[&digits[..], &[s(&whole)]].concat()));
    let parts: Vec<PathBuf> = (0..2).map(|k| tmp(&format!("digits-{k}.csv"))).collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{k}/2");
        ok(grundy(
            &[&digits[..], &[s(part), "--shard", &shard]].concat(),
        ));
    }
    let merged = tmp("digits-merged.csv");
    ok(merge(&merged, &[&parts[0], &parts[1]]));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

#[test]
fn a_slurm_array_task_takes_its_slice() {
    let codes = codes_file();
    let parts = parts(&codes, "slurm-ref");
    let run = |vars: &[(&str, &str)], out: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
        command.args([
            "survey",
            "--codes",
            s(&codes),
            "-n",
            "3000",
            "--out",
            s(out),
        ]);
        command.args(["--backend", "cpu"]);
        for (k, v) in vars {
            command.env(k, v);
        }
        command.output().unwrap()
    };
    let by_count = tmp("slurm-count.csv");
    let out = ok(run(
        &[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
        &by_count,
    ));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 2/3"));
    assert_eq!(
        std::fs::read(&by_count).unwrap(),
        std::fs::read(&parts[2]).unwrap()
    );
    // An array 5-7: task 5 is shard 0/3.
    let by_range = tmp("slurm-range.csv");
    let range = [
        ("SLURM_ARRAY_TASK_ID", "5"),
        ("SLURM_ARRAY_TASK_MIN", "5"),
        ("SLURM_ARRAY_TASK_MAX", "7"),
    ];
    ok(run(&range, &by_range));
    assert_eq!(
        std::fs::read(&by_range).unwrap(),
        std::fs::read(&parts[0]).unwrap()
    );
    // --shard wins over the environment.
    let given = tmp("slurm-given.csv");
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args([
        "survey",
        "--codes",
        s(&codes),
        "-n",
        "3000",
        "-q",
        "--shard",
        "1/3",
    ]);
    let out = command
        .args(["--out", s(&given)])
        .env("SLURM_ARRAY_TASK_ID", "0")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .output()
        .unwrap();
    ok(out);
    assert_eq!(
        std::fs::read(&given).unwrap(),
        std::fs::read(&parts[1]).unwrap()
    );
    refused(
        run(&[("SLURM_ARRAY_TASK_ID", "3")], &tmp("slurm-bad.csv")),
        "SLURM_ARRAY_TASK_ID=3",
    );
}

#[test]
fn bad_sets_of_parts_are_refused_by_name() {
    let codes = codes_file();
    let parts = parts(&codes, "bad");
    let out = tmp("bad-merged.csv");
    refused(merge(&out, &[&parts[0], &parts[1]]), "2/3");
    refused(
        merge(&out, &[&parts[0], &parts[1], &parts[1], &parts[2]]),
        "also",
    );
    let other_n = tmp("bad-n.csv");
    ok(grundy(&[
        "survey",
        "--codes",
        s(&codes),
        "-n",
        "2000",
        "-q",
        "--shard",
        "2/3",
        "--out",
        s(&other_n),
    ]));
    refused(
        merge(&out, &[&parts[0], &parts[1], &other_n]),
        "bad-n.csv: its -n differs",
    );
    // Another code list.
    let reordered = tmp("reordered.txt");
    std::fs::write(
        &reordered,
        "0.07\n0.77\n0.137\n0.6\n0.16\n0.51\n4.7\n0.3033\n0.17\n4!.0\n",
    )
    .unwrap();
    let other_list = tmp("bad-list.csv");
    ok(survey(&reordered, &other_list, &["--shard", "2/3"]));
    refused(
        merge(&out, &[&parts[0], &parts[1], &other_list]),
        "code list",
    );
    // An edited row, and a plain survey file.
    let edited = tmp("bad-edited.csv");
    let text = std::fs::read_to_string(&parts[2]).unwrap();
    std::fs::write(&edited, text.replacen(",3000,", ",3001,", 1)).unwrap();
    refused(
        merge(&out, &[&parts[0], &parts[1], &edited]),
        "bad-edited.csv: its rows",
    );
    let whole = tmp("bad-whole.csv");
    ok(survey(&codes, &whole, &[]));
    refused(merge(&out, &[&whole]), "bad-whole.csv: not a survey part");
    refused(
        merge(&parts[0], &[&parts[0], &parts[1], &parts[2]]),
        "both OUT and a PART",
    );
    assert!(!out.exists(), "no merged file after a refusal");
    // A shard needs a file, and a slice with codes in it.
    refused(
        grundy(&[
            "survey",
            "--codes",
            s(&codes),
            "-n",
            "100",
            "--shard",
            "0/2",
        ]),
        "--out",
    );
    refused(
        grundy(&[
            "survey",
            "--codes",
            s(&codes),
            "-n",
            "100",
            "--shard",
            "0/11",
            "--out",
            s(&out),
        ]),
        "10 codes",
    );
    refused(
        grundy(&[
            "survey",
            "--codes",
            s(&codes),
            "-n",
            "100",
            "--shard",
            "2/2",
        ]),
        "K/N",
    );
}
