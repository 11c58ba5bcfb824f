// The parallel pass of rare values over a block of heaps, one workgroup per
// heap: what the heaps below `s` decide of heap n. It marks the take moves
// to heaps below s and the rare pairs (r, m − r) with both parts below s,
// takes c′, the smallest common value left unmarked (G(n)'s candidate: the
// block's own heaps only add marks), and scans the split pairs with both
// parts below s for the rare values below c′ until every one is found or
// the pairs run out. It writes the marks, the values still missing, c′
// and the pairs it read; the host finishes the block heap by heap.
// CPU twin: src/kernel/rare/rare_pass.rs. The algorithm: src/engine/rare_values.rs.
// From Rust (kernel::rare): WG, MAX_WORDS (bitset words: values below 2048),
// SCAN_PER_THREAD.
// import rare_split
// import rare_scan

struct Params {
    s: u32,          // heaps below s are known
    first: u32,      // the block's first heap
    count: u32,      // heaps in the block
    words: u32,      // bitset words (u32) per heap
    mask: u32,       // the rare/common split's mask
    parity: u32,     // 0: none; 1 + t: the position-parity variant
    rare_count: u32, // rare positions below s
    groups_x: u32,   // workgroups per row of a 2D dispatch
    piece_shift: u32, // words per table piece: 1 << piece_shift
}

@group(0) @binding(0) var<uniform> params: Params;
// [takes, splits, then (j, d) per take, then (j, diff) per split]
@group(0) @binding(1) var<storage, read> code: array<u32>;
// G(i) as u16, two per word, in pieces of 1 << piece_shift words (a
// binding holds less than a long table; pieces not needed repeat table0)
@group(0) @binding(2) var<storage, read> table0: array<u32>;
@group(0) @binding(3) var<storage, read> table1: array<u32>;
@group(0) @binding(4) var<storage, read> table2: array<u32>;
@group(0) @binding(5) var<storage, read> table3: array<u32>;
@group(0) @binding(6) var<storage, read> table4: array<u32>;
@group(0) @binding(7) var<storage, read> table5: array<u32>;
@group(0) @binding(8) var<storage, read> table6: array<u32>;
@group(0) @binding(9) var<storage, read> table7: array<u32>;
// (r, G(r)) per rare position below s, ascending
@group(0) @binding(10) var<storage, read> rare: array<u32>;
// per heap: `words` of marks, then `words` of missing values
@group(0) @binding(11) var<storage, read_write> sets: array<u32>;
// per heap: c′, pairs read
@group(0) @binding(12) var<storage, read_write> results: array<u32>;

var<workgroup> bits: array<atomic<u32>, MAX_WORDS>;
var<workgroup> missing: array<atomic<u32>, MAX_WORDS>;
var<workgroup> c_shared: u32;
var<workgroup> a_start: u32;
var<workgroup> a_end_shared: u32;

fn g(i: u32) -> u32 {
    let w = i >> 1u;
    let piece = w >> params.piece_shift;
    let at = w & ((1u << params.piece_shift) - 1u);
    var word: u32;
    switch piece {
        case 0u: { word = table0[at]; }
        case 1u: { word = table1[at]; }
        case 2u: { word = table2[at]; }
        case 3u: { word = table3[at]; }
        case 4u: { word = table4[at]; }
        case 5u: { word = table5[at]; }
        case 6u: { word = table6[at]; }
        default: { word = table7[at]; }
    }
    return (word >> ((i & 1u) << 4u)) & 0xffffu;
}

fn mark(v: u32) {
    atomicOr(&bits[v >> 5u], 1u << (v & 31u));
}



// The smaller parts a of the split pairs of m = n − j with both parts
// below s and at least `diff` apart: a in lo..=hi (none when lo > hi).
fn pair_range(m: u32, diff: u32, s: u32) -> vec2<u32> {
    if (m < 2u + diff) {
        return vec2<u32>(1u, 0u);
    }
    let lo = max(1u, select(0u, m + 1u - s, m + 1u > s));
    return vec2<u32>(lo, (m - diff) / 2u);
}

@compute @workgroup_size(WG)
fn rare_pass(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    let i = wid.y * params.groups_x + wid.x;
    if (i >= params.count) {
        return;
    }
    let n = params.first + i;
    let s = params.s;
    let words = params.words;
    for (var w = lid; w < words; w += WG) {
        atomicStore(&bits[w], 0u);
        atomicStore(&missing[w], 0u);
    }
    if (lid == 0u) {
        atomicStore(&need, 0u);
    }
    workgroupBarrier();

    // Take moves to heaps below s (and the whole heap).
    let takes = code[0];
    let splits = code[1];
    for (var k = lid; k < takes; k += WG) {
        let j = code[2u + 2u * k];
        let d = code[3u + 2u * k];
        if (j == n && (d & 1u) != 0u) {
            mark(0u);
        } else if (j < n && n - j < s && (d & 2u) != 0u) {
            mark(g(n - j));
        }
    }
    // Rare pairs (r, b = m − r) with both parts below s.
    let split_at = 2u + 2u * takes;
    for (var k = 0u; k < splits; k++) {
        let j = code[split_at + 2u * k];
        let diff = code[split_at + 2u * k + 1u];
        if (n < j + 2u) {
            continue;
        }
        let m = n - j;
        for (var q = lid; q < params.rare_count; q += WG) {
            let r = rare[2u * q];
            if (r >= m) {
                break;
            }
            let b = m - r;
            let apart = select(b - r, r - b, r > b);
            if (b < s && (diff == 0u || apart >= diff)) {
                mark(rare[2u * q + 1u] ^ g(b));
            }
        }
    }
    workgroupBarrier();

    // c′, and the rare values below it no mark reached.
    if (lid == 0u) {
        let flip = select(0u, (n + params.parity - 1u) & 1u, params.parity != 0u);
        let low = low_parity(params.mask);
        var c = words * 32u;
        for (var w = 0u; w < words; w++) {
            let free = ~atomicLoad(&bits[w]) & common_word(params.mask, low, flip, w);
            if (free != 0u) {
                c = w * 32u + countTrailingZeros(free);
                break;
            }
        }
        var count = 0u;
        for (var w = 0u; w < words; w++) {
            let is_common = common_word(params.mask, low, flip, w);
            let wanted = ~atomicLoad(&bits[w]) & ~is_common & below_word(c, w);
            atomicStore(&missing[w], wanted);
            count += countOneBits(wanted);
        }
        atomicStore(&need, count);
        need_shared = count;
        c_shared = c;
    }
    let c = workgroupUniformLoad(&c_shared);
    var left = workgroupUniformLoad(&need_shared);

    // Scan the split pairs with both parts below s by the smaller part
    // a, from the smallest any digit allows, clearing the missing values
    // they reach.
    if (lid == 0u) {
        var lowest = 0xffffffffu;
        var highest = 0u;
        for (var k = 0u; k < splits; k++) {
            let j = code[split_at + 2u * k];
            if (n >= j + 2u) {
                let range = pair_range(n - j, code[split_at + 2u * k + 1u], s);
                if (range.x <= range.y) {
                    lowest = min(lowest, range.x);
                    highest = max(highest, range.y + 1u);
                }
            }
        }
        a_start = lowest;
        a_end_shared = highest;
    }
    var a0 = workgroupUniformLoad(&a_start);
    let a_end = workgroupUniformLoad(&a_end_shared);
    var pairs = 0u;
    while (left != 0u && a0 < a_end) {
        for (var k = 0u; k < splits; k++) {
            let j = code[split_at + 2u * k];
            let diff = code[split_at + 2u * k + 1u];
            if (n < j + 2u) {
                continue;
            }
            let m = n - j;
            let range = pair_range(m, diff, s);
            let a_lo = max(range.x, a0);
            let a_hi = min(range.y + 1u, a0 + WG * SCAN_PER_THREAD);
            if (a_lo >= a_hi) {
                continue;
            }
            pairs += a_hi - a_lo;
            for (var a = a_lo + lid; a < a_hi; a += WG) {
                let v = g(a) ^ g(m - a);
                if (v < c) {
                    let bit = 1u << (v & 31u);
                    if ((atomicAnd(&missing[v >> 5u], ~bit) & bit) != 0u) {
                        atomicSub(&need, 1u);
                    }
                }
            }
        }
        a0 += WG * SCAN_PER_THREAD;
        left = values_left(lid);
    }

    workgroupBarrier();
    let out = i * 2u * words;
    for (var w = lid; w < words; w += WG) {
        sets[out + w] = atomicLoad(&bits[w]);
        sets[out + words + w] = atomicLoad(&missing[w]);
    }
    if (lid == 0u) {
        results[2u * i] = c;
        results[2u * i + 1u] = pairs;
    }
}
