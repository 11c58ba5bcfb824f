//! A heap table stored in as few bytes per value as its values need: one
//! byte while every value is below 256 (most octal games never leave that
//! range), one byte with the few larger values kept apart while they are
//! few (`engine::heap::storage::escaped`), two bytes after.

use crate::heap::storage::escaped::{ESCAPE, Escaped};
use crate::heap::storage::paged::{Buf, Place};
pub use crate::heap::storage::store::Value;
use crate::heap::storage::width::{OnStore, TableWidth};
use grundy_core::analysis::period::Period;
use grundy_core::analysis::rare_split::RareSplit;

/// G(0..len) in one or two bytes per value, or one with the few larger
/// values kept apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapTable {
    Narrow(Buf<u8>),
    /// Values past 255 but few of them (the rare-value engine's tables).
    Escaped(Escaped),
    Wide(Buf<u16>),
}

/// A table's values as one array in memory (`HeapTable::into_memory`), or
/// the table when they are not (in a file, or some kept apart).
pub enum InMemory {
    Bytes(Vec<u8>),
    Words(Vec<u16>),
    Elsewhere(Box<HeapTable>),
}

/// A table reads as its width's values (`TableWidth`: its length, values,
/// period, statistics, place): what changes the table goes through
/// `HeapTable`'s own methods, which widen it where a value needs.
impl std::ops::Deref for HeapTable {
    type Target = dyn TableWidth;
    fn deref(&self) -> &(dyn TableWidth + 'static) {
        match self {
            HeapTable::Narrow(g) => g,
            HeapTable::Escaped(t) => t,
            HeapTable::Wide(g) => g,
        }
    }
}

impl Default for HeapTable {
    fn default() -> HeapTable {
        HeapTable::Narrow(Buf::default())
    }
}

impl HeapTable {
    /// The narrowest table that holds `g`.
    pub fn from_wide(g: Vec<u16>) -> HeapTable {
        if g.iter().all(|&v| v <= u8::MAX as u16) {
            HeapTable::Narrow(Buf::Mem(g.into_iter().map(|v| v as u8).collect()))
        } else {
            HeapTable::Wide(Buf::Mem(g))
        }
    }

    /// An empty table whose buffers live at `place`.
    pub fn new_in(place: &Place) -> std::io::Result<HeapTable> {
        Ok(HeapTable::Narrow(Buf::new_in(place)?))
    }

    fn width_mut(&mut self) -> &mut dyn TableWidth {
        match self {
            HeapTable::Narrow(g) => g,
            HeapTable::Escaped(t) => t,
            HeapTable::Wide(g) => g,
        }
    }

    /// `work` done on the table's store, at its width.
    pub fn with_store<W: OnStore>(&mut self, work: W) -> W::Output {
        match self {
            HeapTable::Narrow(g) => work.on(g),
            HeapTable::Escaped(t) => work.on(t),
            HeapTable::Wide(g) => work.on(g),
        }
    }

    /// Whether the table holds two bytes a value (no wider kind is left).
    pub fn is_widest(&self) -> bool {
        matches!(self, HeapTable::Wide(_))
    }

    /// The same values, kept at `place` (moved there when elsewhere).
    pub fn moved_to(self, place: &Place) -> std::io::Result<HeapTable> {
        if self.place() == *place {
            return Ok(self);
        }
        let mut moved = HeapTable::new_in(place)?;
        let mut a = 0;
        while a < self.len() {
            let b = self.len().min(a + (1 << 20));
            for v in self.values(a, b) {
                moved.push(v);
            }
            a = b;
        }
        Ok(moved)
    }

    pub fn bytes_per_value(&self) -> u64 {
        match self {
            // Escaped: the few values kept apart not counted.
            HeapTable::Narrow(_) | HeapTable::Escaped(_) => 1,
            HeapTable::Wide(_) => 2,
        }
    }

    pub fn truncate(&mut self, len: usize) {
        self.width_mut().truncate(len)
    }

    /// Appends values (a sparse table's: the values a checkpoint kept, of
    /// a width the table holds).
    pub fn extend_words(&mut self, values: &[u16]) {
        for &v in values {
            self.push(v);
        }
    }

    /// Moves a sparse table's end to `len` without writing the values
    /// between (`Buf::skip_to`); false for other tables.
    pub fn skip_to(&mut self, len: usize) -> bool {
        match self {
            HeapTable::Narrow(g) => g.skip_to(len),
            HeapTable::Wide(g) => g.skip_to(len),
            HeapTable::Escaped(_) => false,
        }
    }

    /// Writes `values` over values `at..` of a sparse table (values given
    /// back, wanted again: `Buf::put`); false for other tables, or for a
    /// value too large for a table of one byte a value.
    pub fn put(&mut self, at: usize, values: &[u16]) -> bool {
        match self {
            HeapTable::Narrow(g) => {
                let bytes: Option<Vec<u8>> = values.iter().map(|&v| u8::try_from(v).ok()).collect();
                bytes.is_some_and(|bytes| g.put(at, &bytes))
            }
            HeapTable::Wide(g) => g.put(at, values),
            HeapTable::Escaped(_) => false,
        }
    }

    /// Gives back the memory of values a..b of a sparse table, which read
    /// as zeros after (`Buf::forget`); nothing for other tables.
    pub fn forget(&mut self, a: usize, b: usize) {
        match self {
            HeapTable::Narrow(g) => g.forget(a, b),
            HeapTable::Wide(g) => g.forget(a, b),
            HeapTable::Escaped(_) => {}
        }
    }

    /// The values as u16, for the engines that hold two bytes per value.
    pub fn into_wide(self) -> Vec<u16> {
        match self {
            HeapTable::Narrow(g) => g.iter().map(|&v| u16::from(v)).collect(),
            HeapTable::Escaped(t) => t.values(0, t.len()),
            HeapTable::Wide(Buf::Mem(g)) => g,
            HeapTable::Wide(g) => g.to_vec(),
        }
    }

    /// Extends the table to heaps `0..=to` by a certified period p:
    /// G(n) = G(n − p) past the preperiod.
    pub fn extend_by_period(&mut self, period: &Period, to: u64) {
        assert!(period.certified && period.period > 0);
        let p = period.period as usize;
        while !self.width_mut().repeat_period(p, to as usize) {
            self.widen();
        }
    }

    /// Appends `v`, widening the table where it does not hold it.
    pub fn push(&mut self, v: u16) {
        if !self.width_mut().push(u32::from(v)) {
            self.widen();
            self.push(v);
        }
    }

    /// The next wider kind of table (one byte, escaped, two bytes).
    /// The new buffers go where the table's are (a file that cannot be
    /// made there ends the run as a full disk does).
    pub fn widen(&mut self) {
        fn fresh<T: bytemuck::Pod>(place: &Place) -> Buf<T> {
            Buf::new_in(place).unwrap_or_else(|_| out_of_disk(place))
        }
        let place = self.place();
        *self = match std::mem::take(self) {
            HeapTable::Narrow(g) => {
                let values = g.iter().map(|&v| u32::from(v));
                match Escaped::of_in(values, fresh(&place), ESCAPE, true) {
                    Some(t) => HeapTable::Escaped(t),
                    None => HeapTable::Wide(wide_copy(&HeapTable::Narrow(g), fresh(&place))),
                }
            }
            wider => HeapTable::Wide(wide_copy(&wider, fresh(&place))),
        };
    }

    /// The rare heaps under `split`, heap 0 included when it is rare (as
    /// `rare_summary` counts them).
    pub fn rare_positions(&self, split: RareSplit) -> Vec<u64> {
        let heap_0 = !self.is_empty() && split.is_rare(0, self.get(0) as u32);
        let from_1 = self.rare_positions_past_0(split);
        heap_0.then_some(0).into_iter().chain(from_1).collect()
    }

    /// Values a..b as one byte each, borrowed, when the table holds them so
    /// with none kept apart.
    pub fn bytes(&self, a: usize, b: usize) -> Option<&[u8]> {
        match self {
            HeapTable::Narrow(g) => Some(&g[a..b]),
            _ => None,
        }
    }

    /// Appends one-byte values: copied in one piece where the table holds
    /// one byte a value; an error when its file cannot grow.
    pub fn extend_bytes(&mut self, values: &[u8]) -> std::io::Result<()> {
        match self {
            HeapTable::Narrow(g) => g.extend_from_slice(values),
            table => {
                values.iter().for_each(|&v| table.push(u16::from(v)));
                Ok(())
            }
        }
    }

    /// The values when they are one array in memory, one or two bytes each,
    /// handed over without a copy; the table itself otherwise.
    pub fn into_memory(self) -> InMemory {
        match self {
            HeapTable::Narrow(Buf::Mem(values)) => InMemory::Bytes(values),
            HeapTable::Wide(Buf::Mem(values)) => InMemory::Words(values),
            table => InMemory::Elsewhere(Box::new(table)),
        }
    }
}

/// `table`'s values two bytes each in `buf` (empty), a piece at a time.
fn wide_copy(table: &HeapTable, mut buf: Buf<u16>) -> Buf<u16> {
    let mut a = 0;
    while a < table.len() {
        let b = table.len().min(a + (1 << 20));
        if buf.extend_from_slice(&table.values(a, b)).is_err() {
            out_of_disk(&buf.place());
        }
        a = b;
    }
    buf
}

/// Ends the run: a table's file could not be made or grown.
fn out_of_disk(place: &Place) -> ! {
    match place {
        Place::Folder(folder) => grundy_core::interrupt::out_of_disk(folder),
        Place::Memory => grundy_core::interrupt::out_of_disk(std::path::Path::new(".")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::analysis::period::PeriodRule;
    use grundy_core::export::{Format, SequenceWriter};

    /// Values mostly small, a few past 255, from a fixed seed.
    fn values(len: usize, seed: u64) -> Vec<u16> {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..len)
            .map(|_| match next() % 200 {
                0 => 256 + (next() % 40) as u16,
                _ => (next() % 9) as u16,
            })
            .collect()
    }

    fn escaped(g: &[u16], escape: u8) -> HeapTable {
        let values = g.iter().map(|&v| u32::from(v));
        HeapTable::Escaped(Escaped::of(values, escape, false).unwrap())
    }

    /// A period whose large values outgrow what an escaped table keeps
    /// apart: the fill widens the table and goes on, every value kept.
    #[test]
    fn a_period_an_escaped_table_cannot_hold_widens_it() {
        let pattern = |n: usize| if n.is_multiple_of(2) { 1u16 } else { 300 };
        let first = (0..100).map(|n| u32::from(pattern(n)));
        let mut t = HeapTable::Escaped(Escaped::of(first, ESCAPE, true).unwrap());
        let period = Period {
            period: 2,
            preperiod: 0,
            certified: true,
        };
        t.extend_by_period(&period, 9999);
        assert!(
            t.is_widest(),
            "the escaped table could not hold 5000 large values"
        );
        assert_eq!(t.len(), 10_000);
        assert!((0..10_000).all(|n| t.get(n) == pattern(n)));
    }

    #[test]
    fn an_escaped_table_reads_as_the_two_byte_one() {
        // More than a piece of the statistics (2^20 values), so that pieces meet.
        let g = values(1_300_000, 11);
        let wide = HeapTable::Wide(g.clone().into());
        for escape in [255, 5] {
            let t = escaped(&g, escape);
            assert_eq!(t.len(), wide.len());
            assert!((0..g.len()).step_by(997).all(|n| t.get(n) == g[n]));
            assert_eq!(t.stats(), wide.stats(), "escape {escape}");
            for parity in [None, Some(1)] {
                let summary = t.rare_summary(parity);
                assert_eq!(summary, wide.rare_summary(parity), "escape {escape}");
                let split = summary.0;
                assert_eq!(t.rare_positions(split), wide.rare_positions(split));
            }
            assert_eq!(t.clone().into_wide(), g);
        }
    }

    #[test]
    fn pushed_values_widen_the_table_only_as_far_as_they_need() {
        let kind = |t: &HeapTable| match t {
            HeapTable::Narrow(_) => "narrow",
            HeapTable::Escaped(_) => "escaped",
            HeapTable::Wide(_) => "wide",
        };
        // 255 still fits one byte; 300 among 70,000 small values is kept
        // apart; one value past 254 in every 100 is too many to keep apart.
        let mut table = HeapTable::default();
        let mut g = Vec::new();
        let mut kinds = Vec::new();
        for n in 0..150_000u32 {
            let v = match n {
                7 => 255,
                70_000 => 300,
                _ if n > 100_000 && n % 100 == 0 => 400 + (n % 7) as u16,
                _ => (n % 13) as u16,
            };
            table.push(v);
            g.push(v);
            if kinds.last() != Some(&kind(&table)) {
                kinds.push(kind(&table));
            }
        }
        assert_eq!(kinds, ["narrow", "escaped", "wide"]);
        assert_eq!(table.into_wide(), g);
    }

    #[test]
    fn an_escaped_tables_period_is_its_values_not_only_its_bytes() {
        let rule = PeriodRule {
            heaps: 2,
            removal: 3,
            theorem_applies: true,
        };
        // Bytes repeat every 4 (the escape stands for 300 and for 301),
        // the values every 8.
        let g: Vec<u16> = (0..4000)
            .map(|n| match n % 8 {
                3 => 300,
                7 => 301,
                k => k as u16 % 4,
            })
            .collect();
        let wide = HeapTable::Wide(g.clone().into()).period(&rule).unwrap();
        assert_eq!(wide.period, 8);
        assert_eq!(escaped(&g, 255).period(&rule), Some(wide));
        // Where the values kept apart repeat with the bytes, the bytes' period.
        let g: Vec<u16> = (0..4000).map(|n| [1, 2, 0, 300][n % 4]).collect();
        let wide = HeapTable::Wide(g.clone().into()).period(&rule).unwrap();
        assert_eq!(
            (wide.period, escaped(&g, 255).period(&rule)),
            (4, Some(wide))
        );
    }

    #[test]
    fn an_escaped_table_fills_from_its_period_and_writes_whole_values() {
        let period = Period {
            period: 8,
            preperiod: 0,
            certified: true,
        };
        let g: Vec<u16> = (0..16)
            .map(|n| [0, 1, 300, 2, 3, 301, 1, 0][n % 8])
            .collect();
        let mut t = escaped(&g, 255);
        t.extend_by_period(&period, 5000);
        let filled: Vec<u16> = (0..=5000)
            .map(|n| [0, 1, 300, 2, 3, 301, 1, 0][n % 8])
            .collect();
        assert_eq!(t.clone().into_wide(), filled);
        let dir = std::env::temp_dir().join(format!("grundy-escaped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.csv");
        let mut w =
            SequenceWriter::create(&path, Default::default(), Format::Csv, "0.6", 0, 5001).unwrap();
        t.append_to(&mut w).unwrap();
        w.finish().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let rows: Vec<&str> = text.lines().filter(|l| l.contains(',')).collect();
        assert_eq!(rows.len(), 5002, "a header row and every heap");
        assert_eq!(rows[3], "2,300");
        assert_eq!(rows[5001], "5000,0");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
