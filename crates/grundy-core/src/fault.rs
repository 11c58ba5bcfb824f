//! Fault injection for the tests: environment variables that make the
//! program fail as a full disk, an exhausted memory or a crash between two
//! writes would, so that those paths run for real in CI without filling a
//! disk. Each is read once per process, here and nowhere else; none
//! changes a table. They are test hooks, not settings: a library caller
//! never needs them.
//!
//! - `GRUNDY_RECORD_WRITES=FILE`: every file operation of the output
//!   journal appended to FILE (the crash-point tests replay them).
//! - `GRUNDY_FAIL_WRITE=K:ENOSPC|EIO`: the K-th write fails with that error.
//! - `GRUNDY_FAIL_ALLOCATIONS_OVER=BYTES`: allocations larger than BYTES
//!   fail as if memory were full.
//! - `GRUNDY_FAIL_TABLE_FILE_OVER=BYTES`: a table's file cannot grow past
//!   BYTES, as on a full disk.

use std::ffi::OsString;

/// The file `GRUNDY_RECORD_WRITES` names, if any.
pub fn record_writes() -> Option<OsString> {
    std::env::var_os("GRUNDY_RECORD_WRITES")
}

/// `GRUNDY_FAIL_WRITE=K:ERROR`: the write to fail (0 the first) and its
/// OS error number (ENOSPC 28, EIO 5).
pub fn failing_write() -> Option<(u64, i32)> {
    let text = std::env::var("GRUNDY_FAIL_WRITE").ok()?;
    let (k, error) = text.split_once(':')?;
    let code = match error {
        "ENOSPC" => 28,
        "EIO" => 5,
        _ => return None,
    };
    Some((k.parse().ok()?, code))
}

/// `GRUNDY_FAIL_ALLOCATIONS_OVER`: the largest allocation that succeeds.
pub fn allocations_over() -> Option<usize> {
    std::env::var("GRUNDY_FAIL_ALLOCATIONS_OVER")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// `GRUNDY_FAIL_TABLE_FILE_OVER`: the bytes a table's file may grow to.
pub fn table_file_over() -> Option<u64> {
    std::env::var("GRUNDY_FAIL_TABLE_FILE_OVER")
        .ok()
        .and_then(|v| v.parse().ok())
}
