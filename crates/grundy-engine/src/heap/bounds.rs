//! How far a sequence may go, checked in one place: every run, survey and
//! job refuses a last heap past what its engine reaches with the same
//! message, naming the number as its caller does.

use grundy_core::error::{Error, Result};

/// The largest heap a sequence may reach: rare values (heap indices in
/// `usize`) and a certified period's fill, which holds nothing past the
/// heaps computed. The table in memory bounds a computed run first.
pub const MAX_HEAP: u64 = (1 << 40) - 1;

/// The largest heap the brute force reaches: the blocked kernels and their
/// CPU twins index heaps in u32 (WGSL has no 64-bit integers), and the
/// general engine shares their bound. A table that long by brute force
/// would read 2^61 options.
pub const MAX_BRUTE_HEAP: u64 = (1 << 31) - 1;

/// Which engines a run may take, and so how far it may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Rare values or a period's fill: to `MAX_HEAP`.
    Any,
    /// The brute force: to `MAX_BRUTE_HEAP`.
    BruteForce,
}

/// Refuses a last heap `last` past what `reach` allows; `name` is the
/// number as the caller calls it (`-n`, `heaps`, `until_periodic`).
pub fn check_last_heap(name: &str, last: u64, reach: Reach) -> Result<()> {
    if last > MAX_HEAP {
        return Err(Error::Input(format!(
            "{name} {last} is too large; expected at most {MAX_HEAP}"
        )));
    }
    if reach == Reach::BruteForce && last > MAX_BRUTE_HEAP {
        return Err(Error::Input(format!(
            "{name} {last}: the brute force (blocked kernels, general engine) reaches at most \
             heap {MAX_BRUTE_HEAP}; past it only rare values (a code that splits heaps and stays \
             sparse) or a certified period's fill go"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reach_stops_at_its_bound_and_names_the_number_as_told() {
        check_last_heap("count", MAX_BRUTE_HEAP, Reach::BruteForce).unwrap();
        let err = check_last_heap("count", MAX_BRUTE_HEAP + 1, Reach::BruteForce).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("count 2147483648: the brute force"),
            "{err}"
        );
        check_last_heap("heaps", MAX_BRUTE_HEAP + 1, Reach::Any).unwrap();
        let err = check_last_heap("heaps", MAX_HEAP + 1, Reach::Any).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("heaps 1099511627776 is too large"),
            "{err}"
        );
    }
}
