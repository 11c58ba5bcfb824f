//! A failed candidate recalibrated, with no sum searched (the step of
//! Siegel's MisereSolver, described in Plambeck and Siegel, "Misère
//! quotients for impartial games").
//!
//! `verify` names the first sum x* the candidate gets wrong. Some heaps of
//! x* must then mean more than the candidate lets them. So set a few of
//! them free: each becomes a generator of its own cycle, x^(i+p) = x^i,
//! beside the submonoid the other heaps generate in the candidate. The
//! P-portion of that direct sum is not guessed: it is marked by the local
//! rule (`mark`), each element from the options of the first sum reaching
//! it, in the order along which every option comes first. Reduced, it is
//! the next candidate where it gives x* its true outcome; heaps are set
//! free one at a time, then two at a time, and so on, until one does.
//!
//! Whatever it builds, `verify` still decides: a recalibrated candidate is
//! only a better guess.

use super::heaps::HeapMoves;
use super::monoid::Monoid;
use super::verify::{Reading, one_more};

/// The candidate with some of `failure`'s heaps set free, marked and
/// reduced, that gives `failure` the outcome `p` (P: `true`); `None` when
/// no choice does within `limit` elements before reduction.
pub fn recalibrated(
    candidate: &Monoid,
    moves: &HeapMoves,
    failure: &[u16],
    p: bool,
    limit: usize,
) -> Option<Monoid> {
    let mut involved: Vec<u16> = failure.to_vec();
    involved.dedup();
    for size in 1..=involved.len() {
        for heaps in subsets(&involved, size) {
            let free: Option<Vec<Free>> = heaps
                .iter()
                .map(|&h| Free::of(candidate, h, failure))
                .collect();
            let Some(freed) = free.and_then(|free| freed(candidate, moves, &free, limit)) else {
                continue;
            };
            if freed.is_p(freed.element_of(failure)) == p {
                return Some(freed);
            }
        }
    }
    None
}

/// A heap set free: its letter, and the cycle it generates.
struct Free {
    letter: usize,
    index: usize,
    period: usize,
}

impl Free {
    /// Heap `heap` set free with a cycle long enough for its copies in
    /// `failure` and its cycle in `candidate`; the period grows with the
    /// index, so a run of failures with ever more copies finds a longer
    /// period in the end. `None` for a heap without a letter (no move).
    fn of(candidate: &Monoid, heap: u16, failure: &[u16]) -> Option<Free> {
        let letter = (*candidate.letter_of.get(heap as usize)?)? as usize;
        let (index, period) = candidate.cycle(letter);
        let copies = failure.iter().filter(|&&h| h == heap).count();
        let index = index.max(copies.saturating_sub(1));
        let grown = 2 * (index.saturating_sub(4) / 2);
        Some(Free {
            letter,
            index,
            period: period.max(2).max(grown),
        })
    }

    fn len(&self) -> usize {
        self.index + self.period
    }

    fn next(&self, k: usize) -> usize {
        if k + 1 == self.len() {
            self.index
        } else {
            k + 1
        }
    }
}

/// Every `size`-subset of `items`, the smallest items first.
fn subsets(items: &[u16], size: usize) -> Vec<Vec<u16>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], size - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The submonoid the other letters generate in `candidate`, beside a
/// cycle for each freed heap, its P-portion marked, reduced; `None` past
/// `limit` elements.
fn freed(candidate: &Monoid, moves: &HeapMoves, free: &[Free], limit: usize) -> Option<Monoid> {
    let is_free = |l: usize| free.iter().position(|f| f.letter == l);
    let kept: Vec<usize> = (0..candidate.heaps.len())
        .filter(|&l| is_free(l).is_none())
        .collect();
    let (inner, number) = generated(candidate, &kept);
    let size = free
        .iter()
        .try_fold(inner.len(), |n, f| n.checked_mul(f.len()))?;
    if size > limit {
        return None;
    }
    // Element (r, c_1, …, c_m) is r + |inner|·(c_1 + len_1·(c_2 + …)).
    let decode = |mut e: usize| {
        let r = e % inner.len();
        e /= inner.len();
        let cycles: Vec<usize> = free
            .iter()
            .map(|f| {
                let c = e % f.len();
                e /= f.len();
                c
            })
            .collect();
        (r, cycles)
    };
    let encode = |r: usize, cycles: &[usize]| {
        let mut e = 0;
        for (f, &c) in free.iter().zip(cycles).rev() {
            e = e * f.len() + c;
        }
        (e * inner.len() + r) as u32
    };
    let mut times = vec![vec![0u32; size]; candidate.heaps.len()];
    for e in 0..size {
        let (r, cycles) = decode(e);
        for (l, row) in times.iter_mut().enumerate() {
            row[e] = match is_free(l) {
                Some(j) => {
                    let mut moved = cycles.clone();
                    moved[j] = free[j].next(cycles[j]);
                    encode(r, &moved)
                }
                None => encode(
                    number[candidate.times[l][inner[r] as usize] as usize] as usize,
                    &cycles,
                ),
            };
        }
    }
    let mut monoid = Monoid {
        heaps: candidate.heaps.clone(),
        letter_of: candidate.letter_of.clone(),
        times,
        p: vec![false; size],
    };
    monoid.p = mark(&monoid, moves)?;
    Some(monoid.reduced())
}

/// The elements of `candidate` that `letters` reach from the identity,
/// the identity first, and each element's number among them.
fn generated(candidate: &Monoid, letters: &[usize]) -> (Vec<u32>, Vec<u32>) {
    let mut number = vec![u32::MAX; candidate.len()];
    let mut inner = vec![0u32];
    number[0] = 0;
    let mut next = 0;
    while next < inner.len() {
        let e = inner[next] as usize;
        for &l in letters {
            let f = candidate.times[l][e];
            if number[f as usize] == u32::MAX {
                number[f as usize] = inner.len() as u32;
                inner.push(f);
            }
        }
        next += 1;
    }
    (inner, number)
}

/// The P-portion the local rule gives `monoid`: each element is P when
/// the first sum reaching it has a move and no option's element is P.
/// Sums are walked in the order that reads the largest heaps first, along
/// which every option comes before its sum; a walk stops adding a heap
/// where it reaches an element already marked, since every sum past it is
/// an earlier sum plus the same heaps. `None` if an option's element was
/// not marked first (a monoid no sum order fits).
pub(super) fn mark(monoid: &Monoid, moves: &HeapMoves) -> Option<Vec<bool>> {
    let mut marks = Marks {
        monoid,
        moves,
        p: vec![false; monoid.len()],
        marked: vec![false; monoid.len()],
    };
    let empty = Reading {
        element: 0,
        options: Vec::new(),
    };
    marks.walk(monoid.heaps.len(), empty)?;
    Some(marks.p)
}

struct Marks<'a> {
    monoid: &'a Monoid,
    moves: &'a HeapMoves,
    p: Vec<bool>,
    marked: Vec<bool>,
}

impl Marks<'_> {
    /// Marks every element reached from the sum read as `reading` (its
    /// element not yet marked) by adding the first `letters` heaps.
    fn walk(&mut self, letters: usize, mut reading: Reading) -> Option<()> {
        let Some(letter) = letters.checked_sub(1) else {
            let options = &reading.options;
            if options.iter().any(|&o| !self.marked[o as usize]) {
                return None;
            }
            let e = reading.element as usize;
            self.p[e] = !options.is_empty() && options.iter().all(|&o| !self.p[o as usize]);
            self.marked[e] = true;
            return Some(());
        };
        let heap = self.monoid.heaps[letter];
        loop {
            self.walk(letter, reading.clone())?;
            reading = one_more(self.monoid, self.moves, (letter, heap), &reading);
            if self.marked[reading.element as usize] {
                return Some(());
            }
        }
    }
}

/// The first candidate for Q_h: `base` (Q_{h−1}) beside a heap of `heap`
/// free with cycle (i, p), marked and reduced, as a failure set free.
pub fn beside(
    base: &Monoid,
    moves: &HeapMoves,
    heap: u16,
    (index, period): (usize, usize),
    limit: usize,
) -> Option<Monoid> {
    let letter = base.heaps.len();
    let mut with = base.clone();
    with.heaps.push(heap);
    with.letter_of
        .resize(with.letter_of.len().max(heap as usize + 1), None);
    with.letter_of[heap as usize] = Some(letter as u32);
    with.times.push((0..base.len() as u32).collect());
    let free = Free {
        letter,
        index,
        period,
    };
    freed(&with, moves, &[free], limit)
}
