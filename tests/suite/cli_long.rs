//! Long runs from the command line: checkpoints that survive a kill, resume,
//! the raw u16 format, the statistics files and the algorithm switch.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{grundy, grundy_with_env, json, skip_without_gpu, tmp};
use grundy::frontend::export::read_raw;

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// `grundy octal 0.6 -n N` on the CPU by rare values, raw table to `out`.
fn officers(n: &str, out: &std::path::Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "octal",
        "0.6",
        "-n",
        n,
        "--backend",
        "cpu",
        "--algorithm",
        "rare",
        "--format",
        "raw",
        "--out",
        s(out),
        "-q",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    args.extend(extra.iter().map(|a| a.to_string()));
    args
}

fn wait_for(path: &std::path::Path) {
    let start = Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_run_resumes_to_the_same_table() {
    // Long enough that a run is still going 150 ms after its first
    // checkpoint, even beside the other tests.
    let n = "500000";
    let whole = tmp("whole.u16");
    assert!(
        grundy(
            &officers(n, &whole, &[])
                .iter()
                .map(|a| a.as_str())
                .collect::<Vec<_>>()
        )
        .status
        .success()
    );
    let expected = read_raw(&std::fs::read(&whole).unwrap()).unwrap();
    assert_eq!(expected.values.len(), 500_001);
    assert_eq!(expected.code, "0.6");

    let mut resumed_cases = 0;
    for signal in ["KILL", "INT"] {
        let out = tmp(&format!("resumed-{signal}.u16"));
        let ck = tmp(&format!("run-{signal}.ck"));
        let args = officers(
            n,
            &out,
            &["--checkpoint", s(&ck), "--checkpoint-every", "0.05"],
        );
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(&args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(&ck);
        std::thread::sleep(Duration::from_millis(150));
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        if status.success() {
            // The run won the race; nothing to resume.
            continue;
        }
        if signal == "INT" {
            // Ctrl-C saves a last checkpoint and says how to go on.
            crate::common::assert_ended_by(&status, libc::SIGINT, "");
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            assert!(err.contains("--resume"), "{err}");
        }
        assert!(
            !out.exists(),
            "a stopped run leaves no table that looks whole"
        );
        let resumed = grundy(
            &officers(n, &out, &["--resume", s(&ck), "--json"])
                .iter()
                .map(|a| a.as_str())
                .collect::<Vec<_>>(),
        );
        let v = json(&resumed);
        let from = v["resumed_heaps"].as_u64().unwrap();
        assert!(from > 0 && from < 500_001, "resumed from {from}");
        // It went on saving to the file it resumed from: at least at its end.
        assert!(v["checkpoint_saves"].as_u64().unwrap() >= 1, "{v}");
        assert!(v["checkpoint_seconds"].as_f64().unwrap() >= 0.0, "{v}");
        let got = read_raw(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(got, expected, "after SIG{signal}");
        resumed_cases += 1;
    }
    assert!(resumed_cases >= 1, "every run finished before its signal");
}

#[test]
fn resume_refuses_another_game_and_bad_files() {
    let ck = tmp("kayles.ck");
    assert!(
        grundy(&[
            "octal",
            "0.77",
            "-n",
            "100",
            "--backend",
            "cpu",
            "--checkpoint",
            s(&ck),
            "-q"
        ])
        .status
        .success()
    );
    let out = grundy(&["octal", "0.07", "-n", "200", "--resume", s(&ck)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not 0.07"));
    // A checkpoint extends: Kayles to 400 from the 101 values saved.
    let v = json(&grundy(&[
        "octal",
        "0.77",
        "-n",
        "400",
        "--backend",
        "cpu",
        "--resume",
        s(&ck),
        "--json",
    ]));
    assert_eq!(
        (v["resumed_heaps"].as_u64(), v["period"].as_u64()),
        (Some(101), Some(12))
    );
    // The summary says what it took from the checkpoint (which the run
    // above extended to 400).
    let summary = |n: &str| {
        let out = grundy(&[
            "octal",
            "0.77",
            "-n",
            n,
            "--backend",
            "cpu",
            "--resume",
            s(&ck),
        ]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = summary("500");
    let from = ck.display();
    let said =
        format!("resumed     heaps 0..=400 from {from}; heaps 401..=500 computed in this run");
    assert!(text.contains(&said), "{text}");
    let text = summary("450");
    let said = format!("resumed     every heap from {from}; none computed in this run");
    assert!(text.contains(&said), "{text}");
    let junk = tmp("junk.ck");
    std::fs::write(&junk, b"not a checkpoint").unwrap();
    let out = grundy(&["octal", "0.77", "-n", "10", "--resume", s(&junk)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected a checkpoint"));
}

#[test]
fn statistics_and_their_files() {
    let rare_out = tmp("rare.csv");
    let p_out = tmp("p.csv");
    let v = json(&grundy(&[
        "octal",
        "0.106",
        "-n",
        "5000",
        "--backend",
        "cpu",
        "--json",
        "--rare-out",
        s(&rare_out),
        "--p-out",
        s(&p_out),
    ]));
    assert_eq!(v["engine"], "rare");
    assert_eq!(v["bytes_per_value"], 1);
    let rare = std::fs::read_to_string(&rare_out).unwrap();
    assert_eq!(rare.lines().next(), Some("n,g"));
    assert_eq!(
        rare.lines().count() as u64 - 1,
        v["rare_count"].as_u64().unwrap()
    );
    let last: u64 = rare
        .lines()
        .last()
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(Some(last), v["last_rare"].as_u64());
    assert!(
        v["rare_mask"].as_str().unwrap().contains('p'),
        "position parity"
    );
    let p = std::fs::read_to_string(&p_out).unwrap();
    assert_eq!(
        p.lines().count() as u64 - 1,
        v["p_positions"].as_u64().unwrap()
    );
    let listed: Vec<u64> = v["first_p_positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    let from_file: Vec<u64> = p
        .lines()
        .skip(1)
        .take(listed.len())
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(listed, from_file);
    // The first heap with each value: value 0 at heap 0.
    assert_eq!(v["first_heap_with_value"][0], 0);
    let max = v["max_value"].as_u64().unwrap() as usize;
    assert_eq!(v["first_heap_with_value"][max], v["first_max_at"]);
}

/// The model of a 16-core host counted on one thread (`GRUNDY_STRETCHES=1
/// GRUNDY_STRETCH_RUNS=16`): the default run's table, and `rare_blocks`
/// gives the rounds and their critical path, in heaps well under the
/// stretches' and in time under the guessing's.
#[test]
fn sixteen_runs_a_stretch_on_one_thread_count_the_critical_path() {
    let (plain, model) = (tmp("model-plain.u16"), tmp("model-16.u16"));
    let run = |out: &std::path::Path, env: &[(&str, &str)]| {
        let args = officers("200000", out, &["--json"]);
        let args: Vec<&str> = args.iter().map(|a| a.as_str()).collect();
        let output = grundy_with_env(&args, env);
        assert!(output.status.success(), "{env:?}: {output:?}");
        json(&output)["rare_blocks"].clone()
    };
    let one = [("RAYON_NUM_THREADS", "1")];
    assert_eq!(run(&plain, &one)["stretches"], 0);
    let model_env = [
        one[0],
        ("GRUNDY_STRETCHES", "1"),
        ("GRUNDY_STRETCH_RUNS", "16"),
    ];
    let blocks = run(&model, &model_env);
    assert!(std::fs::read(&plain).unwrap() == std::fs::read(&model).unwrap());
    let count = |key: &str| {
        blocks[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{key}: {blocks}"))
    };
    let heaps = count("guessed_kept") + count("guessed_redone");
    assert!(
        count("rounds") > 0 && count("path_heaps") * 2 < heaps,
        "{blocks}"
    );
    let path = count("path_nanos");
    assert!(path > 0 && path < count("guess_nanos"), "{blocks}");
}

#[test]
fn the_algorithms_agree_and_rare_says_when_it_cannot_run() {
    let a = tmp("auto.csv");
    let b = tmp("naive.csv");
    for (alg, out) in [("rare", &a), ("naive", &b)] {
        assert!(
            grundy(&[
                "octal",
                "4!.0",
                "-n",
                "3000",
                "--backend",
                "cpu",
                "--algorithm",
                alg,
                "--out",
                s(out),
                "-q"
            ])
            .status
            .success()
        );
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let out = grundy(&["octal", "0.[7]", "-n", "100", "--algorithm", "rare"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("repeating tail") && err.contains("--algorithm auto"),
        "{err}"
    );
    let out = grundy(&["octal", "0.33", "-n", "100", "--algorithm", "rare"]);
    assert_eq!(out.status.code(), Some(2));
    let out = grundy(&["octal", "0.77", "-n", "10", "--format", "raw", "--out", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected a file name"));
}

#[test]
fn raw_tables_grow_past_the_first_round() {
    // --until-periodic doubles N: the header's count is patched at the end.
    let out = tmp("kayles.u16");
    let v = json(&grundy(&[
        "octal",
        "0.77",
        "--until-periodic",
        "--backend",
        "cpu",
        "--format",
        "raw",
        "--out",
        s(&out),
        "--json",
    ]));
    let raw = read_raw(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(raw.values.len() as u64, v["n"].as_u64().unwrap() + 1);
    assert_eq!(&raw.values[..12], &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
}

#[test]
fn survey_rows_match_single_runs() {
    let out = tmp("survey-2.csv");
    let v = json(&grundy(&[
        "survey",
        "--digits",
        "2",
        "-n",
        "3000",
        "--out",
        s(&out),
        "--json",
        "-q",
    ]));
    assert_eq!(v["codes"], 64);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "code,n,period,preperiod,certified,max_value,first_max_at,p_positions,rare_mask,rare_count,last_rare"
        )
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 64);
    // Kayles and Dawson's Kayles, as the literature has them.
    let row = |code: &str| -> Vec<String> {
        rows.iter()
            .find(|r| r.starts_with(&format!("{code},")))
            .unwrap()
            .split(',')
            .map(String::from)
            .collect()
    };
    assert_eq!(&row("0.77")[..5], &["0.77", "3000", "12", "71", "true"]);
    assert_eq!(&row("0.07")[..5], &["0.07", "3000", "34", "53", "true"]);
    // Every row equals what `grundy octal` says of the code.
    for code in ["0.77", "0.16", "0.06", "0.41"] {
        let one = json(&grundy(&[
            "octal",
            code,
            "-n",
            "3000",
            "--backend",
            "cpu",
            "--json",
        ]));
        let r = row(code);
        let num = |k: &str| one[k].as_u64().map_or(String::new(), |x| x.to_string());
        assert_eq!(r[2], num("period"), "{code}");
        assert_eq!(r[5], num("max_value"), "{code}");
        assert_eq!(r[7], num("p_positions"), "{code}");
        assert_eq!(r[8], one["rare_mask"].as_str().unwrap(), "{code}");
        assert_eq!(r[9], num("rare_count"), "{code}");
    }
    // A list of codes, comments and all; a bad one is named.
    let list = tmp("codes.txt");
    std::fs::write(&list, "# famous\n0.77\n4!.0   # Grundy's game\n\n0.137\n").unwrap();
    let v = json(&grundy(&[
        "survey",
        "--codes",
        s(&list),
        "-n",
        "500",
        "--json",
        "-q",
    ]));
    assert_eq!(v["codes"], 3);
    std::fs::write(&list, "0.77\n0.7%\n").unwrap();
    let out = grundy(&["survey", "--codes", s(&list), "-n", "500"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("0.7%"));
    let out = grundy(&["survey", "--digits", "9", "-n", "10"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn survey_workgroup_is_checked_and_reported() {
    let survey = |extra: &[&str]| {
        let mut args = vec!["survey", "--digits", "1", "-n", "600", "--json", "-q"];
        args.extend(extra);
        grundy(&args)
    };
    let cpu = json(&survey(&["--backend", "cpu"]));
    assert!(cpu["workgroup"].is_null());
    // The CPU ignores it, and says so.
    let out = grundy(&[
        "survey",
        "--digits",
        "1",
        "-n",
        "60",
        "--backend",
        "cpu",
        "--workgroup",
        "32",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("ignores it"));

    let out = survey(&["--backend", "gpu", "--workgroup", "0"]);
    if out.status.code() != Some(2)
        || !String::from_utf8_lossy(&out.stderr).contains("--workgroup 0")
    {
        skip_without_gpu(
            "survey_workgroup_is_checked_and_reported",
            "--backend gpu found no adapter",
        );
        return;
    }
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--workgroup 0: expected 1 to"), "{err}");
    let out = survey(&["--backend", "gpu", "--workgroup", "100000"]);
    assert_eq!(out.status.code(), Some(2));
    // A workgroup of 32 threads: reported, and the same rows as the CPU's.
    let gpu = json(&survey(&["--backend", "gpu", "--workgroup", "32"]));
    assert_eq!(gpu["workgroup"], 32);
    let rows = |extra: &[&str]| {
        let mut args = vec!["survey", "--digits", "2", "-n", "600", "--out", "-", "-q"];
        args.extend(extra);
        let out = grundy(&args);
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let cpu_rows = rows(&["--backend", "cpu"]);
    assert_eq!(cpu_rows.lines().count(), 65);
    assert_eq!(rows(&["--backend", "gpu", "--workgroup", "32"]), cpu_rows);
}

/// G(n) of Dawson's Kayles (0.07) from its period, 34 from heap 53, and
/// its first 200 values computed by the blocked twins.
fn dawson() -> impl Fn(u64) -> u16 {
    let code = grundy::game::Code::parse("0.07").unwrap();
    let code = grundy::internals::kernel::heap::HeapKernelCode::new(&code).unwrap();
    let g = grundy::internals::engine::cpu_blocked(&code, Vec::new(), 200, &grundy::hooks::Silent)
        .unwrap();
    move |n| match n {
        0..53 => g[n as usize],
        _ => g[(53 + (n - 53) % 34) as usize],
    }
}

#[test]
fn a_periodic_code_is_written_past_two_to_the_32() {
    // 2^32 + 104 heaps through a pipe, one digit each, every one checked:
    // the heaps past the computed ones come from the period as written.
    let last = (1u64 << 32) + 103;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "octal",
            "0.07",
            "-n",
            &last.to_string(),
            "--format",
            "digits",
        ])
        .args(["--out", "-", "-q"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let g = dawson();
    let mut out = child.stdout.take().unwrap();
    let (mut n, mut buf) = (0u64, vec![0u8; 1 << 20]);
    loop {
        use std::io::Read;
        let got = out.read(&mut buf).unwrap();
        if got == 0 {
            break;
        }
        for &b in &buf[..got] {
            if n <= last {
                let digit = b"0123456789"[g(n) as usize];
                assert_eq!(b, digit, "heap {n}");
            } else {
                assert_eq!(b, b'\n', "the line's end after heap {last}");
            }
            n += 1;
        }
    }
    assert!(child.wait().unwrap().success());
    assert_eq!(n, last + 2, "every heap and the newline");
}

#[test]
fn a_filled_runs_summary_counts_every_heap_to_two_to_the_40() {
    let last = (1u64 << 40) - 1;
    let out = grundy(&["octal", "0.07", "-n", &last.to_string(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    assert_eq!(j["n"], last);
    assert_eq!(
        (j["period"].as_u64(), j["preperiod"].as_u64()),
        (Some(34), Some(53))
    );
    let filled_from = j["filled_from"].as_u64().unwrap();
    assert!(filled_from < 1 << 20, "filled from {filled_from}");
    // The counts over every heap, from the period by residue: heaps 53..
    // repeat every 68 heaps with their parities.
    let g = dawson();
    let count = |keep: &dyn Fn(u64, u16) -> bool| {
        let below: u64 = (0..53).filter(|&n| keep(n, g(n))).count() as u64;
        let (cycles, part) = ((last + 1 - 53) / 68, (last + 1 - 53) % 68);
        let of = |k: u64| (53..53 + k).filter(|&n| keep(n, g(n))).count() as u64;
        below + cycles * of(68) + of(part)
    };
    assert_eq!(j["p_positions"], count(&|_, v| v == 0));
    // The rare split's own count, from its mask and position parity.
    let label = j["rare_mask"].as_str().unwrap().to_string();
    let (mask, t) = label.split_once('p').unwrap();
    let mask = u32::from_str_radix(mask.strip_prefix("0x").unwrap(), 16).unwrap();
    let t: u64 = t.parse().unwrap();
    let rare = |n: u64, v: u16| (v as u32 & mask).count_ones() as u64 % 2 == (n + t) % 2;
    assert_eq!(j["rare_count"], count(&rare), "mask {label}");
    let last_rare = (last - 68..=last).rev().find(|&n| rare(n, g(n)));
    assert_eq!(j["last_rare"].as_u64(), last_rare);
}

#[test]
fn heaps_past_what_an_engine_reaches_are_refused_naming_it() {
    // 0.33 takes only: the brute force, whose kernels index heaps in u32.
    let out = grundy(&["octal", "0.33", "-n", "3000000000", "--no-fill", "-q"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("brute force") && err.contains("2147483647"),
        "{err}"
    );
    let out = grundy(&["octal", "0.07", "-n", "1099511627776", "-q"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("1099511627775"), "{err}");
}

#[test]
fn a_table_kept_in_a_file_is_the_table_kept_in_memory() {
    // Tables of one byte a value (.1777, .16, Grundy's game this far), and
    // Officers', whose values pass 255 at heap 1,274,955: its table widens
    // in the file.
    let dir = tmp("paged");
    std::fs::create_dir_all(&dir).unwrap();
    for (code, n) in [
        ("0.6", "1500000"),
        ("4!.0", "2000000"),
        (".1777", "400000"),
        ("0.16", "1000000"),
    ] {
        let raw = |name: &str, extra: &[&str]| {
            let out = dir.join(name);
            let mut args = vec!["octal", code, "-n", n, "--backend", "cpu"];
            args.extend(["--format", "raw", "--out", s(&out)]);
            args.extend(extra);
            let run = grundy(&args);
            let said = String::from_utf8_lossy(&run.stderr).to_string();
            assert!(run.status.success(), "{code} {extra:?}: {said}");
            (std::fs::read(&out).unwrap(), said)
        };
        let (whole, said) = raw("whole.raw", &[]);
        assert!(!said.contains("go to a file"), "{said}");
        let (paged, said) = raw("paged.raw", &["--memory", "1M"]);
        assert!(
            said.contains("its values go to a file in"),
            "{code}: {said}"
        );
        assert!(whole == paged, "{code}: the tables differ");
        // A checkpoint of half the heaps, resumed with the table in a file.
        let ck = dir.join(format!("{code}.ck"));
        let half = (n.parse::<u64>().unwrap() / 2).to_string();
        let first = grundy(&[
            "octal",
            code,
            "-n",
            &half,
            "--backend",
            "cpu",
            "--checkpoint",
            s(&ck),
            "-q",
        ]);
        assert!(first.status.success());
        let resume = ["--resume", s(&ck), "--memory", "1M"];
        let (resumed, _) = raw("resumed.raw", &resume);
        assert!(whole == resumed, "{code}: the resumed table differs");
    }
    // Nothing of the tables' files is left beside the outputs.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name.starts_with(".grundy-table"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
