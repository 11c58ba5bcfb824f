//! The rare-value algorithm's contract (the engine's `rare_values` runs it;
//! the survey kernel's rare mode and the block pass run parts of it on the
//! GPU): a code as the algorithm reads it, when a table is sparse enough
//! for it to pay, and the block pass's kernel (`RARE_PASS`, twin
//! `rare_pass::rare_pass`).

pub mod rare_pass;
pub mod split_words;

use crate::game::Code;
use crate::kernel::heap::{HeapKernelCode, UNBOUNDED};
use crate::kernel::shader::{Constants, Shader};

/// `shaders/rare_pass.wgsl`: storage bindings are the code, the table's
/// `TABLE_PIECES` pieces and the rare list (read), the marks and missing
/// values, and c′ with the pairs read, per heap.
pub const RARE_PASS: Shader = Shader {
    name: "rare_pass",
    wgsl: include_str!("../../../shaders/rare_pass.wgsl"),
    entry_points: &["rare_pass"],
    read_only: &[
        true, true, true, true, true, true, true, true, true, true, false, false,
    ],
    constants: &[&[("WG", WG), ("MAX_WORDS", MAX_WORDS)], SCAN_CONSTANTS],
};

/// Pieces the pass binds the table in (`table0..table7`): wgpu binds at
/// most 2 GiB − 1 on Vulkan, so pieces of 1 GiB, and eight of them hold
/// 2^32 values, every heap the shader's u32 indices reach.
pub const TABLE_PIECES: usize = 8;

/// Threads per heap (`WG`).
pub const WG: u32 = 64;
/// Bitset words (u32) per heap at most: the pass runs while every value
/// (and so every mark and mex) is below 2048.
pub const MAX_WORDS: u32 = 64;
/// Pairs each thread tests per split digit between two looks at `need`.
pub const SCAN_PER_THREAD: u32 = 4;
/// What rare_scan.wgsl reads of Rust's constants.
pub const SCAN_CONSTANTS: Constants = &[("SCAN_PER_THREAD", SCAN_PER_THREAD)];

/// The pass's parameters (`Params` in rare_pass.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PassParams {
    /// Heaps below s are known.
    pub s: u32,
    /// The block's first heap and its heaps.
    pub first: u32,
    pub count: u32,
    /// Bitset words (u32) per heap.
    pub words: u32,
    /// The rare/common split: its mask, and 0 or 1 + t for the position
    /// parity t.
    pub mask: u32,
    pub parity: u32,
    /// Rare positions below s.
    pub rare_count: u32,
    pub groups_x: u32,
    /// Words (two values each) per table piece: `1 << piece_shift`.
    pub piece_shift: u32,
}

/// The position parity t of `code`'s rare/common split, when its breaking
/// digits all sit at indices of one parity (none when rare values do not run it).
pub fn rare_parity(code: &Code) -> Option<u32> {
    RareCode::new(code).ok().and_then(|rc| rc.parity)
}

/// A code as the rare-value algorithm reads it.
#[derive(Clone, Debug)]
pub struct RareCode {
    /// (j, digit bits 0..1): take j, leave nothing (bit 0) or one heap (bit 1).
    /// Heap offsets are `usize`, as the heaps they are taken from.
    pub takes: Vec<(usize, u32)>,
    /// (j, d): take j and split the rest into two heaps differing by at least d.
    pub splits: Vec<(usize, usize)>,
    /// j: take j and split the rest into two equal heaps (value 0).
    pub equal_splits: Vec<usize>,
    /// Some(t) when every breaking digit sits at an index ≡ t (mod 2).
    pub parity: Option<u32>,
}

impl RareCode {
    /// The code as the pass reads it: the numbers of takes and splits,
    /// then (j, d) per take and (j, diff) per split.
    pub fn pass_words(&self) -> Vec<u32> {
        let mut words = vec![self.takes.len() as u32, self.splits.len() as u32];
        for &(j, d) in &self.takes {
            words.extend([j as u32, d]);
        }
        for &(j, diff) in &self.splits {
            words.extend([j as u32, diff as u32]);
        }
        words
    }

    /// `Err` says why the algorithm does not apply: it needs finitely many
    /// digits and at least one that splits a heap in two.
    pub fn new(code: &Code) -> Result<RareCode, String> {
        let k = HeapKernelCode::new(code)?;
        if k.take_jmax == UNBOUNDED || k.split_jmax == UNBOUNDED {
            return Err(format!(
                "{}: the rare-value algorithm needs a finite code (no repeating tail)",
                code.text
            ));
        }
        let mut takes = Vec::new();
        let mut splits = Vec::new();
        let mut equal_splits = Vec::new();
        for j in 0..=k.take_jmax.max(k.split_jmax) {
            let d = k.digit(j);
            let at = j as usize;
            if j >= 1 && d & 3 != 0 {
                takes.push((at, d & 3));
            }
            if d & 4 != 0 {
                let modifier = (d >> 8) & 3;
                if modifier == crate::kernel::heap::MOD_ALL_EQUAL {
                    if k.min_diff == 0 {
                        equal_splits.push(at);
                    }
                } else {
                    let plain = modifier == crate::kernel::heap::MOD_PLAIN;
                    let diff = if plain { k.min_diff } else { k.min_diff.max(1) };
                    splits.push((at, diff as usize));
                }
            }
        }
        if splits.is_empty() {
            return Err(format!(
                "{}: no digit splits a heap into two heaps of free sizes, so there are no rare values to use",
                code.text
            ));
        }
        let t = splits[0].0 & 1;
        let parity = splits.iter().all(|&(j, _)| j & 1 == t).then_some(t as u32);
        Ok(RareCode {
            takes,
            splits,
            equal_splits,
            parity,
        })
    }
}

/// The brute force that rare values are weighed against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BruteForceOn {
    /// The blocked kernels' CPU twins: on the project's 2-core VM rare
    /// values were faster to 2^17 on every code of the published unsolved
    /// list with at most a quarter of its heaps rare; past that it depends
    /// on the code (`.244` slower at 30 %, `.125` faster at 42 %:
    /// BENCHMARKS-log.md, "Auto looks again").
    Cpu,
    /// The blocked kernels on a card (and the survey's kernel): one rare
    /// heap in 8, the rule from before the CPU's was measured, not yet
    /// measured against a card.
    Gpu,
}

/// Whether `rare` rare positions among `heaps` heaps leave the table
/// sparse enough for the rare-value scan to beat the brute force `on`.
/// A rare heap costs a scan of all its pairs, as a heap of the brute force
/// does, and every heap marks every rare heap: the cost is about linear in
/// the share of rare heaps, so one share divides the two.
pub fn rare_values_pay(rare: usize, heaps: usize, on: BruteForceOn) -> bool {
    match on {
        BruteForceOn::Cpu => rare * 4 <= heaps,
        BruteForceOn::Gpu => rare * 8 <= heaps,
    }
}

/// Whether `rare` rare positions among `heaps` heaps leave the table sparse
/// enough for rare values to beat the brute force on a card (the GPU
/// survey's rule).
pub fn sparse_enough(rare: usize, heaps: usize) -> bool {
    rare_values_pay(rare, heaps, BruteForceOn::Gpu)
}
