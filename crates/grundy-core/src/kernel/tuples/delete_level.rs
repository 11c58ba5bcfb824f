//! CPU twin of `shaders/delete_level.wgsl`: one level of a Delete Nim rule
//! (Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim). A move deletes `delete` heaps and splits `split` of the others
//! into `parts` non-empty heaps each (the rest are kept). Heaps of equal size
//! play the same role in one order only.
//!
//! A move kind that keeps no heap depends only on the heaps it splits, a
//! tuple S: its option values are gathered once per S (`split_sets_level`,
//! right after the level of S's total) and a position ORs in the sets of its
//! sub-tuples.

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::common::{Overflow, Seen, Tuple, sort_tuple, store_value, table_get};
use crate::kernel::tuples::{DELETE, KEEP, SPLIT, TupleKernel, VALUE_WORDS};

fn first_partition(a: &mut Tuple, at: usize, p: usize, z: u32) {
    for j in 0..p - 1 {
        a[at + j] = 1;
    }
    a[at + p - 1] = z - (p as u32 - 1);
}

/// The next nondecreasing p parts summing to z, in lexicographic order.
fn next_partition(a: &mut Tuple, at: usize, p: usize, z: u32) -> bool {
    let mut prefix: u32 = a[at..at + p - 1].iter().sum();
    for i in (0..p - 1).rev() {
        prefix -= a[at + i];
        let v = a[at + i] + 1;
        let need = prefix + v * (p - 1 - i) as u32;
        if z >= need + v {
            for j in i..p - 1 {
                a[at + j] = v;
            }
            a[at + p - 1] = z - need;
            return true;
        }
    }
    false
}

/// The next split of the heaps `z` into p parts each (an odometer, the last
/// heap's fastest); false after the last.
fn next_split(parts: &mut Tuple, z: &[u32], p: usize) -> bool {
    let mut t = z.len();
    while t > 0 {
        t -= 1;
        if next_partition(parts, t * p, p, z[t]) {
            return true;
        }
        first_partition(parts, t * p, p, z[t]);
    }
    false
}

/// Marks every option that keeps `kept` and splits each heap of `z` into
/// p, or of those, the ones whose place in the walk is `lane` modulo
/// `lanes`: the shader's lanes of a workgroup share one tuple's options,
/// and pass the others' before each look-up so that they all look up at
/// once (here one lane takes them all).
fn mark_splits(
    kern: &TupleKernel,
    table: &[AtomicU32],
    seen: &mut Seen,
    (kept, z, p): (&[u32], &[u32], usize),
    (lane, lanes): (u32, u32),
) {
    let n = kern.space.heaps;
    let (nkept, s) = (kept.len(), z.len());
    let mut parts: Tuple = [0; 8];
    for (t, &zt) in z.iter().enumerate() {
        first_partition(&mut parts, t * p, p, zt);
    }
    let mut skip = lane;
    loop {
        while skip > 0 {
            if !next_split(&mut parts, z, p) {
                return;
            }
            skip -= 1;
        }
        let mut o: Tuple = [0; 8];
        o[..nkept].copy_from_slice(kept);
        o[nkept..nkept + s * p].copy_from_slice(&parts[..s * p]);
        sort_tuple(&mut o, n);
        seen.mark(table_get(table, kern.space.rank(&o[..n])));
        if !next_split(&mut parts, z, p) {
            return;
        }
        skip = lanes - 1;
    }
}

/// Roles in ascending order: split, keep, delete.
fn first_roles(split: usize, keep: usize, n: usize) -> Tuple {
    let mut r: Tuple = [0; 8];
    for (i, role) in r.iter_mut().enumerate().take(n) {
        *role = if i < split {
            SPLIT
        } else if i < split + keep {
            KEEP
        } else {
            DELETE
        };
    }
    r
}

fn next_roles(r: &mut Tuple, n: usize) -> bool {
    let mut i = n - 1;
    while i > 0 && r[i - 1] >= r[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = n - 1;
    while r[j] <= r[i - 1] {
        j -= 1;
    }
    r.swap(i - 1, j);
    r[i..n].reverse();
    true
}

/// One order per multiset of roles, and every split heap can be split into p.
fn roles_useful(h: &Tuple, r: &Tuple, n: usize, p: u32) -> bool {
    for i in 0..n {
        if i > 0 && h[i] == h[i - 1] && r[i] < r[i - 1] {
            return false;
        }
        if r[i] == SPLIT && h[i] < p {
            return false;
        }
    }
    true
}

/// The heaps with role `role`, in order; returns how many.
fn gather(h: &Tuple, r: &Tuple, n: usize, role: u32, out: &mut Tuple) -> usize {
    let mut c = 0;
    for i in 0..n {
        if r[i] == role {
            out[c] = h[i];
            c += 1;
        }
    }
    c
}

pub fn position_value(
    kern: &TupleKernel,
    table: &[AtomicU32],
    split_sets: &[AtomicU32],
    h: &Tuple,
) -> u32 {
    let n = kern.space.heaps;
    let mut seen = Seen::default();
    if let Some((kind, sets)) = &kern.split_sets {
        let set_split = kind.split as usize;
        let mut r = first_roles(set_split, 0, n);
        loop {
            if roles_useful(h, &r, n, kind.parts) {
                let mut z: Tuple = [0; 8];
                gather(h, &r, n, SPLIT, &mut z);
                let at = sets.rank(&z[..set_split]) as usize * VALUE_WORDS;
                for w in 0..VALUE_WORDS {
                    seen.0[w] |= split_sets[at + w].load(Ordering::Relaxed);
                }
            }
            if !next_roles(&mut r, n) {
                break;
            }
        }
    }
    for kind in &kern.walked {
        let (deleted, split, parts) = (kind.delete as usize, kind.split as usize, kind.parts);
        let mut r = first_roles(split, n - deleted - split, n);
        loop {
            if roles_useful(h, &r, n, parts) {
                let mut z: Tuple = [0; 8];
                let mut kept: Tuple = [0; 8];
                gather(h, &r, n, SPLIT, &mut z);
                let nkept = gather(h, &r, n, KEEP, &mut kept);
                let options = (&kept[..nkept], &z[..split], parts as usize);
                mark_splits(kern, table, &mut seen, options, (0, 1));
            }
            if !next_roles(&mut r, n) {
                break;
            }
        }
    }
    seen.mex_or(kern.convention.no_move_value())
}

/// Values every position of one level (`ranks`).
pub fn delete_level(
    kern: &TupleKernel,
    table: &[AtomicU32],
    split_sets: &[AtomicU32],
    ranks: &[u32],
) -> Result<(), Overflow> {
    ranks.par_iter().with_min_len(16).try_for_each(|&r| {
        let mut h: Tuple = [0; 8];
        kern.space.unrank(r, &mut h[..kern.space.heaps]);
        store_value(table, r, position_value(kern, table, split_sets, &h))
    })
}

/// The option values of splitting each heap of S (the split tuples `ranks`
/// of one level) into the held kind's parts, for the positions that hold S
/// (the shader gives each S a workgroup whose lanes share its options).
pub fn split_sets_level(
    kern: &TupleKernel,
    table: &[AtomicU32],
    split_sets: &[AtomicU32],
    ranks: &[u32],
) {
    let Some((kind, sets)) = &kern.split_sets else {
        return;
    };
    let (s, p) = (kind.split as usize, kind.parts);
    ranks.par_iter().with_min_len(16).for_each(|&r| {
        let mut z: Tuple = [0; 8];
        sets.unrank(r, &mut z[..s]);
        let mut seen = Seen::default();
        if z[0] >= p {
            mark_splits(kern, table, &mut seen, (&[], &z[..s], p as usize), (0, 1));
        }
        for w in 0..VALUE_WORDS {
            split_sets[r as usize * VALUE_WORDS + w].store(seen.0[w], Ordering::Relaxed);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::delete_nim::{DeleteNim, Rule};
    use crate::kernel::tuples::common::random_table;

    /// The lanes of a workgroup, each marking every `lanes`-th option of a
    /// split tuple, mark between them what one lane marks alone.
    #[test]
    fn lanes_sharing_a_tuples_options_mark_what_one_lane_marks() {
        for (rule, heaps) in [(Rule::Abo, 4), (Rule::Nmth, 4), (Rule::Vdn, 2)] {
            let game = DeleteNim::new(rule, heaps, None).unwrap();
            let kern = TupleKernel::delete_nim(game, 24, true).unwrap();
            let (kind, sets) = kern.split_sets.as_ref().unwrap();
            let table = random_table(kern.space.count(), 0x9e37_79b9);
            let (s, p) = (kind.split as usize, kind.parts as usize);
            for r in 0..sets.count() as u32 {
                let mut z: Tuple = [0; 8];
                sets.unrank(r, &mut z[..s]);
                if z[0] < p as u32 {
                    continue;
                }
                let options = (&[][..], &z[..s], p);
                let mut alone = Seen::default();
                mark_splits(&kern, &table, &mut alone, options, (0, 1));
                for lanes in [2, 5, 64] {
                    let mut shared = Seen::default();
                    for lane in 0..lanes {
                        let mut seen = Seen::default();
                        mark_splits(&kern, &table, &mut seen, options, (lane, lanes));
                        for (all, w) in shared.0.iter_mut().zip(seen.0) {
                            *all |= w;
                        }
                    }
                    assert_eq!(shared.0, alone.0, "{rule:?} {:?} in {lanes} lanes", &z[..s]);
                }
            }
        }
    }
}
