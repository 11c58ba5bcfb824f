//! Rulesets: what a position is and what its options are.

pub mod code;

pub use code::{Code, CodeError, Digit, Modifier};
