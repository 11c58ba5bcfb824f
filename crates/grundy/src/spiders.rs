//! `SpiderTable`: the Game of Arrows (or its trimmed variant) on every
//! spider with 3 or 4 legs of 1 to L edges, as `grundy arrows --spiders L`
//! tabulates it, by the memo solver (pieces shared across spiders).

use std::time::Instant;

use grundy_core::error::{Error, Result};
use grundy_core::game::arrows::{ArrowRule, spider};
use grundy_core::hooks::{RunHooks, Silent};
use grundy_core::setting::Setting;
use grundy_engine::edges::arrows_memo::ArrowMemo;

/// The spiders to tabulate.
///
/// ```
/// use grundy::SpiderTable;
///
/// // Three legs of 1 to 4 edges: 20 spiders, each named once (a spider's
/// // value does not depend on the order of its legs).
/// let table = SpiderTable::arrows(3, 4)?.run()?;
/// assert_eq!(table.legs.len(), 20);
/// assert_eq!(table.legs[0], vec![1, 1, 1]);
/// // The spider with legs 1, 1, 1 is the star K_{1,3}, the same game as
/// // grundy::EdgeGame::arrows("pode:1,1,1").
/// let star = grundy::EdgeGame::arrows("pode:1,1,1")?.run()?;
/// assert_eq!(table.values[0], star.g);
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SpiderTable {
    legs: usize,
    max: usize,
    rule: ArrowRule,
}

impl SpiderTable {
    /// Spiders of `legs` legs (3 or 4), each of 1 to `max` edges, in the
    /// Game of Arrows.
    pub fn arrows(legs: usize, max: usize) -> Result<SpiderTable> {
        if !(3..=4).contains(&legs) {
            return Err(Error::Input(format!(
                "{}: expected 3 or 4",
                Setting::Legs.is(legs)
            )));
        }
        if max == 0 {
            return Err(Error::Input(format!(
                "{}: expected legs of at least 1 edge",
                Setting::Spiders.is(0)
            )));
        }
        Ok(SpiderTable {
            legs,
            max,
            rule: ArrowRule::Arrows,
        })
    }

    /// The trimmed Game of Arrows instead (`true`).
    pub fn trimmed(mut self, trimmed: bool) -> SpiderTable {
        self.rule = match trimmed {
            true => ArrowRule::Trimmed,
            false => ArrowRule::Arrows,
        };
        self
    }

    /// The rule the table is of.
    pub fn rule(&self) -> ArrowRule {
        self.rule
    }

    /// Solves every spider, telling no one.
    pub fn run(&self) -> Result<Spiders> {
        self.run_with(&Silent)
    }

    /// Solves every spider, telling `hooks` how many are done.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<Spiders> {
        let legs = leg_tuples(self.legs, self.max);
        let begin = Instant::now();
        hooks.begin(legs.len() as u64, "spiders");
        let mut memo = ArrowMemo::new();
        let mut values = Vec::with_capacity(legs.len());
        for (i, tuple) in legs.iter().enumerate() {
            let game = spider(tuple, self.rule);
            let start = vec![0; game.edges.len()];
            values.push(memo.value_of_state(&game, &start).map_err(Error::Run)?);
            hooks.progress(i as u64 + 1);
        }
        hooks.end();
        Ok(Spiders {
            legs,
            values,
            pieces: memo.pieces(),
            seconds: begin.elapsed().as_secs_f64(),
        })
    }
}

/// A spider table: each spider's legs (nondecreasing) and its value.
#[derive(Clone, Debug)]
pub struct Spiders {
    /// The leg lengths of each spider, nondecreasing, in lexicographic order.
    pub legs: Vec<Vec<usize>>,
    /// G of each spider with every edge unmarked.
    pub values: Vec<u16>,
    /// Pieces the memo solver remembered.
    pub pieces: usize,
    /// Seconds the table took.
    pub seconds: f64,
}

impl Spiders {
    /// The spiders whose value is 0.
    pub fn p_positions(&self) -> usize {
        self.values.iter().filter(|&&g| g == 0).count()
    }

    /// The table as CSV: the legs (`a,b,c` or `a,b,c,d`), then `g`.
    pub fn write_csv(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let legs = self.legs.first().map_or(0, Vec::len);
        let names = &["a", "b", "c", "d"][..legs];
        writeln!(w, "{},g", names.join(","))?;
        for (tuple, g) in self.legs.iter().zip(&self.values) {
            let cols: Vec<String> = tuple.iter().map(usize::to_string).collect();
            writeln!(w, "{},{g}", cols.join(","))?;
        }
        Ok(())
    }
}

/// Every nondecreasing tuple of `legs` leg lengths from 1 to `max`.
fn leg_tuples(legs: usize, max: usize) -> Vec<Vec<usize>> {
    let mut rows = Vec::new();
    let mut tuple = vec![1usize; legs];
    loop {
        rows.push(tuple.clone());
        let Some(i) = (0..tuple.len()).rev().find(|&i| tuple[i] < max) else {
            return rows;
        };
        tuple[i] += 1;
        for j in i + 1..tuple.len() {
            tuple[j] = tuple[i];
        }
    }
}
