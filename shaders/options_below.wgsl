// Phase A of a block [s, s + b): for every heap n of the block, in parallel
// (one workgroup per heap), the bitset of option values whose heaps all lie
// below s, where the table is already final. CPU twin: src/cpu/options_below.rs.

@compute @workgroup_size(WG)
fn options_below(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    load_status(lid);
    let halted = workgroupUniformLoad(&halt_flag);
    let words = workgroupUniformLoad(&words_shared);
    let i = wid.x + wid.y * params.groups_x;
    if (halted != 0u || i >= params.b) {
        return;
    }
    let s = params.s;
    let n = s + i;
    for (var w = lid; w < words; w += WG) {
        atomicStore(&bits[w], 0u);
    }
    workgroupBarrier();

    // Take j, leave nothing (m = 0) or one heap m < s.
    let take_hi = min(n, params.take_jmax);
    for (var j = n + 1u - max(s, 1u) + lid; j <= take_hi; j += WG) {
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
        for (var a = lo + lid; a <= r.y; a += WG) {
            mark(g(a) ^ g(m - a));
        }
    }
    workgroupBarrier();
    for (var w = lid; w < words; w += WG) {
        below[i * words + w] = atomicLoad(&bits[w]);
    }
}
