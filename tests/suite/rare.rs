//! The rare-value algorithm against the brute force, and the literature's
//! solved games certified with it.

use crate::common::{Rng, random_kernel_code};
use grundy::analysis::period::{PeriodRule, find_period};
use grundy::analysis::rare_split::rare_positions;
use grundy::game::Code;
use grundy::hooks::Silent;
use grundy::internals::engine::heap::rare::{
    self as rare, BruteForceOn, Outcome, PassAhead, Persist, RareCode, RareCounts, RareRun,
    Stretches, Target, Tuning,
};
use grundy::internals::engine::heap::sequence::{Algorithm, SequenceRun};
use grundy::internals::engine::heap::storage::escaped::Escaped;
use grundy::internals::engine::heap::storage::table::HeapTable;
use grundy::internals::engine::{HeapEngine, cpu_blocked};
use grundy::internals::gpu::heap::GpuTuning;
use grundy::internals::kernel::heap::HeapKernelCode;

fn brute(code: &Code, n: u32) -> Vec<u16> {
    cpu_blocked(
        &HeapKernelCode::new(code).unwrap(),
        Vec::new(),
        n,
        &grundy::hooks::Silent,
    )
    .unwrap()
}

/// G(0..=n) by `algorithm`, with the engine that made the last values.
fn run(code: &Code, algorithm: Algorithm, n: u64) -> (HeapTable, HeapEngine) {
    run_from(code, algorithm, n, HeapTable::default())
}

/// `run` from `table` (empty: of the kind the run starts with).
fn run_from(
    code: &Code,
    algorithm: Algorithm,
    n: u64,
    table: HeapTable,
) -> (HeapTable, HeapEngine) {
    let mut run = SequenceRun::new(code, algorithm, table)
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    let done = run
        .extend(
            n,
            &grundy::internals::engine::LazyBackend::cpu(),
            &GpuTuning::default(),
            &grundy::hooks::Silent,
        )
        .unwrap();
    assert!(done);
    (run.table, run.engine)
}

fn rare(code: &Code, n: u64) -> Vec<u16> {
    let (table, engine) = run(code, Algorithm::Rare, n);
    assert_eq!(engine, HeapEngine::Rare, "{}", code.name());
    table.into_wide()
}

#[test]
fn every_three_digit_code_matches_the_brute_force() {
    let mut checked = 0;
    for digits in 0..512u32 {
        let text = format!("0.{}{}{}", digits >> 6, (digits >> 3) & 7, digits & 7);
        let code = Code::parse(&text).unwrap();
        if RareCode::new(&code).is_err() {
            // No digit splits a heap: nothing rare to use.
            assert!(
                [digits >> 6, (digits >> 3) & 7, digits & 7]
                    .iter()
                    .all(|d| d & 4 == 0),
                "{text}"
            );
            continue;
        }
        assert_eq!(rare(&code, 3000), brute(&code, 3000), "{text}");
        checked += 1;
    }
    assert_eq!(checked, 512 - 64);
}

#[test]
fn grundys_game_and_modified_splits_match_the_brute_force() {
    for text in ["4!.0", "4?.0", "4!.04", "0.4!4", "0.6!", "4.0", "0.16=4"] {
        let code = Code::parse(text).unwrap();
        assert_eq!(rare(&code, 20_000), brute(&code, 20_000), "{text}");
    }
    for d in 1..=4 {
        let code = Code::parse("4.0").unwrap().with_min_diff(d);
        assert_eq!(rare(&code, 5000), brute(&code, 5000), "{}", code.name());
    }
}

/// Officers (`0.6`) has 1584 rare heaps up to 4 million, heap 0 counted as
/// the published tables count it (Flammenkamp's), the last at 20627:
/// to 40,000 its blocks end every way the parallel pass allows (the
/// candidate stands, a mark from inside the block moves it, a rare value
/// found only by a pair with a part inside the block, a rare G(n)).
/// `.1777` (15 rare heaps, takes into the block on every heap) sends its
/// blocks in order, where the values of each heap's middle pairs, collected
/// a block ahead, settle most heaps without a scan.
#[test]
fn officers_and_1777_match_the_brute_force_past_their_last_rare_heap() {
    for text in ["0.6", "0.1777"] {
        let code = Code::parse(text).unwrap();
        assert_eq!(rare(&code, 40_000), brute(&code, 40_000), "{text}");
    }
    let officers = Code::parse("0.6").unwrap();
    let (table, _) = run(&officers, Algorithm::Rare, 40_000);
    let (split, summary) = table.rare_summary(None);
    assert_eq!((summary.rare_count, summary.last_rare), (1584, Some(20627)));
    let listed = table.rare_positions(split);
    assert_eq!((listed.len(), listed[0], listed[1]), (1584, 0, 1));
    let code = Code::parse("0.1777").unwrap();
    let mut run = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default())
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    // Its wasted passes send its blocks in order whatever this machine's
    // load makes of their times.
    run.tuning.in_order_timed = false;
    run.extend_on_cpu(40_000).unwrap();
    let counts = run.rare_counts().unwrap();
    assert!(counts.in_order > 30_000, "{counts:?}");
    assert!(
        counts.settled_by_middle * 10 > counts.in_order * 8,
        "{counts:?}"
    );
}

/// On the fake clock the schedule is the same on a busy machine as on an
/// idle one: the heaps in order and with a pass, settled by the middle
/// pairs, scanned again, and the pairs checked, counted alike with two
/// threads spinning beside the run. Officers' blocks go mostly with a
/// pass, `.1777`'s mostly in order.
#[test]
fn the_schedule_on_a_fake_clock_does_not_depend_on_the_machines_load() {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let schedule = |code: &Code| {
        let tuning = Tuning {
            stretches: Stretches::Never,
            ..Tuning::default()
        };
        let mut run = SequenceRun::new(code, Algorithm::Rare, HeapTable::default())
            .unwrap()
            .tuned(tuning.on_fake_clock());
        run.extend_on_cpu(1 << 17).unwrap();
        let c = run.rare_counts().unwrap();
        let counted = [c.in_order, c.settled_by_middle, c.pass_heaps, c.rescans];
        (counted, [c.pass_checked, c.check_failed])
    };
    for text in ["0.6", "0.1777"] {
        let code = Code::parse(text).unwrap();
        let idle = schedule(&code);
        let stop = AtomicBool::new(false);
        let busy = std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    while !stop.load(Relaxed) {
                        std::hint::spin_loop();
                    }
                });
            }
            let busy = schedule(&code);
            stop.store(true, Relaxed);
            busy
        });
        assert_eq!(idle, busy, "{text}");
        let [in_order, _, pass_heaps, _] = idle.0;
        match text {
            "0.6" => assert!(pass_heaps > in_order, "{text}: {idle:?}"),
            _ => assert!(in_order > pass_heaps, "{text}: {idle:?}"),
        }
    }
}

/// `.161`'s passes send most heaps back to a scan in blocks of a few
/// thousand heaps (its take of two and its rare pairs reach into the
/// block), about one in three in blocks of a thousand: its blocks are
/// halved instead of going in order, where each heap would scan every pair
/// on one thread. Blocks in order by wasted passes alone (not by this
/// machine's times), on one thread; the same table as `auto` on the
/// test's threads (in stretches, its blocks sent in order by the clock).
#[test]
fn wasted_passes_of_161_halve_its_blocks_instead_of_sending_them_in_order() {
    let code = Code::parse("0.161").unwrap();
    let n = 1 << 19;
    let mut run = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default())
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    run.tuning.in_order_timed = false;
    pool(1).install(|| run.extend_on_cpu(n).unwrap());
    let counts = run.rare_counts().unwrap();
    assert!(counts.in_order * 4 < n, "{counts:?}");
    assert!(counts.pass_heaps * 4 > n * 3, "{counts:?}");
    assert!(counts.rescans * 2 < counts.pass_heaps, "{counts:?}");
    let (stretched, _) = finished(&code, n, HeapTable::default(), Stretches::Auto);
    assert!(run.table.into_wide() == stretched);
}

/// The pass of the next block started on the other cores while a block
/// is finished: on four threads the passes run ahead (two blocks in
/// flight) and the tables equal the brute force's and one thread's, where
/// nothing runs ahead. Officers, Grundy's game, `.1777` (in order mostly),
/// `.16` (periodic) and random sparse codes.
#[test]
fn passes_started_ahead_give_the_tables_of_one_thread() {
    let (four, one) = (pool(4), pool(1));
    let counted = |code: &Code, n: u64| {
        let mut run = SequenceRun::new(code, Algorithm::Rare, HeapTable::default())
            .unwrap()
            .tuned(Tuning::default().on_fake_clock());
        run.tuning.pass_ahead = PassAhead::Always;
        run.extend_on_cpu(n).unwrap();
        (run.rare_counts().unwrap(), run.table.into_wide())
    };
    for (text, n) in [
        ("0.6", 60_000),
        ("4!.0", 60_000),
        ("0.1777", 60_000),
        ("0.16", 30_000),
    ] {
        let code = Code::parse(text).unwrap();
        let (ahead, table) = four.install(|| counted(&code, n));
        let (alone, one_thread) = one.install(|| counted(&code, n));
        assert_eq!(table, brute(&code, n as u32), "{text}: four threads");
        assert_eq!(table, one_thread, "{text}: one thread");
        assert_eq!(
            (alone.pass_ahead, alone.in_flight_max),
            (0, 1),
            "{text}: {alone:?}"
        );
        if text == "0.6" {
            assert!(
                ahead.pass_ahead * 4 > ahead.pass_heaps * 3,
                "{text}: {ahead:?}"
            );
            assert_eq!(ahead.in_flight_max, 2, "{text}: {ahead:?}");
            assert!(
                ahead.finish_nanos > ahead.finish_wait_nanos,
                "{text}: {ahead:?}"
            );
        }
    }
    let mut rng = Rng(0x5eed_a4ead);
    let mut checked = 0;
    while checked < 40 {
        let code = random_kernel_code(&mut rng);
        if RareCode::new(&code).is_err() {
            continue;
        }
        let n = 2000 + rng.below(8000);
        let (_, table) = four.install(|| counted(&code, n));
        assert_eq!(table, brute(&code, n as u32), "{}", code.name());
        checked += 1;
    }
}

#[test]
fn random_codes_match_the_brute_force() {
    let mut rng = Rng(0x5eed_4a4e);
    let mut checked = 0;
    while checked < 120 {
        let code = random_kernel_code(&mut rng);
        if RareCode::new(&code).is_err() {
            continue;
        }
        let n = 500 + rng.below(3000);
        assert_eq!(rare(&code, n), brute(&code, n as u32), "{}", code.name());
        checked += 1;
    }
}

#[test]
fn values_past_255_widen_the_table_and_stay_exact() {
    // Twenty 7s: values pass 255 within a few thousand heaps.
    let code = Code::parse("0.77777777777777777777").unwrap();
    let (table, _) = run(&code, Algorithm::Rare, 5000);
    assert!(matches!(table, HeapTable::Wide(_)));
    let g = table.into_wide();
    assert!(g.iter().any(|&v| v > 255));
    assert_eq!(g, brute(&code, 5000));
    // Values below 256 keep one byte each.
    let (table, _) = run(&Code::parse("0.1777").unwrap(), Algorithm::Rare, 5000);
    assert!(matches!(table, HeapTable::Narrow(_)));
}

/// Rare values on a table whose values from `escape` on are kept apart.
fn rare_escaped(code: &Code, n: u64, escape: u8) -> Vec<u16> {
    let table = HeapTable::Escaped(Escaped::new(escape, false));
    let (table, engine) = run_from(code, Algorithm::Rare, n, table);
    assert_eq!(engine, HeapEngine::Rare, "{}", code.name());
    assert!(matches!(table, HeapTable::Escaped(_)), "{}", code.name());
    table.into_wide()
}

#[test]
fn tables_with_values_kept_apart_give_the_same_values() {
    // Low escapes send every code's values through the list: the marks,
    // the scans between and across the escapes, the middle pairs.
    for (text, n) in [
        ("0.6", 30_000),
        ("4!.0", 30_000),
        ("0.1777", 40_000),
        ("0.16", 20_000),
        ("0.77777777777777777777", 4000),
    ] {
        let code = Code::parse(text).unwrap();
        let plain = rare(&code, n);
        for escape in [1, 8, 40] {
            assert_eq!(
                rare_escaped(&code, n, escape),
                plain,
                "{text}, escape {escape}"
            );
        }
    }
    let mut rng = Rng(0x5eed_0e5c);
    let mut checked = 0;
    while checked < 60 {
        let code = random_kernel_code(&mut rng);
        if RareCode::new(&code).is_err() {
            continue;
        }
        let n = 500 + rng.below(2500);
        let escape = 1 + rng.below(20) as u8;
        let g = rare_escaped(&code, n, escape);
        assert_eq!(
            g,
            brute(&code, n as u32),
            "{}, escape {escape}",
            code.name()
        );
        checked += 1;
    }
}

#[test]
fn grundys_game_keeps_its_values_past_255_apart() {
    // The first value past 255 comes at heap 7,250,049 (scripts/
    // check-grundys-game.py checks it from the rule); a sparse table keeps
    // it apart, and the values agree with a table of two bytes a value.
    let code = Code::parse("4!.0").unwrap();
    let n = 7_300_000;
    let (table, _) = run(&code, Algorithm::Rare, n);
    let HeapTable::Escaped(t) = &table else {
        panic!("two bytes a value: {:?}", table.bytes_per_value());
    };
    assert_eq!(
        t.large().first().map(|&(n, v)| (n, v)),
        Some((7_250_049, 256))
    );
    let stats = table.stats();
    assert_eq!((stats.max_value, stats.first_max_at), (256, 7_250_049));
    assert_eq!(stats.p_positions, 42);
    let (wide, _) = run_from(
        &code,
        Algorithm::Rare,
        n,
        HeapTable::Wide(Vec::new().into()),
    );
    assert!(matches!(wide, HeapTable::Wide(_)));
    assert_eq!(table.into_wide(), wide.into_wide());
}

#[test]
fn auto_gives_up_on_tables_that_are_not_sparse() {
    // .007 is .04 shifted: over a quarter of its first 2^15 heaps are rare
    // under every mask (.06: over a third), more than pay on the CPU.
    for text in ["0.007", "0.06"] {
        let code = Code::parse(text).unwrap();
        let (table, engine) = run(&code, Algorithm::Auto, 50_000);
        assert_eq!(engine, HeapEngine::Blocked, "{text}");
        assert_eq!(table.into_wide(), brute(&code, 50_000), "{text}");
    }
    // Grundy's game has many rare heaps early (558 of the first 4160) and
    // few later: auto keeps rare values for it.
    for text in ["0.1777", "4!.0"] {
        let (_, engine) = run(&Code::parse(text).unwrap(), Algorithm::Auto, 50_000);
        assert_eq!(engine, HeapEngine::Rare, "{text}");
    }
}

/// `auto` on the CPU, from `table`, to heap n: the table, the last
/// engine, and how often it went back to rare values.
fn auto_on_cpu(code: &Code, n: u64) -> (Vec<u16>, HeapEngine, u32) {
    let mut run = SequenceRun::new(code, Algorithm::Auto, HeapTable::default())
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    run.extend_on_cpu(n).unwrap();
    let looked_back = run.looked_back;
    (run.table.into_wide(), run.engine, looked_back)
}

/// `.126` has 27 % rare heaps among its first 2^15 and 23 % among its
/// first 2^16: `auto` gives rare values up, goes on by brute force, looks
/// again when the table has doubled and goes back to them, with the brute
/// force's table. `.76` (37 % at 2^16) stays with the brute force.
#[test]
fn auto_looks_again_at_every_doubling_and_goes_back_to_rare_values() {
    let code = Code::parse("0.126").unwrap();
    let n = 90_000;
    let (table, engine, looked_back) = auto_on_cpu(&code, n);
    assert_eq!((engine, looked_back), (HeapEngine::Rare, 1));
    assert!(table == brute(&code, n as u32), "the tables differ");
    let code = Code::parse("0.76").unwrap();
    let (table, engine, looked_back) = auto_on_cpu(&code, n);
    assert_eq!((engine, looked_back), (HeapEngine::Blocked, 0));
    assert!(table == brute(&code, n as u32), "the tables differ");
}

/// A run to heap 2^16 or past judges rare values first against the card
/// it might have (one rare heap in 8), and, finding no card, by the CPU's
/// rule: `.206` (22 % rare heaps at 2^15) stays with rare values on a
/// machine without a GPU, as a test run sees it (`auto` never takes a
/// software adapter).
#[test]
fn auto_without_a_card_judges_rare_values_against_the_cpu() {
    let code = Code::parse("0.206").unwrap();
    let n = 70_000;
    let backend = grundy::internals::engine::LazyBackend::new(
        grundy::internals::engine::BackendChoice::Auto,
        &Silent,
    )
    .unwrap();
    let mut run = SequenceRun::new(&code, Algorithm::Auto, HeapTable::default())
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    assert!(
        run.extend(n, &backend, &GpuTuning::default(), &Silent)
            .unwrap()
    );
    assert_eq!(run.engine, HeapEngine::Rare);
    assert!(run.table.into_wide() == rare(&code, n), "the tables differ");
    for (rare, heaps, cpu, gpu) in [
        (1, 8, true, true),
        (2, 8, true, false),
        (3, 8, false, false),
    ] {
        use grundy::internals::engine::heap::rare::rare_values_pay;
        assert_eq!(rare_values_pay(rare, heaps, BruteForceOn::Cpu), cpu);
        assert_eq!(rare_values_pay(rare, heaps, BruteForceOn::Gpu), gpu);
    }
}

#[test]
fn the_position_parity_makes_106_sparse() {
    let code = Code::parse("0.106").unwrap();
    let rc = RareCode::new(&code).unwrap();
    assert_eq!(rc.parity, Some(1), "the breaking digit 6 sits at index 3");
    let (table, engine) = run(&code, Algorithm::Auto, 50_000);
    assert_eq!(engine, HeapEngine::Rare);
    let (split, summary) = table.rare_summary(rc.parity);
    assert!(split.parity.is_some(), "{split:?}");
    let g = table.into_wide();
    assert_eq!(summary.rare_count as usize, rare_positions(&g, split).len());
    assert!(summary.rare_count < 100, "{summary:?}");
    assert_eq!(g, brute(&code, 50_000));
}

fn certified(text: &str, n: u64) -> (u64, u64) {
    let code = Code::parse(text).unwrap();
    let (table, engine) = run(&code, Algorithm::Auto, n);
    assert_eq!(engine, HeapEngine::Rare, "{text}");
    let p = table.period(&PeriodRule::for_code(&code)).unwrap();
    assert!(p.certified, "{text}");
    (p.period, p.preperiod)
}

#[test]
fn the_literatures_solved_games_are_certified() {
    // Gangolli & Plambeck; Flammenkamp's tables of octal games.
    assert_eq!(certified("0.16", 1 << 19), (149_459, 105_351));
    assert_eq!(certified("0.56", 1 << 20), (144, 326_640));
    assert_eq!(certified("0.127", 1 << 17), (4, 46_578));
    assert_eq!(certified("0.165", 1 << 14), (1550, 5181));
    assert_eq!(certified("0.156", 1 << 13), (349, 3479));
}

#[test]
fn certifying_16_needs_exactly_the_theorems_window() {
    // m·e + m·p + t = 2·105351 + 2·149459 + 2 values: one fewer is not enough.
    let code = Code::parse("0.16").unwrap();
    let rule = PeriodRule::for_code(&code);
    let needed = 2 * 105_351 + 2 * 149_459 + 2;
    assert_eq!(rule.values_needed(149_459, 105_351), needed);
    let (table, _) = run(&code, Algorithm::Auto, needed - 1);
    let g = table.into_wide();
    let found = |g: &[u16]| find_period(g, &rule).map(|p| (p.period, p.preperiod, p.certified));
    assert_eq!(found(&g), Some((149_459, 105_351, true)));
    assert_ne!(found(&g[..g.len() - 1]), Some((149_459, 105_351, true)));
}

/// G(0..=n) of `code` from `table`, its blocks finished heap by heap or
/// in stretches on guesses (`stretches`), with the rare engine's counts.
fn finished(
    code: &Code,
    n: u64,
    table: HeapTable,
    stretches: Stretches,
) -> (Vec<u16>, Option<RareCounts>) {
    let mut run = SequenceRun::new(code, Algorithm::Auto, table)
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    run.tuning.stretches = stretches;
    run.extend_on_cpu(n).unwrap();
    let counts = run.rare_counts();
    (run.table.into_wide(), counts)
}

/// A thread pool of `threads` threads.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// `count` random sparse codes from `rng`, each to 5,000–25,000 heaps:
/// every block in stretches on `pool` gives the heap-by-heap table.
fn random_codes_in_stretches_as_heap_by_heap(pool: &rayon::ThreadPool, mut rng: Rng, count: usize) {
    let mut checked = 0;
    while checked < count {
        let code = random_kernel_code(&mut rng);
        if RareCode::new(&code).is_err() {
            continue;
        }
        let n = 5000 + rng.below(20_000);
        let table = HeapTable::default;
        let (in_order, _) = finished(&code, n, table(), Stretches::Never);
        let (stretched, _) = pool.install(|| finished(&code, n, table(), Stretches::Always));
        assert!(stretched == in_order, "{}: the tables differ", code.name());
        checked += 1;
    }
}

/// Heaps finished in stretches on guesses, then checked in order, give
/// the tables of the heap-by-heap finish, on two threads and on one:
/// Officers and Grundy's game (guesses kept and redone both), a code whose
/// values pass 255 (the table widened within a stretch), tables whose
/// values from 8 on are kept apart (the guesses read beside the escapes),
/// and random sparse codes.
#[test]
fn stretches_finished_on_guesses_give_the_heap_by_heap_tables() {
    let (two, one) = (pool(2), pool(1));
    let narrow = || HeapTable::default();
    let escaped = || HeapTable::Escaped(Escaped::new(8, false));
    for (text, n, table) in [
        ("0.6", 150_000, narrow as fn() -> HeapTable),
        ("4!.0", 150_000, narrow),
        ("0.77777777777777777777", 5000, narrow),
        ("0.6", 20_000, escaped),
        ("4!.0", 20_000, escaped),
    ] {
        let code = Code::parse(text).unwrap();
        let (in_order, _) = finished(&code, n, table(), Stretches::Never);
        for (threads, pool) in [(2, &two), (1, &one)] {
            let (stretched, counts) =
                pool.install(|| finished(&code, n, table(), Stretches::Always));
            assert!(
                stretched == in_order,
                "{text}, {threads} threads: the tables differ"
            );
            let counts = counts.unwrap();
            assert!(
                counts.stretches > 0 && counts.guessed_kept > 0,
                "{text}: {counts:?}"
            );
            if text == "0.6" && n > 100_000 {
                assert!(counts.guessed_redone > 0, "{text}: {counts:?}");
                // The pass's candidates alone, stale at a long block's end,
                // would send most heaps of a second run back.
                assert!(
                    counts.guessed_kept > 4 * counts.guessed_redone,
                    "{text}: {counts:?}"
                );
            }
        }
    }
    random_codes_in_stretches_as_heap_by_heap(&two, Rng(0x5eed_57e7), 40);
}

/// Stretches of eight runs finished in rounds (each round's inputs the
/// values the round before gave, its heaps that read a changed one
/// finished again): the heap-by-heap tables for Officers, Grundy's game,
/// an escaped table, a code whose values pass 255 and random sparse codes;
/// on Officers the rounds leave under a tenth of the heaps to redo in
/// order (one round alone left most of a long stretch), most heaps that
/// read a changed one keep their value unmoved (no option through it moves
/// their marks below c), and the critical path is well under the heaps
/// finished.
#[test]
fn stretches_in_rounds_on_eight_runs_give_the_heap_by_heap_tables() {
    let eight = pool(8);
    let narrow = || HeapTable::default();
    let escaped = || HeapTable::Escaped(Escaped::new(8, false));
    for (text, n, table) in [
        ("0.6", 150_000, narrow as fn() -> HeapTable),
        ("4!.0", 100_000, narrow),
        ("0.77777777777777777777", 5000, narrow),
        ("0.6", 20_000, escaped),
    ] {
        let code = Code::parse(text).unwrap();
        let (in_order, _) = finished(&code, n, table(), Stretches::Never);
        let (stretched, counts) = eight.install(|| finished(&code, n, table(), Stretches::Always));
        assert!(stretched == in_order, "{text}: the tables differ");
        let counts = counts.unwrap();
        assert!(
            counts.stretches > 0 && counts.rounds > 0,
            "{text}: {counts:?}"
        );
        if text == "0.6" && n > 100_000 {
            let heaps = counts.guessed_kept + counts.guessed_redone;
            assert!(counts.guessed_redone * 10 < heaps, "{text}: {counts:?}");
            assert!(counts.path_heaps * 2 < heaps, "{text}: {counts:?}");
            assert!(
                counts.round_unmoved > counts.round_heaps,
                "{text}: {counts:?}"
            );
        }
    }
    random_codes_in_stretches_as_heap_by_heap(&eight, Rng(0x0dd_5eed), 30);
}

/// Sixteen runs a stretch on one thread (the model of a 16-core host): the
/// heap-by-heap tables of random sparse codes, most of them rounds apart
/// from the first.
#[test]
fn sixteen_runs_a_stretch_give_the_heap_by_heap_tables_of_random_codes() {
    let (mut rng, mut checked, mut rounds) = (Rng(0x16_5eed), 0, 0);
    while checked < 40 {
        let code = random_kernel_code(&mut rng);
        let Ok(rare) = RareCode::new(&code) else {
            continue;
        };
        let n = 5000 + rng.below(20_000) as usize;
        let table = |stretches, runs| {
            let mut g: Vec<u16> = Vec::new();
            let mut run = RareRun::new(&rare, &g[..]);
            run.tuning = run.tuning.on_fake_clock();
            (run.tuning.stretches, run.tuning.stretch_runs) = (stretches, runs);
            let to = Target {
                to: n as u64,
                persist: Persist::GiveUpWhenDense(BruteForceOn::Gpu),
            };
            let ended = rare::extend(&rare, &mut run, &mut g, to, &mut None, &Silent);
            assert!(matches!(ended, Outcome::Done | Outcome::Dense), "{ended:?}");
            (g, run.counts)
        };
        let (in_order, _) = table(Stretches::Never, None);
        let (stretched, counts) = table(Stretches::Always, Some(16));
        let both = stretched.len().min(in_order.len());
        assert!(
            stretched[..both] == in_order[..both],
            "{}: the tables differ ({counts:?})",
            code.name()
        );
        rounds += counts.rounds;
        checked += 1;
    }
    assert!(rounds > 100, "{rounds} rounds");
}

/// Stretches started only once a block's pass is done (`WhenIdle`): the
/// heap-by-heap tables, on 2 and 4 threads, and stretches taken.
#[test]
fn stretches_once_the_pass_is_done_give_the_heap_by_heap_tables() {
    for threads in [2, 4] {
        let pool = pool(threads);
        for (text, n) in [("0.6", 150_000), ("4!.0", 150_000)] {
            let code = Code::parse(text).unwrap();
            let (in_order, _) = finished(&code, n, HeapTable::default(), Stretches::Never);
            let (idle, counts) =
                pool.install(|| finished(&code, n, HeapTable::default(), Stretches::WhenIdle));
            assert!(
                idle == in_order,
                "{text}, {threads} threads: the tables differ"
            );
            let counts = counts.unwrap();
            assert!(
                counts.stretches > 0,
                "{text}, {threads} threads: {counts:?}"
            );
        }
    }
}

/// Every game of the published list of unsolved octal games to 2^16 (or
/// until its rare heaps are too many to pay): the same table with its
/// blocks finished in stretches as heap by heap, with a run a thread and
/// with 16 runs a stretch in rounds.
#[test]
fn the_unsolved_list_to_2_16_in_stretches_as_heap_by_heap() {
    let prefix = |code: &RareCode, (stretches, runs)| {
        let mut g: Vec<u16> = Vec::new();
        let mut run = RareRun::new(code, &g[..]);
        run.tuning = run.tuning.on_fake_clock();
        run.tuning.stretches = stretches;
        run.tuning.stretch_runs = runs;
        let to = Target {
            to: 1 << 16,
            persist: Persist::GiveUpWhenDense(BruteForceOn::Gpu),
        };
        let ended = rare::extend(code, &mut run, &mut g, to, &mut None, &Silent);
        assert!(matches!(ended, Outcome::Done | Outcome::Dense), "{ended:?}");
        (g, run.counts)
    };
    let (mut stretched_heaps, mut rounds) = (0, 0);
    for text in grundy::UNSOLVED {
        let Ok(code) = RareCode::new(&Code::parse(text).unwrap()) else {
            continue;
        };
        let (in_order, alone) = prefix(&code, (Stretches::Never, None));
        if alone.pass_heaps == 0 {
            // Every block went in order: no stretch to finish.
            continue;
        }
        for runs in [None, Some(16)] {
            let (stretched, counts) = prefix(&code, (Stretches::Always, runs));
            // A dense table stops after the block where it is found dense,
            // and where blocks end depends on their timing (`in_order_pays`).
            let both = stretched.len().min(in_order.len());
            assert!(
                stretched[..both] == in_order[..both],
                "{text}, {runs:?} runs: the tables differ ({counts:?})"
            );
            stretched_heaps += counts.guessed_kept + counts.guessed_redone;
            rounds += counts.rounds;
        }
    }
    assert!(
        stretched_heaps > 10_000 && rounds > 100,
        "{stretched_heaps} heaps in stretches, {rounds} rounds"
    );
}
