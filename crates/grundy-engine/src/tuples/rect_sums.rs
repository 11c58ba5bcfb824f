//! Grundy's game on rectangles and boxes under misère play. A cut leaves
//! two pieces side by side: a sum, whose misère value is not the xor of
//! the pieces' that the level kernels take. Each shape is valued instead
//! by search over whole sums of shapes (`analysis::whole_sum`), on the CPU.

use std::cell::RefCell;
use std::rc::Rc;

use crate::memory::{human, sums_within_budget, whole_sum_error};
use grundy_core::analysis::whole_sum::{POSITION_BYTES, Parts, SumSearch, Walk};
use grundy_core::error::{Error, Result};
use grundy_core::fast_map::FastMap;
use grundy_core::game::Convention;
use grundy_core::game::rect::{Rect, box_name};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::tuples::TupleKernel;
use grundy_core::kernel::tuples::space::{Levels, MAX_HEAPS, TupleSpace};
use grundy_core::setting::{Marked, Setting};

/// Shapes named by their rank in the table's space, and their cuts, each
/// shape's found once: a search asks a shape's cuts at every sum it is in.
pub struct Shapes<'a> {
    rect: &'a Rect,
    space: &'a TupleSpace,
    cuts: RefCell<FastMap<u32, Rc<[[u32; 2]]>>>,
}

impl<'a> Shapes<'a> {
    pub fn new(rect: &'a Rect, space: &'a TupleSpace) -> Shapes<'a> {
        let cuts = RefCell::default();
        Shapes { rect, space, cuts }
    }

    fn cuts(&self, part: u32) -> Rc<[[u32; 2]]> {
        let found = self.cuts.borrow().get(&part).cloned();
        found.unwrap_or_else(|| {
            let mut sides = [0u32; MAX_HEAPS];
            let sides = &mut sides[..self.rect.dims];
            self.space.unrank(part, sides);
            let cuts: Rc<[[u32; 2]]> = (self.rect.cuts_of(sides).into_iter())
                .map(|(a, b)| [self.space.rank(&a), self.space.rank(&b)])
                .collect();
            self.cuts.borrow_mut().insert(part, cuts.clone());
            cuts
        })
    }
}

impl Parts for Shapes<'_> {
    fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32])) {
        // The list is held apart from the cache, so a visit may ask (and
        // cache) other shapes' cuts.
        for pieces in self.cuts(part).iter() {
            visit(pieces);
        }
    }
}

/// The misère value of every shape of `kern`'s table (by rank), each by
/// search over the whole sums its cuts lead to, and how many sums the
/// search remembered. The sums are counted first, by a walk from every
/// shape that values none (exactly the sums the search will remember):
/// a table they do not fit in the memory budget is refused before the
/// search. `hooks` hear of each level and may stop the run.
pub fn misere_table(
    kern: &TupleKernel,
    rect: &Rect,
    hooks: &dyn RunHooks,
) -> Result<(Vec<u32>, usize)> {
    let space = &kern.space;
    let limit = sums_within_budget();
    let stop = || hooks.stop();
    let mut search = SumSearch::new(Shapes::new(rect, space), Convention::Misere, limit, &stop);
    let levels = space.levels();
    // The walk's own positions are let go before the search holds its own.
    let needed = count_first(&mut search, space, &levels, limit, &stop)?;
    hooks.notice(Marked(&format!(
        "misère rectangles: {needed} sums to search whole, counted first ({})",
        human(needed as u64 * POSITION_BYTES)
    )));
    search.reserve(needed);
    let mut table = vec![0u32; space.count() as usize];
    let mut done = 0u64;
    for l in 0..levels.len() {
        for &r in levels.level(l) {
            table[r as usize] = search.value(&[r]).map_err(|s| {
                let shape = format!("the shape {}", name(space, r));
                whole_sum_error(s, &shape, &format!("a smaller {}", Setting::Max.named()))
            })?;
        }
        done += levels.level(l).len() as u64;
        hooks.progress(done);
    }
    Ok((table, search.positions()))
}

fn name(space: &TupleSpace, rank: u32) -> String {
    let mut sides = vec![0u32; space.heaps];
    space.unrank(rank, &mut sides);
    box_name(&sides)
}

/// The sums a search from every shape of `space`, level by level
/// (`levels`), will
/// remember: refused with status 2, before any is valued, where they pass
/// `limit` (the search's own limit, so a walk that ends fits the search),
/// naming the largest side whose shapes all fit.
fn count_first(
    search: &mut SumSearch<Shapes>,
    space: &TupleSpace,
    levels: &Levels,
    limit: usize,
    stop: &dyn Fn() -> bool,
) -> Result<usize> {
    // A walk holds each position about as a search does: it ends past the
    // search's limit, whatever bytes it counts.
    let mut walk = Walk::within(limit, u64::MAX);
    for l in 0..levels.len() {
        for &r in levels.level(l) {
            match search.walk(&mut walk, &[r], stop) {
                Ok(()) => continue,
                Err(s) if !s.full => {
                    return Err(Error::Stopped(
                        "stopped while counting the sums to search".into(),
                    ));
                }
                Err(_) => {}
            }
            // Shapes with every side at most k total at most dims × k.
            let total = space.totals().0 + l as u64;
            let sides_fit = (total - 1) / space.heaps as u64;
            return Err(Error::WontFit(format!(
                "misère rectangles are valued by search over whole sums, and by the shape {} \
                 the sums counted before the search pass what the memory budget holds, \
                 {limit} ({}); expected {} {} or less, whose sums fit",
                name(space, r),
                human(limit as u64 * POSITION_BYTES),
                Setting::Max.named(),
                sides_fit
            )));
        }
    }
    Ok(walk.positions())
}
