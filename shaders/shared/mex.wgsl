// The mex of the values a workgroup marked in `bits` (the importer declares
// `var<workgroup> bits: array<atomic<u32>, N>`), shared by the kernels that
// take one: survey_block and finish_block. The caller stores the bitset's
// capacity in `mex_best` before the threads mark, calls `smallest_unmarked`
// on every thread, and reads `mex_best` after a barrier.
// CPU twin: src/kernel/mex.rs.

var<workgroup> mex_best: atomic<u32>;

// Each of `threads` threads (this one `lid`) offers the first unmarked value
// of its words below `words`; the smallest wins.
fn smallest_unmarked(lid: u32, words: u32, threads: u32) {
    for (var w = lid; w < words; w += threads) {
        let free = ~atomicLoad(&bits[w]);
        if (free != 0u) {
            atomicMin(&mex_best, w * 32u + countTrailingZeros(free));
        }
    }
}
