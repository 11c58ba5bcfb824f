//! A table of one byte a value with the few larger values kept apart: a
//! value below the escape byte is its byte; a heap whose byte is the escape
//! has its value in a list, in heap order. Grundy's game passes 255 early
//! but seldom (BENCHMARKS.md), so the table holds it in about one byte a
//! value where two bytes a value would take twice the memory.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::heap::storage::paged::{Buf, NoRoom};
use crate::heap::storage::store::{Column, Store, Values};

/// The escape byte of the tables a run makes (tests take lower ones, so
/// that small tables go through the escapes too).
pub const ESCAPE: u8 = 255;

/// Heaps per bit of `Escaped::marked`.
const BLOCK: usize = 64;
/// Heaps per word of `Escaped::marked`.
const WORD_HEAPS: usize = 64 * BLOCK;

pub struct Escaped {
    /// min(G(n), escape) for every heap n (in memory, or in a file).
    bytes: Buf<u8>,
    /// (n, G(n)) for every heap n whose byte is the escape, ascending.
    large: Vec<(usize, u16)>,
    /// Bit b of word w: heaps 64·(64w + b) and the 63 after hold an escape.
    /// Atomic: the finisher sets bits in the word that the readers of the
    /// heaps below it read.
    marked: Vec<AtomicU64>,
    escape: u8,
    /// Refuse a value kept apart past one heap in `SPARSE` (beyond the
    /// first 2^16 heaps): where they are more, most runs the engine reads
    /// hold one, and two bytes a value serve it better.
    sparse: bool,
}

/// Heaps per value kept apart, at most, in a sparse table.
const SPARSE: usize = 1024;

impl Escaped {
    /// An empty table whose values from `escape` on are kept apart; a
    /// `sparse` one refuses them past one heap in 1024.
    pub fn new(escape: u8, sparse: bool) -> Escaped {
        Escaped::new_with(Buf::default(), escape, sparse)
    }

    /// An empty table whose bytes go to `bytes` (empty).
    pub fn new_with(bytes: Buf<u8>, escape: u8, sparse: bool) -> Escaped {
        assert!(escape > 0 && bytes.is_empty());
        Escaped {
            bytes,
            large: Vec::new(),
            marked: Vec::new(),
            escape,
            sparse,
        }
    }

    /// The table of `values`; `None` when one does not fit it.
    pub fn of(values: impl IntoIterator<Item = u32>, escape: u8, sparse: bool) -> Option<Escaped> {
        Escaped::of_in(values, Buf::default(), escape, sparse)
    }

    /// `of`, its bytes going to `bytes` (empty).
    pub fn of_in(
        values: impl IntoIterator<Item = u32>,
        bytes: Buf<u8>,
        escape: u8,
        sparse: bool,
    ) -> Option<Escaped> {
        let mut table = Escaped::new_with(bytes, escape, sparse);
        for v in values {
            if !Column::push(&mut table, v) {
                return None;
            }
        }
        Some(table)
    }

    /// Where the bytes live.
    pub fn place(&self) -> crate::heap::storage::paged::Place {
        self.bytes.place()
    }

    pub fn escape(&self) -> u8 {
        self.escape
    }

    /// min(G(n), escape) for every heap n.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// (n, G(n)) of the heaps whose byte is the escape, ascending.
    pub fn large(&self) -> &[(usize, u16)] {
        &self.large
    }

    /// Heaps whose value is kept apart.
    pub fn large_count(&self) -> usize {
        self.large.len()
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn get(&self, n: usize) -> u16 {
        self.view().at(n) as u16
    }

    /// G(a..b) as two-byte values.
    pub fn values(&self, a: usize, b: usize) -> Vec<u16> {
        self.view().range(a, b).wide()
    }

    pub fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
        let keep = self.large.partition_point(|&(n, _)| n < len);
        self.large.truncate(keep);
        self.marked.truncate(len.div_ceil(WORD_HEAPS));
        for word in &self.marked {
            word.store(0, Relaxed);
        }
        for &(n, _) in &self.large {
            self.mark(n);
        }
    }

    /// Sets the bit of heap n's block (its word exists).
    fn mark(&self, n: usize) {
        let block = n / BLOCK;
        self.marked[block / 64].fetch_or(1 << (block % 64), Relaxed);
    }
}

impl Clone for Escaped {
    fn clone(&self) -> Escaped {
        Escaped {
            bytes: self.bytes.clone(),
            large: self.large.clone(),
            marked: self
                .marked
                .iter()
                .map(|w| AtomicU64::new(w.load(Relaxed)))
                .collect(),
            escape: self.escape,
            sparse: self.sparse,
        }
    }
}

impl PartialEq for Escaped {
    fn eq(&self, other: &Escaped) -> bool {
        (&self.bytes, &self.large, self.escape) == (&other.bytes, &other.large, other.escape)
    }
}

impl Eq for Escaped {}

impl std::fmt::Debug for Escaped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Escaped {{ {} values, {} from {} on }}",
            self.bytes.len(),
            self.large.len(),
            self.escape
        )
    }
}

/// Values first..first + len of an escaped table.
#[derive(Clone, Copy)]
pub struct EscapedView<'a> {
    bytes: &'a [u8],
    first: usize,
    large: &'a [(usize, u16)],
    marked: &'a [AtomicU64],
    escape: u8,
}

impl EscapedView<'_> {
    /// The value kept apart for heap n.
    #[cold]
    fn lookup(&self, n: usize) -> u32 {
        let k = self.large.partition_point(|&(h, _)| h < n);
        debug_assert_eq!(self.large[k].0, n);
        self.large[k].1 as u32
    }

    /// Whether a block of the view's heaps holds an escape.
    fn any_marked(&self) -> bool {
        if self.bytes.is_empty() {
            return false;
        }
        let (b0, b1) = (
            self.first / BLOCK,
            (self.first + self.bytes.len() - 1) / BLOCK,
        );
        (b0 / 64..=b1 / 64).any(|w| {
            let mut bits = self.marked[w].load(Relaxed);
            if w == b0 / 64 {
                bits &= !0 << (b0 % 64);
            }
            if w == b1 / 64 {
                bits &= !0 >> (63 - b1 % 64);
            }
            bits != 0
        })
    }
}

impl Values for EscapedView<'_> {
    type Unit = u8;
    #[inline]
    fn len(&self) -> usize {
        self.bytes.len()
    }
    #[inline]
    fn at(&self, i: usize) -> u32 {
        let b = self.bytes[i];
        if b < self.escape {
            b as u32
        } else {
            self.lookup(self.first + i)
        }
    }
    #[inline]
    fn range(&self, a: usize, b: usize) -> Self {
        EscapedView {
            bytes: &self.bytes[a..b],
            first: self.first + a,
            ..*self
        }
    }
    #[inline]
    fn exact(&self) -> Option<&[u8]> {
        (!self.any_marked() || !self.bytes.contains(&self.escape)).then_some(self.bytes)
    }
    #[inline]
    fn no_escapes(&self) -> Option<&[u8]> {
        self.large.is_empty().then_some(self.bytes)
    }
    fn escapes(&self) -> Vec<usize> {
        if !self.any_marked() {
            return Vec::new();
        }
        let at_escape = |(i, &b): (usize, &u8)| (b == self.escape).then_some(i);
        self.bytes
            .iter()
            .enumerate()
            .filter_map(at_escape)
            .collect()
    }
}

impl Column for Escaped {
    fn len(&self) -> usize {
        self.bytes.len()
    }
    #[inline]
    fn push(&mut self, v: u32) -> bool {
        if v > u16::MAX as u32 {
            return false;
        }
        let n = self.bytes.len();
        if v >= self.escape as u32 && self.sparse && (self.large.len() + 1) * SPARSE > n + (1 << 16)
        {
            return false;
        }
        if n.is_multiple_of(WORD_HEAPS) {
            self.marked.push(AtomicU64::new(0));
        }
        if v < self.escape as u32 {
            self.bytes.push(v as u8);
        } else {
            self.bytes.push(self.escape);
            self.large.push((n, v as u16));
            self.mark(n);
        }
        true
    }
}

impl Store for Escaped {
    type View<'a> = EscapedView<'a>;
    fn view(&self) -> EscapedView<'_> {
        EscapedView {
            bytes: &self.bytes,
            first: 0,
            large: &self.large,
            marked: &self.marked,
            escape: self.escape,
        }
    }
    fn try_reserve(&mut self, room: usize) -> Result<(), NoRoom> {
        let words = (self.bytes.len() + room).div_ceil(WORD_HEAPS);
        self.bytes.try_reserve(room)?;
        grundy_core::interrupt::fallible(|| {
            self.large.try_reserve(room)?;
            self.marked
                .try_reserve(words.saturating_sub(self.marked.len()))
        })
        .map_err(|_| NoRoom)
    }
    fn has_room(&self) -> bool {
        let n = self.bytes.len();
        let word_there =
            n / WORD_HEAPS < self.marked.len() || self.marked.len() < self.marked.capacity();
        n < self.bytes.capacity() && self.large.len() < self.large.capacity() && word_there
    }
    fn copy_range(&self, a: usize, b: usize) -> Escaped {
        let view = self.view().range(a, b);
        let values = (0..b - a).map(|i| view.at(i));
        Escaped::of(values, self.escape, false).expect("values of a table")
    }
    unsafe fn view_detached<'a>(&self) -> EscapedView<'a> {
        // SAFETY: the caller keeps the buffers from moving and their first
        // values from changing while the view lives; pushes write through
        // the buffers' raw pointers, and the marks are atomic.
        unsafe {
            EscapedView {
                bytes: std::slice::from_raw_parts(self.bytes.as_ptr(), self.bytes.len()),
                first: 0,
                large: std::slice::from_raw_parts(self.large.as_ptr(), self.large.len()),
                marked: std::slice::from_raw_parts(self.marked.as_ptr(), self.marked.len()),
                escape: self.escape,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(seed: u64) -> impl FnMut() -> u64 {
        crate::heap::xorshift(seed | 1)
    }

    /// Values mostly small, some past every escape tried.
    fn values(len: usize, seed: u64) -> Vec<u32> {
        let mut next = random(seed);
        (0..len)
            .map(|_| match next() % 100 {
                0 => 255 + (next() % 300) as u32,
                1..=9 => (next() % 256) as u32,
                _ => (next() % 12) as u32,
            })
            .collect()
    }

    #[test]
    fn every_value_reads_back_through_any_range() {
        for escape in [255, 8, 1] {
            let g = values(20_000, escape as u64);
            let table = Escaped::of(g.iter().copied(), escape, false).unwrap();
            assert_eq!(table.len(), g.len());
            let view = table.view();
            assert!((0..g.len()).all(|n| view.at(n) == g[n]), "escape {escape}");
            let mut next = random(7);
            for _ in 0..500 {
                let a = (next() % g.len() as u64) as usize;
                let b = a + (next() % (g.len() - a) as u64).min(5000) as usize;
                let part = view.range(a, b);
                assert!((0..b - a).all(|i| part.at(i) == g[a + i]));
                let escapes: Vec<usize> =
                    (0..b - a).filter(|&i| g[a + i] >= escape as u32).collect();
                assert_eq!(part.escapes(), escapes);
                match part.exact() {
                    Some(bytes) => {
                        assert!(escapes.is_empty());
                        assert!(bytes.iter().zip(&g[a..b]).all(|(&x, &v)| x as u32 == v));
                    }
                    None => assert!(!escapes.is_empty()),
                }
            }
        }
    }

    #[test]
    fn truncate_and_values_keep_the_table_whole() {
        let g = values(9000, 3);
        let mut table = Escaped::of(g.iter().copied(), 255, false).unwrap();
        assert!(table.large_count() > 0);
        table.truncate(5000);
        let wide: Vec<u16> = g[..5000].iter().map(|&v| v as u16).collect();
        assert_eq!(table.values(0, 5000), wide);
        assert_eq!(
            table,
            Escaped::of(g[..5000].iter().copied(), 255, false).unwrap()
        );
        let ranges = table.view().range(4000, 5000);
        assert_eq!(ranges.escapes().is_empty(), ranges.exact().is_some());
        assert!(!Column::push(&mut table, 70_000));
        assert_eq!(table.len(), 5000);
    }
}
