//! What a heap table does whatever its width (one byte a value, one byte
//! with the few larger values kept apart, two bytes): a `HeapTable` reads
//! as one of these (it derefs to `dyn TableWidth`), or hands a generic
//! piece of work its store (`with_store`), so that no caller matches on
//! the width. Length and appending are `Column`'s, shared with `Store`.

use crate::heap::storage::escaped::Escaped;
use crate::heap::storage::paged::{Buf, Place};
use crate::heap::storage::store::{Column, Store, Value, Values};
use grundy_core::analysis::period::{Period, PeriodRule, find_period};
use grundy_core::analysis::rare_split::{self, RareSplit, RareSummary};
use grundy_core::analysis::stats::{HeapStats, heap_stats, heap_stats_by_piece};
use grundy_core::error::Result;
use grundy_core::export::SequenceWriter;

/// A table's values at one width.
pub trait TableWidth: Column {
    /// Where the values live.
    fn place(&self) -> Place;
    fn get(&self, n: usize) -> u16;
    /// Values a..b, two bytes each.
    fn values(&self, a: usize, b: usize) -> Vec<u16>;
    fn truncate(&mut self, len: usize);
    /// Extends the values towards heaps `0..=to` by period p: G(n) =
    /// G(n − p). False when a value did not fit this width (the values
    /// before it are in): the table widens and goes on.
    fn repeat_period(&mut self, p: usize, to: usize) -> bool {
        while self.len() <= to {
            let v = self.get(self.len() - p);
            if !self.push(u32::from(v)) {
                return false;
            }
        }
        true
    }
    fn period(&self, rule: &PeriodRule) -> Option<Period>;
    fn stats(&self) -> HeapStats;
    fn rare_summary(&self, parity: Option<u32>) -> (RareSplit, RareSummary);
    /// The rare heaps from heap 1 on.
    fn rare_positions_past_0(&self, split: RareSplit) -> Vec<u64>;
    /// Whether a value passes 255.
    fn has_wide_values(&self) -> bool;
    /// Appends to `w` the heaps it has not written yet.
    fn append_to(&self, w: &mut SequenceWriter) -> Result<()>;
}

impl<T: Value> TableWidth for Buf<T> {
    fn place(&self) -> Place {
        Buf::place(self)
    }
    fn get(&self, n: usize) -> u16 {
        self[n].into() as u16
    }
    fn values(&self, a: usize, b: usize) -> Vec<u16> {
        self[a..b].iter().map(|&v| v.into() as u16).collect()
    }
    fn truncate(&mut self, len: usize) {
        Buf::truncate(self, len)
    }
    /// The values repeated are the table's own: they fit its width.
    fn repeat_period(&mut self, p: usize, to: usize) -> bool {
        while <[T]>::len(self) <= to {
            Buf::push(self, self[<[T]>::len(self) - p]);
        }
        true
    }
    fn period(&self, rule: &PeriodRule) -> Option<Period> {
        find_period(self, rule)
    }
    fn stats(&self) -> HeapStats {
        heap_stats(self)
    }
    fn rare_summary(&self, parity: Option<u32>) -> (RareSplit, RareSummary) {
        rare_split::summarize(self, parity)
    }
    fn rare_positions_past_0(&self, split: RareSplit) -> Vec<u64> {
        rare_split::rare_positions(self, split)
    }
    fn has_wide_values(&self) -> bool {
        T::MAX > 255 && self.iter().any(|&v| v.into() > 255)
    }
    fn append_to(&self, w: &mut SequenceWriter) -> Result<()> {
        w.append(self)
    }
}

impl TableWidth for Escaped {
    fn place(&self) -> Place {
        Escaped::place(self)
    }
    fn get(&self, n: usize) -> u16 {
        Escaped::get(self, n)
    }
    fn values(&self, a: usize, b: usize) -> Vec<u16> {
        Escaped::values(self, a, b)
    }
    fn truncate(&mut self, len: usize) {
        Escaped::truncate(self, len)
    }
    fn period(&self, rule: &PeriodRule) -> Option<Period> {
        escaped_period(self, rule)
    }
    fn stats(&self) -> HeapStats {
        heap_stats_by_piece(self.len(), |a, b| self.values(a, b))
    }
    fn rare_summary(&self, parity: Option<u32>) -> (RareSplit, RareSummary) {
        rare_split::summarize_by_piece(self.len(), |a, b| self.values(a, b), parity)
    }
    fn rare_positions_past_0(&self, split: RareSplit) -> Vec<u64> {
        let g = self.view();
        rare_split::rare_positions_by(g.len(), |n| g.at(n), split)
    }
    fn has_wide_values(&self) -> bool {
        self.large().iter().any(|&(_, v)| v > 255)
    }
    /// A piece at a time, two bytes a value only for the piece.
    fn append_to(&self, w: &mut SequenceWriter) -> Result<()> {
        let mut a = w.written().min(self.len());
        while a < self.len() {
            let b = self.len().min(a + (1 << 20));
            w.append_from(a, &self.values(a, b))?;
            a = b;
        }
        Ok(())
    }
}

/// The period of an escaped table: the smallest that its bytes show (every
/// period of the values is one of the bytes), when the values kept apart
/// hold it too; else the values' own, two bytes a value (not seen so far).
fn escaped_period(t: &Escaped, rule: &PeriodRule) -> Option<Period> {
    let found = find_period(t.bytes(), rule)?;
    let p = found.period as usize;
    let holds = t
        .large()
        .iter()
        .filter(|&&(n, _)| n as u64 >= found.preperiod && n + p < t.len())
        .all(|&(n, v)| t.get(n + p) == v);
    match holds {
        true => Some(found),
        false => find_period(&t.values(0, t.len()), rule),
    }
}

/// Work done on a table's store whatever its width (`HeapTable::with_store`):
/// the engines are generic over the store, so the width is chosen once, by
/// one match, instead of in every caller (a closure cannot be generic; the
/// rare-value step is the one such work today).
pub trait OnStore {
    type Output;
    fn on<S: Store + TableWidth>(self, store: &mut S) -> Self::Output;
}
