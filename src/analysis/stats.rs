//! Summary statistics of a heap table.

use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapStats {
    pub max_value: u16,
    /// The first heap whose value is `max_value`.
    pub first_max_at: u64,
    /// Heaps with value 0.
    pub p_positions: u64,
}

pub fn heap_stats(g: &[u16]) -> HeapStats {
    let mut s = HeapStats {
        max_value: 0,
        first_max_at: 0,
        p_positions: 0,
    };
    for (n, &v) in g.iter().enumerate() {
        if v > s.max_value {
            s.max_value = v;
            s.first_max_at = n as u64;
        }
        if v == 0 {
            s.p_positions += 1;
        }
    }
    s
}
