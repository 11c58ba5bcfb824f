//! What the block pass reads of a run, copied at the block's start.

use grundy_core::analysis::rare_split::RareSplit;

/// What the block pass reads of a run: the rare positions (all below the
/// heaps it knows) and their values, the split, the largest value.
pub(super) struct PassView<'a> {
    pub(super) rare: &'a [usize],
    pub(super) values: &'a [u32],
    pub(super) split: RareSplit,
    pub(super) max_value: u32,
    /// Per source (`checks::source`), true when the pass checks its pairs
    /// instead of marking them (empty: it marks all).
    pub(super) checked: &'a [bool],
    /// Whether the pass marks a heap wholly now and then to learn which
    /// sources to check (`checks::Checked::wanted`).
    pub(super) learn: bool,
    /// The heaps the run gave back, which no scan reads (`kept::Gap`).
    pub(super) gap: super::kept::Gap,
}
