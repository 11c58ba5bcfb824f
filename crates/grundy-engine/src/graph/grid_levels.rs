//! The memo solver for grids, level by level on every core. Under a code
//! that may take one vertex and leave one piece (0.33), every connected
//! set of a grid is reachable from the whole grid (a leaf of a spanning tree
//! outside the set can always go), so instead of recursing from the whole,
//! the pieces are listed up front, one per class under the square's
//! symmetries and translations, and valued by size: each level in parallel,
//! its options looked up in the tables of the levels below, which no
//! thread writes any more.
//!
//! Pieces live on the 8x8 board of `graph_memo` (cell (r, c) is bit
//! 8r + c), keyed by `board_key`; a piece's options are the same on the
//! board as on its grid.

use grundy_core::setting::Marked;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::graph::memo::{Record, board_images, board_key, board_of, option_pieces};
use crate::memory::{check_fits, human};
use grundy_core::error::{Error, Result};
use grundy_core::game::Convention;
use grundy_core::game::connected_sets::{EsuNode, esu_nodes, for_each_connected_set, grow_from};
use grundy_core::game::graph::{self, Flood, bits};
use grundy_core::game::{Graph, GraphCode};
use grundy_core::hooks::RunHooks;

/// The board's first column: a piece in the corner touches it.
const FIRST_COLUMN: u64 = 0x0101_0101_0101_0101;

/// Slots per piece in a level's table (linear probing stays short at 70 %).
const SLOTS_PER_PIECE: f64 = 10.0 / 7.0;

/// Pieces valued between two calls of progress reports.
const RUN: usize = 1 << 12;

/// Every piece of a `rows` x `cols` grid and its value, by size.
pub struct GridLevels {
    rows: usize,
    cols: usize,
    /// The grid itself, for splitting positions into pieces.
    grid: Graph,
    /// `levels[s]`: the pieces of `s` cells.
    levels: Vec<LevelTable>,
}

/// One level's pieces by board key, open addressing with linear probing,
/// the value in the top byte of the key's word (one cache line per
/// lookup). The keys go in from every thread at once (compare and swap
/// into an empty slot, 0: no piece is empty); the values, once each, by
/// the thread that owns the slot's run.
struct LevelTable {
    slots: Vec<AtomicU64>,
}

/// A key's bits: a piece of a grid of at most 7x7 lies in the board's first
/// 55 bits.
const KEY_BITS: u64 = (1 << 56) - 1;

impl LevelTable {
    fn with_pieces(pieces: u64) -> LevelTable {
        LevelTable {
            slots: (0..slots_for(pieces)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn home(&self, key: u64) -> usize {
        let h = (key ^ key >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((h as u128 * self.slots.len() as u128) >> 64) as usize
    }

    fn next(&self, i: usize) -> usize {
        if i + 1 == self.slots.len() { 0 } else { i + 1 }
    }

    fn insert(&self, key: u64) {
        let mut i = self.home(key);
        while let Err(there) =
            self.slots[i].compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
        {
            debug_assert_ne!(there, key, "a piece listed twice");
            i = self.next(i);
        }
    }

    fn get(&self, key: u64) -> Option<u8> {
        let mut i = self.home(key);
        loop {
            match self.slots[i].load(Ordering::Relaxed) {
                0 => return None,
                w if w & KEY_BITS == key => return Some((w >> 56) as u8),
                _ => i = self.next(i),
            }
        }
    }

    /// Asks the cache for the line `get(key)` will read first: the parts of
    /// a piece's options are listed before they are looked up, so their
    /// misses overlap (measured in BENCHMARKS.md).
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot: *const AtomicU64 = &self.slots[self.home(key)];
            // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast()) };
        }
    }

    fn pieces(&self) -> impl Iterator<Item = (u64, u8)> + '_ {
        self.slots
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .filter(|&w| w != 0)
            .map(|w| (w & KEY_BITS, (w >> 56) as u8))
    }
}

fn slots_for(pieces: u64) -> usize {
    (pieces as f64 * SLOTS_PER_PIECE) as usize + 1
}

/// A piece one option leaves, by board key (0: nothing left), and whether
/// it is the option's last.
#[derive(Clone, Copy)]
struct Part {
    key: u64,
    last: bool,
}

impl GridLevels {
    /// The grid's size when this solver serves `graph` under `code`: a grid
    /// of at most 7x7 (whose keys leave a byte for the value), and a code
    /// that may take one vertex and leave one piece (so that every
    /// connected set is reached).
    pub fn applies(graph: &Graph, code: &GraphCode) -> Option<(usize, usize)> {
        let takes_one = code.digits.get(1).is_some_and(|d| d & 2 != 0);
        // its positions are sums of pieces, valued by their xor
        let normal = code.convention == Convention::Normal;
        graph
            .grid
            .filter(|&(rows, cols)| normal && takes_one && rows <= 7 && cols <= 7)
    }

    /// How many pieces the grid has of each size (index 0 unused): one per
    /// class under symmetry, counted without being kept.
    pub fn count(rows: usize, cols: usize) -> Vec<u64> {
        Listing::new(rows, cols).count()
    }

    /// Bytes the level tables take for these counts.
    pub fn bytes(counts: &[u64]) -> u64 {
        counts.iter().map(|&c| slots_for(c) as u64 * 8).sum()
    }

    /// Lists and values every piece of the `rows` x `cols` grid under
    /// `code`: tells `hooks` how many pieces and how much memory once they
    /// are counted, refuses what cannot fit, and reports how many are
    /// valued as it goes.
    pub fn solve(
        code: &GraphCode,
        rows: usize,
        cols: usize,
        hooks: &dyn RunHooks,
    ) -> Result<GridLevels> {
        let listing = Listing::new(rows, cols);
        let counts = listing.count();
        let pieces: u64 = counts.iter().sum();
        let bytes = GridLevels::bytes(&counts);
        let what = format!("the memo of the {pieces} pieces of grid:{rows}x{cols}");
        hooks.notice(Marked(&format!("{what} takes about {}", human(bytes))));
        check_fits(&what, bytes)?;
        let levels: Vec<LevelTable> = counts.iter().map(|&c| LevelTable::with_pieces(c)).collect();
        (0..listing.tasks.len())
            .into_par_iter()
            .for_each(|i| listing.pieces(i, |key, size| levels[size].insert(key)));
        let solver = GridLevels {
            rows,
            cols,
            grid: graph::grid(rows, cols),
            levels,
        };
        solver.value_levels(code, hooks)?;
        Ok(solver)
    }

    /// Values the levels in order of size, each in parallel runs of slots.
    fn value_levels(&self, code: &GraphCode, hooks: &dyn RunHooks) -> Result<()> {
        let board = graph::grid(8, 8);
        let flood = board.flood();
        let valued = AtomicU64::new(0);
        for size in 1..self.levels.len() {
            let (below, rest) = self.levels.split_at(size);
            let level = &rest[0];
            let ctx = Valuing {
                code,
                board: &board,
                flood,
                below,
            };
            level.slots.par_chunks(RUN).try_for_each_init(
                || (Vec::new(), Vec::new()),
                |(parts, removals), run| {
                    let mut count = 0;
                    for slot in run {
                        let key = slot.load(Ordering::Relaxed);
                        if key != 0 {
                            let g = ctx.piece(key, parts, removals)?;
                            slot.store(key | (g as u64) << 56, Ordering::Relaxed);
                            count += 1;
                        }
                    }
                    hooks.progress(valued.fetch_add(count, Ordering::Relaxed) + count);
                    Ok::<(), Error>(())
                },
            )?;
        }
        Ok(())
    }

    /// Distinct pieces valued.
    pub fn positions(&self) -> u64 {
        self.levels.iter().map(|l| l.pieces().count() as u64).sum()
    }

    /// G of the position `mask` of the grid: the xor of its pieces' values.
    pub fn value(&self, mask: u64) -> Result<u8> {
        let mut v = 0;
        for comp in self.grid.iter_components(mask) {
            let key = board_key(board_of(comp, self.rows, self.cols));
            v ^= self.levels[comp.count_ones() as usize]
                .get(key)
                .ok_or_else(|| missing(key))?;
        }
        Ok(v)
    }

    /// Every piece and its value (as `--out` writes them), each as a mask
    /// of the grid, by size, then by mask.
    pub fn records(&self) -> Vec<Record> {
        let mut records = Vec::new();
        for (size, level) in self.levels.iter().enumerate() {
            let start = records.len();
            records.extend(level.pieces().map(|(key, g)| Record {
                mask: self.on_grid(key),
                size: size as u32,
                g,
            }));
            records[start..].sort_unstable_by_key(|r| r.mask);
        }
        records
    }

    /// The piece with board key `key` placed on the grid, in its corner.
    fn on_grid(&self, key: u64) -> u64 {
        let board = representative(key, self.rows, self.cols);
        let row = (1u64 << self.cols) - 1;
        (0..self.rows).fold(0, |m, r| m | (board >> (8 * r) & row) << (r * self.cols))
    }
}

/// What valuing one level reads: the code, the board and the levels below.
struct Valuing<'a> {
    code: &'a GraphCode,
    board: &'a Graph,
    flood: Flood<'a>,
    below: &'a [LevelTable],
}

impl Valuing<'_> {
    /// G of the piece `comp` (on the board): the mex over its options,
    /// whose pieces are all listed before any is looked up, so that the
    /// lookups' cache misses overlap.
    fn piece(&self, comp: u64, parts: &mut Vec<Part>, removals: &mut Vec<u64>) -> Result<u8> {
        parts.clear();
        let vertices = comp.count_ones() as usize;
        for size in 1..=self.code.max_take().min(vertices) {
            if self.code.digits[size] == 0 {
                continue;
            }
            match size {
                1 => bits(comp).for_each(|v| self.list_option(comp, 1 << v, parts)),
                2 => self
                    .flood
                    .edges(comp)
                    .for_each(|edge| self.list_option(comp, edge, parts)),
                _ => {
                    removals.clear();
                    for_each_connected_set(&self.board.adj, comp, size, |set| removals.push(set));
                    for &set in removals.iter() {
                        self.list_option(comp, set, parts);
                    }
                }
            }
        }
        let mut seen = [0u64; 5];
        let mut option = 0;
        for part in parts.iter() {
            if part.key != 0 {
                let level = &self.below[part.key.count_ones() as usize];
                option ^= level.get(part.key).ok_or_else(|| missing(part.key))? as usize;
            }
            if part.last {
                seen[option >> 6] |= 1 << (option & 63);
                option = 0;
            }
        }
        let g = (0..320)
            .find(|&v| seen[v >> 6] >> (v & 63) & 1 == 0)
            .unwrap_or(320);
        u8::try_from(g).map_err(|_| {
            Error::Run(format!(
                "the piece {comp:#x} has a value above 255, the most grundy's graph tables hold"
            ))
        })
    }

    /// Lists the pieces that removing `set` leaves of `comp`, when the code
    /// allows that many.
    fn list_option(&self, comp: u64, set: u64, parts: &mut Vec<Part>) {
        let Some((pieces, count)) = option_pieces(self.code, self.flood, comp, set) else {
            return;
        };
        if count == 0 {
            parts.push(Part { key: 0, last: true });
        }
        for (i, &piece) in pieces[..count].iter().enumerate() {
            let key = board_key(piece);
            self.below[piece.count_ones() as usize].prefetch(key);
            parts.push(Part {
                key,
                last: i + 1 == count,
            });
        }
    }
}

fn missing(key: u64) -> Error {
    Error::Run(format!(
        "the piece {key:#x} is missing from its level (a bug in the level memo)"
    ))
}

/// The connected sets in a grid's corner (they touch its first row and
/// first column), listed by ESU from the cells of the first row, its tree
/// cut into tasks for every core: one root's tree alone is most of it.
struct Listing {
    rows: usize,
    cols: usize,
    board: Graph,
    within: u64,
    tasks: Vec<(EsuNode, bool)>,
}

impl Listing {
    /// Levels of ESU's tree above the tasks: a few hundred of them.
    const SPLIT_DEPTH: usize = 4;

    fn new(rows: usize, cols: usize) -> Listing {
        let board = graph::grid(8, 8);
        let within = board_of(graph::mask_below(rows * cols), rows, cols);
        let first_row = (1 << cols) - 1;
        let tasks = esu_nodes(
            &board.adj,
            within,
            rows * cols,
            first_row,
            Listing::SPLIT_DEPTH,
        );
        Listing {
            rows,
            cols,
            board,
            within,
            tasks,
        }
    }

    /// How many pieces of each size (index 0 unused).
    fn count(&self) -> Vec<u64> {
        let n = self.rows * self.cols;
        (0..self.tasks.len())
            .into_par_iter()
            .fold(
                || vec![0u64; n + 1],
                |mut counts, i| {
                    self.pieces(i, |_, size| counts[size] += 1);
                    counts
                },
            )
            .reduce(
                || vec![0u64; n + 1],
                |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
            )
    }

    /// Calls `found(key, size)` for the classes of pieces whose
    /// representative is met in task `i`: a set in the grid's corner that
    /// is the least of its images that fit the grid.
    fn pieces(&self, i: usize, mut found: impl FnMut(u64, usize)) {
        let (rows, cols) = (self.rows, self.cols);
        let mut keep = |set: u64| {
            if set & FIRST_COLUMN == 0 {
                return;
            }
            let im = board_images(set);
            let transposed_fits = im.w as usize <= rows && im.h as usize <= cols;
            let fitting = if transposed_fits { 8 } else { 4 };
            if im.images[..fitting].iter().all(|&other| set <= other) {
                let key = im.images.into_iter().fold(u64::MAX, u64::min);
                found(key, set.count_ones() as usize);
            }
        };
        let (node, grows) = self.tasks[i];
        keep(node.set);
        if grows {
            grow_from(&self.board.adj, self.within, rows * cols, node, keep);
        }
    }
}

/// The least image of the piece `key` that fits a `rows` x `cols` grid in
/// its corner: the piece `Listing::pieces` keeps for its class.
fn representative(key: u64, rows: usize, cols: usize) -> u64 {
    let im = board_images(key);
    let fits = |i: usize| match i < 4 {
        true => im.h as usize <= rows && im.w as usize <= cols,
        false => im.w as usize <= rows && im.h as usize <= cols,
    };
    (0..8)
        .filter(|&i| fits(i))
        .map(|i| im.images[i])
        .min()
        .expect("a piece of the grid fits it")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::memo::MemoSolver;

    #[test]
    fn levels_count_the_pieces_the_recursion_meets() {
        // 0.33 reaches every connected set, so the recursive memo meets
        // one piece per class, as the listing counts them
        let code = GraphCode::parse("0.33").unwrap();
        for (rows, cols) in [(1, 1), (1, 7), (2, 5), (3, 3), (4, 3), (3, 5), (4, 4)] {
            let g = graph::grid(rows, cols);
            let mut memo = MemoSolver::new(&code);
            let whole = memo.value(&g, g.all()).unwrap();
            let levels = GridLevels::solve(&code, rows, cols, &grundy_core::hooks::Silent).unwrap();
            let counted: u64 = GridLevels::count(rows, cols).iter().sum();
            assert_eq!(levels.positions(), memo.positions(), "{rows}x{cols}");
            assert_eq!(counted, memo.positions(), "{rows}x{cols}");
            assert_eq!(levels.value(g.all()).unwrap(), whole, "{rows}x{cols}");
        }
    }
}
