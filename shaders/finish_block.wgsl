// Phase B of a block [s, s + b): one workgroup walks the heaps in order,
// adds to each heap's below-bitset the options that touch the block (a heap
// >= s, read from workgroup memory), takes the mex and stores it. Writes the
// block to the table at the end. CPU twin: src/kernel/heap/finish_block.rs.

var<workgroup> blk: array<u32, MAX_BLOCK / 2u>; // the block's values, two per word
var<workgroup> mex_best: atomic<u32>;

fn blk_get(i: u32) -> u32 {
    return (blk[i >> 1u] >> ((i & 1u) << 4u)) & 0xffffu;
}

fn blk_set(i: u32, v: u32) {
    let sh = (i & 1u) << 4u;
    blk[i >> 1u] = (blk[i >> 1u] & ~(0xffffu << sh)) | (v << sh);
}

// G(x) for any x < n: from the block when x >= s, else from the table.
fn gb(x: u32) -> u32 {
    if (x >= params.s) {
        return blk_get(x - params.s);
    }
    return g(x);
}

@compute @workgroup_size(WG)
fn finish_block(@builtin(local_invocation_index) lid: u32) {
    load_status(lid);
    let halted = workgroupUniformLoad(&halt_flag);
    let words = workgroupUniformLoad(&words_shared);
    if (halted != 0u) {
        return;
    }
    let s = params.s;
    let cap = words * 32u;
    var block_max = 0u; // kept by thread 0
    for (var i = 0u; i < params.b; i++) {
        let n = s + i;
        for (var w = lid; w < words; w += WG) {
            // Take the heap's below-bitset and leave zeros for the next block.
            atomicStore(&bits[w], atomicExchange(&below[i * words + w], 0u));
        }
        if (lid == 0u) {
            atomicStore(&mex_best, cap);
        }
        if (workgroupUniformLoad(&halt_flag) != 0u) {
            break;
        }

        // Take j, leave one heap m >= s (m >= 1).
        if (n >= max(s, 1u)) {
            let take_hi = min(n - max(s, 1u), params.take_jmax);
            for (var j = lid; j <= take_hi; j += WG) {
                if ((digit(j) & 2u) != 0u) {
                    mark(gb(n - j));
                }
            }
        }
        // Take j, split the rest into (a, m - a) with m - a >= s.
        let split_hi = min(n, params.split_jmax);
        for (var j = 0u; j <= split_hi; j++) {
            let m = n - j;
            if (m < s) {
                break;
            }
            let r = split_range(digit(j), m);
            let hi = min(r.y, m - s);
            for (var a = r.x + lid; a <= hi; a += WG) {
                mark(gb(a) ^ gb(m - a));
            }
        }
        workgroupBarrier();

        for (var w = lid; w < words; w += WG) {
            let free = ~atomicLoad(&bits[w]);
            if (free != 0u) {
                atomicMin(&mex_best, w * 32u + countTrailingZeros(free));
            }
        }
        workgroupBarrier();

        if (lid == 0u) {
            let v = atomicLoad(&mex_best);
            if (v >= cap) {
                // The bitset is full: the mex is not known. Redo wider, or
                // give up when it is already as wide as u16 values allow.
                halt_flag = 1u;
                if (words >= MAX_WORDS) {
                    atomicStore(&status[ST_HALT_AT], n);
                    atomicStore(&status[ST_HALT], 2u);
                } else {
                    atomicStore(&status[ST_HALT_AT], s);
                    atomicStore(&status[ST_MIN_WORDS], 2u * words);
                    atomicStore(&status[ST_HALT], 1u);
                }
            } else {
                blk_set(i, v);
                block_max = max(block_max, v);
            }
        }
    }
    if (workgroupUniformLoad(&halt_flag) != 0u) {
        return;
    }
    // Write the block back, keeping the halves of the edge words that belong
    // to heaps outside it.
    let end = s + params.b;
    for (var w = (s >> 1u) + lid; w <= ((end - 1u) >> 1u); w += WG) {
        let old = load_word(w);
        var lo = old & 0xffffu;
        var hi = old >> 16u;
        if (2u * w >= s) {
            lo = blk_get(2u * w - s);
        }
        if (2u * w + 1u < end) {
            hi = blk_get(2u * w + 1u - s);
        }
        store_word(w, lo | (hi << 16u));
    }
    if (lid == 0u) {
        atomicMax(&status[ST_MAX], block_max);
        atomicStore(&status[ST_DONE], end);
    }
}
