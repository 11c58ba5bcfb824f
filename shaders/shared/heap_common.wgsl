// Shared by the heap-game kernels (options_below, finish_block): the block's
// parameters, the value table split over four storage bindings, the digit
// rules of a take-and-break code and the option bitset. The CPU twin of this
// file is src/kernel/heap/common.rs.
//
// Its constants are Rust's, declared before it by the host
// (kernel::heap::HEAP_CONSTANTS): WG (threads per workgroup), MAX_WORDS
// (bitset words: values up to 65535), MAX_BLOCK (heaps finished in order per
// block), SLICE (options one workgroup of options_below scans per digit), the
// status words ST_* and the modifiers MOD_*.

struct Params {
    s: u32,            // first heap of the block
    b: u32,            // heaps in the block
    groups_x: u32,     // workgroups per row of a 2D dispatch
    prefix_len: u32,   // digits d0.. before the repeating tail
    tail_len: u32,     // repeating digits (0: none)
    min_diff: u32,     // two-heap splits must differ by at least this
    chunk_shift: u32,  // log2 of the words in one value chunk
    take_jmax: u32,    // largest j whose digit leaves 0 or 1 heap (0xffffffff: no bound)
    split_jmax: u32,   // largest j whose digit splits into 2 heaps (0xffffffff: no bound)
    slices: u32,       // workgroups per heap in options_below
    head_heaps: u32,   // heaps finish_block copies into head (at most HEAD_HEAPS)
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> digits: array<u32>;
@group(0) @binding(2) var<storage, read_write> below: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> chunk0: array<u32>;
@group(0) @binding(5) var<storage, read_write> chunk1: array<u32>;
@group(0) @binding(6) var<storage, read_write> chunk2: array<u32>;
@group(0) @binding(7) var<storage, read_write> chunk3: array<u32>;

// import code_digits

// status words (indices from Rust): status[ST_HALT] 0 running, 1 bitset too
// narrow (redo wider), 2 value over 65535; [ST_MAX] the largest value so far;
// [ST_MIN_WORDS] the bitset width forced by an earlier halt; [ST_DONE] heaps
// below this are final; [ST_HALT_AT] the block (reason 1) or heap (reason 2)
// that halted.

// digit words (`digit`, from code_digits): bits 0..2 the heap counts 0, 1, 2; bits 8..9 the modifier
// (MOD_PLAIN, MOD_DISTINCT, MOD_NOT_ALL_EQUAL, MOD_ALL_EQUAL, from Rust).

var<workgroup> bits: array<atomic<u32>, MAX_WORDS>;
var<workgroup> halt_flag: u32;
var<workgroup> words_shared: u32;

fn load_word(w: u32) -> u32 {
    let o = w & ((1u << params.chunk_shift) - 1u);
    switch (w >> params.chunk_shift) {
        case 0u: { return chunk0[o]; }
        case 1u: { return chunk1[o]; }
        case 2u: { return chunk2[o]; }
        default: { return chunk3[o]; }
    }
}

fn store_word(w: u32, v: u32) {
    let o = w & ((1u << params.chunk_shift) - 1u);
    switch (w >> params.chunk_shift) {
        case 0u: { chunk0[o] = v; }
        case 1u: { chunk1[o] = v; }
        case 2u: { chunk2[o] = v; }
        default: { chunk3[o] = v; }
    }
}

// G(i) from the table: two u16 values per word, the lower heap in the low half.
fn g(i: u32) -> u32 {
    return (load_word(i >> 1u) >> ((i & 1u) << 4u)) & 0xffffu;
}


// Bitset words for a block whose earlier values are all <= max_value: twice
// the next power of two, so that no option of the block can fill it.
fn capacity_words(max_value: u32, min_words: u32) -> u32 {
    let pow2 = 1u << (firstLeadingBit(max_value | 1u) + 1u);
    let words = max(2u * pow2, 64u) / 32u;
    return min(max(words, min_words), MAX_WORDS);
}

// Splits of m into heaps (a, m - a), a <= m - a, allowed by digit d: a runs
// over [x, y]; empty when x > y.
fn split_range(d: u32, m: u32) -> vec2<u32> {
    let modifier = (d >> 8u) & 3u;
    if ((d & 4u) == 0u || m < 2u) {
        return vec2<u32>(1u, 0u);
    }
    if (modifier == MOD_ALL_EQUAL) {
        if ((m & 1u) == 0u && params.min_diff == 0u) {
            return vec2<u32>(m / 2u, m / 2u);
        }
        return vec2<u32>(1u, 0u);
    }
    var diff = params.min_diff;
    if (modifier != MOD_PLAIN) {
        diff = max(diff, 1u);
    }
    if (m < diff + 2u) {
        return vec2<u32>(1u, 0u);
    }
    return vec2<u32>(1u, (m - diff) / 2u);
}

// A read first: most marks of a dense code find their bit set, and threads
// reading one word share the read where an atomic write would queue them.
fn mark(v: u32) {
    let bit = 1u << (v & 31u);
    if ((atomicLoad(&bits[v >> 5u]) & bit) == 0u) {
        atomicOr(&bits[v >> 5u], bit);
    }
}

// Both kernels begin here: one thread reads the status, all get it uniformly.
fn load_status(lid: u32) {
    if (lid == 0u) {
        halt_flag = atomicLoad(&status[ST_HALT]);
        words_shared = capacity_words(atomicLoad(&status[ST_MAX]), atomicLoad(&status[ST_MIN_WORDS]));
    }
}
