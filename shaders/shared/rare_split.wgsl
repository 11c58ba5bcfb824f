// The rare/common split in 32-bit words, shared by the survey kernel's rare
// mode and the rare values' block pass (both import it). A value v is
// common when popcount(v & mask), flipped by the position parity, is odd.
// CPU twin: src/kernel/rare/split_words.rs.

// Bit i set when popcount(i & mask) is odd, for i < 32.
fn low_parity(mask: u32) -> u32 {
    var p = 0u;
    if ((mask & 1u) != 0u) { p ^= 0xaaaaaaaau; }
    if ((mask & 2u) != 0u) { p ^= 0xccccccccu; }
    if ((mask & 4u) != 0u) { p ^= 0xf0f0f0f0u; }
    if ((mask & 8u) != 0u) { p ^= 0xff00ff00u; }
    if ((mask & 16u) != 0u) { p ^= 0xffff0000u; }
    return p;
}

// Bit i set when value 32w + i is common at a heap with this flip.
fn common_word(mask: u32, low: u32, flip: u32, w: u32) -> u32 {
    let high = (countOneBits((w * 32u) & mask) & 1u) ^ flip;
    return select(low, ~low, high == 1u);
}

// The bits below value c of word w.
fn below_word(c: u32, w: u32) -> u32 {
    let first = w * 32u;
    if (c >= first + 32u) {
        return 0xffffffffu;
    }
    if (c <= first) {
        return 0u;
    }
    return (1u << (c - first)) - 1u;
}
