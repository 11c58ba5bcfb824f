//! Checkpoints of a long Nim-sequence run, appended as the run goes: a
//! checkpoint costs what is new since the last, never a rewrite of what is
//! saved.
//!
//! A file is a header line (JSON: the format, the code) and the CRC-32 of
//! that line (4 bytes, little-endian), then pieces. A piece is a head —
//! `GCP3`, its first heap (u64), its count of values (u32), its width (1:
//! a byte a value; 2: two, little-endian; 3: a byte a value, the few values
//! past 254 listed after them) and the length of that list (u24), and the
//! CRC-32 of those 20 bytes — then its values and the CRC-32 of head and
//! values. A piece whose
//! head is whole but whose values run past the end of the file was cut
//! short by a kill mid-append: it is dropped, and the run resumes from the
//! pieces before it. Anything else that does not hold — a checksum, a
//! piece that does not start where the last ended, values the rules cannot
//! give — is refused: a damaged file never becomes a wrong table.
//!
//! Files written before appending (formats v1 and v2: the whole table after
//! the header, v2 with a CRC-32 at the end) are still read; a run that goes
//! on saving into one rewrites it once in this format.

use grundy_core::export::journal::Journaled;
use grundy_core::setting::Setting;
use std::fs::File;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::heap::sequence::{Algorithm, SequenceRun};
use crate::heap::storage::paged::Place;
use crate::heap::storage::table::HeapTable;
use grundy_core::error::{Error, Result};
use grundy_core::export::{AtomicFile, OutputRules};
use grundy_core::game::Code;

const FORMAT: &str = "grundy checkpoint v3";
/// The whole table and a CRC-32 at the end; still read.
const FORMAT_V2: &str = "grundy checkpoint v2";
/// Written before checksums; still read, its values checked.
const FORMAT_V1: &str = "grundy checkpoint v1";
/// Heaps recomputed from the rules when a checkpoint is loaded.
const RECOMPUTED: usize = 2048;
/// The first bytes of every piece.
const PIECE_MAGIC: &[u8; 4] = b"GCP3";
/// Bytes of a piece's head, its own CRC-32 included.
const HEAD: usize = 24;
/// The most values one piece holds (a larger save is several pieces).
const PIECE_VALUES: usize = 1 << 24;

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
struct Header {
    format: String,
    code: String,
    min_diff: u32,
    /// v1 and v2: heaps 0..heaps are stored, `bytes_per_value` each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    heaps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bytes_per_value: Option<u64>,
}

/// A checkpoint as `load` found it.
#[derive(Debug)]
pub struct Loaded {
    pub table: HeapTable,
    /// The bytes of its whole pieces, where more may be appended (`None`:
    /// an older format, rewritten before anything is appended).
    pub appendable: Option<u64>,
    /// A last piece cut short by a kill was dropped.
    pub torn: bool,
}

/// A checkpoint open for appending what each save adds.
pub struct Appender {
    file: Journaled,
    path: PathBuf,
    /// Heaps 0..heaps are in the file.
    heaps: u64,
}

impl Appender {
    /// Writes a new checkpoint of `table` at `path` whole (a temporary name,
    /// renamed), then keeps it open for appending.
    pub fn create(
        path: &Path,
        rules: OutputRules,
        code: &Code,
        table: &HeapTable,
    ) -> Result<Appender> {
        use grundy_core::export::target::{Target, resolve};
        let flag = Setting::Checkpoint.named();
        if matches!(resolve(&flag, path, rules)?, Target::Special(_)) {
            return Err(Error::Input(format!(
                "{}: expected a regular file (a checkpoint is read back)",
                Setting::Checkpoint.is(path.display())
            )));
        }
        let failed = |e: std::io::Error| Error::Run(format!("writing {}: {e}", path.display()));
        let mut file = AtomicFile::create(path, rules)?;
        let header = Header {
            format: FORMAT.into(),
            code: code.text.clone(),
            min_diff: code.min_diff,
            heaps: None,
            bytes_per_value: None,
        };
        let line = serde_json::to_string(&header).map_err(|e| Error::Run(e.to_string()))? + "\n";
        file.write_all(line.as_bytes()).map_err(failed)?;
        file.write_all(&crc32fast::hash(line.as_bytes()).to_le_bytes())
            .map_err(failed)?;
        write_pieces(&mut file, table, 0).map_err(failed)?;
        file.commit()?;
        let end = std::fs::metadata(path).map_err(failed)?.len();
        Appender::open(path, end, table.len() as u64)
    }

    /// The checkpoint at `path` that `load` read, open for appending after
    /// its whole pieces (`whole` bytes: a torn last piece is cut off).
    pub fn open(path: &Path, whole: u64, heaps: u64) -> Result<Appender> {
        let failed = |e: std::io::Error| Error::Run(format!("opening {}: {e}", path.display()));
        let mut file = Journaled::append(path).map_err(failed)?;
        if file.file().metadata().map_err(failed)?.len() > whole {
            file.set_len(whole).map_err(failed)?;
        }
        Ok(Appender {
            file,
            path: path.to_path_buf(),
            heaps,
        })
    }

    /// Appends the heaps of `table` the file does not hold yet, and waits
    /// until they are on the disk.
    pub fn append(&mut self, table: &HeapTable) -> Result<()> {
        let failed =
            |e: std::io::Error| Error::Run(format!("writing {}: {e}", self.path.display()));
        if table.len() as u64 <= self.heaps {
            return Ok(());
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 20, &mut self.file);
        write_pieces(&mut out, table, self.heaps as usize).map_err(failed)?;
        out.flush().map_err(failed)?;
        drop(out);
        self.file.sync_data().map_err(failed)?;
        self.heaps = table.len() as u64;
        Ok(())
    }

    /// Heaps the file holds.
    pub fn heaps(&self) -> u64 {
        self.heaps
    }
}

/// Heaps `from..` of `table` as pieces: one byte a value where a piece's
/// values allow, else two.
fn write_pieces(out: &mut impl Write, table: &HeapTable, from: usize) -> std::io::Result<()> {
    let mut a = from;
    while a < table.len() {
        let b = table.len().min(a + PIECE_VALUES);
        let (width, escapes, bytes) = match table.bytes(a, b) {
            Some(bytes) => (1, 0, std::borrow::Cow::Borrowed(bytes)),
            None => piece_bytes(&table.values(a, b)),
        };
        let mut head = Vec::with_capacity(HEAD);
        head.extend_from_slice(PIECE_MAGIC);
        head.extend_from_slice(&(a as u64).to_le_bytes());
        head.extend_from_slice(&((b - a) as u32).to_le_bytes());
        head.push(width);
        head.extend_from_slice(&escapes.to_le_bytes()[..3]);
        head.extend_from_slice(&crc32fast::hash(&head).to_le_bytes());
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        crc.update(&bytes);
        out.write_all(&head)?;
        out.write_all(&bytes)?;
        out.write_all(&crc.finalize().to_le_bytes())?;
        a = b;
    }
    Ok(())
}

/// A piece's values as bytes, its width code and escapes: 1, one byte a
/// value; 3, one byte a value with the values of 255 and more listed after
/// them (place in the piece u32, value u16), while they are at most one in
/// 16 (Grundy's game past 7 million heaps: a few in a million); else 2, two
/// bytes a value, little-endian.
fn piece_bytes(values: &[u16]) -> (u8, u32, std::borrow::Cow<'static, [u8]>) {
    let escapes = values.iter().filter(|&&v| v >= 255).count();
    if escapes == 0 {
        return (1, 0, values.iter().map(|&v| v as u8).collect());
    }
    if escapes * 16 > values.len() {
        return (2, 0, values.iter().flat_map(|v| v.to_le_bytes()).collect());
    }
    let mut bytes: Vec<u8> = values.iter().map(|&v| v.min(255) as u8).collect();
    for (i, &v) in values.iter().enumerate().filter(|(_, v)| **v >= 255) {
        bytes.extend_from_slice(&(i as u32).to_le_bytes());
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    (3, escapes as u32, bytes.into())
}

/// Loads a checkpoint of `code`: exit 2 naming the file for a damaged one
/// (a checksum), one of another game, or values the rules cannot give. The
/// file is read a piece at a time, so resuming takes the table's memory,
/// not the file's as well.
pub fn load(path: &Path, code: &Code) -> Result<Loaded> {
    load_in(path, code, &Place::Memory)
}

/// `load`, the table's values kept at `place` (a file for a run whose
/// table does not fit its memory).
pub fn load_in(path: &Path, code: &Code, place: &Place) -> Result<Loaded> {
    let bad = |why: String| {
        Error::Input(format!(
            "{}: {why}; expected a checkpoint written by {}",
            Setting::Resume.is(path.display()),
            Setting::Checkpoint.named()
        ))
    };
    let unreadable =
        |e: std::io::Error| Error::Input(format!("{}: {e}", Setting::Resume.is(path.display())));
    let file = File::open(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    let mut reader = std::io::BufReader::with_capacity(READ_BUFFER, file);
    let (header, line) = read_header(&mut reader).map_err(unreadable)?.map_err(bad)?;
    // The sizes were checked: an end of file here means it shrank while read.
    let read_failed = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => bad("the file is cut short".into()),
        _ => unreadable(e),
    };
    let left = size - line.len() as u64;
    let table = HeapTable::new_in(place)
        .map_err(|e| Error::Run(format!("a file for the table could not be made: {e}")))?;
    let loaded = match header.format.as_str() {
        FORMAT => read_pieces(&mut reader, &line, (left, table)).map_err(read_failed)?,
        _ => read_whole(&mut reader, &header, &line, left, table).map_err(read_failed)?,
    }
    .map_err(|why| bad(why.into_message(size)))?;
    if header.code != code.text || header.min_diff != code.min_diff {
        return Err(Error::Input(format!(
            "{}: the checkpoint is of {} (min-diff {}), not {} (min-diff {}); expected the same \
             game",
            Setting::Resume.is(path.display()),
            header.code,
            header.min_diff,
            code.text,
            code.min_diff
        )));
    }
    check_values(code, &loaded.table).map_err(bad)?;
    Ok(loaded)
}

/// Bytes of the file read at a time.
const READ_BUFFER: usize = 1 << 20;
/// The longest header line read.
const HEADER_MAX: u64 = 1 << 16;

/// Why a file is not a checkpoint, with the place where that showed.
struct Refusal {
    why: String,
    /// Bytes from the end of the file where it showed (for the message).
    from_end: Option<u64>,
}

impl Refusal {
    fn new(why: impl Into<String>) -> Refusal {
        Refusal {
            why: why.into(),
            from_end: None,
        }
    }

    fn into_message(self, size: u64) -> String {
        match self.from_end {
            Some(left) => format!("{} (at byte {})", self.why, size - left),
            None => self.why,
        }
    }
}

/// The header line and the header (an outer error: the file could not be
/// read; an inner one: it is not a checkpoint).
fn read_header(
    reader: &mut impl BufRead,
) -> std::io::Result<std::result::Result<(Header, Vec<u8>), String>> {
    let mut line = Vec::new();
    Read::take(&mut *reader, HEADER_MAX).read_until(b'\n', &mut line)?;
    if line.last() != Some(&b'\n') {
        return Ok(Err("no header line".into()));
    }
    let header: Header = match serde_json::from_slice(&line[..line.len() - 1]) {
        Ok(header) => header,
        Err(e) => return Ok(Err(format!("damaged header ({e})"))),
    };
    if ![FORMAT, FORMAT_V2, FORMAT_V1].contains(&header.format.as_str()) {
        return Ok(Err(format!("unknown format '{}'", header.format)));
    }
    Ok(Ok((header, line)))
}

type Reading<T> = std::io::Result<std::result::Result<T, Refusal>>;

/// The pieces of a v3 file after its header `line` (`left` bytes remain),
/// read one at a time into a table as narrow as their values allow.
fn read_pieces(
    reader: &mut impl Read,
    line: &[u8],
    (mut left, mut table): (u64, HeapTable),
) -> Reading<Loaded> {
    let refuse = |why: String, left: u64| {
        Ok(Err(Refusal {
            why,
            from_end: Some(left),
        }))
    };
    let mut stored = [0; 4];
    if left < 4 {
        return Ok(Err(Refusal::new("the header's checksum is missing")));
    }
    reader.read_exact(&mut stored)?;
    left -= 4;
    if crc32fast::hash(line) != u32::from_le_bytes(stored) {
        return Ok(Err(Refusal::new(
            "checksum mismatch in the header: the file is damaged",
        )));
    }
    let mut whole = line.len() as u64 + 4;
    let mut values = Vec::new();
    while left >= HEAD as u64 {
        let mut head = [0u8; HEAD];
        reader.read_exact(&mut head)?;
        let piece = match PieceHead::parse(&head, table.len() as u64) {
            Ok(piece) => piece,
            Err(why) => return refuse(why, left),
        };
        if left - (HEAD as u64) < piece.bytes() + 4 {
            // Values past the end: a kill mid-append. What came before holds.
            return Ok(Ok(Loaded {
                table,
                appendable: Some(whole),
                torn: true,
            }));
        }
        values.resize(piece.bytes() as usize, 0);
        reader.read_exact(&mut values)?;
        reader.read_exact(&mut stored)?;
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        crc.update(&values);
        if crc.finalize() != u32::from_le_bytes(stored) {
            return refuse(
                "checksum mismatch in a piece: the file is damaged".into(),
                left,
            );
        }
        if let Err(why) = piece.push_into(&values, &mut table) {
            return refuse(why, left);
        }
        left -= HEAD as u64 + piece.bytes() + 4;
        whole += HEAD as u64 + piece.bytes() + 4;
    }
    Ok(Ok(Loaded {
        table,
        appendable: Some(whole),
        torn: left > 0,
    }))
}

/// A piece's head, checked.
struct PieceHead {
    count: u64,
    /// 1, 2 or 3 (`piece_bytes`).
    width: u64,
    escapes: u64,
}

impl PieceHead {
    /// The head of the piece that should start at heap `next`.
    fn parse(head: &[u8; HEAD], next: u64) -> std::result::Result<PieceHead, String> {
        let field = |a: usize, b: usize| {
            let mut word = [0u8; 8];
            word[..b - a].copy_from_slice(&head[a..b]);
            u64::from_le_bytes(word)
        };
        if crc32fast::hash(&head[..20]) != field(20, 24) as u32 || &head[..4] != PIECE_MAGIC {
            return Err("a piece's head is damaged".into());
        }
        let (first, count, width, escapes) =
            (field(4, 12), field(12, 16), field(16, 17), field(17, 20));
        let escapes_fit = if width == 3 {
            escapes <= count
        } else {
            escapes == 0
        };
        if first != next
            || !(1..=3).contains(&width)
            || !escapes_fit
            || count == 0
            || count > PIECE_VALUES as u64
        {
            return Err(format!(
                "a piece of {count} values of width {width} from heap {first} after heap {next}: \
                 not what this program writes"
            ));
        }
        Ok(PieceHead {
            count,
            width,
            escapes,
        })
    }

    fn bytes(&self) -> u64 {
        match self.width {
            3 => self.count + 6 * self.escapes,
            width => self.count * width,
        }
    }

    /// Appends the piece's values to `table`; an error when its escapes do
    /// not match its bytes.
    fn push_into(&self, values: &[u8], table: &mut HeapTable) -> std::result::Result<(), String> {
        match self.width {
            1 => table
                .extend_bytes(values)
                .map_err(|e| format!("the table's file could not grow: {e}"))?,
            2 => {
                for pair in values.chunks_exact(2) {
                    table.push(u16::from_le_bytes([pair[0], pair[1]]));
                }
            }
            _ => return push_escaped(values, self.count as usize, table),
        }
        Ok(())
    }
}

/// A piece of width 3: one byte a value, 255 where the value is kept in
/// the list after them; every 255 must have its entry, in order.
fn push_escaped(
    values: &[u8],
    count: usize,
    table: &mut HeapTable,
) -> std::result::Result<(), String> {
    let (bytes, list) = values.split_at(count);
    let mut entries = list.chunks_exact(6).map(|e| {
        let place = u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as usize;
        (place, u16::from_le_bytes([e[4], e[5]]))
    });
    let mismatch = || "a piece's large values do not match its bytes".to_string();
    for (i, &byte) in bytes.iter().enumerate() {
        let value = match byte {
            255 => match entries.next() {
                Some((place, value)) if place == i && value >= 255 => value,
                _ => return Err(mismatch()),
            },
            byte => u16::from(byte),
        };
        table.push(value);
    }
    match entries.next() {
        Some(_) => Err(mismatch()),
        None => Ok(()),
    }
}

/// The values of a v1 or v2 file (`left` bytes after the header line):
/// the whole table, v2 with a CRC-32 of everything at the end.
fn read_whole(
    reader: &mut impl Read,
    header: &Header,
    line: &[u8],
    left: u64,
    mut table: HeapTable,
) -> Reading<Loaded> {
    let (heaps, width) = (
        header.heaps.unwrap_or(0),
        header.bytes_per_value.unwrap_or(0),
    );
    let trailer = if header.format == FORMAT_V2 { 4 } else { 0 };
    let Some(body) = left.checked_sub(trailer) else {
        return Ok(Err(Refusal::new(
            "no checksum at the end: the file is cut short",
        )));
    };
    if !matches!(width, 1 | 2) {
        return Ok(Err(Refusal::new(format!("{width} bytes per value"))));
    }
    if Some(body) != heaps.checked_mul(width) {
        return Ok(Err(Refusal::new(format!(
            "{heaps} heaps of {width} bytes announced but {body} bytes stored"
        ))));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(line);
    let mut piece = vec![0; READ_BUFFER];
    let mut left = body;
    while left > 0 {
        let piece = &mut piece[..(left as usize).min(READ_BUFFER)];
        reader.read_exact(piece)?;
        crc.update(piece);
        let head = PieceHead {
            count: piece.len() as u64 / width,
            width,
            escapes: 0,
        };
        let _ = head.push_into(piece, &mut table); // widths 1 and 2 always fit
        left -= piece.len() as u64;
    }
    if trailer > 0 {
        let mut stored = [0; 4];
        reader.read_exact(&mut stored)?;
        if crc.finalize() != u32::from_le_bytes(stored) {
            return Ok(Err(Refusal::new("checksum mismatch: the file is damaged")));
        }
    }
    Ok(Ok(Loaded {
        table,
        appendable: None,
        torn: false,
    }))
}

/// Values the rules cannot give: the first heaps differ from a fresh
/// computation, or a value exceeds what xors of earlier values allow (the
/// mex of values below 2^k is at most 2^k).
fn check_values(code: &Code, table: &HeapTable) -> std::result::Result<(), String> {
    let prefix = table.len().min(RECOMPUTED);
    if prefix > 0 {
        let mut fresh = SequenceRun::new(code, Algorithm::Auto, HeapTable::default())
            .map_err(|e| e.to_string())?;
        fresh
            .extend_on_cpu(prefix as u64 - 1)
            .map_err(|e| e.to_string())?;
        if let Some(n) = (0..prefix).find(|&n| fresh.table.get(n) != table.get(n)) {
            return Err(format!(
                "G({n}) = {} but the rules give {}",
                table.get(n),
                fresh.table.get(n)
            ));
        }
    }
    let mut max = 0u32;
    for n in 0..table.len() {
        let v = table.get(n) as u32;
        let cap = (max + 1).next_power_of_two();
        if v > cap {
            return Err(format!(
                "G({n}) = {v} is impossible: every earlier value is at most {max}, so G({n}) \
                 is at most {cap}"
            ));
        }
        max = max.max(v);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::storage::escaped::Escaped;

    /// Saves `table` of `code` to `path` whole, as a run's first save does.
    fn save(path: &Path, code: &Code, table: &HeapTable) -> Result<()> {
        Appender::create(path, OutputRules::default(), code, table).map(drop)
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-ck-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("ck")
    }

    fn computed(code: &Code, to: u64) -> HeapTable {
        let mut run = SequenceRun::new(code, Algorithm::Auto, HeapTable::default()).unwrap();
        run.extend_on_cpu(to).unwrap();
        run.table
    }

    #[test]
    fn a_checkpoint_reads_back_and_refuses_another_game() {
        let path = scratch("back");
        let code = Code::parse("0.16").unwrap();
        let narrow = computed(&code, 3000);
        let wide = HeapTable::Wide(narrow.clone().into_wide().into());
        let values = narrow.clone().into_wide().into_iter().map(u32::from);
        let escaped = HeapTable::Escaped(Escaped::of(values, 4, false).unwrap());
        // Read back as narrow as the values allow: one byte each here.
        for table in [narrow.clone(), wide, escaped] {
            save(&path, &code, &table).unwrap();
            assert_eq!(load(&path, &code).unwrap().table, narrow);
        }
        // Values past 255: two bytes in the file, as many in memory here
        // (too many past 254 to keep apart).
        let sevens = Code::parse("0.77777777777777777777").unwrap();
        let g = computed(&sevens, 3000).into_wide();
        assert!(g.iter().any(|&v| v > 255));
        let escaped = Escaped::of(g.iter().map(|&v| u32::from(v)), 200, false).unwrap();
        save(&path, &sevens, &HeapTable::Escaped(escaped)).unwrap();
        assert_eq!(
            load(&path, &sevens).unwrap().table,
            HeapTable::Wide(g.into())
        );
        let other = Code::parse("0.07").unwrap();
        let err = load(&path, &other).unwrap_err();
        assert!(err.to_string().contains("not 0.07"), "{err}");
        std::fs::write(&path, b"{\"format\":\"x\"}\n").unwrap();
        assert!(matches!(load(&path, &code), Err(Error::Input(_))));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn a_checkpoint_from_before_checksums_is_read_with_its_values_checked() {
        let path = scratch("v1");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let code = Code::parse("0.07").unwrap();
        let HeapTable::Narrow(g) = computed(&code, 3000) else {
            panic!("0.07 fits one byte per value")
        };
        let g = g.to_vec();
        let header = format!(
            "{{\"format\":\"{FORMAT_V1}\",\"code\":\"0.07\",\"min_diff\":0,\"heaps\":{},\"bytes_per_value\":1}}\n",
            g.len()
        );
        std::fs::write(&path, [header.as_bytes(), &g].concat()).unwrap();
        assert_eq!(
            load(&path, &code).unwrap().table,
            HeapTable::Narrow(g.clone().into())
        );
        let mut bad = g;
        bad[100] ^= 1;
        std::fs::write(&path, [header.as_bytes(), &bad].concat()).unwrap();
        let err = load(&path, &code).unwrap_err().to_string();
        assert!(
            err.contains("G(100)") && err.contains("but the rules give"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    /// A checkpoint of `code` to `to` saved in three appends.
    fn appended(path: &Path, code: &Code, to: u64) -> HeapTable {
        let table = computed(code, to);
        let first = |n: usize| HeapTable::from_wide(table.clone().into_wide()[..n].to_vec());
        let mut file =
            Appender::create(path, OutputRules::default(), code, &first(to as usize / 3)).unwrap();
        file.append(&first(to as usize / 2)).unwrap();
        file.append(&table).unwrap();
        assert_eq!(file.heaps(), table.len() as u64);
        table
    }

    /// A checkpoint in the whole-table format v2 (written before appends).
    fn v2_bytes(code: &str, g: &[u8]) -> Vec<u8> {
        let header = format!(
            "{{\"format\":\"{FORMAT_V2}\",\"code\":\"{code}\",\"min_diff\":0,\"heaps\":{},\"bytes_per_value\":1}}\n",
            g.len()
        );
        let mut bytes = [header.as_bytes(), g].concat();
        bytes.extend_from_slice(&crc32fast::hash(&bytes).to_le_bytes());
        bytes
    }

    #[test]
    fn appends_read_back_whole_and_a_torn_last_piece_is_dropped() {
        let path = scratch("append");
        let code = Code::parse("0.16").unwrap();
        let table = appended(&path, &code, 9000);
        let loaded = load(&path, &code).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(
            (&loaded.table, loaded.appendable, loaded.torn),
            (&table, Some(size), false)
        );
        // Three pieces: heaps 0..3000, 3000..4500, 4500..=9000.
        let last_piece = (HEAD + 4501 + 4) as u64;
        let good = std::fs::read(&path).unwrap();
        // A kill mid-append leaves any prefix of the last piece.
        for cut in [1, HEAD as u64, HEAD as u64 + 1, last_piece - 1] {
            let end = size - last_piece + cut;
            std::fs::write(&path, &good[..end as usize]).unwrap();
            let loaded = load(&path, &code).unwrap();
            assert!(loaded.torn, "cut {cut}");
            assert_eq!(loaded.table.len(), 4500, "cut {cut}");
            assert_eq!(loaded.appendable, Some(size - last_piece));
            // Appending cuts the torn piece off and goes on from heap 4500.
            let mut file =
                Appender::open(&path, size - last_piece, loaded.table.len() as u64).unwrap();
            file.append(&table).unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), good, "cut {cut}");
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    /// A file's bytes from the header `line` on, pieces of `table` after it.
    fn pieces_file(table: &HeapTable) -> (Vec<u8>, Vec<u8>) {
        let line =
            b"{\"format\":\"grundy checkpoint v3\",\"code\":\"x\",\"min_diff\":0}\n".to_vec();
        let mut body = crc32fast::hash(&line).to_le_bytes().to_vec();
        write_pieces(&mut body, table, 0).unwrap();
        (line, body)
    }

    #[test]
    fn few_large_values_keep_a_piece_one_byte_a_value_and_every_flip_is_refused() {
        // Values past 254 one heap in 100, as Grundy's game has them far fewer.
        let g: Vec<u16> = (0..5000u32)
            .map(|n| {
                if n % 100 == 7 {
                    255 + (n % 700) as u16
                } else {
                    (n * 37 % 200) as u16
                }
            })
            .collect();
        let (line, body) = pieces_file(&HeapTable::Wide(g.clone().into()));
        // One piece of width 3: a byte a value and 6 bytes per large value.
        assert_eq!(body.len(), 4 + HEAD + 5000 + 6 * 50 + 4);
        assert_eq!(body[4 + 16], 3);
        let read = |body: &[u8]| {
            read_pieces(
                &mut &body[..],
                &line,
                (body.len() as u64, HeapTable::default()),
            )
        };
        let loaded = read(&body).unwrap().ok().expect("the pieces read back");
        assert!(loaded.table.into_wide() == g, "the values read back");
        for at in 0..body.len() {
            for bit in [0, 3, 7] {
                let mut bad = body.clone();
                bad[at] ^= 1 << bit;
                let loaded = read(&bad).unwrap();
                assert!(loaded.is_err(), "byte {at} bit {bit} passed");
            }
        }
        // Dense large values: two bytes a value.
        let wide: Vec<u16> = (0..1000).map(|n| 250 + n % 20).collect();
        let (_, body) = pieces_file(&HeapTable::Wide(wide.into()));
        assert_eq!(body[4 + 16], 2);
    }

    #[test]
    fn a_whole_table_checkpoint_v2_is_still_read() {
        let path = scratch("v2");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let code = Code::parse("0.07").unwrap();
        let HeapTable::Narrow(g) = computed(&code, 3000) else {
            panic!("0.07 fits one byte per value")
        };
        let g = g.to_vec();
        std::fs::write(&path, v2_bytes("0.07", &g)).unwrap();
        let loaded = load(&path, &code).unwrap();
        assert_eq!(loaded.table, HeapTable::Narrow(g.clone().into()));
        assert_eq!(loaded.appendable, None, "rewritten before any append");
        let mut bad = v2_bytes("0.07", &g);
        bad[200] ^= 8;
        std::fs::write(&path, bad).unwrap();
        let err = load(&path, &code).unwrap_err().to_string();
        assert!(err.contains("checksum mismatch"), "{err}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn every_flipped_bit_is_refused() {
        let path = scratch("flip");
        let code = Code::parse("0.137").unwrap();
        appended(&path, &code, 5000);
        let good = std::fs::read(&path).unwrap();
        // A fixed-seed walk over positions in the header, body and checksum.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for trial in 0..400 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let at = if trial < 100 { trial } else { state as usize } % good.len();
            let mut bad = good.clone();
            bad[at] ^= 1 << ((state >> 40) % 8);
            std::fs::write(&path, &bad).unwrap();
            let err = load(&path, &code).expect_err("a flipped bit must be refused");
            assert!(matches!(err, Error::Input(_)), "byte {at}: {err}");
            assert!(
                err.to_string().contains(&path.display().to_string()),
                "{err}"
            );
        }
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn values_the_rules_cannot_give_are_refused_even_with_a_good_checksum() {
        let path = scratch("values");
        let code = Code::parse("0.07").unwrap();
        let mut g = computed(&code, 3000).into_wide();
        g[0] = 255;
        save(&path, &code, &HeapTable::Wide(g.clone().into())).unwrap();
        let err = load(&path, &code).unwrap_err().to_string();
        assert!(err.contains("G(0) = 255 but the rules give 0"), "{err}");
        g[0] = 0;
        g[2900] = 200; // past the recomputed prefix: values of 0.07 stay below 16
        save(&path, &code, &HeapTable::Wide(g.into())).unwrap();
        let err = load(&path, &code).unwrap_err().to_string();
        assert!(err.contains("G(2900) = 200 is impossible"), "{err}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
