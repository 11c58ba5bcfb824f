//! Nondecreasing tuples of sizes (heaps, or the sides of a box) ranked into a
//! dense table, and the order that walks them level by level (by total).
//!
//! A tuple h1 <= h2 <= ... <= hn with sizes in 1..=max is the strictly
//! increasing set c_i = h_i - 1 + i (i from 0), ranked in colex order:
//! rank = sum over i of C(c_i, i + 1). The same rule runs in
//! `shaders/shared/tuple_common.wgsl` and `src/kernel/tuples/common.rs`.

pub use crate::game::MAX_HEAPS;
/// The most positions a table may hold (u32 ranks, one u32 value each).
pub const MAX_POSITIONS: u64 = 1 << 31;

/// Every nondecreasing `heaps`-tuple with sizes in `1..=max`.
#[derive(Clone, Debug)]
pub struct TupleSpace {
    pub heaps: usize,
    pub max: u32,
    /// C(a, j) at `a * (MAX_HEAPS + 1) + j`, for a below `max + heaps`
    /// (the layout the kernels read).
    pub binom: Vec<u32>,
    count: u64,
}

/// Nondecreasing tuples of `heaps` sizes in 1..=max: C(max + heaps − 1,
/// heaps), saturating at u128::MAX.
fn tuple_count(heaps: usize, max: u32) -> u128 {
    let mut count: u128 = 1;
    for i in 1..=heaps as u128 {
        // C(m+i-1, i) = C(m+i-2, i-1) * (m+i-1) / i, exact at every step
        let Some(next) = count.checked_mul(max as u128 + i - 1) else {
            return u128::MAX;
        };
        count = next / i;
    }
    count
}

impl TupleSpace {
    /// The space, or why it cannot be tabulated.
    pub fn new(heaps: usize, max: u32) -> Result<TupleSpace, String> {
        if heaps == 0 || heaps > MAX_HEAPS {
            return Err(format!("expected 1 to {MAX_HEAPS} heaps, got {heaps}"));
        }
        if max == 0 {
            return Err("the largest size must be at least 1".into());
        }
        // Checked before Pascal's rule below allocates max + heaps rows.
        let count = tuple_count(heaps, max);
        if count > MAX_POSITIONS as u128 {
            let shown = if count == u128::MAX {
                "more than 10^38".to_string()
            } else {
                count.to_string()
            };
            return Err(format!(
                "{heaps} heaps up to {max} make {shown} positions; at most {MAX_POSITIONS} fit one table"
            ));
        }
        let rows = max as usize + heaps;
        let cols = MAX_HEAPS + 1;
        // Pascal's rule, saturating: counts too large for a table are refused below
        let mut wide = vec![0u64; rows * cols];
        wide[0] = 1;
        for a in 1..rows {
            wide[a * cols] = 1;
            for j in 1..cols {
                wide[a * cols + j] =
                    wide[(a - 1) * cols + j - 1].saturating_add(wide[(a - 1) * cols + j]);
            }
        }
        let count = wide[(rows - 1) * cols + heaps];
        if count > MAX_POSITIONS {
            return Err(format!(
                "{heaps} heaps up to {max} make {count} positions; at most {MAX_POSITIONS} fit one table"
            ));
        }
        Ok(TupleSpace {
            heaps,
            max,
            binom: wide
                .iter()
                .map(|&b| b.min(u32::MAX as u64) as u32)
                .collect(),
            count,
        })
    }

    pub fn binomial(&self, a: usize, j: usize) -> u32 {
        self.binom[a * (MAX_HEAPS + 1) + j]
    }

    /// How many tuples (table entries) there are.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of a nondecreasing tuple.
    pub fn rank(&self, h: &[u32]) -> u32 {
        h.iter()
            .enumerate()
            .map(|(i, &s)| self.binomial(s as usize - 1 + i, i + 1))
            .sum()
    }

    /// The tuple of rank `r`.
    pub fn unrank(&self, mut r: u32, h: &mut [u32]) {
        for i in (0..self.heaps).rev() {
            // the largest c with C(c, i + 1) <= r, c in i..max + i
            let (mut lo, mut hi) = (i, self.max as usize - 1 + i);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if self.binomial(mid, i + 1) <= r {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            r -= self.binomial(lo, i + 1);
            h[i] = (lo - i + 1) as u32;
        }
    }

    /// The smallest total a tuple has, and the largest.
    pub fn totals(&self) -> (u64, u64) {
        (self.heaps as u64, self.heaps as u64 * self.max as u64)
    }

    /// Every rank, ordered by total (a level), and where each level starts
    /// in that order: level t is `order[starts[t - lo]..starts[t - lo + 1]]`
    /// with `lo` the smallest total.
    pub fn levels(&self) -> Levels {
        let (lo, hi) = self.totals();
        let width = (hi - lo + 1) as usize;
        let mut starts = vec![0u32; width + 1];
        let mut h = vec![1u32; self.heaps];
        let mut total = lo;
        // counting sort by total, walking the tuples in rank order
        let mut totals = Vec::with_capacity(self.count as usize);
        loop {
            totals.push((total - lo) as u32);
            starts[(total - lo) as usize + 1] += 1;
            match next_colex(&mut h, self.max) {
                Some(delta) => total = (total as i64 + delta) as u64,
                None => break,
            }
        }
        for t in 0..width {
            starts[t + 1] += starts[t];
        }
        let mut fill = starts.clone();
        let mut order = vec![0u32; self.count as usize];
        for (rank, &t) in totals.iter().enumerate() {
            order[fill[t as usize] as usize] = rank as u32;
            fill[t as usize] += 1;
        }
        Levels {
            lowest: lo,
            starts,
            order,
        }
    }

    /// Every tuple in lexicographic order (h1 first), for tables people read.
    pub fn for_each_lex(&self, mut visit: impl FnMut(&[u32])) {
        let n = self.heaps;
        let mut h = vec![1u32; n];
        loop {
            visit(&h);
            // the rightmost entry that can grow; everything right of it follows it
            let Some(i) = (0..n).rev().find(|&i| h[i] < self.max) else {
                return;
            };
            h[i] += 1;
            for j in i + 1..n {
                h[j] = h[i];
            }
        }
    }
}

/// Steps a nondecreasing tuple to the next one in colex (rank) order;
/// returns how its total changed, or `None` after the last.
pub fn next_colex(h: &mut [u32], max: u32) -> Option<i64> {
    let n = h.len();
    // the leftmost entry that can grow without passing its right neighbour
    let i = (0..n).find(|&i| {
        if i + 1 < n {
            h[i] < h[i + 1]
        } else {
            h[i] < max
        }
    })?;
    let before: i64 = h[..=i].iter().map(|&x| x as i64).sum();
    h[i] += 1;
    for x in h[..i].iter_mut() {
        *x = 1;
    }
    Some(h[i] as i64 + i as i64 - before)
}

/// The ranks of a space by level.
pub struct Levels {
    /// The total of level 0.
    pub lowest: u64,
    pub starts: Vec<u32>,
    pub order: Vec<u32>,
}

impl Levels {
    /// How many levels there are.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The ranks of level `l` (total `lowest + l`).
    pub fn level(&self, l: usize) -> &[u32] {
        &self.order[self.starts[l] as usize..self.starts[l + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_every_tuple_once_in_colex_order() {
        for (heaps, max) in [(1, 9), (2, 7), (3, 6), (4, 5), (8, 3)] {
            let space = TupleSpace::new(heaps, max).unwrap();
            let mut h = vec![1u32; heaps];
            let mut expected = 0u32;
            loop {
                assert_eq!(space.rank(&h), expected, "{h:?}");
                let mut back = vec![0u32; heaps];
                space.unrank(expected, &mut back);
                assert_eq!(back, h);
                expected += 1;
                if next_colex(&mut h, max).is_none() {
                    break;
                }
            }
            assert_eq!(expected as u64, space.count());
            let mut lex = 0;
            space.for_each_lex(|t| {
                assert!(t.windows(2).all(|w| w[0] <= w[1]) && t[heaps - 1] <= max);
                lex += 1;
            });
            assert_eq!(lex, space.count());
        }
    }

    #[test]
    fn levels_hold_every_rank_once_by_total() {
        let space = TupleSpace::new(3, 6).unwrap();
        let levels = space.levels();
        assert_eq!(levels.len(), 16);
        let mut seen = vec![false; space.count() as usize];
        let mut h = [0u32; 3];
        for l in 0..levels.len() {
            for &r in levels.level(l) {
                space.unrank(r, &mut h);
                assert_eq!(h.iter().sum::<u32>() as u64, levels.lowest + l as u64);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn spaces_too_large_for_a_table_are_refused() {
        assert!(TupleSpace::new(2, 4096).is_ok());
        assert!(
            TupleSpace::new(8, 100_000)
                .unwrap_err()
                .contains("positions")
        );
        assert!(TupleSpace::new(9, 3).is_err());
    }
}
