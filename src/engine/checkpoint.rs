//! Checkpoints of a long Nim-sequence run: the code and every value so far,
//! written to a temporary name and renamed, so a run killed at any moment
//! leaves the previous checkpoint whole. A JSON header line, the values in
//! one or two little-endian bytes each, then a CRC-32 (little-endian) of
//! everything before it. A checkpoint is refused unless its checksum, its
//! header and its values hold: a damaged file never becomes a wrong table.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::heap_table::HeapTable;
use crate::engine::sequence::{Algorithm, SequenceRun};
use crate::error::{Error, Result};
use crate::export::AtomicFile;
use crate::game::Code;

const FORMAT: &str = "grundy checkpoint v2";
/// Written before checksums; still read, its values checked.
const FORMAT_V1: &str = "grundy checkpoint v1";
/// Heaps recomputed from the rules when a checkpoint is loaded.
const RECOMPUTED: usize = 2048;

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq)]
struct Header {
    format: String,
    code: String,
    min_diff: u32,
    /// Heaps 0..heaps are stored.
    heaps: u64,
    bytes_per_value: u64,
}

/// Saves `table` of `code` to `path` atomically.
pub fn save(path: &Path, code: &Code, table: &HeapTable) -> Result<()> {
    use std::io::Write;
    let header = Header {
        format: FORMAT.into(),
        code: code.text.clone(),
        min_diff: code.min_diff,
        heaps: table.len() as u64,
        // An escaped table is written two bytes a value.
        bytes_per_value: match table {
            HeapTable::Narrow(_) => 1,
            HeapTable::Escaped(_) | HeapTable::Wide(_) => 2,
        },
    };
    let failed = |e: std::io::Error| Error::Run(format!("writing {}: {e}", path.display()));
    let mut file = AtomicFile::create(path)?;
    let mut crc = crc32fast::Hasher::new();
    let mut put = |bytes: &[u8]| {
        crc.update(bytes);
        file.write_all(bytes).map_err(failed)
    };
    let line = serde_json::to_string(&header).map_err(|e| Error::Run(e.to_string()))?;
    put(format!("{line}\n").as_bytes())?;
    match table {
        HeapTable::Narrow(g) => put(g)?,
        HeapTable::Wide(g) => {
            for chunk in g.chunks(1 << 16) {
                put(&le_bytes(chunk))?;
            }
        }
        HeapTable::Escaped(t) => {
            for a in (0..t.len()).step_by(1 << 16) {
                put(&le_bytes(&t.values(a, t.len().min(a + (1 << 16)))))?;
            }
        }
    }
    file.write_all(&crc.finalize().to_le_bytes())
        .map_err(failed)?;
    file.commit()
}

/// Loads a checkpoint of `code`: exit 2 naming the file for a damaged one
/// (checksum), one of another game, or values the rules cannot give. The
/// file is read a piece at a time, so resuming takes the table's memory,
/// not the file's as well.
pub fn load(path: &Path, code: &Code) -> Result<HeapTable> {
    let bad = |why: String| {
        Error::Input(format!(
            "--resume {}: {why}; expected a checkpoint written by --checkpoint",
            path.display()
        ))
    };
    let unreadable = |e: std::io::Error| Error::Input(format!("--resume {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    let mut reader = std::io::BufReader::with_capacity(PIECE, file);
    let mut crc = crc32fast::Hasher::new();
    let header = read_header(&mut reader, size, &mut crc)
        .map_err(unreadable)?
        .map_err(bad)?;
    // The file's size was checked against the header: an end of file here
    // means it shrank while read.
    let read_failed = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => bad("the file is cut short".into()),
        _ => unreadable(e),
    };
    let table = read_values(&mut reader, &header, &mut crc).map_err(read_failed)?;
    if header.format == FORMAT {
        let mut stored = [0; 4];
        std::io::Read::read_exact(&mut reader, &mut stored).map_err(read_failed)?;
        if crc.finalize() != u32::from_le_bytes(stored) {
            return Err(bad("checksum mismatch: the file is damaged".into()));
        }
    }
    if header.code != code.text || header.min_diff != code.min_diff {
        return Err(Error::Input(format!(
            "--resume {}: the checkpoint is of {} (min-diff {}), not {} (min-diff {}); \
             expected the same game",
            path.display(),
            header.code,
            header.min_diff,
            code.text,
            code.min_diff
        )));
    }
    check_values(code, &table).map_err(bad)?;
    Ok(table)
}

/// Bytes of the file read at a time.
const PIECE: usize = 1 << 20;
/// The longest header line read.
const HEADER_MAX: u64 = 1 << 16;

/// Two-byte values as little-endian bytes.
fn le_bytes(values: &[u16]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The header line of a file of `size` bytes, once its sizes hold (an
/// outer error: the file could not be read; an inner one: it is not a
/// checkpoint).
fn read_header(
    reader: &mut impl std::io::BufRead,
    size: u64,
    crc: &mut crc32fast::Hasher,
) -> std::io::Result<std::result::Result<Header, String>> {
    use std::io::{BufRead, Read};
    let mut line = Vec::new();
    Read::take(&mut *reader, HEADER_MAX).read_until(b'\n', &mut line)?;
    if line.last() != Some(&b'\n') {
        return Ok(Err("no header line".into()));
    }
    crc.update(&line);
    let header: Header = match serde_json::from_slice(&line[..line.len() - 1]) {
        Ok(header) => header,
        Err(e) => return Ok(Err(format!("damaged header ({e})"))),
    };
    let trailer = match header.format.as_str() {
        FORMAT => 4,
        FORMAT_V1 => 0,
        other => return Ok(Err(format!("unknown format '{other}'"))),
    };
    let Some(body) = size.checked_sub(line.len() as u64 + trailer) else {
        return Ok(Err("no checksum at the end: the file is cut short".into()));
    };
    if !matches!(header.bytes_per_value, 1 | 2) {
        return Ok(Err(format!("{} bytes per value", header.bytes_per_value)));
    }
    if Some(body) != header.heaps.checked_mul(header.bytes_per_value) {
        return Ok(Err(format!(
            "{} heaps of {} bytes announced but {body} bytes stored",
            header.heaps, header.bytes_per_value
        )));
    }
    Ok(Ok(header))
}

/// The header's values, read a piece at a time into a table as narrow as
/// they allow: one byte, one byte with the larger values kept apart while
/// they are few, two bytes.
fn read_values(
    reader: &mut impl std::io::Read,
    header: &Header,
    crc: &mut crc32fast::Hasher,
) -> std::io::Result<HeapTable> {
    let heaps = header.heaps as usize;
    if header.bytes_per_value == 1 {
        let mut g = vec![0; heaps];
        for piece in g.chunks_mut(PIECE) {
            reader.read_exact(piece)?;
            crc.update(piece);
        }
        return Ok(HeapTable::Narrow(g));
    }
    let mut table = HeapTable::Narrow(Vec::with_capacity(heaps));
    let mut piece = vec![0; PIECE];
    let mut left = 2 * heaps;
    while left > 0 {
        let piece = &mut piece[..left.min(PIECE)];
        reader.read_exact(piece)?;
        crc.update(piece);
        for pair in piece.chunks_exact(2) {
            table.push(u16::from_le_bytes([pair[0], pair[1]]));
        }
        left -= piece.len();
    }
    Ok(table)
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
    use crate::engine::escaped::Escaped;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("grundy-ck-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
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
        let wide = HeapTable::Wide(narrow.clone().into_wide());
        let values = narrow.clone().into_wide().into_iter().map(u32::from);
        let escaped = HeapTable::Escaped(Escaped::of(values, 4, false).unwrap());
        // Read back as narrow as the values allow: one byte each here.
        for table in [narrow.clone(), wide, escaped] {
            save(&path, &code, &table).unwrap();
            assert_eq!(load(&path, &code).unwrap(), narrow);
        }
        // Values past 255: two bytes in the file, as many in memory here
        // (too many past 254 to keep apart).
        let sevens = Code::parse("0.77777777777777777777").unwrap();
        let g = computed(&sevens, 3000).into_wide();
        assert!(g.iter().any(|&v| v > 255));
        let escaped = Escaped::of(g.iter().map(|&v| u32::from(v)), 200, false).unwrap();
        save(&path, &sevens, &HeapTable::Escaped(escaped)).unwrap();
        assert_eq!(load(&path, &sevens).unwrap(), HeapTable::Wide(g));
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
        let header = format!(
            "{{\"format\":\"{FORMAT_V1}\",\"code\":\"0.07\",\"min_diff\":0,\"heaps\":{},\"bytes_per_value\":1}}\n",
            g.len()
        );
        std::fs::write(&path, [header.as_bytes(), &g].concat()).unwrap();
        assert_eq!(load(&path, &code).unwrap(), HeapTable::Narrow(g.clone()));
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

    #[test]
    fn every_flipped_bit_is_refused() {
        let path = scratch("flip");
        let code = Code::parse("0.137").unwrap();
        save(&path, &code, &computed(&code, 5000)).unwrap();
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
        save(&path, &code, &HeapTable::Wide(g.clone())).unwrap();
        let err = load(&path, &code).unwrap_err().to_string();
        assert!(err.contains("G(0) = 255 but the rules give 0"), "{err}");
        g[0] = 0;
        g[2900] = 200; // past the recomputed prefix: values of 0.07 stay below 16
        save(&path, &code, &HeapTable::Wide(g)).unwrap();
        let err = load(&path, &code).unwrap_err().to_string();
        assert!(err.contains("G(2900) = 200 is impossible"), "{err}");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
