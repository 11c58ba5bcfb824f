//! Helpers shared by the integration tests.
#![allow(dead_code)]

use grundy::setting::Marked;
use std::path::PathBuf;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use grundy::game::Code;
use grundy::internals::engine::Backend;
use grundy::internals::gpu::Runner;

/// Runs the `grundy` binary with `args`.
pub fn grundy(args: &[&str]) -> Output {
    grundy_with_env(args, &[])
}

/// What `grundy args` prints on stdout; fails the test, with its stderr,
/// unless it succeeds.
pub fn grundy_stdout(args: &[&str]) -> String {
    let out = grundy(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `grundy` with these environment variables set.
pub fn grundy_with_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("runs")
}

/// Waits at most `limit` for `child` to end: its output, or `None` (and the
/// child killed) when it ran past the limit.
pub fn wait_within(mut child: Child, limit: Duration) -> Option<Output> {
    let start = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().expect("ends"))
}

/// A path in this test's own scratch directory (the harness names each
/// test's thread after the test, so tests running side by side never
/// share a file or a folder). The first call removes the directories
/// earlier runs left (about 100 MB each).
pub fn tmp(name: &str) -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(remove_stale_scratch);
    let test = std::thread::current()
        .name()
        .unwrap_or("shared")
        .replace("::", ".");
    let dir = std::env::temp_dir()
        .join(format!("{}{}", scratch_prefix(), std::process::id()))
        .join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn scratch_prefix() -> String {
    format!("grundy-{}-", env!("CARGO_CRATE_NAME"))
}

/// Removes the scratch directories of test runs whose process has ended
/// (on Linux, where /proc says so; a running one keeps its own).
fn remove_stale_scratch() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    let prefix = scratch_prefix();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix(&prefix));
        let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let ended = std::path::Path::new("/proc/self").exists()
            && !std::path::Path::new(&format!("/proc/{pid}")).exists();
        if ended {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The one JSON object a successful run printed.
pub fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The GPU, or `None` with a skip notice; under `GRUNDY_REQUIRE_GPU=1` a
/// missing adapter fails the test instead.
pub fn gpu_or_skip(test: &str) -> Option<Backend> {
    match Runner::open() {
        Ok(Some(ctx)) => Some(Backend::Gpu(Box::new(ctx))),
        other => {
            let why = match other {
                Err(e) => e.to_string(),
                _ => "no GPU adapter".to_string(),
            };
            skip_without_gpu(test, &why);
            None
        }
    }
}

/// Says that `test` skips its GPU part for `why`; under
/// `GRUNDY_REQUIRE_GPU=1` the test fails instead.
pub fn skip_without_gpu(test: &str, why: &str) {
    if std::env::var("GRUNDY_REQUIRE_GPU").is_ok_and(|v| v == "1") {
        panic!("{test}: GRUNDY_REQUIRE_GPU=1 but {why}");
    }
    eprintln!("SKIPPED {test}: {why} (set GRUNDY_REQUIRE_GPU=1 to make this a failure)");
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A random code the heap kernels run: digits 0-7, modifiers, maybe a tail.
pub fn random_kernel_code(rng: &mut Rng) -> Code {
    let mut text = String::new();
    text.push(['0', '4'][rng.below(2) as usize]);
    if text == "4" && rng.below(2) == 0 {
        text.push(['!', '?', '='][rng.below(3) as usize]);
    }
    text.push('.');
    let len = 1 + rng.below(5);
    for _ in 0..len {
        text.push(char::from_digit(rng.below(8) as u32, 10).unwrap());
        if rng.below(6) == 0 {
            text.push(['!', '?', '='][rng.below(3) as usize]);
        }
    }
    if rng.below(6) == 0 {
        text.push('[');
        text.push(char::from_digit(1 + rng.below(7) as u32, 10).unwrap());
        text.push(']');
    }
    let code = Code::parse(&text).unwrap();
    if rng.below(5) == 0 {
        code.with_min_diff(rng.below(4) as u32)
    } else {
        code
    }
}

/// Files in `dir` whose name says they are half-written.
pub fn partials(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.contains(".partial"))
                .collect()
        })
        .unwrap_or_default()
}

/// CRC-32 (IEEE), bit by bit: the tests' own, apart from the program's.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Run hooks that fail the test on any notice (a fallback the test did not
/// expect).
pub struct NoNotice;

impl grundy::hooks::RunHooks for NoNotice {
    fn notice(&self, message: Marked<'_>) {
        panic!("unexpected notice: {message}");
    }
}

/// Run hooks that keep every notice, for the test to read.
#[derive(Default)]
pub struct Notices(pub std::sync::Mutex<Vec<String>>);

impl Notices {
    pub fn heard(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

impl grundy::hooks::RunHooks for Notices {
    fn notice(&self, message: Marked<'_>) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

/// Asserts the process ended by `signal` itself, as a program the signal
/// ends does (a shell reports 128 + its number), after its cleanup.
#[cfg(unix)]
pub fn assert_ended_by(status: &std::process::ExitStatus, signal: i32, said: &str) {
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(signal), "{status:?}: {said}");
}
