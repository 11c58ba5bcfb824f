//! Q_h where Q_{h−1} beside a heap of h is not it: the new heap tells
//! apart sums Q_{h−1} merged (in the spirit of Siegel's MisereSolver:
//! candidates, verification, refinement; the table is Angluin's, the
//! refinement Rivest and Schapire's).
//!
//! Every sum is x + k·G, x a sum of the smaller heaps and G the new heap.
//! Two sums x, y of smaller heaps are the same in Q_h when x + z + k·G and
//! y + z + k·G have one outcome for every z and k: a quotient of the
//! smaller heaps' sums whose outcome is a vector, one per k. The table
//! learns it. It holds access sums S and test sums T of smaller heaps,
//! both seeded from Q_{h−1} (its elements' words, and tests that tell
//! them apart), and the row of x is the outcomes of x + t + k·G for t in
//! T and k < K. So every sum searched is small: a word, a test, and k
//! new heaps. The rows of S are distinct; they and the letters make a
//! hypothesis M; the candidate is M beside the new heap's cycle (copy K is
//! copy K − 2 again), reduced. `verify` proves a candidate right on every
//! sum or returns the first it gets wrong, x* = y + k·G: with k ≥ K the
//! cycle was too short and grows; else y is a sum M gets wrong at k, and
//! binary search along y finds a test that splits an element of M. Each
//! refinement adds an element, so it ends.

use std::collections::HashMap;

use super::heaps::{HeapMoves, Outcomes, Sum, Trusted};
use super::monoid::{Monoid, letters_of};
use super::verify::{Verdict, verify};
use crate::analysis::whole_sum::Stopped;

/// The observation table for one new heap.
pub struct Learner<'a, 'o> {
    outcomes: &'o mut Outcomes<'a>,
    moves: &'a HeapMoves,
    /// The smaller live heaps: the letters.
    heaps: Vec<u16>,
    new_heap: u16,
    /// K: copies of the new heap each row reads (0 .. K).
    copies: usize,
    /// Access words: the heaps added, in the order they were.
    access: Vec<Vec<u16>>,
    tests: Vec<Sum>,
    /// Row of a sum: test-major, K outcomes a test.
    rows: HashMap<Sum, Vec<bool>>,
    readings_limit: usize,
    /// Candidates tried, for the report.
    pub candidates: usize,
}

/// A hypothesis: a monoid on the smaller heaps (its `p` the outcome with
/// no new heap) and each element's outcomes with k new heaps.
struct Hypothesis {
    monoid: Monoid,
    outcomes: Vec<Vec<bool>>,
}

fn sorted(word: &[u16]) -> Sum {
    let mut s = word.to_vec();
    s.sort_unstable();
    s
}

impl<'a, 'o> Learner<'a, 'o> {
    /// A table for heap `new_heap` on top of `base` (Q_{h−1}).
    pub fn new(
        outcomes: &'o mut Outcomes<'a>,
        moves: &'a HeapMoves,
        base: &Monoid,
        new_heap: u16,
        readings_limit: usize,
    ) -> Learner<'a, 'o> {
        Learner {
            outcomes,
            moves,
            heaps: base.heaps.clone(),
            new_heap,
            copies: 3,
            access: base.light_words(),
            tests: separating_tests(base),
            rows: HashMap::new(),
            readings_limit,
            candidates: 0,
        }
    }

    /// Q_h, proved by `verify`.
    pub fn learn(&mut self, stop: &dyn Fn() -> bool) -> Result<Monoid, Stopped> {
        loop {
            let hypothesis = self.closed_hypothesis()?;
            if let Some((word, k)) = self.noncommuting_word(&hypothesis)? {
                self.refine(&hypothesis, &word, k)?;
                continue;
            }
            let candidate = self.beside_new_heap(&hypothesis).reduced();
            self.candidates += 1;
            let Verdict::Fails { sum, .. } =
                verify(&candidate, self.moves, self.readings_limit, stop)?
            else {
                return Ok(candidate);
            };
            let k = sum.iter().filter(|&&x| x == self.new_heap).count();
            let rest: Sum = sum
                .iter()
                .copied()
                .filter(|&x| x != self.new_heap)
                .collect();
            self.outcomes.trust(Trusted {
                monoid: candidate,
                below: sum,
            });
            if k >= self.copies {
                self.copies = k + 2;
                self.rows.clear();
            } else {
                self.refine(&hypothesis, &rest, k)?;
            }
        }
    }

    /// Whether `x` + k new heaps is a P-position.
    fn is_p(&mut self, x: &[u16], k: usize) -> Result<bool, Stopped> {
        let mut sum: Sum = x.to_vec();
        sum.extend(std::iter::repeat_n(self.new_heap, k));
        sum.sort_unstable();
        self.outcomes.is_p(&sum)
    }

    /// The row of sum `x` on the tests so far.
    fn row(&mut self, x: &[u16]) -> Result<Vec<bool>, Stopped> {
        let mut row = self.rows.remove(x).unwrap_or_default();
        while row.len() < self.tests.len() * self.copies {
            let (t, k) = (row.len() / self.copies, row.len() % self.copies);
            let with_test: Sum = x.iter().chain(&self.tests[t]).copied().collect();
            row.push(self.is_p(&with_test, k)?);
        }
        self.rows.insert(x.to_vec(), row.clone());
        Ok(row)
    }

    /// Add access sums until every access sum plus a letter has the row
    /// of an access sum; the hypothesis those rows define.
    fn closed_hypothesis(&mut self) -> Result<Hypothesis, Stopped> {
        let mut state_of: HashMap<Vec<bool>, u32> = HashMap::new();
        for i in 0..self.access.len() {
            let row = self.row(&sorted(&self.access[i]))?;
            state_of.insert(row, i as u32);
        }
        let mut times = vec![Vec::new(); self.heaps.len()];
        let mut outcomes = Vec::new();
        let mut i = 0;
        while i < self.access.len() {
            let base = sorted(&self.access[i]);
            outcomes.push(self.row(&base)?[..self.copies].to_vec());
            for (l, h) in self.heaps.clone().into_iter().enumerate() {
                let row = self.row(&sorted(&[base.as_slice(), &[h]].concat()))?;
                let next = state_of.len() as u32;
                let state = *state_of.entry(row).or_insert(next);
                if state == next {
                    self.access.push([self.access[i].as_slice(), &[h]].concat());
                }
                times[l].push(state);
            }
            i += 1;
        }
        let p = outcomes.iter().map(|o| o[0]).collect();
        Ok(Hypothesis {
            monoid: Monoid {
                heaps: self.heaps.clone(),
                letter_of: letters_of(&self.heaps, self.moves.options.len()),
                times,
                p,
            },
            outcomes,
        })
    }

    /// The candidate: each element of M beside 0 .. K new heaps, copy K
    /// being copy K − 2.
    fn beside_new_heap(&self, h: &Hypothesis) -> Monoid {
        let (n, copies) = (h.monoid.len(), self.copies);
        let index = |e: usize, k: usize| (k * n + e) as u32;
        let mut times = vec![vec![0u32; n * copies]; self.heaps.len() + 1];
        let mut p = vec![false; n * copies];
        for k in 0..copies {
            let next = if k + 1 == copies { copies - 2 } else { k + 1 };
            for e in 0..n {
                for (l, row) in h.monoid.times.iter().enumerate() {
                    times[l][index(e, k) as usize] = index(row[e] as usize, k);
                }
                times[self.heaps.len()][index(e, k) as usize] = index(e, next);
                p[index(e, k) as usize] = h.outcomes[e][k];
            }
        }
        let mut heaps = self.heaps.clone();
        heaps.push(self.new_heap);
        let mut letter_of = h.monoid.letter_of.clone();
        letter_of[self.new_heap as usize] = Some(self.heaps.len() as u32);
        Monoid {
            heaps,
            letter_of,
            times,
            p,
        }
    }

    /// The outcome M gives `word` read in order, with k new heaps.
    fn predicted(h: &Hypothesis, word: &[u16], k: usize) -> bool {
        h.outcomes[h.monoid.times_sum(0, word) as usize][k]
    }

    /// Where two letters do not commute, a word M gets wrong at some k:
    /// the two orders reach different elements, told apart by a test, and
    /// the sum has one outcome.
    fn noncommuting_word(&mut self, h: &Hypothesis) -> Result<Option<(Vec<u16>, usize)>, Stopped> {
        let m = &h.monoid;
        let Some((e, a, b)) = m.noncommuting() else {
            return Ok(None);
        };
        let t1 = m.times[b][m.times[a][e as usize] as usize];
        let t2 = m.times[a][m.times[b][e as usize] as usize];
        let r1 = self.row(&sorted(&self.access[t1 as usize]))?;
        let r2 = self.row(&sorted(&self.access[t2 as usize]))?;
        let at = (0..r1.len()).find(|&i| r1[i] != r2[i]).unwrap_or(0);
        let (test, k) = (self.tests[at / self.copies].clone(), at % self.copies);
        let base = &self.access[e as usize];
        let (ha, hb) = (m.heaps[a], m.heaps[b]);
        let words = [
            [base.as_slice(), &[ha, hb], &test].concat(),
            [base.as_slice(), &[hb, ha], &test].concat(),
            [self.access[t1 as usize].as_slice(), &test].concat(),
            [self.access[t2 as usize].as_slice(), &test].concat(),
        ];
        for word in words {
            if self.is_p(&sorted(&word), k)? != Self::predicted(h, &word, k) {
                return Ok(Some((word, k)));
            }
        }
        unreachable!("two distinct rows on one sum: one of the four words is mispredicted")
    }

    /// Given a word M gets wrong with k new heaps, add the test that
    /// splits an element (binary search along the word).
    fn refine(&mut self, h: &Hypothesis, word: &[u16], k: usize) -> Result<(), Stopped> {
        let mut states = vec![0u32];
        for &x in word {
            states.push(h.monoid.times_sum(*states.last().unwrap(), &[x]));
        }
        // alpha(j): the outcome of access(state after j letters) + the rest.
        let alpha = |j: usize, this: &mut Self| -> Result<bool, Stopped> {
            let x: Sum = this.access[states[j] as usize]
                .iter()
                .chain(&word[j..])
                .copied()
                .collect();
            this.is_p(&x, k)
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

/// Tests (sums) that tell every two elements of a reduced monoid apart by
/// outcome, light ones first: each element's lightest word (`light_words`)
/// in order of weight, kept where it splits a class of those the tests
/// kept so far. A reduced monoid tells any two elements a, b apart by some
/// element z (az and bz not both in P or both out), and z's word splits
/// them when its turn comes unless a test before it did, so every class
/// ends a single element.
pub fn separating_tests(monoid: &Monoid) -> Vec<Sum> {
    let n = monoid.len();
    let mut words = monoid.light_words();
    words.sort_by_cached_key(|w| (w.iter().map(|&h| u64::from(h)).sum::<u64>(), w.len()));
    let mut class: Vec<u32> = monoid.p.iter().map(|&p| p as u32).collect();
    let mut classes = class.iter().collect::<std::collections::HashSet<_>>().len();
    let mut tests: Vec<Sum> = vec![Vec::new()];
    for word in words.into_iter().filter(|w| !w.is_empty()) {
        let mut ids: HashMap<(u32, bool), u32> = HashMap::new();
        let split: Vec<u32> = (0..n as u32)
            .map(|e| {
                let fresh = ids.len() as u32;
                let p = monoid.is_p(monoid.times_sum(e, &word));
                *ids.entry((class[e as usize], p)).or_insert(fresh)
            })
            .collect();
        if ids.len() > classes {
            (class, classes) = (split, ids.len());
            tests.push(sorted(&word));
        }
    }
    tests
}
