// One level of a graph octal game: every subset of `level` vertices (by its
// colex rank, one per invocation) gets its value. A disconnected position is
// its first component's value xor the rest's (both in earlier levels) under
// normal play; a connected one is the mex of the positions left by removing
// a connected set of i vertices (Wernicke's ESU walk, with an explicit
// stack), when digit i allows the number of pieces left. Under misère play
// (graph.no_move = 1) a disconnected position is the mex over the moves of
// every component (sum_value), and a position without a move is worth 1.
// Vertex sets are u64 masks held as vec2<u32> (x: vertices 0-31, y: 32-63).
// The table holds one byte per mask, four to a word, over eight chunks: the
// value in bits 0-6, bit 7 set when the position is connected.
// CPU twin: src/kernel/graph/graph_level.rs.
// From Rust (kernel::graph): WG, MAX_TAKE, BINOM_DIM, MAX_VALUE, VALUE_BITS,
// CONNECTED, OVERFLOW.

struct GraphData {
    // adj(v) = adj[v / 2].xy or .zw
    adj: array<vec4<u32>, 32>,
    // C(c, i) = binom[(c * BINOM_DIM + i) / 4][(c * BINOM_DIM + i) % 4]
    binom: array<vec4<u32>, 307>,
    // digit i = digits[i / 4][i % 4]
    digits: array<vec4<u32>, 17>,
    n: u32,
    max_take: u32,
    chunk_shift: u32,
    // 0, or 1 under misère play
    no_move: u32,
}

struct Params {
    level: u32,
    count: u32,
    groups_x: u32,
    pad: u32,
}

// A storage buffer, not a uniform one: every thread reads it at its own
// vertices and binomials, and NVIDIA serves a uniform buffer read at
// different addresses within a warp one address at a time.
@group(0) @binding(1) var<storage, read> graph: GraphData;
@group(0) @binding(0) var<uniform> params: Params;
// status[0]: set when a value overflowed a byte; status[1..3]: that mask
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> t0: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> t1: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> t2: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> t3: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> t4: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> t5: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read_write> t6: array<atomic<u32>>;
@group(0) @binding(10) var<storage, read_write> t7: array<atomic<u32>>;

fn adj(v: u32) -> vec2<u32> {
    let a = graph.adj[v >> 1u];
    if ((v & 1u) == 0u) {
        return a.xy;
    }
    return a.zw;
}

fn binomial(c: u32, i: u32) -> u32 {
    if (i > c) {
        return 0u;
    }
    let k = c * BINOM_DIM + i;
    return graph.binom[k >> 2u][k & 3u];
}

fn digit(i: u32) -> u32 {
    return graph.digits[i >> 2u][i & 3u];
}

fn is_zero(m: vec2<u32>) -> bool {
    return (m.x | m.y) == 0u;
}

fn lowest(m: vec2<u32>) -> u32 {
    if (m.x != 0u) {
        return countTrailingZeros(m.x);
    }
    return 32u + countTrailingZeros(m.y);
}

fn drop_lowest(m: vec2<u32>) -> vec2<u32> {
    if (m.x != 0u) {
        return vec2<u32>(m.x & (m.x - 1u), m.y);
    }
    return vec2<u32>(0u, m.y & (m.y - 1u));
}

fn lowest_bit(m: vec2<u32>) -> vec2<u32> {
    return m & ~drop_lowest(m);
}

fn bit(v: u32) -> vec2<u32> {
    if (v < 32u) {
        return vec2<u32>(1u << v, 0u);
    }
    return vec2<u32>(0u, 1u << (v - 32u));
}

// Vertices above v.
fn above(v: u32) -> vec2<u32> {
    let through = v + 1u;
    if (through >= 64u) {
        return vec2<u32>(0u, 0u);
    }
    if (through >= 32u) {
        return vec2<u32>(0u, ~((1u << (through - 32u)) - 1u));
    }
    return vec2<u32>(~((1u << through) - 1u), 0xffffffffu);
}

fn table_word(m: vec2<u32>) -> u32 {
    return (m.x >> 2u) | (m.y << 30u);
}

fn table_get(m: vec2<u32>) -> u32 {
    let word = table_word(m);
    let chunk = word >> graph.chunk_shift;
    let i = word & ((1u << graph.chunk_shift) - 1u);
    var w = 0u;
    switch chunk {
        case 0u: { w = atomicLoad(&t0[i]); }
        case 1u: { w = atomicLoad(&t1[i]); }
        case 2u: { w = atomicLoad(&t2[i]); }
        case 3u: { w = atomicLoad(&t3[i]); }
        case 4u: { w = atomicLoad(&t4[i]); }
        case 5u: { w = atomicLoad(&t5[i]); }
        case 6u: { w = atomicLoad(&t6[i]); }
        default: { w = atomicLoad(&t7[i]); }
    }
    return (w >> ((m.x & 3u) * 8u)) & 255u;
}

fn table_set(m: vec2<u32>, g: u32) {
    let word = table_word(m);
    let chunk = word >> graph.chunk_shift;
    let i = word & ((1u << graph.chunk_shift) - 1u);
    let v = g << ((m.x & 3u) * 8u);
    switch chunk {
        case 0u: { atomicOr(&t0[i], v); }
        case 1u: { atomicOr(&t1[i], v); }
        case 2u: { atomicOr(&t2[i], v); }
        case 3u: { atomicOr(&t3[i], v); }
        case 4u: { atomicOr(&t4[i], v); }
        case 5u: { atomicOr(&t5[i], v); }
        case 6u: { atomicOr(&t6[i], v); }
        default: { atomicOr(&t7[i], v); }
    }
}

fn neighbours(vertices: vec2<u32>, within: vec2<u32>) -> vec2<u32> {
    var acc = vec2<u32>(0u, 0u);
    var s = vertices;
    while (!is_zero(s)) {
        acc |= adj(lowest(s));
        s = drop_lowest(s);
    }
    return acc & within;
}

// The component of `mask` holding the lowest vertex of `start`.
fn component(mask: vec2<u32>, start: vec2<u32>) -> vec2<u32> {
    var comp = lowest_bit(start);
    var frontier = comp;
    while (!is_zero(frontier)) {
        let grown = neighbours(frontier, mask) & ~comp;
        comp |= grown;
        frontier = grown;
    }
    return comp;
}

// Components of `rest`, counted up to 3 (no digit allows more than 2).
fn count_pieces(rest: vec2<u32>) -> u32 {
    var left = rest;
    var pieces = 0u;
    while (!is_zero(left) && pieces < 3u) {
        left &= ~component(left, left);
        pieces += 1u;
    }
    return pieces;
}

var<private> seen: array<u32, 4>;

// Whether digit d allows the pieces `rest` falls into, `rest` being what a
// move leaves of the component it was played in and `entry` its table byte.
fn pieces_allowed(rest: vec2<u32>, entry: u32, d: u32) -> bool {
    var pieces = 3u;
    if (is_zero(rest)) {
        pieces = 0u;
    } else if ((entry & CONNECTED) != 0u) {
        pieces = 1u;
    } else if ((d & 4u) != 0u) {
        pieces = count_pieces(rest);
    }
    return pieces < 3u && ((d >> pieces) & 1u) == 1u;
}

fn mark(entry: u32) {
    let g = entry & VALUE_BITS;
    seen[g >> 5u] |= 1u << (g & 31u);
}

// Removes `chosen` from the component `mask`, the rest of the position being
// `others` (none but under misère play): the pieces are read from what is
// left of the component, the value from what is left of the position.
fn play_move(mask: vec2<u32>, others: vec2<u32>, chosen: vec2<u32>, d: u32) {
    let rest = mask & ~chosen;
    let entry = table_get(rest);
    if (pieces_allowed(rest, entry, d)) {
        if (is_zero(others)) {
            mark(entry);
        } else {
            mark(table_get(rest | others));
        }
    }
}

// Every connected set of `size` vertices inside the component `mask`,
// played (ESU).
fn mark_options(mask: vec2<u32>, others: vec2<u32>, size: u32) {
    let d = digit(size);
    var sub: array<vec2<u32>, MAX_TAKE>;
    var closed: array<vec2<u32>, MAX_TAKE>;
    var ext: array<vec2<u32>, MAX_TAKE>;
    var vs = mask;
    while (!is_zero(vs)) {
        let v = lowest(vs);
        vs = drop_lowest(vs);
        let up = above(v);
        if (size == 1u) {
            play_move(mask, others, bit(v), d);
            continue;
        }
        sub[0] = bit(v);
        closed[0] = adj(v) | bit(v);
        ext[0] = adj(v) & mask & up;
        var k = 0u;
        loop {
            if (is_zero(ext[k])) {
                if (k == 0u) {
                    break;
                }
                k -= 1u;
                continue;
            }
            let w = lowest(ext[k]);
            ext[k] = drop_lowest(ext[k]);
            let next = sub[k] | bit(w);
            if (k + 2u == size) {
                play_move(mask, others, next, d);
            } else {
                sub[k + 1u] = next;
                closed[k + 1u] = closed[k] | adj(w);
                ext[k + 1u] = ext[k] | (adj(w) & mask & up & ~closed[k]);
                k += 1u;
            }
        }
    }
}

fn mex() -> u32 {
    for (var i = 0u; i < 4u; i++) {
        if (seen[i] != 0xffffffffu) {
            return 32u * i + countTrailingZeros(~seen[i]);
        }
    }
    return 128u;
}

// The value of a position from the values its moves reach: their mex, or
// graph.no_move when it has no move (OVERFLOW past MAX_VALUE).
fn value_of() -> u32 {
    var g = graph.no_move;
    if ((seen[0] | seen[1] | seen[2] | seen[3]) != 0u) {
        g = mex();
    }
    if (g > MAX_VALUE) {
        return OVERFLOW;
    }
    return g;
}

fn position_value(mask: vec2<u32>) -> u32 {
    let first = component(mask, mask);
    if (any(first != mask)) {
        if (graph.no_move == 1u) {
            return sum_value(mask);
        }
        let v = table_get(first) ^ table_get(mask & ~first);
        return v & VALUE_BITS;
    }
    return connected_value(mask);
}

fn clear_seen() {
    for (var i = 0u; i < 4u; i++) {
        seen[i] = 0u;
    }
}

// The misère value of a disconnected position: the mex over the moves of
// every component.
fn sum_value(mask: vec2<u32>) -> u32 {
    clear_seen();
    var left = mask;
    while (!is_zero(left)) {
        let comp = component(left, left);
        left &= ~comp;
        let others = mask & ~comp;
        let size_here = countOneBits(comp.x) + countOneBits(comp.y);
        for (var size = 1u; size <= graph.max_take; size++) {
            if (digit(size) != 0u && size <= size_here) {
                mark_options(comp, others, size);
            }
        }
    }
    return value_of();
}

// The table byte of a connected position: the mex over its moves.
fn connected_value(mask: vec2<u32>) -> u32 {
    clear_seen();
    let size_here = countOneBits(mask.x) + countOneBits(mask.y);
    for (var size = 1u; size <= graph.max_take; size++) {
        if (digit(size) != 0u && size <= size_here) {
            mark_options(mask, vec2<u32>(0u, 0u), size);
        }
    }
    let g = value_of();
    if (g == OVERFLOW) {
        return OVERFLOW;
    }
    return g | CONNECTED;
}

// The rank-th subset of `level` vertices in colex order.
fn unrank(rank_in: u32, level: u32) -> vec2<u32> {
    var rank = rank_in;
    var mask = vec2<u32>(0u, 0u);
    var c = graph.n;
    for (var i = level; i >= 1u; i--) {
        c -= 1u;
        while (binomial(c, i) > rank) {
            c -= 1u;
        }
        mask |= bit(c);
        rank -= binomial(c, i);
    }
    return mask;
}

@compute @workgroup_size(WG)
fn graph_level(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let t = (wid.x + wid.y * params.groups_x) * WG + lid;
    if (t >= params.count) {
        return;
    }
    let mask = unrank(t, params.level);
    let g = position_value(mask);
    if (g == OVERFLOW) {
        if (atomicMax(&status[0], 1u) == 0u) {
            atomicStore(&status[1], mask.x);
            atomicStore(&status[2], mask.y);
        }
        return;
    }
    table_set(mask, g);
}
