//! Where an output path really leads, and the check every output gets
//! before any work starts: a regular file is written beside itself and
//! renamed into place; a device, a FIFO or `/dev/stdout` is written into,
//! never replaced; a symlink is followed and stays a link.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::setting::Setting;

/// What a caller allows its outputs beyond the safe default: the library
/// keeps no such setting of its own, each call is told.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutputRules {
    /// Replace a file the user made read-only, and write into a block
    /// device, instead of refusing them.
    pub force: bool,
    /// Create the missing folders of an output instead of refusing it.
    pub create_folders: bool,
}

/// What an output path leads to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// `-`: standard output.
    Stdout,
    /// A device, a FIFO, a socket, or a link under /dev or /proc (such as
    /// /dev/stdout): opened and written into.
    Special(PathBuf),
    /// A regular file, existing or not, at this path (links resolved).
    File(PathBuf),
}

/// Links followed before a path is called a loop.
const MAX_LINKS: usize = 40;

/// `-`, or a name the system gives this process's standard output
/// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, `/proc/PID/fd/1`): all
/// are written as `-` is, through the one handle on fd 1. (A second handle
/// opened on such a name starts at offset 0 of a file behind `>`, and what
/// fd 1 writes after it lands over the table.)
pub fn is_stdout(path: &Path) -> bool {
    let own = format!("/proc/{}/fd/1", std::process::id());
    let names = [
        "-",
        "/dev/stdout",
        "/dev/fd/1",
        "/proc/self/fd/1",
        "/proc/thread-self/fd/1",
    ];
    names.iter().any(|name| path == Path::new(name)) || path == Path::new(&own)
}

/// Where `path` leads; an input error naming `flag` for a folder, a link
/// loop, a path that cannot be looked at, and, unless `rules.force`, a file
/// the user made read-only or a block device (a disk, which a table would
/// overwrite).
pub fn resolve(flag: &str, path: &Path, rules: OutputRules) -> Result<Target> {
    if is_stdout(path) {
        return Ok(Target::Stdout);
    }
    let bad = |why: String| Error::Input(format!("{flag} {}: {why}", path.display()));
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::File(at)),
            Err(e) => return Err(bad(format!("cannot look at it ({e})"))),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            if is_system_link(&at) {
                return Ok(Target::Special(at));
            }
            let link = std::fs::read_link(&at).map_err(|e| bad(format!("bad link ({e})")))?;
            at = match at.parent() {
                Some(dir) => dir.join(link),
                None => link,
            };
        } else if kind.is_dir() {
            return Err(bad("is a folder; expected a file name".into()));
        } else if kind.is_file() {
            if meta.permissions().readonly() && !rules.force {
                return Err(bad(format!(
                    "{} is read-only; expected a file that may be replaced (make it writable, \
                     remove it, or pass {})",
                    at.display(),
                    Setting::Force.named()
                )));
            }
            return Ok(Target::File(at));
        } else if is_block_device(&kind) && !rules.force {
            return Err(bad(format!(
                "is a block device (a disk); expected a file, a FIFO or a character device \
                 ({} writes into it)",
                Setting::Force.named()
            )));
        } else {
            return Ok(Target::Special(at));
        }
    }
    Err(bad("too many levels of symbolic links".into()))
}

#[cfg(unix)]
fn is_block_device(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_block_device()
}

#[cfg(not(unix))]
fn is_block_device(_: &std::fs::FileType) -> bool {
    false
}

/// /dev/stdout, /dev/fd/N, /proc/self/fd/N: links the system keeps to open
/// files, whose target may not even be a path.
fn is_system_link(path: &Path) -> bool {
    path.starts_with("/dev") || path.starts_with("/proc")
}

/// Checks every output of a command before it starts: each path resolves
/// to a file in a writable folder (or a writable device), and no two
/// outputs lead to the same file. Errors name the flag and the path.
pub fn check_outputs(outputs: &[(&str, &Path)], rules: OutputRules) -> Result<()> {
    let mut seen: HashMap<Target, &str> = HashMap::new();
    for &(flag, path) in outputs {
        let target = resolve(flag, path, rules)?;
        match &target {
            Target::File(file) => check_folder(flag, path, file, rules)?,
            Target::Special(node) => check_node(flag, node)?,
            Target::Stdout => {}
        }
        let key = canonical(&target);
        if is_sink(&key) {
            continue;
        }
        if let Some(first) = seen.insert(key, flag) {
            return Err(Error::Input(format!(
                "{flag} {}: {first} writes there too; expected a different path for each output",
                path.display()
            )));
        }
    }
    Ok(())
}

/// The target with its folder made absolute, so two spellings of one file
/// compare equal.
fn canonical(target: &Target) -> Target {
    match target {
        Target::File(file) => {
            let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new("."));
            match (std::fs::canonicalize(dir), file.file_name()) {
                (Ok(dir), Some(name)) => Target::File(dir.join(name)),
                _ => target.clone(),
            }
        }
        Target::Special(node) => {
            Target::Special(std::fs::canonicalize(node).unwrap_or_else(|_| node.clone()))
        }
        Target::Stdout => Target::Stdout,
    }
}

/// /dev/null and its kind: several outputs may be thrown away there.
fn is_sink(target: &Target) -> bool {
    matches!(target, Target::Special(p) if p == Path::new("/dev/null"))
}

/// The folder of `file` exists (a typo in a path is refused, as `cp` and
/// `tee` refuse it), or with `rules.create_folders` the nearest existing
/// folder above it takes a new one.
fn check_folder(flag: &str, path: &Path, file: &Path, rules: OutputRules) -> Result<()> {
    let bad = |why: String| Error::Input(format!("{flag} {}: {why}", path.display()));
    if file.file_name().is_none() {
        return Err(bad("expected a file name".into()));
    }
    let mut dir = file.parent().unwrap_or(Path::new(""));
    if !rules.create_folders {
        return missing_folder(dir).map_or(Ok(()), |m| Err(bad(m)));
    }
    loop {
        let here = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        match std::fs::metadata(here) {
            Ok(meta) if meta.is_dir() => return probe_folder(here).map_err(bad),
            Ok(_) => {
                return Err(bad(format!(
                    "{} is not a folder; expected a path inside a folder",
                    here.display()
                )));
            }
            Err(_) => match dir.parent() {
                Some(up) => dir = up,
                None => return Err(bad("no existing folder above it".into())),
            },
        }
    }
}

/// Why `dir` cannot take a file unless its folders are created (`None`: it can).
pub fn missing_folder(dir: &Path) -> Option<String> {
    let here = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    match std::fs::metadata(here) {
        Ok(meta) if meta.is_dir() => probe_folder(here).err(),
        Ok(_) => Some(format!(
            "{} is not a folder; expected a path inside a folder",
            here.display()
        )),
        Err(_) => Some(format!(
            "the folder {} does not exist; expected an existing folder (create it, or pass \
             {} to create missing folders)",
            here.display(),
            Setting::Mkdir.named()
        )),
    }
}

/// Creates and removes a file in `dir`: the only honest test of writing
/// there (permissions, read-only mounts, root's bypass of modes).
fn probe_folder(dir: &Path) -> std::result::Result<(), String> {
    let probe = dir.join(format!(".grundy-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(format!(
            "cannot write in {} ({e}); expected a writable folder",
            dir.display()
        )),
    }
}

/// A device or FIFO we may open for writing.
fn check_node(flag: &str, node: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(name) = std::ffi::CString::new(node.as_os_str().as_bytes()) else {
            return Ok(());
        };
        // SAFETY: `name` is a valid NUL-terminated string for the call.
        if unsafe { libc::access(name.as_ptr(), libc::W_OK) } != 0 {
            let e = std::io::Error::last_os_error();
            return Err(Error::Input(format!(
                "{flag} {}: cannot write to it ({e})",
                node.display()
            )));
        }
    }
    let _ = (flag, node);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAFE: OutputRules = OutputRules {
        force: false,
        create_folders: false,
    };

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-target-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn paths_resolve_to_what_they_lead_to() {
        let dir = scratch("resolve");
        let file = dir.join("t.csv");
        assert_eq!(
            resolve("table", Path::new("-"), SAFE).unwrap(),
            Target::Stdout
        );
        assert_eq!(
            resolve("table", &file, SAFE).unwrap(),
            Target::File(file.clone())
        );
        let err = resolve("table", &dir, SAFE).unwrap_err().to_string();
        assert!(err.contains("is a folder"), "{err}");
        #[cfg(unix)]
        {
            let link = dir.join("link.csv");
            std::os::unix::fs::symlink("t.csv", &link).unwrap();
            assert_eq!(
                resolve("table", &link, SAFE).unwrap(),
                Target::File(dir.join("t.csv"))
            );
            let null = resolve("table", Path::new("/dev/null"), SAFE).unwrap();
            assert_eq!(null, Target::Special("/dev/null".into()));
            for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
                assert_eq!(
                    resolve("table", Path::new(name), SAFE).unwrap(),
                    Target::Stdout
                );
            }
            let stderr = resolve("table", Path::new("/dev/stderr"), SAFE).unwrap();
            assert_eq!(stderr, Target::Special("/dev/stderr".into()));
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn two_outputs_on_one_file_are_refused() {
        let dir = scratch("clash");
        let a = dir.join("a.csv");
        let same = dir.join(".").join("a.csv");
        let err = check_outputs(&[("table", &a), ("p-table", &same)], SAFE).unwrap_err();
        assert!(matches!(err, Error::Input(_)));
        assert!(err.to_string().contains("table writes there too"), "{err}");
        let b = dir.join("sub/b.csv");
        // A folder that does not exist is refused unless the rules create it.
        let err = check_outputs(&[("table", &a), ("p-table", &b)], SAFE).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        assert!(err.message().contains(&Setting::Mkdir.named()), "{err}");
        let create = OutputRules {
            create_folders: true,
            ..SAFE
        };
        check_outputs(&[("table", &a), ("p-table", &b)], create).unwrap();
        std::fs::create_dir(dir.join("sub")).unwrap();
        check_outputs(&[("table", &a), ("p-table", &b)], SAFE).unwrap();
        let null = Path::new("/dev/null");
        if null.exists() {
            check_outputs(&[("table", null), ("p-table", null)], SAFE).unwrap();
        }
        let _ = std::fs::remove_dir_all(dir);
    }

    /// A read-only file is refused unless the rules force it, and the
    /// refusal marks the setting that would allow it.
    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_replaced_only_when_forced() {
        let dir = scratch("read-only");
        let kept = dir.join("kept.csv");
        std::fs::write(&kept, "n,g\n").unwrap();
        let mut perms = std::fs::metadata(&kept).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&kept, perms).unwrap();
        let err = resolve("table", &kept, SAFE).unwrap_err();
        assert!(err.message().contains(&Setting::Force.named()), "{err}");
        let force = OutputRules {
            force: true,
            ..SAFE
        };
        assert_eq!(resolve("table", &kept, force).unwrap(), Target::File(kept));
        let _ = std::fs::remove_dir_all(dir);
    }
}
