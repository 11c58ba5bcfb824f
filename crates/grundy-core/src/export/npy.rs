//! NumPy's `.npy` format, so `numpy.load` and `numpy.memmap` open a table
//! directly: the magic `\x93NUMPY`, version 1.0, the header's length (u16,
//! little-endian), a Python dict literal naming the dtype (`<u1` or `<u2`),
//! the order and the shape, padded with spaces to a multiple of 64 bytes
//! and ending in a newline, then the values.

use std::io::{self, Write};

/// The bytes before the values of a table of `len` values, one byte each
/// (`wide`: two, little-endian).
pub fn header(len: usize, wide: bool) -> Vec<u8> {
    let dtype = if wide { "<u2" } else { "<u1" };
    let mut dict = format!("{{'descr': '{dtype}', 'fortran_order': False, 'shape': ({len},), }}");
    // magic (6) + version (2) + length (2) + dict + newline: a multiple of 64.
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    bytes.extend_from_slice(dict.as_bytes());
    bytes
}

/// Writes a table of `len` values whose heaps a..b `piece` gives, a
/// piece at a time, one byte a value unless `wide`.
pub fn write(
    w: &mut dyn Write,
    len: usize,
    wide: bool,
    piece: impl Fn(usize, usize) -> Vec<u16>,
) -> io::Result<()> {
    const PIECE: usize = 1 << 20;
    w.write_all(&header(len, wide))?;
    let mut bytes = Vec::with_capacity(2 * PIECE);
    for a in (0..len).step_by(PIECE) {
        bytes.clear();
        let values = piece(a, len.min(a + PIECE));
        match wide {
            true => bytes.extend(values.iter().flat_map(|v| v.to_le_bytes())),
            false => bytes.extend(values.iter().map(|&v| v as u8)),
        }
        w.write_all(&bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_what_numpy_writes_and_aligned_to_64_bytes() {
        let h = header(1000, false);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        let dict = std::str::from_utf8(&h[10..]).unwrap();
        assert!(dict.starts_with("{'descr': '<u1', 'fortran_order': False, 'shape': (1000,), }"));
        assert!(dict.ends_with(" \n"));
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
        let mut out = Vec::new();
        write(&mut out, 3, true, |a, b| {
            (a as u16..b as u16).map(|v| v + 300).collect()
        })
        .unwrap();
        assert_eq!(&out[header(3, true).len()..], &[44, 1, 45, 1, 46, 1]);
    }
}
