//! The one way a run changes the files it keeps (outputs, checkpoints and
//! their temporary files): every create, write, sync, truncation, rename
//! and removal goes through here. A test can then record them all, with
//! the bytes written (`GRUNDY_RECORD_WRITES=FILE`, one line an operation),
//! and replay a power cut at each point between them; or make the K-th
//! write fail (`GRUNDY_FAIL_WRITE=K:ENOSPC` or `K:EIO`, K from 0).

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// A file a run keeps, written through the journal.
pub struct Journaled {
    file: File,
    id: u64,
    /// Where the next write lands.
    pos: u64,
}

impl Journaled {
    /// Creates (or empties) the file at `path`.
    pub fn create(path: &Path) -> io::Result<Journaled> {
        let file = File::create(path)?;
        Ok(Journaled::opened(file, "create", path, 0))
    }

    /// Opens the file at `path` to append to it.
    pub fn append(path: &Path) -> io::Result<Journaled> {
        let file = OpenOptions::new().append(true).open(path)?;
        let len = file.metadata()?.len();
        Ok(Journaled::opened(file, "append", path, len))
    }

    fn opened(file: File, how: &str, path: &Path, pos: u64) -> Journaled {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        record(|| format!("{how}\t{id}\t{}", shown(path)));
        Journaled { file, id, pos }
    }

    /// The file itself, for what the journal does not change (locks,
    /// metadata).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Its bytes and length on the disk.
    pub fn sync_all(&self) -> io::Result<()> {
        self.file.sync_all()?;
        record(|| format!("sync\t{}", self.id));
        Ok(())
    }

    /// Its bytes on the disk (the length too, where it grew).
    pub fn sync_data(&self) -> io::Result<()> {
        self.file.sync_data()?;
        record(|| format!("sync\t{}", self.id));
        Ok(())
    }

    /// Cuts the file to `len` bytes.
    pub fn set_len(&mut self, len: u64) -> io::Result<()> {
        self.file.set_len(len)?;
        record(|| format!("truncate\t{}\t{len}", self.id));
        self.pos = self.pos.min(len);
        Ok(())
    }
}

impl Write for Journaled {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        failing_write()?;
        let written = self.file.write(buf)?;
        let (id, at) = (self.id, self.pos);
        record(|| format!("write\t{id}\t{at}\t{}", hex(&buf[..written])));
        self.pos += written as u64;
        Ok(written)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Seek for Journaled {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.pos = self.file.seek(to)?;
        Ok(self.pos)
    }
}

/// Renames `from` onto `to`.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::rename(from, to)?;
    record(|| format!("rename\t{}\t{}", shown(from), shown(to)));
    Ok(())
}

/// Removes the file at `path`.
pub fn remove(path: &Path) -> io::Result<()> {
    std::fs::remove_file(path)?;
    record(|| format!("remove\t{}", shown(path)));
    Ok(())
}

/// Syncs the folder `dir`: the names made, renamed or removed in it are
/// then on the disk.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()?;
    record(|| format!("syncdir\t{}", shown(dir)));
    Ok(())
}

fn shown(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The record's file, when `GRUNDY_RECORD_WRITES` names one.
fn log() -> &'static Option<Mutex<File>> {
    static LOG: OnceLock<Option<Mutex<File>>> = OnceLock::new();
    LOG.get_or_init(|| {
        let path = crate::fault::record_writes()?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()?;
        Some(Mutex::new(file))
    })
}

/// Appends one operation's line to the record, if there is one.
fn record(line: impl FnOnce() -> String) {
    if let Some(log) = log()
        && let Ok(mut file) = log.lock()
    {
        let _ = writeln!(file, "{}", line());
    }
}

/// The write that `GRUNDY_FAIL_WRITE=K:ERROR` makes fail: the K-th.
fn failing_write() -> io::Result<()> {
    static FAIL: OnceLock<Option<(u64, i32)>> = OnceLock::new();
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let fail = FAIL.get_or_init(crate::fault::failing_write);
    let Some((k, code)) = *fail else {
        return Ok(());
    };
    match WRITES.fetch_add(1, Ordering::Relaxed) == k {
        true => Err(io::Error::from_raw_os_error(code)),
        false => Ok(()),
    }
}
