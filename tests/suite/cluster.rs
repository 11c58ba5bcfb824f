//! Runs as they live on a cluster node: SIGTERM and SIGHUP save, survey
//! shards resume after any kill, memory limits refused before the run,
//! a failed allocation is one line, stale partial files are cleaned up,
//! and a log file gets progress lines.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{crc32, grundy, json, partials, tmp, wait_within};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh scratch folder of this test.
fn folder(name: &str) -> PathBuf {
    let dir = tmp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn spawn(args: &[&str], env: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts")
}

fn signal(child: &Child, signal: i32) {
    // SAFETY: signals a child process this test started.
    unsafe { libc::kill(child.id() as i32, signal) };
}

/// Lines of a file (0 when it is not there yet).
fn lines_in(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

/// A fixed-seed walk (xorshift) so the moments of the kills reproduce.
fn moments(seed: u64, count: usize, most_ms: u64) -> Vec<Duration> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Duration::from_millis(state % most_ms)
        })
        .collect()
}

fn survey_args<'a>(out: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "survey",
        "--digits",
        "2",
        "-n",
        "40000",
        "--shard",
        "1/3",
        "--backend",
        "cpu",
        "--out",
    ];
    args.push(s(out));
    args.extend_from_slice(extra);
    args
}

#[test]
fn survey_shards_killed_at_any_moment_resume_to_the_same_part() {
    let dir = folder("survey-kills");
    let whole = dir.join("whole.csv");
    let out = grundy(&survey_args(&whole, &["-q"]));
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = std::fs::read(&whole).unwrap();
    let mut resumed = 0;
    let kills = [libc::SIGKILL, libc::SIGTERM, libc::SIGKILL, libc::SIGTERM];
    for (k, (&sig, wait)) in kills.iter().zip(moments(7, 4, 400)).enumerate() {
        let part = dir.join(format!("part-{k}.csv"));
        let ck = dir.join(format!("part-{k}.ck"));
        let ck_flag = ["--checkpoint", s(&ck)];
        let child = spawn(&survey_args(&part, &ck_flag), &[]);
        // Past the key and a first row, then a moment more.
        let start = Instant::now();
        while lines_in(&ck) < 3 && start.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(wait);
        signal(&child, sig);
        let stopped = wait_within(child, Duration::from_secs(60)).expect("stops");
        if stopped.status.success() {
            continue; // the run won the race
        }
        if sig == libc::SIGTERM {
            crate::common::assert_ended_by(&stopped.status, libc::SIGTERM, &stderr(&stopped));
            let said = stderr(&stopped);
            assert!(said.contains("interrupted by SIGTERM"), "{said}");
            assert!(said.contains(&format!("--resume {}", s(&ck))), "{said}");
        }
        assert!(!part.exists(), "a stopped survey writes no part");
        let out = grundy(&survey_args(&part, &["--resume", s(&ck), "-q"]));
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            std::fs::read(&part).unwrap(),
            expected,
            "after signal {sig}"
        );
        resumed += 1;
    }
    assert!(resumed >= 2, "the runs finished before their signals");
    assert!(partials(&dir).is_empty(), "{:?}", partials(&dir));
    // A checkpoint of another survey is refused, naming what differs.
    let ck = dir.join("part-0.ck");
    let other = [
        "survey", "--digits", "2", "-n", "50000", "--shard", "1/3", "--out",
    ];
    let out = grundy(&[&other[..], &[s(&dir.join("o.csv")), "--resume", s(&ck)]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("-n 40000, not 50000"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_whole_survey_resumes_to_the_same_csv() {
    let dir = folder("survey-whole");
    let (whole, again, ck) = (dir.join("w.csv"), dir.join("a.csv"), dir.join("a.ck"));
    let args = |out: &Path| -> Vec<String> {
        [
            "survey",
            "--digits",
            "2",
            "-n",
            "20000",
            "--backend",
            "cpu",
            "-q",
            "--out",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([s(out).to_string()])
        .collect()
    };
    let run = |extra: &[&str], out: &Path| {
        let mut all = args(out);
        all.extend(extra.iter().map(|a| a.to_string()));
        grundy(&all.iter().map(|a| a.as_str()).collect::<Vec<_>>())
    };
    assert!(run(&[], &whole).status.success());
    assert!(run(&["--checkpoint", s(&ck)], &again).status.success());
    // Keep the key and 20 rows, tear the next line: a kill mid-append.
    let text = std::fs::read_to_string(&ck).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let kept = format!("{}\n{}", lines[..22].join("\n"), &lines[22][..30]);
    std::fs::write(&ck, kept).unwrap();
    std::fs::remove_file(&again).unwrap();
    let out = run(&["--resume", s(&ck)], &again);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert_eq!(lines_in(&ck), 2 + 64, "every code's row, once");
}

#[test]
fn sigterm_and_sighup_save_a_sequence_and_say_how_to_resume() {
    let dir = folder("signals");
    for (sig, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGHUP, "SIGHUP")] {
        let out = dir.join(format!("{name}.raw"));
        let ck = dir.join(format!("{name}.ck"));
        let args = [
            "octal",
            "4!.0",
            "-n",
            "40000000",
            "--backend",
            "cpu",
            "--format",
            "raw",
            "--out",
            s(&out),
            "--checkpoint",
            s(&ck),
            "--checkpoint-every",
            "1000",
        ];
        let child = spawn(&args, &[]);
        std::thread::sleep(Duration::from_millis(1500));
        signal(&child, sig);
        let stopped = wait_within(child, Duration::from_secs(60)).expect("stops");
        let said = stderr(&stopped);
        crate::common::assert_ended_by(&stopped.status, sig, &said);
        assert!(said.contains(&format!("interrupted by {name}")), "{said}");
        assert!(said.contains(&format!("--resume {}", s(&ck))), "{said}");
        assert!(ck.exists() && !out.exists(), "{said}");
        assert!(partials(&dir).is_empty(), "{:?}", partials(&dir));
        // Resumed to a shorter N (half of what was saved: how much that is
        // depends on how busy the machine was), the values agree with a
        // fresh run.
        let held: u64 = said
            .split("holds heaps 0..=")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("says what was saved: {said}"));
        assert!(held >= 2000, "{said}");
        let half = (held / 2).to_string();
        let resumed = dir.join(format!("{name}-resumed.csv"));
        let fresh = dir.join(format!("{name}-fresh.csv"));
        let short = [
            "octal",
            "4!.0",
            "-n",
            &half,
            "--backend",
            "cpu",
            "-q",
            "--out",
        ];
        let v = json(&grundy(
            &[&short[..], &[s(&resumed), "--resume", s(&ck), "--json"]].concat(),
        ));
        assert!(v["resumed_heaps"].as_u64().unwrap() > held / 2, "{v}");
        assert!(
            grundy(&[&short[..], &[s(&fresh)]].concat())
                .status
                .success()
        );
        assert_eq!(
            std::fs::read(&resumed).unwrap(),
            std::fs::read(&fresh).unwrap()
        );
    }
}

/// Runs grundy with its address space capped (`ulimit -v`).
fn with_address_space(bytes: u64, args: &[&str]) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args(args);
    // SAFETY: setrlimit only, between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    command.output().expect("runs")
}

/// A refusal before the run: status 2, the estimate and the limit named,
/// no panic, no file.
fn assert_refused(out: &Output, bound: &str, dir: &Path) {
    let said = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("needs about") && said.contains(bound),
        "{said}"
    );
    assert!(!said.contains("panicked") && !said.contains("memory allocation of"));
    assert!(
        std::fs::read_dir(dir).unwrap().next().is_none(),
        "no file left"
    );
}

#[test]
fn a_run_past_ulimit_v_is_refused_before_it_starts() {
    let dir = folder("ulimit");
    let big = dir.join("big.raw");
    let args = [
        "octal",
        "4!.0",
        "-n",
        "1000000000",
        "--format",
        "raw",
        "--out",
        s(&big),
    ];
    let out = with_address_space(300_000 * 1024, &args);
    assert_refused(&out, "ulimit -v", &dir);
}

/// Misère rectangles count their sums before the search: a table whose
/// sums pass the budget is refused with status 2, naming the sides that
/// fit, and the sides it names do run within the same cap. Under each of
/// several caps: glibc's per-thread arenas once took address space after
/// the budget was measured, and some caps ended in a failed allocation.
#[test]
fn misere_rectangles_past_the_budget_are_refused_after_the_count() {
    for kib in [140_000, 160_000, 180_000] {
        let out = with_address_space(kib * 1024, &["rect", "--max", "10", "--misere"]);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "ulimit -v {kib}: {said}");
    }
    let cap = 150_000 * 1024;
    let out = with_address_space(cap, &["rect", "--max", "10", "--misere"]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("counted before the search"), "{said}");
    assert!(!said.contains("panicked") && !said.contains("memory allocation of"));
    let fits = said
        .split("expected --max ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("names the sides that fit: {said}"));
    assert!(fits.parse::<u32>().unwrap() < 10, "{said}");
    let out = with_address_space(cap, &["rect", "--max", fits, "--misere", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = json(&out);
    assert!(report["sums_searched"].as_u64().unwrap() > 0, "{report}");
}

/// A memory cgroup of `bytes` below this process's own (v1 or v2), if this
/// machine lets the test make one (root, a writable hierarchy).
fn memory_cgroup(bytes: u64) -> Option<PathBuf> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let root = Path::new("/sys/fs/cgroup");
    let (base, limit_file) = if root.join("cgroup.controllers").exists() {
        let path = membership.lines().find_map(|l| l.strip_prefix("0::"))?;
        (root.join(path.trim_start_matches('/')), "memory.max")
    } else {
        let path = membership.lines().find_map(|l| {
            let mut f = l.splitn(3, ':');
            let (_, controllers, path) = (f.next()?, f.next()?, f.next()?);
            controllers
                .split(',')
                .any(|c| c == "memory")
                .then_some(path)
        })?;
        let base = root.join("memory").join(path.trim_start_matches('/'));
        (base, "memory.limit_in_bytes")
    };
    let group = base.join(format!("grundy-test-{}", std::process::id()));
    std::fs::create_dir_all(&group).ok()?;
    if std::fs::write(group.join(limit_file), bytes.to_string()).is_err() {
        let _ = std::fs::remove_dir(&group);
        return None;
    }
    Some(group)
}

/// Runs grundy with `args` inside the memory cgroup `group`; the group
/// is removed after. `None` when the child could not join it.
fn in_cgroup(group: &Path, args: &[&str]) -> Option<Output> {
    use std::os::unix::process::CommandExt;
    let procs = group.join("cgroup.procs");
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args(args);
    // SAFETY: one write of this child's pid, between fork and exec.
    unsafe {
        command.pre_exec(move || std::fs::write(&procs, std::process::id().to_string()));
    }
    let out = command.output();
    let _ = std::fs::remove_dir(group);
    match out {
        Ok(out) => Some(out),
        Err(e) => {
            eprintln!("SKIPPED the cgroup part: the child could not join it ({e})");
            None
        }
    }
}

#[test]
fn a_run_past_its_memory_cgroup_is_refused_before_it_starts() {
    let Some(group) = memory_cgroup(400 << 20) else {
        eprintln!("SKIPPED the cgroup part: this machine does not let the test make one");
        return;
    };
    let dir = folder("cgroup");
    let big = dir.join("big.raw");
    // The brute force holds its table in memory: no file can take it.
    let args = [
        "octal",
        "0.6",
        "-n",
        "1000000000",
        "--algorithm",
        "naive",
        "--format",
        "raw",
        "--out",
        s(&big),
    ];
    if let Some(out) = in_cgroup(&group, &args) {
        assert_refused(&out, "memory cgroup", &dir);
    }
}

#[test]
fn a_table_larger_than_its_memory_cgroup_goes_to_a_file_and_is_the_same() {
    let Some(group) = memory_cgroup(40 << 20) else {
        eprintln!("SKIPPED the cgroup part: this machine does not let the test make one");
        return;
    };
    let dir = folder("paged");
    let (paged, whole) = (dir.join("paged.raw"), dir.join("whole.raw"));
    let run = |out: &Path| {
        let n = "8388607";
        [
            "octal",
            "4!.0",
            "-n",
            n,
            "--backend",
            "cpu",
            "--format",
            "raw",
            "--out",
            s(out),
        ]
        .map(String::from)
    };
    let args = run(&paged);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let Some(out) = in_cgroup(&group, &args) else {
        return;
    };
    let said = stderr(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("its values go to a file"), "{said}");
    let args = run(&whole);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(grundy(&args).status.success());
    assert!(std::fs::read(&paged).unwrap() == std::fs::read(&whole).unwrap());
}

#[test]
fn a_failed_allocation_is_one_line_and_the_checkpoint_is_saved_first() {
    let dir = folder("oom");
    let (out, ck) = (dir.join("g.raw"), dir.join("g.ck"));
    let args = [
        "octal",
        "4!.0",
        "-n",
        "3000000",
        "--backend",
        "cpu",
        "--format",
        "raw",
        "--out",
        s(&out),
        "--checkpoint",
        s(&ck),
        "-q",
    ];
    // The table's room for a block past 1 MiB cannot be had.
    let failing = [("GRUNDY_FAIL_ALLOCATIONS_OVER", "1048576")];
    let failed = wait_within(spawn(&args, &failing), Duration::from_secs(120)).unwrap();
    let said = stderr(&failed);
    assert_eq!(failed.status.code(), Some(1), "{said}");
    assert!(said.starts_with("error: out of memory"), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains(&format!("continue with --resume {}", s(&ck))),
        "{said}"
    );
    assert!(!out.exists() && partials(&dir).is_empty());
    // The checkpoint resumes to the table a run with memory makes.
    let resumed = grundy(&[&args[..9], &[s(&out), "--resume", s(&ck), "-q"]].concat());
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let whole = dir.join("whole.raw");
    assert!(
        grundy(&[&args[..9], &[s(&whole), "-q"]].concat())
            .status
            .success()
    );
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    // An allocation no path can do without ends the run with one line too,
    // and no partial file is left.
    let csv = dir.join("filled.csv");
    let fill = ["octal", "0.07", "-n", "5000000", "--out", s(&csv), "-q"];
    let failed = wait_within(spawn(&fill, &failing), Duration::from_secs(120)).unwrap();
    let said = stderr(&failed);
    assert_eq!(failed.status.code(), Some(1), "{said}");
    assert!(
        said.starts_with("error: out of memory: an allocation of"),
        "{said}"
    );
    assert_eq!(said.trim_end().lines().count(), 1, "{said}");
    assert!(
        !csv.exists() && partials(&dir).is_empty(),
        "{:?}",
        partials(&dir)
    );
}

#[test]
fn stale_partials_of_stopped_runs_are_removed_by_the_next_run() {
    let dir = folder("stale");
    let out = dir.join("t.csv");
    // A run killed on this host (a pid that cannot be live), one from an
    // older build (pid only), and another output's partial.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dead = (1u32 << 22) + 11;
    let stale = [
        format!(".t.csv.partial-{host}-{dead}"),
        format!(".t.csv.partial-{dead}"),
    ];
    for name in &stale {
        std::fs::write(dir.join(name), b"half a table").unwrap();
    }
    std::fs::write(dir.join(format!(".u.csv.partial-{dead}")), b"x").unwrap();
    let ran = grundy(&["octal", "0.07", "-n", "100", "--out", s(&out), "-q"]);
    assert!(ran.status.success());
    let said = stderr(&ran);
    assert_eq!(
        said.matches("left by a run that was stopped").count(),
        2,
        "{said}"
    );
    assert_eq!(partials(&dir), [format!(".u.csv.partial-{dead}")]);
}

#[test]
fn a_log_file_gets_progress_lines() {
    let dir = folder("log");
    let ck = dir.join("g.ck");
    let run = |extra: &[&str]| {
        let args = [
            "octal",
            "4!.0",
            "-n",
            "4000000",
            "--backend",
            "cpu",
            "--checkpoint",
            s(&ck),
            "--checkpoint-every",
            "0.1",
        ];
        let _ = std::fs::remove_file(&ck);
        // stderr is a pipe here, not a terminal: a log file.
        let out = grundy(&[&args[..], extra].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    let log = run(&["--log-every", "0.1"]);
    let lines: Vec<&str> = log.lines().filter(|l| l.contains(" heaps/s")).collect();
    assert!(!lines.is_empty(), "{log}");
    for line in &lines {
        assert!(
            line.contains("of 4000001 heaps (") && line.contains("resident"),
            "{line}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("left") && l.contains("last checkpoint")),
        "{log}"
    );
    assert!(!run(&["--log-every", "0"]).contains("heaps/s"));
    assert!(!run(&["--log-every", "0.1", "-q"]).contains("heaps/s"));
    let bad = grundy(&["octal", "0.07", "-n", "10", "--log-every=-1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("--log-every -1"), "{}", stderr(&bad));
}

#[test]
fn a_sequence_killed_again_and_again_resumes_to_the_same_table() {
    let dir = folder("kill-9");
    let (whole, out, ck) = (
        dir.join("whole.raw"),
        dir.join("out.raw"),
        dir.join("run.ck"),
    );
    let args = |out: &Path, extra: &[&str]| -> Vec<String> {
        let base = [
            "octal",
            "0.6",
            "-n",
            "3000000",
            "--backend",
            "cpu",
            "--format",
            "raw",
            "-q",
        ];
        let mut all: Vec<String> = base.iter().map(|a| a.to_string()).collect();
        all.extend(["--out".to_string(), s(out).to_string()]);
        all.extend(extra.iter().map(|a| a.to_string()));
        all
    };
    let run = |a: Vec<String>| grundy(&a.iter().map(|a| a.as_str()).collect::<Vec<_>>());
    assert!(run(args(&whole, &[])).status.success());
    let every = ["--checkpoint-every", "0.02"];
    let mut kills = 0;
    for (round, wait) in moments(11, 6, 500).into_iter().enumerate() {
        let resume = ["--resume", s(&ck)];
        let extra = if round == 0 {
            [&["--checkpoint", s(&ck)][..], &every].concat()
        } else {
            [&resume[..], &every].concat()
        };
        let a = args(&out, &extra);
        let child = spawn(&a.iter().map(|a| a.as_str()).collect::<Vec<_>>(), &[]);
        let start = Instant::now();
        while !ck.exists() && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::thread::sleep(wait);
        signal(&child, libc::SIGKILL);
        let ended = wait_within(child, Duration::from_secs(60)).unwrap();
        if ended.status.success() {
            break;
        }
        kills += 1;
    }
    assert!(kills >= 2, "the run finished before its kills");
    let done = run(args(&out, &["--resume", s(&ck)]));
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    assert!(partials(&dir).is_empty(), "{:?}", partials(&dir));
}

#[test]
fn a_checkpoint_of_the_whole_table_format_is_resumed_and_then_appended_to() {
    let dir = folder("v2");
    let ck = dir.join("old.ck");
    // Format v2, as earlier builds wrote it: 0.07 to heap 2999.
    let g: Vec<u8> = grundy(&[
        "octal", "0.07", "-n", "2999", "--format", "digits", "--out", "-",
    ])
    .stdout
    .iter()
    .filter(|c| c.is_ascii_alphanumeric())
    .map(|&c| (c as char).to_digit(36).unwrap() as u8)
    .collect();
    assert_eq!(g.len(), 3000);
    let header = "{\"format\":\"grundy checkpoint v2\",\"code\":\"0.07\",\"min_diff\":0,\"heaps\":3000,\"bytes_per_value\":1}\n";
    let mut bytes = [header.as_bytes(), &g].concat();
    bytes.extend_from_slice(&crc32(&bytes).to_le_bytes());
    std::fs::write(&ck, bytes).unwrap();
    let (resumed, fresh) = (dir.join("r.csv"), dir.join("f.csv"));
    let more = ["octal", "0.07", "-n", "20000", "--no-fill", "-q", "--out"];
    let out = grundy(&[&more[..], &[s(&resumed), "--resume", s(&ck), "--json"]].concat());
    assert_eq!(json(&out)["resumed_heaps"], 3000);
    assert!(grundy(&[&more[..], &[s(&fresh)]].concat()).status.success());
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&fresh).unwrap()
    );
    let text = std::fs::read(&ck).unwrap();
    assert!(text.starts_with(b"{\"format\":\"grundy checkpoint v3\""));
}
