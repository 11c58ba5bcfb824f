//! `GraphBatch`: one game on many graphs, one row each, as `--graphs` of
//! `grundy graph`, `arrows` and `cycles` runs it. The graphs come from a
//! file (graph6, as nauty's geng writes, or any graph spec, one a line),
//! stdin (`-`), or a family generated here: `trees:N`, `spiders:N`,
//! `grids:MAXV`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use grundy_core::error::{Error, Result};
use grundy_core::game::arrows::{parse_faces, standard_faces};
use grundy_core::game::graph_families::{TREE_COUNTS, grids, spiders, trees};
use grundy_core::game::{Convention, Graph};
use grundy_core::hooks::{RunHooks, Silent};
use grundy_core::setting::Setting;
use grundy_engine::graph::batch::{BatchGraph, solve_batch};

pub use grundy_engine::graph::batch::{BatchGame, BatchRow};

/// The largest graphs file read.
const MAX_GRAPHS_BYTES: u64 = 1 << 30;

/// One game on the graphs a source names.
///
/// ```
/// use grundy::graph_batch::{BatchGame, GraphBatch};
///
/// use grundy::game::GraphCode;
///
/// // 0.33 on the 6 trees with 6 vertices, each as GraphGame solves it alone.
/// let code = GraphCode::parse("0.33").map_err(grundy::Error::Input)?;
/// let rows = GraphBatch::graphs(BatchGame::Octal { code, moves: false }, "trees:6")?.run()?;
/// assert_eq!(rows.rows.len(), 6);
/// for row in &rows.rows {
///     let alone = grundy::GraphGame::octal("0.33", &row.graph6)?.run()?;
///     assert_eq!(row.g, Some(u16::from(alone.value)), "{}", row.graph6);
/// }
/// # Ok::<(), grundy::Error>(())
/// ```
pub struct GraphBatch {
    game: BatchGame,
    source: String,
    graphs: Vec<BatchGraph>,
}

impl GraphBatch {
    /// `game` on the graphs `source` names (read or generated now: a bad
    /// line, a family too large for memory, or no graphs at all are
    /// refused here, before any work). For the Game of Cycles a file's
    /// line may give a plane graph's faces after the graph (`SPEC
    /// FACE;FACE;...`, a face's vertices by commas), and the families with
    /// a standard drawing bring theirs.
    pub fn graphs(game: BatchGame, source: &str) -> Result<GraphBatch> {
        let faces = matches!(game, BatchGame::Cycles);
        let graphs = batch_graphs(source, faces)?;
        Ok(GraphBatch {
            game,
            source: source.to_string(),
            graphs,
        })
    }

    /// How many graphs the batch holds.
    pub fn len(&self) -> usize {
        self.graphs.len()
    }

    /// Never: a batch without graphs is refused when it is made.
    pub fn is_empty(&self) -> bool {
        self.graphs.is_empty()
    }

    /// The source the graphs came from, as given.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Solves every graph (on every core), telling no one.
    pub fn run(&self) -> Result<GraphBatchRows> {
        self.run_with(&Silent)
    }

    /// Solves every graph, telling `hooks` how many are done.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<GraphBatchRows> {
        let begin = Instant::now();
        let done = AtomicU64::new(0);
        hooks.begin(self.graphs.len() as u64, "graphs");
        let rows = solve_batch(&self.graphs, &self.game, &|| {
            hooks.progress(done.fetch_add(1, Relaxed) + 1);
        });
        hooks.end();
        let rows = rows?;
        let named = self
            .graphs
            .iter()
            .any(|g| g.graph.spec != g.graph.to_graph6());
        let convention = match &self.game {
            BatchGame::Octal { code, .. } => code.convention,
            _ => Convention::Normal,
        };
        Ok(GraphBatchRows {
            rows,
            convention,
            specs: named.then(|| self.graphs.iter().map(|g| g.graph.spec.clone()).collect()),
            seconds: begin.elapsed().as_secs_f64(),
        })
    }
}

/// A batch's rows, in the order of its graphs.
#[derive(Clone, Debug)]
pub struct GraphBatchRows {
    /// One row per graph.
    pub rows: Vec<BatchRow>,
    /// Normal play, or misère play (octal codes under
    /// `GraphCode::under`), whose values are misère nim values g⁻.
    pub convention: Convention,
    /// Each graph's spec, for families whose members have names (spiders,
    /// grids, specs in a file); none where every graph is its graph6.
    pub specs: Option<Vec<String>>,
    /// Seconds the graphs took.
    pub seconds: f64,
}

impl GraphBatchRows {
    /// The graphs whose start is a P-position.
    pub fn p_positions(&self) -> usize {
        self.rows.iter().filter(|r| r.outcome == "P").count()
    }

    /// The rows as CSV: `graph6,vertices,edges,g,outcome`, then `moves` or
    /// `faces` when the game has them, and `spec` where graphs have names.
    pub fn write_csv(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let g = self.convention.value_column();
        let mut header = vec!["graph6", "vertices", "edges", g, "outcome"];
        let (moves, faces) = (self.rows[0].moves.is_some(), self.rows[0].faces.is_some());
        header.extend(moves.then_some("moves"));
        header.extend(faces.then_some("faces"));
        header.extend(self.specs.is_some().then_some("spec"));
        let mut csv = csv::Writer::from_writer(w);
        csv.write_record(&header)?;
        for (i, r) in self.rows.iter().enumerate() {
            let mut record = vec![
                r.graph6.clone(),
                r.vertices.to_string(),
                r.edges.to_string(),
                r.g.map_or(String::new(), |g| g.to_string()),
                r.outcome.to_string(),
            ];
            record.extend(r.moves.map(|m| m.to_string()));
            record.extend(r.faces.map(|f| f.to_string()));
            record.extend(self.specs.as_ref().map(|s| s[i].clone()));
            csv.write_record(&record)?;
        }
        csv.flush()
    }
}

/// The graphs `source` names, with each plane graph's faces when `faces`.
fn batch_graphs(source: &str, faces: bool) -> Result<Vec<BatchGraph>> {
    let bad = |e: String| Error::Input(format!("{}: {e}", Setting::Graphs.is(source)));
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
            grundy_engine::memory::check_fits(&format!("{count} trees on {n} vertices"), bytes)?;
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
    let bad = |e: String| Error::Input(format!("{}: {e}", Setting::Graphs.is(source)));
    let lines = grundy_core::input::read_lines(&path, MAX_GRAPHS_BYTES).map_err(bad)?;
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
