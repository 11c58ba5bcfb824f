//! When a partial quotient is the whole game's: the pretending function's
//! period, proved by the misère form of the periodicity theorem.
//!
//! **Theorem.** Let a code take at least one counter and at most t, and
//! leave at most two heaps, with no rule on their sizes. Let n0 ≥ 1, p ≥ 1,
//! N = 2·n0 + 2p + t, and suppose heaps n and n + p have the same element
//! of Q_{N−1} for every n0 ≤ n < 2·n0 + p + t. Then heap n and heap n + p
//! are equivalent in the whole game for every n ≥ n0: the quotient of
//! every sum of heaps, of any size, is Q_{N−1}, and Φ(n + p) = Φ(n).
//!
//! **Proof.** Write C(m, X) for o⁻(m + X) = o⁻(m − p + X), m ≥ n0 + p, X
//! any sum; induct on the total counters T of m + X, and at each T prove
//! the large m (m ≥ N) before the small.
//! - m ≥ N: match the options (each takes a counter: a smaller T). m + X′ with m − p + X′ (C(m, X′), smaller
//!   T). One heap m − k (0 ≤ k ≤ t) with m − p − k, both positive, the
//!   same digit (C(m − k, X)). Two heaps a ≥ b ≥ 1, a + b = m − k: a ≥
//!   (m − t)/2 ≥ n0 + p, so a − p ≥ n0 ≥ 1 and (a − p) + b is a move of
//!   m − p (C(a, b + X)). Back, a′ ≥ b′ ≥ 1 with a′ + b′ = m − p − k:
//!   a′ ≥ (m − p − t)/2 ≥ n0, so (a′ + p) + b′ is a move of m (C(a′ + p,
//!   b′ + X)). Neither heap can be taken whole (m − p > t). Options
//!   matched by outcome, so the outcomes agree.
//! - n0 + p ≤ m < N: if X has a heap h ≥ N, C(h, m + X − h) (proved
//!   above at this T) and C(h, m − p + X − h) replace it by h − p on both
//!   sides, and C(m, X with h − p) at a smaller T closes it. If every heap
//!   of X is below N, m and m − p have one element of Q_{N−1}: that is
//!   the hypothesis.
//!
//! Every sum then equals, in outcome against every other, a sum of heaps
//! below N (each heap h ≥ N lowered by p in turn), so two sums of heaps
//! below N with one element of Q_{N−1} are equivalent in the whole game. ∎
//!
//! It is the Guy–Smith periodicity theorem's argument, as Plambeck and
//! Siegel's papers carry it to misère quotients; n0 ≥ 1 keeps a − p a
//! heap, so that the matched move splits as the original does.

use crate::game::Code;

/// A proved period of the pretending function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct QuotientPeriod {
    /// Φ(n + period) = Φ(n) for every n ≥ start.
    pub start: u16,
    pub period: u16,
    /// The largest heap the theorem read, N − 1 = 2·start + 2·period + t − 1.
    pub checked_to: u16,
}

/// Why the theorem does not apply to a code, or `None` where it does.
pub fn not_covered(code: &Code) -> Option<&'static str> {
    if code.max_removal().is_none() {
        return Some("its moves take unboundedly many counters");
    }
    if !code.digit(0).is_zero() {
        return Some("a move may split a heap without taking from it");
    }
    if code.max_heaps().is_none_or(|k| k > 2) {
        return Some("a move may leave more than two heaps");
    }
    if code.restricts_splits() {
        return Some("a split's heaps are restricted in size");
    }
    None
}

/// The shortest period, then the earliest start, that the theorem proves
/// from the pretending function `phi` of `code`'s heaps 0..=H (each heap's
/// element of Q_H).
pub fn period_of(code: &Code, phi: &[u32]) -> Option<QuotientPeriod> {
    if not_covered(code).is_some() {
        return None;
    }
    let t = code.max_removal()? as usize;
    let h = phi.len().checked_sub(1)?;
    (1..=h / 2).find_map(|p| {
        // Q_H refines Q_{N−1}, so where the theorem holds Φ_H repeats
        // from start + p through H: the start is past the last mismatch.
        let last_mismatch = (p..=h).rev().find(|&m| phi[m] != phi[m - p]);
        let start = last_mismatch.map_or(1, |m| m - p + 1).max(1);
        let checked_to = 2 * start + 2 * p + t - 1;
        (checked_to <= h).then_some(QuotientPeriod {
            start: start as u16,
            period: p as u16,
            checked_to: checked_to as u16,
        })
    })
}
