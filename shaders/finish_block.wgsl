// Phase B of a block [s, s + b): one workgroup walks the heaps in order,
// adds to each heap's below-bitset the options that touch the block (a heap
// >= s, read from workgroup memory), takes the mex and stores it. Writes the
// block to the table at the end. CPU twin: src/kernel/heap/finish_block.rs.
//
// This walk is the one in-order part of the brute force, so each heap's
// reads stay out of device memory: the smaller heap of a split that touches
// the block lies below b, so the table's first heaps are copied into `head`
// once, and each heap's below-bitset is fetched while the heap before it is
// finished.
// import heap_common
// import mex

// From Rust (kernel::heap): HEAD_HEAPS, the most heaps copied into `head`
// (a block's small heaps but its last 16, so that bits, blk and head fit the
// 16 KiB of workgroup memory that every device offers; params.head_heaps:
// fewer, in tests); FINISH_WG, the threads of the walk (a heap's options are
// split among them, so that each waits on few reads in a row; 256, the most
// every device allows); AHEAD, the below-bitset words each thread fetches
// ahead (bitsets of values up to 8191).

var<workgroup> blk: array<u32, MAX_BLOCK / 2u>; // the block's values, two per word
var<workgroup> head: array<u32, HEAD_HEAPS / 2u>; // G of heaps below min(s, head_heaps)

fn blk_get(i: u32) -> u32 {
    return (blk[i >> 1u] >> ((i & 1u) << 4u)) & 0xffffu;
}

fn blk_set(i: u32, v: u32) {
    let sh = (i & 1u) << 4u;
    blk[i >> 1u] = (blk[i >> 1u] & ~(0xffffu << sh)) | (v << sh);
}

// G(x) for any x < n: from the block when x >= s, from head when it holds
// x, else from the table.
fn gb(x: u32) -> u32 {
    if (x >= params.s) {
        return blk_get(x - params.s);
    }
    if (x < params.head_heaps) {
        return (head[x >> 1u] >> ((x & 1u) << 4u)) & 0xffffu;
    }
    return g(x);
}

// Word w of heap i's below-bitset (zero past the bitset), leaving zeros for
// the next block.
fn take_below(i: u32, w: u32, words: u32) -> u32 {
    if (w >= words) {
        return 0u;
    }
    return atomicExchange(&below[i * words + w], 0u);
}

@compute @workgroup_size(FINISH_WG)
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
    for (var w = lid; w < (min(s, params.head_heaps) + 1u) / 2u; w += FINISH_WG) {
        head[w] = load_word(w);
    }
    // The heap's below-bitset words lid + k * FINISH_WG, fetched while the heap
    // before it is finished; the words past AHEAD * FINISH_WG when needed.
    var ahead: array<u32, AHEAD>;
    for (var k = 0u; k < AHEAD; k++) {
        ahead[k] = take_below(0u, lid + k * FINISH_WG, words);
    }
    for (var i = 0u; i < params.b; i++) {
        let n = s + i;
        for (var k = 0u; k < AHEAD; k++) {
            if (lid + k * FINISH_WG < words) {
                atomicStore(&bits[lid + k * FINISH_WG], ahead[k]);
            }
        }
        for (var w = lid + AHEAD * FINISH_WG; w < words; w += FINISH_WG) {
            atomicStore(&bits[w], take_below(i, w, words));
        }
        if (i + 1u < params.b) {
            for (var k = 0u; k < AHEAD; k++) {
                ahead[k] = take_below(i + 1u, lid + k * FINISH_WG, words);
            }
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
            for (var j = lid; j <= take_hi; j += FINISH_WG) {
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
            for (var a = r.x + lid; a <= hi; a += FINISH_WG) {
                mark(gb(a) ^ gb(m - a));
            }
        }
        workgroupBarrier();

        smallest_unmarked(lid, words, FINISH_WG);
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
    for (var w = (s >> 1u) + lid; w <= ((end - 1u) >> 1u); w += FINISH_WG) {
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
