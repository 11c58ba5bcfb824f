// Phase A of a misère block [s, s + b) of a code that never splits: for
// every heap n of the block and one slice of its takes, in parallel, each
// option below s (where the table is final) marked in every plane's bitset
// in `below`. CPU twin: src/kernel/genus/genus_below.rs.
// import genus_common

@compute @workgroup_size(WG)
fn genus_below(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let group = wid.x + wid.y * params.groups_x;
    let i = group % params.b;
    let slice = group / params.b;
    if (slice >= params.slices || atomicLoad(&status[ST_HALT]) != 0u) {
        return;
    }
    let s = params.s;
    let n = s + i;
    // Take j, leaving heap m = n - j < s (nothing when m = 0).
    let take_lo = n - s + 1u + slice * SLICE;
    let take_hi = min(min(n, params.take_jmax), take_lo + SLICE - 1u);
    for (var j = take_lo + lid; j <= take_hi; j += WG) {
        if (!allowed(n, j)) {
            continue;
        }
        let m = n - j;
        for (var k = 0u; k < PLANES; k++) {
            let v = table[m * PLANES + k];
            atomicOr(&below[below_at(i, k, v >> 5u)], 1u << (v & 31u));
        }
    }
}
