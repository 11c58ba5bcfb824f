//! Memory a run will need, said before it starts, and refused when it cannot fit.

use crate::error::{Error, Result};

/// Bytes of memory the machine has free now (Linux: MemAvailable), if known.
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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

/// Refuses `what` when `bytes` exceeds the memory available now.
pub fn check_fits(what: &str, bytes: u64) -> Result<()> {
    if let Some(free) = available_bytes()
        && bytes > free
    {
        return Err(Error::Input(format!(
            "{what} needs about {} of memory; this machine has {} available. Ask for a smaller run.",
            human(bytes),
            human(free)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_larger_than_memory_is_refused_with_the_estimate() {
        if available_bytes().is_none() {
            return; // not Linux: nothing to compare against
        }
        let err = check_fits("a table of 2^62 values", heap_table_bytes(1 << 62)).unwrap_err();
        assert!(matches!(err, Error::Input(_)));
        assert!(
            err.to_string().contains("EiB of memory") && err.to_string().contains("available"),
            "{err}"
        );
        assert!(check_fits("a small table", heap_table_bytes(1000)).is_ok());
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(512), "512 B");
        assert_eq!(human(3 << 20), "3.0 MiB");
        assert_eq!(human(u64::MAX), "16.0 EiB");
    }
}
