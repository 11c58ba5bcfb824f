//! `--graphs SOURCE` of `graph`, `arrows` and `cycles`: many graphs, one
//! row each. SOURCE is a file of graphs (graph6, as nauty's geng writes,
//! or any graph spec), `-` for stdin, or a family generated here:
//! `trees:N`, `spiders:N`, `grids:MAXV`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::output::{print_json, print_wrote, progress_bar, reject_stdout_clash, shows_text};
use grundy::engine::graph::batch::{BatchGame, BatchGraph, BatchRow, solve_batch};
use grundy::error::{Error, Result};
use grundy::export;
use grundy::game::Graph;
use grundy::game::arrows::{parse_faces, standard_faces};
use grundy::game::graph_families::{TREE_COUNTS, grids, spiders, trees};

/// The largest graphs file read.
const MAX_GRAPHS_BYTES: u64 = 1 << 30;

/// Where a batch's rows go and how it reports.
pub struct BatchOutput<'a> {
    pub out: Option<&'a Path>,
    pub json: bool,
    pub quiet: bool,
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

/// The graphs SOURCE names; with `faces`, a file's line may give a plane
/// graph's faces after the graph (`SPEC FACE;FACE;...`, a face's vertices
/// by commas), and families with a standard drawing bring theirs.
pub fn batch_graphs(source: &str, faces: bool) -> Result<Vec<BatchGraph>> {
    let bad = |e: String| Error::Input(format!("--graphs {source}: {e}"));
    let family = source.split_once(':').and_then(|(name, n)| {
        let n: usize = n.parse().ok()?;
        ["trees", "spiders", "grids"]
            .contains(&name)
            .then_some((name, n))
    });
    let graphs = match family {
        Some(("trees", n)) => {
            // Each tree is held with its row: about 300 bytes at 20 vertices.
            let count = TREE_COUNTS.get(n).copied().unwrap_or(0);
            let bytes = count.saturating_mul(n as u64 * 8 + 200);
            grundy::engine::memory::check_fits(&format!("{count} trees on {n} vertices"), bytes)?;
            trees(n).map_err(bad)?
        }
        Some(("spiders", n)) => spiders(n).map_err(bad)?,
        Some((_, n)) => grids(n).map_err(bad)?,
        None => return graphs_in_file(source, faces),
    };
    Ok(graphs
        .into_iter()
        .map(|graph| {
            let drawn = standard_faces(&graph, &graph.spec.clone());
            BatchGraph {
                faces: drawn.filter(|_| faces).unwrap_or_default(),
                graph,
            }
        })
        .collect())
}

/// One graph per line of a file (or stdin): blank lines and `#` comments
/// skipped, geng's `>>graph6<<` header taken off.
fn graphs_in_file(source: &str, faces: bool) -> Result<Vec<BatchGraph>> {
    let path = match source {
        "-" => PathBuf::from("/dev/stdin"),
        _ => PathBuf::from(source),
    };
    let bad = |e: String| Error::Input(format!("--graphs {source}: {e}"));
    let lines = grundy::input::read_lines(&path, MAX_GRAPHS_BYTES).map_err(bad)?;
    let mut graphs = Vec::new();
    for (number, line) in lines {
        let text = line.split('#').next().unwrap_or("").trim();
        let text = text.strip_prefix(">>graph6<<").unwrap_or(text);
        if text.is_empty() {
            continue;
        }
        let (spec, face_text) = match text.split_once(char::is_whitespace) {
            Some((spec, rest)) if faces => (spec, Some(rest.trim())),
            _ => (text, None),
        };
        let at = |e: String| bad(format!("line {number}: {e}"));
        let graph = Graph::parse(spec).map_err(at)?;
        let faces = match face_text {
            Some(t) => parse_faces(&t.replace(';', "\n")).map_err(at)?,
            None if faces => standard_faces(&graph, spec).unwrap_or_default(),
            None => Vec::new(),
        };
        graphs.push(BatchGraph { graph, faces });
    }
    if graphs.is_empty() {
        return Err(bad(
            "no graphs found; expected one graph6 string (or graph spec) per line".into(),
        ));
    }
    Ok(graphs)
}

/// Runs a batch and writes its rows: `graph6,vertices,edges,g,outcome`,
/// then `moves` or `faces` when the game has them, and `spec` for families
/// whose members have names (spiders, grids, specs in a file).
pub fn run_batch(game: BatchGame, name: String, source: &str, output: BatchOutput) -> Result<()> {
    reject_stdout_clash(output.json, output.out)?;
    let graphs = batch_graphs(source, matches!(game, BatchGame::Cycles))?;
    let begin = Instant::now();
    let bar = progress_bar(graphs.len() as u64, output.quiet, "graphs");
    let rows = solve_batch(&graphs, &game, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let seconds = begin.elapsed().as_secs_f64();
    if let Some(path) = output.out {
        let named = graphs.iter().any(|g| g.graph.spec != g.graph.to_graph6());
        export::write_to(path, crate::front::output_rules(), |w| {
            write_rows(w, &graphs, &rows, named)
        })?;
    }
    let summary = BatchSummary {
        game: name,
        graphs: source.to_string(),
        count: rows.len(),
        p_positions: rows.iter().filter(|r| r.outcome == "P").count(),
        seconds,
        out: output.out.map(|p| p.display().to_string()),
    };
    if output.json {
        return print_json(&summary);
    }
    if shows_text(false, output.quiet, output.out) {
        grundy::outln!(
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

fn write_rows(
    w: &mut dyn std::io::Write,
    graphs: &[BatchGraph],
    rows: &[BatchRow],
    named: bool,
) -> std::io::Result<()> {
    let mut header = vec!["graph6", "vertices", "edges", "g", "outcome"];
    let (moves, faces) = (rows[0].moves.is_some(), rows[0].faces.is_some());
    header.extend(moves.then_some("moves"));
    header.extend(faces.then_some("faces"));
    header.extend(named.then_some("spec"));
    let mut csv = csv::Writer::from_writer(w);
    csv.write_record(&header)?;
    for (item, r) in graphs.iter().zip(rows) {
        let mut record = vec![
            r.graph6.clone(),
            r.vertices.to_string(),
            r.edges.to_string(),
            r.g.map_or(String::new(), |g| g.to_string()),
            r.outcome.to_string(),
        ];
        record.extend(r.moves.map(|m| m.to_string()));
        record.extend(r.faces.map(|f| f.to_string()));
        record.extend(named.then(|| item.graph.spec.clone()));
        csv.write_record(&record)?;
    }
    csv.flush()
}
