//! The quotient found by candidates, verification and refinement, heap
//! size by heap size (in the spirit of Siegel's MisereSolver; the table is
//! Angluin's, the refinement Rivest and Schapire's).
//!
//! A table holds access sums S (the empty sum first; each other one is an
//! earlier one plus a heap) and test sums E (the empty sum first). The
//! row of a sum x is the outcomes of x + e for e in E. The rows of S are
//! distinct: they are the candidate's elements, x·h being the element
//! whose row is x + h's. A candidate is accepted only when its letters
//! commute and `verify` proves it right on every sum; then, its elements
//! being told apart by tests, it is the quotient itself. A wrong
//! candidate yields a sum it gets wrong; binary search along that sum
//! finds a test that splits an element, and the table grows. Each round
//! adds an element, so it ends.

use std::collections::HashMap;

use super::heaps::{HeapMoves, Outcomes, Sum, Trusted};
use super::monoid::Monoid;
use super::verify::{Verdict, verify};
use crate::analysis::whole_sum::Stopped;

/// The observation table.
pub struct Learner<'a, 'o> {
    outcomes: &'o mut Outcomes<'a>,
    moves: &'a HeapMoves,
    heaps: Vec<u16>,
    /// Access words: the heaps added, in the order they were.
    access: Vec<Vec<u16>>,
    tests: Vec<Sum>,
    rows: HashMap<Sum, Vec<bool>>,
    /// Readings one verification may hold in a layer.
    readings_limit: usize,
    /// Candidates tried, for the report.
    pub candidates: usize,
    /// Readings the last verification held.
    pub readings: usize,
}

fn sorted(word: &[u16]) -> Sum {
    let mut s = word.to_vec();
    s.sort_unstable();
    s
}

fn plus(a: &[u16], b: &[u16]) -> Sum {
    let mut s: Sum = a.iter().chain(b).copied().collect();
    s.sort_unstable();
    s
}

impl<'a, 'o> Learner<'a, 'o> {
    pub fn new(
        outcomes: &'o mut Outcomes<'a>,
        moves: &'a HeapMoves,
        readings_limit: usize,
    ) -> Learner<'a, 'o> {
        Learner {
            outcomes,
            moves,
            heaps: Vec::new(),
            access: vec![Vec::new()],
            tests: vec![Vec::new()],
            rows: HashMap::new(),
            readings_limit,
            candidates: 0,
            readings: 0,
        }
    }

    /// Start from these heaps, with no table yet.
    pub fn take_heaps(&mut self, heaps: &[u16]) {
        self.heaps = heaps.to_vec();
    }

    /// The quotient of the sums of the heaps so far and `heap`.
    pub fn add_heap(&mut self, heap: u16, stop: &dyn Fn() -> bool) -> Result<Monoid, Stopped> {
        self.heaps.push(heap);
        loop {
            let candidate = self.closed_candidate()?;
            self.candidates += 1;
            if let Some(word) = self.noncommuting_word(&candidate)? {
                self.refine(&candidate, &word)?;
                continue;
            }
            match verify(&candidate, self.moves, self.readings_limit, stop)? {
                Verdict::Holds { readings } => {
                    self.readings = readings;
                    return Ok(candidate);
                }
                Verdict::Fails { sum, .. } => {
                    self.outcomes.trust(Trusted {
                        monoid: candidate.clone(),
                        below: sum.clone(),
                    });
                    self.refine(&candidate, &sum)?;
                }
            }
        }
    }

    /// The row of sum `x` on the tests so far.
    fn row(&mut self, x: &[u16]) -> Result<Vec<bool>, Stopped> {
        let mut row = self.rows.remove(x).unwrap_or_default();
        while row.len() < self.tests.len() {
            let test = &self.tests[row.len()];
            row.push(self.outcomes.is_p(&plus(x, test))?);
        }
        self.rows.insert(x.to_vec(), row.clone());
        Ok(row)
    }

    /// Add access sums until every access sum plus a heap has the row of
    /// an access sum; the candidate those rows define.
    fn closed_candidate(&mut self) -> Result<Monoid, Stopped> {
        let mut state_of: HashMap<Vec<bool>, u32> = HashMap::new();
        for i in 0..self.access.len() {
            let row = self.row(&sorted(&self.access[i]))?;
            state_of.insert(row, i as u32);
        }
        let mut times = vec![Vec::new(); self.heaps.len()];
        let mut p = Vec::new();
        let mut i = 0;
        while i < self.access.len() {
            let base = sorted(&self.access[i]);
            p.push(self.row(&base)?[0]);
            for (l, &h) in self.heaps.clone().iter().enumerate() {
                let row = self.row(&plus(&base, &[h]))?;
                let next = state_of.len() as u32;
                let state = *state_of.entry(row).or_insert(next);
                if state == next {
                    let mut word = self.access[i].clone();
                    word.push(h);
                    self.access.push(word);
                }
                times[l].push(state);
            }
            i += 1;
        }
        let mut letter_of = vec![None; self.moves.options.len()];
        for (l, &h) in self.heaps.iter().enumerate() {
            letter_of[h as usize] = Some(l as u32);
        }
        Ok(Monoid {
            heaps: self.heaps.clone(),
            letter_of,
            times,
            p,
        })
    }

    /// The element the candidate reaches reading `word` in order.
    fn read(candidate: &Monoid, word: &[u16]) -> u32 {
        candidate.times_sum(0, word)
    }

    /// Where two letters do not commute, a word the candidate gets wrong:
    /// the two orders reach different elements, told apart by a test, and
    /// the sum has one outcome.
    fn noncommuting_word(&mut self, candidate: &Monoid) -> Result<Option<Vec<u16>>, Stopped> {
        let Some((e, a, b)) = candidate.noncommuting() else {
            return Ok(None);
        };
        let (ha, hb) = (candidate.heaps[a], candidate.heaps[b]);
        let t1 = candidate.times[b][candidate.times[a][e as usize] as usize];
        let t2 = candidate.times[a][candidate.times[b][e as usize] as usize];
        let r1 = self.row(&sorted(&self.access[t1 as usize]))?;
        let r2 = self.row(&sorted(&self.access[t2 as usize]))?;
        let test = self.tests[(0..r1.len()).find(|&k| r1[k] != r2[k]).unwrap_or(0)].clone();
        let base = &self.access[e as usize];
        let words = [
            [base.as_slice(), &[ha, hb], &test].concat(),
            [base.as_slice(), &[hb, ha], &test].concat(),
            [self.access[t1 as usize].as_slice(), &test].concat(),
            [self.access[t2 as usize].as_slice(), &test].concat(),
        ];
        for word in words {
            let predicted = candidate.is_p(Self::read(candidate, &word));
            if self.outcomes.is_p(&sorted(&word))? != predicted {
                return Ok(Some(word));
            }
        }
        unreachable!("two distinct rows on one sum: one of the four words is mispredicted")
    }

    /// Given a word the candidate gets wrong, add the test that splits an
    /// element (Rivest and Schapire's binary search along the word).
    fn refine(&mut self, candidate: &Monoid, word: &[u16]) -> Result<(), Stopped> {
        let mut states = vec![0u32];
        for &h in word {
            states.push(candidate.times_sum(*states.last().unwrap(), &[h]));
        }
        // alpha(j): the outcome of access(state after j letters) + the rest.
        let alpha = |j: usize, this: &mut Self| -> Result<bool, Stopped> {
            let x = plus(&this.access[states[j] as usize], &word[j..]);
            this.outcomes.is_p(&x)
        };
        let (mut lo, mut hi) = (0, word.len());
        let first = alpha(lo, self)?;
        debug_assert_ne!(first, alpha(hi, self)?);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if alpha(mid, self)? == first {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let test = sorted(&word[lo + 1..]);
        debug_assert!(!self.tests.contains(&test));
        self.tests.push(test);
        Ok(())
    }
}
