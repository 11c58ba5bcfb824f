//! The checkpoint of a run that keeps only a prefix and a window of its
//! table (`rare::kept`): a header line (JSON: the format, the code, what is
//! kept, the heaps done) and its CRC-32 (4 bytes, little-endian), then one
//! JSON line with the rare-value state and the statistics so far, the
//! prefix's values and the window's (two bytes each, little-endian), and
//! the CRC-32 of all that. Written whole at each save, to a temporary name
//! renamed into place: its size is what the run keeps, whatever its heaps.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::heap::rare::RareState;
use crate::heap::rare::kept::Kept;
use crate::heap::sequence::{Algorithm, SequenceRun};
use crate::heap::storage::table::HeapTable;
use grundy_core::analysis::tally::Tally;
use grundy_core::error::{Error, Result};
use grundy_core::export::{AtomicFile, OutputRules};
use grundy_core::game::Code;
use grundy_core::setting::Setting;

pub const FORMAT: &str = "grundy kept checkpoint v1";
/// Heaps of the prefix recomputed from the rules when a checkpoint is loaded.
const RECOMPUTED: usize = 2048;

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    code: String,
    min_diff: u32,
    prefix: u64,
    window: u64,
    /// Heaps 0..heaps are done; the window's values are heaps window_from..heaps.
    heaps: u64,
    window_from: u64,
}

#[derive(Serialize, Deserialize)]
struct Body {
    rare: RareState,
    tally: Tally,
}

/// What a run keeping `kept` needs to go on from heap `heaps`.
#[derive(Debug)]
pub struct KeptSaved {
    pub kept: Kept,
    pub heaps: u64,
    /// G(0..min(prefix, heaps)).
    pub prefix: Vec<u16>,
    /// G(window_from..heaps): the last `window` heaps past the prefix.
    pub window_from: u64,
    pub window: Vec<u16>,
    pub rare: RareState,
    pub tally: Tally,
}

impl KeptSaved {
    /// Where a window saved at `heaps` starts (at `heaps`, empty, while
    /// the prefix holds them all).
    pub fn window_from(kept: Kept, heaps: u64) -> u64 {
        let from = heaps.saturating_sub(kept.window as u64);
        from.max(kept.prefix as u64).min(heaps)
    }
}

/// What a save writes: the run's state, and the table whose prefix and
/// window it keeps.
pub struct ToSave<'a> {
    pub kept: Kept,
    /// Heaps done: 0..heaps.
    pub heaps: u64,
    pub rare: RareState,
    pub tally: &'a Tally,
    pub table: &'a HeapTable,
}

/// Values written at a time: a save holds no copy of the table.
const SAVE_PIECE: usize = 1 << 20;

/// Writes `saved` to `path` whole (a temporary name, renamed), the values
/// read from the table a piece at a time.
pub fn save(path: &Path, rules: OutputRules, code: &Code, saved: ToSave) -> Result<()> {
    let failed = |e: std::io::Error| Error::Run(format!("writing {}: {e}", path.display()));
    let json = |e: serde_json::Error| Error::Run(format!("writing {}: {e}", path.display()));
    let window_from = KeptSaved::window_from(saved.kept, saved.heaps);
    let header = Header {
        format: FORMAT.into(),
        code: code.text.clone(),
        min_diff: code.min_diff,
        prefix: saved.kept.prefix as u64,
        window: saved.kept.window as u64,
        heaps: saved.heaps,
        window_from,
    };
    let line = serde_json::to_string(&header).map_err(json)? + "\n";
    let body = Body {
        rare: saved.rare,
        tally: saved.tally.clone(),
    };
    let mut body = serde_json::to_vec(&body).map_err(json)?;
    body.push(b'\n');
    let mut file = AtomicFile::create(path, rules)?;
    file.write_all(line.as_bytes()).map_err(failed)?;
    file.write_all(&crc32fast::hash(line.as_bytes()).to_le_bytes())
        .map_err(failed)?;
    let mut crc = crc32fast::Hasher::new();
    let mut write = |bytes: &[u8]| {
        crc.update(bytes);
        file.write_all(bytes).map_err(failed)
    };
    write(&body)?;
    let prefix_end = saved.heaps.min(saved.kept.prefix as u64);
    for (a, b) in [(0, prefix_end), (window_from, saved.heaps)] {
        for from in (a as usize..b as usize).step_by(SAVE_PIECE) {
            let to = (from + SAVE_PIECE).min(b as usize);
            let values = saved.table.values(from, to);
            write(
                &values
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect::<Vec<u8>>(),
            )?;
        }
    }
    file.write_all(&crc.finalize().to_le_bytes())
        .map_err(failed)?;
    file.commit()
}

/// Whether the file at `path` begins as this format's checkpoints do.
pub fn is_kept(path: &Path) -> bool {
    let mut head = [0u8; 64];
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let read = std::io::Read::read(&mut file, &mut head).unwrap_or(0);
    String::from_utf8_lossy(&head[..read]).contains(FORMAT)
}

/// The checkpoint at `path` of `code`, checked: its checksums, its sizes,
/// and its first heaps against the rules. Anything that does not hold is
/// refused, naming the file and what was expected.
pub fn load(path: &Path, code: &Code) -> Result<KeptSaved> {
    let bad = refusal(path);
    let bytes = std::fs::read(path).map_err(unreadable(path))?;
    let (header, body, values) = split(&bytes).ok_or_else(|| bad("damaged or cut short"))?;
    check_code(&header, code, &bad)?;
    let saved = saved_of(header, body, values).ok_or_else(|| bad("its sizes do not agree"))?;
    check_prefix(code, &saved.prefix).map_err(|why| bad(&why))?;
    Ok(saved)
}

/// What the checkpoint at `path` of `code` keeps and the heaps it holds,
/// read from its header alone (its own checksum checked): the rest is
/// read and checked when a run resumes from it (`load`).
pub fn header(path: &Path, code: &Code) -> Result<(Kept, u64)> {
    let bad = refusal(path);
    let file = std::fs::File::open(path).map_err(unreadable(path))?;
    let mut head = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, HEADER_MOST), &mut head)
        .map_err(unreadable(path))?;
    let (header, _) = header_of(&head).ok_or_else(|| bad("damaged or cut short"))?;
    check_code(&header, code, &bad)?;
    let kept = kept_of(&header).ok_or_else(|| bad("its sizes do not agree"))?;
    Ok((kept, header.heaps))
}

/// The bytes a header line and its checksum take at most.
const HEADER_MOST: u64 = 1 << 16;

/// The refusal of a checkpoint at `path`, saying why.
fn refusal(path: &Path) -> impl Fn(&str) -> Error + '_ {
    move |why: &str| {
        Error::Input(format!(
            "{}: {why}; expected a checkpoint written by {} with {}",
            Setting::Resume.is(path.display()),
            Setting::Checkpoint.named(),
            Setting::KeepPrefix.named()
        ))
    }
}

fn unreadable(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Input(format!("{}: {e}", Setting::Resume.is(path.display())))
}

/// A checkpoint of another game is refused.
fn check_code(header: &Header, code: &Code, bad: &dyn Fn(&str) -> Error) -> Result<()> {
    if header.code != code.text || header.min_diff != code.min_diff {
        return Err(bad(&format!(
            "it is of {} (min-diff {}), not {}",
            header.code, header.min_diff, code.text
        )));
    }
    Ok(())
}

/// The header at the start of a checkpoint's bytes, its checksum checked,
/// and the bytes after it.
fn header_of(bytes: &[u8]) -> Option<(Header, &[u8])> {
    let line_end = bytes.iter().position(|&b| b == b'\n')? + 1;
    let (line, rest) = bytes.split_at(line_end);
    let (crc, rest) = rest.split_first_chunk::<4>()?;
    if crc32fast::hash(line) != u32::from_le_bytes(*crc) {
        return None;
    }
    let header: Header = serde_json::from_slice(line).ok()?;
    (header.format == FORMAT).then_some((header, rest))
}

/// What a header says is kept.
fn kept_of(header: &Header) -> Option<Kept> {
    Some(Kept {
        prefix: usize::try_from(header.prefix).ok()?,
        window: usize::try_from(header.window).ok()?,
    })
}

/// The header, the body and the values of a checkpoint's bytes, each
/// checksum checked.
fn split(bytes: &[u8]) -> Option<(Header, Body, &[u8])> {
    let (header, rest) = header_of(bytes)?;
    let (rest, crc) = rest.split_last_chunk::<4>()?;
    if crc32fast::hash(rest) != u32::from_le_bytes(*crc) {
        return None;
    }
    let body_end = rest.iter().position(|&b| b == b'\n')? + 1;
    let body: Body = serde_json::from_slice(&rest[..body_end]).ok()?;
    Some((header, body, &rest[body_end..]))
}

/// The saved state, when its parts agree with each other.
fn saved_of(header: Header, body: Body, values: &[u8]) -> Option<KeptSaved> {
    let kept = kept_of(&header)?;
    let heaps = header.heaps;
    let in_prefix = heaps.min(header.prefix);
    let sizes_agree = header.window_from == KeptSaved::window_from(kept, heaps)
        && body.tally.heaps() == heaps
        && values.len() as u64 == 2 * (in_prefix + heaps.saturating_sub(header.window_from))
        && body.rare.rare.len() == body.rare.rare_values.len()
        && body.rare.rare.windows(2).all(|w| w[0] < w[1])
        && body.rare.rare.last().is_none_or(|&r| r < heaps);
    if !sizes_agree {
        return None;
    }
    let mut all = values
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]));
    Some(KeptSaved {
        kept,
        heaps,
        prefix: all.by_ref().take(in_prefix as usize).collect(),
        window_from: header.window_from,
        window: all.collect(),
        rare: body.rare,
        tally: body.tally,
    })
}

/// The first heaps of the prefix against a fresh computation.
fn check_prefix(code: &Code, prefix: &[u16]) -> std::result::Result<(), String> {
    let len = prefix.len().min(RECOMPUTED);
    if len == 0 {
        return Ok(());
    }
    let mut fresh =
        SequenceRun::new(code, Algorithm::Auto, HeapTable::default()).map_err(|e| e.to_string())?;
    fresh
        .extend_on_cpu(len as u64 - 1)
        .map_err(|e| e.to_string())?;
    match (0..len).find(|&n| fresh.table.get(n) != prefix[n]) {
        Some(n) => Err(format!(
            "G({n}) = {} but the rules give {}",
            prefix[n],
            fresh.table.get(n)
        )),
        None => Ok(()),
    }
}
