//! How a run's rare-value blocks went, as `--json` gives it
//! (`rare_blocks`) and the library returns it: a schema of its own, so
//! that the engine's counters may change without breaking a reader.
//!
//! Schema 1. Fields are added without raising `schema` (a reader ignores
//! those it does not know); a field renamed, removed or given another
//! meaning raises it. Times are nanoseconds of wall time, counts are heaps
//! unless named otherwise.

use grundy_engine::heap::rare::RareCounts;

/// The schema `RareBlocks` follows.
pub const RARE_BLOCKS_SCHEMA: u32 = 1;

/// How the rare values' blocks of a run went (docs/formats.md, "The
/// blocks of rare values"). For a run of `auto` that went back to rare
/// values after the brute force, the counts are those since it went back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RareBlocks {
    /// `RARE_BLOCKS_SCHEMA`.
    pub schema: u32,
    /// Times `auto` went back to rare values after the brute force (it
    /// looks again at every doubling of the table).
    pub back_to_rare: u32,
    /// Heaps done in blocks that went in order.
    pub in_order: u64,
    /// Of those, heaps whose scan the middle pairs made unnecessary.
    pub settled_by_middle: u64,
    /// Heaps the parallel pass went over.
    pub pass_heaps: u64,
    /// Of those, heaps whose pass ran on the GPU.
    pub gpu_heaps: u64,
    /// The pass's rare-pair marks (not counted on the GPU).
    pub pass_marks: u64,
    /// Split pairs the pass's scans read.
    pub pass_pairs: u64,
    /// The pass's time.
    pub pass_nanos: u64,
    /// Rare pairs the pass checked instead of marking.
    pub pass_checked: u64,
    /// Heaps whose checked pairs had to be marked after all.
    pub check_failed: u64,
    /// Heaps whose pass started while the block before was finished.
    pub pass_ahead: u64,
    /// The most blocks in flight at once.
    pub in_flight_max: u64,
    /// The in-order finish's time.
    pub finish_nanos: u64,
    /// Of it, the time spent waiting on the pass.
    pub finish_wait_nanos: u64,
    /// Heaps whose block's own marks sent them back to a scan of every pair.
    pub rescans: u64,
    /// Stretches of heaps finished on guesses.
    pub stretches: u64,
    /// Of their heaps, those whose guessed finish was kept.
    pub guessed_kept: u64,
    /// Of their heaps, those finished again in order.
    pub guessed_redone: u64,
    /// Rounds after a stretch's first.
    pub rounds: u64,
    /// Heaps those rounds finished again.
    pub round_heaps: u64,
    /// Heaps a later round kept although they read a changed heap.
    pub round_unmoved: u64,
    /// The stretches' critical path in heaps, on as many cores as runs.
    pub path_heaps: u64,
    /// The stretches' critical path in time.
    pub path_nanos: u64,
    /// Of the finish's time, the stretches' guessing.
    pub guess_nanos: u64,
    /// Of the finish's time, the stretches' check in order.
    pub check_nanos: u64,
}

impl RareBlocks {
    /// The schema's view of the engine's `counts`.
    pub(crate) fn of(counts: &RareCounts, back_to_rare: u32) -> RareBlocks {
        RareBlocks {
            schema: RARE_BLOCKS_SCHEMA,
            back_to_rare,
            in_order: counts.in_order,
            settled_by_middle: counts.settled_by_middle,
            pass_heaps: counts.pass_heaps,
            gpu_heaps: counts.gpu_heaps,
            pass_marks: counts.pass_marks,
            pass_pairs: counts.pass_pairs,
            pass_nanos: counts.pass_nanos,
            pass_checked: counts.pass_checked,
            check_failed: counts.check_failed,
            pass_ahead: counts.pass_ahead,
            in_flight_max: counts.in_flight_max,
            finish_nanos: counts.finish_nanos,
            finish_wait_nanos: counts.finish_wait_nanos,
            rescans: counts.rescans,
            stretches: counts.stretches,
            guessed_kept: counts.guessed_kept,
            guessed_redone: counts.guessed_redone,
            rounds: counts.rounds,
            round_heaps: counts.round_heaps,
            round_unmoved: counts.round_unmoved,
            path_heaps: counts.path_heaps,
            path_nanos: counts.path_nanos,
            guess_nanos: counts.guess_nanos,
            check_nanos: counts.check_nanos,
        }
    }
}
