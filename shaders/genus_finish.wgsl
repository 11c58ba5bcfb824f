// Phase B of a misère block [s, s + b): one workgroup walks the heaps in
// order, and each heap's planes in order. A plane's bitset is what
// genus_below marked, plus the options inside the block (the same plane of a
// heap m >= s, final by then) and the same heap's earlier planes it reads
// (deps: a heap of 2 taken to 1 or to 0, a heap of 1 taken). Its value is
// the mex; a misère plane that marked nothing (a heap with no move, alone)
// is worth 1. Takes the bitsets, leaving zeros for the next block.
// CPU twin: src/kernel/genus/genus_finish.rs.
// import genus_common
// import mex

var<workgroup> bits: array<atomic<u32>, MAX_WORDS>;
var<workgroup> marked: atomic<u32>;
var<workgroup> halt_flag: u32;

// Marks value v in this plane's bitset.
fn mark(v: u32) {
    atomicOr(&bits[v >> 5u], 1u << (v & 31u));
    atomicStore(&marked, 1u);
}

@compute @workgroup_size(FINISH_WG)
fn genus_finish(@builtin(local_invocation_index) lid: u32) {
    if (lid == 0u) {
        halt_flag = atomicLoad(&status[ST_HALT]);
        atomicStore(&marked, 0u);
        atomicStore(&mex_best, params.words * 32u);
    }
    if (workgroupUniformLoad(&halt_flag) != 0u) {
        return;
    }
    let s = params.s;
    let words = params.words;
    let cap = words * 32u;
    var cur: array<u32, PLANES>; // this heap's planes so far, kept by thread 0
    for (var i = 0u; i < params.b; i++) {
        let n = s + i;
        for (var k = 0u; k < PLANES; k++) {
            for (var w = lid; w < words; w += FINISH_WG) {
                let word = atomicExchange(&below[below_at(i, k, w)], 0u);
                atomicStore(&bits[w], word);
                if (word != 0u) {
                    atomicStore(&marked, 1u);
                }
            }
            workgroupBarrier();
            // Take j, leaving heap m = n - j >= s.
            let take_hi = min(n - s, params.take_jmax);
            for (var j = 1u + lid; j <= take_hi; j += FINISH_WG) {
                if (allowed(n, j)) {
                    mark(table[(n - j) * PLANES + k]);
                }
            }
            if (lid == 0u) {
                for (var byte = 0u; byte < 3u; byte++) {
                    let dep = (deps[k] >> (8u * byte)) & 0xffu;
                    if (dep != 0u) {
                        mark(cur[dep - 1u]);
                    }
                }
            }
            workgroupBarrier();
            smallest_unmarked(lid, words, FINISH_WG);
            workgroupBarrier();
            if (lid == 0u) {
                var v = atomicLoad(&mex_best);
                if (v >= cap) {
                    halt_flag = 1u;
                    atomicStore(&status[ST_HALT_AT], n);
                    atomicStore(&status[ST_HALT], 1u);
                } else {
                    if (atomicLoad(&marked) == 0u && k != NORMAL_PLANE) {
                        v = 1u;
                    }
                    table[n * PLANES + k] = v;
                    cur[k] = v;
                }
                // Reset for the next plane: the other threads touch them
                // again only past the barrier below.
                atomicStore(&marked, 0u);
                atomicStore(&mex_best, cap);
            }
            // The value written is read by every thread from the next heap on.
            storageBarrier();
            if (workgroupUniformLoad(&halt_flag) != 0u) {
                return;
            }
        }
    }
    if (lid == 0u) {
        atomicStore(&status[ST_DONE], s + params.b);
    }
}
