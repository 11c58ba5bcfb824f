//! Runs a researcher can trust: the default backend, Ctrl-C and
//! checkpoints, outputs that never destroy anything, checked estimates,
//! and the table filled from a certified period.

use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use crate::common::{grundy, json, partials, skip_without_gpu, tmp, wait_within};
use grundy::internals::gpu::Runner;

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_input_error(out: &Output, expected: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert!(stderr(out).contains(expected), "{}", stderr(out));
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts")
}

/// Sends Ctrl-C after `after`, then waits at most `limit` for the run to end.
#[cfg(unix)]
fn interrupt(child: Child, after: Duration, limit: Duration) -> Output {
    std::thread::sleep(after);
    // SAFETY: signals a child process this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    wait_within(child, limit)
        .unwrap_or_else(|| panic!("the run did not stop within {limit:?} of Ctrl-C"))
}

/// Runs grundy with `args` and `--checkpoint NAME` (a fresh scratch file),
/// presses Ctrl-C after `after`, and checks the run stopped within `limit`
/// with status 130, saying which heaps the checkpoint holds. Returns the
/// checkpoint and that count.
#[cfg(unix)]
fn interrupt_checkpointed(
    name: &str,
    args: &[&str],
    after: Duration,
    limit: Duration,
) -> (std::path::PathBuf, u64) {
    let ck = tmp(name);
    let _ = std::fs::remove_file(&ck);
    let child = spawn(&[args, &["--checkpoint", ck.to_str().unwrap()]].concat());
    let out = interrupt(child, after, limit);
    crate::common::assert_ended_by(&out.status, libc::SIGINT, &stderr(&out));
    let message = stderr(&out);
    let heaps: u64 = message
        .split("holds heaps 0..=")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the message says what was saved: {message}"));
    (ck, heaps)
}

#[test]
fn auto_leaves_small_jobs_on_the_cpu_without_looking_for_a_gpu() {
    // Each below the size where a real GPU pays (engine::GpuFrom), and
    // rare values at any size: no probe, so no word of any GPU, whatever
    // this machine has.
    for args in [
        vec![
            "octal",
            "0.07",
            "-n",
            "2000",
            "--algorithm",
            "naive",
            "--no-fill",
        ],
        vec!["octal", "0.6", "-n", "1048576"],
        vec!["rect", "--max", "6"],
        vec![
            "delete-nim",
            "--rule",
            "single",
            "--heaps",
            "3",
            "--max",
            "8",
        ],
        vec!["survey", "--digits", "1", "-n", "100"],
        vec!["graph", "0.33", "--graph", "grid:2x3", "--solver", "dense"],
    ] {
        let out = grundy(&[&args[..], &["--json"]].concat());
        assert_eq!(json(&out)["backend"], "cpu", "{args:?}");
        assert!(!stderr(&out).contains("GPU"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn auto_never_runs_on_a_software_adapter() {
    let ctx = match Runner::open() {
        Ok(Some(ctx)) => ctx,
        _ => return skip_without_gpu("auto_never_runs_on_a_software_adapter", "no adapter"),
    };
    // A dense table of 2^24 positions: work a GPU takes, were it a real one.
    let args = [
        "graph", "0.03", "--graph", "grid:4x6", "--solver", "dense", "--json",
    ];
    let out = grundy(&args);
    let summary = json(&out);
    if ctx.is_software() {
        assert_eq!(summary["backend"], "cpu", "{summary}");
        let notice = stderr(&out);
        assert!(notice.contains("only a software GPU"), "{notice}");
        assert_eq!(notice.matches("software").count(), 1, "said once: {notice}");
        // bench: auto times the CPU alone; gpu labels llvmpipe's columns.
        let bench =
            |backend: &str| grundy(&["bench", "--quick", "--only", "tables", "--backend", backend]);
        let out = bench("auto");
        assert!(String::from_utf8_lossy(&out.stdout).contains("GPU: none"));
        let out = bench("gpu");
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(
            table.contains("software adapter") && table.contains("sw-gpu s"),
            "{table}"
        );
        let forced = grundy(&["rect", "--max", "6", "--backend", "gpu", "--json"]);
        assert_eq!(json(&forced)["backend"], "gpu");
        assert!(
            stderr(&forced).contains("is a software adapter"),
            "{}",
            stderr(&forced)
        );
    } else {
        // A real GPU: auto takes it for a table this large.
        assert_eq!(summary["backend"], "gpu", "{summary}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_on_the_cpu_brute_force_saves_a_checkpoint_that_resumes() {
    let out_csv = tmp("brute.csv");
    let (ck, heaps) = interrupt_checkpointed(
        "brute.ck",
        &[
            "octal",
            "0.07",
            "-n",
            "400000",
            "--backend",
            "cpu",
            "--algorithm",
            "naive",
            "--no-fill",
            "--out",
            out_csv.to_str().unwrap(),
        ],
        Duration::from_millis(2500),
        Duration::from_secs(20),
    );
    assert!(heaps > 0 && heaps < 400000, "{heaps}");
    assert!(
        !out_csv.exists(),
        "an interrupted table is never left looking whole"
    );
    assert!(partials(ck.parent().unwrap()).is_empty());
    // The checkpoint holds exactly what the message said, and resumes.
    let resumed = grundy(&[
        "octal",
        "0.07",
        "-n",
        &heaps.to_string(),
        "--backend",
        "cpu",
        "--resume",
        ck.to_str().unwrap(),
        "--json",
    ]);
    let summary = json(&resumed);
    assert_eq!(summary["resumed_heaps"], heaps + 1);
    assert_eq!(summary["period"], 34);
}

#[cfg(unix)]
#[test]
fn ctrl_c_on_rare_values_saves_too() {
    let (ck, _) = interrupt_checkpointed(
        "rare.ck",
        &[
            "octal",
            "0.137",
            "-n",
            "300000000",
            "--backend",
            "cpu",
            "--algorithm",
            "rare",
            "--no-fill",
        ],
        Duration::from_millis(1500),
        Duration::from_secs(20),
    );
    let resumed = grundy(&[
        "octal",
        "0.137",
        "-n",
        "1000",
        "--resume",
        ck.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(json(&resumed)["period"], 34);
}

#[cfg(unix)]
#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn ctrl_c_on_the_gpu_brute_force_saves() {
    if !matches!(Runner::open(), Ok(Some(_))) {
        return skip_without_gpu("ctrl_c_on_the_gpu_brute_force_saves", "no adapter");
    }
    let (ck, _) = interrupt_checkpointed(
        "gpu.ck",
        &[
            "octal",
            "0.07",
            "-n",
            "2000000",
            "--backend",
            "gpu",
            "--algorithm",
            "naive",
            "--no-fill",
        ],
        Duration::from_millis(4000),
        Duration::from_secs(30),
    );
    let resumed = grundy(&[
        "octal",
        "0.07",
        "-n",
        "100",
        "--resume",
        ck.to_str().unwrap(),
        "--json",
    ]);
    assert!(json(&resumed)["resumed_heaps"].as_u64().unwrap() > 0);
}

#[cfg(unix)]
#[test]
fn ctrl_c_without_a_checkpoint_leaves_no_partial_file() {
    let dir = tmp("nock");
    std::fs::create_dir_all(&dir).unwrap();
    let out_csv = dir.join("t.csv");
    let child = spawn(&[
        "octal",
        "0.07",
        "-n",
        "400000",
        "--backend",
        "cpu",
        "--algorithm",
        "naive",
        "--no-fill",
        "--out",
        out_csv.to_str().unwrap(),
    ]);
    let out = interrupt(child, Duration::from_millis(1500), Duration::from_secs(10));
    crate::common::assert_ended_by(&out.status, libc::SIGINT, &stderr(&out));
    assert!(!out_csv.exists());
    assert!(partials(&dir).is_empty(), "{:?}", partials(&dir));
}

#[test]
fn resuming_to_a_smaller_n_leaves_the_checkpoint_as_it_was() {
    let ck = tmp("big.ck");
    let _ = std::fs::remove_file(&ck);
    let made = grundy(&[
        "octal",
        "0.07",
        "-n",
        "8000",
        "--backend",
        "cpu",
        "--no-fill",
        "--checkpoint",
        ck.to_str().unwrap(),
        "-q",
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let before = std::fs::read(&ck).unwrap();
    let small = grundy(&[
        "octal",
        "0.07",
        "-n",
        "3000",
        "--resume",
        ck.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(json(&small)["n"], 3000);
    assert_eq!(
        std::fs::read(&ck).unwrap(),
        before,
        "the checkpoint was rewritten"
    );
}

#[test]
fn a_damaged_checkpoint_is_refused_naming_the_file() {
    let ck = tmp("damaged.ck");
    let _ = std::fs::remove_file(&ck);
    let made = grundy(&[
        "octal",
        "0.16",
        "-n",
        "3000",
        "--checkpoint",
        ck.to_str().unwrap(),
        "-q",
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let mut bytes = std::fs::read(&ck).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x10;
    std::fs::write(&ck, &bytes).unwrap();
    let out = grundy(&[
        "octal",
        "0.16",
        "-n",
        "4000",
        "--resume",
        ck.to_str().unwrap(),
    ]);
    assert_input_error(&out, "checksum mismatch");
    assert!(stderr(&out).contains(ck.to_str().unwrap()));
}

#[test]
fn outputs_are_checked_before_any_work() {
    let dir = tmp("clash");
    std::fs::create_dir_all(&dir).unwrap();
    let same = dir.join("x.csv");
    let s = same.to_str().unwrap();
    let out = grundy(&["octal", "0.07", "-n", "100", "--out", s, "--p-out", s]);
    assert_input_error(&out, "--p-out");
    assert!(!same.exists(), "nothing is written when outputs clash");
    let out = grundy(&["octal", "0.07", "-n", "100", "--out", dir.to_str().unwrap()]);
    assert_input_error(&out, "is a folder");
    let out = grundy(&[
        "rect",
        "--max",
        "5",
        "--plot",
        "/proc/grundy/x.svg",
        "--backend",
        "cpu",
    ]);
    assert_input_error(&out, "--plot /proc/grundy/x.svg");
    let ck = dir.join("c.ck");
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "100",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--rare-out",
        ck.to_str().unwrap(),
    ]);
    assert_input_error(&out, "writes there too");
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_links_are_written_into_never_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tmp("nodes");
    std::fs::create_dir_all(&dir).unwrap();
    // /dev/null stays the machine's null device.
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "50",
        "--out",
        "/dev/null",
        "--p-out",
        "/dev/null",
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let null = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(null.file_type().is_char_device(), "/dev/null was replaced");
    // A FIFO gets the table through it.
    let fifo = dir.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path and mode.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "20",
        "--out",
        fifo.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = reader.join().unwrap();
    assert!(
        text.starts_with("n,g\n0,0\n1,0\n2,1\n") && text.ends_with("20,3\n"),
        "{text}"
    );
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A link is followed: the target gets the table and the link stays.
    let target = dir.join("target.csv");
    let link = dir.join("link.csv");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "20",
        "--out",
        link.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
    // /dev/stdout is the process's stdout, written as - is.
    let out = grundy(&["octal", "0.07", "-n", "20", "--out", "/dev/stdout"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_behind_stdout_or_a_file_is_an_error_not_a_panic() {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["octal", "0.07", "-n", "100", "--json"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("writing to stdout"),
        "{}",
        stderr(&out)
    );
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "100000",
        "--out",
        "/dev/full",
        "--no-fill",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

#[test]
fn arrows_on_one_graph_writes_its_row() {
    let path = tmp("arrows.csv");
    let out = grundy(&[
        "arrows",
        "--graph",
        "pode:2,3,4",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "graph,vertices,edges,state,g,outcome\n\"pode:2,3,4\",10,9,,0,P\n"
    );
}

#[test]
fn values_past_255_and_huge_requests_get_answers_or_clear_errors() {
    // A path of 260 vertices has 259 edges: the first player wins (G = 1,
    // the parity of the edges, as on every path the dense solver checks).
    let out = grundy(&["arrows", "--graph", "path:260", "--json"]);
    assert_eq!(json(&out)["g"], 1);
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "10",
        "--checkpoint-every",
        "1e30",
        "--checkpoint",
        tmp("e.ck").to_str().unwrap(),
    ]);
    assert_input_error(&out, "--checkpoint-every 1e30");
    let out = grundy(&["graph", "0.33", "--graph", "path:64", "--solver", "dense"]);
    assert_input_error(&out, "2^64 bytes (16.0 EiB)");
    let out = grundy(&["rect", "--dims", "3", "--max", "5000000"]);
    assert_input_error(&out, "20833345833335000000 positions");
    let out = grundy(&["survey", "--digits", "1", "-n", "18446744073709551615"]);
    assert_input_error(
        &out,
        "-n 18446744073709551615 is too large; expected at most",
    );
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "5",
        "--until-periodic",
        "--max-n",
        "3",
    ]);
    assert_input_error(&out, "-n 5 is above --max-n 3");
}

#[test]
fn input_files_are_read_with_bounds_and_bad_lines_named() {
    let codes = tmp("codes.txt");
    std::fs::write(&codes, "0.07\n# a comment\n\n0.1%\n").unwrap();
    let out = grundy(&["survey", "--codes", codes.to_str().unwrap(), "-n", "50"]);
    assert_input_error(&out, "line 4: '0.1%' is not a code");
    // A gigabyte without a newline (a sparse file) is refused unread.
    let big = tmp("big.txt");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(1 << 30).unwrap();
    for args in [
        vec!["survey", "--codes", big.to_str().unwrap(), "-n", "50"],
        vec![
            "graph",
            "0.33",
            "--graph",
            &format!("edges:{}", big.display()),
        ],
    ] {
        let out = grundy(&args);
        assert_input_error(&out, "1073741824 bytes; expected at most");
        assert!(out.stderr.len() < 400, "{}", stderr(&out));
    }
    let long = tmp("long.txt");
    std::fs::write(&long, "1 ".repeat(100_000)).unwrap();
    let out = grundy(&[
        "graph",
        "0.33",
        "--graph",
        &format!("edges:{}", long.display()),
    ]);
    assert_input_error(&out, "line 1 is longer than 1024 bytes");
    assert!(out.stderr.len() < 400, "{}", stderr(&out));
}

/// Codes whose periods the tests know (Guy–Smith certifies each).
const SOLVED: [&str; 8] = [
    "0.07", "0.137", "0.17", "0.35", "0.51", "0.77", "0.3033", "4.7",
];

#[test]
fn a_table_filled_from_a_certified_period_equals_the_computed_one() {
    for code in SOLVED {
        let filled = tmp(&format!("filled-{code}.csv"));
        let computed = tmp(&format!("computed-{code}.csv"));
        let out = grundy(&[
            "octal",
            code,
            "-n",
            "30000",
            "--backend",
            "cpu",
            "--out",
            filled.to_str().unwrap(),
            "--json",
        ]);
        let summary = json(&out);
        assert!(
            summary["filled_from"].as_u64().is_some(),
            "{code}: {summary}"
        );
        assert!(stderr(&out).contains("filled from it"), "{}", stderr(&out));
        let out = grundy(&[
            "octal",
            code,
            "-n",
            "30000",
            "--backend",
            "cpu",
            "--no-fill",
            "--out",
            computed.to_str().unwrap(),
            "--json",
        ]);
        assert!(json(&out)["filled_from"].is_null());
        assert_eq!(
            std::fs::read(&filled).unwrap(),
            std::fs::read(&computed).unwrap(),
            "{code}: the filled table differs from the computed one"
        );
    }
    // An apparent period (the theorem does not cover `!`) never fills.
    let out = grundy(&["octal", "4!.0", "-n", "5000", "--backend", "cpu", "--json"]);
    assert!(json(&out)["filled_from"].is_null());
}

/// The book's recipe for `--format raw` (docs/formats.md), as a reader types it.
const RAW_RECIPE: &str = "  with open(\"table.raw\", \"rb\") as f:\n      f.readline()\n      g = numpy.fromfile(f, dtype=\"<u2\")\n";

#[test]
fn a_raw_table_reads_back_as_the_book_says() {
    let formats =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/formats.md")).unwrap();
    assert!(
        formats.contains(RAW_RECIPE),
        "the raw recipe in docs/formats.md changed: update this test"
    );
    let raw = tmp("table.raw");
    let csv = tmp("table.csv");
    for (path, format) in [(&raw, "raw"), (&csv, "csv")] {
        let out = grundy(&[
            "octal",
            "0.1777",
            "-n",
            "3000",
            "--backend",
            "cpu",
            "--format",
            format,
            "--out",
            path.to_str().unwrap(),
            "-q",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let expected: Vec<u16> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    // f.readline(): up to and including the first newline; then every u16, little-endian.
    let bytes = std::fs::read(&raw).unwrap();
    let body = &bytes[bytes.iter().position(|&b| b == b'\n').unwrap() + 1..];
    let values: Vec<u16> = body
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(values, expected);
    // Where Python has numpy, the recipe itself.
    let script = format!(
        "import numpy\n{}\nprint(','.join(map(str, g)))\n",
        RAW_RECIPE
            .replace("\n  ", "\n")
            .trim_start()
            .replace("table.raw", raw.to_str().unwrap())
    );
    match Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
    {
        Ok(probe) if probe.status.success() => {
            let out = Command::new("python3")
                .args(["-c", &script])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
            let got: Vec<u16> = String::from_utf8_lossy(&out.stdout)
                .trim()
                .split(',')
                .map(|v| v.parse().unwrap())
                .collect();
            assert_eq!(got, expected, "numpy read the raw table differently");
        }
        _ => {
            eprintln!("SKIPPED the numpy half of a_raw_table_reads_back_as_the_book_says: no numpy")
        }
    }
}

#[test]
fn papers_are_cited_by_author_and_title() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("## References") && readme.contains("Dailly, *Octal games on graphs*"));
    let mut texts = vec![readme];
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    for chapter in std::fs::read_dir(docs).unwrap() {
        texts.push(std::fs::read_to_string(chapter.unwrap().path()).unwrap());
    }
    assert!(texts.len() > 10, "the book's chapters are missing");
    for command in [
        "",
        "graph",
        "podes",
        "bipodes",
        "rect",
        "delete-nim",
        "arrows",
        "hackenbush",
    ] {
        let args: Vec<&str> = [command, "--help"]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        texts.push(String::from_utf8_lossy(&grundy(&args).stdout).into_owned());
    }
    for text in &texts {
        assert!(
            !text.to_lowercase().contains("seed 0"),
            "a file number, not a paper: {}",
            &text[..text.len().min(200)]
        );
    }
}

#[test]
fn frequent_checkpoints_never_stall_the_general_engine() {
    // The general engine (moves leaving three heaps) restarts from heap 0 on
    // every call: a checkpoint due every 0.2 s must not make it start over forever.
    let ck = tmp("general.ck");
    let _ = std::fs::remove_file(&ck);
    let child = spawn(&[
        "octal",
        "0.F",
        "-n",
        "6000",
        "--backend",
        "cpu",
        "--no-fill",
        "--checkpoint",
        ck.to_str().unwrap(),
        "--checkpoint-every",
        "0.2",
        "--json",
    ]);
    let out = wait_within(child, Duration::from_secs(120)).expect("the run finishes");
    let summary = json(&out);
    assert_eq!(
        (summary["n"].as_u64(), summary["engine"].as_str()),
        (Some(6000), Some("general"))
    );
}

/// A library caller's stop (Ctrl-C in Python says so through `stop`)
/// ends a run on the general engine too, which cannot pause (it starts
/// from heap 0 on each call): the run ends with `Stopped` within its next
/// 1024 heaps instead of computing to the end first.
#[test]
fn a_callers_stop_ends_the_general_engine() {
    use grundy::hooks::RunHooks;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    /// Says stop from the third time it is asked on; keeps the most heaps
    /// reported done.
    #[derive(Default)]
    struct StopSoon {
        asked: AtomicU64,
        done: AtomicU64,
    }
    impl RunHooks for StopSoon {
        fn progress(&self, done: u64) {
            self.done.fetch_max(done, Relaxed);
        }
        fn stop(&self) -> bool {
            self.asked.fetch_add(1, Relaxed) >= 2
        }
    }
    let sequence = grundy::Sequence::octal("0.F")
        .unwrap()
        .fill(false)
        .heaps(12_000);
    let hooks = StopSoon::default();
    match sequence.run_with(&hooks) {
        Err(grundy::error::Error::Stopped(message)) => assert!(!message.is_empty()),
        Err(other) => panic!("ended with {other}"),
        Ok(table) => panic!("ran to heap {} on {:?}", table.len(), table.engine()),
    }
    let done = hooks.done.load(Relaxed);
    assert!(
        done < 8_000,
        "the general engine went on to heap {done} after the stop"
    );
}
