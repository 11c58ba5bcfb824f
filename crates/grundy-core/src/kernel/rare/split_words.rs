//! CPU twin of `shaders/shared/rare_split.wgsl`: the rare/common split in 32-bit
//! words, shared by the survey kernel's twin and the block pass's twin.

/// Bit i set when popcount(i & mask) is odd, for i < 32.
pub fn low_parity(mask: u32) -> u32 {
    let mut p = 0;
    for (bit, pattern) in [
        0xaaaaaaaa,
        0xcccccccc,
        0xf0f0f0f0,
        0xff00ff00,
        0xffff0000u32,
    ]
    .into_iter()
    .enumerate()
    {
        if mask & (1 << bit) != 0 {
            p ^= pattern;
        }
    }
    p
}

/// Bit i set when value 32w + i is common at a heap with this flip.
pub fn common_word(mask: u32, low: u32, flip: u32, w: u32) -> u32 {
    let high = (((w * 32) & mask).count_ones() & 1) ^ flip;
    if high == 1 { !low } else { low }
}

/// The bits below value c of word w.
pub fn below_word(c: u32, w: u32) -> u32 {
    let first = w * 32;
    if c >= first + 32 {
        return !0;
    }
    if c <= first {
        return 0;
    }
    (1 << (c - first)) - 1
}
