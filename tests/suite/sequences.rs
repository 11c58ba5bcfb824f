//! Nim-sequences against the literature and the seeds, on the CPU: the
//! blocked twins and the general engine must agree with each other and with
//! the known values.

use crate::common::{Rng, random_kernel_code};
use grundy::analysis::period::{PeriodRule, find_period};
use grundy::game::Code;
use grundy::internals::engine::cpu_blocked;
use grundy::internals::engine::heap::brute::general;
use grundy::internals::kernel::heap::HeapKernelCode;

fn blocked(code: &str, n: u32) -> Vec<u16> {
    let code = Code::parse(code).unwrap();
    cpu_blocked(
        &HeapKernelCode::new(&code).unwrap(),
        Vec::new(),
        n,
        &grundy::hooks::Silent,
    )
    .unwrap()
}

fn reference(code: &str, n: u64) -> Vec<u16> {
    general::sequence(&Code::parse(code).unwrap(), n, &grundy::hooks::Silent).unwrap()
}

fn period_of(code: &str, g: &[u16]) -> Option<(u64, u64, bool)> {
    let rule = PeriodRule::for_code(&Code::parse(code).unwrap());
    find_period(g, &rule).map(|p| (p.period, p.preperiod, p.certified))
}

#[test]
fn kayles_has_period_12_from_71() {
    let g = blocked("0.77", 400);
    // Winning Ways: Kayles begins 0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1 4 6 7 4 1 2 8.
    assert_eq!(
        &g[..28],
        &[
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8
        ]
    );
    assert_eq!(period_of("0.77", &g), Some((12, 71, true)));
    assert_eq!(g, reference("0.77", 400));
}

#[test]
fn dawsons_kayles_has_period_34_from_53() {
    let g = blocked("0.07", 400);
    assert_eq!(&g[..12], &[0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3]);
    assert_eq!(period_of("0.07", &g), Some((34, 53, true)));
    // Too short a table certifies nothing: 2e + 2p + t = 176 values are needed.
    assert_eq!(period_of("0.07", &g[..170]), None);
    assert_eq!(period_of("0.07", &g[..176]), Some((34, 53, true)));
}

#[test]
fn nim_is_the_identity() {
    let g = blocked("0.[3]", 3000);
    assert!(g.iter().enumerate().all(|(n, &v)| v as usize == n));
    assert_eq!(period_of("0.[3]", &g), None);
    assert_eq!(reference("0.[3]", 200), g[..=200]);
}

/// Schrage, A two-dimensional generalization of Grundy's game, Table 1: G(K)
/// of Grundy's game for K = 1..100 (digits in rows of ten).
const GRUNDY_TABLE_1: &str = "0010210210 2132132430 4304304123 1241241241 5415415410 \
                              2102152132 1324324324 3243243245 2452437437 4374352352";

#[test]
fn grundys_game_matches_schrages_table_1() {
    let expected: Vec<u16> = GRUNDY_TABLE_1
        .chars()
        .filter(|c| c.is_ascii_digit())
        .map(|c| c as u16 - '0' as u16)
        .collect();
    assert_eq!(expected.len(), 100);
    let g = blocked("4!.0", 100);
    assert_eq!(&g[1..=100], &expected[..]);
    // --min-diff 1 is the same game (Schrage, A two-dimensional generalization of Grundy's game, section 4 with d = 1).
    let d1 = general::sequence(
        &Code::parse("4.0").unwrap().with_min_diff(1),
        100,
        &grundy::hooks::Silent,
    )
    .unwrap();
    assert_eq!(d1, g);
    assert_eq!(reference("4!.0", 100), g);
    // The theorem does not cover `!`: no period is ever certified.
    assert!(period_of("4!.0", &blocked("4!.0", 3000)).is_none_or(|p| !p.2));
}

#[test]
fn subtraction_games_of_the_lecture_notes() {
    // S = {1, 2}: G(n) = n mod 3; S = {1, 3}: G(n) = n mod 2.
    let s12 = blocked(&Code::subtraction(&[1, 2]).unwrap().text, 500);
    let s13 = blocked(&Code::subtraction(&[1, 3]).unwrap().text, 500);
    assert!(s12.iter().enumerate().all(|(n, &v)| v as usize == n % 3));
    assert!(s13.iter().enumerate().all(|(n, &v)| v as usize == n % 2));
    // The sum Γ1 + Γ2 at (5, 6): 2 xor 0 = 2, an N-position; (3, 4) is a P-position.
    assert_eq!(s12[5] ^ s13[6], 2);
    assert_eq!(s12[3] ^ s13[4], 0);
    // {1,3,4} is 0.3033: G = 0 exactly when n mod 7 is 0 or 2.
    let s134 = blocked("0.3033", 700);
    assert_eq!(&s134[..14], &[0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    assert_eq!(period_of("0.3033", &s134), Some((7, 0, true)));
}

#[test]
fn every_two_digit_octal_code_agrees_with_the_reference() {
    for d1 in 0..8 {
        for d2 in 0..8 {
            let code = format!("0.{d1}{d2}");
            assert_eq!(blocked(&code, 600), reference(&code, 600), "{code}");
        }
    }
}

#[test]
fn random_codes_blocked_equals_general() {
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..150 {
        let code = random_kernel_code(&mut rng);
        let k = HeapKernelCode::new(&code).unwrap();
        let n = 200 + rng.below(400);
        let blocked = cpu_blocked(&k, Vec::new(), n as u32, &grundy::hooks::Silent).unwrap();
        let general = general::sequence(&code, n, &grundy::hooks::Silent).unwrap();
        assert_eq!(blocked, general, "{}", code.name());
    }
}

#[test]
fn extending_a_table_gives_the_same_values() {
    let code = Code::parse("0.16").unwrap();
    let k = HeapKernelCode::new(&code).unwrap();
    let whole = cpu_blocked(&k, Vec::new(), 9000, &grundy::hooks::Silent).unwrap();
    let part = cpu_blocked(&k, Vec::new(), 3001, &grundy::hooks::Silent).unwrap();
    assert_eq!(
        cpu_blocked(&k, part, 9000, &grundy::hooks::Silent).unwrap(),
        whole
    );
}

#[test]
fn splits_into_three_or_more_heaps() {
    // 0.F: take one token, leave 0-3 heaps. Brute force by enumerating triples.
    let g = reference("0.F", 60);
    for n in 1..=60usize {
        let m = n - 1;
        let mut opts = vec![];
        if m == 0 {
            opts.push(0);
        } else {
            opts.push(g[m]);
        }
        for a in 1..m {
            if a <= m - a {
                opts.push(g[a] ^ g[m - a]);
            }
            for b in a..m {
                let c = m as i64 - a as i64 - b as i64;
                if c >= b as i64 {
                    opts.push(g[a] ^ g[b] ^ g[c as usize]);
                }
            }
        }
        let mex = (0..).find(|v| !opts.contains(v)).unwrap();
        assert_eq!(g[n], mex, "0.F at {n}");
    }
    // {2+}: take one token and leave any number of heaps (0.{0,1,2+}),
    // against every partition of the rest.
    let any = reference("0.{0,1,2+}", 25);
    for n in 1..=25usize {
        let mut opts = vec![];
        partitions(n - 1, n - 1, &mut vec![], &mut |p| {
            opts.push(p.iter().fold(0, |x, &h| x ^ any[h]))
        });
        let mex = (0..).find(|v| !opts.contains(v)).unwrap();
        assert_eq!(any[n], mex, "0.{{0,1,2+}} at {n}");
    }
    // --min-diff reaches only two-heap splits: with a difference no heap can
    // reach, {2+} keeps exactly its splits into three or more heaps.
    let far = general::sequence(
        &Code::parse("0.{0,1,2+}").unwrap().with_min_diff(1000),
        60,
        &grundy::hooks::Silent,
    );
    assert_eq!(far.unwrap(), reference("0.{0,1,3+}", 60));
    // Three equal heaps only (`=`): 0.8= leaves 3 equal heaps after taking 1.
    let eq = reference("0.8=", 30);
    for n in 1..=30usize {
        let m = n - 1;
        let has = m >= 3 && m % 3 == 0;
        let expect = if has && eq[m / 3] == 0 { 1 } else { 0 };
        assert_eq!(eq[n], expect, "0.8= at {n}");
    }
}

/// Every partition of `m` into parts of at most `max` (the empty one for m = 0).
fn partitions(m: usize, max: usize, parts: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
    if m == 0 {
        f(parts);
        return;
    }
    for h in (1..=max.min(m)).rev() {
        parts.push(h);
        partitions(m - h, h, parts, f);
        parts.pop();
    }
}
