// What the scans of split pairs for rare values share (survey_block's rare
// mode, rare_pass): the count of wanted values no pair has reached yet,
// lowered by the thread that reaches one and read by every thread at once
// between rounds of SCAN_PER_THREAD pairs. No CPU twin: one thread has
// nothing to share, and the twins keep the count in a local.

// SCAN_PER_THREAD (from Rust, kernel::rare): pairs each thread tests per
// split digit between two looks at `need`.

var<workgroup> need: atomic<u32>;
var<workgroup> need_shared: u32;

// The wanted values left, after a barrier: the same for every thread (call
// it from uniform control flow).
fn values_left(lid: u32) -> u32 {
    workgroupBarrier();
    if (lid == 0u) {
        need_shared = atomicLoad(&need);
    }
    return workgroupUniformLoad(&need_shared);
}
