//! Summary statistics of a heap table.

use serde::Serialize;

/// How many P-positions the summary lists (all of them go to `--p-out`).
pub const P_LISTED: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeapStats {
    pub max_value: u16,
    /// The first heap whose value is `max_value`.
    pub first_max_at: u64,
    /// Heaps with value 0.
    pub p_positions: u64,
    /// The first `P_LISTED` heaps with value 0.
    pub first_p_positions: Vec<u64>,
    /// `first_heap_with_value[v]`: the first heap whose value is v (null: none).
    pub first_heap_with_value: Vec<Option<u64>>,
}

pub fn heap_stats<T: Copy + Into<u32>>(g: &[T]) -> HeapStats {
    let mut s = HeapStats {
        max_value: 0,
        first_max_at: 0,
        p_positions: 0,
        first_p_positions: Vec::new(),
        first_heap_with_value: Vec::new(),
    };
    for (n, &v) in g.iter().enumerate() {
        let v: u32 = v.into();
        let first = &mut s.first_heap_with_value;
        if v as usize >= first.len() {
            first.resize(v as usize + 1, None);
        }
        if first[v as usize].is_none() {
            first[v as usize] = Some(n as u64);
        }
        if v > s.max_value as u32 {
            s.max_value = v as u16;
            s.first_max_at = n as u64;
        }
        if v == 0 {
            s.p_positions += 1;
            if s.first_p_positions.len() < P_LISTED {
                s.first_p_positions.push(n as u64);
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kayles_first_values_and_p_positions() {
        // Kayles (0.77): 0 1 2 3 1 4 3 2 1 4 2 6
        let g: Vec<u8> = vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6];
        let s = heap_stats(&g);
        assert_eq!((s.max_value, s.first_max_at, s.p_positions), (6, 11, 1));
        assert_eq!(s.first_p_positions, vec![0]);
        assert_eq!(
            s.first_heap_with_value,
            vec![Some(0), Some(1), Some(2), Some(3), Some(5), None, Some(11)]
        );
    }
}
