//! Text files a user hands us (edge lists, code lists, faces), read with
//! bounds: a file far larger than any real list, or a line far longer than
//! any real entry, is refused without being read whole or echoed back.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// Longest line taken, in bytes.
pub const MAX_LINE: usize = 1024;
/// Characters of a bad line quoted back in an error.
const QUOTED: usize = 60;

/// The lines of `path` (at most `max_bytes` bytes in all), numbered from 1.
/// `Err` says what is wrong, naming no more than a short prefix of a line.
pub fn read_lines(path: &Path, max_bytes: u64) -> Result<Vec<(usize, String)>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it ({e})"))?;
    if let Ok(meta) = file.metadata()
        && meta.is_file()
        && meta.len() > max_bytes
    {
        return Err(format!(
            "it is {} bytes; expected at most {max_bytes}",
            meta.len()
        ));
    }
    let mut reader = BufReader::new(file.take(max_bytes + 1));
    let mut lines = Vec::new();
    let mut total = 0u64;
    let mut buf = Vec::new();
    for number in 1.. {
        buf.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("cannot read it ({e})"))?;
        if read == 0 {
            break;
        }
        total += read as u64;
        if total > max_bytes {
            return Err(format!(
                "it is over {max_bytes} bytes; expected at most that"
            ));
        }
        let text = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.len() > MAX_LINE {
            return Err(format!(
                "line {number} is longer than {MAX_LINE} bytes; expected one short entry per line"
            ));
        }
        let text =
            std::str::from_utf8(text).map_err(|_| format!("line {number} is not UTF-8 text"))?;
        lines.push((number, text.to_string()));
    }
    Ok(lines)
}

/// The text of `path` under the same bounds as `read_lines`, for parsers
/// that take a whole text (their line numbers stay the file's).
pub fn read_text(path: &Path, max_bytes: u64) -> Result<String, String> {
    let lines: Vec<String> = read_lines(path, max_bytes)?
        .into_iter()
        .map(|(_, line)| line)
        .collect();
    Ok(lines.join("\n"))
}

/// A line as an error quotes it: at most `QUOTED` characters.
pub fn quoted(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTED).collect();
    if chars.next().is_some() {
        format!("'{head}…'")
    } else {
        format!("'{head}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_and_large_files_are_refused_without_echo() {
        let dir = std::env::temp_dir().join(format!("grundy-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("list");
        std::fs::write(&path, "0 1\r\n\n1 2").unwrap();
        let lines = read_lines(&path, 1000).unwrap();
        assert_eq!(
            lines,
            vec![(1, "0 1".into()), (2, String::new()), (3, "1 2".into())]
        );
        std::fs::write(&path, "x".repeat(5000)).unwrap();
        let err = read_lines(&path, 1 << 20).unwrap_err();
        assert!(err.contains("line 1 is longer than 1024 bytes"), "{err}");
        assert!(!err.contains("xxxx"), "{err}");
        let err = read_lines(&path, 100).unwrap_err();
        assert!(
            err.contains("it is 5000 bytes; expected at most 100"),
            "{err}"
        );
        assert_eq!(quoted(&"y".repeat(100)).chars().count(), 63);
        let _ = std::fs::remove_dir_all(dir);
    }
}
