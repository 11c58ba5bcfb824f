//! Periods of Nim-sequences, certified with the octal periodicity theorem.
//!
//! Guy–Smith: if G(n + p) = G(n) for all e <= n < m·e + (m − 1)·p + t, where
//! t is the largest removal and m the most heaps a move leaves, then the
//! sequence is periodic from e on. So m·e + m·p + t values certify it. The
//! argument needs every split of a heap to be allowed whatever the sizes of
//! its parts: with `!`, `?`, `=` or a minimum difference, or with no bound on
//! t or m, the same evidence only shows an *apparent* period.

use serde::Serialize;

use crate::game::Code;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Period {
    /// The smallest period p.
    pub period: u64,
    /// The first heap e of the periodic part: G(n + p) = G(n) for all n >= e.
    pub preperiod: u64,
    /// True when the theorem applies and the table is long enough.
    pub certified: bool,
}

/// The parts of the theorem a code fixes.
#[derive(Clone, Copy, Debug)]
pub struct PeriodRule {
    /// m: the most heaps one move leaves (at least 1).
    pub heaps: u64,
    /// t: the largest removal (0 when unbounded: then nothing is certified).
    pub removal: u64,
    pub theorem_applies: bool,
}

impl PeriodRule {
    pub fn for_code(code: &Code) -> PeriodRule {
        let heaps = code.max_heaps();
        let removal = code.max_removal();
        PeriodRule {
            heaps: heaps.map_or(2, |m| m.max(1) as u64),
            removal: removal.unwrap_or(0),
            theorem_applies: heaps.is_some() && removal.is_some() && !code.restricts_splits(),
        }
    }

    /// The number of values, from heap 0, that show period p from e: the
    /// theorem's window, and for an apparent period at least two whole
    /// periods seen repeating after e as well.
    pub fn values_needed(&self, period: u64, preperiod: u64) -> u64 {
        let window = self.heaps * preperiod + self.heaps * period + self.removal;
        if self.theorem_applies {
            window
        } else {
            window.max(preperiod + 3 * period)
        }
    }
}

/// The smallest period whose evidence the table `g` (heaps 0..g.len()) holds.
pub fn find_period<T: Copy + Eq>(g: &[T], rule: &PeriodRule) -> Option<Period> {
    let values = g.len() as u64;
    let last = values.checked_sub(1)?;
    let mut p = 1u64;
    // Even with e = 0 the window needs m·p + t values.
    while rule.values_needed(p, 0) <= values && p <= last {
        // e_p: one past the last heap n with G(n + p) != G(n).
        let mut n = last - p;
        let preperiod = loop {
            if g[n as usize] != g[(n + p) as usize] {
                break n + 1;
            }
            if n == 0 {
                break 0;
            }
            n -= 1;
        };
        if rule.values_needed(p, preperiod) <= values {
            return Some(Period {
                period: p,
                preperiod,
                certified: rule.theorem_applies,
            });
        }
        p += 1;
    }
    None
}
