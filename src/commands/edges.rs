//! `arrows`, `cycles` and `hackenbush`: the edge games.

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::graph_batches::{BatchOutput, run_batch};
use super::output::{plot_table, print_json, print_wrote, reject_stdout_clash, shows_text};
use crate::cli::{ArrowsArgs, CyclesArgs, HackenbushArgs};
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, OutputRules};
use grundy::game::arrows::{ArrowGame, ArrowRule, cycles_game, spider, trim};
use grundy::game::{Convention, Graph};
use grundy::graph_batch::BatchGame;
use grundy::{ArrowSolver, EdgeRun};
use grundy::{BackendChoice, RanOn};
use grundy::{EdgeGame, SpiderTable};

/// The JSON summary of `arrows` and `cycles` on one graph.
#[derive(Serialize)]
pub struct EdgeGameSummary {
    /// "arrows", "trimmed" or "cycles".
    pub rule: ArrowRule,
    pub graph: String,
    pub vertices: usize,
    pub edges: usize,
    /// The start state, as arrows u>v.
    pub state: String,
    /// G of the start state (null in the Game of Cycles with faces: only the outcome means something).
    pub g: Option<u16>,
    pub outcome: &'static str,
    /// "normal" (the last player to mark wins) or "misere" (loses).
    pub convention: Convention,
    /// States in the dense table, or pieces remembered by the memo solver.
    pub states: u64,
    pub solver: ArrowSolver,
    #[serde(flatten)]
    pub ran: RanOn,
    pub seconds: f64,
    /// The trimming T(G), with --trim: its vertex count and edges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trimming: Option<(usize, Vec<(usize, usize)>)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faces: Option<usize>,
}

/// `game` from the state `--state` names (every edge unmarked: none),
/// solved by `solver` on `choice` (the GPU opened only for a dense table).
fn play(
    game: ArrowGame,
    state: Option<&str>,
    (solver, choice): (ArrowSolver, BackendChoice),
    quiet: bool,
) -> Result<(EdgeGame, EdgeRun)> {
    let mut game = EdgeGame::of(game).solver(solver).backend(choice);
    if let Some(text) = state {
        game = game.state(text)?;
    }
    let run = game.run_with(&CliHooks::new(quiet))?;
    Ok((game, run))
}

pub fn arrows(args: &ArrowsArgs, rules: OutputRules) -> Result<()> {
    reject_stdout_clash(
        args.table.output.report.json,
        args.table.output.out.as_deref(),
    )?;
    if let Some(max) = args.spiders {
        return spider_table(args, max, rules);
    }
    if let Some(source) = &args.graphs {
        let output = &args.table.output;
        let batch = BatchOutput {
            out: output.out.as_deref(),
            json: output.report.json,
            quiet: args.table.output.report.quiet,
            rules,
        };
        let game = BatchGame::Arrows {
            trimmed: args.trimmed,
        };
        return run_batch(game, game_name(args).into(), source, batch);
    }
    if let Some(path) = &args.table.output.plot {
        return Err(Error::Input(format!(
            "--plot {}: a single graph has one value, nothing to draw; --plot draws the \
             table of --spiders L",
            path.display()
        )));
    }
    let spec = args.graph.as_deref().unwrap_or_default();
    let mut rule = if args.trimmed {
        ArrowRule::Trimmed
    } else {
        ArrowRule::Arrows
    };
    let mut trimming = None;
    let game = if args.trim {
        // Theorem 3.4: the Game of Arrows on G is the trimmed game on T(G)
        let graph = Graph::parse(spec).map_err(Error::Input)?;
        let (n, edges) = trim(&graph);
        trimming = Some((n, edges.clone()));
        rule = ArrowRule::Trimmed;
        ArrowGame::from_edges(n, edges, rule, Vec::new())
    } else {
        match Graph::parse(spec) {
            Ok(graph) => ArrowGame::new(&graph, rule, Vec::new()),
            // spiders and paths past the graph specs' 64 vertices
            Err(why) => large_tree(spec, rule).ok_or(Error::Input(why))?,
        }
    };
    let game = game
        .under(Convention::misere_if(args.misere))
        .map_err(Error::Input)?;
    let how = (args.solver, args.table.backend);
    let quiet = args.table.output.report.quiet;
    let (played, run) = play(game, args.state.as_deref(), how, quiet)?;
    let (game, start) = (played.game(), played.marks());
    let g = run.g;
    let summary = EdgeGameSummary {
        rule,
        graph: spec.to_string(),
        vertices: game.n,
        edges: game.edges.len(),
        state: game.describe_state(start),
        g: Some(g),
        outcome: if g == 0 { "P" } else { "N" },
        convention: game.convention,
        states: run.states,
        solver: run.solver,
        ran: run.ran_on,
        seconds: run.seconds,
        trimming,
        faces: None,
    };
    write_and_report(args, &summary, rules)
}

/// One graph's row to `--out`, and its summary on stdout unless the row
/// went there.
fn write_and_report(
    args: &ArrowsArgs,
    summary: &EdgeGameSummary,
    rules: OutputRules,
) -> Result<()> {
    let out = args.table.output.out.as_deref();
    if let Some(path) = out {
        write_summary_row(path, summary, rules)?;
    }
    if out.is_some_and(grundy::frontend::export::is_stdout) {
        return Ok(());
    }
    report(summary, args.table.output.report.json)
}

/// `--out` of one graph: one CSV row (graph,vertices,edges,state,g,outcome).
fn write_summary_row(
    path: &std::path::Path,
    s: &EdgeGameSummary,
    rules: OutputRules,
) -> Result<()> {
    export::write_to(path, rules, |w| {
        let mut csv = csv::Writer::from_writer(w);
        let g = s.convention.value_column();
        csv.write_record(["graph", "vertices", "edges", "state", g, "outcome"])?;
        csv.write_record([
            s.graph.clone(),
            s.vertices.to_string(),
            s.edges.to_string(),
            s.state.clone(),
            s.g.map_or(String::new(), |g| g.to_string()),
            s.outcome.to_string(),
        ])?;
        csv.flush()
    })
}

/// The most edges a spider or path built past the graph specs may have.
const MAX_TREE_EDGES: usize = 100_000;

/// `pode:l1,l2,...` or `path:N` of any size (the memo solver takes them).
fn large_tree(spec: &str, rule: ArrowRule) -> Option<ArrowGame> {
    let (family, rest) = spec.split_once(':')?;
    let legs: Vec<usize> = match family {
        "pode" => rest
            .split(',')
            .map(|t| t.trim().parse().ok())
            .collect::<Option<_>>()?,
        "path" => vec![rest.trim().parse::<usize>().ok()?.checked_sub(1)?],
        _ => return None,
    };
    let edges: usize = legs.iter().sum();
    (edges > 0 && edges <= MAX_TREE_EDGES).then(|| spider(&legs, rule))
}

fn report(s: &EdgeGameSummary, json: bool) -> Result<()> {
    if json {
        return print_json(s);
    }
    let rule = match s.rule {
        ArrowRule::Arrows => "Game of Arrows",
        ArrowRule::Trimmed => "Trimmed Game of Arrows",
        ArrowRule::Cycles => "Game of Cycles",
    };
    grundy::frontend::outln!("game        {rule}");
    if let Some((n, edges)) = &s.trimming {
        let list: Vec<String> = edges.iter().map(|(u, v)| format!("{u}-{v}")).collect();
        grundy::frontend::outln!(
            "trimming    T({}): {n} vertices, {} edges: {}",
            s.graph,
            edges.len(),
            list.join(" ")
        );
    } else {
        grundy::frontend::outln!(
            "graph       {} ({} vertices, {} edges)",
            s.graph,
            s.vertices,
            s.edges
        );
    }
    if !s.state.is_empty() {
        grundy::frontend::outln!("state       {}", s.state);
    }
    if let Some(f) = s.faces {
        grundy::frontend::outln!("faces       {f} cycle cells");
    }
    let on = s
        .ran
        .adapter
        .as_ref()
        .map(|a| format!(" ({a})"))
        .unwrap_or_default();
    let unit = if s.solver == ArrowSolver::Memo {
        "pieces"
    } else {
        "states"
    };
    grundy::frontend::outln!(
        "solver      {:?}, {}{on}, {} {unit}, {:.3} s",
        s.solver,
        s.ran.backend,
        s.states,
        s.seconds
    );
    let who = if s.outcome == "N" {
        "N-position: the first player wins"
    } else {
        "P-position: the second player wins"
    };
    match (s.g, s.convention) {
        (Some(g), Convention::Normal) => grundy::frontend::outln!("G           {g} ({who})"),
        (Some(g), Convention::Misere) => grundy::frontend::outln!("g⁻ misère   {g} ({who})"),
        (None, _) => grundy::frontend::outln!("outcome     {who}"),
    }
    Ok(())
}

/// The JSON summary of a spider table.
#[derive(Serialize)]
struct SpiderSummary {
    rule: ArrowRule,
    legs: usize,
    max: usize,
    rows: usize,
    p_positions: usize,
    pieces: usize,
    seconds: f64,
    out: Option<String>,
    plot: Option<String>,
}

fn spider_table(args: &ArrowsArgs, max: usize, rules: OutputRules) -> Result<()> {
    let output = &args.table.output;
    let plot = output.plot_style.target(output.plot.as_deref(), rules)?;
    let table = SpiderTable::arrows(args.legs, max)?.trimmed(args.trimmed);
    let spiders = table.run_with(&CliHooks::new(output.report.quiet))?;
    if let Some(path) = &output.out {
        let what = format!("G of {}-legged spiders, legs 1 to {max}", args.legs);
        export::write_table(path, rules, output.format, &what, |w| spiders.write_csv(w))?;
    }
    let title = format!(
        "{} on {}-legged spiders, legs 1..={max}",
        game_name(args),
        args.legs
    );
    if let Some(target) = &plot {
        let names = &["a", "b", "c", "d"][..args.legs];
        let coords: Vec<u32> = spiders.legs.iter().flatten().map(|&l| l as u32).collect();
        let vals: Vec<u32> = spiders.values.iter().map(|&g| g as u32).collect();
        // a spider's value does not depend on the order of its legs
        let quiet = output.report.quiet;
        plot_table(target, title.clone(), names, &coords, &vals, true, quiet)?;
    }
    let shown = |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let summary = SpiderSummary {
        rule: table.rule(),
        legs: args.legs,
        max,
        rows: spiders.legs.len(),
        p_positions: spiders.p_positions(),
        pieces: spiders.pieces,
        seconds: spiders.seconds,
        out: shown(&output.out),
        plot: shown(&output.plot),
    };
    if output.report.json {
        return print_json(&summary);
    }
    if shows_text(false, output.report.quiet, output.out.as_deref()) {
        let table = output.out.is_none();
        print_spiders(&title, &summary, &spiders.legs, &spiders.values, table);
        print_wrote(output.out.as_deref());
    }
    Ok(())
}

fn game_name(args: &ArrowsArgs) -> &'static str {
    match args.trimmed {
        true => "Trimmed Game of Arrows",
        false => "Game of Arrows",
    }
}

/// The summary line, and for three legs up to 16 the table itself (when
/// it went to no file).
fn print_spiders(title: &str, s: &SpiderSummary, rows: &[Vec<usize>], values: &[u16], table: bool) {
    grundy::frontend::outln!(
        "{title}: {} spiders, {} P-positions, {} pieces, {:.3} s",
        s.rows,
        s.p_positions,
        s.pieces,
        s.seconds
    );
    if table && s.legs == 3 && s.max <= 16 {
        grundy::frontend::outln!("G(S(a,b,c)): one line per (a,b), c = b..={}", s.max);
        for (legs, g) in rows.iter().zip(values) {
            if legs[2] == legs[1] {
                grundy::frontend::out!("\n{:>2},{:>2} |", legs[0], legs[1]);
                for _ in 0..legs[1] - 1 {
                    grundy::frontend::out!("   ");
                }
            }
            grundy::frontend::out!("{g:>3}");
        }
        grundy::frontend::outln!();
    }
}

pub fn cycles(args: &CyclesArgs, rules: OutputRules) -> Result<()> {
    if let Some(source) = &args.graphs {
        let batch = BatchOutput {
            out: args.out.as_deref(),
            json: args.report.json,
            quiet: args.report.quiet,
            rules,
        };
        return run_batch(BatchGame::Cycles, "Game of Cycles".into(), source, batch);
    }
    let spec = args.graph.as_deref().unwrap_or_default();
    let game = cycles_game(spec, args.faces.as_deref())?;
    let how = (ArrowSolver::Dense, args.backend);
    let (played, run) = play(game, args.state.as_deref(), how, args.report.quiet)?;
    let (game, start) = (played.game(), played.marks());
    let g = run.g;
    let summary = EdgeGameSummary {
        rule: ArrowRule::Cycles,
        graph: spec.to_string(),
        vertices: game.n,
        edges: game.edges.len(),
        state: game.describe_state(start),
        g: game.faces.is_empty().then_some(g),
        outcome: if g == 0 { "P" } else { "N" },
        convention: Convention::Normal,
        states: run.states,
        solver: run.solver,
        ran: run.ran_on,
        seconds: run.seconds,
        trimming: None,
        faces: Some(game.faces.len()),
    };
    report(&summary, args.report.json)
}

/// The JSON summary of `hackenbush`.
#[derive(Serialize)]
struct HackenbushSummary {
    graph: String,
    ground: Vec<usize>,
    edges: usize,
    g: u8,
    outcome: &'static str,
    convention: Convention,
    positions: usize,
    seconds: f64,
}

pub fn hackenbush(args: &HackenbushArgs) -> Result<()> {
    let convention = Convention::misere_if(args.misere);
    let solved = grundy::hackenbush_under(&args.graph, &args.ground, convention)?;
    let g = solved.value;
    let summary = HackenbushSummary {
        graph: args.graph.clone(),
        ground: solved.ground,
        edges: solved.edges,
        g,
        outcome: if g == 0 { "P" } else { "N" },
        convention,
        positions: solved.positions,
        seconds: solved.seconds,
    };
    if args.json {
        return print_json(&summary);
    }
    grundy::frontend::outln!(
        "game        green Hackenbush{}",
        match convention {
            Convention::Normal => "",
            Convention::Misere => ", misère play (the last player to cut loses)",
        }
    );
    grundy::frontend::outln!(
        "graph       {} ({} edges, ground {:?})",
        summary.graph,
        summary.edges,
        summary.ground
    );
    grundy::frontend::outln!(
        "positions   {} in {:.3} s",
        summary.positions,
        summary.seconds
    );
    let who = if g == 0 {
        "P-position: the second player wins"
    } else {
        "N-position: the first player wins"
    };
    grundy::frontend::outln!("G           {g} ({who})");
    Ok(())
}
