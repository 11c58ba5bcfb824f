//! Tables over families of graphs, one memo solver for the whole family
//! (its pieces recur from graph to graph): k-podes by the lengths of their
//! legs, and bipodes by their four legs and middle chain (Dailly et al.).

use grundy_core::setting::Setting;
use std::time::Instant;

use super::memo::MemoSolver;
use grundy_core::error::{Error, Result};
use grundy_core::game::graph::{MAX_VERTICES, bipode_of, pode_of, pode_rows};
use grundy_core::game::{Convention, GraphCode};
use grundy_core::hooks::RunHooks;

/// A family's table: each graph's parameters and value, the pieces the
/// memo solved for all of them, and the seconds it took.
#[derive(Clone, Debug)]
pub struct FamilyTable<P> {
    pub rows: Vec<(P, u8)>,
    pub pieces: u64,
    pub seconds: f64,
}

/// The family tables run on the memo, which takes misère play only from
/// codes that never leave two pieces (every pode and bipode is connected).
fn refuse_misere_splits(code: &GraphCode, family: &str) -> Result<()> {
    if code.convention == Convention::Misere && code.splits() {
        return Err(Error::Input(format!(
            "{} on {family}: {} may leave a piece in two, and the {family} table values pieces \
             apart, which misère play does not allow; expected a code whose digits are at most 3 \
             (such as 0.33), or one graph at a time with `grundy graph --misere --solver dense`",
            Setting::Misere.named(),
            code.text
        )));
    }
    Ok(())
}

/// G of every k-pode with up to `max_legs` legs, each of length
/// 1..=`max_length`: a row's parameters count the legs of each length.
pub fn pode_table(
    code: &GraphCode,
    max_legs: usize,
    max_length: usize,
    hooks: &dyn RunHooks,
) -> Result<FamilyTable<Vec<usize>>> {
    if max_length == 0 || 1 + max_legs * max_length > MAX_VERTICES {
        return Err(Error::Input(format!(
            "{} {}: podes would have up to {} vertices; expected a length of at least 1 and at \
             most {MAX_VERTICES} vertices",
            Setting::MaxLegs.is(max_legs),
            Setting::MaxLength.is(max_length),
            1 + max_legs * max_length
        )));
    }
    refuse_misere_splits(code, "podes")?;
    let start = Instant::now();
    let mut memo = MemoSolver::new(code);
    let all = pode_rows(max_legs, max_length);
    hooks.begin(all.len() as u64, "podes");
    let mut rows = Vec::with_capacity(all.len());
    for counts in all {
        let g = pode_of(&counts);
        rows.push((counts, memo.value(&g, g.all())?));
        hooks.progress(rows.len() as u64);
    }
    hooks.end();
    Ok(FamilyTable {
        rows,
        pieces: memo.positions(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// G of every bipode with legs a1, a2 (ones and twos at one end), b1, b2
/// (at the other) up to `max` each, and a middle chain of `middle` edges.
pub fn bipode_table(
    code: &GraphCode,
    max: usize,
    middle: usize,
    hooks: &dyn RunHooks,
) -> Result<FamilyTable<[usize; 4]>> {
    let largest = 2 + 6 * max + middle.max(1) - 1;
    if largest > MAX_VERTICES {
        return Err(Error::Input(format!(
            "{} {}: the largest bipode has {largest} vertices; at most {MAX_VERTICES}",
            Setting::Max.is(max),
            Setting::Middle.is(middle)
        )));
    }
    refuse_misere_splits(code, "bipodes")?;
    let start = Instant::now();
    let mut memo = MemoSolver::new(code);
    let side = max + 1;
    hooks.begin(side.pow(4) as u64, "bipodes");
    let mut rows = Vec::with_capacity(side.pow(4));
    for k in 0..side.pow(4) {
        let [a1, a2, b1, b2] = [
            k / side.pow(3),
            k / side.pow(2) % side,
            k / side % side,
            k % side,
        ];
        let g = bipode_of(a1, a2, b1, b2, middle);
        rows.push(([a1, a2, b1, b2], memo.value(&g, g.all())?));
        hooks.progress(rows.len() as u64);
    }
    hooks.end();
    Ok(FamilyTable {
        rows,
        pieces: memo.positions(),
        seconds: start.elapsed().as_secs_f64(),
    })
}
