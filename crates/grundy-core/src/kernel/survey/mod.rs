//! What the survey kernel (`shaders/survey_block.wgsl`, CPU twin
//! `src/kernel/survey/survey_block.rs`) needs of a batch of codes: each code's digits
//! as bit sets of the heap counts it may leave (0, 1 or 2), the layout of
//! the per-code state, tables and rare lists, and the host's choice of rare
//! mode for each code between rounds.

pub mod survey_block;

use crate::analysis::rare_split::{ValueHistogram, rare_positions};
use crate::game::{Code, Modifier};
use crate::kernel::rare::{RareCode, sparse_enough};
use crate::kernel::shader::Shader;

/// Words of state per code: heaps done, largest value, target (heaps),
/// overflow, mode, rare mask, position parity (0 none, 1 + t), rare count.
pub const STATE_WORDS: usize = 8;
/// State word 4: the code runs the rare-value scan (0: the brute force).
pub const MODE_RARE: u32 = 1;
/// Heaps one workgroup finishes per dispatch (a shader loop must stay short
/// on llvmpipe, which stops loops after 65535 iterations).
pub const SURVEY_BLOCK: u32 = 1024;

/// Many codes to run side by side, one workgroup (one CPU task) each.
pub struct SurveyKernel {
    /// Digits per code, d0..d(L-1), zero-padded.
    pub digits_len: u32,
    /// `digits[code * digits_len + j]`: bit k set when taking j may leave k heaps.
    pub digits: Vec<u32>,
    pub codes: usize,
    /// Table words per code: values 0..=n, two u16 values per word.
    pub stride: usize,
    /// Rare list words per code: a code whose list runs full goes back to
    /// the brute force.
    pub rare_cap: usize,
}

/// How a code runs its next round: the brute force, or rare values under
/// a split with these rare positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SurveyMode {
    Brute,
    Rare {
        mask: u32,
        /// State word 6: 0 without the position parity, 1 + t with it.
        parity: u32,
        positions: Vec<u32>,
    },
}

/// Whether the kernel runs `code`: octal digits (0, 1 or 2 heaps left), no
/// modifier, no repeating tail, no minimum difference. Every code of
/// `grundy survey --digits` is one.
pub fn runs_on_kernel(code: &Code) -> bool {
    code.tail.is_empty()
        && code.min_diff == 0
        && code.digits.len() <= 64
        && code.digits.iter().all(|d| {
            d.at_least.is_none() && d.counts < 8 && (d.modifier == Modifier::Plain || d.counts < 4)
        })
}

impl SurveyKernel {
    /// The kernel for `codes` (each one `runs_on_kernel`) to heap `n`.
    /// `rare_cap` bounds each code's rare list (at least 1).
    pub fn new(codes: &[&Code], n: u64, rare_cap: usize) -> SurveyKernel {
        let digits_len = codes
            .iter()
            .map(|c| c.digits.len())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut digits = vec![0u32; codes.len() * digits_len];
        for (i, code) in codes.iter().enumerate() {
            debug_assert!(runs_on_kernel(code), "{}", code.text);
            for (j, d) in code.digits.iter().enumerate() {
                digits[i * digits_len + j] = d.counts as u32;
            }
        }
        SurveyKernel {
            digits_len: digits_len as u32,
            digits,
            codes: codes.len(),
            stride: crate::kernel::shader::packed_words(n + 1) as usize,
            rare_cap: rare_cap.max(1),
        }
    }

    /// The most digits of one code that split a heap in two.
    pub fn split_digits(&self) -> u32 {
        self.digits
            .chunks(self.digits_len as usize)
            .map(|d| d.iter().filter(|&&x| x & 4 != 0).count() as u32)
            .max()
            .unwrap_or(0)
            .max(1)
    }

    /// The state of codes that have done nothing yet (targets 0: set them per round).
    pub fn fresh_state(&self) -> Vec<u32> {
        vec![0; self.codes * STATE_WORDS]
    }

    /// Puts code `i` in `mode` in the state words; the caller writes a rare
    /// mode's positions to the code's list, from word `rare_list_at(i)`.
    pub fn set_mode(&self, state: &mut [u32], i: usize, mode: &SurveyMode) {
        let st = &mut state[i * STATE_WORDS..(i + 1) * STATE_WORDS];
        st[4..8].copy_from_slice(&match mode {
            SurveyMode::Brute => [0; 4],
            SurveyMode::Rare {
                mask,
                parity,
                positions,
            } => [MODE_RARE, *mask, *parity, positions.len() as u32],
        });
    }

    /// The first word of code `i`'s rare list.
    pub fn rare_list_at(&self, i: usize) -> usize {
        i * self.rare_cap
    }

    /// G(0..len) of code `i` from a table laid out as the kernel writes it.
    pub fn values(&self, table: &[u32], i: usize, len: usize) -> Vec<u16> {
        let words = &table[i * self.stride..];
        (0..len)
            .map(|h| (words[h / 2] >> ((h & 1) * 16)) as u16)
            .collect()
    }
}

/// The mode for `code`'s next round, from its table so far: rare values
/// under the best split when the code splits heaps and the split leaves few
/// rare positions (any number with `always`), and they fit `rare_cap`;
/// otherwise the brute force.
pub fn choose_mode(code: &Code, g: &[u16], rare_cap: usize, always: bool) -> SurveyMode {
    let Ok(rc) = RareCode::new(code) else {
        return SurveyMode::Brute;
    };
    let (split, count) = ValueHistogram::of(g).best_split(rc.parity);
    let count = count as usize;
    if count >= rare_cap || !(always || sparse_enough(count, g.len())) {
        return SurveyMode::Brute;
    }
    SurveyMode::Rare {
        mask: split.mask,
        parity: split.parity.map_or(0, |t| 1 + t),
        positions: rare_positions(g, split)
            .into_iter()
            .map(|n| n as u32)
            .collect(),
    }
}
/// `shaders/survey_block.wgsl`: storage bindings are the digits (read), the
/// state words, the tables and the rare lists.
pub const SURVEY_BLOCK_SHADER: Shader = Shader {
    name: "survey_block",
    wgsl: include_str!("../../../shaders/survey_block.wgsl"),
    entry_points: &["survey_block"],
    read_only: &[true, false, false, false],
    constants: &[
        &[
            ("MAX_WORDS", crate::kernel::heap::MAX_WORDS),
            ("STATE_WORDS", STATE_WORDS as u32),
            ("MODE_RARE", MODE_RARE),
        ],
        crate::kernel::rare::SCAN_CONSTANTS,
    ],
};

/// The batch's parameters (`Params`; word 2, the heaps per workgroup per
/// dispatch, changes between rounds).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Params {
    pub codes: u32,
    pub groups_x: u32,
    pub block: u32,
    pub digits_len: u32,
    pub stride: u32,
    pub rare_cap: u32,
    pub pad: [u32; 2],
}
