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

pub fn box_value(kern: &TupleKernel, table: &[AtomicU32], s: &Tuple) -> u32 {
    let dims = kern.space.heaps;
    let TupleRule::Rect(rect) = &kern.rule else {
        unreachable!("rect_level runs the rectangle game only")
    };
    let mut seen = Seen::default();
    for d in 0..dims {
        if d > 0 && s[d] == s[d - 1] {
            continue; // the same cuts as the side before
        }
        let side = s[d];
        let cuts = rect.cuts(side);
        for i in 1..=cuts {
            let a = with_side(s, dims, d, i);
            let b = with_side(s, dims, d, side - i);
            seen.mark(
                table_get(table, kern.space.rank(&a[..dims]))
                    ^ table_get(table, kern.space.rank(&b[..dims])),
            );
        }
    }
    seen.mex()
}

/// Values every box of one level (`ranks`).
pub fn rect_level(kern: &TupleKernel, table: &[AtomicU32], ranks: &[u32]) -> Result<(), Overflow> {
    ranks.par_iter().with_min_len(64).try_for_each(|&r| {
        let mut s: Tuple = [0; 8];
        kern.space.unrank(r, &mut s[..kern.space.heaps]);
        store_value(table, r, box_value(kern, table, &s))
    })
}
