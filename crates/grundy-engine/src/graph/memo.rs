//! The memo solver, for graphs too large for a dense table: the value of a
//! position is the xor of its connected components', and each component's
//! value is remembered under a canonical form, so isomorphic pieces are
//! solved once (rooted-tree codes for trees, the eight symmetries of the
//! square for grid pieces, the induced adjacency otherwise). One memo may
//! serve many graphs: the pode and bipode tables share theirs.
//!
//! Under misère play a sum's value is not the xor of its parts', so the memo
//! takes misère play only where no sum arises: a connected position under a
//! code that never leaves two pieces (0.33 on trees, k-podes and bipodes),
//! whose every option is connected or empty.

use crate::memory::check_fits;
use grundy_core::error::{Error, Result};
use grundy_core::fast_map::FastMap;
use grundy_core::game::connected_sets::for_each_connected_set;
use grundy_core::game::graph::{Flood, bits};
use grundy_core::game::{Convention, Graph, GraphCode};
use grundy_core::hooks::{RunHooks, Silent};
use grundy_core::setting::Setting;

/// A connected piece up to isomorphism (or up to grid symmetry).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// AHU code of the tree: 1, the children's codes in order, 0.
    Tree(u128),
    /// A piece of a grid with at most 8 rows and 8 columns, on an 8x8
    /// board: the least of its eight images, each moved into the corner.
    Board(u64),
    /// A piece of a larger grid in its bounding box, least of its eight images.
    Shape { h: u8, w: u8, cells: u64 },
    /// Any other piece: the adjacency of its vertices renumbered in order.
    Labelled(Vec<u64>),
}

/// One evaluated piece, as `--out` writes it.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    pub mask: u64,
    pub size: u32,
    pub g: u8,
}

pub struct MemoSolver<'h> {
    code: GraphCode,
    memo: FastMap<Key, u8>,
    /// Pieces of small grids by board shape: a map of words, entries less
    /// than half the size of `memo`'s.
    boards: FastMap<u64, u8>,
    /// The pieces left by the options of the pieces being valued, deepest
    /// last, and the removals of three or more vertices listed for them:
    /// one buffer each for the whole recursion.
    parts: Vec<Part>,
    removals: Vec<u64>,
    /// Pieces evaluated, in order, with the mask they had when first met.
    pub records: Vec<Record>,
    /// Keep `records` (the `graph --out` table).
    pub keep_records: bool,
    /// Told the count of pieces solved, every 2^16 of them.
    pub hooks: &'h dyn RunHooks,
}

impl MemoSolver<'static> {
    /// A solver of `code` with nothing met yet, telling no one its progress
    /// (set `hooks` to be told).
    pub fn new(code: &GraphCode) -> MemoSolver<'static> {
        MemoSolver {
            code: code.clone(),
            memo: FastMap::default(),
            boards: FastMap::default(),
            parts: Vec::new(),
            removals: Vec::new(),
            records: Vec::new(),
            keep_records: false,
            hooks: &Silent,
        }
    }
}

impl MemoSolver<'_> {
    /// Distinct pieces evaluated so far.
    pub fn positions(&self) -> u64 {
        (self.memo.len() + self.boards.len()) as u64
    }

    /// G of the position `mask` of `graph` (under misère play, g⁻ of a
    /// connected one under a code that never splits: `takes_misere`).
    pub fn value(&mut self, graph: &Graph, mask: u64) -> Result<u8> {
        if self.code.convention == Convention::Misere {
            takes_misere(graph, &self.code, mask)?;
        }
        let mut local = FastMap::default();
        self.position(graph, mask, &mut local)
    }

    fn position(&mut self, graph: &Graph, mask: u64, local: &mut FastMap<u64, u8>) -> Result<u8> {
        let mut v = 0;
        for comp in graph.iter_components(mask) {
            v ^= self.piece(graph, comp, local)?;
        }
        Ok(v)
    }

    /// G of a connected piece: the mex over its options.
    fn piece(&mut self, graph: &Graph, comp: u64, local: &mut FastMap<u64, u8>) -> Result<u8> {
        let dims = board_dims(graph);
        let key = match self.lookup(graph, comp, dims, local) {
            Ok(v) => return Ok(v),
            Err(key) => key,
        };
        let base = self.parts.len();
        self.list_options(graph, comp, dims);
        let g = self.mex_of_options(graph, comp, base, local)?;
        if let Key::Board(board) = key {
            check_growth(&self.boards)?;
            self.boards.insert(board, g);
        } else {
            check_growth(&self.memo)?;
            self.memo.insert(key, g);
            local.insert(comp, g);
        }
        let solved = self.positions();
        if solved.is_multiple_of(1 << 16) {
            self.hooks.progress(solved);
        }
        if self.keep_records {
            self.records.push(Record {
                mask: comp,
                size: comp.count_ones(),
                g,
            });
        }
        Ok(g)
    }

    /// The piece's value when it is known, else the key it will be kept
    /// under. A board shape costs a few word operations: looked up
    /// directly. Other keys cost more to build than a lookup of the mask.
    fn lookup(
        &self,
        graph: &Graph,
        comp: u64,
        dims: Option<(usize, usize)>,
        local: &mut FastMap<u64, u8>,
    ) -> std::result::Result<u8, Key> {
        if let Some((rows, cols)) = dims {
            let board = board_shape(comp, rows, cols);
            return self.boards.get(&board).copied().ok_or(Key::Board(board));
        }
        if let Some(&v) = local.get(&comp) {
            return Ok(v);
        }
        let key = canonical_key(graph, comp);
        match self.memo.get(&key) {
            Some(&v) => {
                local.insert(comp, v);
                Ok(v)
            }
            None => Err(key),
        }
    }

    /// `comp` is one piece: lists in `parts` what each connected set
    /// leaves of it, when the code allows that many pieces. Vertices and
    /// edges, the usual removals, come straight from masks; larger sets
    /// are listed first. The pieces every option leaves are listed before
    /// any is valued, so their lookups go out together: in a large memo
    /// the cache misses overlap instead of queueing.
    fn list_options(&mut self, graph: &Graph, comp: u64, dims: Option<(usize, usize)>) {
        let flood = graph.flood();
        let vertices = comp.count_ones() as usize;
        let base = self.parts.len();
        for size in 1..=self.code.max_take().min(vertices) {
            if self.code.digits[size] == 0 {
                continue;
            }
            match size {
                1 => bits(comp).for_each(|v| self.list_option(flood, dims, comp, 1 << v)),
                2 => flood
                    .edges(comp)
                    .for_each(|edge| self.list_option(flood, dims, comp, edge)),
                _ => {
                    let start = self.removals.len();
                    for_each_connected_set(&graph.adj, comp, size, |set| self.removals.push(set));
                    for i in start..self.removals.len() {
                        self.list_option(flood, dims, comp, self.removals[i]);
                    }
                    self.removals.truncate(start);
                }
            }
        }
        if dims.is_some() {
            for part in self.parts[base..].iter_mut().filter(|p| p.value.is_none()) {
                part.value = self.boards.get(&part.board).copied();
            }
        }
    }

    /// The mex of the options listed from `base` on (each the xor of its
    /// pieces), which it takes off the list.
    fn mex_of_options(
        &mut self,
        graph: &Graph,
        comp: u64,
        base: usize,
        local: &mut FastMap<u64, u8>,
    ) -> Result<u8> {
        let mut seen = [0u64; 5];
        let mut option = 0;
        let has_move = self.parts.len() > base;
        for i in base..self.parts.len() {
            let part = self.parts[i];
            option ^= match part.value {
                Some(v) => v,
                None => self.piece(graph, part.mask, local)?,
            } as usize;
            if part.last {
                seen[option >> 6] |= 1 << (option & 63);
                option = 0;
            }
        }
        self.parts.truncate(base);
        let mex = (0..320)
            .find(|&v| seen[v >> 6] >> (v & 63) & 1 == 0)
            .unwrap_or(320);
        let g = self.code.convention.value(has_move, mex as u32);
        if g > 255 {
            return Err(Error::Run(format!(
                "the piece {comp:#x} has a value above 255, the most grundy's graph tables hold"
            )));
        }
        Ok(g as u8)
    }

    /// Lists in `parts` the pieces that removing the connected `set`
    /// leaves of the piece `comp`, when the code allows that many pieces.
    fn list_option(&mut self, flood: Flood, dims: Option<(usize, usize)>, comp: u64, set: u64) {
        let Some((pieces, count)) = option_pieces(&self.code, flood, comp, set) else {
            return;
        };
        if count == 0 {
            // the move takes the whole piece: an option of value 0 (1
            // under misère play, where the empty position has no move)
            let empty = Part {
                mask: 0,
                board: 0,
                value: Some(self.code.convention.no_move_value() as u8),
                last: true,
            };
            self.parts.push(empty);
        }
        for (i, &mask) in pieces[..count].iter().enumerate() {
            self.parts.push(Part {
                mask,
                board: dims.map_or(0, |(rows, cols)| board_shape(mask, rows, cols)),
                value: None,
                last: i + 1 == count,
            });
        }
    }
}

/// Refuses misère play where the memo would add values of a sum: a
/// position of several pieces, or a code that may leave two.
pub fn takes_misere(graph: &Graph, code: &GraphCode, mask: u64) -> Result<()> {
    let why = if code.splits() {
        format!("{} may leave a piece in two", code.text)
    } else if graph.components(mask).len() > 1 {
        "the graph is in several pieces".to_string()
    } else {
        return Ok(());
    };
    Err(Error::Input(format!(
        "{} with {}: {why}, and a sum's misère value is not the xor of its pieces' that the \
         memo solver adds; expected {} (a table over every vertex subset, up to 34 vertices)",
        Setting::Misere.named(),
        Setting::Solver.is("memo"),
        Setting::Solver.is("dense")
    )))
}

/// The pieces (at most two) that removing the connected `set` leaves of
/// the connected piece `comp`, and how many; `None` when the code does not
/// allow a removal of that size to leave that many. Inlined into both
/// memos: a call costs the recursion measurably (BENCHMARKS.md).
#[inline(always)]
pub fn option_pieces(
    code: &GraphCode,
    flood: Flood,
    comp: u64,
    set: u64,
) -> Option<([u64; 3], usize)> {
    let rest = comp & !set;
    let size = set.count_ones() as usize;
    // The pieces of `rest`, found once: a third means too many.
    // `comp` was connected, so `rest` is when the vertices next to
    // `set` are: grow from one of them until it holds them all.
    let mut pieces = [0u64; 3];
    let mut count = 0;
    let mut left = rest;
    if rest != 0 {
        let next_to = flood.neighbours(set) & rest;
        let first = match next_to.is_power_of_two() {
            true => rest,
            false => flood.grow_until(rest, next_to.trailing_zeros() as usize, next_to),
        };
        if first & next_to == next_to {
            pieces[0] = rest;
        } else if !code.allows(size, 2) {
            return None; // two pieces or more, which this removal may not leave
        } else {
            pieces[0] = first;
        }
        left &= !pieces[0];
        count = 1;
    }
    while left != 0 && count < 3 {
        pieces[count] = flood.component(left, left.trailing_zeros() as usize);
        left &= !pieces[count];
        count += 1;
    }
    code.allows(size, count as u32).then_some((pieces, count))
}

/// Refuses to let `map` grow past the memory available: how many pieces a
/// graph has is not known before they are met, so a memo that outgrows the
/// machine stops with a clear error instead of swapping or being killed.
fn check_growth<K, V>(map: &FastMap<K, V>) -> Result<()> {
    if map.len() < map.capacity() {
        return Ok(());
    }
    // the next table: twice the capacity, at 7/8 load, a control byte each
    let entry = std::mem::size_of::<(K, V)>() as u64 + 1;
    let bytes = (2 * map.capacity() as u64 + 16) * 8 / 7 * entry;
    check_fits(
        &format!("the memo solver, past {} pieces,", map.len()),
        bytes,
    )
}

/// A piece one option leaves, listed before it is valued.
#[derive(Clone, Copy, Debug)]
struct Part {
    mask: u64,
    /// Its board shape, on grids that fit a board.
    board: u64,
    value: Option<u8>,
    /// The last piece of its option.
    last: bool,
}

/// The canonical key of the connected piece `comp` of `graph`.
pub fn canonical_key(graph: &Graph, comp: u64) -> Key {
    if let Some((rows, cols)) = board_dims(graph) {
        return Key::Board(board_shape(comp, rows, cols));
    }
    let vertices = comp.count_ones();
    if graph.edges_within(comp) + 1 == vertices {
        return Key::Tree(tree_code(graph, comp));
    }
    match graph.grid {
        Some((_, cols)) => grid_shape(comp, cols),
        None => Key::Labelled(graph.induced(comp).adj),
    }
}

/// The AHU code of the tree `comp`, rooted at its centre (the smaller code
/// of the two rootings when it has two centres).
pub fn tree_code(graph: &Graph, comp: u64) -> u128 {
    let mut core = comp;
    while core.count_ones() > 2 {
        let leaves = bits(core)
            .filter(|&v| (graph.adj[v] & core).count_ones() <= 1)
            .fold(0u64, |acc, v| acc | 1 << v);
        core &= !leaves;
    }
    bits(core)
        .map(|c| rooted_code(graph, comp, c, usize::MAX).0)
        .min()
        .expect("a tree has a centre")
}

/// (code, length in bits) of the subtree of `comp` at `v` away from `parent`.
fn rooted_code(graph: &Graph, comp: u64, v: usize, parent: usize) -> (u128, u32) {
    let mut children: Vec<(u128, u32)> = bits(graph.adj[v] & comp)
        .filter(|&c| c != parent)
        .map(|c| rooted_code(graph, comp, c, v))
        .collect();
    children.sort_unstable_by_key(|&(code, len)| (len, code));
    let mut code: u128 = 1;
    let mut len = 1;
    for (c, l) in children {
        code = code << l | c;
        len += l;
    }
    (code << 1, len + 1)
}

/// The grid's size when its pieces fit an 8x8 board.
fn board_dims(graph: &Graph) -> Option<(usize, usize)> {
    graph.grid.filter(|&(rows, cols)| rows <= 8 && cols <= 8)
}

/// The least of the eight images of a piece of a grid of at most 8x8, on an
/// 8x8 board (cell (r, c) is bit 8r + c), each moved into the corner:
/// the board's symmetries are a few word operations (byte swap, bit
/// reversal in bytes, transpose), where a cell-by-cell walk was the memo's
/// largest cost.
fn board_shape(comp: u64, rows: usize, cols: usize) -> u64 {
    board_key(board_of(comp, rows, cols))
}

/// The piece `comp` of a `rows` x `cols` grid on the 8x8 board.
pub fn board_of(comp: u64, rows: usize, cols: usize) -> u64 {
    let row_mask = (1u64 << cols) - 1;
    (0..rows).fold(0u64, |b, r| b | (comp >> (r * cols) & row_mask) << (8 * r))
}

/// The least of the eight images of a piece on the 8x8 board.
pub fn board_key(board: u64) -> u64 {
    board_images(board)
        .images
        .into_iter()
        .fold(u64::MAX, u64::min)
}

/// The eight images of a piece on the board, each in the corner.
pub struct BoardImages {
    /// The piece moved into the corner, its mirrors (rows, columns, both),
    /// then the transpose of each: images 4 to 7 are `w` high and `h` wide.
    pub images: [u64; 8],
    pub h: u32,
    pub w: u32,
}

pub fn board_images(board: u64) -> BoardImages {
    // into the corner: no cell lies left of the first occupied column, so
    // one shift moves every row alike
    let mut occupied = board | board >> 32;
    occupied |= occupied >> 16;
    occupied = (occupied | occupied >> 8) & 0xff;
    let piece = board >> (board.trailing_zeros() & !7) >> occupied.trailing_zeros();
    let h = 8 - piece.leading_zeros() / 8;
    let w = 64 - occupied.leading_zeros() - occupied.trailing_zeros();
    // a mirror of an h x w piece in the corner lands 8 - h rows (8 - w
    // columns) away from it
    let flip_rows = |b: u64, h: u32| b.swap_bytes() >> (8 * (8 - h));
    let flip_cols = |b: u64, w: u32| {
        let b = (b >> 1) & 0x5555_5555_5555_5555 | (b & 0x5555_5555_5555_5555) << 1;
        let b = (b >> 2) & 0x3333_3333_3333_3333 | (b & 0x3333_3333_3333_3333) << 2;
        ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f | (b & 0x0f0f_0f0f_0f0f_0f0f) << 4) >> (8 - w)
    };
    // cell (r, c) to (c, r) in three rounds of block swaps
    let mut t = piece;
    let x = 0x0f0f_0f0f_0000_0000 & (t ^ t << 28);
    t ^= x ^ x >> 28;
    let x = 0x3333_0000_3333_0000 & (t ^ t << 14);
    t ^= x ^ x >> 14;
    let x = 0x5500_5500_5500_5500 & (t ^ t << 7);
    t ^= x ^ x >> 7;
    let (pc, tc) = (flip_cols(piece, w), flip_cols(t, h));
    let images = [
        piece,
        flip_rows(piece, h),
        pc,
        flip_rows(pc, h),
        t,
        flip_rows(t, w),
        tc,
        flip_rows(tc, w),
    ];
    BoardImages { images, h, w }
}

/// The least of the eight images of a grid piece, in its bounding box.
fn grid_shape(comp: u64, cols: usize) -> Key {
    let cells: Vec<(usize, usize)> = bits(comp).map(|v| (v / cols, v % cols)).collect();
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let h = cells.iter().map(|c| c.0).max().unwrap_or(0) - r0 + 1;
    let w = cells.iter().map(|c| c.1).max().unwrap_or(0) - c0 + 1;
    let mut best: Option<(u8, u8, u64)> = None;
    for t in 0..8 {
        let (th, tw) = if t & 4 == 0 { (h, w) } else { (w, h) };
        let mut bitsout = 0u64;
        for &(r, c) in &cells {
            let (mut y, mut x) = (r - r0, c - c0);
            if t & 1 == 1 {
                y = h - 1 - y;
            }
            if t & 2 == 2 {
                x = w - 1 - x;
            }
            if t & 4 == 4 {
                std::mem::swap(&mut y, &mut x);
            }
            bitsout |= 1 << (y * tw + x);
        }
        let cand = (th as u8, tw as u8, bitsout);
        if best.is_none_or(|b| cand < b) {
            best = Some(cand);
        }
    }
    let (h, w, cells) = best.expect("eight images");
    Key::Shape { h, w, cells }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::game::graph;

    #[test]
    fn isomorphic_trees_share_a_code() {
        // The same spider written two ways, and a different tree of the same size.
        let a = graph::pode(&[1, 2, 3]);
        let b = graph::pode(&[3, 1, 2]);
        let c = graph::pode(&[2, 2, 2]);
        assert_eq!(tree_code(&a, a.all()), tree_code(&b, b.all()));
        assert_ne!(tree_code(&a, a.all()), tree_code(&c, c.all()));
        // A path with two centres, rooted either way, and reversed.
        let p = graph::path(6);
        assert_eq!(tree_code(&p, 0b111110), tree_code(&p, 0b011111));
    }

    #[test]
    fn grid_pieces_match_under_symmetry() {
        let g = graph::grid(4, 4);
        // An L tromino in two corners, mirrored and rotated.
        let l1 = 1 | 1 << 4 | 1 << 5;
        let l2 = 1 << 15 | 1 << 11 | 1 << 10;
        assert_eq!(grid_shape(l1, 4), grid_shape(l2, 4));
        // A 2x2 square is not an L.
        assert_ne!(grid_shape(l1, 4), grid_shape(l1 | 1 << 1, 4));
        assert_eq!(canonical_key(&g, l1), canonical_key(&g, l2));
        assert_ne!(canonical_key(&g, l1), canonical_key(&g, l1 | 1 << 1));
    }

    #[test]
    fn board_shapes_are_the_bounding_box_shapes() {
        // Two pieces have the same board shape exactly when they have the
        // same bounding-box shape, on random pieces of grids up to 8x8.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (rows, cols) in [(3, 5), (8, 8), (5, 7), (8, 3), (1, 8)] {
            let n = rows * cols;
            let pieces: Vec<u64> = (0..300)
                .map(|_| next() & next() & graph::mask_below(n))
                .filter(|&m| m != 0)
                .collect();
            for &a in &pieces {
                // a piece and a transformed copy of it (transpose, then
                // mirror) agree; the copy lives on the transposed grid
                let cells: Vec<(usize, usize)> = bits(a).map(|v| (v / cols, v % cols)).collect();
                let copy = cells
                    .iter()
                    .fold(0u64, |m, &(r, c)| m | 1 << ((cols - 1 - c) * rows + r));
                assert_eq!(board_shape(a, rows, cols), board_shape(copy, cols, rows));
                for &b in &pieces {
                    assert_eq!(
                        board_shape(a, rows, cols) == board_shape(b, rows, cols),
                        grid_shape(a, cols) == grid_shape(b, cols),
                        "{a:#x} {b:#x} on {rows}x{cols}"
                    );
                }
            }
        }
    }
}
