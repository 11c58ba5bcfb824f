//! Checkpoints of a survey: every finished code's row, appended as it
//! finishes, so a survey stopped at any moment (a signal, a time limit,
//! kill -9) resumes with only the codes in flight to redo.
//!
//! The file is text: a first line naming the format, then one record per
//! line, `CRC32 JSON` — the CRC-32 (8 hex digits) of the JSON after the
//! space. The first record is the survey's key (its code list, N, the
//! algorithm, the shard); each further one is a finished code's row with
//! its place in the list. A last line without its newline was cut short by
//! a kill and is dropped; any other damaged line is refused, so a flipped
//! bit never becomes a wrong row.

use grundy_core::export::OutputRules;
use grundy_core::export::journal::Journaled;
use grundy_core::setting::Setting;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::heap::brute::blocked::HeapEngine;
use crate::heap::sequence::Algorithm;
use crate::survey::SurveyRow;
use grundy_core::error::{Error, Result};
use grundy_core::export::AtomicFile;
use grundy_core::game::Code;

/// The first line of every survey checkpoint.
const MAGIC: &str = "grundy survey checkpoint v1";
/// The largest checkpoint read back (a 6-digit survey's rows are ~60 MB).
const MAX_BYTES: u64 = 1 << 30;
/// Appended rows reach the disk at least this often (a node that dies
/// loses at most this much; a killed process loses nothing written).
const SYNC_EVERY: Duration = Duration::from_secs(2);

/// What makes two surveys the same: a checkpoint of another is refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurveyKey {
    /// The whole code list: how many codes and the CRC-32 of their names.
    pub list_codes: u64,
    pub list_crc32: u32,
    pub n: u64,
    pub algorithm: Algorithm,
    /// `K/N`, or null for the whole list.
    pub shard: Option<String>,
}

impl SurveyKey {
    /// The key of a survey of the codes `list` to heap `n` (the slice
    /// `shard` of it, if any).
    pub fn of(list: &[Code], n: u64, algorithm: Algorithm, shard: Option<String>) -> SurveyKey {
        let names: Vec<String> = list.iter().map(|c| c.name()).collect();
        SurveyKey {
            list_codes: list.len() as u64,
            list_crc32: list_crc32(names.iter().map(|s| s.as_str())),
            n,
            algorithm,
            shard,
        }
    }
}

/// The CRC-32 of a list of code names, one per line.
pub fn list_crc32<'a>(names: impl IntoIterator<Item = &'a str>) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    for name in names {
        crc.update(name.as_bytes());
        crc.update(b"\n");
    }
    crc.finalize()
}

/// One finished code: its place in the run's list, its row, its engine.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    place: usize,
    row: SurveyRow,
    engine: HeapEngine,
}

/// The rows a checkpoint holds, by place in the run's code list.
pub type DoneRows = BTreeMap<usize, (SurveyRow, HeapEngine)>;

/// A checkpoint's rows after checking it is of `key`'s survey over `names`
/// (the run's codes, in order), and the length of its whole lines.
pub fn load(path: &Path, key: &SurveyKey, names: &[String]) -> Result<(DoneRows, u64)> {
    let bad = |why: String| {
        Error::Input(format!(
            "{}: {why}; expected a checkpoint written by `survey {}`",
            Setting::Resume.is(path.display()),
            Setting::Checkpoint.named()
        ))
    };
    let unreadable =
        |e: std::io::Error| Error::Input(format!("{}: {e}", Setting::Resume.is(path.display())));
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size > MAX_BYTES {
        return Err(bad(format!("{size} bytes, more than any survey's rows")));
    }
    let bytes = std::fs::read(path).map_err(unreadable)?;
    let text = std::str::from_utf8(&bytes).map_err(|_| bad("not text".into()))?;
    // Whole lines only: a last one without its newline was cut by a kill.
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = text[..whole].lines();
    if lines.next() != Some(MAGIC) {
        return Err(bad(format!("the first line is not '{MAGIC}'")));
    }
    let mut records = lines.enumerate().map(|(i, line)| {
        let payload = checked(line)
            .ok_or_else(|| bad(format!("line {} is damaged (checksum mismatch)", i + 2)))?;
        Ok::<_, Error>((i + 2, payload))
    });
    let (_, header) = records
        .next()
        .ok_or_else(|| bad("no survey key".into()))??;
    let found: SurveyKey =
        serde_json::from_str(header).map_err(|e| bad(format!("damaged survey key ({e})")))?;
    if let Some(why) = differs(&found, key) {
        return Err(Error::Input(format!(
            "{}: the checkpoint is of another survey ({why}); expected the same codes, {}, {} \
             and {}",
            Setting::Resume.is(path.display()),
            Setting::N.named(),
            Setting::Algorithm.named(),
            Setting::Shard.named()
        )));
    }
    let mut done = DoneRows::new();
    for record in records {
        let (number, payload) = record?;
        let r: Record = serde_json::from_str(payload)
            .map_err(|e| bad(format!("line {number} is not a row ({e})")))?;
        if names.get(r.place) != Some(&r.row.code) || r.row.n != key.n {
            return Err(bad(format!(
                "line {number}: code {} to heap {} at place {} is not in this survey",
                r.row.code, r.row.n, r.place
            )));
        }
        done.insert(r.place, (r.row, r.engine));
    }
    Ok((done, whole as u64))
}

/// The payload of a `CRC32 JSON` line whose checksum holds (a hunt's rows
/// are such lines too).
pub fn checked(line: &str) -> Option<&str> {
    let (crc, payload) = line.split_once(' ')?;
    let crc = u32::from_str_radix(crc, 16).ok()?;
    (crc32fast::hash(payload.as_bytes()) == crc).then_some(payload)
}

/// `CRC32 JSON\n` for a payload.
pub fn line_of(payload: &str) -> String {
    format!("{:08x} {payload}\n", crc32fast::hash(payload.as_bytes()))
}

/// The first field where two keys differ, said as `-n 2000, not 1000`.
fn differs(found: &SurveyKey, wanted: &SurveyKey) -> Option<String> {
    let shard = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".into());
    if found.n != wanted.n {
        return Some(format!("{}, not {}", Setting::N.is(found.n), wanted.n));
    }
    if found.algorithm != wanted.algorithm {
        return Some(format!(
            "{}, not {:?}",
            Setting::Algorithm.is(format!("{:?}", found.algorithm)),
            wanted.algorithm
        ));
    }
    if found.shard != wanted.shard {
        return Some(format!(
            "{}, not {}",
            Setting::Shard.is(shard(&found.shard)),
            shard(&wanted.shard)
        ));
    }
    (found != wanted).then(|| {
        format!(
            "a list of {} codes, not {} (or other codes)",
            found.list_codes, wanted.list_codes
        )
    })
}

/// A checkpoint open for appending rows.
pub struct Appender {
    file: Journaled,
    path: PathBuf,
    rows: usize,
    synced: Instant,
}

impl Appender {
    /// A new checkpoint at `path` holding `key` and the rows `done` (those
    /// of a checkpoint resumed into another file), written whole before it
    /// takes appends.
    pub fn create(
        path: &Path,
        rules: OutputRules,
        key: &SurveyKey,
        done: &DoneRows,
    ) -> Result<Appender> {
        let failed = |e: std::io::Error| Error::Run(format!("writing {}: {e}", path.display()));
        let mut file = AtomicFile::create(path, rules)?;
        let header = serde_json::to_string(key).map_err(|e| Error::Run(e.to_string()))?;
        let mut text = format!("{MAGIC}\n{}", line_of(&header));
        for (&place, (row, engine)) in done {
            text += &record_line(place, row, *engine)?;
        }
        file.write_all(text.as_bytes()).map_err(failed)?;
        file.commit()?;
        Appender::open(path, None, done.len())
    }

    /// The checkpoint at `path` (read by `load`), its torn last line (past
    /// byte `whole`) cut off.
    pub fn resume(path: &Path, whole: u64, rows: usize) -> Result<Appender> {
        Appender::open(path, Some(whole), rows)
    }

    fn open(path: &Path, cut_at: Option<u64>, rows: usize) -> Result<Appender> {
        let failed = |e: std::io::Error| Error::Run(format!("opening {}: {e}", path.display()));
        let mut file = Journaled::append(path).map_err(failed)?;
        if let Some(whole) = cut_at
            && file.file().metadata().map_err(failed)?.len() > whole
        {
            file.set_len(whole).map_err(failed)?;
        }
        Ok(Appender {
            file,
            path: path.to_path_buf(),
            rows,
            synced: Instant::now(),
        })
    }

    /// Appends the row of the code at `place`, whole or not at all (a
    /// signal waits for it); it reaches the disk within `SYNC_EVERY`.
    pub fn append(&mut self, place: usize, row: &SurveyRow, engine: HeapEngine) -> Result<()> {
        let line = record_line(place, row, engine)?;
        let failed =
            |e: std::io::Error| Error::Run(format!("writing {}: {e}", self.path.display()));
        grundy_core::interrupt::appending(|| self.file.write_all(line.as_bytes()))
            .map_err(failed)?;
        self.rows += 1;
        if self.synced.elapsed() >= SYNC_EVERY {
            self.file.sync_data().map_err(failed)?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rows the checkpoint holds.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Everything appended, on the disk.
    pub fn finish(self) -> Result<()> {
        self.file
            .sync_data()
            .map_err(|e| Error::Run(format!("writing {}: {e}", self.path.display())))
    }
}

fn record_line(place: usize, row: &SurveyRow, engine: HeapEngine) -> Result<String> {
    let record = Record {
        place,
        row: row.clone(),
        engine,
    };
    let payload = serde_json::to_string(&record).map_err(|e| Error::Run(e.to_string()))?;
    Ok(line_of(&payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(code: &str, n: u64) -> SurveyRow {
        SurveyRow {
            code: code.into(),
            n,
            period: Some(4),
            preperiod: Some(0),
            certified: true,
            max_value: 3,
            first_max_at: 3,
            p_positions: n / 4,
            rare_mask: "0x1".into(),
            rare_count: 1,
            last_rare: Some(0),
        }
    }

    fn key(n: u64) -> SurveyKey {
        SurveyKey {
            list_codes: 3,
            list_crc32: 7,
            n,
            algorithm: Algorithm::Auto,
            shard: Some("0/2".into()),
        }
    }

    #[test]
    fn rows_come_back_a_torn_line_is_dropped_and_damage_is_refused() {
        let dir = std::env::temp_dir().join(format!("grundy-sck-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.ck");
        let names: Vec<String> = ["0.1", "0.2", "0.3"].map(String::from).into();
        let mut ck =
            Appender::create(&path, OutputRules::default(), &key(100), &DoneRows::new()).unwrap();
        ck.append(2, &row("0.3", 100), HeapEngine::Rare).unwrap();
        ck.append(0, &row("0.1", 100), HeapEngine::Blocked).unwrap();
        ck.finish().unwrap();
        let good = std::fs::read(&path).unwrap();
        let (done, whole) = load(&path, &key(100), &names).unwrap();
        assert_eq!(whole, good.len() as u64);
        assert_eq!(done.keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(done[&2], (row("0.3", 100), HeapEngine::Rare));
        // A kill mid-append leaves part of a line: dropped, then cut off.
        std::fs::write(&path, [&good[..], b"1234abcd {\"pla"].concat()).unwrap();
        let (done, whole) = load(&path, &key(100), &names).unwrap();
        assert_eq!((done.len(), whole), (2, good.len() as u64));
        let mut ck = Appender::resume(&path, whole, done.len()).unwrap();
        ck.append(1, &row("0.2", 100), HeapEngine::Rare).unwrap();
        assert_eq!(load(&path, &key(100), &names).unwrap().0.len(), 3);
        // Every flipped bit of a whole line is refused.
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x04;
            std::fs::write(&path, &bad).unwrap();
            if let Ok((done, _)) = load(&path, &key(100), &names) {
                // Only a flip of the last newline can pass: that line is torn.
                assert_eq!((at, done.len()), (good.len() - 1, 1), "byte {at}");
            }
        }
        // Another survey's checkpoint names what differs.
        std::fs::write(&path, &good).unwrap();
        let err = load(&path, &key(200), &names).unwrap_err();
        let differs = format!("{}, not 200", Setting::N.is(100));
        assert!(err.message().contains(&differs), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
