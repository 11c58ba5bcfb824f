//! The heaps of a code up to a size, their moves, and the misère outcome
//! of any sum of them by search over the whole sum.

use super::monoid::Monoid;
use crate::analysis::whole_sum::{Stopped, room_for_one_more};
use crate::fast_map::FastMap;
use crate::game::Code;

/// A sum of heaps: its live heaps' sizes, sorted. A heap without a move
/// is left out: it never moves, so the sum's game tree is the same
/// without it.
pub type Sum = Vec<u16>;

/// Each heap's options up to a size, as sums.
pub struct HeapMoves {
    /// `options[h]`: the sums one move on a heap of `h` leaves.
    pub options: Vec<Vec<Sum>>,
}

impl HeapMoves {
    /// The moves of `code`'s heaps 0..=max_heap.
    pub fn of(code: &Code, max_heap: u16) -> HeapMoves {
        let mut options: Vec<Vec<Sum>> = Vec::with_capacity(max_heap as usize + 1);
        for h in 0..=max_heap {
            let mut left: Vec<Sum> = Vec::new();
            code.for_each_move(h.into(), u64::MAX, &mut |_, heaps| {
                let mut sum: Sum = heaps
                    .iter()
                    .map(|&part| part as u16)
                    .filter(|&part| part > 0 && !options[part as usize].is_empty())
                    .collect();
                sum.sort_unstable();
                left.push(sum);
            });
            left.sort();
            left.dedup();
            options.push(left);
        }
        HeapMoves { options }
    }

    /// Whether a heap of `h` has a move.
    pub fn live(&self, h: u16) -> bool {
        !self.options[h as usize].is_empty()
    }

    /// The largest heap covered.
    pub fn max_heap(&self) -> u16 {
        (self.options.len() - 1) as u16
    }
}

/// The sum `sum` with its heap at `at` replaced by the heaps of `by`,
/// written into `out` (a buffer reused from option to option).
fn replace_into(out: &mut Sum, sum: &[u16], at: usize, by: &[u16]) {
    out.clear();
    out.extend_from_slice(&sum[..at]);
    out.extend_from_slice(&sum[at + 1..]);
    out.extend_from_slice(by);
    out.sort_unstable();
}

/// Whether sum `a` comes before sum `b` in the order that reads the
/// largest heaps first: fewer copies of the largest heap where they
/// differ. Every option of a sum comes before it (a move takes a heap and
/// leaves smaller ones), so induction runs along this order.
pub fn precedes(a: &[u16], b: &[u16]) -> bool {
    a.iter().rev().lt(b.iter().rev())
}

/// A quotient known to give the outcome of every sum that precedes
/// `below`.
pub struct Trusted {
    pub monoid: Monoid,
    pub below: Sum,
}

impl Trusted {
    fn covers(&self, sum: &[u16]) -> bool {
        precedes(sum, &self.below)
    }
}

/// Misère outcomes of sums of heaps, by search, remembered; where a
/// trusted quotient covers a sum, its answer.
pub struct Outcomes<'a> {
    moves: &'a HeapMoves,
    memo: FastMap<Sum, bool>,
    searched: usize,
    /// The trusted quotient whose bound is the furthest: every sum another
    /// covers precedes that bound too, so it alone answers.
    trusted: Option<Trusted>,
    limit: usize,
    stop: &'a dyn Fn() -> bool,
}

impl<'a> Outcomes<'a> {
    /// A search remembering at most `limit` sums, asking `stop` every few
    /// thousand.
    pub fn new(moves: &'a HeapMoves, limit: usize, stop: &'a dyn Fn() -> bool) -> Outcomes<'a> {
        Outcomes {
            moves,
            memo: FastMap::default(),
            searched: 0,
            trusted: None,
            limit,
            stop,
        }
    }

    /// Sums remembered now.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// Sums valued by search so far, those since forgotten included.
    pub fn searched(&self) -> usize {
        self.searched
    }

    /// From now on, answer from `trusted` where it covers a sum, unless
    /// the quotient trusted already covers every sum it does. Sums it
    /// covers are forgotten: it answers for them.
    pub fn trust(&mut self, trusted: Trusted) {
        if let Some(now) = &self.trusted
            && !precedes(&now.below, &trusted.below)
        {
            return;
        }
        self.memo.retain(|sum, _| !trusted.covers(sum));
        self.trusted = Some(trusted);
    }

    fn trusted_answer(&self, sum: &[u16]) -> Option<bool> {
        self.trusted
            .as_ref()
            .filter(|t| t.covers(sum))
            .map(|t| t.monoid.is_p(t.monoid.element_of(sum)))
    }

    /// Whether the sum `sum` (live heaps, sorted) is a misère P-position:
    /// it has a move, and every move leaves an N-position. Options with a
    /// known outcome (remembered, or trusted) are read first: one P among
    /// them settles it without a search. The others are searched those the
    /// trusted quotient guesses are P first (one P ends the search), then
    /// the smallest, in the order induction runs (sooner searched, more
    /// often remembered): only the order is guessed, never an outcome.
    pub fn is_p(&mut self, sum: &[u16]) -> Result<bool, Stopped> {
        if let Some(p) = self.known(sum) {
            return Ok(p);
        }
        let moves = self.moves;
        // (not guessed P, option): sorted, the guessed P first.
        let mut unknown: Vec<(bool, Sum)> = Vec::new();
        let mut has_move = false;
        let mut option = Sum::with_capacity(sum.len() + 2);
        for (at, &h) in sum.iter().enumerate() {
            if at > 0 && sum[at - 1] == h {
                continue;
            }
            for by in &moves.options[h as usize] {
                has_move = true;
                replace_into(&mut option, sum, at, by);
                match self.known(&option) {
                    Some(true) => return self.remember(sum, false),
                    Some(false) => {}
                    None => unknown.push((!self.guessed_p(&option), option.clone())),
                }
            }
        }
        unknown.sort_unstable_by(|(x, a), (y, b)| {
            x.cmp(y).then_with(|| a.iter().rev().cmp(b.iter().rev()))
        });
        for (_, option) in unknown {
            if self.is_p(&option)? {
                return self.remember(sum, false);
            }
        }
        self.remember(sum, has_move)
    }

    /// Whether the trusted quotient, read past where it is proved, puts
    /// `sum` in its P-portion: a guess that orders the search.
    fn guessed_p(&self, sum: &[u16]) -> bool {
        self.trusted
            .as_ref()
            .is_some_and(|t| t.monoid.is_p(t.monoid.element_of(sum)))
    }

    /// The outcome of `sum` where it is trusted or remembered.
    fn known(&self, sum: &[u16]) -> Option<bool> {
        self.trusted_answer(sum)
            .or_else(|| self.memo.get(sum).copied())
    }

    fn remember(&mut self, sum: &[u16], p: bool) -> Result<bool, Stopped> {
        room_for_one_more(self.memo.len(), self.limit, self.stop)?;
        self.memo.insert(sum.to_vec(), p);
        self.searched += 1;
        Ok(p)
    }
}
