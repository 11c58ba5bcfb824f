//! Sharded surveys' parts: the file each shard of a survey writes, and
//! `SurveyMerge`, which checks the parts and gives the table one run would
//! have written.
//!
//! A part is the survey's CSV behind one line,
//! `# grundy survey part: {json}`, that records the survey (its code list
//! by count and checksum, N, the algorithm), the slice, and a CRC-32 of
//! the CSV that follows.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use grundy_core::analysis::rare_split::RareSplit;
use grundy_core::error::{Error, Result};
use grundy_core::setting::Setting;
use grundy_engine::heap::sequence::Algorithm;
use grundy_engine::survey::Dealing;
use grundy_engine::survey::checkpoint::list_crc32;

pub use grundy_engine::survey::{MAX_SHARDS, Shard};

/// The first line of a part, before its JSON.
const PART_TAG: &str = "# grundy survey part: ";
/// The part format this build writes: 2, codes dealt by their estimated
/// cost, each row led by the code's place in the list (a `place` column);
/// format 1 (code i in shard i mod N, no place column) is still merged.
pub const PART_FORMAT: u32 = 2;
/// The largest part read back.
const MAX_PART_BYTES: u64 = 1 << 30;

/// What a part records about its survey and itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartHeader {
    /// The part format (`PART_FORMAT` when this build wrote it).
    pub format: u32,
    /// The slice: shard `shard` of `shards`.
    pub shard: u32,
    /// How many shards the survey was dealt over.
    pub shards: u32,
    /// The whole code list: how many codes, and the CRC-32 of their names,
    /// one per line, in order.
    pub list_codes: u64,
    /// See `list_codes`.
    pub list_crc32: u32,
    /// Heaps 0..=n of every code.
    pub n: u64,
    /// The algorithm the survey asked for.
    pub algorithm: Algorithm,
    /// The CSV lines after this one (its header line and a row per code),
    /// and the CRC-32 of that text.
    pub rows: u64,
    /// See `rows`.
    pub csv_crc32: u32,
}

impl PartHeader {
    /// The header of `shard`'s part of a survey of `codes` (names, in the
    /// list's order) to heap `n`; its rows and checksum are `part_text`'s.
    pub fn of(shard: Shard, codes: &[String], n: u64, algorithm: Algorithm) -> PartHeader {
        PartHeader {
            format: PART_FORMAT,
            shard: shard.index,
            shards: shard.count,
            list_codes: codes.len() as u64,
            list_crc32: list_crc32(codes.iter().map(|s| s.as_str())),
            n,
            algorithm,
            rows: 0,
            csv_crc32: 0,
        }
    }
}

/// `grundy survey merge`'s work: parts of one sharded survey joined into
/// the table one run would have written.
///
/// Every part is checked on its own (its tag, header, checksum, rows) and
/// against the others (one survey, every shard once, the codes in the
/// list's order) before anything is returned.
#[derive(Clone, Debug)]
pub struct SurveyMerge {
    parts: Vec<PathBuf>,
}

/// The merged table of a sharded survey.
#[derive(Clone, Debug)]
pub struct MergedSurvey {
    /// The survey's CSV, as one unsharded run writes it.
    pub csv: String,
    /// The parts joined.
    pub parts: usize,
    /// The codes of the survey's list.
    pub codes: u64,
    /// Heaps 0..=n of every code.
    pub n: u64,
}

impl SurveyMerge {
    /// The parts at `paths`, in any order.
    pub fn of<P: AsRef<Path>>(paths: &[P]) -> SurveyMerge {
        SurveyMerge {
            parts: paths.iter().map(|p| p.as_ref().to_path_buf()).collect(),
        }
    }

    /// Reads, checks and joins the parts.
    pub fn run(&self) -> Result<MergedSurvey> {
        if self.parts.is_empty() {
            return Err(Error::Input(
                "no parts to merge; expected every shard's part".into(),
            ));
        }
        let parts = self
            .parts
            .iter()
            .map(|p| read_part(p))
            .collect::<Result<Vec<_>>>()?;
        let ordered = in_shard_order(&parts)?;
        let csv = interleave(&ordered)?;
        let header = &ordered[0].header;
        Ok(MergedSurvey {
            csv,
            parts: ordered.len(),
            codes: header.list_codes,
            n: header.n,
        })
    }
}

/// A part's text: its header line, then `csv` (the slice's CSV, header
/// line included).
pub fn part_text(mut header: PartHeader, csv: &str) -> Result<String> {
    header.rows = csv.lines().count() as u64;
    header.csv_crc32 = crc32fast::hash(csv.as_bytes());
    let json = serde_json::to_string(&header).map_err(|e| Error::Run(e.to_string()))?;
    Ok(format!("{PART_TAG}{json}\n{csv}"))
}

/// One part read back: its header and CSV lines (the first is the CSV's
/// header line).
struct Part {
    path: PathBuf,
    header: PartHeader,
    lines: Vec<String>,
}

/// Reads and checks one part on its own: the tag, the JSON, the format,
/// the checksum, the row count its slice should hold.
fn read_part(path: &Path) -> Result<Part> {
    let bad = |why: String| Error::Input(format!("{}: {why}", path.display()));
    let mut lines = grundy_core::input::read_lines(path, MAX_PART_BYTES).map_err(bad)?;
    let first = if lines.is_empty() {
        String::new()
    } else {
        lines.remove(0).1
    };
    let json = first.strip_prefix(PART_TAG).ok_or_else(|| {
        bad(format!(
            "not a survey part; expected a first line '{PART_TAG}{{...}}', as a sharded survey \
             writes it ({} {})",
            Setting::Shard.is("K/N"),
            Setting::Out.is("PART")
        ))
    })?;
    let header: PartHeader = serde_json::from_str(json)
        .map_err(|e| bad(format!("its part header cannot be read ({e})")))?;
    if !(1..=PART_FORMAT).contains(&header.format) {
        return Err(bad(format!(
            "part format {}; this grundy reads formats 1 to {PART_FORMAT}",
            header.format
        )));
    }
    let lines: Vec<String> = lines.into_iter().map(|(_, line)| line).collect();
    let mut csv = lines.join("\n");
    csv.push('\n');
    if lines.len() as u64 != header.rows || crc32fast::hash(csv.as_bytes()) != header.csv_crc32 {
        return Err(bad(
            "its rows do not match the checksum in its header; the file is damaged or was edited"
                .into(),
        ));
    }
    let shard = Shard {
        index: header.shard,
        count: header.shards,
    };
    if header.shards == 0 || header.shard >= header.shards {
        return Err(bad(format!("shard {shard} is not a slice")));
    }
    if dealing_of(&header) == Dealing::InTurn
        && header.rows != shard.len_in_turn(header.list_codes) + 1
    {
        return Err(bad(format!(
            "holds {} codes; shard {shard} of {} codes holds {}",
            header.rows.saturating_sub(1),
            header.list_codes,
            shard.len_in_turn(header.list_codes)
        )));
    }
    Ok(Part {
        path: path.to_path_buf(),
        header,
        lines,
    })
}

/// The parts by shard, after checking that they come from one survey and
/// hold every shard exactly once.
fn in_shard_order(parts: &[Part]) -> Result<Vec<&Part>> {
    let first = &parts[0];
    let mut by_shard: BTreeMap<u32, &Part> = BTreeMap::new();
    for part in parts {
        if let Some(field) = differing_field(&first.header, &part.header) {
            return Err(Error::Input(format!(
                "{}: its {field} differs from {}'s; expected parts of one survey",
                part.path.display(),
                first.path.display()
            )));
        }
        if let Some(other) = by_shard.insert(part.header.shard, part) {
            return Err(Error::Input(format!(
                "{}: shard {}/{} is also {}; expected each shard once",
                part.path.display(),
                part.header.shard,
                part.header.shards,
                other.path.display()
            )));
        }
    }
    let missing: Vec<String> = (0..first.header.shards)
        .filter(|k| !by_shard.contains_key(k))
        .map(|k| format!("{k}/{}", first.header.shards))
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(10).map(|s| s.as_str()).collect();
        return Err(Error::Input(format!(
            "{} shard(s) missing: {}{}; expected every shard of the survey once",
            missing.len(),
            shown.join(", "),
            if missing.len() > 10 { ", …" } else { "" }
        )));
    }
    Ok(by_shard.into_values().collect())
}

/// The first survey parameter in which two parts differ.
fn differing_field(a: &PartHeader, b: &PartHeader) -> Option<String> {
    [
        (a.shards != b.shards, "number of shards".into()),
        (a.format != b.format, "part format".into()),
        (
            a.list_codes != b.list_codes || a.list_crc32 != b.list_crc32,
            "code list".into(),
        ),
        (a.n != b.n, Setting::N.named()),
        (a.algorithm != b.algorithm, Setting::Algorithm.named()),
    ]
    .into_iter()
    .find_map(|(differs, field)| differs.then_some(field))
}

/// The merged CSV: the header line, then each code of the list from the
/// part its shard wrote, as the parts' format dealt them; checked against
/// the list's checksum.
fn interleave(parts: &[&Part]) -> Result<String> {
    let csv_header = &parts[0].lines[0];
    if let Some(odd) = parts.iter().find(|p| &p.lines[0] != csv_header) {
        return Err(Error::Input(format!(
            "{}: its CSV columns differ from {}'s",
            odd.path.display(),
            parts[0].path.display()
        )));
    }
    let total = parts[0].header.list_codes as usize;
    let rows = match dealing_of(&parts[0].header) {
        Dealing::InTurn => in_turn_rows(parts, total),
        Dealing::ByCost => placed_rows(parts, total)?,
    };
    let csv_header = csv_header.strip_prefix("place,").unwrap_or(csv_header);
    let mask_column = csv_header.split(',').position(|c| c == "rare_mask");
    let mut text = format!("{csv_header}\n");
    let mut names = Vec::with_capacity(total);
    for line in rows {
        names.push(first_field(line));
        match mask_column {
            Some(column) => text.push_str(&with_hex_mask(line, column)?),
            None => text.push_str(line),
        }
        text.push('\n');
    }
    if list_crc32(names.iter().map(|s| s.as_str())) != parts[0].header.list_crc32 {
        return Err(Error::Input(format!(
            "the parts' codes are not the survey's code list in order; expected parts \
                 written by a sharded survey ({})",
            Setting::Shard.named()
        )));
    }
    Ok(text)
}

/// A row with its rare mask in this version's form (parts written before
/// the masks were hex gave them in decimal).
fn with_hex_mask(line: &str, column: usize) -> Result<String> {
    let bad = |why: String| Error::Input(format!("a part's row {line:?}: {why}"));
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    if !reader
        .read_record(&mut record)
        .map_err(|e| bad(e.to_string()))?
    {
        return Err(bad("empty".into()));
    }
    let mut fields: Vec<String> = record.iter().map(str::to_string).collect();
    let mask = fields
        .get_mut(column)
        .ok_or_else(|| bad(format!("no column {}", column + 1)))?;
    *mask = RareSplit::relabel(mask).map_err(bad)?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record(&fields)
        .map_err(|e| bad(e.to_string()))?;
    let bytes = writer.into_inner().map_err(|e| bad(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

/// How the survey that wrote a part dealt its codes.
fn dealing_of(header: &PartHeader) -> Dealing {
    match header.format {
        1 => Dealing::InTurn,
        _ => Dealing::ByCost,
    }
}

/// Format 1: code i of the list is row i div N of part i mod N.
fn in_turn_rows<'p>(parts: &[&'p Part], total: usize) -> Vec<&'p str> {
    (0..total)
        .map(|i| parts[i % parts.len()].lines[1 + i / parts.len()].as_str())
        .collect()
}

/// Format 2: each row names its place; every place of the list once.
fn placed_rows<'p>(parts: &[&'p Part], total: usize) -> Result<Vec<&'p str>> {
    let mut rows: Vec<Option<&str>> = vec![None; total];
    for part in parts {
        for line in &part.lines[1..] {
            let place = line
                .split_once(',')
                .and_then(|(p, rest)| Some((p.parse::<usize>().ok()?, rest)));
            let bad = |why: &str| {
                Error::Input(format!(
                    "{}: {why}; expected parts written by a sharded survey ({})",
                    part.path.display(),
                    Setting::Shard.named()
                ))
            };
            let Some((place, row)) = place.filter(|&(p, _)| p < total) else {
                return Err(bad("a row without a place in the list"));
            };
            if rows[place].replace(row).is_some() {
                return Err(bad(&format!("place {place} is in two parts")));
            }
        }
    }
    rows.into_iter()
        .enumerate()
        .map(|(place, row)| {
            row.ok_or_else(|| {
                Error::Input(format!(
                    "no part holds place {place} of the list; expected every shard's part"
                ))
            })
        })
        .collect()
}

/// The first field of a CSV line (the code's name).
fn first_field(line: &str) -> String {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes());
    reader
        .records()
        .next()
        .and_then(|r| r.ok())
        .and_then(|r| r.get(0).map(str::to_string))
        .unwrap_or_default()
}
