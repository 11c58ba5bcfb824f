//! `grundy survey`: many codes to the same N, one row of statistics each.

use std::path::Path;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, reject_stdout_clash, shows_text};
use super::survey_parts;
use crate::cli::{SurveyArgs, SurveyCommand};
use crate::plot;
use grundy::engine::survey::checkpoint::list_crc32;
use grundy::engine::survey::{MAX_DIGITS, Shard, SurveyRow, all_codes};
use grundy::engine::{HeapEngine, Ran};
use grundy::error::{Error, Result};
use grundy::export::{self, TableFormat};
use grundy::game::Code;
use grundy::gpu::GpuCounters;
use grundy::{Survey, SurveyRows};

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

/// The codes of a file (one per line, `#` comments, blank lines skipped),
/// parsed; a bad line is named by its number.
pub(crate) fn codes_in(path: &Path) -> Result<Vec<Code>> {
    let bad = |why: String| Error::Input(format!("--codes {}: {why}", path.display()));
    let lines = grundy::input::read_lines(path, MAX_CODES_BYTES).map_err(bad)?;
    let mut codes = Vec::new();
    for (number, line) in lines {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let code = Code::parse(text).map_err(|e| {
            bad(format!(
                "line {number}: {} is not a code ({e})",
                grundy::input::quoted(text)
            ))
        })?;
        codes.push(code);
    }
    if codes.is_empty() {
        return Err(bad(
            "no codes found; expected one code per line, such as 0.07".into(),
        ));
    }
    Ok(codes)
}

/// The largest --codes file read.
const MAX_CODES_BYTES: u64 = 64 << 20;

/// The codes a survey's arguments name (the survey checks them against N
/// before any work).
fn codes_of(args: &SurveyArgs) -> Result<Vec<Code>> {
    let codes: Vec<Code> = match (&args.codes, args.digits) {
        (Some(path), _) => codes_in(path)?,
        (None, Some(k)) if (1..=MAX_DIGITS).contains(&k) => all_codes(&args.prefix, k)
            .iter()
            .map(|t| Code::parse(t).map_err(|e| Error::Input(format!("survey code '{t}': {e}"))))
            .collect::<Result<_>>()?,
        (None, k) => {
            return Err(Error::Input(format!(
                "--digits {}: expected 1 to {MAX_DIGITS} (or --codes FILE)",
                k.unwrap_or(0)
            )));
        }
    };
    Ok(codes)
}

pub fn survey(args: &SurveyArgs) -> Result<()> {
    if let Some(SurveyCommand::Merge(merge)) = &args.merge {
        return survey_parts::merge(merge);
    }
    reject_stdout_clash(args.json, args.out.as_deref())?;
    let plot = args.plot_style.target(args.plot.as_deref())?;
    let list = codes_of(args)?;
    let hooks = CliHooks::new(args.quiet);
    let shard = survey_parts::shard_of(args.shard, &hooks)?;
    let mut survey = Survey::of(list.clone())
        .heaps(args.heaps())
        .algorithm(args.algorithm)
        .backend(args.backend, args.workgroup)
        .output_rules(crate::front::output_rules());
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
        let slice = shard.zip(run.places.as_deref());
        write_rows(path, args, slice, &list, &run.rows)?;
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
    slice: Option<(Shard, &[usize])>,
    list: &[Code],
    rows: &[SurveyRow],
) -> Result<()> {
    let csv = rows_csv(rows)?;
    match slice {
        Some((shard, places)) => {
            let header = part_header(args, shard, list);
            let text = survey_parts::part_text(header, &placed_csv(&csv, places))?;
            export::write_to(path, crate::front::output_rules(), |w| {
                w.write_all(text.as_bytes())
            })
        }
        None => {
            let what = format!("a survey of {} codes to heap {}", list.len(), args.heaps());
            export::write_table(
                path,
                crate::front::output_rules(),
                args.format,
                &what,
                |w| w.write_all(csv.as_bytes()),
            )
        }
    }
}

/// The rows as the survey's CSV text.
fn rows_csv(rows: &[SurveyRow]) -> Result<String> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    for row in rows {
        csv.serialize(row).map_err(|e| Error::Run(e.to_string()))?;
    }
    let bytes = csv.into_inner().map_err(|e| Error::Run(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| Error::Run(e.to_string()))
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

/// What a part records of its survey.
fn part_header(args: &SurveyArgs, shard: Shard, list: &[Code]) -> survey_parts::PartHeader {
    let names: Vec<String> = list.iter().map(|c| c.name()).collect();
    survey_parts::PartHeader {
        format: survey_parts::PART_FORMAT,
        shard: shard.index,
        shards: shard.count,
        list_codes: list.len() as u64,
        list_crc32: list_crc32(names.iter().map(|s| s.as_str())),
        n: args.heaps(),
        algorithm: args.algorithm,
        rows: 0,
        csv_crc32: 0,
    }
}

/// A part's CSV: each row led by its code's place in the whole list.
fn placed_csv(csv: &str, places: &[usize]) -> String {
    let mut lines = csv.lines();
    let mut text = format!("place,{}\n", lines.next().unwrap_or(""));
    for (line, place) in lines.zip(places) {
        text += &format!("{place},{line}\n");
    }
    text
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
    grundy::outln!(
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
