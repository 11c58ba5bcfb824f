//! `grundy octal` and `grundy subtraction`: one Nim-sequence, written as it
//! is computed, checkpointed and resumable, summarised for a researcher.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, reject_stdout_clash, shows_text};
use crate::cli::SequenceArgs;
use crate::plot::{self, PlotTarget};
use grundy::Algorithm;
use grundy::analysis::milestones::{Milestone, StatsAt};
use grundy::analysis::period::Period;
use grundy::analysis::rare_split::{RareSplit, RareSummary};
use grundy::analysis::stats::HeapStats;
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, Format, OutputRules};
use grundy::frontend::setting::{Setting, seconds};
use grundy::game::Code;
use grundy::sequence::{Filled, PassAhead, Stretches, Tuning};
use grundy::{HeapEngine, RanOn};
use grundy::{Sequence, SequenceTable};

/// The JSON summary of a Nim-sequence run.
#[derive(Serialize)]
pub struct SequenceSummary {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtraction_set: Option<Vec<u32>>,
    pub min_diff: u32,
    pub n: u64,
    #[serde(flatten)]
    pub ran: RanOn,
    /// The algorithm asked for, and the engine that computed the last values.
    pub algorithm: Algorithm,
    pub engine: HeapEngine,
    /// Bytes per value the table held in memory.
    pub bytes_per_value: u64,
    /// The SIMD path of the rare values' wide steps (`GRUNDY_SIMD`).
    pub simd: grundy::device::Simd,
    #[serde(flatten)]
    pub stats: HeapStats,
    /// The best rare/common split of the whole table (`5`, or `5p0` for the
    /// position-parity variant), its rare positions' count and the last one.
    #[serde(flatten)]
    pub rare: RareSummary,
    pub period: Option<u64>,
    pub preperiod: Option<u64>,
    pub certified: bool,
    /// Values the theorem needs to certify the period found (null: none found).
    pub values_needed: Option<u64>,
    /// The first heap whose value was filled from the certified period
    /// instead of computed (null: every value computed).
    pub filled_from: Option<u64>,
    /// The prefix and the window a run kept (--keep-prefix, --keep-window;
    /// null: the whole table).
    pub kept: Option<grundy::Kept>,
    /// Heaps loaded from --resume (0 for a fresh run), and the file.
    pub resumed_heaps: u64,
    pub resumed_from: Option<String>,
    /// Checkpoints saved, and the seconds they took (apart from `seconds`,
    /// the computing).
    pub checkpoint_saves: u64,
    pub checkpoint_seconds: f64,
    /// How the rare values' blocks went (null for the other engines): the
    /// pass's heaps, those whose pass started ahead, the blocks in flight
    /// at most, the in-order finish's time and its waits on the pass.
    pub rare_blocks: Option<grundy::sequence::RareBlocks>,
    pub seconds: f64,
    pub out: Option<String>,
    pub rare_out: Option<String>,
    pub p_out: Option<String>,
    pub checkpoint: Option<String>,
    pub plot: Option<String>,
    /// The statistics at each --stats-at heap (absent: none asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub milestones: Option<Vec<Milestone>>,
    /// Seconds the milestones took (reading the table, writing --stats-out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub milestone_seconds: Option<f64>,
    pub stats_out: Option<String>,
}

/// How a run spreads its work, as `GRUNDY_PASS_AHEAD` and
/// `GRUNDY_STRETCHES` force it (`1` always, `0` never, `idle` stretches
/// once a block's pass is done; unset: the default), and
/// `GRUNDY_STRETCH_RUNS` the runs a stretch (a count from 2 to 16). A
/// value the variable does not take is an input error naming it.
fn tuning_from_env() -> Result<Tuning> {
    let mut tuning = Tuning::default();
    if let Some(value) = env_value("GRUNDY_PASS_AHEAD")? {
        tuning.pass_ahead = match value.as_str() {
            "1" => PassAhead::Always,
            "0" => PassAhead::Never,
            _ => return Err(bad_env("GRUNDY_PASS_AHEAD", &value, "1 or 0")),
        };
    }
    if let Some(value) = env_value("GRUNDY_STRETCHES")? {
        tuning.stretches = match value.as_str() {
            "1" => Stretches::Always,
            "0" => Stretches::Never,
            "idle" => Stretches::WhenIdle,
            _ => return Err(bad_env("GRUNDY_STRETCHES", &value, "1, 0 or idle")),
        };
    }
    if let Some(value) = env_value("GRUNDY_STRETCH_RUNS")? {
        let runs = value.parse().ok().filter(|runs| (2..=16).contains(runs));
        let runs =
            runs.ok_or_else(|| bad_env("GRUNDY_STRETCH_RUNS", &value, "a count from 2 to 16"))?;
        tuning.stretch_runs = Some(runs);
    }
    Ok(tuning)
}

/// The value of environment variable `name` (none: unset or empty).
fn env_value(name: &str) -> Result<Option<String>> {
    match std::env::var(name) {
        Ok(value) if value.is_empty() => Ok(None),
        Ok(value) => Ok(Some(value)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(bad_env(name, "(not text)", "text")),
    }
}

/// The input error for environment variable `name` set to `value`.
fn bad_env(name: &str, value: &str, takes: &str) -> Error {
    Error::Input(format!("{name}={value}: expected {takes}"))
}

/// The library's sequence the arguments ask for: how far, how, and where
/// the table, its checkpoint and its file go.
fn builder_of(code: &Code, args: &SequenceArgs, rules: OutputRules) -> Result<Sequence> {
    reject_stdout_clash(args.report.json, args.out.as_deref())?;
    let every = seconds(Setting::CheckpointEvery, args.checkpoint_every).map_err(Error::Input)?;
    let n = match (args.n, args.until_periodic) {
        (Some(n), _) => n,
        (None, true) => 1024.min(args.max_n),
        (None, false) => 0,
    };
    let mut sequence = Sequence::of(code.clone())
        .heaps(n)
        .algorithm(args.algorithm)
        .backend(args.backend)
        .fill(!args.no_fill)
        .folder(table_folder(args))
        .tuning(tuning_from_env()?)
        .output_rules(rules);
    if args.until_periodic {
        sequence = sequence.until_periodic(args.max_n);
    }
    if let Some((_, path)) = args.checkpoint_path() {
        sequence = sequence.checkpoint(path, every);
    }
    if let Some(path) = &args.resume {
        sequence = sequence.resume(path);
    }
    if let Some(bytes) = args.memory {
        sequence = sequence.memory(bytes);
    }
    if let Some(grundy::Kept { prefix, window }) = args.kept() {
        if args.format == Format::Npy {
            return Err(Error::Input(format!(
                "--format npy with --keep-prefix: NumPy's header is written from the whole \
                 table at the end; expected a format that streams ({})",
                "csv, raw, bfile, digits, latex or cgsuite"
            )));
        }
        let at = args.stats_at.as_ref().map_or(Vec::new(), |at| at.heaps(n));
        sequence = sequence.keep(prefix, window).stats_at(&at);
    }
    match &args.out {
        // NumPy's header names the dtype, so the table is written at the end.
        Some(path) if args.format != Format::Npy => Ok(sequence.stream_to(path, args.format)),
        _ => Ok(sequence),
    }
}

/// The folder a table kept in a file goes to: the checkpoint's, else the
/// output's (when it is a file to be: not stdout, a device or a FIFO), else
/// the current one.
fn table_folder(args: &SequenceArgs) -> PathBuf {
    let a_file = |out: &Path| {
        !export::is_stdout(out) && std::fs::metadata(out).map_or(true, |m| m.is_file())
    };
    let beside = |path: &Path| match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match (args.checkpoint_path(), &args.out) {
        (Some((_, path)), _) => beside(path),
        (None, Some(out)) if a_file(out) => beside(out),
        _ => PathBuf::from("."),
    }
}

pub fn sequence(
    code: &Code,
    set: Option<Vec<u32>>,
    args: &SequenceArgs,
    rules: OutputRules,
) -> Result<()> {
    if args.misere {
        return super::misere::misere_sequence(code, set, args, rules);
    }
    let builder = builder_of(code, args, rules)?;
    let plot = args.plot_style.target(args.plot.as_deref(), rules)?;
    let hooks = CliHooks::new(args.report.quiet);
    let table = builder.run_with(&hooks)?;
    let (split, rare) = table.rare();
    // A run that kept only a prefix and a window has no whole sequence:
    // its flags that need one were refused before it started.
    if table.kept().is_none() {
        let sequence = table.filled();
        if let (Some(path), Format::Npy) = (&args.out, args.format) {
            write_npy(path, &sequence, rules)?;
        }
        write_side_outputs(args, &sequence, split, rules)?;
        if let Some(target) = &plot {
            plot_sequence(target, code, &sequence, split, table.period())?;
        }
    }
    let started = std::time::Instant::now();
    let milestones = milestones_of(code, args, &table, rules)?;
    let milestone_seconds = milestones.as_ref().map(|_| started.elapsed().as_secs_f64());
    let mut summary = summarise(set, args, &table, rare);
    summary.milestones = milestones;
    summary.milestone_seconds = milestone_seconds;
    if args.report.json {
        print_json(&summary)?;
    } else if shows_text(false, args.report.quiet, args.out.as_deref()) {
        print_summary(&summary, &table);
    }
    Ok(())
}

/// `--format npy`: uint8 values, or uint16 when one passes 255.
fn write_npy(path: &Path, sequence: &Filled, rules: OutputRules) -> Result<()> {
    let wide = sequence.has_wide_values();
    export::write_to(path, rules, |w| {
        let values = |a: usize, b: usize| sequence.values(a as u64, b as u64);
        grundy::frontend::export::npy::write(w, sequence.len() as usize, wide, values)
    })
}

/// The statistics at --stats-at's heaps (pow2 when only --stats-out is
/// given), written to --stats-out.
fn milestones_of(
    code: &Code,
    args: &SequenceArgs,
    table: &SequenceTable,
    rules: OutputRules,
) -> Result<Option<Vec<Milestone>>> {
    let at = match (&args.stats_at, &args.stats_out) {
        (Some(at), _) => at.clone(),
        (None, Some(_)) => StatsAt::PowersOfTwo,
        (None, None) => return Ok(None),
    };
    let milestones = table.milestones(&at.heaps(table.len() - 1));
    if let Some(path) = &args.stats_out {
        export::write_to(path, rules, |w| {
            grundy::analysis::milestones::write_frequencies(w, &code.text, &milestones)
        })?;
    }
    Ok(Some(milestones))
}

/// --rare-out (the rare heaps under `split`, heap 0 included when rare) and
/// --p-out.
fn write_side_outputs(
    args: &SequenceArgs,
    sequence: &Filled,
    split: RareSplit,
    rules: OutputRules,
) -> Result<()> {
    if let Some(path) = &args.rare_out {
        export::write_to(path, rules, |w| {
            writeln!(w, "n,g")?;
            let rare = |n, v| split.is_rare(n, v);
            sequence.for_each_where(rare, |n, v| writeln!(w, "{n},{v}"))
        })?;
    }
    if let Some(path) = &args.p_out {
        export::write_to(path, rules, |w| {
            writeln!(w, "n")?;
            sequence.for_each_where(|_, v| v == 0, |n, _| writeln!(w, "{n}"))
        })?;
    }
    Ok(())
}

fn summarise(
    set: Option<Vec<u32>>,
    args: &SequenceArgs,
    table: &SequenceTable,
    rare: RareSummary,
) -> SequenceSummary {
    let code = table.code();
    let period = table.period();
    let saves = table.saves();
    let shown = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    SequenceSummary {
        code: code.text.clone(),
        subtraction_set: set,
        min_diff: code.min_diff,
        n: table.len() - 1,
        ran: table.ran_on().clone(),
        algorithm: args.algorithm,
        engine: table.engine(),
        bytes_per_value: table.bytes_per_value(),
        simd: grundy::device::simd(),
        stats: table.stats(),
        rare,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        values_needed: period.map(|p| table.values_needed(&p)),
        filled_from: table.filled_from(),
        kept: table.kept(),
        resumed_heaps: saves.resumed_heaps,
        resumed_from: shown(&args.resume),
        checkpoint_saves: saves.count,
        checkpoint_seconds: saves.seconds,
        rare_blocks: table.rare_blocks(),
        seconds: table.seconds(),
        out: shown(&args.out),
        rare_out: shown(&args.rare_out),
        p_out: shown(&args.p_out),
        checkpoint: saves.checkpoint.as_ref().map(|p| p.display().to_string()),
        plot: shown(&args.plot),
        milestones: None,
        milestone_seconds: None,
        stats_out: shown(&args.stats_out),
    }
}

fn print_summary(s: &SequenceSummary, table: &SequenceTable) {
    let first = table.values(0, table.len().min(100));
    let period = table.period();
    let summary = grundy::Summary {
        code: &s.code,
        min_diff: s.min_diff,
        n: s.n,
        ran: &s.ran,
        engine: s.engine,
        seconds: s.seconds,
        first: &first,
        more: table.len() > 100,
        stats: &s.stats,
        rare: &s.rare,
        period,
    };
    for line in summary.lines() {
        grundy::frontend::outln!("{line}");
    }
    for line in grundy::summary::milestone_lines(s.milestones.as_deref().unwrap_or_default()) {
        grundy::frontend::outln!("{line}");
    }
    print_outputs(s);
}

/// The summary's last lines: values taken from a checkpoint or filled from
/// the period, files written.
fn print_outputs(s: &SequenceSummary) {
    match (&s.resumed_from, s.resumed_heaps) {
        (Some(file), k) if k > s.n => {
            grundy::frontend::outln!(
                "resumed     every heap from {file}; none computed in this run"
            )
        }
        (Some(file), k @ 1..) => grundy::frontend::outln!(
            "resumed     heaps 0..={} from {file}; heaps {k}..={} computed in this run",
            k - 1,
            s.n
        ),
        _ => {}
    }
    if let Some(kept) = s.kept {
        grundy::frontend::outln!(
            "kept        heaps 0..{} and the last {} (--keep-prefix, --keep-window); the \
             statistics cover every heap",
            kept.prefix,
            kept.window
        );
    }
    if let Some(from) = s.filled_from {
        grundy::frontend::outln!(
            "filled      heaps {from}..={} from the certified period (--no-fill computes them)",
            s.n
        );
    }
    for (what, path) in [
        ("rare heaps", &s.rare_out),
        ("P-positions", &s.p_out),
        ("checkpoint", &s.checkpoint),
        ("frequencies", &s.stats_out),
        ("picture", &s.plot),
    ] {
        if let Some(p) = path {
            grundy::frontend::outln!("{what:<11} {p}");
        }
    }
    print_wrote(s.out.as_deref().map(Path::new));
}

/// Value against heap, rare values and P-positions marked, the period shaded.
fn plot_sequence(
    target: &PlotTarget,
    code: &Code,
    table: &Filled,
    split: RareSplit,
    period: Option<Period>,
) -> Result<()> {
    let n = table.len().saturating_sub(1);
    let class = |h: u64, v: u32| match v {
        0 => 2,
        _ if split.is_rare(h, v) => 1,
        _ => 0,
    };
    let rare = format!("rare values (mask {})", split.label());
    let chart = plot::sequence_chart(
        format!("{}: G(n) for n = 0..{n}", code.text),
        table.len() as usize,
        &|h| table.get(h as u64) as u32,
        &class,
        ["common values", &rare, "P-positions"],
        period.map(|p| (p.period, p.preperiod, p.certified)),
    );
    plot::chart(target, &chart)
}
