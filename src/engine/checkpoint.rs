//! Checkpoints of a long Nim-sequence run: the code and every value so far,
//! written to a temporary name and renamed, so a run killed at any moment
//! leaves the previous checkpoint whole. A JSON header line, then the
//! values in one or two little-endian bytes each.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::heap_table::HeapTable;
use crate::error::{Error, Result};
use crate::export::AtomicFile;
use crate::game::Code;

const FORMAT: &str = "grundy checkpoint v1";

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
        bytes_per_value: table.bytes_per_value(),
    };
    let mut file = AtomicFile::create(path)?;
    let line = serde_json::to_string(&header).map_err(|e| Error::Run(e.to_string()))?;
    writeln!(file, "{line}")?;
    match table {
        HeapTable::Narrow(g) => file.write_all(g)?,
        HeapTable::Wide(g) => {
            for chunk in g.chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.to_le_bytes()).collect();
                file.write_all(&bytes)?;
            }
        }
    }
    file.commit()
}

/// Loads a checkpoint of `code` (the same code and min-diff, or exit 2).
pub fn load(path: &Path, code: &Code) -> Result<HeapTable> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::Input(format!("--resume {}: {e}", path.display())))?;
    let bad = |why: String| {
        Error::Input(format!(
            "--resume {}: {why}; expected a checkpoint written by --checkpoint",
            path.display()
        ))
    };
    let end = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or_else(|| bad("no header line".into()))?;
    let header: Header =
        serde_json::from_slice(&bytes[..end]).map_err(|e| bad(format!("bad header ({e})")))?;
    if header.format != FORMAT {
        return Err(bad(format!("unknown format '{}'", header.format)));
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
    let body = &bytes[end + 1..];
    if body.len() as u64 != header.heaps * header.bytes_per_value {
        return Err(bad(format!(
            "{} heaps of {} bytes announced but {} bytes stored",
            header.heaps,
            header.bytes_per_value,
            body.len()
        )));
    }
    match header.bytes_per_value {
        1 => Ok(HeapTable::Narrow(body.to_vec())),
        2 => Ok(HeapTable::Wide(
            body.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        )),
        w => Err(bad(format!("{w} bytes per value"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_reads_back_and_refuses_another_game() {
        let dir = std::env::temp_dir().join(format!("grundy-ck-{}", std::process::id()));
        let path = dir.join("ck");
        let code = Code::parse("0.16").unwrap();
        for table in [
            HeapTable::Narrow(vec![0, 1, 1, 2, 0, 3]),
            HeapTable::Wide(vec![0, 300, 2, 65535]),
        ] {
            save(&path, &code, &table).unwrap();
            assert_eq!(load(&path, &code).unwrap(), table);
        }
        let other = Code::parse("0.07").unwrap();
        let err = load(&path, &other).unwrap_err();
        assert!(err.to_string().contains("not 0.07"), "{err}");
        std::fs::write(&path, b"{\"format\":\"x\"}\n").unwrap();
        assert!(matches!(load(&path, &code), Err(Error::Input(_))));
        let _ = std::fs::remove_dir_all(dir);
    }
}
