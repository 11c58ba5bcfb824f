//! The verify build's checks (`--features verify`): the shortcuts of the
//! finish redone the long way, and a panic at the first that differs.
//! Without the feature nothing here is compiled.

use super::marks::{one_heap_takes, pair_allowed, split_heaps};
use super::state::RareRun;
use grundy_core::kernel::rare::RareCode;

/// Panics where heap n's marks from heap `s` on (`finish_heap::mark_in_block`)
/// read a heap the run gave back: a take to a heap there, or the partner
/// of a rare heap in a pair with a part from s on.
pub(super) fn kept_reads(code: &RareCode, run: &RareRun, s: usize, n: usize) {
    if run.gap.is_empty() {
        return;
    }
    let kept = |x: usize, what: &str| {
        assert!(
            !run.gap.meets(x..x + 1),
            "heap {n} (block from {s}) reads heap {x}, given back ({:?}): {what}",
            run.gap
        );
    };
    for j in one_heap_takes(code).filter(|&j| j < n && n - j >= s) {
        kept(n - j, "a take");
    }
    for (m, diff) in split_heaps(code, n) {
        for &r in run.rare.iter().take_while(|&&r| r < m) {
            let b = m - r;
            if pair_allowed(diff, r, b) && (r >= s || b >= s) {
                kept(b, "a rare heap's partner");
            }
        }
    }
}

/// Panics where the value a stretch's guesses gave heap n (`kept`) is not
/// the one its finish in order from the true values gives (`in_order`).
pub(super) fn guessed_heap(n: usize, kept: u32, in_order: u32) {
    assert_eq!(
        kept, in_order,
        "heap {n}: its finish on guesses was kept, and in order it is another value"
    );
}
