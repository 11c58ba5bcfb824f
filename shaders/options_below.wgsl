// Phase A of a block [s, s + b): for every heap n of the block, in parallel,
// the bitset of option values whose heaps all lie below s, where the table is
// already final. Each heap's options are cut into `slices` workgroups of at
// most SLICE options per digit (so no invocation loops for long), and each
// workgroup ORs its bitset into the heap's bitset in `below`.
// CPU twin: src/kernel/heap/options_below.rs.
// import heap_common

@compute @workgroup_size(WG)
fn options_below(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    load_status(lid);
    let halted = workgroupUniformLoad(&halt_flag);
    let words = workgroupUniformLoad(&words_shared);
    let group = wid.x + wid.y * params.groups_x;
    let i = group % params.b;
    let slice = group / params.b;
    if (halted != 0u || slice >= params.slices) {
        return;
    }
    let s = params.s;
    let n = s + i;
    for (var w = lid; w < words; w += WG) {
        atomicStore(&bits[w], 0u);
    }
    workgroupBarrier();

    // Take j, leave nothing (m = 0) or one heap m < s.
    let take_lo = n + 1u - max(s, 1u) + slice * SLICE;
    let take_hi = min(min(n, params.take_jmax), take_lo + SLICE - 1u);
    for (var j = take_lo + lid; j <= take_hi; j += WG) {
        let d = digit(j);
        let m = n - j;
        if (m == 0u) {
            if ((d & 1u) != 0u) {
                mark(0u);
            }
        } else if ((d & 2u) != 0u) {
            mark(g(m));
        }
    }
    // Take j, split the rest into (a, m - a) with both heaps below s.
    let split_hi = min(n, params.split_jmax);
    for (var j = 0u; j <= split_hi; j++) {
        let m = n - j;
        let r = split_range(digit(j), m);
        var lo = r.x;
        if (m >= s) {
            lo = max(lo, m - s + 1u);
        }
        lo += slice * SLICE;
        let hi = min(r.y, lo + SLICE - 1u);
        for (var a = lo + lid; a <= hi; a += WG) {
            mark(g(a) ^ g(m - a));
        }
    }
    workgroupBarrier();
    for (var w = lid; w < words; w += WG) {
        let word = atomicLoad(&bits[w]);
        if (word != 0u) {
            atomicOr(&below[i * words + w], word);
        }
    }
}
