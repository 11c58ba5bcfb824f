// One level of Grundy's game on rectangles or boxes (Schrage, A two-dimensional generalization of Grundy's game): every box
// whose sides sum to params.total gets its value, the mex over its cuts of
// the xor of the two pieces (both in earlier levels), a workgroup per box.
// A side s is cut into i and s - i when s - 2i >= min_diff. Sides are a
// ranked nondecreasing tuple (tuple_common.wgsl). CPU twin:
// src/kernel/tuples/rect_level.rs.
// import tuple_common

// game[0]: dimensions (2 or 3), game[1]: the largest side, game[2]: min_diff

// The sides `s` with side d replaced by v <= s[d], kept sorted.
fn with_side(s: ptr<function, array<u32, MAX_HEAPS>>, dims: u32, d: u32, v: u32) -> array<u32, MAX_HEAPS> {
    var p = *s;
    p[d] = v;
    sort_tuple(&p, dims);
    return p;
}

// Marks the xor of the two pieces of each cut of box s, or of those, the
// ones whose place among their side's cuts is `lane` modulo `lanes`: the
// lanes of a workgroup share one box's cuts, and look up at once.
fn mark_cuts(s: ptr<function, array<u32, MAX_HEAPS>>, lane: u32, lanes: u32) {
    let dims = game[0];
    let min_diff = game[2];
    for (var d = 0u; d < dims; d++) {
        if (d > 0u && (*s)[d] == (*s)[d - 1u]) {
            continue; // the same cuts as the side before
        }
        let side = (*s)[d];
        var cuts = 0u;
        if (side > min_diff) {
            cuts = (side - min_diff) / 2u;
        }
        for (var i = 1u + lane; i <= cuts; i += lanes) {
            var a = with_side(s, dims, d, i);
            var b = with_side(s, dims, d, side - i);
            mark(table[rank(&a, dims)] ^ table[rank(&b, dims)]);
        }
    }
}

// A workgroup per box of the level (one thread walking its cuts waits on
// each look-up in turn), its lanes' marks ORed in `gathered`.
@compute @workgroup_size(WG)
fn rect_level(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let t = wid.x + wid.y * params.groups_x;
    clear_gathered(lid);
    workgroupBarrier();
    var r = 0u;
    if (t < params.count) {
        r = order[params.start + t];
        var s = unrank(r, game[0], game[1]);
        clear_seen();
        mark_cuts(&s, lid, WG);
        gather_seen();
    }
    workgroupBarrier();
    if (t < params.count && lid == 0u) {
        store_value(r, gathered_mex());
    }
}
