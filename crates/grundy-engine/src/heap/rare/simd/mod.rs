//! The rare values' wide steps, one SIMD path for the process (`path`):
//! the scan of split pairs for the wanted values (`wide_scan`), values
//! below 64 turned into bits (`wide_bits`), and the pass's checks of many
//! candidates at once (`wide_checks`). Private to the rare engine but for
//! the path, which the front ends choose.

mod path;
pub(in crate::heap::rare) mod wide_bits;
pub(in crate::heap::rare) mod wide_checks;
pub(in crate::heap::rare) mod wide_scan;

pub use path::{Simd, choose, chosen, detected, level, parse};
