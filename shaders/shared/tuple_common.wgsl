// Shared by the kernels over ranked tuples (rect_level.wgsl, delete_level.wgsl):
// the bindings, the colex rank of a nondecreasing tuple of sizes 1..max, the
// mex over a bitset of option values below 256, and that bitset gathered
// from the lanes of a workgroup that share one tuple's options (the CPU
// twins run one lane, which gathers nothing).
// A tuple h0 <= h1 <= ... is the set c_i = h_i - 1 + i, ranked as
// sum of C(c_i, i + 1). CPU twin: src/kernel/tuples/common.rs.
// From Rust (kernel::tuples): WG, MAX_HEAPS, VALUE_WORDS, OVERFLOW.

struct Params {
    // where this level's ranks start in `order` (or `split_order`)
    start: u32,
    count: u32,
    groups_x: u32,
    // the level: the total of every tuple in it
    total: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// game[0]: heaps (or sides), game[1]: the largest size; then the rule's words
@group(0) @binding(1) var<storage, read> game: array<u32>;
// C(a, j) = binom[a * (MAX_HEAPS + 1) + j]
@group(0) @binding(2) var<storage, read> binom: array<u32>;
// every rank, level after level
@group(0) @binding(3) var<storage, read> order: array<u32>;
@group(0) @binding(4) var<storage, read_write> table: array<u32>;
// status[0]: set when a value passed 255; status[1]: that position's rank
@group(0) @binding(5) var<storage, read_write> status: array<atomic<u32>>;

var<private> seen: array<u32, VALUE_WORDS>;

fn binomial(a: u32, j: u32) -> u32 {
    return binom[a * (MAX_HEAPS + 1u) + j];
}

fn rank(h: ptr<function, array<u32, MAX_HEAPS>>, n: u32) -> u32 {
    var r = 0u;
    for (var i = 0u; i < n; i++) {
        r += binomial((*h)[i] - 1u + i, i + 1u);
    }
    return r;
}

fn unrank(rank_in: u32, n: u32, max_size: u32) -> array<u32, MAX_HEAPS> {
    var h: array<u32, MAX_HEAPS>;
    var r = rank_in;
    for (var k = n; k > 0u; k--) {
        let i = k - 1u;
        // the largest c with C(c, i + 1) <= r
        var lo = i;
        var hi = max_size - 1u + i;
        while (lo < hi) {
            let mid = (lo + hi + 1u) / 2u;
            if (binomial(mid, i + 1u) <= r) {
                lo = mid;
            } else {
                hi = mid - 1u;
            }
        }
        r -= binomial(lo, i + 1u);
        h[i] = lo - i + 1u;
    }
    return h;
}

// Sorts the first n entries (n <= 8: insertion sort).
fn sort_tuple(h: ptr<function, array<u32, MAX_HEAPS>>, n: u32) {
    for (var i = 1u; i < n; i++) {
        let x = (*h)[i];
        var j = i;
        while (j > 0u && (*h)[j - 1u] > x) {
            (*h)[j] = (*h)[j - 1u];
            j--;
        }
        (*h)[j] = x;
    }
}

fn clear_seen() {
    for (var i = 0u; i < VALUE_WORDS; i++) {
        seen[i] = 0u;
    }
}

fn mark(v: u32) {
    if (v < 32u * VALUE_WORDS) {
        seen[v >> 5u] |= 1u << (v & 31u);
    }
}

fn mex() -> u32 {
    for (var i = 0u; i < VALUE_WORDS; i++) {
        if (seen[i] != 0xffffffffu) {
            return 32u * i + countTrailingZeros(~seen[i]);
        }
    }
    return OVERFLOW;
}

// The mex, or `no_move` when nothing was marked (a position without a
// move: every option marks its value, all below 256).
fn mex_or(no_move: u32) -> u32 {
    for (var i = 0u; i < VALUE_WORDS; i++) {
        if (seen[i] != 0u) {
            return mex();
        }
    }
    return no_move;
}

// The marks of a workgroup's lanes, ORed.
var<workgroup> gathered: array<atomic<u32>, VALUE_WORDS>;

// Before the workgroup's barrier, with every lane.
fn clear_gathered(lid: u32) {
    if (lid < VALUE_WORDS) {
        atomicStore(&gathered[lid], 0u);
    }
}

// This lane's marks into the workgroup's.
fn gather_seen() {
    for (var w = 0u; w < VALUE_WORDS; w++) {
        if (seen[w] != 0u) {
            atomicOr(&gathered[w], seen[w]);
        }
    }
}

// The mex of the workgroup's marks, after its barrier.
fn gathered_mex() -> u32 {
    for (var i = 0u; i < VALUE_WORDS; i++) {
        let w = atomicLoad(&gathered[i]);
        if (w != 0xffffffffu) {
            return 32u * i + countTrailingZeros(~w);
        }
    }
    return OVERFLOW;
}

fn thread_index(wid: vec3<u32>, lid: u32) -> u32 {
    return (wid.x + wid.y * params.groups_x) * WG + lid;
}

// Stores a position's value, or reports the first value past 255.
fn store_value(r: u32, g: u32) {
    if (g == OVERFLOW) {
        if (atomicMax(&status[0], 1u) == 0u) {
            atomicStore(&status[1], r);
        }
        return;
    }
    table[r] = g;
}
