//! What a long graph run will cost, said before it starts. A dense table's
//! positions are known (2^n); the memo meets its pieces as it goes, so
//! their number comes from a model fit to measured runs on grids
//! (BENCHMARKS-log.md, "Graph tables"), not from the graph.

use grundy_core::game::graph::Graph;

/// Graphs from this many vertices get an estimate: smaller ones take
/// seconds.
pub const ESTIMATE_FROM_VERTICES: usize = 31;

/// Positions the dense table values a second on the CPU: 0.33 on a 5x6
/// grid, 2^30 positions in 10.7 s on a 2-core EPYC VM.
const DENSE_PER_SECOND: f64 = 1e8;

/// Pieces the memo valued on grids under 0.33 (2-core EPYC VM): 4x8 (32
/// vertices) 26.5 million, 5x6 (30) 10.2 million; about 1.78 times more per
/// vertex on 4-row grids (20 to 32 vertices) and 2.08 on 5-row ones (25 to
/// 30); about 470,000 pieces a second at these sizes.
const FOUR_ROWS: (f64, usize, f64) = (26.5e6, 32, 1.78);
const WIDER: (f64, usize, f64) = (10.2e6, 30, 2.08);
const PIECES_PER_SECOND: f64 = 470_000.0;

/// The memo's pieces and seconds for a grid of at least
/// `ESTIMATE_FROM_VERTICES` vertices, under a code that takes single
/// vertices (`takes_one`: a code that never does meets far fewer pieces);
/// `None` otherwise.
pub fn memo_estimate(graph: &Graph, takes_one: bool) -> Option<(f64, f64)> {
    let (rows, cols) = graph.grid?;
    let n = rows * cols;
    if !takes_one || n < ESTIMATE_FROM_VERTICES || rows.min(cols) < 4 {
        return None;
    }
    let (base, at, factor) = if rows.min(cols) == 4 {
        FOUR_ROWS
    } else {
        WIDER
    };
    let pieces = base * factor.powi(n as i32 - at as i32);
    Some((pieces, pieces / PIECES_PER_SECOND))
}

/// The notice before such a run: the estimate, and how to make it smaller.
pub fn memo_notice(graph: &Graph, takes_one: bool) -> Option<String> {
    let (pieces, seconds) = memo_estimate(graph, takes_one)?;
    let (rows, cols) = graph.grid?;
    Some(format!(
        "grid:{rows}x{cols} ({} vertices): the memo solver will value about {:.1e} pieces, \
         about {} on a 2-core VM (each vertex more multiplies the pieces by about 2); a grid \
         of 30 vertices takes seconds. The pieces so far show as it goes; Ctrl-C stops it",
        rows * cols,
        pieces,
        duration(seconds)
    ))
}

/// The notice before a dense table on the CPU of at least
/// `ESTIMATE_FROM_VERTICES` vertices: its positions and time.
pub fn dense_notice(n: usize) -> Option<String> {
    (n >= ESTIMATE_FROM_VERTICES).then(|| {
        let positions = (1u64 << n) as f64;
        format!(
            "the dense table of {n} vertices values 2^{n} positions, about {} on a 2-core VM's \
             CPU (each vertex more doubles it); progress shows as it goes, Ctrl-C stops it",
            duration(positions / DENSE_PER_SECOND)
        )
    })
}

/// Seconds as a person reads them: `40 s`, `12 min`, `9.5 hours`, `3 days`.
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} hours", s / 3600.0),
        s => format!("{:.0} days", s / 86_400.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_gives_back_its_measured_grids_and_grows_with_them() {
        let grid = |spec: &str| Graph::parse(spec).unwrap();
        let (four_by_eight, _) = memo_estimate(&grid("grid:4x8"), true).unwrap();
        assert!((four_by_eight / 26.5e6 - 1.0).abs() < 1e-9);
        let (five_by_eight, seconds) = memo_estimate(&grid("grid:5x8"), true).unwrap();
        assert!(
            five_by_eight > 1e10 && seconds > 3600.0,
            "{five_by_eight} {seconds}"
        );
        // small grids, narrow ones and codes that never take one vertex: none
        assert!(memo_estimate(&grid("grid:5x6"), true).is_none());
        assert!(memo_estimate(&grid("grid:3x11"), true).is_none());
        assert!(memo_estimate(&grid("grid:5x8"), false).is_none());
        assert!(memo_estimate(&grid("path:40"), true).is_none());
        let said = memo_notice(&grid("grid:5x8"), true).unwrap();
        assert!(
            said.starts_with("grid:5x8 (40 vertices): the memo solver will value about 1.5e10"),
            "{said}"
        );
        assert!(said.contains("hours"), "{said}");
        let dense = dense_notice(32).unwrap();
        assert!(
            dense.starts_with("the dense table of 32 vertices values 2^32 positions, about 43 s"),
            "{dense}"
        );
        assert!(dense_notice(30).is_none());
    }
}
