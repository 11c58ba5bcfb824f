//! Periods of Nim-sequences, certified with the octal periodicity theorem.
//!
//! Guy–Smith: if G(n + p) = G(n) for all e <= n < m·e + (m − 1)·p + t, where
//! t is the largest removal and m the most heaps a move leaves, then the
//! sequence is periodic from e on. So m·e + m·p + t values certify it. The
//! argument needs every split of a heap to be allowed whatever the sizes of
//! its parts: with `!`, `?`, `=` or a minimum difference, or with no bound on
//! t or m, the same evidence only shows an *apparent* period.

use rayon::prelude::*;
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
/// e_p − 1: the last heap n with G(n + p) != G(n), looked for backwards:
/// heap by heap near the end (where most p fail at once), then a piece at
/// a time (a slice comparison is one vectorised memcmp).
fn last_difference<T: Copy + Eq>(g: &[T], p: usize) -> Option<usize> {
    const PIECE: usize = 256;
    let mut end = g.len() - p;
    let near = end.saturating_sub(32);
    if let Some(n) = (near..end).rev().find(|&n| g[n] != g[n + p]) {
        return Some(n);
    }
    end = near;
    while end > 0 {
        let start = end.saturating_sub(PIECE);
        if g[start..end] != g[start + p..end + p] {
            return (start..end).rev().find(|&n| g[n] != g[n + p]);
        }
        end = start;
    }
    None
}

/// The smallest period the table shows, with its preperiod; candidates are
/// tried on every thread, the smallest that holds wins.
pub fn find_period<T: Copy + Eq + Sync>(g: &[T], rule: &PeriodRule) -> Option<Period> {
    find_period_from(0, g, rule)
}

/// `find_period` of a table of which only heaps `first..` are at hand (a
/// run that keeps a window of its last heaps): a candidate counts only
/// where a difference inside `g` shows where its periodic part starts,
/// since what lies before `first` is unknown.
pub fn find_period_from<T: Copy + Eq + Sync>(
    first: u64,
    g: &[T],
    rule: &PeriodRule,
) -> Option<Period> {
    let values = first + g.len() as u64;
    let last = values.checked_sub(1)?;
    // Even with e = 0 the window needs m·p + t values: the largest p it
    // allows (values_needed grows with p).
    let (mut lo, mut hi) = (0, last);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if rule.values_needed(mid, 0) <= values {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let preperiod = |p: u64| match last_difference(g, p as usize) {
        Some(n) => Some(first + n as u64 + 1),
        None => (first == 0).then_some(0),
    };
    // Candidates a piece at a time per thread; the first piece that holds
    // one gives the smallest.
    const CANDIDATES: u64 = 1 << 12;
    let piece = |k: u64| {
        let first = 1 + k * CANDIDATES;
        (first..=lo.min(first + CANDIDATES - 1))
            .filter(|&p| (p as usize) < g.len())
            .filter_map(|p| Some((p, preperiod(p)?)))
            .find(|&(p, e)| rule.values_needed(p, e) <= values)
    };
    let (period, preperiod) = (0..lo.div_ceil(CANDIDATES))
        .into_par_iter()
        .find_map_first(piece)?;
    Some(Period {
        period,
        preperiod,
        certified: rule.theorem_applies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search one candidate and one heap at a time.
    fn plain(g: &[u8], rule: &PeriodRule) -> Option<(u64, u64)> {
        let values = g.len() as u64;
        let mut p = 1;
        while rule.values_needed(p, 0) <= values && p < values {
            let e = (0..g.len() - p as usize)
                .rev()
                .find(|&n| g[n] != g[n + p as usize])
                .map_or(0, |n| n as u64 + 1);
            if rule.values_needed(p, e) <= values {
                return Some((p, e));
            }
            p += 1;
        }
        None
    }

    #[test]
    fn the_piecewise_parallel_search_finds_what_the_plain_one_finds() {
        let mut seed = 0x51ed_270b_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..300 {
            let (pre, period) = (next() % 700, 1 + next() % 400);
            let len = (next() % 4000) as usize;
            let cycle: Vec<u8> = (0..period).map(|_| (next() % 3) as u8).collect();
            let g: Vec<u8> = (0..len as u64)
                .map(|n| match n < pre {
                    true => (next() % 3) as u8,
                    false => cycle[((n - pre) % period) as usize],
                })
                .collect();
            let rule = PeriodRule {
                heaps: 1 + next() % 2,
                removal: next() % 5,
                theorem_applies: next() % 2 == 0,
            };
            let found = find_period(&g, &rule).map(|p| (p.period, p.preperiod));
            assert_eq!(found, plain(&g, &rule), "case {case}");
        }
    }
}
