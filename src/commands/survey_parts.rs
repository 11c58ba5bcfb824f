//! Sharded surveys: which slice a run takes (`--shard`, or a Slurm array
//! task), the part file it writes, and `survey merge`, which checks the
//! parts and writes the file one run would have written.
//!
//! A part is the survey's CSV behind one line,
//! `# grundy survey part: {json}`, that records the survey (its code list
//! by count and checksum, N, the algorithm), the slice, and a CRC-32 of
//! the CSV that follows.

use grundy::setting::Marked;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::MergeArgs;
use grundy::analysis::rare_split::RareSplit;
use grundy::engine::heap::sequence::Algorithm;
use grundy::engine::survey::checkpoint::list_crc32;
use grundy::engine::survey::{Dealing, MAX_SHARDS, Shard};
use grundy::error::{Error, Result};
use grundy::export;
use grundy::hooks::RunHooks;

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
    pub format: u32,
    pub shard: u32,
    pub shards: u32,
    /// The whole code list: how many codes, and the CRC-32 of their names,
    /// one per line, in order.
    pub list_codes: u64,
    pub list_crc32: u32,
    pub n: u64,
    pub algorithm: Algorithm,
    /// The CSV lines after this one (its header line and a row per code),
    /// and the CRC-32 of that text.
    pub rows: u64,
    pub csv_crc32: u32,
}

/// The slice this run takes: `--shard`, else a Slurm array task's, else
/// none (the whole list).
pub fn shard_of(given: Option<Shard>, hooks: &dyn RunHooks) -> Result<Option<Shard>> {
    if given.is_some() {
        return Ok(given);
    }
    let env = |name: &str| std::env::var(name).ok();
    let shard = slurm_shard(&env)?;
    if let Some(shard) = shard {
        hooks.notice(Marked(&format!(
            "running shard {shard} of the code list (from SLURM_ARRAY_TASK_ID; --shard K/N overrides)"
        )));
    }
    Ok(shard)
}

/// A Slurm array task's slice: index SLURM_ARRAY_TASK_ID − MIN of COUNT
/// (or MAX − MIN + 1) tasks.
fn slurm_shard(env: &dyn Fn(&str) -> Option<String>) -> Result<Option<Shard>> {
    let Some(id) = env("SLURM_ARRAY_TASK_ID") else {
        return Ok(None);
    };
    let number = |name: &str, text: Option<String>| -> Result<Option<u64>> {
        text.map(|t| {
            t.trim().parse::<u64>().map_err(|_| {
                Error::Input(format!(
                    "{name}={t}: expected a whole number (or pass --shard K/N)"
                ))
            })
        })
        .transpose()
    };
    let id = number("SLURM_ARRAY_TASK_ID", Some(id))?.unwrap_or(0);
    let min = number("SLURM_ARRAY_TASK_MIN", env("SLURM_ARRAY_TASK_MIN"))?.unwrap_or(0);
    let max = number("SLURM_ARRAY_TASK_MAX", env("SLURM_ARRAY_TASK_MAX"))?;
    let count = number("SLURM_ARRAY_TASK_COUNT", env("SLURM_ARRAY_TASK_COUNT"))?
        .or(max.map(|m| m.saturating_sub(min) + 1));
    let steps = matches!((max, count), (Some(m), Some(c)) if m.saturating_sub(min) + 1 != c);
    match count {
        Some(count) if !steps && id >= min && id - min < count && count <= MAX_SHARDS as u64 => {
            Ok(Some(Shard {
                index: (id - min) as u32,
                count: count as u32,
            }))
        }
        _ => Err(Error::Input(format!(
            "SLURM_ARRAY_TASK_ID={id}: expected an array of consecutive tasks with \
             SLURM_ARRAY_TASK_COUNT (or SLURM_ARRAY_TASK_MIN and MAX) set, such as \
             --array=0-63; pass --shard K/N for other arrays"
        ))),
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
    let mut lines = grundy::input::read_lines(path, MAX_PART_BYTES).map_err(bad)?;
    let first = if lines.is_empty() {
        String::new()
    } else {
        lines.remove(0).1
    };
    let json = first.strip_prefix(PART_TAG).ok_or_else(|| {
        bad(format!(
            "not a survey part; expected a first line '{PART_TAG}{{...}}', as `survey --shard K/N --out PART` writes"
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

/// `grundy survey merge OUT PART…`.
pub fn merge(args: &MergeArgs) -> Result<()> {
    for part in &args.parts {
        if same_file(part, &args.out) {
            return Err(Error::Input(format!(
                "{}: it is both OUT and a PART; expected the merged file somewhere else",
                args.out.display()
            )));
        }
    }
    let parts = args
        .parts
        .iter()
        .map(|p| read_part(p))
        .collect::<Result<Vec<_>>>()?;
    let ordered = in_shard_order(&parts)?;
    let text = interleave(&ordered)?;
    let header = &ordered[0].header;
    let what = format!(
        "a survey of {} codes to heap {}",
        header.list_codes, header.n
    );
    export::write_table(
        &args.out,
        crate::front::output_rules(),
        args.format,
        &what,
        |w| w.write_all(text.as_bytes()),
    )?;
    if !args.quiet && !export::is_stdout(&args.out) {
        grundy::outln!(
            "merged {} parts: {} codes to heap {} in {}",
            ordered.len(),
            header.list_codes,
            header.n,
            args.out.display()
        );
    }
    Ok(())
}

/// Whether two paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
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
fn differing_field(a: &PartHeader, b: &PartHeader) -> Option<&'static str> {
    [
        (a.shards != b.shards, "number of shards"),
        (a.format != b.format, "part format"),
        (
            a.list_codes != b.list_codes || a.list_crc32 != b.list_crc32,
            "code list",
        ),
        (a.n != b.n, "-n"),
        (a.algorithm != b.algorithm, "--algorithm"),
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
        return Err(Error::Input(
            "the parts' codes are not the survey's code list in order; expected parts written \
             by `survey --shard`"
                .into(),
        ));
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
                    "{}: {why}; expected parts written by `survey --shard`",
                    part.path.display()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn slurm_arrays_give_their_slice() {
        let shard = |pairs: &[(&str, &str)]| slurm_shard(&env_of(pairs));
        assert_eq!(shard(&[]).unwrap(), None);
        let counted = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "64"),
        ];
        assert_eq!(
            shard(&counted).unwrap(),
            Some(Shard {
                index: 5,
                count: 64
            })
        );
        let ranged = [
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "13"),
        ];
        assert_eq!(shard(&ranged).unwrap(), Some(Shard { index: 2, count: 4 }));
        // --array=0-62:2 has 32 tasks over 63 ids: not consecutive.
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "62"),
            ("SLURM_ARRAY_TASK_COUNT", "32"),
        ];
        assert!(shard(&stepped).is_err());
        assert!(shard(&[("SLURM_ARRAY_TASK_ID", "3")]).is_err());
        assert!(
            shard(&[
                ("SLURM_ARRAY_TASK_ID", "x"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ])
            .is_err()
        );
    }

    #[test]
    fn shards_cover_a_list_once() {
        let costs: Vec<u64> = (0..103).map(|i| (i * 7919 % 101) as u64).collect();
        let dealt = grundy::engine::survey::balanced_shards(&costs, 7);
        let mut seen = Vec::new();
        for index in 0..7 {
            let shard = Shard { index, count: 7 };
            let places = shard.places(&dealt);
            assert!(places.windows(2).all(|w| w[0] < w[1]), "in list order");
            seen.extend(places);
            let in_turn = (0..103).filter(|i| i % 7 == index as usize).count();
            assert_eq!(shard.len_in_turn(103), in_turn as u64);
        }
        seen.sort();
        assert_eq!(seen, (0..103).collect::<Vec<_>>());
        assert_eq!(
            "3/64".parse::<Shard>().unwrap(),
            Shard {
                index: 3,
                count: 64
            }
        );
        for bad in ["64/64", "1/0", "3", "-1/4", "a/b", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
