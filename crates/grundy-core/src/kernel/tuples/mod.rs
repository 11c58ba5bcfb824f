//! What the tuple kernels (rectangles and boxes, Delete Nim rules) are told
//! about a game: its tuple space and the words of its rule, laid out as
//! `shaders/rect_level.wgsl` and `shaders/delete_level.wgsl` read them.

pub mod common;
pub mod delete_level;
pub mod rect_level;
pub mod space;

use crate::game::Convention;
use crate::game::delete_nim::{DeleteNim, MoveKind};
use crate::game::rect::Rect;
use crate::kernel::shader::{Constants, Shader};

use space::{Levels, TupleSpace};

/// Values below this are held by the mex bitsets (8 words of 32 bits).
pub const VALUE_WORDS: usize = 8;
pub const MAX_VALUE: u32 = 255;
/// What the kernels return for a mex past `MAX_VALUE`.
pub const OVERFLOW: u32 = 256;

/// A game over ranked tuples.
#[derive(Clone, Debug)]
pub enum TupleRule {
    Rect(Rect),
    DeleteNim(DeleteNim),
}

/// A game, its table's shape, and how the kernels walk its moves.
#[derive(Clone, Debug)]
pub struct TupleKernel {
    pub rule: TupleRule,
    pub space: TupleSpace,
    /// The move kind whose options are gathered once per split tuple, with
    /// the space of those tuples (Delete Nim rules that keep no heap).
    pub split_sets: Option<(MoveKind, TupleSpace)>,
    /// The move kinds walked one option at a time.
    pub walked: Vec<MoveKind>,
    /// What a position without a move is worth (Delete Nim rules: every
    /// position is the whole game, so misère play is this value alone;
    /// rectangles side by side are a sum, and stay under normal play).
    pub convention: Convention,
}

impl TupleKernel {
    /// Whether the level shader gives each position a workgroup, whose
    /// lanes share its options (the rectangle game's cuts), rather than a
    /// thread.
    pub fn positions_take_workgroups(&self) -> bool {
        matches!(self.rule, TupleRule::Rect(_))
    }

    /// Rectangles (or boxes) with sides up to `max`.
    pub fn rect(rect: Rect, max: u32) -> Result<TupleKernel, String> {
        Ok(TupleKernel {
            space: TupleSpace::new(rect.dims, max)?,
            rule: TupleRule::Rect(rect),
            split_sets: None,
            walked: Vec::new(),
            convention: Convention::Normal,
        })
    }

    /// A Delete Nim rule with heaps up to `max`. With `use_split_sets`, a
    /// move kind that keeps no heap has its options gathered per split tuple.
    pub fn delete_nim(
        game: DeleteNim,
        max: u32,
        use_split_sets: bool,
    ) -> Result<TupleKernel, String> {
        let space = TupleSpace::new(game.heaps, max + game.shift())?;
        let mut walked = game.moves();
        let mut split_sets = None;
        if use_split_sets
            && let Some(i) = walked
                .iter()
                .position(|m| (m.delete + m.split) as usize == game.heaps)
        {
            let kind = walked.remove(i);
            split_sets = Some((kind, TupleSpace::new(kind.split as usize, space.max)?));
        }
        Ok(TupleKernel {
            space,
            rule: TupleRule::DeleteNim(game),
            split_sets,
            walked,
            convention: Convention::Normal,
        })
    }

    /// The same table under `convention`. Delete Nim's positions are
    /// whole games, so its kernels take misère play by the value of a
    /// position without a move. A cut rectangle is two pieces side by side,
    /// which `rect_level` values by their xor: the engine values misère
    /// rectangles by search over whole sums instead, never by that kernel.
    pub fn under(mut self, convention: Convention) -> TupleKernel {
        self.convention = convention;
        self
    }

    /// The `game` words of the shaders.
    pub fn words(&self) -> Vec<u32> {
        let mut w = vec![self.space.heaps as u32, self.space.max];
        match &self.rule {
            TupleRule::Rect(r) => w.push(r.min_diff),
            TupleRule::DeleteNim(_) => {
                w.push(self.walked.len() as u32);
                match &self.split_sets {
                    Some((kind, _)) => w.extend([kind.split, kind.parts]),
                    None => w.extend([0, 0]),
                }
                w.push(self.convention.no_move_value());
                for m in &self.walked {
                    w.extend([m.delete, m.split, m.parts]);
                }
            }
        }
        w
    }

    /// The largest number of options one position walks (an over-estimate),
    /// for adapters that cap a shader loop.
    pub fn max_options(&self) -> u64 {
        let n = self.space.heaps as u64;
        let max = self.space.max as u64;
        match &self.rule {
            TupleRule::Rect(_) => n * max / 2,
            TupleRule::DeleteNim(_) => {
                let walked: u64 = self
                    .walked
                    .iter()
                    .map(|m| {
                        let splits = partitions(max, m.parts as u64).saturating_pow(m.split);
                        multinomial(n, m).saturating_mul(splits)
                    })
                    .fold(0, u64::saturating_add);
                let sets = match &self.split_sets {
                    Some((m, _)) => partitions(max, m.parts as u64)
                        .saturating_pow(m.split)
                        .max(multinomial(n, m)),
                    None => 0,
                };
                walked.saturating_add(sets)
            }
        }
    }

    /// Bytes of the tables: values, the level order, and the split sets.
    pub fn table_bytes(&self) -> u64 {
        let sets = self
            .split_sets
            .as_ref()
            .map_or(0, |(_, s)| s.count() * (VALUE_WORDS as u64 * 4 + 4));
        self.space.count() * 8 + sets
    }
}

/// Role orders of one move kind: n! / (split! keep! delete!).
fn multinomial(n: u64, m: &MoveKind) -> u64 {
    let fact = |k: u64| (1..=k).product::<u64>();
    let keep = n - m.delete as u64 - m.split as u64;
    fact(n) / (fact(m.split as u64) * fact(keep) * fact(m.delete as u64))
}

/// Ways to write z as p nondecreasing positive parts, bounded by z^(p-1)/(p-1)!.
fn partitions(z: u64, p: u64) -> u64 {
    let fact = (1..p).product::<u64>().max(1);
    z.saturating_pow(p as u32 - 1) / fact + 1
}

/// The levels of the positions, and of the split tuples when the kernel
/// gathers split sets.
pub struct LevelPlan {
    pub positions: Levels,
    pub split: Option<Levels>,
}

impl LevelPlan {
    pub fn new(kern: &TupleKernel) -> LevelPlan {
        LevelPlan {
            positions: kern.space.levels(),
            split: kern.split_sets.as_ref().map(|(_, s)| s.levels()),
        }
    }

    /// The split tuples whose total is that of position level `l`.
    pub fn split_level(&self, l: usize) -> &[u32] {
        let total = self.positions.lowest + l as u64;
        match &self.split {
            Some(s) if total >= s.lowest && ((total - s.lowest) as usize) < s.len() => {
                s.level((total - s.lowest) as usize)
            }
            _ => &[],
        }
    }
}

/// Storage bindings of the tuple kernels: game, binomials, order (read);
/// table, status; split order (read); split sets.
const TUPLE_BINDINGS: &[bool] = &[true, true, true, false, false, true, false];

/// What tuple_common.wgsl reads of Rust's constants.
const TUPLE_CONSTANTS: Constants = &[
    ("WG", WG as u32),
    ("MAX_HEAPS", space::MAX_HEAPS as u32),
    ("VALUE_WORDS", VALUE_WORDS as u32),
    ("OVERFLOW", OVERFLOW),
];

/// `shaders/rect_level.wgsl`: Grundy's game on rectangles and boxes.
pub const RECT_LEVEL: Shader = Shader {
    name: "rect_level",
    wgsl: include_str!("../../../shaders/rect_level.wgsl"),
    entry_points: &["rect_level"],
    read_only: TUPLE_BINDINGS,
    constants: &[TUPLE_CONSTANTS],
};

/// `shaders/delete_level.wgsl`: the Delete Nim rules, and the split sets
/// their moves read.
pub const DELETE_LEVEL: Shader = Shader {
    name: "delete_level",
    wgsl: include_str!("../../../shaders/delete_level.wgsl"),
    entry_points: &["delete_level", "split_sets_level"],
    read_only: TUPLE_BINDINGS,
    constants: &[
        TUPLE_CONSTANTS,
        &[("SPLIT", SPLIT), ("KEEP", KEEP), ("DELETE", DELETE)],
    ],
};

/// A heap's role in a Delete Nim move (`delete_level`): split, kept or
/// deleted.
pub const SPLIT: u32 = 0;
pub const KEEP: u32 = 1;
pub const DELETE: u32 = 2;

/// Threads per workgroup (`WG`).
pub const WG: u64 = 64;

/// One step's parameters: the ranks `order[start..start + count]`, all of
/// tuple total `total`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Params {
    pub start: u32,
    pub count: u32,
    pub groups_x: u32,
    pub total: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::delete_nim::Rule;

    #[test]
    fn rules_that_keep_no_heap_use_split_sets() {
        let abo = DeleteNim::new(Rule::Abo, 4, None).unwrap();
        let k = TupleKernel::delete_nim(abo, 20, true).unwrap();
        assert_eq!(k.split_sets.as_ref().unwrap().1.heaps, 1);
        assert!(k.walked.is_empty());
        assert_eq!(k.words(), vec![4, 20, 0, 1, 4, 0]);
        let nmth = DeleteNim::new(Rule::Nmth, 4, None).unwrap();
        let k = TupleKernel::delete_nim(nmth, 10, true).unwrap();
        assert_eq!(k.split_sets.as_ref().unwrap().0.split, 2);
        assert_eq!(k.words(), vec![4, 10, 1, 2, 2, 0, 1, 1, 2]);
        let single = DeleteNim::new(Rule::Single, 3, None).unwrap();
        assert!(
            TupleKernel::delete_nim(single, 10, true)
                .unwrap()
                .split_sets
                .is_none()
        );
        let delete = DeleteNim::new(Rule::Delete, 2, None).unwrap();
        assert_eq!(
            TupleKernel::delete_nim(delete, 10, false)
                .unwrap()
                .space
                .max,
            11
        );
    }
}
