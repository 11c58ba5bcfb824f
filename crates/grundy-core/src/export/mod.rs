//! Tables out: CSV, OEIS b-files and nim strings, written to a temporary
//! name and renamed when complete, so an interrupted run never leaves a
//! truncated file that looks whole.

pub mod journal;
pub mod latex;
pub mod npy;
pub mod partial;
pub mod target;

pub use target::{OutputRules, is_stdout};

use journal::Journaled;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::setting::Setting;
use target::Target;

/// How a heap table is written.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `n,g` with a header row.
    Csv,
    /// OEIS b-file: `n g` per line.
    Bfile,
    /// The nim string: one base-36 digit per value (values of 36 and more in parentheses).
    Digits,
    /// Little-endian u16 values after a one-line text header (`grundy u16le v1 code=... count=...`).
    Raw,
    /// A LaTeX tabular, ten values per row, for a paper to \input.
    Latex,
    /// A CGScript list `[0, 0, 1, ...]` that CGSuite reads back, under a comment naming the code.
    Cgsuite,
    /// NumPy's .npy (uint8, or uint16 when a value passes 255): numpy.load and numpy.memmap open it.
    Npy,
}

/// How a table (rows of coordinates and values) is written.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// CSV with a header row.
    Csv,
    /// A LaTeX tabular for a paper to \input (a matrix for tables of G over two coordinates).
    Latex,
}

/// Writes a table to `path` in `format`: `write` writes its CSV; LaTeX is
/// made from that CSV, `what` its comment line.
pub fn write_table(
    path: &Path,
    rules: OutputRules,
    format: TableFormat,
    what: &str,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    if format == TableFormat::Csv {
        return write_to(path, rules, write);
    }
    let mut csv = Vec::new();
    write(&mut csv)?;
    let tex = latex::from_csv(&csv, what).map_err(Error::Run)?;
    write_to(path, rules, |w| w.write_all(tex.as_bytes()))
}

/// A file that appears under its name only once `commit` is called; a
/// device or FIFO (see `target`) is written into directly.
pub struct AtomicFile {
    /// The temporary file renamed onto `path` by `commit` (none for a device).
    tmp: Option<PathBuf>,
    path: PathBuf,
    out: Option<BufWriter<Journaled>>,
}

impl AtomicFile {
    /// Starts `path` under `rules` (what it may replace, which folders it
    /// may create).
    pub fn create(path: &Path, rules: OutputRules) -> Result<AtomicFile> {
        let cannot = |e: io::Error| Error::Input(format!("cannot write {}: {e}", path.display()));
        let real = match target::resolve("output", path, rules)? {
            Target::Special(node) => {
                let file = Journaled::append(&node).map_err(cannot)?;
                return Ok(AtomicFile {
                    tmp: None,
                    path: node,
                    out: Some(BufWriter::new(file)),
                });
            }
            Target::File(real) => real,
            Target::Stdout => {
                return Err(Error::Input(format!(
                    "{}: expected a file name, not -",
                    path.display()
                )));
            }
        };
        if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
            if rules.create_folders {
                std::fs::create_dir_all(dir).map_err(|e| {
                    Error::Input(format!("cannot create directory {}: {e}", dir.display()))
                })?;
            } else if let Some(why) = target::missing_folder(dir) {
                return Err(Error::Input(format!("{}: {why}", path.display())));
            }
        }
        let name = real
            .file_name()
            .ok_or_else(|| Error::Input(format!("{}: expected a file name", path.display())))?;
        let name = name.to_string_lossy();
        let dir = real.parent().filter(|d| !d.as_os_str().is_empty());
        for removed in partial::remove_stale(dir.unwrap_or(Path::new(".")), &name) {
            eprintln!("grundy: {removed}");
        }
        let tmp = partial::partial_name(&real, &name);
        let file = partial::create_locked(&tmp).map_err(cannot)?;
        crate::interrupt::add_partial(&tmp);
        Ok(AtomicFile {
            tmp: Some(tmp),
            path: real,
            out: Some(BufWriter::new(file)),
        })
    }

    pub fn commit(mut self) -> Result<()> {
        let failed = |e: io::Error| Error::Run(format!("writing {}: {e}", self.path.display()));
        let Some(out) = self.out.take() else {
            return Ok(());
        };
        let file = out.into_inner().map_err(|e| failed(e.into_error()))?;
        let Some(tmp) = self.tmp.take() else {
            return Ok(()); // a device: flushed above, nothing to rename
        };
        let done = file
            .sync_all()
            .and_then(|()| journal::rename(&tmp, &self.path));
        crate::interrupt::drop_partial(&tmp);
        if let Err(e) = done {
            let _ = std::fs::remove_file(&tmp);
            return Err(failed(e));
        }
        sync_folder(&self.path).map_err(failed)
    }

    /// Reads back `buf.len()` bytes at `offset` of what was written so far
    /// (a file renamed into place at the end; not a device or a FIFO).
    pub fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let tmp = self
            .tmp
            .as_ref()
            .ok_or_else(|| io::Error::other("a device or FIFO cannot be read back"))?;
        self.out.as_mut().ok_or_else(closed)?.flush()?;
        let mut file = std::fs::File::open(tmp)?;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }

    /// Whether what was written can be read back (`read_at`).
    pub fn can_read_back(&self) -> bool {
        self.tmp.is_some() && self.out.is_some()
    }

    /// Overwrites `bytes` at `offset` (a header field) and returns to the end.
    pub fn patch(&mut self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        use std::io::{Seek, SeekFrom};
        if self.tmp.is_none() {
            return Err(io::Error::other(
                "a device or FIFO cannot take a header patched at the end",
            ));
        }
        let out = self.out.as_mut().ok_or_else(closed)?;
        out.flush()?;
        let file = out.get_mut();
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(bytes)?;
        file.seek(SeekFrom::End(0))?;
        Ok(())
    }
}

/// Syncs the folder holding `path`, so that a rename into it (or a file
/// made there) survives a power cut: until then the folder's entry may be
/// lost, and the old file back, although the file's own bytes were synced.
/// A file system that cannot sync folders (some network ones) is taken at
/// its word.
pub fn sync_folder(path: &Path) -> io::Result<()> {
    let folder = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    #[cfg(unix)]
    {
        match journal::sync_dir(folder) {
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOTSUP)) => Ok(()),
            other => other,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = folder;
        Ok(())
    }
}

fn closed() -> io::Error {
    io::Error::other("the file was already committed")
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().ok_or_else(closed)?.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().ok_or_else(closed)?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = journal::remove(&tmp);
            crate::interrupt::drop_partial(&tmp);
        }
    }
}

/// The first error met writing to stdout, if any: `main` reports it and
/// exits 1, so a full disk behind `> file` never looks like success.
static STDOUT_ERROR: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Writes to stdout as `print!` does, recording a failure instead of panicking.
pub fn print_to_stdout(args: std::fmt::Arguments) {
    if let Err(e) = io::stdout().lock().write_fmt(args) {
        note_stdout_error(e);
    }
}

fn note_stdout_error(e: io::Error) {
    if let Ok(mut first) = STDOUT_ERROR.lock() {
        first.get_or_insert_with(|| e.to_string());
    }
}

/// Flushes stdout and returns the first write error met, if any.
pub fn stdout_error() -> Option<String> {
    if let Err(e) = io::stdout().lock().flush() {
        note_stdout_error(e);
    }
    STDOUT_ERROR.lock().ok().and_then(|first| first.clone())
}

/// `println!` that records a write error (see `stdout_error`) instead of panicking.
#[macro_export]
macro_rules! outln {
    () => { $crate::export::print_to_stdout(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::export::print_to_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that records a write error instead of panicking.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::export::print_to_stdout(format_args!($($arg)*)) };
}

/// Writes rows to `path` (`-`: stdout) atomically under `rules`: `write`
/// gets the sink.
pub fn write_to(
    path: &Path,
    rules: OutputRules,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    if is_stdout(path) {
        let stdout = io::stdout();
        let mut lock = BufWriter::new(stdout.lock());
        write(&mut lock)?;
        lock.flush()?;
        return Ok(());
    }
    let mut file = AtomicFile::create(path, rules)?;
    write(&mut file).map_err(|e| Error::Run(format!("writing {}: {e}", path.display())))?;
    file.commit()
}

/// One value as a nim-string digit.
pub fn nim_digit(v: u16) -> String {
    let mut bytes = Vec::new();
    push_nim_digit(&mut bytes, v);
    String::from_utf8(bytes).expect("ASCII")
}

/// `nim_digit(v)`'s bytes appended to `bytes`: 0-9 and a-z below 36, the
/// value in parentheses from 36 on.
fn push_nim_digit(bytes: &mut Vec<u8>, v: u16) {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    match DIGITS.get(v as usize) {
        Some(&d) => bytes.push(d),
        None => bytes.extend_from_slice(format!("({v})").as_bytes()),
    }
}

/// Values per write of a raw table.
const RAW_PIECE: usize = 1 << 15;

/// Writes the rows of heaps `from..g.len()` in `format`: no header, no
/// trailer (`SequenceWriter` adds those).
fn write_heap_rows<T: Copy + Into<u32>>(
    out: &mut dyn Write,
    (first, g): (usize, &[T]),
    format: Format,
    from: usize,
) -> io::Result<()> {
    let skip = from - first;
    if matches!(format, Format::Raw | Format::Digits) {
        // A buffer of values at a time: one write call each, not a value's.
        let mut bytes = Vec::with_capacity(2 * RAW_PIECE);
        for piece in g.get(skip..).unwrap_or(&[]).chunks(RAW_PIECE) {
            bytes.clear();
            for &v in piece {
                let v = v.into() as u16;
                match format {
                    Format::Raw => bytes.extend(v.to_le_bytes()),
                    _ => push_nim_digit(&mut bytes, v),
                }
            }
            out.write_all(&bytes)?;
        }
        return Ok(());
    }
    let mut line = String::new();
    for (i, &v) in g.iter().enumerate().skip(skip) {
        let (n, v): (usize, u32) = (first + i, v.into());
        match format {
            Format::Csv => {
                line.clear();
                use std::fmt::Write as _;
                let _ = writeln!(line, "{n},{v}");
                out.write_all(line.as_bytes())?;
            }
            Format::Bfile => {
                line.clear();
                use std::fmt::Write as _;
                let _ = writeln!(line, "{n} {v}");
                out.write_all(line.as_bytes())?;
            }
            Format::Digits | Format::Raw => {} // written above, a piece at a time
            Format::Npy => {} // written whole at the end (`npy`): its dtype needs the largest value
            Format::Latex => out.write_all(latex::sequence_cell(n, v).as_bytes())?,
            Format::Cgsuite => {
                // Twenty values a line; a comma before every value but the first.
                let sep = match (n, n % 20) {
                    (0, _) => "",
                    (_, 0) => ",\n ",
                    _ => ", ",
                };
                write!(out, "{sep}{v}")?
            }
        }
    }
    Ok(())
}

/// The first line of a raw table, up to the count's digits.
pub const RAW_MAGIC: &str = "grundy u16le v1";
/// Digits of the count in a raw header, zero-padded so it can be patched.
const RAW_COUNT_DIGITS: usize = 20;

/// The header line of a raw table.
fn raw_header(code: &str, min_diff: u32, count: u64) -> String {
    let code = if code.is_empty() { "-" } else { code };
    format!(
        "{RAW_MAGIC} code={code} min_diff={min_diff} first=0 count={count:0width$}\n",
        width = RAW_COUNT_DIGITS
    )
}

/// Writes the header of `format`; returns its length in bytes.
fn write_header(
    out: &mut dyn Write,
    format: Format,
    code: &str,
    min_diff: u32,
    count: u64,
) -> io::Result<u64> {
    let name = match min_diff {
        0 => code.to_string(),
        d => format!("{code}, split parts differing by at least {d}"),
    };
    let header = match format {
        Format::Csv => "n,g\n".to_string(),
        Format::Raw => raw_header(code, min_diff, count),
        Format::Bfile | Format::Digits | Format::Npy => String::new(),
        Format::Latex => latex::sequence_header(&format!("G(n) of {name}, one row per ten heaps")),
        Format::Cgsuite => format!(
            "// grundy {}: nim values of TakeAndBreak(\"{name}\") from heap 0, a CGScript list\n[",
            env!("CARGO_PKG_VERSION")
        ),
    };
    out.write_all(header.as_bytes())?;
    Ok(header.len() as u64)
}

fn write_trailer(out: &mut dyn Write, format: Format, count: usize) -> io::Result<()> {
    match format {
        Format::Digits => writeln!(out),
        Format::Latex => out.write_all(latex::sequence_trailer(count).as_bytes()),
        Format::Cgsuite => writeln!(out, "]"),
        _ => Ok(()),
    }
}

/// A raw table read back: its header fields and values.
#[derive(Debug, PartialEq, Eq)]
pub struct RawTable {
    pub code: String,
    pub min_diff: u32,
    pub values: Vec<u16>,
}

/// Reads a file written with `--format raw`.
pub fn read_raw(bytes: &[u8]) -> std::result::Result<RawTable, String> {
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or("no header line")?;
    let header = std::str::from_utf8(&bytes[..end]).map_err(|_| "the header is not text")?;
    let fields = header
        .strip_prefix(RAW_MAGIC)
        .ok_or_else(|| format!("the header does not start with '{RAW_MAGIC}'"))?;
    let field = |name: &str| -> std::result::Result<&str, String> {
        fields
            .split_whitespace()
            .find_map(|f| f.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
            .ok_or_else(|| format!("the header has no {name}= field"))
    };
    let count: usize = field("count")?.parse().map_err(|_| "bad count")?;
    let body = &bytes[end + 1..];
    // A count past half the address space is a lie, not a wrapped product.
    if count.checked_mul(2) != Some(body.len()) {
        return Err(format!(
            "the header says {count} values but {} bytes follow",
            body.len()
        ));
    }
    Ok(RawTable {
        code: field("code")?.to_string(),
        min_diff: field("min_diff")?.parse().map_err(|_| "bad min_diff")?,
        values: body
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect(),
    })
}

enum Sink {
    File(AtomicFile),
    Stdout(BufWriter<io::Stdout>),
}

/// A heap table written as it is computed: header first, rows appended
/// after each piece, and the file renamed into place only by `finish`.
pub struct SequenceWriter {
    sink: Sink,
    format: Format,
    /// Heaps written so far.
    written: usize,
    /// The count the header promised (raw format), and where its digits are.
    promised: u64,
    count_at: u64,
    /// Where the values begin (raw format: past the header).
    values_at: u64,
    /// What a write error names: the output's path, or stdout.
    shown: String,
}

impl SequenceWriter {
    /// Starts `path` (`-`: stdout) under `rules` for a table of `count`
    /// heaps (raw: the header's count, patched by `finish` if the table ends
    /// elsewhere).
    pub fn create(
        path: &Path,
        rules: OutputRules,
        format: Format,
        code: &str,
        min_diff: u32,
        count: u64,
    ) -> Result<SequenceWriter> {
        let mut sink = if is_stdout(path) {
            if format == Format::Raw {
                return Err(Error::Input(format!(
                    "{} needs {} FILE (its header's count is filled in at the end); expected a \
                     file name, not -",
                    Setting::Format.is("raw"),
                    Setting::Out.named()
                )));
            }
            Sink::Stdout(BufWriter::new(io::stdout()))
        } else {
            Sink::File(AtomicFile::create(path, rules)?)
        };
        let shown = match sink {
            Sink::Stdout(_) => "stdout".to_string(),
            Sink::File(_) => path.display().to_string(),
        };
        let header_len =
            write_header(sink.writer(), format, code, min_diff, count).map_err(writing(&shown))?;
        Ok(SequenceWriter {
            sink,
            format,
            written: 0,
            promised: count,
            count_at: header_len.saturating_sub(1 + RAW_COUNT_DIGITS as u64),
            values_at: header_len,
            shown,
        })
    }

    /// Writes the heaps of `g` not written yet.
    pub fn append<T: Copy + Into<u32>>(&mut self, g: &[T]) -> Result<()> {
        self.append_from(0, g)
    }

    /// Writes the heaps not written yet of `piece`, the values of heaps
    /// `first..first + piece.len()` (`first` at most `written()`).
    pub fn append_from<T: Copy + Into<u32>>(&mut self, first: usize, piece: &[T]) -> Result<()> {
        assert!(first <= self.written, "a gap before the piece");
        let rows = (first, piece);
        let written = write_heap_rows(self.sink.writer(), rows, self.format, self.written);
        written.map_err(writing(&self.shown))?;
        self.written = self.written.max(first + piece.len());
        Ok(())
    }

    /// Heaps written so far.
    pub fn written(&self) -> usize {
        self.written
    }

    /// Whether values written can be read back by position (`read_back`):
    /// raw `u16` values in a file.
    pub fn can_read_back(&self) -> bool {
        matches!(&self.sink, Sink::File(file) if file.can_read_back()) && self.format == Format::Raw
    }

    /// G(a..b), read back from what was written (`can_read_back`; `b` at
    /// most `written()`).
    pub fn read_back(&mut self, a: usize, b: usize) -> Result<Vec<u16>> {
        let shown = self.shown.clone();
        let cannot = move |why: String| Error::Run(format!("reading back {shown}: {why}"));
        if !self.can_read_back() || a > b || b > self.written {
            return Err(cannot(format!(
                "heaps {a}..{b} were not written as raw values"
            )));
        }
        let Sink::File(file) = &mut self.sink else {
            unreachable!("can_read_back: a file")
        };
        let mut bytes = vec![0u8; 2 * (b - a)];
        let at = self.values_at + 2 * a as u64;
        file.read_at(at, &mut bytes)
            .map_err(|e| cannot(e.to_string()))?;
        Ok(bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    /// Ends the table: trailer, the raw header's count, rename into place.
    pub fn finish(mut self) -> Result<()> {
        let trailer = write_trailer(self.sink.writer(), self.format, self.written);
        trailer.map_err(writing(&self.shown))?;
        let failed = writing(&self.shown);
        match self.sink {
            Sink::Stdout(mut w) => w.flush().map_err(failed),
            Sink::File(mut file) => {
                if self.format == Format::Raw && self.written as u64 != self.promised {
                    let count = format!("{:0width$}", self.written, width = RAW_COUNT_DIGITS);
                    file.patch(self.count_at, count.as_bytes())
                        .map_err(failed)?;
                }
                file.commit()
            }
        }
    }
}

/// A write error naming what was written (`shown`: a path, or stdout).
fn writing(shown: &str) -> impl Fn(io::Error) -> Error + '_ {
    move |e| Error::Run(format!("writing {shown}: {e}"))
}

impl Sink {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::File(f) => f,
            Sink::Stdout(w) => w,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing (`fuzz/found/raw`): a count whose double overflows
    /// is refused, not multiplied (a panic with overflow checks, and
    /// without them a product that wraps round to the bytes that follow).
    #[test]
    fn a_raw_header_counting_past_the_address_space_is_refused() {
        let mut bytes =
            format!("{RAW_MAGIC} code=0.07 min_diff=0 count=9223372036854775811\n").into_bytes();
        bytes.extend_from_slice(&[1, 0, 2, 0, 3, 0]);
        let Err(err) = read_raw(&bytes) else {
            panic!("a count past the address space was accepted");
        };
        assert!(err.contains("9223372036854775811 values"), "{err}");
    }

    #[test]
    fn rows_past_two_to_the_32_carry_their_heap_numbers() {
        let first = 5_000_000_000usize;
        let mut out = Vec::new();
        write_heap_rows(&mut out, (first, &[1u16, 2, 3]), Format::Csv, first + 1).unwrap();
        assert_eq!(out, b"5000000001,2\n5000000002,3\n");
        out.clear();
        write_heap_rows(&mut out, (first, &[7u16, 40]), Format::Bfile, first).unwrap();
        assert_eq!(out, b"5000000000 7\n5000000001 40\n");
    }

    #[test]
    fn digits_are_written_as_nim_digit_spells_them() {
        let values: Vec<u16> = (0..300).collect();
        let mut out = Vec::new();
        write_heap_rows(&mut out, (0, &values), Format::Digits, 0).unwrap();
        let spelled: String = values.iter().map(|&v| nim_digit(v)).collect();
        assert_eq!(String::from_utf8(out).unwrap(), spelled);
    }
}
