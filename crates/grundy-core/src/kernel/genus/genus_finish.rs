//! CPU twin of `shaders/genus_finish.wgsl`: the heaps of a block in order,
//! each heap's planes in order. A plane's bitset is what `genus_below`
//! marked, plus the options inside the block (the same plane of a heap
//! m ≥ s, final by then) and the same heap's earlier planes it reads
//! (`plane_deps`). Its value is the mex; a misère plane that marked
//! nothing (a heap with no move, alone) is worth 1. Takes the bitsets,
//! leaving zeros for the next block.

use super::{GenusKernelCode, NORMAL_PLANE, PLANES, Params, below_at};
use crate::kernel::mex::smallest_unmarked;

/// Values the block's heaps in `table`; `Err` names the heap whose value
/// passed what `p.words` words hold (values past 65535).
pub fn genus_finish(
    code: &GenusKernelCode,
    deps: &[u32],
    table: &mut [u32],
    below: &mut [u32],
    p: &Params,
) -> Result<(), u32> {
    let s = p.s;
    let words = p.words;
    let cap = words * 32;
    let mut bits = vec![0u32; words as usize];
    let mut cur = [0u32; PLANES as usize];
    for i in 0..p.b {
        let n = s + i;
        for k in 0..PLANES {
            let mut marked = false;
            for w in 0..words {
                let word = std::mem::take(&mut below[below_at(p, i, k, w)]);
                bits[w as usize] = word;
                marked |= word != 0;
            }
            // Take j, leaving heap m = n - j >= s.
            let take_hi = (n - s).min(p.take_jmax);
            for j in 1..=take_hi {
                if code.allowed(n, j) {
                    let v = table[((n - j) * PLANES + k) as usize];
                    bits[(v >> 5) as usize] |= 1 << (v & 31);
                    marked = true;
                }
            }
            for byte in 0..3 {
                let dep = (deps[k as usize] >> (8 * byte)) & 0xff;
                if dep != 0 {
                    let v = cur[(dep - 1) as usize];
                    bits[(v >> 5) as usize] |= 1 << (v & 31);
                    marked = true;
                }
            }
            let mut v = smallest_unmarked(&bits, cap);
            if v >= cap {
                return Err(n);
            }
            if !marked && k != NORMAL_PLANE {
                v = 1;
            }
            table[(n * PLANES + k) as usize] = v;
            cur[k as usize] = v;
        }
    }
    Ok(())
}
