//! Tables out: CSV, OEIS b-files and nim strings, written to a temporary
//! name and renamed when complete, so an interrupted run never leaves a
//! truncated file that looks whole.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// How a heap table is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `n,g` with a header row.
    Csv,
    /// OEIS b-file: `n g` per line.
    Bfile,
    /// The nim string: one base-36 digit per value (values of 36 and more in parentheses).
    Digits,
}

/// A file that appears under its name only once `commit` is called.
pub struct AtomicFile {
    tmp: PathBuf,
    path: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    pub fn create(path: &Path) -> Result<AtomicFile> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                Error::Input(format!("cannot create directory {}: {e}", dir.display()))
            })?;
        }
        let name = path.file_name().ok_or_else(|| {
            Error::Input(format!("--out {}: expected a file name", path.display()))
        })?;
        let tmp = path.with_file_name(format!(
            ".{}.partial-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = File::create(&tmp)
            .map_err(|e| Error::Input(format!("cannot write {}: {e}", path.display())))?;
        Ok(AtomicFile {
            tmp,
            path: path.to_path_buf(),
            out: Some(BufWriter::new(file)),
        })
    }

    pub fn commit(mut self) -> Result<()> {
        let out = self.out.take().expect("committed once");
        let file = out.into_inner().map_err(|e| Error::Run(e.to_string()))?;
        file.sync_all()?;
        std::fs::rename(&self.tmp, &self.path)?;
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.as_mut().expect("open").write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.as_mut().expect("open").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes rows to `path` (`-`: stdout) atomically: `write` gets the sink.
pub fn write_to(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    if path == Path::new("-") {
        let stdout = io::stdout();
        let mut lock = BufWriter::new(stdout.lock());
        write(&mut lock)?;
        lock.flush()?;
        return Ok(());
    }
    let mut file = AtomicFile::create(path)?;
    write(&mut file).map_err(|e| Error::Run(format!("writing {}: {e}", path.display())))?;
    file.commit()
}

/// One value as a nim-string digit.
pub fn nim_digit(v: u16) -> String {
    if v < 36 {
        char::from_digit(v as u32, 36).unwrap_or('?').to_string()
    } else {
        format!("({v})")
    }
}

/// Writes heap values `g` (heap n at index n) in `format`.
pub fn write_heap_table(out: &mut dyn Write, g: &[u16], format: Format) -> io::Result<()> {
    match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(["n", "g"])?;
            for (n, v) in g.iter().enumerate() {
                w.serialize((n, v))?;
            }
            w.flush()?;
        }
        Format::Bfile => {
            for (n, v) in g.iter().enumerate() {
                writeln!(out, "{n} {v}")?;
            }
        }
        Format::Digits => {
            for &v in g {
                out.write_all(nim_digit(v).as_bytes())?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}
