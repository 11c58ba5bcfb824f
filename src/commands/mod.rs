//! What each subcommand does: parse its input, run the engine, report.

pub mod cli_hooks;
pub mod edges;
pub mod graph;
pub mod graph_batches;
pub mod hunt;
pub mod man;
pub mod misere;
pub mod misere_hunt;
pub mod misere_survey;
pub mod output;
pub mod play;
pub mod progress;
pub mod quotient;
pub mod sequence;
pub mod survey;
pub mod survey_parts;
pub mod tuples;

use std::path::Path;

use crate::cli::{Cli, Command};
use grundy::error::{Error, Result};
use grundy::frontend::export::OutputRules;
use grundy::game::Code;
use output::parse_set;

/// What `GRUNDY_SIMD` and `GRUNDY_GPU_MAX_BINDING` ask of this machine,
/// set for the process before any work; a bad value is refused.
fn machine_from_env() -> Result<()> {
    use grundy::device::{BINDING_VAR, SIMD_VAR, set_from_env_texts};
    let read = |name| std::env::var_os(name).map(|t| t.to_string_lossy().into_owned());
    let (simd, binding) = (read(SIMD_VAR), read(BINDING_VAR));
    set_from_env_texts(simd.as_deref(), binding.as_deref()).map_err(Error::Input)
}

pub fn run(cli: Cli) -> Result<()> {
    progress::set_log_every(log_every(cli.log_every)?);
    let rules = OutputRules {
        force: cli.force,
        create_folders: cli.mkdir,
    };
    machine_from_env()?;
    check_outputs(&outputs_of(&cli.command), rules)?;
    match cli.command {
        Command::Octal(args) => {
            let mut code = Code::parse(&args.code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = args.min_diff {
                code = code.with_min_diff(d);
            }
            sequence::sequence(&code, None, &args.seq, rules)
        }
        Command::Survey(args) => survey::survey(&args, rules),
        Command::Hunt(args) => hunt::hunt(&args, rules),
        Command::Subtraction(args) => {
            let set = parse_set(&args.set)?;
            let code = Code::subtraction(&set).map_err(Error::Input)?;
            sequence::sequence(&code, Some(set), &args.seq, rules)
        }
        Command::Graph(args) => graph::graph(&args, rules),
        Command::Podes(args) => graph::podes(&args, rules),
        Command::Bipodes(args) => graph::bipodes(&args, rules),
        Command::Rect(args) => tuples::rect(&args, rules),
        Command::DeleteNim(args) => tuples::delete_nim(&args, rules),
        Command::Arrows(args) => edges::arrows(&args, rules),
        Command::Cycles(args) => edges::cycles(&args, rules),
        Command::Hackenbush(args) => edges::hackenbush(&args),
        Command::Play(args) => play::play(&args),
        Command::Quotient(args) => quotient::quotient(&args),
        Command::Completions(args) => {
            use clap::CommandFactory;
            let mut cmd = Cli::command();
            clap_complete::generate(args.shell, &mut cmd, "grundy", &mut std::io::stdout());
            Ok(())
        }
        Command::Man(args) => man::man(&args),
        Command::Bench(args) => crate::bench::run(&args),
    }
}

/// `--log-every SECONDS`: 0 turns the log lines off.
fn log_every(seconds: f64) -> Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(seconds).map_err(|_| {
        Error::Input(format!(
            "--log-every {seconds}: expected a number of seconds, 0 or more (0 turns the log \
             lines off)"
        ))
    })
}

/// Every file a command will write, by the flag that names it.
fn outputs_of(command: &Command) -> Vec<(&'static str, Option<&Path>)> {
    match command {
        Command::Octal(a) => sequence_outputs(&a.seq),
        Command::Subtraction(a) => sequence_outputs(&a.seq),
        Command::Survey(a) => match &a.merge {
            Some(crate::cli::SurveyCommand::Merge(m)) => vec![("OUT", Some(m.out.as_path()))],
            None => vec![
                ("--out", a.out.as_deref()),
                ("--plot", a.plot.as_deref()),
                ("--checkpoint", a.checkpoint.as_deref()),
            ],
        },
        Command::Graph(a) => vec![("--out", a.out.as_deref()), ("--plot", a.plot.as_deref())],
        Command::Hunt(a) => vec![("--out", a.out.as_deref())],
        Command::Podes(a) => table_outputs(&a.output),
        Command::Bipodes(a) => table_outputs(&a.output),
        Command::Rect(a) => table_outputs(&a.table.output),
        Command::DeleteNim(a) => table_outputs(&a.table.output),
        Command::Arrows(a) => table_outputs(&a.table.output),
        Command::Bench(a) => vec![("--out", a.out.as_deref())],
        Command::Cycles(a) => vec![("--out", a.out.as_deref())],
        Command::Hackenbush(_)
        | Command::Play(_)
        | Command::Quotient(_)
        | Command::Completions(_) => Vec::new(),
        // Pages go into a folder, each checked as it is written.
        Command::Man(_) => Vec::new(),
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
        ("--stats-out", a.stats_out.as_deref()),
        (flag.unwrap_or("--checkpoint"), checkpoint),
        ("--plot", a.plot.as_deref()),
    ]
}

/// Checks the outputs a command was given (flag, path) before any work.
pub(crate) fn check_outputs(outputs: &[(&str, Option<&Path>)], rules: OutputRules) -> Result<()> {
    let given: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|&(flag, path)| path.map(|p| (flag, p)))
        .collect();
    grundy::frontend::export::target::check_outputs(&given, rules)
}
