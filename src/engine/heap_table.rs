//! A heap table stored in as few bytes per value as its values need: one
//! byte while every value is below 256 (most octal games never leave that
//! range), two bytes after.

use crate::analysis::period::{Period, PeriodRule, find_period};
use crate::analysis::rare_split::{self, RareSplit, RareSummary};
use crate::analysis::stats::{HeapStats, heap_stats};
use crate::export::SequenceWriter;

/// A value type a table can hold.
pub trait Value: Copy + Default + Eq + Send + Sync + Into<u32> + 'static {
    /// The largest value this type holds.
    const MAX: u32;
    /// `v`, which must be at most `MAX`.
    fn of(v: u32) -> Self;
    /// The value as a `u16` (every table value fits one).
    fn narrow(self) -> u16;
    /// A run of values as bytes, when the type is one byte.
    fn bytes(run: &[Self]) -> Option<&[u8]> {
        let _ = run;
        None
    }
    /// A run of values as `u16`s, when the type is two bytes.
    fn words(run: &[Self]) -> Option<&[u16]> {
        let _ = run;
        None
    }
}

impl Value for u8 {
    const MAX: u32 = u8::MAX as u32;
    #[inline]
    fn of(v: u32) -> u8 {
        v as u8
    }
    #[inline]
    fn narrow(self) -> u16 {
        self as u16
    }
    #[inline]
    fn bytes(run: &[u8]) -> Option<&[u8]> {
        Some(run)
    }
}

impl Value for u16 {
    const MAX: u32 = u16::MAX as u32;
    #[inline]
    fn of(v: u32) -> u16 {
        v as u16
    }
    #[inline]
    fn narrow(self) -> u16 {
        self
    }
    #[inline]
    fn words(run: &[u16]) -> Option<&[u16]> {
        Some(run)
    }
}

/// G(0..len) in one or two bytes per value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapTable {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

impl Default for HeapTable {
    fn default() -> HeapTable {
        HeapTable::Narrow(Vec::new())
    }
}

impl HeapTable {
    /// The narrowest table that holds `g`.
    pub fn from_wide(g: Vec<u16>) -> HeapTable {
        if g.iter().all(|&v| v <= u8::MAX as u16) {
            HeapTable::Narrow(g.into_iter().map(|v| v as u8).collect())
        } else {
            HeapTable::Wide(g)
        }
    }

    pub fn len(&self) -> usize {
        match self {
            HeapTable::Narrow(g) => g.len(),
            HeapTable::Wide(g) => g.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, n: usize) -> u16 {
        match self {
            HeapTable::Narrow(g) => g[n] as u16,
            HeapTable::Wide(g) => g[n],
        }
    }

    pub fn bytes_per_value(&self) -> u64 {
        match self {
            HeapTable::Narrow(_) => 1,
            HeapTable::Wide(_) => 2,
        }
    }

    pub fn truncate(&mut self, len: usize) {
        match self {
            HeapTable::Narrow(g) => g.truncate(len),
            HeapTable::Wide(g) => g.truncate(len),
        }
    }

    /// The values as u16, for the engines that hold two bytes per value.
    pub fn into_wide(self) -> Vec<u16> {
        match self {
            HeapTable::Narrow(g) => g.into_iter().map(u16::from).collect(),
            HeapTable::Wide(g) => g,
        }
    }

    /// Extends the table to heaps `0..=to` by a certified period p:
    /// G(n) = G(n − p) past the preperiod.
    pub fn extend_by_period(&mut self, period: &Period, to: u64) {
        assert!(period.certified && period.period > 0);
        let p = period.period as usize;
        fn fill<T: Copy>(g: &mut Vec<T>, p: usize, to: usize) {
            g.reserve(to + 1 - g.len().min(to + 1));
            while g.len() <= to {
                g.push(g[g.len() - p]);
            }
        }
        match self {
            HeapTable::Narrow(g) => fill(g, p, to as usize),
            HeapTable::Wide(g) => fill(g, p, to as usize),
        }
    }

    pub fn period(&self, rule: &PeriodRule) -> Option<Period> {
        match self {
            HeapTable::Narrow(g) => find_period(g, rule),
            HeapTable::Wide(g) => find_period(g, rule),
        }
    }

    pub fn stats(&self) -> HeapStats {
        match self {
            HeapTable::Narrow(g) => heap_stats(g),
            HeapTable::Wide(g) => heap_stats(g),
        }
    }

    pub fn rare_summary(&self, parity: Option<u32>) -> (RareSplit, RareSummary) {
        match self {
            HeapTable::Narrow(g) => rare_split::summarize(g, parity),
            HeapTable::Wide(g) => rare_split::summarize(g, parity),
        }
    }

    pub fn rare_positions(&self, split: RareSplit) -> Vec<u64> {
        match self {
            HeapTable::Narrow(g) => rare_split::rare_positions(g, split),
            HeapTable::Wide(g) => rare_split::rare_positions(g, split),
        }
    }

    /// Appends the heaps `w` has not written yet.
    pub fn append_to(&self, w: &mut SequenceWriter) -> crate::error::Result<()> {
        match self {
            HeapTable::Narrow(g) => w.append(g),
            HeapTable::Wide(g) => w.append(g),
        }
    }
}
