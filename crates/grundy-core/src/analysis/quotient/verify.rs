//! Whether a candidate monoid gives every sum of heaps its misère
//! outcome: a finite check of an infinite claim.
//!
//! The claim: for every sum x, x is a P-position exactly when its element
//! Φ(x) is in the P-portion. By induction on x's size it holds when every
//! x passes the local test "Φ(x) in P ⇔ x has a move and no option's
//! element is in P", since an option's element is then its true outcome.
//! The local test reads only Φ(x) and the set of its options' elements,
//! O(x). Adding a heap h to x gives Φ(x)·h and O(x)·h ∪ {Φ(x)·m : m an
//! option of h}, so (Φ, O) is computed heap size by heap size, copy by
//! copy. And it is enough to test sums with at most i + p copies of each
//! heap h, where Φ(h)^(i+p) = Φ(h)^i: with more, x and x − p·h have the
//! same Φ and, heap by heap, the same options' elements, so the same test.
//!
//! Where a test fails, the first failing sum x* is returned, in the order
//! that reads the largest heaps first (`heaps::precedes`), along which
//! every option of a sum comes before it, and so does x − p·h. Every sum
//! before x* then passes, so the candidate gives every sum before x* its
//! true outcome (the learner trusts it there), and x*'s own outcome is the
//! one its options give, which the candidate gets wrong: x* is a true
//! counterexample.

use rayon::prelude::*;

use super::heaps::{HeapMoves, Sum};
use super::monoid::Monoid;
use crate::analysis::whole_sum::Stopped;
use crate::fast_map::FastMap;

/// A sum as the test reads it: its element and its options' elements.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Reading {
    pub(super) element: u32,
    pub(super) options: Vec<u32>,
}

/// How the first sum with a reading was reached: the copies of this
/// layer's heap, and the reading it came from at the heap before. Sums
/// compare by their copies of the largest heap first, then by where they
/// came from: (copies, rank of `from`).
#[derive(Clone, Copy)]
struct Reached {
    copies: u32,
    from: u32,
}

/// The readings after each heap size, with how each was reached and the
/// rank of its first sum among the layer's.
struct Layer {
    readings: Vec<Reading>,
    reached: Vec<Reached>,
    rank: Vec<u32>,
}

/// What the check found.
pub enum Verdict {
    /// Every sum's outcome is its element's.
    Holds { readings: usize },
    /// The smallest sum whose element gives the wrong outcome, and its
    /// true outcome (P: `true`).
    Fails { sum: Sum, p: bool },
}

/// Check `monoid` against every sum of `moves`' heaps that it has letters
/// for. Stops past `limit` readings in one layer, or when `stop` says so.
pub fn verify(
    monoid: &Monoid,
    moves: &HeapMoves,
    limit: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Verdict, Stopped> {
    let mut layers: Vec<Layer> = vec![Layer {
        readings: vec![Reading {
            element: 0,
            options: Vec::new(),
        }],
        reached: vec![Reached { copies: 0, from: 0 }],
        rank: vec![0],
    }];
    for (letter, &heap) in monoid.heaps.iter().enumerate() {
        if stop() {
            return Err(Stopped {
                positions: layers.last().map_or(0, |l| l.readings.len()),
                full: false,
            });
        }
        let next = add_heap(monoid, moves, (letter, heap), layers.last().unwrap(), limit)?;
        layers.push(next);
    }
    let last = layers.last().unwrap();
    let failing = (0..last.readings.len())
        .filter(|&i| monoid.is_p(last.readings[i].element) != truly_p(monoid, &last.readings[i]))
        .min_by_key(|&i| last.rank[i]);
    Ok(match failing {
        None => Verdict::Holds {
            readings: last.readings.len(),
        },
        Some(index) => Verdict::Fails {
            sum: sum_of(monoid, &layers, index),
            p: truly_p(monoid, &last.readings[index]),
        },
    })
}

/// The outcome a sum with this reading has if its options' outcomes are
/// their elements': P when it has a move and no option is in P.
pub(super) fn truly_p(monoid: &Monoid, reading: &Reading) -> bool {
    !reading.options.is_empty() && reading.options.iter().all(|&o| !monoid.is_p(o))
}

/// The readings with 0 ..= i + p copies of `heap` added to each of `from`.
/// Each reading's copies are computed apart, on every core, a chunk of
/// `from` at a time; they are merged in `from`'s order, so the layer is
/// the same however many threads ran.
fn add_heap(
    monoid: &Monoid,
    moves: &HeapMoves,
    (letter, heap): (usize, u16),
    from: &Layer,
    limit: usize,
) -> Result<Layer, Stopped> {
    let (index, period) = monoid.cycle(letter);
    let (times, moved) = (&monoid.times[letter], moved_by(monoid, moves, heap));
    let mut ids: FastMap<Reading, u32> = FastMap::default();
    let mut layer = Layer {
        readings: Vec::new(),
        reached: Vec::new(),
        rank: Vec::new(),
    };
    let key = |r: &Reached| (r.copies, from.rank[r.from as usize]);
    for (chunk_at, chunk) in from.readings.chunks(CHUNK).enumerate() {
        let copies: Vec<Vec<Reading>> = chunk
            .par_iter()
            .map(|reading| with_copies(times, &moved, reading, index + period))
            .collect();
        for (offset, chain) in copies.into_iter().enumerate() {
            for (copies, now) in chain.into_iter().enumerate() {
                let step = Reached {
                    copies: copies as u32,
                    from: (chunk_at * CHUNK + offset) as u32,
                };
                match ids.get(&now) {
                    Some(&id) if key(&layer.reached[id as usize]) <= key(&step) => {}
                    Some(&id) => layer.reached[id as usize] = step,
                    None => {
                        if layer.readings.len() >= limit {
                            return Err(Stopped {
                                positions: layer.readings.len(),
                                full: true,
                            });
                        }
                        ids.insert(now.clone(), layer.readings.len() as u32);
                        layer.readings.push(now);
                        layer.reached.push(step);
                    }
                }
            }
        }
    }
    let mut order: Vec<u32> = (0..layer.readings.len() as u32).collect();
    order.sort_unstable_by_key(|&i| key(&layer.reached[i as usize]));
    layer.rank = vec![0; order.len()];
    for (rank, &i) in order.iter().enumerate() {
        layer.rank[i as usize] = rank as u32;
    }
    Ok(layer)
}

/// Readings of a layer computed between two merges: enough to keep every
/// core busy, few enough to hold their copies at once.
const CHUNK: usize = 4096;

/// `reading` with 0 ..= `most` copies of a heap added, the heap acting as
/// `times` and its moves as `moved` (`moved_by`).
fn with_copies(times: &[u32], moved: &[Vec<u32>], reading: &Reading, most: usize) -> Vec<Reading> {
    let mut chain = Vec::with_capacity(most + 1);
    chain.push(reading.clone());
    for _ in 0..most {
        let last = chain.last().unwrap();
        let next = joined(times, &moved[last.element as usize], last);
        chain.push(next);
    }
    chain
}

/// The reading of a sum with one more heap of `heap`.
pub(super) fn one_more(
    monoid: &Monoid,
    moves: &HeapMoves,
    (letter, heap): (usize, u16),
    r: &Reading,
) -> Reading {
    let moved: Vec<u32> = moves.options[heap as usize]
        .iter()
        .map(|by| monoid.times_sum(r.element, by))
        .collect();
    joined(&monoid.times[letter], &moved, r)
}

/// The reading of a sum with one more heap, whose moves leave the sum's
/// element times `moved`, and which acts on elements as `times` does.
fn joined(times: &[u32], moved: &[u32], r: &Reading) -> Reading {
    let mut options: Vec<u32> = r.options.iter().map(|&o| times[o as usize]).collect();
    options.extend_from_slice(moved);
    options.sort_unstable();
    options.dedup();
    Reading {
        element: times[r.element as usize],
        options,
    }
}

/// For each element e, e times each option of `heap`: what a move on one
/// more heap of `heap` leaves, read once per element instead of once per
/// reading.
fn moved_by(monoid: &Monoid, moves: &HeapMoves, heap: u16) -> Vec<Vec<u32>> {
    (0..monoid.len() as u32)
        .map(|e| {
            moves.options[heap as usize]
                .iter()
                .map(|by| monoid.times_sum(e, by))
                .collect()
        })
        .collect()
}

/// The first sum reaching reading `index` of the last layer.
fn sum_of(monoid: &Monoid, layers: &[Layer], mut index: usize) -> Sum {
    let mut sum: Sum = Vec::new();
    for (layer, &heap) in layers[1..].iter().zip(&monoid.heaps).rev() {
        let reached = layer.reached[index];
        sum.extend(std::iter::repeat_n(heap, reached.copies as usize));
        index = reached.from as usize;
    }
    sum.sort_unstable();
    sum
}
