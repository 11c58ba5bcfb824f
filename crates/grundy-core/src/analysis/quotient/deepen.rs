//! A candidate one move deeper: the monoid of a candidate's readings.
//!
//! `verify` reads a sum x as (Φ(x), O(x)): its element and its options'
//! elements. Adding a heap acts on readings (`verify::one_more`), and a
//! sum's reading depends only on its heaps, not their order, so the
//! readings reached from the empty sum form a commutative monoid R. Put a
//! reading in R's P-portion when the sum has a move and no option's
//! element is in the candidate's P-portion. R then gives x its true
//! outcome wherever the candidate gives every option of x its true one.
//!
//! So if the candidate is right on every sum before its first failure x*
//! (`verify`), R is right on every sum up to x* too, x* included: the
//! first failure moves strictly on. R, reduced, is the next candidate. No
//! sum is searched: the step needs only the candidate and the heaps'
//! moves, which is why it comes before the learner, whose rows search
//! sums past the failure.

use super::heaps::HeapMoves;
use super::monoid::Monoid;
use super::verify::{Reading, one_more, truly_p};
use crate::fast_map::FastMap;

/// The reading monoid of `candidate`, reduced; `None` past `limit`
/// readings.
pub fn deepened(candidate: &Monoid, moves: &HeapMoves, limit: usize) -> Option<Monoid> {
    let empty = Reading {
        element: 0,
        options: Vec::new(),
    };
    let mut ids: FastMap<Reading, u32> = FastMap::default();
    ids.insert(empty.clone(), 0);
    let mut readings = vec![empty];
    let mut times: Vec<Vec<u32>> = vec![Vec::new(); candidate.heaps.len()];
    // Readings are numbered as found, and each is read once, in that
    // order: times[l] fills element by element.
    let mut next = 0;
    while next < readings.len() {
        for (letter, &heap) in candidate.heaps.iter().enumerate() {
            let reached = one_more(candidate, moves, (letter, heap), &readings[next]);
            // Most readings are found again: look up before cloning one.
            let id = match ids.get(&reached) {
                Some(&id) => id,
                None if readings.len() >= limit => return None,
                None => {
                    let fresh = readings.len() as u32;
                    ids.insert(reached.clone(), fresh);
                    readings.push(reached);
                    fresh
                }
            };
            times[letter].push(id);
        }
        next += 1;
    }
    let p = readings.iter().map(|r| truly_p(candidate, r)).collect();
    let monoid = Monoid {
        heaps: candidate.heaps.clone(),
        letter_of: candidate.letter_of.clone(),
        times,
        p,
    };
    Some(monoid.reduced())
}
