// One level of an edge game (Mathews, The Game of Arrows on 3-legged spider graphs): every state with `level` marked edges
// gets the mex over its followers (every unmarked edge, either way, when the
// arrow leaves no constrained sink or source). In the Game of Cycles a
// follower that completes a cycle cell wins at once and counts as value 0.
// A state is the base-3 number sum of mark(e) * 3^e (1: u->v, 2: v->u);
// thread t takes the level's k-subset of colex rank t >> k, orienting its
// j-th edge by bit j of t. The table holds one byte per base-3 number, four
// to a word: the value plus one, 0 for a number that is not a state.
// status[0] counts the states. CPU twin: src/kernel/arrows/arrows_level.rs.
// From Rust (kernel::arrows): WG, MAX_EDGES, FACES_PER_EDGE.

struct Params {
    level: u32,
    count: u32,
    groups_x: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// game[0]: edges, game[1]: vertices, game[2]: cycles?, game[3]: the value of a
// state without a follower (0, or 1 under misère play), game[4..13]: section
// offsets
@group(0) @binding(1) var<storage, read> game: array<u32>;
@group(0) @binding(2) var<storage, read_write> table: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;

var<private> marks: array<u32, MAX_EDGES>;
var<workgroup> states_here: atomic<u32>;

fn edges() -> u32 { return game[0]; }
fn end_u(e: u32) -> u32 { return game[game[4] + 2u * e]; }
fn end_v(e: u32) -> u32 { return game[game[4] + 2u * e + 1u]; }
fn pow3(e: u32) -> u32 { return game[game[5] + e]; }
fn inc_start(v: u32) -> u32 { return game[game[6] + v]; }
fn inc(i: u32) -> u32 { return game[game[7] + i]; }
fn constrained(v: u32) -> u32 { return game[game[8] + v]; }
fn edge_face(e: u32, slot: u32) -> u32 { return game[game[9] + e * FACES_PER_EDGE + slot]; }
fn face_start(f: u32) -> u32 { return game[game[10] + f]; }
fn face_edge(i: u32) -> u32 { return game[game[11] + i]; }

fn binomial(a: u32, j: u32) -> u32 {
    if (j > a) {
        return 0u;
    }
    return game[game[12] + a * (edges() + 1u) + j];
}

// Fills `marks` with the state thread t of level k stands for; returns its index.
fn unrank_state(t: u32, k: u32) -> u32 {
    for (var e = 0u; e < MAX_EDGES; e++) {
        marks[e] = 0u;
    }
    var r = t >> k;
    let orient = t & ((1u << k) - 1u);
    var index = 0u;
    var c = edges();
    for (var i = k; i >= 1u; i--) {
        // the largest edge c with C(c, i) <= r: the i-th smallest marked edge
        c--;
        while (binomial(c, i) > r) {
            c--;
        }
        r -= binomial(c, i);
        let mark = 1u + ((orient >> (i - 1u)) & 1u);
        marks[c] = mark;
        index += mark * pow3(c);
    }
    return index;
}

fn tail_of(e: u32, mark: u32) -> u32 {
    if (mark == 1u) {
        return end_u(e);
    }
    return end_v(e);
}

// Every edge at v other than `except` is marked, all pointing away from v
// (`away`) or all towards it.
fn all_others_one_way(v: u32, except: u32, away: bool) -> bool {
    for (var i = inc_start(v); i < inc_start(v + 1u); i++) {
        let e = inc(i);
        if (e == except) {
            continue;
        }
        if (marks[e] == 0u || (tail_of(e, marks[e]) == v) != away) {
            return false;
        }
    }
    return true;
}

fn is_state() -> bool {
    for (var v = 0u; v < game[1]; v++) {
        let degree = inc_start(v + 1u) - inc_start(v);
        if (constrained(v) != 0u && degree > 0u
            && (all_others_one_way(v, 0xffffffffu, true) || all_others_one_way(v, 0xffffffffu, false))) {
            return false;
        }
    }
    return true;
}

fn follower_allowed(e: u32, mark: u32) -> bool {
    let tail = tail_of(e, mark);
    let head = tail_of(e, 3u - mark);
    let source = constrained(tail) != 0u && all_others_one_way(tail, e, true);
    let sink = constrained(head) != 0u && all_others_one_way(head, e, false);
    return !source && !sink;
}

fn completes_face(e: u32, mark: u32) -> bool {
    for (var slot = 0u; slot < FACES_PER_EDGE; slot++) {
        let f = edge_face(e, slot);
        if (f == 0u) {
            continue;
        }
        var forward = true;
        var backward = true;
        for (var i = face_start(f - 1u); i < face_start(f); i++) {
            let fe = face_edge(i) / 4u;
            let want = face_edge(i) % 4u;
            var m = marks[fe];
            if (fe == e) {
                m = mark;
            }
            forward = forward && m == want;
            backward = backward && m == 3u - want;
        }
        if (forward || backward) {
            return true;
        }
    }
    return false;
}

// The value of a follower (a state: its byte is the value plus one).
fn table_get(i: u32) -> u32 {
    return ((atomicLoad(&table[i >> 2u]) >> ((i & 3u) * 8u)) & 255u) - 1u;
}

fn state_value(index: u32) -> u32 {
    var seen = array<u32, 2>(0u, 0u);
    for (var e = 0u; e < edges(); e++) {
        if (marks[e] != 0u) {
            continue;
        }
        for (var mark = 1u; mark <= 2u; mark++) {
            if (!follower_allowed(e, mark)) {
                continue;
            }
            var v = 0u;
            if (game[2] == 0u || !completes_face(e, mark)) {
                v = table_get(index + mark * pow3(e));
            }
            seen[v >> 5u] |= 1u << (v & 31u);
        }
    }
    if ((seen[0] | seen[1]) == 0u) {
        return game[3];
    }
    if (seen[0] != 0xffffffffu) {
        return countTrailingZeros(~seen[0]);
    }
    return 32u + countTrailingZeros(~seen[1]);
}

@compute @workgroup_size(WG)
fn arrows_level(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let t = (wid.x + wid.y * params.groups_x) * WG + lid;
    if (t < params.count) {
        let index = unrank_state(t, params.level);
        if (is_state()) {
            let g = state_value(index);
            atomicOr(&table[index >> 2u], (g + 1u) << ((index & 3u) * 8u));
            atomicAdd(&states_here, 1u);
        }
    }
    workgroupBarrier();
    if (lid == 0u) {
        atomicAdd(&status[0], atomicLoad(&states_here));
    }
}
