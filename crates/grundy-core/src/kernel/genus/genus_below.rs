//! CPU twin of `shaders/genus_below.wgsl`: for one heap n = s + i of a
//! block and one slice of its takes, every option below the block (a heap
//! m < s, where the table is final) marked in each plane's bitset.
//!
//! The shader ORs into `below` at `below_at(p, i, k, w)`; the twin is handed
//! the heap's own bitsets (`PLANES` of `p.words` words, the same layout from
//! its plane 0), so that heaps run in parallel on the CPU as on the card.

use super::{GenusKernelCode, PLANES, Params, SLICE};

/// Marks, in `heap_bits`, heap `s + i`'s options below the block among the
/// takes of `slice`.
pub fn genus_below(
    code: &GenusKernelCode,
    table: &[u32],
    heap_bits: &mut [u32],
    p: &Params,
    (i, slice): (u32, u32),
) {
    let s = p.s;
    let n = s + i;
    // Take j, leaving heap m = n - j < s (nothing when m = 0).
    let take_lo = n - s + 1 + slice * SLICE;
    let take_hi = n.min(p.take_jmax).min(take_lo.saturating_add(SLICE - 1));
    for j in take_lo..=take_hi {
        if !code.allowed(n, j) {
            continue;
        }
        let m = n - j;
        for k in 0..PLANES {
            let v = table[(m * PLANES + k) as usize];
            heap_bits[(k * p.words + (v >> 5)) as usize] |= 1 << (v & 31);
        }
    }
}
