//! A Nim-sequence as its users read it: the heaps computed, then, when a
//! period was certified before the last heap asked for, the heaps past
//! them generated from the period as they are read, never held. A periodic
//! code filled to 2^40 heaps takes the memory of its computed part; every
//! output (writers, statistics, side files, plots) reads it a piece at a
//! time.

use grundy_core::export::OutputRules;
use std::path::Path;

use crate::heap::storage::table::HeapTable;
use grundy_core::analysis::milestones::{Milestone, milestones_by_piece};
use grundy_core::analysis::period::Period;
use grundy_core::analysis::rare_split::{self, RareSplit, RareSummary, ValueHistogram};
use grundy_core::analysis::stats::{HeapStats, P_LISTED};
use grundy_core::error::Result;
use grundy_core::export::{Format, SequenceWriter};
use grundy_core::game::Code;

/// Values per piece when the filled heaps are read in pieces.
const PIECE: u64 = 1 << 20;

/// The heaps 0..len: `computed`'s, then (when filled) the period's.
#[derive(Clone, Copy)]
pub struct Filled<'t> {
    computed: &'t HeapTable,
    /// The period's length, and the first heap of the window the filled
    /// heaps repeat (`computed.len() − period`, at or past the preperiod).
    fill: Option<(u64, u64)>,
    len: u64,
}

impl<'t> Filled<'t> {
    /// The computed heaps alone.
    pub fn computed(table: &'t HeapTable) -> Filled<'t> {
        Filled {
            computed: table,
            fill: None,
            len: table.len() as u64,
        }
    }

    /// Heaps 0..=to: `table`'s, then G(n) = G(n − p) past them. The
    /// period must be certified and `table` must hold a whole period past
    /// the preperiod (where the certificate was found).
    pub fn by_period(table: &'t HeapTable, period: &Period, to: u64) -> Filled<'t> {
        let (p, have) = (period.period, table.len() as u64);
        assert!(period.certified && p > 0 && have >= period.preperiod + p);
        Filled {
            computed: table,
            fill: (to >= have).then_some((p, have - p)),
            len: (to + 1).max(have),
        }
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first heap filled from the period (none: every heap computed).
    pub fn filled_from(&self) -> Option<u64> {
        self.fill.map(|_| self.computed.len() as u64)
    }

    /// Where heap n's value is held in the computed table.
    fn source(&self, n: u64) -> usize {
        match self.fill {
            Some((p, base)) if n >= base + p => (base + (n - base) % p) as usize,
            _ => n as usize,
        }
    }

    pub fn get(&self, n: u64) -> u16 {
        self.computed.get(self.source(n))
    }

    /// Values a..b, two bytes each.
    pub fn values(&self, a: u64, b: u64) -> Vec<u16> {
        let have = self.computed.len() as u64;
        if b <= have {
            return self.computed.values(a as usize, b as usize);
        }
        let mut out = Vec::with_capacity((b - a) as usize);
        if a < have {
            out.extend(self.computed.values(a as usize, have as usize));
        }
        let (p, base) = self.fill.expect("heaps past the computed ones are filled");
        let mut n = a.max(have);
        while n < b {
            // The window's values from n's place in it to its end, or to b.
            let from = self.source(n) as u64;
            let to = (base + p).min(from + (b - n));
            out.extend(self.computed.values(from as usize, to as usize));
            n += to - from;
        }
        out
    }

    /// The filled heaps as whole cycles of 2p heaps (every heap of a cycle
    /// has the value and the parity of its place in the first), then part
    /// of one: how many cycles, the part's length, the first cycle's values.
    fn cycles(&self) -> Option<(u64, usize, Vec<u16>)> {
        let (p, _) = self.fill?;
        let have = self.computed.len() as u64;
        let tail = self.len - have;
        let cycle = self.values(have, have + tail.min(2 * p));
        Some((tail / (2 * p), (tail % (2 * p)) as usize, cycle))
    }

    /// The statistics, the filled heaps' counted cycle by cycle: every
    /// filled value repeats a computed one, so the largest value and each
    /// value's first heap are the computed heaps'.
    pub fn stats(&self) -> HeapStats {
        let mut stats = self.computed.stats();
        let Some((cycles, part, cycle)) = self.cycles() else {
            return stats;
        };
        let zeros = |run: &[u16]| run.iter().filter(|&&v| v == 0).count() as u64;
        let per_cycle = zeros(&cycle);
        stats.p_positions += cycles * per_cycle + zeros(&cycle[..part]);
        let mut n = self.computed.len() as u64;
        while per_cycle > 0 && stats.first_p_positions.len() < P_LISTED && n < self.len {
            if self.get(n) == 0 {
                stats.first_p_positions.push(n);
            }
            n += 1;
        }
        stats
    }

    /// The best split and its rare heaps, the filled heaps' counted cycle
    /// by cycle.
    pub fn rare_summary(&self, parity: Option<u32>) -> (RareSplit, RareSummary) {
        let Some((cycles, part, cycle)) = self.cycles() else {
            return self.computed.rare_summary(parity);
        };
        let have = self.computed.len() as u64;
        let computed = |a: usize, b: usize| self.computed.values(a, b);
        let hist = ValueHistogram::by_piece(have as usize, computed)
            .merge(ValueHistogram::of_heaps(have, &cycle).times(cycles))
            .merge(ValueHistogram::of_heaps(have, &cycle[..part]));
        // The last 2p heaps (or fewer) hold every filled heap's value and
        // parity: a rare heap among the filled ones has one of them.
        let last = |split| {
            let from = self.len - (self.len - have).min(cycle.len() as u64);
            let end = self.values(from, self.len);
            rare_split::last_rare_in(from, &end, split)
                .or_else(|| rare_split::last_rare_by_piece(have as usize, computed, split))
        };
        rare_split::summary_of(&hist, Some(self.computed.get(0).into()), parity, last)
    }

    /// The statistics at each heap of `at` in the table (heaps 0..=n, as
    /// a run to exactly n reports them).
    pub fn milestones(&self, parity: Option<u32>, at: &[u64]) -> Vec<Milestone> {
        let piece = |a: usize, b: usize| self.values(a as u64, b as u64);
        milestones_by_piece(self.len(), piece, parity, at)
    }

    /// Calls `each(n, G(n))` for every heap n with `keep(n, G(n))`, in
    /// order, a piece at a time.
    pub fn for_each_where(
        &self,
        keep: impl Fn(u64, u32) -> bool,
        mut each: impl FnMut(u64, u16) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let mut a = 0;
        while a < self.len {
            let b = self.len.min(a + PIECE);
            for (n, v) in (a..b).zip(self.values(a, b)) {
                if keep(n, v as u32) {
                    each(n, v)?;
                }
            }
            a = b;
        }
        Ok(())
    }

    /// Whether a value passes 255 (every value of the filled heaps is one
    /// of the computed ones).
    pub fn has_wide_values(&self) -> bool {
        self.computed.has_wide_values()
    }

    /// Appends the heaps `w` has not written yet.
    pub fn append_to(&self, w: &mut SequenceWriter) -> Result<()> {
        self.computed.append_to(w)?;
        let mut a = w.written() as u64;
        while a < self.len {
            let b = self.len.min(a + PIECE);
            w.append_from(a as usize, &self.values(a, b))?;
            a = b;
        }
        Ok(())
    }
}

/// The writer of `count` heaps of `code` to `path` in `format`, the code
/// named as that format's readers name it (CGSuite reads its own digits:
/// &N past V), under `rules`.
pub fn writer_for(
    path: &Path,
    rules: OutputRules,
    format: Format,
    code: &Code,
    count: u64,
) -> Result<SequenceWriter> {
    let name = match format {
        Format::Cgsuite => code.cgsuite_text(),
        _ => code.text.clone(),
    };
    SequenceWriter::create(path, rules, format, &name, code.min_diff, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 0.07 (Dawson's Kayles) to heap 120: period 34 from heap 53.
    fn dawson() -> (HeapTable, Period) {
        let code = grundy_core::game::Code::parse("0.07").unwrap();
        let code = grundy_core::kernel::heap::HeapKernelCode::new(&code).unwrap();
        let g = crate::cpu_blocked(&code, Vec::new(), 120, &grundy_core::hooks::Silent).unwrap();
        let period = Period {
            period: 34,
            preperiod: 53,
            certified: true,
        };
        (HeapTable::from_wide(g), period)
    }

    #[test]
    fn heaps_past_two_to_the_32_read_the_period() {
        let (table, period) = dawson();
        let to = (1u64 << 40) - 1;
        let filled = Filled::by_period(&table, &period, to);
        assert_eq!(filled.len(), 1 << 40);
        assert_eq!(filled.filled_from(), Some(121));
        // G(n) = G(n − 34k) for n past the preperiod: the same place in
        // the period as a heap below 121.
        let place = |n: u64| table.get((53 + (n - 53) % 34) as usize + 34);
        for n in [1u64 << 32, (1 << 32) + 1, 5_000_000_003, (1 << 40) - 1] {
            assert_eq!(filled.get(n), place(n), "heap {n}");
        }
        let a = (1u64 << 32) - 5;
        let run: Vec<u16> = (a..a + 100).map(place).collect();
        assert_eq!(filled.values(a, a + 100), run);
        assert_eq!(filled.values(100, 130)[..21], table.values(100, 121)[..]);
    }

    /// Values with period 7 from heap 5 (an odd period: filled heaps
    /// change parity from one period to the next), to heap 40.
    fn odd_period() -> (HeapTable, Period) {
        let g: Vec<u16> = (0..41u32)
            .map(|n| match n {
                0..5 => [0, 3, 0, 9, 1][n as usize],
                _ => [2, 0, 5, 1, 0, 7, 3][(n as usize - 5) % 7],
            })
            .collect();
        let period = Period {
            period: 7,
            preperiod: 5,
            certified: true,
        };
        (HeapTable::from_wide(g), period)
    }

    #[test]
    fn a_filled_tables_statistics_are_the_computed_ones_of_the_same_heaps() {
        for (table, period) in [dawson(), odd_period()] {
            let have = table.len() as u64;
            // Fewer filled heaps than two periods, then many cycles and a part.
            for to in [have + 3, have + 2 * period.period - 1, 3_000_017] {
                let filled = Filled::by_period(&table, &period, to);
                let mut whole = table.clone();
                whole.extend_by_period(&period, to);
                assert_eq!(filled.stats(), whole.stats(), "to {to}");
                for parity in [None, Some(0), Some(1)] {
                    let summary = filled.rare_summary(parity);
                    assert_eq!(summary, whole.rare_summary(parity), "to {to} {parity:?}");
                }
                let len = whole.len();
                assert_eq!(filled.values(0, len as u64), whole.values(0, len));
                let mut zeros = Vec::new();
                let keep = |_, v| v == 0;
                let each = |n, _| {
                    zeros.push(n);
                    Ok(())
                };
                filled.for_each_where(keep, each).unwrap();
                let expected: Vec<u64> = (0..len as u64)
                    .filter(|&n| whole.get(n as usize) == 0)
                    .collect();
                assert_eq!(zeros, expected);
            }
        }
    }
}
