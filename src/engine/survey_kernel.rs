//! What the survey kernel (`shaders/survey_block.wgsl`, CPU twin
//! `src/cpu/survey_block.rs`) needs of a batch of codes: each code's digits
//! as bit sets of the heap counts it may leave (0, 1 or 2), and the layout of
//! the per-code state and tables.

use crate::game::{Code, Modifier};

/// Words of state per code: heaps done, largest value, target (heaps), overflow.
pub const STATE_WORDS: usize = 4;
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
    pub fn new(codes: &[&Code], n: u64) -> SurveyKernel {
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
            stride: crate::engine::packed_words(n + 1) as usize,
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

    /// G(0..len) of code `i` from a table laid out as the kernel writes it.
    pub fn values(&self, table: &[u32], i: usize, len: usize) -> Vec<u16> {
        let words = &table[i * self.stride..];
        (0..len)
            .map(|h| (words[h / 2] >> ((h & 1) * 16)) as u16)
            .collect()
    }
}
