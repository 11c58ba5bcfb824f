//! `--graphs SOURCE` of `graph`, `arrows` and `cycles`: many graphs, one
//! row each. SOURCE is a file of graphs (graph6, as nauty's geng writes,
//! or any graph spec), `-` for stdin, or a family generated here:
//! `trees:N`, `spiders:N`, `grids:MAXV`.

use std::path::Path;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, reject_stdout_clash, shows_text};
use grundy::GraphBatch;
use grundy::error::Result;
use grundy::frontend::export::{self, OutputRules};
use grundy::graph_batch::BatchGame;

/// Where a batch's rows go and how it reports.
pub struct BatchOutput<'a> {
    pub out: Option<&'a Path>,
    pub json: bool,
    pub quiet: bool,
    /// What the rows' file may replace, and whether its folders are made.
    pub rules: OutputRules,
}

/// The JSON summary of a batch.
#[derive(Serialize)]
struct BatchSummary {
    game: String,
    graphs: String,
    count: usize,
    p_positions: usize,
    seconds: f64,
    out: Option<String>,
}

/// Runs a batch and writes its rows: `graph6,vertices,edges,g,outcome`,
/// then `moves` or `faces` when the game has them, and `spec` for families
/// whose members have names (spiders, grids, specs in a file).
pub fn run_batch(game: BatchGame, name: String, source: &str, output: BatchOutput) -> Result<()> {
    reject_stdout_clash(output.json, output.out)?;
    let batch = GraphBatch::graphs(game, source)?;
    let rows = batch.run_with(&CliHooks::new(output.quiet))?;
    if let Some(path) = output.out {
        export::write_to(path, output.rules, |w| rows.write_csv(w))?;
    }
    let summary = BatchSummary {
        game: name,
        graphs: source.to_string(),
        count: rows.rows.len(),
        p_positions: rows.p_positions(),
        seconds: rows.seconds,
        out: output.out.map(|p| p.display().to_string()),
    };
    if output.json {
        return print_json(&summary);
    }
    if shows_text(false, output.quiet, output.out) {
        grundy::frontend::outln!(
            "{} on {} graphs ({}): {} P-positions, {:.2} s",
            summary.game,
            summary.count,
            summary.graphs,
            summary.p_positions,
            summary.seconds
        );
        print_wrote(output.out);
    }
    Ok(())
}
