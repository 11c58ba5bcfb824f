//! Misère quotients of heap games (Plambeck, "Taming the wild in
//! impartial combinatorial games"; Plambeck and Siegel, "Misère quotients
//! for impartial games").
//!
//! Take every sum of a code's heaps of at most H counters. Two sums x and
//! y are indistinguishable when x + z and y + z have the same misère
//! outcome for every such sum z. The classes form a commutative monoid
//! Q_H, the quotient; its P-portion is the classes of P-positions, and the
//! pretending function sends each heap to its class. A sum's class is the
//! product of its heaps', and its outcome is whether that product lies in
//! the P-portion: every sum of heaps up to H is solved at once.
//!
//! Two constructions give it, each checked, not assumed:
//! - `exact`: every sum in a box of heap counts valued by search, then
//!   the classes; for a few small heaps.
//! - by learning, heap size by heap size: candidates refined until
//!   `verify` proves one right on every sum; for the sizes the papers
//!   reach. A candidate is Q_{h−1} beside the new heap, then recalibrated
//!   (`recalibrate`: no sum searched), then deepened (`deepen`), and last
//!   refined by `learn`, whose rows search sums.

pub mod deepen;
pub mod exact;
pub mod heaps;
pub mod learn;
pub mod monoid;
pub mod period;
pub mod presentation;
pub mod recalibrate;
pub mod verify;

use crate::analysis::whole_sum::Stopped;
use crate::game::Code;
use crate::hooks::RunHooks;
use heaps::{HeapMoves, Outcomes};
use monoid::Monoid;
use presentation::Presentation;

/// The largest heap a quotient is asked for.
pub const MAX_HEAP: u16 = 4096;

/// Which construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Candidates, verification and refinement (`learn`).
    Learn,
    /// The box of heap counts, by the definition (`exact`).
    Exact,
}

/// What a construction may hold.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Sums remembered by the search.
    pub positions: usize,
    /// Readings one verification layer holds (`verify`).
    pub readings: usize,
    /// Elements of the exact construction's box.
    pub box_elements: u64,
    /// Stop at the first heap from which the periodicity theorem proves
    /// the quotient the whole game's (`period`), checked as heaps double.
    pub until_solved: bool,
    /// Rounds of recalibration (`recalibrate`) tried on a failed
    /// candidate before deepening; 0 leaves every failure to deepening
    /// and the learner.
    pub recalibrations: usize,
    /// Rounds of deepening (`deepen`) tried on a failed candidate before
    /// the learner takes over; 0 leaves every failure to the learner.
    pub deepenings: usize,
}

impl Limits {
    /// Limits that fit `bytes` of memory, about.
    pub fn within(bytes: u64) -> Limits {
        Limits {
            positions: (bytes / 2 / 96).max(1) as usize,
            readings: (bytes / 4 / 256).max(1) as usize,
            box_elements: (bytes / 16 / 64).max(1),
            until_solved: false,
            recalibrations: 256,
            deepenings: 4,
        }
    }
}

/// The misère quotient of a code's heaps up to a size.
#[derive(Clone, Debug)]
pub struct Quotient {
    pub max_heap: u16,
    /// The monoid: what each heap does to each element; element 0 is 1.
    pub monoid: Monoid,
    /// |Q_h| for h = 0 … max_heap.
    pub orders: Vec<usize>,
    pub presentation: Presentation,
    /// Sums valued by search.
    pub positions: usize,
    /// Candidates tried (`learn`; 0 for `exact`).
    pub candidates: usize,
    /// The pretending function's period where the periodicity theorem
    /// proves one from these heaps: then Q_H is the whole game's quotient.
    pub period: Option<period::QuotientPeriod>,
}

/// Where a construction stopped, and what it had by then.
#[derive(Clone, Debug)]
pub struct QuotientStopped {
    /// The heap size whose quotient was unfinished.
    pub at_heap: u16,
    /// |Q_h| for the heaps finished.
    pub orders: Vec<usize>,
    /// Whether a limit stopped it (else the caller).
    pub full: bool,
    /// What passed its limit, in words.
    pub why: String,
}

impl Quotient {
    /// Its order |Q_H|.
    pub fn order(&self) -> usize {
        self.monoid.len()
    }

    /// The element of heap `h` (the pretending function).
    pub fn element_of_heap(&self, h: u16) -> u32 {
        self.monoid.element_of(&[h])
    }

    /// The element of a sum of heaps, each at most `max_heap`.
    pub fn element_of(&self, heaps: &[u16]) -> u32 {
        self.monoid.element_of(heaps)
    }

    /// Whether the sum `heaps` is a misère P-position.
    pub fn is_p(&self, heaps: &[u16]) -> bool {
        self.monoid.is_p(self.element_of(heaps))
    }

    /// The P-portion's elements.
    pub fn p_portion(&self) -> Vec<u32> {
        (0..self.order() as u32)
            .filter(|&e| self.monoid.is_p(e))
            .collect()
    }

    /// An element's name (`a^2b`).
    pub fn name(&self, e: u32) -> String {
        presentation::monomial_text(&self.presentation.names[e as usize])
    }

    /// The heaps at which the quotient grew, with its order from there.
    pub fn growth(&self) -> Vec<(u16, usize)> {
        grew(&self.orders)
    }
}

/// The heaps at which `orders` grew, with the order from there.
pub fn grew(orders: &[usize]) -> Vec<(u16, usize)> {
    (1..orders.len())
        .filter(|&h| orders[h] != orders[h - 1])
        .map(|h| (h as u16, orders[h]))
        .collect()
}

/// The misère quotient of `code`'s heaps up to `max_heap`, by `method`,
/// within `limits`; `hooks` hear of each heap size done and may stop it.
pub fn misere_quotient(
    code: &Code,
    max_heap: u16,
    method: Method,
    limits: Limits,
    hooks: &dyn RunHooks,
) -> Result<Quotient, QuotientStopped> {
    match method {
        Method::Learn => resumed_quotient(
            code,
            max_heap,
            Progress::start(),
            limits,
            hooks,
            &mut |_| {},
        ),
        Method::Exact => built_by(code, max_heap, limits, hooks, |moves, outcomes, until| {
            by_boxes(moves, outcomes, limits, until, hooks)
        }),
    }
}

/// What both constructions share: the moves of the heaps up to
/// `max_heap`, the outcomes searched, the check of the theorem where the
/// run stops once solved, and the hooks told where it starts and ends;
/// `build` builds the monoid between.
fn built_by(
    code: &Code,
    max_heap: u16,
    limits: Limits,
    hooks: &dyn RunHooks,
    build: impl for<'a> FnOnce(
        &'a HeapMoves,
        Outcomes<'a>,
        Solved<'a>,
    ) -> Result<Built, QuotientStopped>,
) -> Result<Quotient, QuotientStopped> {
    let moves = HeapMoves::of(code, max_heap);
    let stop = || hooks.stop();
    let outcomes = Outcomes::new(&moves, limits.positions, &stop);
    // Where the run may stop early: a check of the theorem at a heap.
    let solved = |m: &Monoid, h: u16| period::period_of(code, &pretending(m, h)).is_some();
    let until: Solved = limits.until_solved.then_some(&solved);
    hooks.begin(max_heap as u64, "heaps");
    let built = build(&moves, outcomes, until);
    hooks.end();
    Ok(finished(code, built?))
}

/// The quotient from what a construction built, with its period where the
/// periodicity theorem proves one.
fn finished(code: &Code, (monoid, orders, positions, candidates): Built) -> Quotient {
    // Elements numbered as the presentation names them, whatever built
    // them, so a quotient is listed alike however it was found. Names
    // and relations are monomials, so only the names' places move.
    let mut presentation = Presentation::of(&monoid);
    let order = presentation.naming_order();
    let monoid = monoid.renumbered(&order);
    presentation.names = order
        .iter()
        .map(|&e| presentation.names[e as usize].clone())
        .collect();
    let mut q = Quotient {
        max_heap: (orders.len() - 1) as u16,
        presentation,
        monoid,
        orders,
        positions,
        candidates,
        period: None,
    };
    q.period = period::period_of(code, &pretending(&q.monoid, q.max_heap));
    q
}

/// How far a construction by learning has come: the quotient of every
/// heap up to `heap`, |Q_h| for h = 0 … heap, and the candidates tried.
#[derive(Clone, Debug)]
pub struct Progress {
    pub heap: u16,
    pub monoid: Monoid,
    pub orders: Vec<usize>,
    pub candidates: usize,
}

impl Progress {
    /// Nothing yet: the trivial quotient of heap 0.
    pub fn start() -> Progress {
        Progress {
            heap: 0,
            monoid: identity(),
            orders: vec![1],
            candidates: 0,
        }
    }

    /// Whether its quotient gives every sum of `code`'s heaps up to its
    /// heap its true outcome (`verify`): what a progress read back from a
    /// file must show before a run goes on from it.
    pub fn holds(
        &self,
        code: &Code,
        limits: Limits,
        stop: &dyn Fn() -> bool,
    ) -> Result<bool, Stopped> {
        let moves = HeapMoves::of(code, self.heap);
        let mut monoid = self.monoid.clone();
        monoid.letter_of = monoid::letters_of(&monoid.heaps, moves.options.len());
        let verdict = verify::verify(&monoid, &moves, limits.readings, stop)?;
        Ok(matches!(verdict, verify::Verdict::Holds { .. }))
    }
}

/// `misere_quotient` by learning, going on from `from` (`Progress::start`:
/// from heap 1) to `max_heap` and telling `keep` of each heap done, so a
/// run stopped by its budget can go on later where it stopped.
pub fn resumed_quotient(
    code: &Code,
    max_heap: u16,
    from: Progress,
    limits: Limits,
    hooks: &dyn RunHooks,
    keep: &mut dyn FnMut(&Progress),
) -> Result<Quotient, QuotientStopped> {
    let heaps = max_heap.max(from.heap);
    built_by(code, heaps, limits, hooks, |moves, outcomes, until| {
        let learning = Learning { until, hooks };
        by_learning(moves, outcomes, limits, from, learning, keep)
    })
}

/// What a construction by learning is told: where it may stop early, and
/// whom to tell of each heap.
#[derive(Clone, Copy)]
struct Learning<'a> {
    until: Solved<'a>,
    hooks: &'a dyn RunHooks,
}

/// The element of each heap 0..=h.
fn pretending(monoid: &Monoid, h: u16) -> Vec<u32> {
    (0..=h).map(|n| monoid.element_of(&[n])).collect()
}

/// A check at heap `h` of whether the quotient is solved (`until_solved`).
type Solved<'a> = Option<&'a dyn Fn(&Monoid, u16) -> bool>;

/// Whether `until` finds the quotient solved at heap `h`: looked for at
/// every heap to 128, then as heaps grow by half (each look reads every
/// period and start: about h² steps).
fn solved_at(until: Solved, monoid: &Monoid, h: u16) -> bool {
    let looks =
        h < 128 || h.is_power_of_two() || (h.is_multiple_of(3) && (h / 3).is_power_of_two());
    looks && until.is_some_and(|solved| solved(monoid, h))
}

type Built = (Monoid, Vec<usize>, usize, usize);

fn stopped(at_heap: u16, orders: &[usize], s: Stopped, what: &str) -> QuotientStopped {
    QuotientStopped {
        at_heap,
        orders: orders.to_vec(),
        full: s.full,
        why: format!("{} {what}", s.positions),
    }
}

fn identity() -> Monoid {
    Monoid {
        heaps: Vec::new(),
        letter_of: Vec::new(),
        times: Vec::new(),
        p: vec![false],
    }
}

fn by_learning<'a>(
    moves: &'a HeapMoves,
    mut outcomes: Outcomes<'a>,
    limits: Limits,
    mut at: Progress,
    Learning { until, hooks }: Learning,
    keep: &mut dyn FnMut(&Progress),
) -> Result<Built, QuotientStopped> {
    let stop = || hooks.stop();
    at.monoid.letter_of = monoid::letters_of(&at.monoid.heaps, moves.options.len());
    if at.heap > 0 {
        outcomes.trust(heaps::Trusted {
            monoid: at.monoid.clone(),
            below: vec![at.heap + 1],
        });
        hooks.progress(at.heap as u64);
    }
    for h in at.heap + 1..=moves.max_heap() {
        if moves.live(h) {
            let next = next_quotient(
                &at.monoid,
                h,
                moves,
                &mut outcomes,
                limits,
                &stop,
                &mut at.candidates,
            );
            at.monoid = next.map_err(|(s, what)| stopped(h, &at.orders, s, what))?;
            // Every sum of these heaps precedes a heap one larger.
            outcomes.trust(heaps::Trusted {
                monoid: at.monoid.clone(),
                below: vec![h + 1],
            });
        }
        at.orders.push(at.monoid.len());
        at.heap = h;
        hooks.progress(h as u64);
        keep(&at);
        if solved_at(until, &at.monoid, h) {
            break;
        }
    }
    let Progress {
        mut monoid,
        orders,
        candidates,
        ..
    } = at;
    monoid.letter_of.resize(orders.len(), None);
    Ok((monoid, orders, outcomes.searched(), candidates))
}

/// Q_h from Q_{h−1}: the extension where `verify` proves it, else the
/// failed extension recalibrated, deepened, and last the learner over
/// every heap up to h.
fn next_quotient<'a>(
    base: &Monoid,
    h: u16,
    moves: &'a HeapMoves,
    outcomes: &mut Outcomes<'a>,
    limits: Limits,
    stop: &dyn Fn() -> bool,
    candidates: &mut usize,
) -> Result<Monoid, (Stopped, &'static str)> {
    let searched = |s| (s, "sums searched");
    let readings = |s| (s, "readings in one verification layer");
    let mut refining = Refining {
        moves,
        outcomes: &mut *outcomes,
        limits,
        stop,
        candidates: &mut *candidates,
    };
    let mut failed = None;
    for tail in 1..=3 {
        let Some(candidate) = recalibrate::beside(base, moves, h, (tail, 2), limits.readings)
        else {
            break;
        };
        let Some((sum, p)) = refining.checked(&candidate).map_err(readings)? else {
            return Ok(candidate);
        };
        // Right on every sum before its first failure (`verify`).
        let edge = sum.iter().filter(|&&x| x == h).count() == tail + 2;
        failed = Some((candidate, sum, p));
        // A longer tail helps only a sum at the edge of the cycle.
        if !edge {
            break;
        }
    }
    if let Some(found) = refining.recalibrated(failed.clone()) {
        return found.map_err(readings);
    }
    if let Some(found) = refining.deepened(failed.map(|(candidate, ..)| candidate)) {
        return found.map_err(readings);
    }
    let mut learner = learn::Learner::new(outcomes, moves, base, h, limits.readings);
    let learned = learner.learn(stop);
    *candidates += learner.candidates;
    learned.map_err(|s| match s.full && s.positions < limits.positions {
        true => (s, "readings in one verification layer"),
        false => searched(s),
    })
}

/// What the checks of Q_h's candidates and the refinements of a failed
/// one share: the heaps' moves, the outcomes the learner reads after
/// them, the limits, and the count of candidates tried.
struct Refining<'r, 'a> {
    moves: &'a HeapMoves,
    outcomes: &'r mut Outcomes<'a>,
    limits: Limits,
    stop: &'r dyn Fn() -> bool,
    candidates: &'r mut usize,
}

/// What checking a candidate found: `Ok(None)`, it holds; `Ok(Some((x,
/// p)))`, its first failure x and x's true outcome; `Err(s)`, stopped by
/// the caller or (`s.full`) past the readings' limit.
type Checked = Result<Option<(heaps::Sum, bool)>, Stopped>;

impl Refining<'_, '_> {
    /// `candidate` counted and checked (`verify`); where it fails, it is
    /// trusted below its first failure from now on.
    fn checked(&mut self, candidate: &Monoid) -> Checked {
        *self.candidates += 1;
        match verify::verify(candidate, self.moves, self.limits.readings, self.stop)? {
            verify::Verdict::Holds { .. } => Ok(None),
            verify::Verdict::Fails { sum, p } => {
                self.outcomes.trust(heaps::Trusted {
                    monoid: candidate.clone(),
                    below: sum.clone(),
                });
                Ok(Some((sum, p)))
            }
        }
    }

    /// The failed candidate recalibrated (`recalibrate`) until `verify`
    /// proves one right, for at most `limits.recalibrations` rounds;
    /// `None` where that does not end it, for deepening and the learner
    /// to take over.
    fn recalibrated(
        &mut self,
        failed: Option<(Monoid, heaps::Sum, bool)>,
    ) -> Option<Result<Monoid, Stopped>> {
        let (mut candidate, mut sum, mut p) = failed?;
        for _ in 0..self.limits.recalibrations {
            let readings = self.limits.readings;
            candidate = recalibrate::recalibrated(&candidate, self.moves, &sum, p, readings)?;
            match self.checked(&candidate) {
                Ok(None) => return Some(Ok(candidate)),
                Ok(Some(failure)) => (sum, p) = failure,
                Err(s) if !s.full => return Some(Err(s)),
                Err(_) => return None,
            }
        }
        None
    }

    /// The failed candidate deepened (`deepen`) until `verify` proves one
    /// right, for at most `limits.deepenings` rounds; `None` where that
    /// does not end it (or the candidates outgrow `DEEPENED_GROWTH` times
    /// the first), for the learner to take over. Each failure moves the
    /// bound below which the candidate is trusted strictly on.
    fn deepened(&mut self, failed: Option<Monoid>) -> Option<Result<Monoid, Stopped>> {
        let mut candidate = failed?;
        let largest = candidate.len() * DEEPENED_GROWTH;
        for _ in 0..self.limits.deepenings {
            candidate = deepen::deepened(&candidate, self.moves, self.limits.readings)?;
            if candidate.len() > largest {
                return None;
            }
            match self.checked(&candidate) {
                Ok(None) => return Some(Ok(candidate)),
                Ok(Some(_)) => {}
                Err(s) if !s.full => return Some(Err(s)),
                Err(_) => return None,
            }
        }
        None
    }
}

/// How many times the first failed candidate's order a deepened one may
/// reach: where deepening converges it stays near it.
const DEEPENED_GROWTH: usize = 64;

fn by_boxes(
    moves: &HeapMoves,
    mut outcomes: Outcomes,
    limits: Limits,
    until: Solved,
    hooks: &dyn RunHooks,
) -> Result<Built, QuotientStopped> {
    let mut monoid = identity();
    let mut orders = vec![1];
    for h in 1..=moves.max_heap() {
        if moves.live(h) {
            let upto = HeapMoves {
                options: moves.options[..=h as usize].to_vec(),
            };
            monoid = match exact::box_quotient(&upto, &mut outcomes, limits.box_elements) {
                Ok(m) => m,
                Err(exact::BoxError::Stopped(s)) => {
                    return Err(stopped(h, &orders, s, "sums searched"));
                }
                Err(exact::BoxError::TooLarge { elements }) => {
                    let s = Stopped {
                        positions: elements as usize,
                        full: true,
                    };
                    return Err(stopped(h, &orders, s, "elements in the box"));
                }
            };
        }
        orders.push(monoid.len());
        hooks.progress(h as u64);
        if solved_at(until, &monoid, h) {
            break;
        }
    }
    monoid.letter_of.resize(orders.len(), None);
    Ok((monoid, orders, outcomes.positions(), 0))
}

#[cfg(test)]
mod tests;
