//! `grundy survey`: many codes to the same N, one row of statistics each.

use std::path::Path;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, reject_stdout_clash, shows_text};
use super::survey_parts;
use crate::cli::{SurveyArgs, SurveyCommand};
use crate::plot;
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, OutputRules, TableFormat};
use grundy::survey::Shard;
use grundy::{GpuCounters, HeapEngine, Ran, Survey, SurveyRow, SurveyRows};

#[derive(Serialize)]
struct SurveySummary {
    codes: usize,
    n: u64,
    periodic: usize,
    certified: usize,
    /// Codes computed by rare values / by the brute force.
    rare: usize,
    brute_force: usize,
    backend: Ran,
    adapter: Option<String>,
    /// What the run asked of the GPU (null on the CPU).
    gpu: Option<GpuCounters>,
    /// Threads per code on the GPU (null on the CPU).
    workgroup: Option<u32>,
    seconds: f64,
    /// Kernel time from GPU timestamp queries (null on the CPU or without them).
    kernel_seconds: Option<f64>,
    values_per_second: f64,
    out: Option<String>,
    plot: Option<String>,
    /// The slice run, K/N (null for the whole list).
    shard: Option<String>,
    /// Codes whose rows came from --resume (not computed by this run).
    resumed_codes: usize,
}

/// The survey a survey's arguments name (the survey checks its codes
/// against N before any work).
fn survey_of(args: &SurveyArgs) -> Result<Survey> {
    match (&args.codes, args.digits) {
        (Some(path), _) => Survey::codes_in(path),
        (None, k) => Survey::all(&args.prefix, k.unwrap_or(0)),
    }
}

pub fn survey(args: &SurveyArgs, rules: OutputRules) -> Result<()> {
    if let Some(SurveyCommand::Merge(merge)) = &args.merge {
        return survey_parts::merge(merge, rules);
    }
    if args.misere {
        reject_stdout_clash(args.json, args.out.as_deref())?;
        let codes = survey_of(args)?.code_list().to_vec();
        return super::misere_survey::misere_survey(args, codes, rules);
    }
    reject_stdout_clash(args.json, args.out.as_deref())?;
    let plot = args.plot_style.target(args.plot.as_deref(), rules)?;
    let hooks = CliHooks::new(args.quiet);
    let shard = survey_parts::shard_of(args.shard, &hooks)?;
    let mut survey = survey_of(args)?
        .heaps(args.heaps())
        .algorithm(args.algorithm)
        .backend(args.backend, args.workgroup)
        .output_rules(rules);
    if let Some(shard) = shard {
        check_part(args, shard)?;
        survey = survey.shard(shard);
    }
    if let Some(path) = &args.checkpoint {
        survey = survey.checkpoint(path);
    }
    if let Some(path) = &args.resume {
        survey = survey.resume(path);
    }
    let run = survey.run_with(&hooks)?;
    if let Some(path) = &args.out {
        write_rows(path, args, (&survey, &run), rules)?;
    }
    if let Some(target) = &plot {
        let title = format!(
            "Periods of {} codes to heap {}",
            run.rows.len(),
            args.heaps()
        );
        plot::chart(target, &period_chart(title, &run.rows))?;
    }
    let mut summary = summarise(args, &run);
    summary.shard = shard.map(|s| s.to_string());
    print_summary(args, &summary)
}

/// --out: the rows as CSV (or LaTeX), or a shard's part.
fn write_rows(
    path: &Path,
    args: &SurveyArgs,
    (survey, run): (&Survey, &SurveyRows),
    rules: OutputRules,
) -> Result<()> {
    if run.places.is_some() {
        let text = survey.part(run)?;
        return export::write_to(path, rules, |w| w.write_all(text.as_bytes()));
    }
    let csv = run.csv()?;
    let codes = survey.code_list().len();
    let what = format!("a survey of {codes} codes to heap {}", args.heaps());
    export::write_table(path, rules, args.format, &what, |w| {
        w.write_all(csv.as_bytes())
    })
}

/// A sharded run needs a file for its part, in CSV.
fn check_part(args: &SurveyArgs, shard: Shard) -> Result<()> {
    if args.out.is_none() {
        return Err(Error::Input(format!(
            "--shard {shard}: a shard's rows are a part for `survey merge`; expected --out PART"
        )));
    }
    if args.format != TableFormat::Csv {
        return Err(Error::Input(format!(
            "--shard {shard} --format latex: a part is CSV, for `survey merge`; expected \
             `survey merge --format latex OUT PART...` for a LaTeX table"
        )));
    }
    Ok(())
}

fn summarise(args: &SurveyArgs, run: &SurveyRows) -> SurveySummary {
    let rows = &run.rows;
    let rare = run
        .engines
        .iter()
        .filter(|&&e| e == HeapEngine::Rare)
        .count();
    let computed = rows.len() - run.resumed;
    // This run's rate: the resumed codes took none of its time.
    let values = computed as u64 * (args.heaps() + 1);
    SurveySummary {
        codes: rows.len(),
        n: args.heaps(),
        periodic: rows.iter().filter(|r| r.period.is_some()).count(),
        certified: rows.iter().filter(|r| r.certified).count(),
        rare,
        brute_force: rows.len() - rare,
        backend: run.ran,
        adapter: run.adapter.clone(),
        gpu: run.gpu,
        workgroup: run.workgroup,
        seconds: run.seconds,
        kernel_seconds: run.gpu.map(|g| g.kernel_seconds).filter(|&k| k > 0.0),
        values_per_second: values as f64 / run.seconds.max(1e-9),
        out: args.out.as_ref().map(|p| p.display().to_string()),
        plot: args.plot.as_ref().map(|p| p.display().to_string()),
        shard: None,
        resumed_codes: run.resumed,
    }
}

fn print_summary(args: &SurveyArgs, summary: &SurveySummary) -> Result<()> {
    if args.json {
        return print_json(summary);
    }
    if !shows_text(false, args.quiet, args.out.as_deref()) {
        return Ok(());
    }
    let shard = summary
        .shard
        .as_ref()
        .map_or(String::new(), |s| format!("shard {s}: "));
    grundy::frontend::outln!(
        "{shard}{} codes to heap {} in {:.2} s ({:.0} values/s, {}): {} periodic ({} certified); \
         {} by rare values, {} by brute force",
        summary.codes,
        summary.n,
        summary.seconds,
        summary.values_per_second,
        summary.adapter.as_deref().unwrap_or("CPU"),
        summary.periodic,
        summary.certified,
        summary.rare,
        summary.brute_force
    );
    print_wrote(args.out.as_deref());
    Ok(())
}

/// Each code's period on a log scale against the code (named on the axis):
/// certified periods, apparent ones, and codes with none in the table on
/// a row of their own below period 1.
fn period_chart(title: String, rows: &[SurveyRow]) -> plot::Chart {
    let mut series = [
        ("certified period", plot::COMMON),
        ("apparent period (not certified)", plot::RARE),
        ("no period up to n", plot::P_POSITION),
    ]
    .map(|(label, color)| plot::Series {
        label: label.into(),
        color,
        marks: Vec::new(),
        count: 0,
    });
    let mut top = 1.0f64;
    for (i, row) in rows.iter().enumerate() {
        let (k, y) = match row.period {
            Some(p) if row.certified => (0, (p as f64).log10()),
            Some(p) => (1, (p as f64).log10()),
            None => (2, -1.0),
        };
        top = top.max(y + 0.5);
        series[k].marks.push((i as f64, y, y));
        series[k].count += 1;
    }
    plot::Chart {
        title,
        x_label: "code".into(),
        y_label: "log10 period".into(),
        x_max: rows.len() as f64,
        y_max: top.ceil(),
        mark_width: 1.0,
        shades: Vec::new(),
        series: series.into(),
        x_names: rows.iter().map(|r| r.code.clone()).collect(),
        below_zero: Some("none".into()),
    }
}
