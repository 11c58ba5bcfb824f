//! Memory a run will need: what the machine (its cgroup, its limits) has
//! room for, sizes as people write them, and the refusal a run gives
//! before it starts when it cannot fit.

pub use grundy_engine::memory::{
    Room, available_bytes, check_fits, human, one_malloc_arena_under_address_limit, resident_bytes,
    room, sums_within_budget,
};

/// A size such as `8G`, `512M`, `1.5GiB` or `1000000` (bytes); K, M, G
/// and T are powers of 1024. The error says what was expected.
///
/// ```
/// assert_eq!(grundy::memory::parse_size("1.5K"), Ok(1536));
/// assert!(grundy::memory::parse_size("lots").is_err());
/// ```
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    grundy_engine::memory::parse_size(text)
}
