//! The temporary files an output is written to before it is renamed into
//! place: `.NAME.partial-HOST-PID`, locked (flock) for as long as its
//! writer has it open. A run stopped by SIGKILL or the kernel's OOM killer
//! cannot remove its partial file; the next run writing the same output
//! removes it once it is sure the writer is gone: nobody holds its lock,
//! and no process of that pid lives on this host. Nodes share file
//! systems, so a pid alone is not proof, and the lock alone would not
//! protect a writer from before the locks.

use std::fs::File;
use std::path::{Path, PathBuf};

/// The temporary name for writing `real` (`.NAME.partial-HOST-PID`).
pub fn partial_name(real: &Path, name: &str) -> PathBuf {
    real.with_file_name(format!(".{name}.partial-{}-{}", host(), std::process::id()))
}

/// Creates the partial file and takes its lock (held while it stays open).
pub fn create_locked(tmp: &Path) -> std::io::Result<super::journal::Journaled> {
    let file = super::journal::Journaled::create(tmp)?;
    // A file system without locks still gets the file; the pid check stays.
    let _ = try_lock(file.file());
    Ok(file)
}

/// Removes the partial files of `name` in `dir` whose writers are surely
/// gone; returns what it removed and why, for the user.
pub fn remove_stale(dir: &Path, name: &str) -> Vec<String> {
    let prefix = format!(".{name}.partial-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in entries.filter_map(|e| e.ok()) {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let Some(writer) = file_name.strip_prefix(&prefix) else {
            continue;
        };
        let path = entry.path();
        if writer_alive(writer) || !unlocked(&path) {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            removed.push(format!(
                "removed {}, left by a run that was stopped ({})",
                path.display(),
                describe(writer)
            ));
        }
    }
    removed
}

/// `host web1, pid 4373` from `web1-4373` (or `pid 4373` from an older name).
fn describe(writer: &str) -> String {
    match writer.rsplit_once('-') {
        Some((host, pid)) => format!("host {host}, pid {pid}"),
        None => format!("pid {writer}"),
    }
}

/// Whether the writer named `HOST-PID` (or `PID`) may still run here.
fn writer_alive(writer: &str) -> bool {
    let (writer_host, pid) = match writer.rsplit_once('-') {
        Some((h, p)) => (Some(h), p),
        None => (None, writer),
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if writer_host.is_some_and(|h| h != host()) {
        return false; // another node's: its lock decides
    }
    pid == std::process::id() || process_exists(pid)
}

/// Whether nobody holds the lock of `path` (taken and let go at once).
fn unlocked(path: &Path) -> bool {
    File::open(path).is_ok_and(|file| try_lock(&file).is_ok())
}

#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this File owns; the lock goes with it.
    match unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

#[cfg(not(unix))]
fn try_lock(file: &File) -> std::io::Result<()> {
    file.try_lock()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

#[cfg(unix)]
fn process_exists(pid: u32) -> bool {
    // SAFETY: signal 0 only asks whether the process exists.
    let found = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0;
    found || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn process_exists(_pid: u32) -> bool {
    true // no way to tell here: the lock alone decides nothing
}

/// This machine's name, with `-` and `/` kept out of file names.
fn host() -> String {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| std::env::var("HOSTNAME"))
            .or_else(|_| std::env::var("COMPUTERNAME"))
            .unwrap_or_else(|_| "host".into());
        name.trim()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn only_partials_whose_writers_are_gone_are_removed() {
        let dir = std::env::temp_dir().join(format!("grundy-partial-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let real = dir.join("t.csv");
        // Ours, open and locked: kept.
        let ours = partial_name(&real, "t.csv");
        let held = create_locked(&ours).unwrap();
        // A writer on this host whose pid is gone (pids stop below 2^22).
        let dead = dir.join(format!(".t.csv.partial-{}-{}", host(), (1u32 << 22) + 7));
        std::fs::write(&dead, b"half").unwrap();
        // Another node's writer still holding its lock (this process holds it here).
        let remote = dir.join(".t.csv.partial-othernode-12");
        let remote_held = create_locked(&remote).unwrap();
        // Another node's writer that is gone: nobody holds its lock.
        let remote_gone = dir.join(".t.csv.partial-othernode-13");
        std::fs::write(&remote_gone, b"half").unwrap();
        // Another output's partial: not ours to touch.
        let other = dir.join(format!(".u.csv.partial-{}-{}", host(), (1u32 << 22) + 7));
        std::fs::write(&other, b"half").unwrap();
        let removed = remove_stale(&dir, "t.csv");
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(removed.iter().any(|r| r.contains("host othernode, pid 13")));
        assert!(!dead.exists() && !remote_gone.exists());
        assert!(ours.exists() && remote.exists() && other.exists());
        drop((held, remote_held));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
