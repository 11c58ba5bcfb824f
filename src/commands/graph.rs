//! `graph`, `podes` and `bipodes`: octal games on graphs.

use std::path::Path;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::graph_batches::{BatchOutput, run_batch};
use super::output::{plot_table, print_json, print_wrote, reject_stdout_clash, shows_text};
use crate::cli::{BipodesArgs, GraphArgs, PodesArgs, TableOutput};
use crate::plot::{self, PlotTarget};
use grundy::GraphGame;
use grundy::RanOn;
use grundy::Solver;
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, OutputRules, TableFormat};
use grundy::game::graph::Graph;
use grundy::game::{Convention, GraphCode};
use grundy::graph::{GraphRows, corner_masks};
use grundy::graph_batch::BatchGame;

/// The JSON summary of `graph`.
#[derive(Serialize)]
pub struct GraphSummary {
    pub code: String,
    pub graph: String,
    pub graph6: String,
    pub vertices: usize,
    pub edges: usize,
    /// G, or under misère play the misère nim value g⁻.
    pub g: u8,
    /// N: the first player wins; P: the second.
    pub outcome: &'static str,
    /// "normal" (the last player to move wins) or "misere" (loses).
    pub convention: Convention,
    /// Positions evaluated (dense: every subset; memo: distinct pieces).
    pub positions: u64,
    pub solver: Solver,
    #[serde(flatten)]
    pub ran: RanOn,
    /// Moves played from the whole graph (with --moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<u8>,
    pub seconds: f64,
    pub out: Option<String>,
    pub plot: Option<String>,
}

pub fn graph(args: &GraphArgs, rules: OutputRules) -> Result<()> {
    reject_stdout_clash(args.report.json, args.out.as_deref())?;
    let code = parse_code(&args.code, args.misere)?;
    if let Some(source) = &args.graphs {
        let name = code.text.clone();
        let game = BatchGame::Octal {
            code,
            moves: args.moves,
        };
        let output = BatchOutput {
            out: args.out.as_deref(),
            json: args.report.json,
            quiet: args.report.quiet,
            rules,
        };
        return run_batch(game, name, source, output);
    }
    let g = Graph::parse(args.graph.as_deref().unwrap_or_default()).map_err(Error::Input)?;
    let plot = args.plot_style.target(args.plot.as_deref(), rules)?;
    let game = GraphGame::of(code.clone(), g.clone())
        .solver(args.solver)
        .backend(args.backend)
        .rows(args.out.is_some() || plot.is_some())
        .corners(plot.is_some())
        .moves(args.moves);
    let solved = game.run_with(&CliHooks::new(args.report.quiet))?;
    let rows = solved.rows.unwrap_or(GraphRows::Pieces(Vec::new()));
    let mut summary = summarise(
        &code,
        &g,
        solved.value,
        solved.positions,
        solved.solver,
        solved.ran_on.clone(),
    );
    summary.moves = solved.moves;
    summary.seconds = solved.seconds;
    let summary = GraphSummary {
        out: args.out.as_ref().map(|p| p.display().to_string()),
        plot: args.plot.as_ref().map(|p| p.display().to_string()),
        ..summary
    };
    if let Some(target) = &plot {
        plot_graph(target, &g, &code, &rows, &solved.corners)?;
    }
    if let Some(path) = &args.out {
        write_rows(path, &rows, (&code, args.moves), rules)?;
    }
    if args.report.json {
        print_json(&summary)
    } else if shows_text(false, args.report.quiet, args.out.as_deref()) {
        print_graph(&summary);
        Ok(())
    } else {
        Ok(())
    }
}

/// The plot: a grid's corner sub-grids, else values by level.
fn plot_graph(
    target: &PlotTarget,
    g: &Graph,
    code: &GraphCode,
    rows: &GraphRows,
    memo_corners: &Option<Vec<u8>>,
) -> Result<()> {
    if let (Some((r, c)), GraphRows::Subsets(table, moves)) = (g.grid, rows) {
        let corners = corner_masks(r, c);
        let of = |t: &[u8]| -> Vec<u8> { corners.iter().map(|&m| t[m as usize]).collect() };
        let moves = moves.as_deref().map(of);
        return plot_grid_corners(target, code, r, c, &of(table), moves.as_deref());
    }
    if let (Some((r, c)), Some(values)) = (g.grid, memo_corners) {
        return plot_grid_corners(target, code, r, c, values, None);
    }
    let pairs: Box<dyn Iterator<Item = (u32, u32)>> = match rows {
        GraphRows::Subsets(table, _) => Box::new(
            table
                .iter()
                .enumerate()
                .map(|(mask, &v)| ((mask as u64).count_ones(), u32::from(v))),
        ),
        GraphRows::Reached(reached, _) => Box::new(
            reached
                .iter()
                .map(|&(mask, v, _)| (mask.count_ones(), u32::from(v))),
        ),
        GraphRows::Pieces(records) => Box::new(records.iter().map(|r| (r.size, u32::from(r.g)))),
    };
    let what = match rows {
        GraphRows::Pieces(_) => "connected pieces solved",
        GraphRows::Reached(..) => "positions reachable from the whole graph",
        GraphRows::Subsets(..) => "every vertex subset",
    };
    let title = format!(
        "{} of {} on {}: {what}",
        values_are(code),
        code.text,
        g.spec
    );
    plot::chart(target, &plot::level_chart(title, "vertices left", pairs))
}

/// A code from the command line, under misère play with `--misere`.
fn parse_code(text: &str, misere: bool) -> Result<GraphCode> {
    let code = GraphCode::parse(text).map_err(Error::Input)?;
    Ok(code.under(Convention::misere_if(misere)))
}

/// What a table's values are, in a heading: G, or g⁻ (misère play).
fn values_are(code: &GraphCode) -> &'static str {
    match code.convention {
        Convention::Normal => "G",
        Convention::Misere => "g⁻ (misère play)",
    }
}

/// `--out`: mask, size, g (and moves) per row.
fn write_rows(
    path: &Path,
    rows: &GraphRows,
    (code, moves): (&GraphCode, bool),
    rules: OutputRules,
) -> Result<()> {
    export::write_to(path, rules, |w| {
        let mut csv = csv::Writer::from_writer(w);
        let mut header = vec!["mask", "size", code.convention.value_column()];
        if moves {
            header.push("moves");
        }
        csv.write_record(&header).map_err(csv_error)?;
        match rows {
            GraphRows::Subsets(table, moves) => {
                for (mask, &v) in table.iter().enumerate() {
                    let size = (mask as u64).count_ones();
                    match moves {
                        Some(m) => csv.serialize((mask, size, v, m[mask])),
                        None => csv.serialize((mask, size, v)),
                    }
                    .map_err(csv_error)?;
                }
            }
            GraphRows::Reached(reached, with_moves) => {
                for &(mask, v, m) in reached {
                    let size = mask.count_ones();
                    match with_moves {
                        true => csv.serialize((mask, size, v, m)),
                        false => csv.serialize((mask, size, v)),
                    }
                    .map_err(csv_error)?;
                }
            }
            GraphRows::Pieces(records) => {
                for r in records {
                    csv.serialize((r.mask, r.size, r.g)).map_err(csv_error)?;
                }
            }
        }
        csv.flush()
    })
}

fn print_graph(summary: &GraphSummary) {
    grundy::frontend::outln!("code        {}", summary.code);
    grundy::frontend::outln!(
        "graph       {} ({} vertices, {} edges; graph6 {})",
        summary.graph,
        summary.vertices,
        summary.edges,
        summary.graph6
    );
    let backend = match &summary.ran.adapter {
        Some(a) => format!("{} ({a})", summary.ran.backend),
        None => summary.ran.backend.to_string(),
    };
    grundy::frontend::outln!(
        "solver      {}, {backend}, {} positions, {:.3} s",
        match summary.solver {
            Solver::Memo => "memo",
            Solver::Reach => "reach",
            _ => "dense",
        },
        summary.positions,
        summary.seconds
    );
    let value = match summary.convention {
        Convention::Normal => "G         ",
        Convention::Misere => "g⁻ misère ",
    };
    grundy::frontend::outln!(
        "{value}  {} ({}-position: the {} player wins)",
        summary.g,
        summary.outcome,
        if summary.g == 0 { "second" } else { "first" }
    );
    if let Some(m) = summary.moves {
        grundy::frontend::outln!(
            "moves       {m} (winner plays to empty the graph, loser to stop it)"
        );
    }
    print_wrote(summary.out.as_deref().map(Path::new));
}

/// A grid's table as small multiples: G of every corner sub-grid of a rows
/// and b columns (a <= R, b <= C), and with --moves the moves played from
/// each; one value per mask of `corner_masks`.
fn plot_grid_corners(
    target: &PlotTarget,
    code: &GraphCode,
    rows: usize,
    cols: usize,
    values: &[u8],
    moves: Option<&[u8]>,
) -> Result<()> {
    let panel = |title: &str, of: &[u8]| plot::Panel {
        title: title.to_string(),
        x_label: "columns".into(),
        y_label: "rows".into(),
        x0: 1,
        y0: 1,
        step: 1,
        cols,
        rows,
        cells: of.iter().map(|&v| Some(u32::from(v))).collect(),
    };
    let mut panels = vec![panel(
        &format!("{} of the a x b grid", values_are(code)),
        values,
    )];
    if let Some(m) = moves {
        panels.push(panel("moves played (winner longest, loser shortest)", m));
    }
    let title = format!("{} on grids up to {rows}x{cols}", code.text);
    plot::heat_maps(target, &plot::HeatMaps::new(title, panels))
}

fn csv_error(e: csv::Error) -> std::io::Error {
    std::io::Error::other(e)
}

fn summarise(
    code: &GraphCode,
    g: &Graph,
    value: u8,
    positions: u64,
    solver: Solver,
    ran: RanOn,
) -> GraphSummary {
    GraphSummary {
        code: code.text.clone(),
        graph: g.spec.clone(),
        graph6: g.to_graph6(),
        vertices: g.n(),
        edges: g.edge_count(),
        g: value,
        outcome: if value == 0 { "P" } else { "N" },
        convention: code.convention,
        positions,
        solver,
        ran,
        moves: None,
        seconds: 0.0,
        out: None,
        plot: None,
    }
}

#[derive(Serialize)]
struct TableSummary {
    code: String,
    convention: Convention,
    table: &'static str,
    rows: usize,
    positions: u64,
    seconds: f64,
    out: Option<String>,
    plot: Option<String>,
}

/// What a pode or bipode table shows on stdout besides its JSON.
#[derive(PartialEq, Eq)]
enum Shown {
    /// --json, -q or --out -: nothing more.
    Nothing,
    /// --out FILE: the summary line and `wrote FILE`.
    Summary,
    /// No --out: the table as text, then the summary line.
    Table,
}

/// Prints the JSON summary of a pode or bipode table; says what text to
/// print instead.
fn report_table(
    table: &'static str,
    code: &GraphCode,
    rows: usize,
    pieces: u64,
    seconds: f64,
    output: &TableOutput,
) -> Result<Shown> {
    if output.report.json {
        print_json(&TableSummary {
            code: code.text.clone(),
            convention: code.convention,
            table,
            rows,
            positions: pieces,
            seconds,
            out: output.out.as_ref().map(|p| p.display().to_string()),
            plot: output.plot.as_ref().map(|p| p.display().to_string()),
        })?;
        return Ok(Shown::Nothing);
    }
    Ok(match output.out {
        _ if !shows_text(false, output.report.quiet, output.out.as_deref()) => Shown::Nothing,
        Some(_) => Shown::Summary,
        None => Shown::Table,
    })
}

/// The line after a pode or bipode table: its size and time, and the file.
fn print_table_summary(rows: usize, pieces: u64, seconds: f64, out: Option<&Path>) {
    grundy::frontend::outln!("{rows} rows, {pieces} pieces solved in {seconds:.3} s");
    print_wrote(out);
}

pub fn podes(args: &PodesArgs, rules: OutputRules) -> Result<()> {
    let output = &args.output;
    reject_stdout_clash(output.report.json, output.out.as_deref())?;
    let plot = output.plot_style.target(output.plot.as_deref(), rules)?;
    let code = parse_code(&args.code, args.misere)?;
    let limits = (args.max_legs, args.max_length);
    let table = grundy::podes_of(&code, limits, &CliHooks::new(output.report.quiet))?;
    let (rows, seconds) = (table.rows, table.seconds);
    // With legs of length 1 and 2 a pode is (legs, long legs): two columns.
    let long = args.max_length == 2;
    let lengths: Vec<String> = (1..=args.max_length).map(|j| format!("len{j}")).collect();
    let columns = |counts: &[usize]| -> Vec<usize> {
        match long {
            true => vec![counts.iter().sum(), counts[1]],
            false => counts.to_vec(),
        }
    };
    if let Some(path) = &output.out {
        write_podes((path, output.format, rules), &code, &rows, (long, &lengths))?;
    }
    if let Some(target) = &plot {
        let names: Vec<&str> = match long {
            true => vec!["legs", "long_legs"],
            false => lengths.iter().map(String::as_str).collect(),
        };
        let coords: Vec<u32> = rows
            .iter()
            .flat_map(|(c, _)| columns(c))
            .map(|c| c as u32)
            .collect();
        let values: Vec<u32> = rows.iter().map(|(_, v)| *v as u32).collect();
        let title = format!(
            "{} of {} on k-podes, legs of length 1..={}",
            values_are(&code),
            code.text,
            args.max_length
        );
        plot_table(
            target,
            title,
            &names,
            &coords,
            &values,
            false,
            output.report.quiet,
        )?;
    }
    let shown = report_table("podes", &code, rows.len(), table.pieces, seconds, output)?;
    if shown == Shown::Table {
        print_podes(args, &code, &rows, &lengths);
    }
    if shown != Shown::Nothing {
        print_table_summary(rows.len(), table.pieces, seconds, output.out.as_deref());
    }
    Ok(())
}

/// `--out`: the legs (and long legs, or each length's count) and G.
fn write_podes(
    (path, format, rules): (&Path, TableFormat, OutputRules),
    code: &GraphCode,
    rows: &[(Vec<usize>, u8)],
    (long, lengths): (bool, &[String]),
) -> Result<()> {
    let header = match long {
        true => "legs,long_legs".to_string(),
        false => format!("legs,{}", lengths.join(",")),
    };
    let what = format!("{} of {} on k-podes", values_are(code), code.text);
    export::write_table(path, rules, format, &what, |w| {
        writeln!(w, "{header},{}", code.convention.value_column())?;
        for (counts, v) in rows {
            let k: usize = counts.iter().sum();
            let cols: Vec<String> = match long {
                true => vec![counts[1].to_string()],
                false => counts.iter().map(|c| c.to_string()).collect(),
            };
            writeln!(w, "{k},{},{v}", cols.join(","))?;
        }
        Ok(())
    })
}

/// The pode table as text: by legs and long legs (lengths up to 2), else
/// one row per multiset of leg lengths.
fn print_podes(args: &PodesArgs, code: &GraphCode, rows: &[(Vec<usize>, u8)], lengths: &[String]) {
    if args.max_length == 2 {
        grundy::frontend::outln!(
            "{} of {}-podes: row = legs, column = legs of length 2",
            values_are(code),
            code.text
        );
        for k in 0..=args.max_legs {
            let line: Vec<String> = rows
                .iter()
                .filter(|(c, _)| c.iter().sum::<usize>() == k)
                .map(|(_, v)| v.to_string())
                .collect();
            grundy::frontend::outln!("{k:>3} | {}", line.join(" "));
        }
        return;
    }
    grundy::frontend::outln!(
        "{} of {}-podes with legs of length 1..={}",
        values_are(code),
        code.text,
        args.max_length
    );
    grundy::frontend::outln!("legs {} g", lengths.join(" "));
    for (counts, v) in rows {
        let cols: Vec<String> = counts.iter().map(|c| format!("{c:>4}")).collect();
        grundy::frontend::outln!("{:>4} {} {v}", counts.iter().sum::<usize>(), cols.join(" "));
    }
}

pub fn bipodes(args: &BipodesArgs, rules: OutputRules) -> Result<()> {
    let output = &args.output;
    reject_stdout_clash(output.report.json, output.out.as_deref())?;
    let plot = output.plot_style.target(output.plot.as_deref(), rules)?;
    let code = parse_code(&args.code, args.misere)?;
    let limits = (args.max, args.middle);
    let table = grundy::bipodes_of(&code, limits, &CliHooks::new(output.report.quiet))?;
    let (rows, seconds) = (table.rows, table.seconds);
    if let Some(path) = &output.out {
        let what = format!(
            "{} of bipodes of {} with a middle chain of {}",
            values_are(&code),
            code.text,
            edges_text(args.middle)
        );
        export::write_table(path, rules, output.format, &what, |w| {
            writeln!(w, "a1,a2,b1,b2,{}", code.convention.value_column())?;
            for ([a1, a2, b1, b2], v) in &rows {
                writeln!(w, "{a1},{a2},{b1},{b2},{v}")?;
            }
            Ok(())
        })?;
    }
    if let Some(target) = &plot {
        let coords: Vec<u32> = rows.iter().flat_map(|(c, _)| c.map(|x| x as u32)).collect();
        let values: Vec<u32> = rows.iter().map(|(_, v)| *v as u32).collect();
        let title = format!(
            "{} of {} on bipodes, middle chain of {}",
            values_are(&code),
            code.text,
            edges_text(args.middle)
        );
        let names = ["a1", "a2", "b1", "b2"];
        plot_table(
            target,
            title,
            &names,
            &coords,
            &values,
            false,
            output.report.quiet,
        )?;
    }
    let shown = report_table("bipodes", &code, rows.len(), table.pieces, seconds, output)?;
    if shown == Shown::Table {
        print_bipodes(&code, args, &rows);
    }
    if shown != Shown::Nothing {
        print_table_summary(rows.len(), table.pieces, seconds, output.out.as_deref());
    }
    Ok(())
}

/// "1 edge", "2 edges".
fn edges_text(count: usize) -> String {
    format!("{count} edge{}", if count == 1 { "" } else { "s" })
}

/// The bipode table as text: blocks (a2, b2), rows a1, columns b1.
fn print_bipodes(code: &GraphCode, args: &BipodesArgs, rows: &[([usize; 4], u8)]) {
    let a = args.max;
    grundy::frontend::outln!(
        "{} of {} bipodes, middle chain of {}: blocks (a2, b2), rows a1, columns b1",
        values_are(code),
        code.text,
        edges_text(args.middle)
    );
    for a2 in 0..=a {
        for b2 in 0..=a {
            grundy::frontend::outln!("a2={a2} b2={b2}");
            for a1 in 0..=a {
                let line: Vec<String> = (0..=a)
                    .map(|b1| {
                        rows[((a1 * (a + 1) + a2) * (a + 1) + b1) * (a + 1) + b2]
                            .1
                            .to_string()
                    })
                    .collect();
                grundy::frontend::outln!("  {a1} | {}", line.join(" "));
            }
        }
    }
}
