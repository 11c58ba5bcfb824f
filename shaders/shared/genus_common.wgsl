// Shared by the misère heap kernels (genus_below, genus_finish): the block's
// parameters, the table of heaps' states (PLANES values a heap: the g⁻ of
// each sum with nim-heaps of 2 and 1, then the normal value), and the digit
// rules of a code that never splits a heap. The CPU twin of this file is
// src/kernel/genus/mod.rs.
//
// Its constants are Rust's, declared before it by the host
// (kernel::genus::GENUS_CONSTANTS): PLANES, NORMAL_PLANE and the status
// words ST_*.

struct Params {
    s: u32,          // first heap of the block
    b: u32,          // heaps in the block
    groups_x: u32,   // workgroups per row of a 2D dispatch
    prefix_len: u32, // digits d0.. before the repeating tail
    tail_len: u32,   // repeating digits (0: none)
    take_jmax: u32,  // largest take (0xffffffff: no bound)
    slices: u32,     // workgroups per heap in genus_below
    words: u32,      // bitset words of each plane of the block's heaps
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> digits: array<u32>;
@group(0) @binding(2) var<storage, read> deps: array<u32>;
@group(0) @binding(3) var<storage, read_write> below: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> table: array<u32>;

// import code_digits

// status words (indices from Rust): status[ST_HALT] 0 running, 1 a value
// passed what the bitsets hold; [ST_HALT_AT] the heap where it did;
// [ST_DONE] heaps below this are final.

// digit words (`digit`, from code_digits): bit 0 takes a whole heap, bit 1
// leaves one heap.

// Whether taking j from heap n is a move: taking it whole, or leaving one heap.
fn allowed(n: u32, j: u32) -> bool {
    let d = digit(j);
    if (n == j) {
        return (d & 1u) != 0u;
    }
    return (d & 2u) != 0u;
}

// Word w of plane k of the block's heap i in `below`.
fn below_at(i: u32, k: u32, w: u32) -> u32 {
    return (i * PLANES + k) * params.words + w;
}
