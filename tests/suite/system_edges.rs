//! The edges of the system a run meets: its standard output named as a
//! file, `nohup`, a terminal gone while it runs, files the user protected,
//! disks named by mistake, and a machine with no display session.

use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::common::{grundy, tmp, wait_within};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `--out /dev/stdout` (and `/dev/fd/1`, `/proc/self/fd/1`) into a file
/// behind `>` writes what `--out -` writes: the table alone, through fd 1
/// (a second handle on the file began at its offset 0, and the summary
/// written through fd 1 after it landed over the table's first rows).
#[test]
fn the_names_of_stdout_write_what_dash_writes() {
    let dir = tmp("stdout-names");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, k: usize| {
        let into = dir.join(format!("out-{k}.csv"));
        let file = std::fs::File::create(&into).unwrap();
        let status = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["octal", "0.07", "-n", "1000", "--out", name])
            .stdout(file)
            .status()
            .unwrap();
        assert!(status.success(), "--out {name}");
        std::fs::read_to_string(into).unwrap()
    };
    let dash = run("-", 0);
    assert!(
        dash.starts_with("n,g\n0,0\n") && dash.ends_with("999,2\n1000,4\n"),
        "{dash}"
    );
    for (k, name) in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
        .iter()
        .enumerate()
    {
        if std::path::Path::new(name).exists() {
            assert_eq!(run(name, k + 1), dash, "--out {name}");
        }
    }
    // As with -, --json cannot share stdout with the table.
    let out = grundy(&[
        "octal",
        "0.07",
        "-n",
        "20",
        "--out",
        "/dev/stdout",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("both write to stdout"),
        "{}",
        stderr(&out)
    );
}

/// A command that runs a few seconds, its table to `out`.
fn long_run(out: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    let out = out.to_str().unwrap();
    let args = [
        "octal",
        "4!.0",
        "-n",
        "3000000",
        "--backend",
        "cpu",
        "-q",
        "--out",
        out,
    ];
    command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// Under `nohup` (SIGHUP ignored when the run starts) a hang-up leaves the
/// run going to its end; without it, the same hang-up ends the run.
#[test]
fn sighup_ignored_at_start_stays_ignored() {
    let dir = tmp("nohup");
    std::fs::create_dir_all(&dir).unwrap();
    let hang_up = |mut command: Command| {
        let child = command.spawn().unwrap();
        std::thread::sleep(Duration::from_millis(400));
        // SAFETY: signals a child this test started.
        unsafe { libc::kill(child.id() as i32, libc::SIGHUP) };
        wait_within(child, Duration::from_secs(120)).expect("the run ends")
    };
    let table = dir.join("kept.csv");
    let mut nohup = long_run(&table);
    // SAFETY: only a signal disposition is set between fork and exec.
    unsafe {
        nohup.pre_exec(|| {
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            Ok(())
        })
    };
    let out = hang_up(nohup);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows = std::fs::read_to_string(&table).unwrap().lines().count();
    assert_eq!(rows, 3_000_002, "the header and every heap");
    let ended = hang_up(long_run(&dir.join("ended.csv")));
    crate::common::assert_ended_by(&ended.status, libc::SIGHUP, &stderr(&ended));
    assert!(!dir.join("ended.csv").exists());
}

/// With its stderr failing every write (here /dev/full: ENOSPC, as a log
/// on a full disk; a terminal gone with its ssh session fails with EIO),
/// SIGTERM still ends a run at once, by SIGTERM: the signal thread's message
/// cannot be written, and it goes on to end the process instead of dying
/// with a panic.
#[test]
fn a_run_whose_stderr_fails_still_ends_on_sigterm() {
    let dir = tmp("dead-stderr");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("t.csv");
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("SKIPPED a_run_whose_stderr_fails_still_ends_on_sigterm: no /dev/full");
        return;
    };
    let child = long_run(&table).stderr(full).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(400));
    // SAFETY: signals a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out =
        wait_within(child, Duration::from_secs(20)).expect("the run ended within 20 s of SIGTERM");
    crate::common::assert_ended_by(&out.status, libc::SIGTERM, "");
    assert!(!table.exists());
}

/// A file the user made read-only is not replaced (as `cp` and `>` refuse
/// it): status 2, the file named, its bytes kept; `--force` replaces it.
#[test]
fn a_read_only_target_is_refused() {
    let dir = tmp("read-only");
    std::fs::create_dir_all(&dir).unwrap();
    let kept = dir.join("kept.csv");
    std::fs::write(&kept, "mine\n").unwrap();
    let mut permissions = std::fs::metadata(&kept).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&kept, permissions).unwrap();
    let out = grundy(&["octal", "0.07", "-n", "20", "--out", kept.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains("kept.csv") && message.contains("read-only"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine\n");
    // --force replaces it, as `cp -f` would
    let forced = grundy(&[
        "octal",
        "0.07",
        "-n",
        "20",
        "--force",
        "-q",
        "--out",
        kept.to_str().unwrap(),
    ]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert!(
        std::fs::read_to_string(&kept)
            .unwrap()
            .starts_with("n,g\n0,0\n")
    );
}

/// A block device (a disk) named as an output is refused before any work,
/// root or not. Skipped where /dev holds none (some containers).
#[test]
fn a_block_device_is_refused() {
    use std::os::unix::fs::FileTypeExt;
    let disk = std::fs::read_dir("/dev").ok().and_then(|entries| {
        entries
            .filter_map(|e| e.ok())
            .find(|e| e.file_type().is_ok_and(|t| t.is_block_device()))
    });
    let Some(disk) = disk else {
        eprintln!("SKIPPED a_block_device_is_refused: /dev holds no block device here");
        return;
    };
    let path = disk.path();
    let out = grundy(&["octal", "0.07", "-n", "20", "--out", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("block device"), "{}", stderr(&out));
}

/// On a machine with no display session Mesa's device-select layer printed
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` each
/// time grundy looked for an adapter, on runs that succeeded.
#[test]
fn looking_for_a_gpu_without_a_display_session_prints_no_driver_complaint() {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["octal", "0.07", "-n", "300", "--algorithm", "naive"])
        .args(["--backend", "gpu", "-q", "--out", "/dev/null"])
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("NODEVICE_SELECT")
        .output()
        .unwrap();
    if out.status.code() == Some(2) && stderr(&out).contains("no GPU adapter") {
        crate::common::skip_without_gpu(
            "looking_for_a_gpu_without_a_display_session_prints_no_driver_complaint",
            "no GPU adapter",
        );
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("XDG_RUNTIME_DIR"),
        "{}",
        stderr(&out)
    );
}

/// A table kept in a file whose disk fills (`GRUNDY_FAIL_TABLE_FILE_OVER`
/// stands for the disk) ends the command with one line naming the folder,
/// status 1, and no partial file; the Python module raises instead
/// (python/tests).
#[test]
fn a_full_disk_under_a_table_in_a_file_ends_the_run_cleanly() {
    let dir = tmp("full-disk");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("g.raw");
    let failed = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["octal", "0.007", "--algorithm", "naive", "-n", "60000"])
        .args([
            "--backend",
            "cpu",
            "--memory",
            "16K",
            "--format",
            "raw",
            "-q",
            "--out",
        ])
        .arg(&out)
        .env("GRUNDY_FAIL_TABLE_FILE_OVER", "40000")
        .output()
        .unwrap();
    let said = stderr(&failed);
    assert_eq!(failed.status.code(), Some(1), "{said}");
    let folder = dir.display().to_string();
    assert!(
        said.starts_with(&format!(
            "error: the table's file in {folder} could not grow"
        )),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "{said}");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
