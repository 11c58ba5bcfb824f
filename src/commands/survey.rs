//! `grundy survey`: many codes to the same N, one row of statistics each.

use grundy::setting::Marked;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, reject_stdout_clash, shows_text};
use super::survey_parts;
use crate::cli::{SurveyArgs, SurveyCommand};
use crate::plot;
use grundy::engine::survey::checkpoint::{SurveyKey, list_crc32};
use grundy::engine::survey::driver::{SurveyDriver, SurveyJob};
use grundy::engine::survey::{
    MAX_DIGITS, PROBE_HEAPS, Shard, SurveyRow, all_codes, balanced_shards, estimated_costs,
};
use grundy::engine::{Backend, GpuFrom, HeapEngine, Ran};
use grundy::error::{Error, Result};
use grundy::export::{self, TableFormat};
use grundy::game::Code;
use grundy::gpu::GpuCounters;
use grundy::hooks::RunHooks;

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

/// The codes a survey's arguments name, checked before any work.
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
    SurveyJob {
        codes: &codes,
        n: args.heaps(),
        algorithm: args.algorithm,
        workgroup: args.workgroup,
    }
    .check("-n")?;
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
    let n = args.heaps();
    let places = match shard {
        Some(s) => Some(shard_places(args, s, &list, &hooks)?),
        None => None,
    };
    let sliced: Option<Vec<Code>> = places
        .as_ref()
        .map(|p| p.iter().map(|&i| list[i].clone()).collect());
    let codes: &[Code] = sliced.as_deref().unwrap_or(&list);
    let names: Vec<String> = codes.iter().map(|c| c.name()).collect();
    let key = survey_key(args, shard, &list);
    let files = (args.checkpoint_path(), args.resume.as_deref());
    let driver = SurveyDriver::open(&key, &names, files, crate::front::output_rules())?;
    if driver.resumed() > 0 {
        hooks.notice(Marked(&format!(
            "{} of {} codes resumed from {}",
            driver.resumed(),
            codes.len(),
            args.resume.as_deref().unwrap_or(Path::new("")).display()
        )));
    }
    let values = (codes.len() as u64).saturating_mul(n.saturating_add(1));
    let backend = Backend::open_for(args.backend, values, GpuFrom::SURVEY_VALUES, &hooks)?;
    if args.workgroup.is_some() && matches!(backend, Backend::Cpu) {
        hooks.notice(Marked(
            "--workgroup sets the GPU's threads per code; the CPU backend ignores it",
        ));
    }
    let start = Instant::now();
    let resumed = driver.resumed();
    let job = SurveyJob {
        codes,
        n,
        algorithm: args.algorithm,
        workgroup: args.workgroup,
    };
    let run = driver.run(&job, &backend, &hooks)?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &args.out {
        let slice = shard.zip(places.as_deref());
        write_rows(path, args, slice, &list, &run.rows)?;
    }
    if let Some(target) = &plot {
        let title = format!("Periods of {} codes to heap {n}", run.rows.len());
        plot::chart(target, &period_chart(title, &run.rows))?;
    }
    let mut summary = summarise(args, &run, &backend, seconds);
    summary.shard = shard.map(|s| s.to_string());
    summary.resumed_codes = resumed;
    // This run's rate: the resumed codes took none of its time.
    summary.values_per_second *= (codes.len() - resumed) as f64 / codes.len().max(1) as f64;
    print_summary(args, &summary)
}

/// --out: the rows as CSV (or LaTeX), or a shard's part.
fn write_rows(
    path: &Path,
    args: &SurveyArgs,
    slice: Option<(Shard, &[usize])>,
    list: &[Code],
    rows: &[(SurveyRow, HeapEngine)],
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

/// What a checkpoint records of its survey.
fn survey_key(args: &SurveyArgs, shard: Option<Shard>, list: &[Code]) -> SurveyKey {
    SurveyKey::of(
        list,
        args.heaps(),
        args.algorithm,
        shard.map(|s| s.to_string()),
    )
}

/// The rows as the survey's CSV text.
fn rows_csv(rows: &[(SurveyRow, HeapEngine)]) -> Result<String> {
    let mut csv = csv::Writer::from_writer(Vec::new());
    for (row, _) in rows {
        csv.serialize(row).map_err(|e| Error::Run(e.to_string()))?;
    }
    let bytes = csv.into_inner().map_err(|e| Error::Run(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| Error::Run(e.to_string()))
}

/// The places in the list of one shard's codes, dealt by their estimated
/// cost; a sharded run needs a file for its part, and a slice to run.
fn shard_places(
    args: &SurveyArgs,
    shard: Shard,
    list: &[Code],
    hooks: &CliHooks,
) -> Result<Vec<usize>> {
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
    if shard.count as usize > list.len() {
        return Err(Error::Input(format!(
            "--shard {shard}: the survey has {} codes; expected at most that many shards",
            list.len()
        )));
    }
    let start = Instant::now();
    let costs = estimated_costs(list, args.heaps(), args.algorithm)?;
    hooks.notice(Marked(&format!(
        "{} codes dealt over {} shards by their cost estimated from {} heaps each ({:.1} s)",
        list.len(),
        shard.count,
        args.heaps().min(PROBE_HEAPS),
        start.elapsed().as_secs_f64()
    )));
    Ok(shard.places(&balanced_shards(&costs, shard.count)))
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

fn summarise(
    args: &SurveyArgs,
    run: &grundy::engine::survey::SurveyRun,
    backend: &Backend,
    seconds: f64,
) -> SurveySummary {
    let rows = &run.rows;
    let rare = rows.iter().filter(|(_, e)| *e == HeapEngine::Rare).count();
    let gpu = backend.gpu_counters().filter(|_| run.ran == Ran::Gpu);
    SurveySummary {
        codes: rows.len(),
        n: args.heaps(),
        periodic: rows.iter().filter(|(r, _)| r.period.is_some()).count(),
        certified: rows.iter().filter(|(r, _)| r.certified).count(),
        rare,
        brute_force: rows.len() - rare,
        backend: run.ran,
        adapter: backend.adapter(),
        gpu,
        workgroup: run.workgroup,
        seconds,
        kernel_seconds: gpu.map(|g| g.kernel_seconds).filter(|&k| k > 0.0),
        values_per_second: (rows.len() as u64 * (args.heaps() + 1)) as f64 / seconds.max(1e-9),
        out: args.out.as_ref().map(|p| p.display().to_string()),
        plot: args.plot.as_ref().map(|p| p.display().to_string()),
        shard: None,
        resumed_codes: 0,
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
fn period_chart(title: String, rows: &[(SurveyRow, HeapEngine)]) -> plot::Chart {
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
    for (i, (row, _)) in rows.iter().enumerate() {
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
        x_names: rows.iter().map(|(r, _)| r.code.clone()).collect(),
        below_zero: Some("none".into()),
    }
}
