//! CPU twin of `shaders/arrows_level.wgsl`: one level of an edge game (the
//! states with k marked edges), from the fullest level down. A state's value
//! is the mex over its followers: every unmarked edge, either way, when the
//! arrow leaves no constrained sink or source; in the Game of Cycles a
//! follower that completes a cycle cell wins at once and counts as value 0
//! (only the outcome is meaningful there). A state without a follower is
//! worth `no_move`: 0, or 1 under misère play.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use crate::kernel::arrows::{ArrowKernel, DENSE_MAX_EDGES, FACES_PER_EDGE};

/// A state as the kernel holds it: the mark of every edge, and its index.
pub type Marks = [u32; DENSE_MAX_EDGES];

/// The state thread t of level k stands for, and its table index.
pub fn unrank_state(kern: &ArrowKernel, t: u64, k: usize) -> (Marks, u32) {
    let mut marks: Marks = [0; DENSE_MAX_EDGES];
    let mut r = (t >> k) as u32;
    let orient = t as u32 & ((1u32 << k) - 1);
    let mut index = 0u32;
    let mut c = kern.edges;
    for i in (1..=k).rev() {
        // the largest edge c with C(c, i) <= r: the i-th smallest marked edge
        c -= 1;
        while kern.binomial(c, i) > r {
            c -= 1;
        }
        r -= kern.binomial(c, i);
        let mark = 1 + ((orient >> (i - 1)) & 1);
        marks[c] = mark;
        index += mark * kern.pow3[c];
    }
    (marks, index)
}

fn tail_of(kern: &ArrowKernel, e: usize, mark: u32) -> u32 {
    if mark == 1 {
        kern.ends[e].0
    } else {
        kern.ends[e].1
    }
}

/// Every edge at v other than `except` is marked, all pointing away from v
/// (`away`) or all towards it.
fn all_others_one_way(
    kern: &ArrowKernel,
    marks: &Marks,
    v: u32,
    except: usize,
    away: bool,
) -> bool {
    for i in kern.inc_start[v as usize]..kern.inc_start[v as usize + 1] {
        let e = kern.inc[i as usize] as usize;
        if e == except {
            continue;
        }
        if marks[e] == 0 || (tail_of(kern, e, marks[e]) == v) != away {
            return false;
        }
    }
    true
}

/// No constrained vertex of the state is a sink or a source.
pub fn is_state(kern: &ArrowKernel, marks: &Marks) -> bool {
    for v in 0..kern.n as u32 {
        let degree = kern.inc_start[v as usize + 1] - kern.inc_start[v as usize];
        if kern.constrained[v as usize] != 0
            && degree > 0
            && (all_others_one_way(kern, marks, v, usize::MAX, true)
                || all_others_one_way(kern, marks, v, usize::MAX, false))
        {
            return false;
        }
    }
    true
}

/// Marking edge e with `mark` leaves no constrained sink or source.
pub fn follower_allowed(kern: &ArrowKernel, marks: &Marks, e: usize, mark: u32) -> bool {
    let tail = tail_of(kern, e, mark);
    let head = tail_of(kern, e, 3 - mark);
    let source =
        kern.constrained[tail as usize] != 0 && all_others_one_way(kern, marks, tail, e, true);
    let sink =
        kern.constrained[head as usize] != 0 && all_others_one_way(kern, marks, head, e, false);
    !source && !sink
}

/// Marking edge e with `mark` completes a face running one way round.
pub fn completes_face(kern: &ArrowKernel, marks: &Marks, e: usize, mark: u32) -> bool {
    for slot in 0..FACES_PER_EDGE {
        let f = kern.edge_faces[e][slot];
        if f == 0 {
            continue;
        }
        let (mut forward, mut backward) = (true, true);
        for i in kern.face_start[f as usize - 1]..kern.face_start[f as usize] {
            let fe = (kern.face_edges[i as usize] / 4) as usize;
            let want = kern.face_edges[i as usize] % 4;
            let m = if fe == e { mark } else { marks[fe] };
            forward = forward && m == want;
            backward = backward && m == 3 - want;
        }
        if forward || backward {
            return true;
        }
    }
    false
}

/// The value of a follower (a state: its byte is the value plus one).
fn table_get(table: &[AtomicU8], i: u32) -> u32 {
    table[i as usize].load(Ordering::Relaxed) as u32 - 1
}

/// The mex over the followers of a state.
pub fn state_value(kern: &ArrowKernel, table: &[AtomicU8], marks: &Marks, index: u32) -> u32 {
    let mut seen = [0u32; 2];
    for e in 0..kern.edges {
        if marks[e] != 0 {
            continue;
        }
        for mark in 1..=2 {
            if !follower_allowed(kern, marks, e, mark) {
                continue;
            }
            let v = if kern.cycles && completes_face(kern, marks, e, mark) {
                0
            } else {
                table_get(table, index + mark * kern.pow3[e])
            };
            seen[(v >> 5) as usize] |= 1 << (v & 31);
        }
    }
    if seen == [0, 0] {
        kern.no_move
    } else if seen[0] != u32::MAX {
        (!seen[0]).trailing_zeros()
    } else {
        32 + (!seen[1]).trailing_zeros()
    }
}

/// Values every state of level k (bytes stay 0 where a number is not a
/// state); returns how many states the level has.
pub fn arrows_level(kern: &ArrowKernel, table: &[AtomicU8], k: usize) -> u64 {
    const RUN: u64 = 1024;
    let count = kern.level_size(k);
    (0..count.div_ceil(RUN))
        .into_par_iter()
        .map(|run| {
            let mut states = 0;
            for t in run * RUN..((run + 1) * RUN).min(count) {
                let (marks, index) = unrank_state(kern, t, k);
                if is_state(kern, &marks) {
                    let g = state_value(kern, table, &marks, index);
                    table[index as usize].store(g as u8 + 1, Ordering::Relaxed);
                    states += 1;
                }
            }
            states
        })
        .sum()
}
