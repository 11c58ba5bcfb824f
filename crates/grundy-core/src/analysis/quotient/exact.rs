//! The quotient by the definition, for a few small heaps: every sum in a
//! box of heap counts gets its outcome by search, and the classes follow
//! by merging what no sum tells apart. A reader can redo it by hand.
//!
//! The box holds, for each heap h, 0 ..= i_h + p_h − 1 copies, as a
//! monoid where copy i_h + p_h is copy i_h again (h^(i+p) = h^i). That is
//! the truth if every sum with at most i_h + p_h copies of each heap has
//! the outcome of the box element it folds to: a sum with more copies of
//! h has, heap by heap, the same folded options as the sum with p_h fewer,
//! so (by induction on size) the same outcome. Where a sum at the edge
//! fails, the heaps at the edge get a longer tail i_h and the box is
//! built again.

use super::heaps::{HeapMoves, Outcomes, Sum};
use super::monoid::{Monoid, letters_of};
use crate::analysis::whole_sum::Stopped;

/// Why the box gave no quotient.
#[derive(Debug)]
pub enum BoxError {
    /// The search stopped (memory limit or the caller).
    Stopped(Stopped),
    /// The box would pass `limit` elements.
    TooLarge { elements: u64 },
}

impl From<Stopped> for BoxError {
    fn from(s: Stopped) -> BoxError {
        BoxError::Stopped(s)
    }
}

/// The quotient of the sums of `moves`' heaps, through boxes of at most
/// `limit` elements.
pub fn box_quotient(
    moves: &HeapMoves,
    outcomes: &mut Outcomes,
    limit: u64,
) -> Result<Monoid, BoxError> {
    let heaps: Vec<u16> = (1..=moves.max_heap()).filter(|&h| moves.live(h)).collect();
    // (tail i, period p) for each heap. Period 2 covers periods 1 and 2;
    // another shows as edges that keep failing, until the limit.
    let mut cycles: Vec<(usize, usize)> = vec![(1, 2); heaps.len()];
    loop {
        let elements: u64 = cycles.iter().map(|&(i, p)| (i + p) as u64).product();
        if elements > limit {
            return Err(BoxError::TooLarge { elements });
        }
        let monoid = box_monoid(moves, &heaps, &cycles, outcomes)?;
        match edge_failure(&monoid, &heaps, &cycles, outcomes)? {
            None => return Ok(monoid.reduced()),
            Some(counts) => {
                for (l, &c) in counts.iter().enumerate() {
                    if c == cycles[l].0 + cycles[l].1 {
                        cycles[l].0 += 1;
                    }
                }
            }
        }
    }
}

/// The sum with `counts[l]` copies of heap `heaps[l]`.
fn sum_of(heaps: &[u16], counts: &[usize]) -> Sum {
    let mut sum = Sum::new();
    for (&h, &c) in heaps.iter().zip(counts) {
        sum.extend(std::iter::repeat_n(h, c));
    }
    sum
}

/// Every vector of counts with counts[l] < bound[l], in mixed radix.
fn counts_below(bound: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let total: usize = bound.iter().product();
    (0..total).map(move |mut n| {
        bound
            .iter()
            .map(|&b| {
                let digit = n % b;
                n /= b;
                digit
            })
            .collect()
    })
}

fn index_of(counts: &[usize], cycles: &[(usize, usize)]) -> usize {
    let mut index = 0;
    for (&c, &(i, p)) in counts.iter().zip(cycles).rev() {
        let folded = if c >= i + p { i + (c - i) % p } else { c };
        index = index * (i + p) + folded;
    }
    index
}

fn box_monoid(
    moves: &HeapMoves,
    heaps: &[u16],
    cycles: &[(usize, usize)],
    outcomes: &mut Outcomes,
) -> Result<Monoid, Stopped> {
    let radix: Vec<usize> = cycles.iter().map(|&(i, p)| i + p).collect();
    let mut times = vec![Vec::new(); heaps.len()];
    let mut p = Vec::new();
    for counts in counts_below(&radix) {
        p.push(outcomes.is_p(&sum_of(heaps, &counts))?);
        for (l, row) in times.iter_mut().enumerate() {
            let mut more = counts.clone();
            more[l] += 1;
            row.push(index_of(&more, cycles) as u32);
        }
    }
    Ok(Monoid {
        heaps: heaps.to_vec(),
        letter_of: letters_of(heaps, moves.options.len()),
        times,
        p,
    })
}

/// A sum with at most i + p copies of each heap whose outcome is not its
/// box element's, as counts.
fn edge_failure(
    monoid: &Monoid,
    heaps: &[u16],
    cycles: &[(usize, usize)],
    outcomes: &mut Outcomes,
) -> Result<Option<Vec<usize>>, Stopped> {
    let edge: Vec<usize> = cycles.iter().map(|&(i, p)| i + p + 1).collect();
    for counts in counts_below(&edge) {
        let folded = index_of(&counts, cycles) as u32;
        if outcomes.is_p(&sum_of(heaps, &counts))? != monoid.is_p(folded) {
            return Ok(Some(counts));
        }
    }
    Ok(None)
}
