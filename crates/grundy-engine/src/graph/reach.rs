//! The reachable solver: only the positions reachable from the whole graph,
//! found level by level from the top, then valued level by level from the
//! bottom, each level one parallel step. Positions are whole masks (no
//! component sums), so the moves played (Dailly, Octal games on graphs, Tables 2 and 3) come out
//! too, and graphs beyond a dense table's 34 vertices can be asked for them.
//! It wins where few positions are reachable (0.03: a move takes two
//! vertices and may not disconnect).

use std::time::Instant;

use rayon::prelude::*;

use crate::graph::dense::{for_each_option, moves_played};
use grundy_core::error::{Error, Result};
use grundy_core::game::{Graph, GraphCode};
use grundy_core::hooks::RunHooks;

/// What a reachable run found.
pub struct ReachRun {
    pub value: u8,
    /// Moves played from the whole graph (winner empties, loser resists).
    pub moves: u8,
    /// Positions reachable from the whole graph, the empty one included.
    pub positions: u64,
    pub seconds: f64,
    /// (mask, G, moves) of every reachable position, when kept.
    pub rows: Vec<(u64, u8, u8)>,
}

/// One level: its positions in increasing order, with (value, moves) beside.
struct Level {
    masks: Vec<u64>,
    results: Vec<(u8, u8)>,
}

impl Level {
    fn get(&self, mask: u64) -> (u8, u8) {
        let i = self
            .masks
            .binary_search(&mask)
            .expect("options are reachable");
        self.results[i]
    }
}

/// Positions per parallel chunk of the top-down pass (bounds its buffers).
const CHUNK: usize = 1 << 14;

/// Values and moves over the positions reachable from the whole of `graph`.
pub fn solve_reachable(
    graph: &Graph,
    code: &GraphCode,
    keep_rows: bool,
    hooks: &dyn RunHooks,
) -> Result<ReachRun> {
    let start = Instant::now();
    let n = graph.n();
    let (found, positions) = reachable_levels(graph, code, hooks);
    // Bottom-up: each level reads only the levels below it.
    let mut levels: Vec<Level> = Vec::with_capacity(n + 1);
    for (k, masks) in found.into_iter().enumerate() {
        let below = &levels[..k];
        let results: Vec<Option<(u8, u8)>> = masks
            .par_iter()
            .map(|&mask| evaluate(graph, code, mask, below))
            .collect();
        let results: Option<Vec<(u8, u8)>> = results.into_iter().collect();
        let results = results.ok_or_else(|| {
            Error::Run(
                "a position has a value above 255, the most grundy's graph tables hold".into(),
            )
        })?;
        levels.push(Level { masks, results });
    }
    let (value, moves) = levels[n].get(graph.all());
    let rows = match keep_rows {
        true => levels
            .iter()
            .flat_map(|l| {
                l.masks
                    .iter()
                    .zip(&l.results)
                    .map(|(&m, &(g, mv))| (m, g, mv))
            })
            .collect(),
        false => Vec::new(),
    };
    Ok(ReachRun {
        value,
        moves,
        positions,
        seconds: start.elapsed().as_secs_f64(),
        rows,
    })
}

/// Top-down: level k's positions come from the options of levels above.
/// Returns every level's positions, sorted, and how many there are.
fn reachable_levels(graph: &Graph, code: &GraphCode, hooks: &dyn RunHooks) -> (Vec<Vec<u64>>, u64) {
    let n = graph.n();
    let mut found: Vec<Vec<u64>> = vec![Vec::new(); n + 1];
    found[n].push(graph.all());
    let mut squeezed = vec![0usize; n + 1];
    let mut positions = 0u64;
    for k in (0..=n).rev() {
        let mut list = std::mem::take(&mut found[k]);
        list.par_sort_unstable();
        list.dedup();
        positions += list.len() as u64;
        hooks.progress(positions);
        for chunk in list.chunks(CHUNK) {
            let mut options: Vec<u64> = chunk
                .par_iter()
                .flat_map_iter(|&mask| {
                    let mut out = Vec::new();
                    for_each_option(graph, code, mask, |o| out.push(o));
                    out
                })
                .collect();
            options.par_sort_unstable();
            options.dedup();
            for o in options {
                found[o.count_ones() as usize].push(o);
            }
            // Lower levels gather the same position from many parents:
            // squeeze them whenever they have doubled since the last time.
            for j in 0..k {
                if found[j].len() > 2 * squeezed[j] + (1 << 20) {
                    found[j].par_sort_unstable();
                    found[j].dedup();
                    squeezed[j] = found[j].len();
                }
            }
        }
        found[k] = list;
    }
    (found, positions)
}

/// (G, moves) of `mask` from its options' in the levels below; `None` on overflow.
fn evaluate(graph: &Graph, code: &GraphCode, mask: u64, below: &[Level]) -> Option<(u8, u8)> {
    let mut options = Vec::new();
    for_each_option(graph, code, mask, |o| {
        options.push(below[o.count_ones() as usize].get(o))
    });
    let mut seen = [0u64; 4];
    for &(g, _) in &options {
        seen[(g >> 6) as usize] |= 1 << (g & 63);
    }
    let mex = (0..256).find(|&v| seen[v >> 6] >> (v & 63) & 1 == 0)?;
    let g = code.convention.value(!options.is_empty(), mex as u32);
    Some((g as u8, moves_played(g != 0, &options)))
}
