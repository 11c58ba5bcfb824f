//! Memory a run will need, said before it starts, and refused when it cannot fit.

use std::path::Path;

use grundy_core::error::{Error, Result};

/// Memory a run may still take and what sets that figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    pub bytes: u64,
    /// "available" (the machine's MemAvailable), "left in the memory cgroup
    /// (Slurm's --mem)", "left under ulimit -v", …
    pub bound: String,
}

/// The memory a run may take now: the least of what the machine has
/// available, what its memory cgroup (and every cgroup above it) leaves,
/// and what `RLIMIT_AS` and `RLIMIT_DATA` leave (Linux; `None` elsewhere).
pub fn room() -> Option<Room> {
    let mut rooms = Vec::new();
    if let Some(bytes) = available_bytes() {
        rooms.push(Room {
            bytes,
            bound: "available on this machine".into(),
        });
    }
    rooms.extend(cgroup_room().map(|bytes| Room {
        bytes,
        bound: "left in this job's memory cgroup (as Slurm's memory request sets it)".into(),
    }));
    rooms.extend(rlimit_rooms());
    rooms.into_iter().min_by_key(|r| r.bytes)
}

/// Bytes of memory the machine has free now (Linux: MemAvailable), if known.
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    kib_field(&text, "MemAvailable:")
}

/// A `Name:   1234 kB` line of /proc's text, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The least room any memory cgroup above this process leaves: its limit
/// less what it holds that cannot be dropped (its usage less the page
/// cache it could give back), cgroup v2 or v1.
fn cgroup_room() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let root = Path::new("/sys/fs/cgroup");
    // v2 alone at the root, or beside v1 under `unified` (a hybrid layout).
    let unified = match root.join("cgroup.controllers").exists() {
        true => root.to_path_buf(),
        false => root.join("unified"),
    };
    cgroup_room_in(&membership, root, &unified)
}

/// `cgroup_room` with /proc/self/cgroup's text, the v1 mount and the v2
/// mount given.
fn cgroup_room_in(membership: &str, root: &Path, unified: &Path) -> Option<u64> {
    let mut rooms = Vec::new();
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        let path = path.trim_start_matches('/');
        if controllers.is_empty() {
            // v2: the limit may sit on any ancestor (Slurm's job, not its step).
            rooms.extend(ancestors(&unified.join(path), unified).filter_map(|d| {
                let usage = read_number(&d.join("memory.current"))?;
                let limit = read_number(&d.join("memory.max"))?;
                let cache = stat_field(&d.join("memory.stat"), "inactive_file").unwrap_or(0);
                Some(limit.saturating_sub(usage.saturating_sub(cache)))
            }));
        } else if controllers.split(',').any(|c| c == "memory") {
            let base = root.join("memory");
            rooms.extend(ancestors(&base.join(path), &base).filter_map(|d| {
                let usage = read_number(&d.join("memory.usage_in_bytes"))?;
                let limit = read_number(&d.join("memory.limit_in_bytes"))?;
                let cache = stat_field(&d.join("memory.stat"), "total_inactive_file").unwrap_or(0);
                // v1 writes "no limit" as a number near 2^63.
                (limit < 1 << 62).then(|| limit.saturating_sub(usage.saturating_sub(cache)))
            }));
        }
    }
    rooms.into_iter().min()
}

/// `dir` and every folder above it up to `root`, both included.
fn ancestors<'a>(dir: &'a Path, root: &'a Path) -> impl Iterator<Item = &'a Path> {
    dir.ancestors().take_while(move |d| d.starts_with(root))
}

/// A file holding one number (`max` there means no limit: `None`).
fn read_number(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// A `name value` line of a cgroup's memory.stat.
fn stat_field(path: &Path, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What `ulimit -v` (RLIMIT_AS) and `ulimit -d` (RLIMIT_DATA) leave: the
/// limit less the address space (VmSize) or data (VmData) used now.
#[cfg(unix)]
fn rlimit_rooms() -> Vec<Room> {
    // SAFETY: getrlimit writes the one struct it is given.
    let data = |limit: &mut libc::rlimit| unsafe { libc::getrlimit(libc::RLIMIT_DATA, limit) };
    let data = rlimit_room(data, "VmData:", "left under ulimit -d (RLIMIT_DATA)");
    [address_space_room(), data].into_iter().flatten().collect()
}

/// Under `ulimit -v` (RLIMIT_AS), has every thread allocate from one malloc
/// arena. glibc gives each new thread that allocates an arena of its own,
/// reserving 64 MiB of address space at once: threads that start after
/// the budget was measured would take space the budget counted as free,
/// and a run sized to fit would fail an allocation instead. One arena
/// keeps the room `address_space_room` measures. Called at the CLI's start,
/// and again wherever the room is measured (a limit set after the start,
/// as Python's `resource` does); no limit, or not glibc: nothing.
pub fn one_malloc_arena_under_address_limit() {
    let _ = address_space_room();
}

/// What `ulimit -v` leaves of the address space, if it is set; with a
/// limit, threads from now on share one malloc arena.
#[cfg(unix)]
fn address_space_room() -> Option<Room> {
    // SAFETY: getrlimit writes the one struct it is given.
    let space = |limit: &mut libc::rlimit| unsafe { libc::getrlimit(libc::RLIMIT_AS, limit) };
    let room = rlimit_room(space, "VmSize:", "left under ulimit -v (RLIMIT_AS)");
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if room.is_some() {
        // SAFETY: mallopt sets a tuning value of the allocator.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
    room
}

#[cfg(not(unix))]
fn address_space_room() -> Option<Room> {
    None
}

/// What a limit leaves (`get` reads it: getrlimit of one resource), less
/// the `used` field of /proc/self/status; `None` when it is not set.
#[cfg(unix)]
fn rlimit_room(
    get: impl FnOnce(&mut libc::rlimit) -> libc::c_int,
    used: &str,
    bound: &str,
) -> Option<Room> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    if get(&mut limit) != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let used = kib_field(&status, used).unwrap_or(0);
    #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every platform
    let limit = limit.rlim_cur as u64;
    Some(Room {
        bytes: limit.saturating_sub(used),
        bound: bound.into(),
    })
}

#[cfg(not(unix))]
fn rlimit_rooms() -> Vec<Room> {
    Vec::new()
}

/// The memory a run may use when `--memory` does not say: what the
/// machine or its memory cgroup has free (`room`), less an eighth for the
/// page cache and everything else.
pub fn default_budget() -> Option<Room> {
    room().map(|r| Room {
        bytes: r.bytes - r.bytes / 8,
        bound: format!("{} less an eighth", r.bound),
    })
}

/// The default budget's bytes, or 4 GiB where the machine does not say.
pub fn budget_bytes() -> u64 {
    default_budget().map_or(1 << 32, |room| room.bytes)
}

/// The sums a search over whole sums (`analysis::whole_sum`) may remember
/// within the default budget.
pub fn sums_within_budget() -> usize {
    let positions = budget_bytes() / grundy_core::analysis::whole_sum::POSITION_BYTES;
    positions.min(usize::MAX as u64) as usize
}

/// Before a search over the whole sum of `parts`: each distinct part
/// walked alone within the budget's bytes (`analysis::sum_bound::walked`).
/// Where one part alone holds more than the budget, the search cannot
/// fit: refused before it starts, naming `value_of` and what was
/// `expected`. Otherwise the bounds, for the report's note (`walked_note`).
pub fn walk_before_search<P: grundy_core::analysis::whole_sum::Parts>(
    search: &mut grundy_core::analysis::whole_sum::SumSearch<P>,
    parts: &[u32],
    value_of: &str,
    expected: &str,
) -> Result<grundy_core::analysis::sum_bound::Walked> {
    let budget = budget_bytes();
    let walked = grundy_core::analysis::sum_bound::walked(search, parts, budget);
    if !walked.fits {
        return Err(Error::WontFit(format!(
            "the misère value of {value_of} needs more than the memory budget ({}) for its \
             sums searched whole: one of its parts alone reaches more, counted before the \
             search; expected {expected}",
            human(budget)
        )));
    }
    Ok(walked)
}

/// The bounds `walk_before_search` found, as a note's words.
pub fn walked_note(walked: &grundy_core::analysis::sum_bound::Walked) -> String {
    match walked.at_most {
        Some(most) => format!("at least {} and at most {most}", walked.at_least),
        None => format!("at least {}", walked.at_least),
    }
}

/// The error for a search over whole sums that stopped: too many sums for
/// the budget (saying what `value_of` needs and what was `expected`), or a
/// stop asked for.
pub fn whole_sum_error(
    stopped: grundy_core::analysis::whole_sum::Stopped,
    value_of: &str,
    expected: &str,
) -> Error {
    let bytes = stopped.positions as u64 * grundy_core::analysis::whole_sum::POSITION_BYTES;
    match stopped.full {
        true => Error::WontFit(format!(
            "the misère value of {value_of} needs more than {} sums searched whole ({}); \
             expected {expected}",
            stopped.positions,
            human(bytes)
        )),
        false => Error::Stopped("stopped while searching the sum under misère play".into()),
    }
}

/// A size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M, G, T
/// are powers of 1024.
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let digits = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "'{text}': expected a size such as 8G, 512M or 1.5GiB"
            ));
        }
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}': expected a size such as 8G, 512M or 1.5GiB"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(format!("'{text}': expected a size from 1 byte to 16 EiB"));
    }
    Ok(bytes as u64)
}

/// Bytes free to this user on the file system holding `folder`, if known.
#[cfg(unix)]
pub fn disk_free(folder: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(folder.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes the one struct it is given; the path is a
    // NUL-terminated string that outlives the call.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // the fields' types differ by platform
    Some(stat.f_bavail as u64 * stat.f_frsize as u64)
}

#[cfg(not(unix))]
pub fn disk_free(_folder: &Path) -> Option<u64> {
    None
}

/// What `ulimit -v` (RLIMIT_AS) leaves of the address space, if it is
/// set: a table kept in a file is mapped into it, so paging it does not
/// help there.
pub fn address_space_left() -> Option<u64> {
    address_space_room().map(|room| room.bytes)
}

/// Bytes this process holds in memory now (VmRSS), if known.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, "VmRSS:")
}

pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Host bytes for a heap table of `values` entries: the table, and a second
/// copy while it comes back from the GPU or is extended.
pub fn heap_table_bytes(values: u64) -> u64 {
    values.saturating_mul(4)
}

/// Refuses `what` when `bytes` exceeds the memory the run may take now
/// (`room`): the message names the figure and what set it.
pub fn check_fits(what: &str, bytes: u64) -> Result<()> {
    if let Some(room) = room()
        && bytes > room.bytes
    {
        return Err(Error::WontFit(format!(
            "{what} needs about {} of memory; {} {}. Ask for a smaller run (fewer heaps), \
             or run where more memory is free.",
            human(bytes),
            human(room.bytes),
            room.bound
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_in_powers_of_1024() {
        for (text, bytes) in [
            ("1000000", 1_000_000),
            ("512K", 512 << 10),
            ("512M", 512 << 20),
            ("8G", 8 << 30),
            ("1.5GiB", 3 << 29),
            ("2tb", 2 << 40),
            (" 64 MiB ", 64 << 20),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for bad in ["", "G", "8X", "-1G", "0", "1e3", "9999999999T", "1.2.3M"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_run_larger_than_memory_is_refused_with_the_estimate() {
        if available_bytes().is_none() {
            return; // not Linux: nothing to compare against
        }
        let err = check_fits("a table of 2^62 values", heap_table_bytes(1 << 62)).unwrap_err();
        assert!(matches!(err, Error::WontFit(_)));
        assert_eq!(
            err.exit_code(),
            2,
            "refused before it starts, as for bad input"
        );
        assert!(
            err.to_string().contains("EiB of memory")
                && err.to_string().contains("available on this machine"),
            "{err}"
        );
        assert!(check_fits("a small table", heap_table_bytes(1000)).is_ok());
    }

    /// A cgroup tree as the kernel lays it out, in a scratch folder.
    fn cgroup_tree(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let root = std::env::temp_dir().join(format!("grundy-cg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        root
    }

    #[test]
    fn the_tightest_cgroup_above_the_process_sets_the_room() {
        // v2, as Slurm lays it out: the limit on the job, the process in a step.
        let root = cgroup_tree(
            "v2",
            &[
                ("memory.current", "999999999"),
                ("job/memory.max", "1073741824"),
                ("job/memory.current", "300000000"),
                ("job/memory.stat", "anon 1\ninactive_file 100000000\n"),
                ("job/step/memory.max", "max"),
                ("job/step/memory.current", "200000000"),
            ],
        );
        let room = cgroup_room_in("0::/job/step\n", Path::new("/nowhere"), &root);
        assert_eq!(room, Some(1073741824 - (300000000 - 100000000)));
        let room = cgroup_room_in("0::/\n", Path::new("/nowhere"), &root);
        assert_eq!(room, None, "no limit at the root");
        let _ = std::fs::remove_dir_all(&root);
        // v1: the memory controller's own hierarchy; "no limit" is near 2^63.
        let root = cgroup_tree(
            "v1",
            &[
                ("memory/slurm/memory.limit_in_bytes", "9223372036854771712"),
                ("memory/slurm/memory.usage_in_bytes", "5"),
                ("memory/slurm/job/memory.limit_in_bytes", "500000000"),
                ("memory/slurm/job/memory.usage_in_bytes", "100000000"),
            ],
        );
        let membership = "12:cpu,cpuacct:/slurm/job\n4:memory:/slurm/job\n";
        let room = cgroup_room_in(membership, &root, Path::new("/nowhere"));
        assert_eq!(room, Some(400000000));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(3 << 20), "3.0 MiB");
        assert_eq!(human(u64::MAX), "16.0 EiB");
    }
}
