//! The rare-value (sparse space) algorithm for one Nim-sequence.
//!
//! Under a split of values into rare and common (`analysis::rare_split`), a split
//! option G(a) ⊕ G(b) is common exactly when one of a, b is a rare position.
//! So for heap n: mark the take options and, for every breaking digit and
//! every rare position r, G(r) ⊕ G(n − j − r); now every common option is
//! marked, and c, the smallest unmarked common value, bounds G(n). Scan the
//! split pairs, marking values below c, until every value below c is
//! marked: then G(n) = c. When the scan ends first, G(n) is the mex of what
//! was marked, a rare value, and n joins the rare positions. The cost per
//! heap is (breaking digits × rare positions) plus a short scan.
//!
//! Heaps run in blocks. A parallel pass (rayon) does, for every heap of the
//! block at once, all it can from the heaps below the block: the marks, a
//! candidate c′, and the scan for the rare values below c′ among the pairs
//! with both parts below the block. Heap by heap, in order, only the marks
//! and pairs that touch the block are left, unless the block's own marks
//! moved c past c′ (then every pair is scanned again). Codes where that
//! happens often (few rare heaps, short scans: `.1777`) go in order, and
//! the other cores collect meanwhile, for each heap of the next block, the
//! values of its split pairs nearest the middle (parts near half the heap,
//! long known): most heaps then need no scan of their own.
//! The table is `Vec<u8>` or `Vec<u16>`; a value too large for it stops the
//! run so the caller can widen it and go on.

use crate::heap::storage::store::Store;
use grundy_core::hooks::RunHooks;
pub use grundy_core::kernel::rare::{
    BruteForceOn, RareCode, rare_parity, rare_values_pay, sparse_enough,
};
use grundy_gpu::rare::GpuPass;

mod bits;
mod blocks;
mod checks;
pub mod clock;
mod finish_heap;
mod finish_in_order;
pub mod kept;
mod marks;
mod middle;
mod pass;
mod scan;
mod schedule;
pub mod simd;
mod speculate;
mod state;
#[cfg(feature = "verify")]
mod verify;
mod view;

use blocks::Blocks;
pub use clock::ScheduleClock;
pub use state::{
    AUTO_STRETCH_THREADS, Outcome, PassAhead, Persist, RareCounts, RareRun, RareState, Stretches,
    Target, Tuning,
};

/// How long the blocks run on a worker of the pool, by the schedule's
/// clock, before the caller hears of progress and may stop the run.
const HAND_BACK_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Extends `g` to heaps `0..=to` by the rare-value algorithm; the blocks'
/// parallel pass runs on the GPU where `gpu` can take it.
pub fn extend<S: Store>(
    code: &RareCode,
    run: &mut RareRun,
    g: &mut S,
    target: Target,
    gpu: &mut Option<GpuPass>,
    hooks: &dyn RunHooks,
) -> Outcome {
    let end = target.end();
    if g.is_empty() && end > 0 {
        g.push(0);
    }
    // A run keeping part of its table calls this every piece: its blocks
    // go on as the last call left them (a pass started ahead does not
    // carry over: the caller gives heaps back between calls). A whole
    // table's run, whose calls are far apart, starts its blocks afresh, as
    // it always has (carried over, its timed rules sent Officers' first
    // 2·10^5 heaps in order one run in three).
    let plan = run.plan.take().filter(|_| run.kept.is_some());
    let mut blocks = Blocks::with(plan, run.tuning);
    let outcome = extend_blocks(code, run, &mut blocks, g, target, gpu, hooks);
    run.plan = Some(blocks.plan);
    outcome
}

/// `extend`'s loop over blocks.
fn extend_blocks<S: Store>(
    code: &RareCode,
    run: &mut RareRun,
    blocks: &mut Blocks,
    g: &mut S,
    target: Target,
    gpu: &mut Option<GpuPass>,
    hooks: &dyn RunHooks,
) -> Outcome {
    let end = target.end();
    while g.len() < end {
        // The blocks run on a worker of the pool, handing back every
        // `HAND_BACK_EVERY`: each block's pass then starts there, and no
        // thread waits to be woken for it (on a VM a wake-up costs about
        // what a block's finish does).
        let started = blocks.clock.nanos(g.len());
        let outcome = rayon::scope(|_| {
            loop {
                if let Some(outcome) = blocks.next(code, run, g, target, gpu) {
                    break Some(outcome);
                }
                let elapsed = blocks.clock.nanos(g.len()).saturating_sub(started);
                if g.len() >= end || elapsed >= HAND_BACK_EVERY.as_nanos() as u64 {
                    break None;
                }
            }
        });
        hooks.progress(g.len() as u64);
        if let Some(outcome) = outcome {
            return outcome;
        }
        if g.len() < end && hooks.stop() {
            return Outcome::Paused;
        }
    }
    Outcome::Done
}

#[cfg(test)]
mod tests {
    use super::RareCode;
    use super::bits::transpose64;
    use super::kept::Gap;
    use super::scan::{Pairs, Scan, ScanLimit, scan_pairs};
    use crate::heap::xorshift;
    use grundy_core::hooks::Silent;

    /// A pass's scan stopped at its pair limit and taken up from where it
    /// stopped reaches the same values, over the same pairs, as one scan.
    #[test]
    fn a_scan_stopped_at_its_limit_goes_on_where_it_stopped() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        // Values below 128: no pair reaches 128..132, and wanting them
        // reads every pair.
        let table: Vec<u8> = (0..40_000).map(|_| (next() % 128) as u8).collect();
        // Two breaking digits: Grundy's game's split, and take one then split.
        let code = RareCode {
            takes: vec![],
            splits: vec![(0, 1), (1, 0)],
            equal_splits: vec![],
            parity: None,
        };
        for n in [30_000, 35_001, 39_999] {
            let s = n - 700;
            // The pairs below s from smaller part `from` on, for `wanted`.
            let scan = |wanted: &mut Vec<u64>, from, limit| {
                let need = wanted.iter().map(|x| x.count_ones()).sum();
                let below = Pairs::BothBelow { s, from };
                let limit = ScanLimit {
                    pairs: limit,
                    gap: Gap::default(),
                };
                scan_pairs(&code, &table[..], n, wanted, need, below, limit)
            };
            let wanted: Vec<u64> = vec![next(), next(), 0xf, 0];
            let mut whole = wanted.clone();
            let (ended, read) = scan(&mut whole, 1, u64::MAX);
            assert_eq!(ended, Scan::Exhausted, "heap {n}");
            let mut parts = wanted.clone();
            let (stopped, first) = scan(&mut parts, 1, 3000);
            let Scan::Stopped(from) = stopped else {
                panic!("heap {n}: the limited scan ended {stopped:?}");
            };
            assert!(
                (3000..3000 + 2 * 512).contains(&first),
                "heap {n}: {first} pairs"
            );
            let (ended, rest) = scan(&mut parts, from, u64::MAX);
            assert_eq!((ended, first + rest), (Scan::Exhausted, read), "heap {n}");
            assert_eq!(parts, whole, "heap {n}: the values left wanted");
            assert_eq!(whole, [0, 0, 0xf, 0], "heap {n}: only 128..132 are left");
        }
    }

    /// Officers to 2^19 with the checks (`checks`) and without: the same
    /// table, and the checks ran (pairs checked, and heaps whose checked
    /// pairs had to be marked after all, both ways: in the pass and in
    /// order). Forced, so that a CPU where they do not pay runs them too;
    /// blocks go in order by wasted passes alone, not by their wall time,
    /// so that a loaded machine sends no more of them in order.
    #[test]
    fn a_pass_that_checks_rare_pairs_gives_the_table_of_one_that_marks_them() {
        let code = RareCode::new(&grundy_core::game::Code::parse("0.6").unwrap()).unwrap();
        let table = |off: bool| {
            let mut g: Vec<u16> = Vec::new();
            let mut run = super::RareRun::new(&code, &g[..]);
            (run.checks.off, run.checks.forced) = (off, true);
            run.tuning.in_order_timed = false;
            let to = super::Target {
                to: 1 << 19,
                persist: super::Persist::Always,
            };
            let ended = super::extend(&code, &mut run, &mut g, to, &mut None, &Silent);
            assert_eq!(ended, super::Outcome::Done);
            (g, run.counts)
        };
        let (marked, counts) = table(true);
        assert_eq!(counts.pass_checked, 0);
        let (checked, counts) = table(false);
        assert!(counts.pass_checked > counts.pass_marks, "{counts:?}");
        assert!(counts.check_failed > 0, "{counts:?}");
        assert!(marked == checked, "the tables differ");
    }

    /// A pass scans the pairs below the block in two parts, the tail past
    /// the first `skip` smaller parts, then those: together exactly the
    /// pairs below the block, none twice.
    #[test]
    fn the_head_and_the_tail_are_the_pairs_below_the_block() {
        let mut next = xorshift(0x0bad_cafe_f00d_d00d);
        for case in 0..2000 {
            let s = 2 + (next() % 5000) as usize;
            let m = 2 + (next() % (2 * s as u64)) as usize;
            let diff = (next() % 3) as usize;
            let skip = 1 + (next() % 600) as usize;
            let set = |pairs: Pairs| -> Vec<usize> {
                pairs
                    .range(m, diff)
                    .map_or(vec![], |(lo, hi)| (lo..=hi).collect())
            };
            let mut parts = set(Pairs::Head { s, skip });
            parts.extend(set(Pairs::Tail { s, skip }));
            parts.sort_unstable();
            let whole = set(Pairs::BothBelow { s, from: 1 });
            assert_eq!(
                parts, whole,
                "case {case}: m {m}, s {s}, diff {diff}, skip {skip}"
            );
        }
    }

    #[test]
    fn transpose64_moves_bit_i_of_word_k_to_bit_k_of_word_i() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut words = [0u64; 64];
        for word in &mut words {
            *word = next();
        }
        let before = words;
        transpose64(&mut words);
        for (i, word) in words.iter().enumerate() {
            for (k, old) in before.iter().enumerate() {
                assert_eq!((word >> k) & 1, (old >> i) & 1, "bit {k} of word {i}");
            }
        }
    }
}
