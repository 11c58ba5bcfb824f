use super::presentation::monomial_text;
use super::*;
use crate::analysis::whole_sum::{Parts, SumSearch};
use crate::game::Convention;
use crate::hooks::RunHooks;

struct Quiet;
impl RunHooks for Quiet {}

fn quotient(code: &str, h: u16, method: Method) -> Quotient {
    let code = Code::parse(code).unwrap();
    misere_quotient(&code, h, method, Limits::within(1 << 30), &Quiet).unwrap()
}

fn relations(q: &Quotient) -> Vec<String> {
    let p = &q.presentation;
    p.relations
        .iter()
        .map(|(u, v)| format!("{}={}", monomial_text(u), monomial_text(v)))
        .collect()
}

fn named(q: &Quotient, elements: impl Iterator<Item = u32>) -> Vec<String> {
    elements.map(|e| q.name(e)).collect()
}

/// Misère Nim's quotients are Plambeck's tame quotients: T2 = ⟨a, b |
/// a² = 1, b³ = b⟩ with P = {a, b²} for heaps up to 3, order 10 up to 7.
#[test]
fn misere_nims_quotients_are_the_tame_ones() {
    let q = quotient("0.[3]", 3, Method::Learn);
    assert_eq!(q.order(), 6);
    assert_eq!(relations(&q), ["a^2=1", "b^3=b"]);
    assert_eq!(named(&q, q.p_portion().into_iter()), ["a", "b^2"]);
    assert_eq!(
        named(&q, (0..=3).map(|h| q.element_of_heap(h))),
        ["1", "a", "b", "ab"]
    );
    assert_eq!(quotient("0.[3]", 7, Method::Learn).order(), 10);
    assert_eq!(quotient("0.[3]", 1, Method::Learn).order(), 2);
}

/// 0.75 is Plambeck's first wild game tamed by a quotient: R8 = ⟨a, b, c |
/// a² = 1, b³ = b, bc = ab, c² = b²⟩, P = {a, b²}.
#[test]
fn the_quotient_of_0_75_is_r8() {
    let q = quotient("0.75", 16, Method::Learn);
    assert_eq!(q.order(), 8);
    assert_eq!(relations(&q), ["a^2=1", "bc=ab", "c^2=b^2", "b^3=b"]);
    assert_eq!(named(&q, q.p_portion().into_iter()), ["a", "b^2"]);
    assert_eq!(q.growth(), [(1, 2), (2, 6), (5, 8)]);
    let by_box = quotient("0.75", 7, Method::Exact);
    assert!(quotient("0.75", 7, Method::Learn).same_as(&by_box));
}

impl Quotient {
    fn same_as(&self, other: &Quotient) -> bool {
        self.monoid.same_as(&other.monoid) && self.orders == other.orders
    }
}

/// A code's heaps as parts of a sum, for the brute force.
struct Heaps(Code);

impl Parts for Heaps {
    fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32])) {
        self.0.for_each_move(part.into(), u64::MAX, &mut |_, left| {
            let left: Vec<u32> = left.iter().filter(|&&h| h > 0).map(|&h| h as u32).collect();
            visit(&left);
        });
    }
}

fn random_codes(count: usize, digits: usize) -> Vec<String> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..count)
        .map(|_| {
            let mut text = String::from("0.");
            for _ in 0..digits {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push(char::from(b'0' + ((state >> 33) % 8) as u8));
            }
            text
        })
        .collect()
}

/// Every multiset of `k` heaps from 1..=h.
fn multisets(h: u16, k: usize) -> Vec<Vec<u16>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for smaller in multisets(h, k - 1) {
        let from = smaller.last().copied().unwrap_or(1);
        for top in from..=h {
            let mut m = smaller.clone();
            m.push(top);
            out.push(m);
        }
    }
    out
}

/// On random codes the learned quotient is the box's, and every sum of
/// up to four heaps has the outcome the quotient gives, by a search over
/// the whole sum that shares nothing with the quotient's code.
#[test]
fn random_codes_quotients_predict_every_small_sum() {
    for text in random_codes(12, 3) {
        let learned = quotient(&text, 9, Method::Learn);
        let exact = quotient(&text, 6, Method::Exact);
        let small = quotient(&text, 6, Method::Learn);
        assert!(
            small.same_as(&exact),
            "{text}: learned and exact differ at 6"
        );
        let stop = || false;
        let code = Code::parse(&text).unwrap();
        let mut search = SumSearch::new(Heaps(code), Convention::Misere, 1 << 24, &stop);
        for k in 0..=4 {
            for sum in multisets(9, k) {
                let parts: Vec<u32> = sum.iter().map(|&h| h as u32).collect();
                let p = search.value(&parts).unwrap() == 0;
                assert_eq!(learned.is_p(&sum), p, "{text}: {sum:?}");
            }
        }
    }
}

/// The verification fails where it must: a quotient with one element's
/// outcome flipped is refused, with a sum it truly gets wrong.
#[test]
fn verification_refuses_a_wrong_candidate_with_a_true_counterexample() {
    for (text, h) in [("0.75", 10), ("0.[3]", 5), ("0.137", 9)] {
        let q = quotient(text, h, Method::Learn);
        let code = Code::parse(text).unwrap();
        let moves = heaps::HeapMoves::of(&code, h);
        let stop = || false;
        let holds = verify::verify(&q.monoid, &moves, 1 << 20, &stop).unwrap();
        assert!(matches!(holds, verify::Verdict::Holds { .. }), "{text}");
        for e in 0..q.order() {
            let mut wrong = q.monoid.clone();
            wrong.p[e] = !wrong.p[e];
            match verify::verify(&wrong, &moves, 1 << 20, &stop).unwrap() {
                verify::Verdict::Holds { .. } => panic!("{text}: flipped {e} passed"),
                verify::Verdict::Fails { sum, p } => {
                    assert_eq!(q.is_p(&sum), p, "{text}: {sum:?}");
                    assert_ne!(wrong.is_p(wrong.element_of(&sum)), p, "{text}: {sum:?}");
                }
            }
        }
    }
}

/// The periodicity theorem (`period`) against larger quotients: where it
/// proves a period from heaps up to H, the quotient of twice as many heaps
/// has the same order and its pretending function the same period; and a
/// run until solved stops at a heap where the theorem holds.
#[test]
fn a_proved_period_holds_past_the_heaps_it_read() {
    for text in ["0.75", "0.3", "0.31", "0.51", "0.71", "0.13", "0.33"] {
        let code = Code::parse(text).unwrap();
        let q = quotient(text, 40, Method::Learn);
        let Some(found) = q.period else {
            panic!("{text}: no period from {:?}", q.orders);
        };
        let larger = quotient(text, 2 * found.checked_to + 8, Method::Learn);
        assert_eq!(larger.order(), q.order(), "{text}");
        let (s, p) = (found.start, found.period);
        for n in s..=larger.max_heap - p {
            let (a, b) = (larger.element_of_heap(n), larger.element_of_heap(n + p));
            assert_eq!(a, b, "{text}: heaps {n} and {}", n + p);
        }
        let mut limits = Limits::within(1 << 30);
        limits.until_solved = true;
        let early = misere_quotient(&code, 1000, Method::Learn, limits, &Quiet).unwrap();
        assert!(early.max_heap < 1000 && early.period.is_some(), "{text}");
        assert_eq!(early.order(), q.order(), "{text}");
    }
}

/// Codes the theorem does not cover get no period, however regular.
#[test]
fn the_theorem_names_the_codes_it_does_not_cover() {
    use super::period::not_covered;
    let reason = |text: &str| not_covered(&Code::parse(text).unwrap());
    assert!(reason("0.[3]").unwrap().contains("unboundedly"));
    assert!(reason("4.07").unwrap().contains("without taking"));
    assert!(reason("0.7!").unwrap().contains("restricted"));
    assert_eq!(reason("0.75"), None);
    assert_eq!(quotient("0.[3]", 20, Method::Learn).period, None);
}

/// A run stopped at heap k and resumed from what it kept there gives the
/// quotient a straight run gives; a kept quotient with one outcome changed
/// no longer holds, so a damaged file cannot seed a run.
#[test]
fn a_resumed_quotient_is_the_straight_ones_and_a_damaged_one_is_refused() {
    let limits = Limits::within(1 << 30);
    let never = || false;
    for (text, h, k) in [
        ("0.75", 14, 6),
        ("0.34", 16, 9),
        ("0.137", 12, 5),
        ("0.[3]", 9, 3),
    ] {
        let code = Code::parse(text).unwrap();
        let mut kept = None;
        let straight = resumed_quotient(&code, h, Progress::start(), limits, &Quiet, &mut |p| {
            if p.heap == k {
                kept = Some(p.clone());
            }
        })
        .unwrap();
        let kept = kept.expect("heap k kept");
        assert!(kept.holds(&code, limits, &never).unwrap(), "{text}");
        let mut again = Vec::new();
        let resumed = resumed_quotient(&code, h, kept.clone(), limits, &Quiet, &mut |p| {
            again.push(p.heap)
        })
        .unwrap();
        assert!(resumed.same_as(&straight), "{text}");
        assert!(resumed.same_as(&quotient(text, h, Method::Learn)), "{text}");
        assert_eq!(again, (k + 1..=h).collect::<Vec<_>>(), "{text}");
        let mut damaged = kept;
        let flipped = damaged.monoid.p.len() - 1;
        damaged.monoid.p[flipped] = !damaged.monoid.p[flipped];
        assert!(!damaged.holds(&code, limits, &never).unwrap(), "{text}");
    }
}

/// Where Q_{h−1} beside heap h fails, one deepening gives its first
/// failure x* the outcome a search over the whole sum gives, and the
/// deepened candidate's own first failure, if any, comes after x*.
#[test]
fn deepening_gets_the_first_failure_right_and_moves_it_on() {
    let cases = [
        ("0.26", 11),
        ("0.26", 13),
        ("0.14", 14),
        ("0.54", 14),
        ("0.77", 9),
        ("0.07", 10),
    ];
    for (text, h) in cases {
        let code = Code::parse(text).unwrap();
        let base = quotient(text, h - 1, Method::Learn).monoid;
        let moves = heaps::HeapMoves::of(&code, h);
        let stop = || false;
        let candidate = recalibrate::beside(&base, &moves, h, (1, 2), 1 << 20).unwrap();
        let verify::Verdict::Fails { sum: first, .. } =
            verify::verify(&candidate, &moves, 1 << 20, &stop).unwrap()
        else {
            panic!("{text} at {h}: the extension holds, nothing to deepen");
        };
        let deeper = deepen::deepened(&candidate, &moves, 1 << 20).unwrap();
        assert_eq!(deeper.noncommuting(), None, "{text} at {h}");
        let mut search = SumSearch::new(Heaps(code), Convention::Misere, 1 << 24, &stop);
        let parts: Vec<u32> = first.iter().map(|&x| x as u32).collect();
        let p = search.value(&parts).unwrap() == 0;
        assert_eq!(
            deeper.is_p(deeper.element_of(&first)),
            p,
            "{text}: {first:?}"
        );
        assert_ne!(
            candidate.is_p(candidate.element_of(&first)),
            p,
            "{text}: {first:?}"
        );
        if let verify::Verdict::Fails { sum, .. } =
            verify::verify(&deeper, &moves, 1 << 20, &stop).unwrap()
        {
            assert!(
                heaps::precedes(&first, &sum),
                "{text}: {sum:?} not after {first:?}"
            );
        }
    }
}

/// Recalibration and deepening change how a quotient is found, not what
/// it is: by recalibration first (the default), by deepening first, and
/// by the learner alone the quotients are the same. Recalibration
/// searches no sum; on 0.26, where deepening converges at every heap,
/// deepening searches fewer than the learner.
#[test]
fn recalibration_deepening_and_the_learner_give_one_quotient() {
    let named = ["0.26", "0.14", "0.77", "0.54"].map(|c| (c.to_string(), 14));
    let random = random_codes(6, 3).into_iter().map(|c| (c, 9));
    for (text, h) in named.into_iter().chain(random) {
        let code = Code::parse(&text).unwrap();
        let recalibrating = Limits::within(1 << 30);
        let deepening = Limits {
            recalibrations: 0,
            ..recalibrating
        };
        let learning = Limits {
            deepenings: 0,
            ..deepening
        };
        let build = |limits| misere_quotient(&code, h, Method::Learn, limits, &Quiet).unwrap();
        let recalibrated = build(recalibrating);
        let deepened = build(deepening);
        let learned = build(learning);
        assert!(recalibrated.same_as(&learned), "{text}");
        assert!(deepened.same_as(&learned), "{text}");
        assert_eq!(recalibrated.positions, 0, "{text}");
        if text == "0.26" {
            assert!(deepened.positions < learned.positions / 4, "{text}");
        }
    }
}

/// Marking by the local rule (`recalibrate`) gives a proved quotient its
/// own P-portion: where every sum's outcome is its element's, the first
/// sum reaching an element has that outcome by its options.
#[test]
fn marking_a_proved_quotient_gives_its_p_portion() {
    for (text, h) in [("0.75", 16), ("0.07", 24), ("0.77", 14), ("0.[3]", 7)] {
        let q = quotient(text, h, Method::Learn);
        let moves = heaps::HeapMoves::of(&Code::parse(text).unwrap(), h);
        assert_eq!(
            recalibrate::mark(&q.monoid, &moves),
            Some(q.monoid.p.clone()),
            "{text}"
        );
    }
}

/// Where Q_{h−1} beside heap h fails, one recalibration gives the first
/// failure the outcome a search over the whole sum gives.
#[test]
fn recalibration_gets_the_first_failure_right() {
    for (text, h) in [("0.26", 11), ("0.14", 14), ("0.77", 9), ("0.07", 25)] {
        let code = Code::parse(text).unwrap();
        let base = quotient(text, h - 1, Method::Learn).monoid;
        let moves = heaps::HeapMoves::of(&code, h);
        let stop = || false;
        let candidate = recalibrate::beside(&base, &moves, h, (1, 2), 1 << 20).unwrap();
        let verify::Verdict::Fails { sum, p } =
            verify::verify(&candidate, &moves, 1 << 20, &stop).unwrap()
        else {
            panic!("{text} at {h}: the extension holds, nothing to recalibrate");
        };
        let mut search = SumSearch::new(Heaps(code), Convention::Misere, 1 << 24, &stop);
        let parts: Vec<u32> = sum.iter().map(|&x| x as u32).collect();
        assert_eq!(search.value(&parts).unwrap() == 0, p, "{text}: {sum:?}");
        let fixed = recalibrate::recalibrated(&candidate, &moves, &sum, p, 1 << 20).unwrap();
        assert_eq!(fixed.is_p(fixed.element_of(&sum)), p, "{text}: {sum:?}");
        assert_eq!(fixed.noncommuting(), None, "{text}");
    }
}

/// Dawson's Kayles to heap 30: the order Siegel's MisereSolver gives
/// (360), reached with no sum searched; every sum of two heaps up to 30,
/// and of three where one is 25 or more and the others small, has the
/// outcome a search over the whole sum gives.
#[test]
fn dawsons_kayles_to_heap_30_is_of_order_360() {
    let q = quotient("0.07", 30, Method::Learn);
    assert_eq!(q.order(), 360);
    assert_eq!(
        q.growth(),
        [
            (2, 2),
            (4, 6),
            (10, 12),
            (14, 24),
            (25, 144),
            (27, 176),
            (30, 360)
        ]
    );
    assert_eq!(q.positions, 0);
    let stop = || false;
    let code = Code::parse("0.07").unwrap();
    let mut search = SumSearch::new(Heaps(code), Convention::Misere, 1 << 26, &stop);
    let mut sums = multisets(30, 2);
    for big in 25..=30 {
        sums.extend(multisets(8, 2).into_iter().map(|mut s| {
            s.push(big);
            s
        }));
    }
    for sum in sums {
        let parts: Vec<u32> = sum.iter().map(|&h| h as u32).collect();
        let p = search.value(&parts).unwrap() == 0;
        assert_eq!(q.is_p(&sum), p, "{sum:?}");
    }
}

/// Each element's light word reaches it, and the separating tests built
/// from them give every element of a quotient its own row of outcomes; a
/// finished quotient is numbered in the order its presentation names its
/// elements, and renumbered it is the same quotient.
#[test]
fn light_words_reach_their_elements_and_the_tests_separate_them() {
    for (text, h) in [("0.07", 20), ("0.26", 14), ("0.77", 12), ("0.[3]", 7)] {
        let q = quotient(text, h, Method::Learn);
        let m = &q.monoid;
        let words = m.light_words();
        for (e, word) in words.iter().enumerate() {
            assert_eq!(m.element_of(word), e as u32, "{text}: {word:?}");
        }
        let tests = learn::separating_tests(m);
        let rows: std::collections::HashSet<Vec<bool>> = (0..m.len() as u32)
            .map(|e| tests.iter().map(|t| m.is_p(m.times_sum(e, t))).collect())
            .collect();
        assert_eq!(rows.len(), m.len(), "{text}");
        let order = q.presentation.naming_order();
        let identity: Vec<u32> = (0..m.len() as u32).collect();
        assert_eq!(order, identity, "{text}: not numbered as named");
        let mut reversed = identity.clone();
        reversed[1..].reverse();
        assert!(m.renumbered(&reversed).same_as(m), "{text}");
    }
}
