//! What each subcommand does: parse its input, run the engine, report.

pub mod edges;
pub mod graph;
pub mod play;
pub mod sequence;
pub mod survey;
pub mod tuples;

use std::io::IsTerminal;
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::cli::{Cli, Command};
use crate::error::{Error, Result};
use crate::game::Code;
use crate::plot::PlotTarget;

pub fn run(cli: Cli) -> Result<()> {
    check_outputs(&outputs_of(&cli.command))?;
    match cli.command {
        Command::Octal(args) => {
            let mut code = Code::parse(&args.code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = args.min_diff {
                code = code.with_min_diff(d);
            }
            sequence::sequence(&code, None, &args.seq)
        }
        Command::Survey(args) => survey::survey(&args),
        Command::Subtraction(args) => {
            let set = parse_set(&args.set)?;
            let code = Code::subtraction(&set).map_err(Error::Input)?;
            sequence::sequence(&code, Some(set), &args.seq)
        }
        Command::Graph(args) => graph::graph(&args),
        Command::Podes(args) => graph::podes(&args),
        Command::Bipodes(args) => graph::bipodes(&args),
        Command::Rect(args) => tuples::rect(&args),
        Command::DeleteNim(args) => tuples::delete_nim(&args),
        Command::Arrows(args) => edges::arrows(&args),
        Command::Cycles(args) => edges::cycles(&args),
        Command::Hackenbush(args) => edges::hackenbush(&args),
        Command::Play(args) => play::play(&args),
        Command::Completions(args) => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            clap_complete::generate(args.shell, &mut cmd, "grundy", &mut std::io::stdout());
            Ok(())
        }
        Command::Bench(args) => crate::bench::run(&args),
    }
}

/// Refuses two things writing to stdout at once.
pub(crate) fn reject_stdout_clash(json: bool, out: Option<&Path>) -> Result<()> {
    if json && out == Some(Path::new("-")) {
        return Err(Error::Input(
            "--json and --out - both write to stdout; give --out a file name".into(),
        ));
    }
    Ok(())
}

/// Every file a command will write, by the flag that names it.
fn outputs_of(command: &Command) -> Vec<(&'static str, Option<&Path>)> {
    match command {
        Command::Octal(a) => sequence_outputs(&a.seq),
        Command::Subtraction(a) => sequence_outputs(&a.seq),
        Command::Survey(a) => vec![("--out", a.out.as_deref()), ("--plot", a.plot.as_deref())],
        Command::Graph(a) => vec![("--out", a.out.as_deref()), ("--plot", a.plot.as_deref())],
        Command::Podes(a) => table_outputs(&a.output),
        Command::Bipodes(a) => table_outputs(&a.output),
        Command::Rect(a) => table_outputs(&a.table.output),
        Command::DeleteNim(a) => table_outputs(&a.table.output),
        Command::Arrows(a) => table_outputs(&a.table.output),
        Command::Bench(a) => vec![("--out", a.out.as_deref())],
        Command::Cycles(_)
        | Command::Hackenbush(_)
        | Command::Play(_)
        | Command::Completions(_) => Vec::new(),
    }
}

/// A table's --out and --plot.
fn table_outputs(t: &crate::cli::TableOutput) -> Vec<(&'static str, Option<&Path>)> {
    vec![("--out", t.out.as_deref()), ("--plot", t.plot.as_deref())]
}

/// A Nim-sequence's outputs, its checkpoint file among them.
fn sequence_outputs(a: &crate::cli::SequenceArgs) -> Vec<(&'static str, Option<&Path>)> {
    let (flag, checkpoint) = a.checkpoint_path().unzip();
    vec![
        ("--out", a.out.as_deref()),
        ("--rare-out", a.rare_out.as_deref()),
        ("--p-out", a.p_out.as_deref()),
        (flag.unwrap_or("--checkpoint"), checkpoint),
        ("--plot", a.plot.as_deref()),
    ]
}

/// Checks the outputs a command was given (flag, path) before any work.
pub(crate) fn check_outputs(outputs: &[(&str, Option<&Path>)]) -> Result<()> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(flag, path)| path.map(|p| (flag, p)))
        .collect();
    crate::export::target::check_outputs(&given)
}

/// Prints one JSON object on stdout.
pub(crate) fn print_json(value: &impl Serialize) -> Result<()> {
    crate::outln!(
        "{}",
        serde_json::to_string(value).map_err(|e| Error::Run(e.to_string()))?
    );
    Ok(())
}

/// Draws a table given as rows (`coords`, `names.len()` per row); a notice
/// (panels left out, cells sampled) goes to stderr.
pub(crate) fn plot_table(
    target: &PlotTarget,
    title: String,
    names: &[&str],
    coords: &[u32],
    values: &[u32],
    symmetric: bool,
    quiet: bool,
) -> Result<()> {
    if let Some(note) = crate::plot::table(target, title, names, coords, values, symmetric)?
        && !quiet
    {
        eprintln!("grundy: {note}");
    }
    Ok(())
}

/// `1,3,4` → [1, 3, 4].
pub fn parse_set(text: &str) -> Result<Vec<u32>> {
    text.split(',')
        .map(|part| {
            part.trim().parse::<u32>().map_err(|_| {
                Error::Input(format!(
                    "bad subtraction set '{text}': '{}' is not a whole number; expected numbers like 1,3,4",
                    part.trim()
                ))
            })
        })
        .collect()
}

/// A progress bar on stderr, hidden with --quiet or when stderr is not a terminal.
/// A counter on stderr for runs whose total is not known in advance (the
/// memo solver meets its pieces as it goes); hidden like `progress_bar`.
pub fn progress_counter(quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} {{spinner}} {{human_pos}} {unit}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

pub fn progress_bar(len: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{rate}}, eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", whole_rate)
        .progress_chars("=> "),
    );
    // Redrawn while a long GPU submission or block runs, not only when it ends.
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// The rate as a whole number per second ("1234/s", not "1234.5678/s").
fn whole_rate(state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{}/s", rate_text(state.per_sec()));
}

fn rate_text(per_second: f64) -> String {
    if per_second.is_finite() {
        format!("{:.0}", per_second.max(0.0))
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_are_whole_numbers() {
        assert_eq!(super::rate_text(1234.5678), "1235");
        assert_eq!(super::rate_text(0.2), "0");
        assert_eq!(super::rate_text(f64::INFINITY), "-");
    }
}
