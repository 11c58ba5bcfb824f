//! Summary statistics of a heap table.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How many P-positions the summary lists (all of them go to `--p-out`).
pub const P_LISTED: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// The statistics of a table, a piece of it per thread.
pub fn heap_stats<T: Copy + Into<u32> + Sync>(g: &[T]) -> HeapStats {
    heap_stats_by_piece(g.len(), |a, b| &g[a..b])
}

/// The statistics of a table of `len` values whose heaps a..b `piece`
/// gives, a piece per thread.
pub fn heap_stats_by_piece<T: Copy + Into<u32>, P: AsRef<[T]>>(
    len: usize,
    piece: impl Fn(usize, usize) -> P + Sync,
) -> HeapStats {
    heap_stats_of_range(0, len, &piece)
}

/// The statistics of heaps `a..b` of a table whose heaps `piece` gives, a
/// piece per thread.
pub fn heap_stats_of_range<T: Copy + Into<u32>, P: AsRef<[T]>>(
    a: usize,
    b: usize,
    piece: &(impl Fn(usize, usize) -> P + Sync),
) -> HeapStats {
    (0..b.saturating_sub(a).div_ceil(PIECE))
        .into_par_iter()
        .map(|k| {
            let first = a + k * PIECE;
            piece_stats(piece(first, b.min(first + PIECE)).as_ref(), first as u64)
        })
        .reduce(HeapStats::empty, HeapStats::then)
}

/// Values per thread's piece.
const PIECE: usize = 1 << 20;

/// The statistics of heaps first, first + 1, … with values `g`.
fn piece_stats<T: Copy + Into<u32>>(g: &[T], first: u64) -> HeapStats {
    let mut s = HeapStats::empty();
    for (i, &v) in g.iter().enumerate() {
        let (n, v) = (first + i as u64, v.into());
        let seen = &mut s.first_heap_with_value;
        if v as usize >= seen.len() {
            seen.resize(v as usize + 1, None);
        }
        if seen[v as usize].is_none() {
            seen[v as usize] = Some(n);
        }
        if v > s.max_value as u32 {
            s.max_value = v as u16;
            s.first_max_at = n;
        }
        if v == 0 {
            s.p_positions += 1;
            if s.first_p_positions.len() < P_LISTED {
                s.first_p_positions.push(n);
            }
        }
    }
    s
}

impl Default for HeapStats {
    /// The statistics of no heap.
    fn default() -> HeapStats {
        HeapStats::empty()
    }
}

impl HeapStats {
    fn empty() -> HeapStats {
        HeapStats {
            max_value: 0,
            first_max_at: 0,
            p_positions: 0,
            first_p_positions: Vec::new(),
            first_heap_with_value: Vec::new(),
        }
    }

    /// The statistics of this piece of a table followed by `next`, the
    /// piece after it.
    pub fn then(mut self, next: HeapStats) -> HeapStats {
        if next.max_value > self.max_value {
            (self.max_value, self.first_max_at) = (next.max_value, next.first_max_at);
        }
        self.p_positions += next.p_positions;
        let room = P_LISTED - self.first_p_positions.len();
        let more = next.first_p_positions.into_iter().take(room);
        self.first_p_positions.extend(more);
        let seen = &mut self.first_heap_with_value;
        if seen.len() < next.first_heap_with_value.len() {
            seen.resize(next.first_heap_with_value.len(), None);
        }
        for (mine, theirs) in seen.iter_mut().zip(next.first_heap_with_value) {
            *mine = mine.or(theirs);
        }
        self
    }
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

    #[test]
    fn pieces_joined_in_order_give_the_whole_tables_statistics() {
        let g: Vec<u16> = (0..5000u32)
            .map(|n| ((n.wrapping_mul(2654435761) >> 9) % 37) as u16)
            .collect();
        let whole = piece_stats(&g, 0);
        for cut in [1, 7, 100, 2500, 4999] {
            let (a, b) = g.split_at(cut);
            let joined = piece_stats(a, 0).then(piece_stats(b, cut as u64));
            assert_eq!(joined, whole, "cut at {cut}");
        }
        assert_eq!(heap_stats(&g), whole);
        assert!(whole.p_positions > P_LISTED as u64);
    }
}
