//! Grundy's game on rectangles and boxes under misère play. A cut leaves
//! two pieces side by side: a sum, whose misère value is not the xor of
//! the pieces' that the level kernels take. Each shape is valued instead
//! by search over whole sums of shapes (`analysis::whole_sum`), on the CPU.

use crate::memory::{sums_within_budget, whole_sum_error};
use grundy_core::analysis::whole_sum::{Parts, SumSearch};
use grundy_core::error::Result;
use grundy_core::game::Convention;
use grundy_core::game::rect::{Rect, box_name};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::tuples::TupleKernel;
use grundy_core::kernel::tuples::space::{MAX_HEAPS, TupleSpace};
use grundy_core::setting::Setting;

/// Shapes named by their rank in the table's space, and their cuts.
pub struct Shapes<'a> {
    pub rect: &'a Rect,
    pub space: &'a TupleSpace,
}

impl Parts for Shapes<'_> {
    fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32])) {
        let mut sides = [0u32; MAX_HEAPS];
        let sides = &mut sides[..self.rect.dims];
        self.space.unrank(part, sides);
        for (a, b) in self.rect.cuts_of(sides) {
            visit(&[self.space.rank(&a), self.space.rank(&b)]);
        }
    }
}

/// The misère value of every shape of `kern`'s table (by rank), each by
/// search over the whole sums its cuts lead to, as far as the memory
/// budget holds them; `hooks` hear of each level and may stop the run.
pub fn misere_table(kern: &TupleKernel, rect: &Rect, hooks: &dyn RunHooks) -> Result<Vec<u32>> {
    let space = &kern.space;
    let limit = sums_within_budget();
    let stop = || hooks.stop();
    let mut search = SumSearch::new(Shapes { rect, space }, Convention::Misere, limit, &stop);
    let mut table = vec![0u32; space.count() as usize];
    let levels = space.levels();
    let mut done = 0u64;
    for l in 0..levels.len() {
        for &r in levels.level(l) {
            table[r as usize] = search.value(&[r]).map_err(|s| {
                let mut sides = vec![0u32; rect.dims];
                space.unrank(r, &mut sides);
                let shape = format!("the shape {}", box_name(&sides));
                whole_sum_error(s, &shape, &format!("a smaller {}", Setting::Max.named()))
            })?;
        }
        done += levels.level(l).len() as u64;
        hooks.progress(done);
    }
    Ok(table)
}
