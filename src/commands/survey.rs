//! `grundy survey`: many codes to the same N, one row of statistics each.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::{print_json, progress_bar, reject_stdout_clash};
use crate::analysis::period::{Period, PeriodRule};
use crate::cli::SurveyArgs;
use crate::engine::heap_table::HeapTable;
use crate::engine::rare_values::rare_parity;
use crate::engine::sequence::Algorithm;
use crate::engine::sequence::{SequenceRun, rare_code_for};
use crate::engine::{Backend, HeapEngine, memory};
use crate::error::{Error, Result};
use crate::export;
use crate::game::Code;
use crate::gpu::GpuContext;
use crate::gpu::heap::GpuStats;
use crate::gpu::survey::{GpuSurvey, codes_per_batch, workgroup_for};
use crate::kernel::survey::{SurveyKernel, SurveyMode, choose_mode, runs_on_kernel};
use crate::plot::{self, PlotTarget};

/// Heaps of the first round; each further round doubles until a period is
/// certified or N is reached.
const FIRST_ROUND: u64 = 4096;

/// The most digits `--digits` takes (8^6 = 262144 codes).
pub const MAX_DIGITS: u32 = 6;

/// One row of the survey.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SurveyRow {
    pub code: String,
    pub n: u64,
    pub period: Option<u64>,
    pub preperiod: Option<u64>,
    pub certified: bool,
    pub max_value: u16,
    pub first_max_at: u64,
    pub p_positions: u64,
    pub rare_mask: String,
    pub rare_count: u64,
    pub last_rare: Option<u64>,
}

#[derive(Serialize)]
struct SurveySummary {
    codes: usize,
    n: u64,
    periodic: usize,
    certified: usize,
    /// Codes computed by rare values / by the brute force.
    rare: usize,
    brute_force: usize,
    backend: &'static str,
    adapter: Option<String>,
    /// Threads per code on the GPU (null on the CPU).
    workgroup: Option<u32>,
    seconds: f64,
    /// Kernel time from GPU timestamp queries (null on the CPU or without them).
    kernel_seconds: Option<f64>,
    values_per_second: f64,
    out: Option<String>,
    plot: Option<String>,
}

/// Every code `prefix.d1..dK` with digits 0-7, in numeric order.
pub fn all_codes(prefix: &str, digits: u32) -> Vec<String> {
    (0..8u64.pow(digits))
        .map(|i| {
            let mut text = format!("{prefix}.");
            for k in (0..digits).rev() {
                text.push(char::from(b'0' + (i >> (3 * k) & 7) as u8));
            }
            text
        })
        .collect()
}

/// The codes of a file (one per line, `#` comments, blank lines skipped),
/// parsed; a bad line is named by its number.
fn codes_in(path: &Path) -> Result<Vec<Code>> {
    let bad = |why: String| Error::Input(format!("--codes {}: {why}", path.display()));
    let lines = crate::input::read_lines(path, MAX_CODES_BYTES).map_err(bad)?;
    let mut codes = Vec::new();
    for (number, line) in lines {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let code = Code::parse(text).map_err(|e| {
            bad(format!(
                "line {number}: {} is not a code ({e})",
                crate::input::quoted(text)
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

/// Every code's row, codes in parallel on the CPU (rayon); `done` is called
/// as each code finishes.
pub fn survey_rows(
    codes: &[Code],
    n: u64,
    algorithm: Algorithm,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<(SurveyRow, HeapEngine)>> {
    codes
        .par_iter()
        .map(|code| {
            let row = survey_row(code, n, algorithm);
            done();
            row
        })
        .collect()
}

/// After a round to heap `to`: the period when the code is done (a
/// certified period fills the table to `n`; or `to` is `n`), `None` to go on.
fn round_end(table: &mut HeapTable, rule: &PeriodRule, to: u64, n: u64) -> Option<Option<Period>> {
    let period = table.period(rule);
    if let Some(p) = period.filter(|p| p.certified) {
        table.extend_by_period(&p, n);
        return Some(Some(p));
    }
    (to >= n).then_some(period)
}

/// What a code's table after a GPU round to heap `to` says.
enum RoundEnd {
    /// The code is done: its row.
    Done(SurveyRow),
    /// Another round, in this mode (`None`: the same).
    Next(Option<SurveyMode>),
}

/// The host's part of a GPU round for one code: its row when the round
/// ends it, else the mode of its next round (`choose_mode`).
fn after_round(
    code: &Code,
    values: Vec<u16>,
    to: u64,
    n: u64,
    algorithm: Algorithm,
    rare_cap: usize,
) -> RoundEnd {
    let mut table = HeapTable::from_wide(values.clone());
    if let Some(period) = round_end(&mut table, &PeriodRule::for_code(code), to, n) {
        return RoundEnd::Done(row_of(code, n, &table, period));
    }
    if algorithm == Algorithm::Naive {
        return RoundEnd::Next(None);
    }
    let always = algorithm == Algorithm::Rare;
    RoundEnd::Next(Some(choose_mode(code, &values, rare_cap, always)))
}

/// The row of a code whose table holds heaps 0..=n.
fn row_of(code: &Code, n: u64, table: &HeapTable, period: Option<Period>) -> SurveyRow {
    let stats = table.stats();
    let (_, rare) = table.rare_summary(rare_parity(code));
    SurveyRow {
        code: code.name(),
        n,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        max_value: stats.max_value,
        first_max_at: stats.first_max_at,
        p_positions: stats.p_positions,
        rare_mask: rare.rare_mask,
        rare_count: rare.rare_count,
        last_rare: rare.last_rare,
    }
}

/// G(0..=n) of one code on the CPU and its row.
pub fn survey_row(code: &Code, n: u64, algorithm: Algorithm) -> Result<(SurveyRow, HeapEngine)> {
    let mut run = SequenceRun::new(code, algorithm, HeapTable::default())?;
    let rule = PeriodRule::for_code(code);
    // Short tables first: once a period is certified the rest follows from it.
    let mut to = n.min(FIRST_ROUND);
    let period = loop {
        run.extend_on_cpu(to)?;
        if let Some(period) = round_end(&mut run.table, &rule, to, n) {
            break period;
        }
        to = (2 * to).min(n);
    };
    Ok((row_of(code, n, &run.table, period), run.engine))
}

/// Rare list words per code on the GPU: `--algorithm auto` starts rare mode
/// only under one rare heap in 8 (`sparse_enough`), and a code whose list
/// outgrows that during a round goes back to the brute force; `rare` keeps
/// every rare position; `naive` needs no list.
fn rare_cap(algorithm: Algorithm, n: u64) -> usize {
    match algorithm {
        Algorithm::Auto => (n as usize + 1) / 8 + 64,
        Algorithm::Rare => n as usize + 1,
        Algorithm::Naive => 1,
    }
}

/// Every code's row with the codes on the GPU, one workgroup each, in the
/// same rounds as on the CPU (so the rows are the same); codes the kernel
/// does not run (modifiers, tails, three heaps) go to the CPU. The first
/// round is the brute force; after each round the host chooses every
/// code's mode for the next from its table so far (rare values under the
/// best split when they pay, `choose_mode`).
pub fn survey_rows_gpu(
    ctx: &GpuContext,
    codes: &[Code],
    n: u64,
    algorithm: Algorithm,
    workgroup: Option<u32>,
    done: &(dyn Fn() + Sync),
) -> Result<(Vec<(SurveyRow, HeapEngine)>, GpuStats)> {
    let workgroup = workgroup_for(ctx, workgroup).map_err(Error::Input)?;
    if n >= u32::MAX as u64 / 2 {
        return Err(Error::Input(format!(
            "-n {n}: the GPU survey stops at {}; expected a smaller N or --backend cpu",
            u32::MAX / 2 - 1
        )));
    }
    let (gpu, cpu): (Vec<usize>, Vec<usize>) =
        (0..codes.len()).partition(|&i| runs_on_kernel(&codes[i]));
    let mut rows: Vec<Option<(SurveyRow, HeapEngine)>> = vec![None; codes.len()];
    let cpu_rows: Vec<(usize, (SurveyRow, HeapEngine))> = cpu
        .par_iter()
        .map(|&i| {
            let row = survey_row(&codes[i], n, algorithm);
            done();
            row.map(|r| (i, r))
        })
        .collect::<Result<_>>()?;
    for (i, row) in cpu_rows {
        rows[i] = Some(row);
    }
    let mut stats = GpuStats::default();
    let stride = crate::kernel::packed_words(n + 1) as usize;
    let rare_cap = rare_cap(algorithm, n);
    let per_batch = codes_per_batch(ctx, stride.max(rare_cap));
    // each round reads a batch's tables back, and every thread unpacks one
    // code's table at a time
    let threads = rayon::current_num_threads() as u64;
    memory::check_fits(
        &format!("the GPU survey's tables of {} values", n + 1),
        (per_batch.min(gpu.len()) * stride * 4) as u64 + threads * 8 * (n + 1),
    )?;
    for batch in gpu.chunks(per_batch) {
        let batch_codes: Vec<&Code> = batch.iter().map(|&i| &codes[i]).collect();
        let kern = SurveyKernel::new(&batch_codes, n, rare_cap);
        let mut on_gpu = GpuSurvey::new(ctx, &kern, workgroup).map_err(Error::Run)?;
        let mut active = vec![true; batch.len()];
        let mut to = n.min(FIRST_ROUND);
        while active.contains(&true) {
            let targets: Vec<u32> = active
                .iter()
                .map(|&a| if a { to as u32 + 1 } else { 0 })
                .collect();
            on_gpu.run_to(&targets).map_err(Error::Run)?;
            let tables = on_gpu.tables().map_err(Error::Run)?;
            // The codes' tables are independent: the host's part of a round
            // (period checks, mode choices) runs on every core.
            let ends: Vec<(usize, RoundEnd)> = (0..batch.len())
                .into_par_iter()
                .filter(|&k| active[k])
                .map(|k| {
                    let values = kern.values(&tables, k, to as usize + 1);
                    let end = after_round(&codes[batch[k]], values, to, n, algorithm, rare_cap);
                    (k, end)
                })
                .collect();
            for (k, end) in ends {
                match end {
                    RoundEnd::Done(row) => {
                        let engine = if on_gpu.is_rare(k) {
                            HeapEngine::Rare
                        } else {
                            HeapEngine::Blocked
                        };
                        rows[batch[k]] = Some((row, engine));
                        active[k] = false;
                        done();
                    }
                    RoundEnd::Next(Some(mode)) => on_gpu.set_mode(k, &mode),
                    RoundEnd::Next(None) => {}
                }
            }
            to = (2 * to).min(n);
        }
        stats.kernel_seconds += on_gpu.stats.kernel_seconds;
        stats.submissions += on_gpu.stats.submissions;
    }
    Ok((
        rows.into_iter()
            .map(|r| r.expect("every code has a row"))
            .collect(),
        stats,
    ))
}

pub fn survey(args: &SurveyArgs) -> Result<()> {
    reject_stdout_clash(args.json, args.out.as_deref())?;
    let plot = PlotTarget::optional(args.plot.as_deref())?;
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
    if args.n > crate::engine::MAX_HEAP {
        return Err(Error::Input(format!(
            "-n {}: expected at most {}",
            args.n,
            crate::engine::MAX_HEAP
        )));
    }
    for code in &codes {
        if let Some(why) = crate::engine::general::unsupported(code) {
            return Err(Error::Input(why));
        }
    }
    // Each thread holds one table at a time.
    let threads = rayon::current_num_threads() as u64;
    memory::check_fits(
        &format!("{threads} tables of {} values at once", args.n + 1),
        threads.saturating_mul(memory::heap_table_bytes(args.n + 1)),
    )?;

    let quiet = args.quiet;
    let mut notice = |m: &str| {
        if !quiet {
            eprintln!("grundy: {m}");
        }
    };
    // Refuse `--algorithm rare` for a code without rare values before any
    // work, on either backend.
    for code in &codes {
        rare_code_for(code, args.algorithm)?;
    }
    let backend = Backend::open(args.backend, &mut notice)?;
    let start = Instant::now();
    let bar = progress_bar(codes.len() as u64, args.quiet, "codes");
    let workgroup = match &backend {
        Backend::Gpu(ctx) => Some(workgroup_for(ctx, args.workgroup).map_err(Error::Input)?),
        Backend::Cpu => {
            if args.workgroup.is_some() {
                notice("--workgroup sets the GPU's threads per code; the CPU backend ignores it");
            }
            None
        }
    };
    let (rows, gpu) = match &backend {
        Backend::Gpu(ctx) => {
            survey_rows_gpu(ctx, &codes, args.n, args.algorithm, workgroup, &|| {
                bar.inc(1)
            })?
        }
        Backend::Cpu => (
            survey_rows(&codes, args.n, args.algorithm, &|| bar.inc(1))?,
            GpuStats::default(),
        ),
    };
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();

    if let Some(path) = &args.out {
        export::write_to(path, |w| {
            let mut csv = csv::Writer::from_writer(w);
            for (row, _) in &rows {
                csv.serialize(row)?;
            }
            csv.flush()
        })?;
    }
    if let Some(target) = &plot {
        let title = format!("Periods of {} codes to heap {}", rows.len(), args.n);
        plot::chart(target, &period_chart(title, &rows))?;
    }
    let rare = rows.iter().filter(|(_, e)| *e == HeapEngine::Rare).count();
    let summary = SurveySummary {
        codes: rows.len(),
        n: args.n,
        periodic: rows.iter().filter(|(r, _)| r.period.is_some()).count(),
        certified: rows.iter().filter(|(r, _)| r.certified).count(),
        rare,
        brute_force: rows.len() - rare,
        backend: if gpu.submissions > 0 { "gpu" } else { "cpu" },
        adapter: match &backend {
            Backend::Gpu(ctx) => Some(ctx.adapter_name()),
            Backend::Cpu => None,
        },
        workgroup: workgroup.filter(|_| gpu.submissions > 0),
        seconds,
        kernel_seconds: (gpu.kernel_seconds > 0.0).then_some(gpu.kernel_seconds),
        values_per_second: (rows.len() as u64 * (args.n + 1)) as f64 / seconds.max(1e-9),
        out: args.out.as_ref().map(|p| p.display().to_string()),
        plot: args.plot.as_ref().map(|p| p.display().to_string()),
    };
    if args.json {
        print_json(&summary)?;
    } else if args.out.as_deref() != Some(Path::new("-")) {
        crate::outln!(
            "{} codes to heap {} in {:.2} s ({:.0} values/s, {}): {} periodic ({} certified); \
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
        if let Some(out) = &summary.out {
            crate::outln!("wrote {out}");
        }
    }
    Ok(())
}

/// Each code's period on a log scale against its place in the survey:
/// certified periods, apparent ones, and codes with none in the table.
fn period_chart(title: String, rows: &[(SurveyRow, HeapEngine)]) -> plot::Chart {
    let mut series = [
        ("certified period", plot::COMMON),
        ("apparent period (not certified)", plot::RARE),
        ("no period up to n (drawn at 0)", plot::P_POSITION),
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
            None => (2, 0.0),
        };
        top = top.max(y + 0.5);
        series[k].marks.push((i as f64, y, y));
        series[k].count += 1;
    }
    plot::Chart {
        title,
        x_label: "code (in survey order)".into(),
        y_label: "log10 period".into(),
        x_max: rows.len() as f64,
        y_max: top.ceil(),
        mark_width: 1.0,
        shades: Vec::new(),
        series: series.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_codes_counts_in_octal() {
        let codes = all_codes("0", 2);
        assert_eq!(codes.len(), 64);
        assert_eq!(codes[0], "0.00");
        assert_eq!(codes[9], "0.11");
        assert_eq!(codes[63], "0.77");
        assert_eq!(all_codes("4", 1)[7], "4.7");
    }
}
