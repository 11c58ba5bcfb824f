//! Grundy's game on rectangles and boxes (Schrage, A two-dimensional generalization of Grundy's game, Sections 3-4): break a
//! box along a grid line into two boxes of unequal size (or whose sides
//! along the cut differ by at least d); a split is worth the xor of its two
//! pieces.

use crate::setting::Setting;

/// The rectangle (2 dimensions) or box (3) game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rect {
    pub dims: usize,
    /// Pieces' sides along the cut must differ by at least this.
    pub min_diff: u32,
}

impl Rect {
    pub fn new(dims: usize, min_diff: u32) -> Result<Rect, String> {
        if !(2..=3).contains(&dims) {
            return Err(format!(
                "{}: expected 2 (rectangles) or 3 (boxes)",
                Setting::Dims.is(dims)
            ));
        }
        Ok(Rect { dims, min_diff })
    }

    /// The cuts of a side: the smaller piece's side, 1..=this.
    pub fn cuts(&self, side: u32) -> u32 {
        // the pieces i and side - i with side - 2i >= min_diff, i >= 1
        side.saturating_sub(self.min_diff) / 2
    }

    /// Every move from a box (sides in any order): its two pieces, each
    /// with its sides sorted, smaller piece first, each pair of pieces once.
    pub fn cuts_of(&self, sides: &[u32]) -> Vec<(Vec<u32>, Vec<u32>)> {
        let mut pieces = Vec::new();
        for d in 0..sides.len() {
            for i in 1..=self.cuts(sides[d]) {
                let piece = |side: u32| {
                    let mut p = sides.to_vec();
                    p[d] = side;
                    p.sort_unstable();
                    p
                };
                let (a, b) = (piece(i), piece(sides[d] - i));
                let pair = if a <= b { (a, b) } else { (b, a) };
                if !pieces.contains(&pair) {
                    pieces.push(pair);
                }
            }
        }
        pieces
    }
}

/// A box as `3x5` (sides in the order given).
pub fn box_name(sides: &[u32]) -> String {
    let sides: Vec<String> = sides.iter().map(u32::to_string).collect();
    sides.join("x")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unequal_pieces_only_with_the_default_difference() {
        let r = Rect::new(2, 1).unwrap();
        assert_eq!(
            (r.cuts(1), r.cuts(2), r.cuts(3), r.cuts(4), r.cuts(5)),
            (0, 0, 1, 1, 2)
        );
        let any = Rect::new(2, 0).unwrap();
        assert_eq!((any.cuts(2), any.cuts(4)), (1, 2));
        let far = Rect::new(3, 3).unwrap();
        assert_eq!((far.cuts(4), far.cuts(5), far.cuts(7)), (0, 1, 2));
        assert!(Rect::new(4, 1).unwrap_err().contains(&Setting::Dims.is(4)));
    }

    #[test]
    fn a_box_is_cut_along_each_side_once_per_pair_of_pieces() {
        let r = Rect::new(2, 1).unwrap();
        let cuts = r.cuts_of(&[3, 5]);
        let expected = [
            (vec![1, 5], vec![2, 5]),
            (vec![1, 3], vec![3, 4]),
            (vec![2, 3], vec![3, 3]),
        ];
        assert_eq!(cuts, expected);
        // 4x4: the two sides give the same pieces (1x4 and 3x4).
        assert_eq!(r.cuts_of(&[4, 4]), [(vec![1, 4], vec![3, 4])]);
        assert!(r.cuts_of(&[2, 2]).is_empty());
        assert_eq!(box_name(&[2, 3, 4]), "2x3x4");
    }
}
