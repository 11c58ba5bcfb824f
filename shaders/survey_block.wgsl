// Many octal games at once, one game per workgroup: each workgroup takes its
// code's next heaps in order (up to `block` of them per dispatch), marks the
// value of every option in a workgroup bitset (the threads share the option
// scan), takes the mex and appends it to the code's table. The same dispatch
// is recorded many times: each code's progress lives in `state`, so codes
// that reach their target simply stop. CPU twin: src/kernel/survey/survey_block.rs.
//
// A code in rare mode (src/engine/rare_values.rs has the algorithm) marks only the
// split pairs with a rare part, takes c, the smallest common value left
// unmarked, and scans the split pairs only until every value below c is
// marked. Its rare positions are a list the host fills and the kernel
// extends; a list that runs full sends the code back to the brute force.
// import rare_split
// import mex
// import rare_scan

override WG: u32 = 64u; // threads per code: the host sets it (`--workgroup`)
// From Rust (kernel::survey): MAX_WORDS (bitset words: values up to 65535),
// STATE_WORDS, MODE_RARE, SCAN_PER_THREAD.

struct Params {
    codes: u32,       // codes in this batch
    groups_x: u32,    // workgroups per row of a 2D dispatch
    block: u32,       // heaps one workgroup finishes per dispatch
    digits_len: u32,  // digits d0..d(L-1) per code
    stride: u32,      // table words per code (two u16 values per word)
    rare_cap: u32,    // rare list words per code
    _pad1: u32,
    _pad2: u32,
}

// per code, STATE_WORDS words: [heaps done, largest value so far, target
// heap + 1, overflow, mode (0 brute force, MODE_RARE rare values), rare mask,
// position parity (0 none, 1 + t), rare positions listed]

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> digits: array<u32>; // bits 0..2: 0, 1 or 2 heaps left
@group(0) @binding(2) var<storage, read_write> state: array<u32>;
@group(0) @binding(3) var<storage, read_write> table: array<u32>;
@group(0) @binding(4) var<storage, read_write> rare: array<u32>; // rare positions, ascending

var<workgroup> bits: array<atomic<u32>, MAX_WORDS>;
var<workgroup> c_best: atomic<u32>;
var<workgroup> done_shared: u32;
var<workgroup> end_shared: u32;
var<workgroup> max_shared: u32;
var<workgroup> mode_shared: u32;
var<workgroup> count_shared: u32;

// G(i) of the code whose table starts at word `base`.
fn g(base: u32, i: u32) -> u32 {
    return (table[base + (i >> 1u)] >> ((i & 1u) << 4u)) & 0xffffu;
}

// Bitset words for a heap whose options are xors of values <= max_value:
// twice the next power of two, so the mex always falls inside.
fn capacity_words(max_value: u32) -> u32 {
    let pow2 = 1u << (firstLeadingBit(max_value | 1u) + 1u);
    let words = max(2u * pow2, 64u) / 32u;
    return min(words, MAX_WORDS);
}

fn mark(v: u32) {
    atomicOr(&bits[v >> 5u], 1u << (v & 31u));
}



@compute @workgroup_size(WG)
fn survey_block(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let code = wid.y * params.groups_x + wid.x;
    if (code >= params.codes) {
        return;
    }
    let base = code * params.stride;
    let at = code * STATE_WORDS;
    let rare_base = code * params.rare_cap;
    if (lid == 0u) {
        done_shared = state[at];
        max_shared = state[at + 1u];
        end_shared = min(state[at] + params.block, state[at + 2u]);
        mode_shared = state[at + 4u];
        count_shared = state[at + 7u];
    }
    let start = workgroupUniformLoad(&done_shared);
    let end = workgroupUniformLoad(&end_shared);
    var top = workgroupUniformLoad(&max_shared);
    var mode = workgroupUniformLoad(&mode_shared);
    let mask = state[at + 5u];
    let parity = state[at + 6u];
    let low = low_parity(mask);
    let code_digits = code * params.digits_len;
    for (var n = start; n < end; n++) {
        let words = capacity_words(top);
        for (var w = lid; w < words; w += WG) {
            atomicStore(&bits[w], 0u);
        }
        if (lid == 0u) {
            atomicStore(&mex_best, words * 32u);
            atomicStore(&c_best, words * 32u);
            atomicStore(&need, 0u);
        }
        let count = workgroupUniformLoad(&count_shared);
        // The position parity flips which values are common at odd or even heaps.
        let flip = select(0u, (n + parity - 1u) & 1u, parity != 0u);

        // Take j >= 1 tokens, leaving nothing or one heap.
        let jmax = min(n, params.digits_len - 1u);
        for (var j = 1u + lid; j <= jmax; j += WG) {
            let d = digits[code_digits + j];
            if (j == n && (d & 1u) != 0u) {
                mark(0u);
            }
            if (j < n && (d & 2u) != 0u) {
                mark(g(base, n - j));
            }
        }
        // Take j >= 0 tokens and split the rest into (a, m - a), a <= m - a:
        // every pair, or in rare mode the pairs with a rare part r < m.
        for (var j = 0u; j <= jmax; j++) {
            if ((digits[code_digits + j] & 4u) == 0u) {
                continue;
            }
            let m = n - j;
            if (mode == MODE_RARE) {
                for (var k = lid; k < count; k += WG) {
                    let r = rare[rare_base + k];
                    if (r < m) {
                        mark(g(base, r) ^ g(base, m - r));
                    }
                }
            } else {
                for (var a = 1u + lid; 2u * a <= m; a += WG) {
                    mark(g(base, a) ^ g(base, m - a));
                }
            }
        }
        workgroupBarrier();

        if (mode == MODE_RARE) {
            // c: every common option is marked, so G(n) <= c.
            for (var w = lid; w < words; w += WG) {
                let free = ~atomicLoad(&bits[w]) & common_word(mask, low, flip, w);
                if (free != 0u) {
                    atomicMin(&c_best, w * 32u + countTrailingZeros(free));
                }
            }
            workgroupBarrier();
            let c = atomicLoad(&c_best);
            // The values below c left unmarked: rare, each needs a split pair.
            for (var w = lid; w < words; w += WG) {
                let wanted = ~atomicLoad(&bits[w]) & below_word(c, w);
                if (wanted != 0u) {
                    atomicAdd(&need, countOneBits(wanted));
                }
            }
            var left = values_left(lid);
            // Scan the split pairs by the smaller part a = 1, 2, ... until
            // every value below c is marked or the pairs run out.
            var a0 = 1u;
            while (left != 0u && 2u * a0 <= n) {
                for (var j = 0u; j <= jmax; j++) {
                    if ((digits[code_digits + j] & 4u) == 0u) {
                        continue;
                    }
                    let m = n - j;
                    for (var k = 0u; k < SCAN_PER_THREAD; k++) {
                        let a = a0 + k * WG + lid;
                        if (2u * a > m) {
                            break;
                        }
                        let v = g(base, a) ^ g(base, m - a);
                        if (v < c) {
                            let bit = 1u << (v & 31u);
                            if ((atomicOr(&bits[v >> 5u], bit) & bit) == 0u) {
                                atomicSub(&need, 1u);
                            }
                        }
                    }
                }
                a0 += WG * SCAN_PER_THREAD;
                left = values_left(lid);
            }
        }

        // The mex (in rare mode: c, or the smallest value the scan left).
        smallest_unmarked(lid, words, WG);
        workgroupBarrier();

        if (lid == 0u) {
            let v = atomicLoad(&mex_best);
            if (v > 0xffffu) {
                state[at + 3u] = 1u;
            }
            let i = base + (n >> 1u);
            let sh = (n & 1u) << 4u;
            table[i] = (table[i] & ~(0xffffu << sh)) | ((v & 0xffffu) << sh);
            max_shared = max(max_shared, v);
            // A rare position joins the list; a full list ends rare mode.
            let rare_here = ((countOneBits(v & mask) & 1u) ^ flip) == 0u;
            if (mode_shared == MODE_RARE && rare_here) {
                if (count_shared < params.rare_cap) {
                    rare[rare_base + count_shared] = n;
                    count_shared += 1u;
                } else {
                    mode_shared = 0u;
                }
            }
        }
        // The value just written is read by the next heap's options.
        storageBarrier();
        top = workgroupUniformLoad(&max_shared);
        mode = workgroupUniformLoad(&mode_shared);
    }
    if (lid == 0u) {
        state[at] = end;
        state[at + 1u] = max_shared;
        state[at + 4u] = mode_shared;
        state[at + 7u] = count_shared;
    }
}
