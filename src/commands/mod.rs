//! What each subcommand does: parse its input, run the engine, report.

pub mod edges;
pub mod graph;
pub mod tuples;

use std::io::IsTerminal;
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::analysis::period::{Period, PeriodRule, find_period};
use crate::analysis::stats::{HeapStats, heap_stats};
use crate::cli::{Cli, Command, SequenceArgs};
use crate::engine::{Backend, HeapEngine, extend_heap_table};
use crate::error::{Error, Result};
use crate::export::{self, nim_digit};
use crate::game::Code;
use crate::gpu::heap::GpuTuning;

pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Octal(args) => {
            let mut code = Code::parse(&args.code).map_err(|e| Error::Input(e.to_string()))?;
            if let Some(d) = args.min_diff {
                code = code.with_min_diff(d);
            }
            sequence(&code, None, &args.seq)
        }
        Command::Subtraction(args) => {
            let set = parse_set(&args.set)?;
            let code = Code::subtraction(&set).map_err(Error::Input)?;
            sequence(&code, Some(set), &args.seq)
        }
        Command::Graph(args) => graph::graph(&args),
        Command::Podes(args) => graph::podes(&args),
        Command::Bipodes(args) => graph::bipodes(&args),
        Command::Rect(args) => tuples::rect(&args),
        Command::DeleteNim(args) => tuples::delete_nim(&args),
        Command::Arrows(args) => edges::arrows(&args),
        Command::Cycles(args) => edges::cycles(&args),
        Command::Hackenbush(args) => edges::hackenbush(&args),
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

/// Prints one JSON object on stdout.
pub(crate) fn print_json(value: &impl Serialize) -> Result<()> {
    println!(
        "{}",
        serde_json::to_string(value).map_err(|e| Error::Run(e.to_string()))?
    );
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

/// The JSON summary of a Nim-sequence run.
#[derive(Serialize)]
pub struct SequenceSummary {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtraction_set: Option<Vec<u32>>,
    pub min_diff: u32,
    pub n: u64,
    pub backend: &'static str,
    pub adapter: Option<String>,
    pub engine: HeapEngine,
    #[serde(flatten)]
    pub stats: HeapStats,
    pub period: Option<u64>,
    pub preperiod: Option<u64>,
    pub certified: bool,
    /// Values the theorem needs to certify the period found (null: none found).
    pub values_needed: Option<u64>,
    pub seconds: f64,
    /// Kernel time from GPU timestamp queries (null on the CPU or without them).
    pub kernel_seconds: Option<f64>,
    pub out: Option<String>,
}

/// A progress bar on stderr, hidden with --quiet or when stderr is not a terminal.
pub fn progress_bar(len: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

fn sequence(code: &Code, set: Option<Vec<u32>>, args: &SequenceArgs) -> Result<()> {
    reject_stdout_clash(args.json, args.out.as_deref())?;
    if let Some(why) = crate::cpu::general::unsupported(code) {
        return Err(Error::Input(why));
    }
    let quiet = args.quiet;
    let mut notice = |m: &str| {
        if !quiet {
            eprintln!("grundy: {m}");
        }
    };
    let backend = Backend::open(args.backend, &mut notice)?;
    let rule = PeriodRule::for_code(code);
    let target = if args.until_periodic {
        args.n.unwrap_or(1024).min(args.max_n)
    } else {
        args.n.unwrap_or(0)
    };

    let mut table = Vec::new();
    let mut to = target;
    let mut seconds = 0.0;
    let mut kernel = 0.0;
    let (engine, ran_on, period) = loop {
        let bar = progress_bar(to + 1, quiet, "heaps");
        bar.set_position(table.len() as u64);
        let run = extend_heap_table(
            code,
            std::mem::take(&mut table),
            to,
            &backend,
            &GpuTuning::default(),
            &mut notice,
            &|done| bar.set_position(done),
        )?;
        bar.finish_and_clear();
        seconds += run.seconds;
        kernel += run.gpu.kernel_seconds;
        table = run.table;
        let period = find_period(&table, &rule);
        if !args.until_periodic || period.is_some() || to >= args.max_n {
            if args.until_periodic && period.is_none() {
                notice(&format!(
                    "no period found up to heap {to} (the cap --max-n {})",
                    args.max_n
                ));
            }
            break (run.engine, run.backend, period);
        }
        to = to.saturating_mul(2).max(64).min(args.max_n);
    };
    let n = table.len() as u64 - 1;

    if let Some(path) = &args.out {
        export::write_to(path, |w| export::write_heap_table(w, &table, args.format))?;
    }
    let summary = SequenceSummary {
        code: code.text.clone(),
        subtraction_set: set,
        min_diff: code.min_diff,
        n,
        backend: ran_on,
        adapter: if ran_on == "gpu" {
            backend.adapter()
        } else {
            None
        },
        engine,
        stats: heap_stats(&table),
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        values_needed: period.map(|p| rule.values_needed(p.period, p.preperiod)),
        seconds,
        kernel_seconds: (kernel > 0.0).then_some(kernel),
        out: args.out.as_ref().map(|p| p.display().to_string()),
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&summary).map_err(|e| Error::Run(e.to_string()))?
        );
    } else if args.out.as_deref() != Some(Path::new("-")) {
        print_summary(&summary, period, &table);
    }
    Ok(())
}

fn print_summary(s: &SequenceSummary, period: Option<Period>, g: &[u16]) {
    let shown = g.len().min(100);
    let digits: String = g[..shown].iter().map(|&v| nim_digit(v)).collect();
    let more = if g.len() > shown { "…" } else { "" };
    println!(
        "code        {}{}",
        s.code,
        if s.min_diff > 0 {
            format!(" (min-diff {})", s.min_diff)
        } else {
            String::new()
        }
    );
    println!("heaps       0..={}", s.n);
    let backend = match &s.adapter {
        Some(a) => format!("{} ({a})", s.backend),
        None => s.backend.to_string(),
    };
    println!("backend     {backend}, {:.3} s", s.seconds);
    println!("G(0..)      {digits}{more}");
    println!(
        "max value   {} (first at heap {}); {} P-positions",
        s.stats.max_value, s.stats.first_max_at, s.stats.p_positions
    );
    match period {
        Some(p) => println!(
            "period      {} from heap {} ({})",
            p.period,
            p.preperiod,
            if p.certified {
                "certified"
            } else {
                "apparent: the periodicity theorem does not cover this code"
            }
        ),
        None => println!("period      none found up to heap {}", s.n),
    }
    if let Some(out) = &s.out {
        println!("wrote       {out}");
    }
}
