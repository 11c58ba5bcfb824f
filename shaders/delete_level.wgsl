// One level of a Delete Nim rule (Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim): every nondecreasing tuple of n
// heaps whose total is params.total gets the mex of its options. A move
// deletes `delete` heaps and splits `split` of the others into `parts`
// non-empty heaps each (the rest are kept), so an option has n heaps again
// and a smaller total. Heaps of equal size play the same role in one order
// only (roles never decrease along a run of equal heaps).
//
// A move kind that keeps no heap depends only on the heaps it splits, a
// tuple S of `split` sizes: the values of its options are gathered once per
// S (split_sets, right after the level of S's total) and a position ORs in
// the sets of its sub-tuples instead of splitting them again.
// CPU twin: src/kernel/tuples/delete_level.rs.
// import tuple_common

// game[0]: heaps, game[1]: the largest heap, game[2]: how many move kinds are
// walked one option at a time, game[3]: split of the kind held in split sets
// (0: none), game[4]: its parts, game[5]: the value of a position without a
// move (0, or 1 under misère play), game[6 + 3k ..]: delete, split, parts of
// kind k.
// A heap's role, from Rust (kernel::tuples::delete_level): SPLIT, KEEP, DELETE.

// every rank of the split-set tuples, level after level
@group(0) @binding(6) var<storage, read> split_order: array<u32>;
// the option values of splitting tuple S, VALUE_WORDS words at rank(S)
@group(0) @binding(7) var<storage, read_write> split_sets: array<u32>;

fn first_partition(a: ptr<function, array<u32, MAX_HEAPS>>, at: u32, p: u32, z: u32) {
    for (var j = 0u; j + 1u < p; j++) {
        (*a)[at + j] = 1u;
    }
    (*a)[at + p - 1u] = z - (p - 1u);
}

// The next nondecreasing p parts summing to z, in lexicographic order.
fn next_partition(a: ptr<function, array<u32, MAX_HEAPS>>, at: u32, p: u32, z: u32) -> bool {
    var prefix = 0u;
    for (var j = 0u; j + 1u < p; j++) {
        prefix += (*a)[at + j];
    }
    for (var k = p - 1u; k > 0u; k--) {
        let i = k - 1u;
        prefix -= (*a)[at + i];
        let v = (*a)[at + i] + 1u;
        let need = prefix + v * (p - 1u - i);
        if (z >= need + v) {
            for (var j = i; j + 1u < p; j++) {
                (*a)[at + j] = v;
            }
            (*a)[at + p - 1u] = z - need;
            return true;
        }
    }
    return false;
}

// The next split of the s heaps z into p parts each (an odometer, the last
// heap's fastest); false after the last.
fn next_split(parts: ptr<function, array<u32, MAX_HEAPS>>,
              z: ptr<function, array<u32, MAX_HEAPS>>, s: u32, p: u32) -> bool {
    var t = s;
    while (t > 0u) {
        t--;
        if (next_partition(parts, t * p, p, (*z)[t])) {
            return true;
        }
        first_partition(parts, t * p, p, (*z)[t]);
    }
    return false;
}

// Marks every option that keeps `kept` and splits each of the s heaps z into
// p, or of those, the ones whose place in the walk is `lane` modulo `lanes`:
// the lanes of a workgroup share one tuple's options, and pass the others'
// before each look-up so that they all look up at once.
fn mark_splits(kept: ptr<function, array<u32, MAX_HEAPS>>, nkept: u32,
               z: ptr<function, array<u32, MAX_HEAPS>>, s: u32, p: u32,
               lane: u32, lanes: u32) {
    let n = game[0];
    var parts: array<u32, MAX_HEAPS>;
    for (var t = 0u; t < s; t++) {
        first_partition(&parts, t * p, p, (*z)[t]);
    }
    var skip = lane;
    loop {
        while (skip > 0u) {
            if (!next_split(&parts, z, s, p)) {
                return;
            }
            skip--;
        }
        var o: array<u32, MAX_HEAPS>;
        for (var j = 0u; j < nkept; j++) {
            o[j] = (*kept)[j];
        }
        for (var j = 0u; j < s * p; j++) {
            o[nkept + j] = parts[j];
        }
        sort_tuple(&o, n);
        mark(table[rank(&o, n)]);
        if (!next_split(&parts, z, s, p)) {
            return;
        }
        skip = lanes - 1u;
    }
}

// Roles in ascending order: split, keep, delete.
fn first_roles(split: u32, keep: u32, n: u32) -> array<u32, MAX_HEAPS> {
    var r: array<u32, MAX_HEAPS>;
    for (var i = 0u; i < n; i++) {
        if (i < split) {
            r[i] = SPLIT;
        } else if (i < split + keep) {
            r[i] = KEEP;
        } else {
            r[i] = DELETE;
        }
    }
    return r;
}

fn next_roles(r: ptr<function, array<u32, MAX_HEAPS>>, n: u32) -> bool {
    var i = n - 1u;
    while (i > 0u && (*r)[i - 1u] >= (*r)[i]) {
        i--;
    }
    if (i == 0u) {
        return false;
    }
    var j = n - 1u;
    while ((*r)[j] <= (*r)[i - 1u]) {
        j--;
    }
    let x = (*r)[i - 1u];
    (*r)[i - 1u] = (*r)[j];
    (*r)[j] = x;
    var lo = i;
    var hi = n - 1u;
    while (lo < hi) {
        let y = (*r)[lo];
        (*r)[lo] = (*r)[hi];
        (*r)[hi] = y;
        lo++;
        hi--;
    }
    return true;
}

// One order per multiset of roles, and every split heap can be split into p.
fn roles_useful(h: ptr<function, array<u32, MAX_HEAPS>>, r: ptr<function, array<u32, MAX_HEAPS>>,
                n: u32, p: u32) -> bool {
    for (var i = 0u; i < n; i++) {
        if (i > 0u && (*h)[i] == (*h)[i - 1u] && (*r)[i] < (*r)[i - 1u]) {
            return false;
        }
        if ((*r)[i] == SPLIT && (*h)[i] < p) {
            return false;
        }
    }
    return true;
}

// The heaps with role `role`, in order; returns how many.
fn gather(h: ptr<function, array<u32, MAX_HEAPS>>, r: ptr<function, array<u32, MAX_HEAPS>>,
          n: u32, role: u32, out: ptr<function, array<u32, MAX_HEAPS>>) -> u32 {
    var c = 0u;
    for (var i = 0u; i < n; i++) {
        if ((*r)[i] == role) {
            (*out)[c] = (*h)[i];
            c++;
        }
    }
    return c;
}

fn position_value(h: ptr<function, array<u32, MAX_HEAPS>>) -> u32 {
    let n = game[0];
    clear_seen();
    let set_split = game[3];
    if (set_split > 0u) {
        var r = first_roles(set_split, 0u, n);
        loop {
            if (roles_useful(h, &r, n, game[4])) {
                var z: array<u32, MAX_HEAPS>;
                gather(h, &r, n, SPLIT, &z);
                let at = rank(&z, set_split) * VALUE_WORDS;
                for (var w = 0u; w < VALUE_WORDS; w++) {
                    seen[w] |= split_sets[at + w];
                }
            }
            if (!next_roles(&r, n)) {
                break;
            }
        }
    }
    for (var k = 0u; k < game[2]; k++) {
        let deleted = game[6u + 3u * k];
        let split = game[7u + 3u * k];
        let parts = game[8u + 3u * k];
        var r = first_roles(split, n - deleted - split, n);
        loop {
            if (roles_useful(h, &r, n, parts)) {
                var z: array<u32, MAX_HEAPS>;
                var kept: array<u32, MAX_HEAPS>;
                gather(h, &r, n, SPLIT, &z);
                let nkept = gather(h, &r, n, KEEP, &kept);
                mark_splits(&kept, nkept, &z, split, parts, 0u, 1u);
            }
            if (!next_roles(&r, n)) {
                break;
            }
        }
    }
    return mex_or(game[5]);
}

@compute @workgroup_size(WG)
fn delete_level(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let t = thread_index(wid, lid);
    if (t >= params.count) {
        return;
    }
    let r = order[params.start + t];
    var h = unrank(r, game[0], game[1]);
    store_value(r, position_value(&h));
}

// The option values of splitting each heap of S (split sizes whose total is
// params.total) into game[4] parts, for the positions that hold S: a
// workgroup per tuple S, its lanes sharing S's options (one thread walking
// them all waits on each lookup in turn), their marks ORed in `gathered`.
@compute @workgroup_size(WG)
fn split_sets_level(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let t = wid.x + wid.y * params.groups_x;
    clear_gathered(lid);
    workgroupBarrier();
    let s = game[3];
    let p = game[4];
    var r = 0u;
    if (t < params.count) {
        r = split_order[params.start + t];
        var z = unrank(r, s, game[1]);
        clear_seen();
        if (z[0] >= p) {
            var nothing: array<u32, MAX_HEAPS>;
            mark_splits(&nothing, 0u, &z, s, p, lid, WG);
        }
        gather_seen();
    }
    workgroupBarrier();
    if (t < params.count && lid < VALUE_WORDS) {
        split_sets[r * VALUE_WORDS + lid] = atomicLoad(&gathered[lid]);
    }
}
