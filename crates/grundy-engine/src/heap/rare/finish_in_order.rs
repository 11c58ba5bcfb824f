//! The finish: a block's heaps completed in order after its parallel pass
//! (`pass`), each from the pass's marks and candidate plus what the heaps
//! inside the block add (`finish_heap`), or, where cores are free, in
//! stretches finished on guesses and checked in order (`speculate`).

use super::finish_heap::{Finishing, RareNear, Scratch, finish_heap, settle_small};
use super::kept::Beyond;
use super::marks::FarMarks;
use super::pass::BlockPass;
use super::speculate::{Checker, MAX_STRETCH, RUN, guess_stretch};
use super::state::{AUTO_STRETCH_THREADS, Outcome, RareRun, Stretches, Tuning};
use super::view::PassView;
use crate::heap::storage::growing::Growing;
use crate::heap::storage::store::{Store, Values};
use grundy_core::kernel::rare::RareCode;
use std::sync::atomic::Ordering::Relaxed;

/// Heaps s..e in order, pushed onto `g`, each once the pass's task that
/// holds it is done (`view`: what the tasks read of the run); `Some` when a
/// value does not fit the table's type. Once the pass's tasks are all
/// claimed, the cores they leave free finish stretches of heaps on guesses
/// (`speculate`).
pub(super) fn finish_in_order<S: Store>(
    code: &RareCode,
    run: &mut RareRun,
    g: &mut Growing<S>,
    ahead: &BlockPass,
    view: &PassView,
    e: usize,
    scratch: &mut Scratch,
) -> Option<Outcome> {
    let (mut settled, mut far) = (0, FarMarks::default());
    let near = RareNear::new(&run.rare, ahead.below, e);
    let stretches = Stretching::of(&run.tuning, ahead);
    let mut n = ahead.first;
    while n < e {
        if let Some(end) = stretches.and_then(|s| s.end(ahead, n, e)) {
            for m in n..end {
                ahead.wait_for(m, code, view, g.view().range(0, ahead.below));
            }
            if let Some(widen) = finish_stretch(code, ahead, n..end, run, g, scratch) {
                return Some(widen);
            }
            n = end;
            continue;
        }
        ahead.wait_for(n, code, view, g.view().range(0, ahead.below));
        #[cfg(feature = "verify")]
        super::verify::kept_reads(code, run, ahead.below, n);
        let at = Finishing {
            code,
            run,
            g: g.view(),
        };
        let v = match settle_small(at, ahead, &mut far, n) {
            Some((v, by_middle)) => {
                settled += by_middle as u32;
                v
            }
            None => {
                let marked = scratch.marked(ahead.marks(n));
                let (v, noted) = finish_heap(at, ahead, &near, n, marked);
                if let Some(part) = noted.beyond {
                    return Some(beyond_scan(n, part));
                }
                noted.count(ahead);
                v
            }
        };
        if let Some(widen) = keep(code, run, g, n, v) {
            return Some(widen);
        }
        n += 1;
    }
    if let Some(middle) = &ahead.middle {
        middle.settled.fetch_add(settled, Relaxed);
    }
    None
}

/// Pushes G(n) = v onto `g` and into the run's state; `Some` when v does
/// not fit the table's type.
fn keep<S: Store>(
    code: &RareCode,
    run: &mut RareRun,
    g: &mut Growing<S>,
    n: usize,
    v: u32,
) -> Option<Outcome> {
    if !g.push(v) {
        return Some(Outcome::Widen {
            n: n as u64,
            value: v,
        });
    }
    run.hist.add(n as u64, v);
    run.max_value = run.max_value.max(v);
    if run.split.is_rare(n as u64, v) {
        run.rare.push(n);
        run.rare_values.push(v);
        run.marks_past_rare.push_rare(code, n, v);
    }
    None
}

/// The outcome for heap n, whose scan wanted the pairs from smaller part
/// `part` on, past what the run keeps.
fn beyond_scan(n: usize, part: usize) -> Outcome {
    Outcome::Beyond(Beyond::Scan {
        heap: n as u64,
        part: part as u64,
    })
}

/// How a block's heaps go into stretches that the cores finish on
/// guesses: a run of heaps for each thread.
#[derive(Clone, Copy)]
struct Stretching {
    runs: usize,
    when: Free,
}

/// When the cores are free for a stretch.
#[derive(Clone, Copy)]
enum Free {
    /// Whatever the pass still has to do (`Stretches::Always`).
    Always,
    /// Once the pass has no task left to claim (`Stretches::Auto`).
    NothingToClaim,
    /// Once every task of the pass is done (`Stretches::WhenIdle`).
    NothingRunning,
}

impl Stretching {
    /// For a block with a pass, unless `tuning.stretches` says never;
    /// `tuning.stretch_runs` a stretch, else one a thread.
    fn of(tuning: &Tuning, ahead: &BlockPass) -> Option<Stretching> {
        let (mode, runs) = (tuning.stretches, tuning.stretch_runs);
        let threads = rayon::current_num_threads();
        let has_pass = ahead.below > 0 && ahead.middle.is_none() && !ahead.tasks.is_empty();
        let (by_threads, when) = match mode {
            // The card's pass leaves every host core free for the finish.
            Stretches::Auto if ahead.on_gpu && threads >= 2 => (threads, Free::NothingRunning),
            Stretches::Auto if (2..=AUTO_STRETCH_THREADS).contains(&threads) => {
                (threads, Free::NothingToClaim)
            }
            Stretches::Always => (threads.max(2), Free::Always),
            Stretches::WhenIdle if threads >= 2 => (threads, Free::NothingRunning),
            _ => return None,
        };
        let runs = runs.unwrap_or(by_threads).max(2);
        has_pass.then_some(Stretching { runs, when })
    }

    /// The end of the stretch from heap n: when at least two runs' heaps
    /// are left, and the cores are free as asked.
    fn end(self, ahead: &BlockPass, n: usize, e: usize) -> Option<usize> {
        let len = (RUN * self.runs).min(MAX_STRETCH).min(e - n);
        let free = match self.when {
            Free::Always => true,
            Free::NothingToClaim => !ahead.tasks_left(),
            Free::NothingRunning => !ahead.tasks_busy(),
        };
        (free && len >= 2 * RUN).then_some(n + len)
    }
}

/// Heaps p..end finished on guesses in rounds (`speculate::guess_stretch`),
/// then pushed in order: each guessed value kept when what it read was true,
/// else the heap finished again as in order.
fn finish_stretch<S: Store>(
    code: &RareCode,
    ahead: &BlockPass,
    heaps: std::ops::Range<usize>,
    run: &mut RareRun,
    g: &mut Growing<S>,
    scratch: &mut Scratch,
) -> Option<Outcome> {
    let (p, end) = (heaps.start, heaps.end);
    let clock = std::time::Instant::now();
    let guessed = guess_stretch(code, run, g.view(), ahead, p..end);
    let guessed_at = clock.elapsed();
    let mut checker = Checker::new(&guessed);
    run.counts.stretches += 1;
    run.counts.guess_nanos += guessed_at.as_nanos() as u64;
    for n in p..end {
        #[cfg(feature = "verify")]
        super::verify::kept_reads(code, run, ahead.below, n);
        let (v, noted) = match checker.confirmed(n) {
            Some(kept) => {
                run.counts.guessed_kept += 1;
                #[cfg(feature = "verify")]
                verify_kept(code, run, g, ahead, &guessed, n, kept.0);
                kept
            }
            None => {
                run.counts.guessed_redone += 1;
                let at = Finishing {
                    code,
                    run,
                    g: g.view(),
                };
                let marked = scratch.marked(guessed.marks(n));
                let (v, noted) = finish_heap(at, ahead, &guessed.near, n, marked);
                if let Some(part) = noted.beyond {
                    return Some(beyond_scan(n, part));
                }
                (v, noted)
            }
        };
        noted.count(ahead);
        if let Some(widen) = keep(code, run, g, n, v) {
            return Some(widen);
        }
        checker.tell(n, v, run.split.is_rare(n as u64, v));
    }
    run.counts.check_nanos += (clock.elapsed() - guessed_at).as_nanos() as u64;
    None
}

/// The verify build's check of a guessed heap the check in order kept:
/// its finish in order from the true values (`g` holds every heap below
/// n) gives the same value.
#[cfg(feature = "verify")]
fn verify_kept<S: Store>(
    code: &RareCode,
    run: &RareRun,
    g: &Growing<S>,
    ahead: &BlockPass,
    guessed: &super::speculate::Guessed,
    n: usize,
    kept: u32,
) {
    let at = Finishing {
        code,
        run,
        g: g.view(),
    };
    let mut scratch = Scratch::default();
    let (v, _) = finish_heap(
        at,
        ahead,
        &guessed.near,
        n,
        scratch.marked(guessed.marks(n)),
    );
    super::verify::guessed_heap(n, kept, v);
}
