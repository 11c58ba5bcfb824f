//! The brute force: every option of every heap read, by the blocked
//! kernels (on the GPU or their CPU twins) for octal codes, and by the
//! general engine for the rest.

pub mod blocked;
pub mod general;
