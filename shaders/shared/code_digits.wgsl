// A take-and-break code's digit j, shared by the heap kernels (heap_common)
// and the misère heap kernels (genus_common): the importer declares
// `params` with `prefix_len` and `tail_len`, and the `digits` binding.
// CPU twin: `HeapKernelCode::digit` (src/kernel/heap/common.rs).

fn digit(j: u32) -> u32 {
    if (j < params.prefix_len) {
        return digits[j];
    }
    if (params.tail_len == 0u) {
        return 0u;
    }
    return digits[params.prefix_len + (j - params.prefix_len) % params.tail_len];
}
