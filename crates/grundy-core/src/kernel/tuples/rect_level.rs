//! CPU twin of `shaders/rect_level.wgsl`: one level of Grundy's game on
//! rectangles or boxes (Schrage, A two-dimensional generalization of Grundy's game). Every box whose sides sum to the level's
//! total gets the mex over its cuts of the xor of the two pieces. A side s
//! is cut into i and s - i when s - 2i >= min_diff.

use std::sync::atomic::AtomicU32;

use rayon::prelude::*;

use super::common::{Overflow, Seen, Tuple, sort_tuple, store_value, table_get};
use crate::kernel::tuples::{TupleKernel, TupleRule};

/// The sides `s` with side d replaced by v <= s[d], kept sorted.
fn with_side(s: &Tuple, dims: usize, d: usize, v: u32) -> Tuple {
    let mut p = *s;
    p[d] = v;
    sort_tuple(&mut p, dims);
    p
}

/// Marks the xor of the two pieces of each cut of box `s`, or of those, the
/// ones whose place among their side's cuts is `lane` modulo `lanes`: the
/// shader's lanes of a workgroup share one box's cuts (here one lane takes
/// them all).
pub fn mark_cuts(
    kern: &TupleKernel,
    table: &[AtomicU32],
    s: &Tuple,
    seen: &mut Seen,
    (lane, lanes): (u32, u32),
) {
    let dims = kern.space.heaps;
    let TupleRule::Rect(rect) = &kern.rule else {
        unreachable!("rect_level runs the rectangle game only")
    };
    for d in 0..dims {
        if d > 0 && s[d] == s[d - 1] {
            continue; // the same cuts as the side before
        }
        let side = s[d];
        let cuts = rect.cuts(side);
        for i in (1 + lane..=cuts).step_by(lanes as usize) {
            let a = with_side(s, dims, d, i);
            let b = with_side(s, dims, d, side - i);
            seen.mark(
                table_get(table, kern.space.rank(&a[..dims]))
                    ^ table_get(table, kern.space.rank(&b[..dims])),
            );
        }
    }
}

pub fn box_value(kern: &TupleKernel, table: &[AtomicU32], s: &Tuple) -> u32 {
    let mut seen = Seen::default();
    mark_cuts(kern, table, s, &mut seen, (0, 1));
    seen.mex()
}

/// Values every box of one level (`ranks`; the shader gives each box a
/// workgroup whose lanes share its cuts).
pub fn rect_level(kern: &TupleKernel, table: &[AtomicU32], ranks: &[u32]) -> Result<(), Overflow> {
    // a cut's pieces are xored: normal play only (misère: tuples::rect_sums)
    debug_assert_eq!(kern.convention, crate::game::Convention::Normal);
    ranks.par_iter().with_min_len(64).try_for_each(|&r| {
        let mut s: Tuple = [0; 8];
        kern.space.unrank(r, &mut s[..kern.space.heaps]);
        store_value(table, r, box_value(kern, table, &s))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rect::Rect;
    use crate::kernel::tuples::common::random_table;

    /// The lanes of a workgroup, each marking every `lanes`-th cut of a
    /// side, mark between them what one lane marks alone.
    #[test]
    fn lanes_sharing_a_boxs_cuts_mark_what_one_lane_marks() {
        for (dims, min_diff, max) in [(2, 0, 150), (2, 3, 90), (3, 0, 24), (3, 1, 20)] {
            let kern = TupleKernel::rect(Rect::new(dims, min_diff).unwrap(), max).unwrap();
            let table = random_table(kern.space.count(), 0x2545_f491);
            for r in 0..kern.space.count() as u32 {
                let mut s: Tuple = [0; 8];
                kern.space.unrank(r, &mut s[..dims]);
                let mut alone = Seen::default();
                mark_cuts(&kern, &table, &s, &mut alone, (0, 1));
                for lanes in [2, 7, 64] {
                    let mut shared = Seen::default();
                    for lane in 0..lanes {
                        let mut seen = Seen::default();
                        mark_cuts(&kern, &table, &s, &mut seen, (lane, lanes));
                        for (all, w) in shared.0.iter_mut().zip(seen.0) {
                            *all |= w;
                        }
                    }
                    let sides = &s[..dims];
                    assert_eq!(
                        shared.0, alone.0,
                        "{sides:?}, min_diff {min_diff}, {lanes} lanes"
                    );
                }
            }
        }
    }
}
