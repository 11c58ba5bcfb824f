//! The first candidate for Q_{h}: Q_{h−1} with a heap of h beside it.
//! Its elements are (q, k): an element of Q_{h−1} and k copies of the new
//! heap, k < i + p, copy i + p being copy i again; (q, k) is in the
//! P-portion when a sum of q's word and k new heaps is a P-position. It is
//! right unless the new heap tells apart sums Q_{h−1} merged, or needs a
//! longer cycle; `verify` decides, and the learner takes over where it
//! fails.

use super::heaps::{Outcomes, Sum};
use super::monoid::Monoid;
use crate::analysis::whole_sum::Stopped;

/// `base` with heap `heap` beside it, cycling as (i, p), reduced.
pub fn extended(
    base: &Monoid,
    heap: u16,
    (i, p): (usize, usize),
    outcomes: &mut Outcomes,
) -> Result<Monoid, Stopped> {
    let words = base.light_words();
    let n = base.len();
    let copies = i + p;
    let index = |q: usize, k: usize| (k * n + q) as u32;
    let mut times: Vec<Vec<u32>> = vec![vec![0; n * copies]; base.times.len() + 1];
    let mut in_p = vec![false; n * copies];
    for k in 0..copies {
        let next = if k + 1 == copies { i } else { k + 1 };
        for q in 0..n {
            for (l, row) in base.times.iter().enumerate() {
                times[l][index(q, k) as usize] = index(row[q] as usize, k);
            }
            times[base.times.len()][index(q, k) as usize] = index(q, next);
            let mut sum: Sum = words[q].clone();
            sum.extend(std::iter::repeat_n(heap, k));
            sum.sort_unstable();
            in_p[index(q, k) as usize] = outcomes.is_p(&sum)?;
        }
    }
    let mut heaps = base.heaps.clone();
    heaps.push(heap);
    let mut letter_of = base.letter_of.clone();
    letter_of.resize(letter_of.len().max(heap as usize + 1), None);
    letter_of[heap as usize] = Some(base.times.len() as u32);
    let candidate = Monoid {
        heaps,
        letter_of,
        times,
        p: in_p,
    };
    Ok(candidate.reduced())
}
