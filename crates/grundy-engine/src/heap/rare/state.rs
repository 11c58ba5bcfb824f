//! What a rare-value run keeps besides its table: the split, the rare
//! list and its marks, the value histogram, the counts; and how a call ends.

use super::checks::Checked;
use super::clock::ScheduleClock;
use super::kept::{Beyond, Gap, Kept};
use super::marks::MarkList;
use super::schedule::BlockPlan;
use crate::heap::storage::store::Values;
use grundy_core::analysis::rare_split::{RareSplit, ValueHistogram, rare_positions_by};
use grundy_core::kernel::rare::{BruteForceOn, RareCode};

/// Whether a run may give up on a table that is not sparse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Persist {
    /// Stop with `Outcome::Dense` when rare positions are too many to beat
    /// the brute force on the CPU or the card (`rare_values_pay`).
    GiveUpWhenDense(BruteForceOn),
    /// Go on whatever the rare count (`--algorithm rare`).
    Always,
}

/// How far a call extends the table: every heap up to `to`, giving up
/// on a dense table or not as `persist` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub to: u64,
    pub persist: Persist,
}

impl Target {
    /// The table's length when the call is done.
    pub(super) fn end(self) -> usize {
        self.to as usize + 1
    }
}

/// How a call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every heap up to the target is done.
    Done,
    /// `stop()` asked for a pause; the table holds every heap below its length.
    Paused,
    /// Rare heaps are too many to pay (`rare_values_pay`): the brute force
    /// is the tool.
    Dense,
    /// G(n) does not fit the value type; widen the table and call again.
    Widen { n: u64, value: u32 },
    /// The GPU failed while running the block pass.
    Failed(String),
    /// A heap needed a value the run does not keep; the table holds every
    /// heap below it.
    Beyond(Beyond),
    /// Memory for the next `heaps` values could not be had; the table holds
    /// every heap below its length.
    OutOfMemory { heaps: usize },
}

/// The state the algorithm keeps besides the table.
pub struct RareRun {
    pub split: RareSplit,
    /// Rare positions, ascending, and their values.
    pub rare: Vec<usize>,
    pub(super) rare_values: Vec<u32>,
    pub(super) hist: ValueHistogram,
    /// Rare positions when the split was last chosen.
    pub(super) rare_at_choice: usize,
    pub(super) max_value: u32,
    pub(super) marks_past_rare: MarkList,
    /// The rare pairs the block passes check instead of marking.
    pub(super) checks: Checked,
    pub counts: RareCounts,
    /// How the run spreads its work and schedules its blocks.
    pub tuning: Tuning,
    /// What the run keeps of its table (none: all of it), and the heaps it
    /// gave back so far (`set_kept`).
    pub(super) kept: Option<Kept>,
    pub(super) gap: Gap,
    /// What the blocks of the last call learned.
    pub(super) plan: Option<BlockPlan>,
}

/// The state of a rare-value run that a table does not give back when
/// the run keeps only part of it: the split, the rare heaps and their
/// values, the largest value, the value histogram.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RareState {
    pub split: RareSplit,
    pub rare: Vec<u64>,
    pub rare_values: Vec<u32>,
    pub max_value: u32,
    pub hist: ValueHistogram,
}

/// When a block's pass starts while the block before it is finished (from
/// the heaps below that block: the finish then covers both).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassAhead {
    /// On the GPU, which then works while the host finishes; not on the
    /// CPU, where the wider window's finish costs more than the overlap
    /// saves (BENCHMARKS-log.md, "The block pipeline").
    #[default]
    Auto,
    /// On the GPU and on the CPU's other cores.
    Always,
    /// Never: each block's pass, then its finish.
    Never,
}

/// When a block's heaps are finished in stretches on guesses, by several
/// cores at once (`speculate`), instead of one by one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Stretches {
    /// Once a block's pass has no task left to claim, on two threads (up
    /// to `AUTO_STRETCH_THREADS`): the core the pass leaves free. On the
    /// H200's 16-core host they made every code measured slower, whatever
    /// the runs in a stretch (BENCHMARKS-log.md, "The finish in stretches
    /// on 16 cores"). Where the block's pass came from the card, on every
    /// thread: no core runs a pass task, and in rounds the finish's path
    /// with passes started ahead is under half the heap-by-heap finish
    /// (BENCHMARKS-log.md, "The finish's path in time").
    #[default]
    Auto,
    /// In every block with a pass, whatever the threads (the tests, and
    /// the benchmark's measure of what stays in order).
    Always,
    /// Once a block's pass has every task done, not only claimed, on any
    /// number of threads: then every core is idle but the finisher's, so a
    /// stretch's parallel work waits on none (on 16 threads, stretches
    /// started when the last tasks were claimed waited behind the 14 or 15
    /// cores still running them). Not measured on many cores yet.
    WhenIdle,
    /// Never: every heap in order on one thread.
    Never,
}

/// The most threads on which `Stretches::Auto` finishes in stretches: where
/// they were measured to pay (2), not where they lost (16); 4 and 8 are
/// unmeasured.
pub const AUTO_STRETCH_THREADS: usize = 2;

/// How a run of rare values spreads its work and schedules its blocks,
/// beside its results: where a block's pass starts, whether its heaps
/// finish in stretches, whether blocks go in order by their cost, and the
/// clock that cost is read from. The tables are the same whatever it says;
/// the front ends may read it from the environment (`GRUNDY_PASS_AHEAD`,
/// `GRUNDY_STRETCHES`, `GRUNDY_STRETCH_RUNS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// When a block's pass starts while the block before it is finished.
    pub pass_ahead: PassAhead,
    /// When a block's heaps are finished in stretches on guesses.
    pub stretches: Stretches,
    /// Runs a stretch (`None`: one a thread); with `Stretches::Always` on
    /// one thread, a model of as many cores counted on one
    /// (`RareCounts::path_nanos`).
    pub stretch_runs: Option<usize>,
    /// Whether blocks go in order only while a heap in order costs little
    /// more time than one with a pass (`BlockPlan::in_order_pays`);
    /// false: whenever a pass was wasted, whatever the time.
    pub in_order_timed: bool,
    /// The clock the schedule reads its costs and stretches from.
    pub clock: ScheduleClock,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            pass_ahead: PassAhead::Auto,
            stretches: Stretches::Auto,
            stretch_runs: None,
            in_order_timed: true,
            clock: ScheduleClock::Wall,
        }
    }
}

impl Tuning {
    /// This tuning on a fake clock (`ScheduleClock::Fake`) on which every
    /// heap costs a microsecond: the schedule of a test, the same on a
    /// loaded machine as on an idle one.
    pub fn on_fake_clock(self) -> Tuning {
        Tuning {
            clock: ScheduleClock::Fake {
                per_heap_nanos: 1_000,
            },
            ..self
        }
    }
}

/// How the heaps of a run went (for tests, benchmarks and `--json`'s
/// `rare_blocks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RareCounts {
    /// Heaps done in blocks that went in order.
    pub in_order: u64,
    /// Of those, heaps whose scan the middle pairs made unnecessary.
    pub settled_by_middle: u64,
    /// Heaps the parallel pass went over, its rare-pair marks, the split
    /// pairs its scans read, and its wall time.
    pub pass_heaps: u64,
    /// Of those, heaps whose pass ran on the GPU (its marks are not
    /// counted).
    pub gpu_heaps: u64,
    pub pass_marks: u64,
    pub pass_pairs: u64,
    pub pass_nanos: u64,
    /// Rare pairs the pass checked instead of marking, and the pass heaps
    /// whose checked pairs had to be marked after all: in the pass (every
    /// candidate reached) or in order (the block's marks covered them).
    pub pass_checked: u64,
    pub check_failed: u64,
    /// Heaps whose pass was started while the block before them was
    /// finished (on the GPU or the other cores).
    pub pass_ahead: u64,
    /// Blocks in flight at once at most: the one being finished and the
    /// passes started ahead of it.
    pub in_flight_max: u64,
    /// The in-order finish's wall time, and of it the time it waited for
    /// the pass (a task not done that no thread was left to run first, or
    /// the GPU's result not back).
    pub finish_nanos: u64,
    pub finish_wait_nanos: u64,
    /// Heaps whose block's own marks moved G(n) past the pass's candidate
    /// (every pair scanned again).
    pub rescans: u64,
    /// Stretches of heaps finished on guesses by the cores the pass left
    /// free; of their heaps, those whose guessed finish was kept (what it
    /// read was true) and those finished again in order.
    pub stretches: u64,
    pub guessed_kept: u64,
    pub guessed_redone: u64,
    /// Rounds after a stretch's first, on any core: each finishes again
    /// the heaps that read a stretch heap whose value the round before
    /// changed (`round_heaps`), so fewer are redone in order.
    pub rounds: u64,
    pub round_heaps: u64,
    /// Heaps a later round kept although they read a changed heap: no
    /// option through it could move their marks below c.
    pub round_unmoved: u64,
    /// The stretches' critical path on as many cores as runs: per round,
    /// the most heaps one run finished, and the most time one took (with a
    /// run's share of the window's marks, which go in parallel).
    pub path_heaps: u64,
    pub path_nanos: u64,
    /// Of the finish's wall time, the stretches' guessing (every core at
    /// once) and their check in order (one thread, the redone heaps
    /// included).
    pub guess_nanos: u64,
    pub check_nanos: u64,
}

impl RareRun {
    /// The state for a table known up to its length.
    pub fn new<V: Values>(code: &RareCode, g: V) -> RareRun {
        let hist = match g.no_escapes() {
            Some(units) => ValueHistogram::of(units),
            None => ValueHistogram::by_piece(g.len(), |a, b| g.range(a, b).wide()),
        };
        let (split, _) = hist.best_split(code.parity);
        // Heap 0 is not in the histogram.
        let max_value = hist.max_value().max(if g.is_empty() { 0 } else { g.at(0) });
        let state = RareState {
            split,
            rare: Vec::new(),
            rare_values: Vec::new(),
            max_value,
            hist,
        };
        let mut run = RareRun::resumed(code, state);
        run.rebuild(code, g);
        run
    }

    /// What a checkpoint of a run that keeps part of its table holds of
    /// this state (the rest is rebuilt from it).
    pub fn saved(&self) -> RareState {
        RareState {
            split: self.split,
            rare: self.rare.iter().map(|&r| r as u64).collect(),
            rare_values: self.rare_values.clone(),
            max_value: self.max_value,
            hist: self.hist.clone(),
        }
    }

    /// The state a checkpoint saved (`saved`), for a run going on from it.
    pub fn resumed(code: &RareCode, state: RareState) -> RareRun {
        let rare: Vec<usize> = state.rare.iter().map(|&r| r as usize).collect();
        RareRun {
            split: state.split,
            marks_past_rare: MarkList::new(code, &rare, &state.rare_values),
            rare_at_choice: rare.len(),
            rare,
            rare_values: state.rare_values,
            hist: state.hist,
            max_value: state.max_value,
            checks: Checked::default(),
            counts: RareCounts::default(),
            tuning: Tuning::default(),
            kept: None,
            gap: Gap::default(),
            plan: None,
        }
    }

    /// Keeps only `kept` of the table (none: all of it), the heaps `gap`
    /// given back.
    pub fn set_kept(&mut self, kept: Option<Kept>, gap: Gap) {
        (self.kept, self.gap) = (kept, gap);
        self.with_high_bits();
    }

    /// For a run that keeps part of its table, the split's mask with every
    /// bit above the largest value set: the heaps done keep their class,
    /// and a new largest value with one new bit is common, so its heap needs
    /// no scan of every pair (which a run that gave heaps back could not
    /// read; under the split chosen before it, `.167`'s first 64 at heap
    /// 332,129,728 and Grundy's game's first 256 were rare).
    fn with_high_bits(&mut self) {
        if self.kept.is_some() {
            let above = (self.max_value + 1).next_power_of_two();
            self.split.mask |= 0xffff & !(above - 1);
        }
    }

    pub(super) fn rebuild<V: Values>(&mut self, code: &RareCode, g: V) {
        self.rare = rare_positions_by(g.len(), |n| g.at(n), self.split)
            .into_iter()
            .map(|n| n as usize)
            .collect();
        self.rare_values = self.rare.iter().map(|&r| g.at(r)).collect();
        self.rare_at_choice = self.rare.len();
        self.marks_past_rare = MarkList::new(code, &self.rare, &self.rare_values);
        self.checks.reset();
    }

    /// Chooses the split again when the rare list has grown by
    /// `RECHOOSE_AFTER`, and switches when the new one would have made that
    /// many fewer rare heaps. Choosing is cheap (a transform of the value
    /// histogram) and switching costs one pass over the table, while each
    /// rare heap under a split gone stale costs a scan of all its pairs:
    /// in Grundy's game near 2^25.5, when values of 256 appear, waiting for
    /// the rare list to double meant 1,221 such scans.
    pub(super) fn maybe_rechoose<V: Values>(&mut self, code: &RareCode, g: V) {
        // A run that gave heaps back cannot list the rare heaps of another
        // split: it keeps the split it has (slower, never wrong).
        if self.rare.len() < self.rare_at_choice + RECHOOSE_AFTER || !self.gap.is_empty() {
            return;
        }
        let (split, count) = self.hist.best_split(code.parity);
        if split != self.split && count as usize + RECHOOSE_AFTER < self.rare.len() {
            self.split = split;
            self.with_high_bits();
            self.rebuild(code, g);
        } else {
            self.rare_at_choice = self.rare.len();
        }
    }
}

/// New rare heaps after which the split is chosen again.
pub(super) const RECHOOSE_AFTER: usize = 32;
