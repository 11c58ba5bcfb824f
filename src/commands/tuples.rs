//! `rect` and `delete-nim`: whole tables of games over ranked tuples.

use std::io::Write;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{plot_table, print_json, print_wrote, reject_stdout_clash, shows_text};
use crate::cli::{DeleteNimArgs, RectArgs, TableRunArgs};
use grundy::RanOn;
use grundy::TupleGame;
use grundy::error::Result;
use grundy::frontend::export::{self, OutputRules};
use grundy::game::Convention;
use grundy::game::delete_nim::DeleteNim;
use grundy::tuples::{TupleKernel, TupleRule};

/// What a table is of, as its JSON summary names it.
#[derive(Serialize, Default)]
pub struct TableLabels {
    /// "rect" or "delete-nim".
    pub game: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heaps: Option<usize>,
    /// The sides of a rectangle (2) or box (3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dims: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_diff: Option<u32>,
    /// "normal" (the last player to move wins) or "misere" (loses).
    pub convention: Convention,
}

impl TableLabels {
    /// The game in words, for a table's caption.
    fn describe(&self) -> String {
        match (self.game, self.rule, self.dims) {
            ("rect", _, Some(3)) => "Grundy's game on boxes".into(),
            ("rect", _, _) => "Grundy's game on rectangles".into(),
            (_, Some(rule), _) => {
                format!("Delete Nim, rule {rule}, {} heaps", self.heaps.unwrap_or(2))
            }
            (game, _, _) => game.into(),
        }
    }

    /// What the values are: G, or g⁻ under misère play.
    fn values_are(&self) -> &'static str {
        match self.convention {
            Convention::Normal => "G",
            Convention::Misere => "the misère value g⁻",
        }
    }
}

/// The JSON summary of a rectangle or Delete Nim table.
#[derive(Serialize)]
pub struct TupleSummary {
    #[serde(flatten)]
    pub labels: TableLabels,
    pub max: u32,
    pub positions: u64,
    pub p_positions: u64,
    pub max_value: u32,
    /// The first tuple (in CSV order) with the largest value.
    pub max_value_at: Vec<u32>,
    pub levels: u64,
    /// Options of moves that keep no heap gathered once per split tuple.
    pub split_sets: bool,
    #[serde(flatten)]
    pub ran: RanOn,
    pub seconds: f64,
    /// Misère rectangles: the sums searched whole, counted first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums_searched: Option<usize>,
    pub out: Option<String>,
    pub plot: Option<String>,
}

pub fn rect(args: &RectArgs, rules: OutputRules) -> Result<()> {
    let convention = Convention::misere_if(args.misere);
    let game = TupleGame::rect(args.dims, args.min_diff, args.max)?.convention(convention);
    let header: Vec<&str> = ["a", "b", "c"][..args.dims].to_vec();
    let labels = TableLabels {
        game: "rect",
        dims: Some(args.dims),
        min_diff: Some(args.min_diff),
        convention,
        ..Default::default()
    };
    table(game, &header, (&args.table, rules), labels)
}

pub fn delete_nim(args: &DeleteNimArgs, rules: OutputRules) -> Result<()> {
    let convention = Convention::misere_if(args.misere);
    let game =
        TupleGame::delete_nim(args.rule, args.heaps, args.k, args.max)?.convention(convention);
    let names: Vec<String> = (1..=args.heaps).map(|i| format!("h{i}")).collect();
    let header: Vec<&str> = names.iter().map(String::as_str).collect();
    let nim_game = game.delete_nim_game();
    let labels = TableLabels {
        game: "delete-nim",
        rule: nim_game.map(DeleteNim::name),
        heaps: nim_game.map(|g| g.heaps),
        k: nim_game.and_then(|g| g.k),
        convention,
        ..Default::default()
    };
    table(game, &header, (&args.table, rules), labels)
}

/// Runs `game`, writes its CSV (the stored sizes less its shift) and reports.
fn table(
    game: TupleGame,
    header: &[&str],
    (args, rules): (&TableRunArgs, OutputRules),
    labels: TableLabels,
) -> Result<()> {
    reject_stdout_clash(args.output.report.json, args.output.out.as_deref())?;
    let plot = args
        .output
        .plot_style
        .target(args.output.plot.as_deref(), rules)?;
    let quiet = args.output.report.quiet;
    let run = game.backend(args.backend).run_with(&CliHooks::new(quiet))?;
    let (kern, shift, values) = (run.kernel(), run.shift(), run.values());

    if let Some(path) = &args.output.out {
        let what = format!(
            "{} of {} up to {}",
            labels.values_are(),
            labels.describe(),
            kern.space.max - shift
        );
        export::write_table(path, rules, args.output.format, &what, |w| {
            write_csv(w, kern, values, (header, shift))
        })?;
    }
    if let Some(target) = &plot {
        let mut coords = Vec::new();
        let mut in_order = Vec::new();
        kern.space.for_each_lex(|h| {
            coords.extend(h.iter().map(|x| x - shift));
            in_order.push(values[kern.space.rank(h) as usize]);
        });
        // every game here is symmetric in its heaps (sides): one entry per unordered tuple
        let title = format!(
            "{} up to {}{}",
            table_title(&labels),
            kern.space.max - shift,
            misere_words(labels.convention)
        );
        plot_table(target, title, header, &coords, &in_order, true, quiet)?;
    }
    let (lo, hi) = kern.space.totals();
    // the largest value and the first tuple (in CSV order) that has it
    let max_value = values.iter().copied().max().unwrap_or(0);
    let mut at = Vec::new();
    kern.space.for_each_lex(|h| {
        if at.is_empty() && values[kern.space.rank(h) as usize] == max_value {
            at = h.to_vec();
        }
    });
    let summary = TupleSummary {
        labels,
        max: kern.space.max - shift,
        positions: kern.space.count(),
        p_positions: values.iter().filter(|&&v| v == 0).count() as u64,
        max_value,
        max_value_at: at.iter().map(|x| x - shift).collect(),
        levels: hi - lo + 1,
        split_sets: kern.split_sets.is_some(),
        ran: run.ran_on.clone(),
        seconds: run.seconds,
        sums_searched: run.sums_searched,
        out: args.output.out.as_ref().map(|p| p.display().to_string()),
        plot: args.output.plot.as_ref().map(|p| p.display().to_string()),
    };
    if args.output.report.json {
        return print_json(&summary);
    }
    if shows_text(false, quiet, args.output.out.as_deref()) {
        print_human(kern, values, shift, &summary, args.output.out.is_none());
        print_wrote(args.output.out.as_deref());
    }
    Ok(())
}

fn write_csv(
    w: &mut dyn Write,
    kern: &TupleKernel,
    table: &[u32],
    (header, shift): (&[&str], u32),
) -> std::io::Result<()> {
    let misere = kern.convention == Convention::Misere;
    let outcome = if misere { ",outcome_misere" } else { "" };
    let columns = format!("{}{outcome}", kern.convention.value_column());
    writeln!(w, "{},{columns}", header.join(","))?;
    let mut result = Ok(());
    let mut line = String::new();
    kern.space.for_each_lex(|h| {
        if result.is_err() {
            return;
        }
        line.clear();
        for x in h {
            line.push_str(&(x - shift).to_string());
            line.push(',');
        }
        let g = table[kern.space.rank(h) as usize];
        line.push_str(&g.to_string());
        if misere {
            line.push_str(if g == 0 { ",P" } else { ",N" });
        }
        result = writeln!(w, "{line}");
    });
    result
}

/// The summary, and for two-heap (two-side) tables small enough to read
/// that went to no file, the table itself.
fn print_human(kern: &TupleKernel, values: &[u32], shift: u32, s: &TupleSummary, table: bool) {
    let what = match &kern.rule {
        TupleRule::Rect(r) => format!(
            "Grundy's game on {} with sides up to {} (pieces differ by at least {}){}",
            if r.dims == 2 { "rectangles" } else { "boxes" },
            s.max,
            r.min_diff,
            misere_words(kern.convention)
        ),
        TupleRule::DeleteNim(g) => format!(
            "{} on {} heaps up to {}{}{}",
            g.name(),
            g.heaps,
            s.max,
            g.k.map(|k| format!(" (k = {k})")).unwrap_or_default(),
            misere_words(kern.convention)
        ),
    };
    grundy::frontend::outln!("{what}");
    grundy::frontend::outln!(
        "positions {}  P-positions {}  largest value {} at ({})",
        s.positions,
        s.p_positions,
        s.max_value,
        s.max_value_at
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    let on = s
        .ran
        .adapter
        .as_ref()
        .map(|a| format!(" ({a})"))
        .unwrap_or_default();
    let sums = s
        .sums_searched
        .map(|n| format!(", {n} sums searched whole (counted first)"))
        .unwrap_or_default();
    grundy::frontend::outln!("backend {}{on}{sums}  {:.3} s", s.ran.backend, s.seconds);
    let max = kern.space.max;
    if table && kern.space.heaps == 2 && max - shift <= 40 {
        grundy::frontend::outln!();
        let lo = 1; // stored sizes start at 1
        let label = |x: u32| format!("{:>3}", x - shift);
        let cols: Vec<String> = (lo..=max).map(label).collect();
        grundy::frontend::outln!("    |{}", cols.join(""));
        for a in lo..=max {
            let row: Vec<String> = (lo..=max)
                .map(|b| {
                    let (x, y) = (a.min(b), a.max(b));
                    format!("{:>3}", values[kern.space.rank(&[x, y]) as usize])
                })
                .collect();
            grundy::frontend::outln!("{} |{}", label(a), row.join(""));
        }
    }
}

/// ", misère play" after a title of a misère table.
fn misere_words(convention: Convention) -> &'static str {
    match convention {
        Convention::Normal => "",
        Convention::Misere => ", misère play",
    }
}

/// A picture's title: the game and its rule.
fn table_title(l: &TableLabels) -> String {
    match l.game {
        "rect" => format!(
            "Grundy's game on {} (min-diff {})",
            if l.dims == Some(3) {
                "boxes"
            } else {
                "rectangles"
            },
            l.min_diff.unwrap_or(1)
        ),
        _ => format!(
            "Delete Nim, rule {}, {} heaps{}",
            l.rule.unwrap_or(""),
            l.heaps.unwrap_or(2),
            l.k.map(|k| format!(", k = {k}")).unwrap_or_default()
        ),
    }
}
