//! `grundy octal` and `grundy subtraction`: one Nim-sequence, written as it
//! is computed, checkpointed and resumable, summarised for a researcher.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{print_json, progress_bar, reject_stdout_clash};
use crate::analysis::period::{Period, PeriodRule};
use crate::analysis::rare::{RareSplit, RareSummary};
use crate::analysis::stats::HeapStats;
use crate::cli::SequenceArgs;
use crate::engine::heap_table::HeapTable;
use crate::engine::sequence::{Algorithm, SequenceRun};
use crate::engine::{Backend, HeapEngine, checkpoint};
use crate::error::{Error, Result};
use crate::export::{self, SequenceWriter, nim_digit};
use crate::game::Code;
use crate::gpu::heap::GpuTuning;
use crate::plot::{self, PlotTarget};

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
    /// The algorithm asked for, and the engine that computed the last values.
    pub algorithm: Algorithm,
    pub engine: HeapEngine,
    /// Bytes per value the table held in memory.
    pub bytes_per_value: u64,
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
    /// Heaps loaded from --resume (0 for a fresh run).
    pub resumed_heaps: u64,
    pub seconds: f64,
    /// Kernel time from GPU timestamp queries (null on the CPU or without them).
    pub kernel_seconds: Option<f64>,
    pub out: Option<String>,
    pub rare_out: Option<String>,
    pub p_out: Option<String>,
    pub checkpoint: Option<String>,
    pub plot: Option<String>,
}

/// Set by Ctrl-C when a checkpoint file is given.
fn interrupt_flag(enabled: bool) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    if enabled {
        let f = flag.clone();
        // A second handler cannot be set (tests run commands in one
        // process): Ctrl-C then ends the run without a last checkpoint.
        let _ = ctrlc::set_handler(move || f.store(true, Ordering::SeqCst));
    }
    flag
}

pub fn sequence(code: &Code, set: Option<Vec<u32>>, args: &SequenceArgs) -> Result<()> {
    reject_stdout_clash(args.json, args.out.as_deref())?;
    if let Some(why) = crate::cpu::general::unsupported(code) {
        return Err(Error::Input(why));
    }
    if !(args.checkpoint_every > 0.0 && args.checkpoint_every.is_finite()) {
        return Err(Error::Input(format!(
            "--checkpoint-every {}: expected a positive number of seconds",
            args.checkpoint_every
        )));
    }
    let plot = PlotTarget::optional(args.plot.as_deref())?;
    let quiet = args.quiet;
    let mut notice = |m: &str| {
        if !quiet {
            eprintln!("grundy: {m}");
        }
    };
    let table = match &args.resume {
        Some(path) => checkpoint::load(path, code)?,
        None => HeapTable::default(),
    };
    let resumed_heaps = table.len() as u64;
    let mut run = SequenceRun::new(code, args.algorithm, table)?;
    let backend = Backend::open(args.backend, &mut notice)?;
    let rule = PeriodRule::for_code(code);
    let target = if args.until_periodic {
        args.n.unwrap_or(1024).min(args.max_n)
    } else {
        args.n.unwrap_or(0)
    };
    let ck_path: Option<PathBuf> = args.checkpoint.clone().or_else(|| args.resume.clone());
    let interrupted = interrupt_flag(ck_path.is_some());
    let every = Duration::from_secs_f64(args.checkpoint_every);
    let last_save = Cell::new(Instant::now());
    let stop = || {
        interrupted.load(Ordering::SeqCst)
            || (ck_path.is_some() && last_save.get().elapsed() >= every)
    };

    let mut writer = match &args.out {
        Some(path) => Some(SequenceWriter::create(
            path,
            args.format,
            &code.text,
            code.min_diff,
            target + 1,
        )?),
        None => None,
    };
    let mut to = target;
    let period = loop {
        let bar = progress_bar(to + 1, quiet, "heaps");
        bar.set_position(run.table.len() as u64);
        let done = run.extend(
            to,
            &backend,
            &GpuTuning::default(),
            &mut notice,
            &|done| bar.set_position(done),
            &stop,
        )?;
        bar.finish_and_clear();
        if let Some(w) = &mut writer {
            run.table.append_to(w)?;
        }
        if let Some(path) = &ck_path
            && (!done || last_save.get().elapsed() >= every)
        {
            checkpoint::save(path, code, &run.table)?;
            last_save.set(Instant::now());
        }
        if interrupted.load(Ordering::SeqCst) {
            let path = ck_path.as_ref().expect("a checkpoint path").display();
            return Err(Error::Interrupted(format!(
                "interrupted: {path} holds heaps 0..{}; continue with --resume {path}",
                run.table.len()
            )));
        }
        if !done {
            continue;
        }
        let period = run.table.period(&rule);
        if !args.until_periodic || period.is_some() || to >= args.max_n {
            if args.until_periodic && period.is_none() {
                notice(&format!(
                    "no period found up to heap {to} (the cap --max-n {})",
                    args.max_n
                ));
            }
            break period;
        }
        to = to.saturating_mul(2).max(64).min(args.max_n);
    };
    if let Some(path) = &ck_path {
        checkpoint::save(path, code, &run.table)?;
    }
    if let Some(w) = writer {
        w.finish()?;
    }
    let n = run.table.len() as u64 - 1;
    let (split, rare) = run.table.rare_summary(run.parity());
    if let Some(path) = &args.rare_out {
        let rare_heaps = run.table.rare_positions(split);
        export::write_to(path, |w| {
            writeln!(w, "n,g")?;
            for &h in &rare_heaps {
                writeln!(w, "{h},{}", run.table.get(h as usize))?;
            }
            Ok(())
        })?;
    }
    if let Some(path) = &args.p_out {
        let table = &run.table;
        export::write_to(path, |w| {
            writeln!(w, "n")?;
            for h in (0..table.len()).filter(|&h| table.get(h) == 0) {
                writeln!(w, "{h}")?;
            }
            Ok(())
        })?;
    }
    if let Some(target) = &plot {
        plot_sequence(target, code, &run.table, split, period)?;
    }
    let shown = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let summary = SequenceSummary {
        code: code.text.clone(),
        subtraction_set: set,
        min_diff: code.min_diff,
        n,
        backend: run.ran_on,
        adapter: if run.ran_on == "gpu" {
            backend.adapter()
        } else {
            None
        },
        algorithm: args.algorithm,
        engine: run.engine,
        bytes_per_value: run.table.bytes_per_value(),
        stats: run.table.stats(),
        rare,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        values_needed: period.map(|p| rule.values_needed(p.period, p.preperiod)),
        resumed_heaps,
        seconds: run.seconds,
        kernel_seconds: (run.gpu.kernel_seconds > 0.0).then_some(run.gpu.kernel_seconds),
        out: shown(&args.out),
        rare_out: shown(&args.rare_out),
        p_out: shown(&args.p_out),
        checkpoint: shown(&ck_path),
        plot: shown(&args.plot),
    };
    if args.json {
        print_json(&summary)?;
    } else if args.out.as_deref() != Some(Path::new("-")) {
        print_summary(&summary, period, &run.table);
    }
    Ok(())
}

fn print_summary(s: &SequenceSummary, period: Option<Period>, g: &HeapTable) {
    let shown = g.len().min(100);
    let digits: String = (0..shown).map(|n| nim_digit(g.get(n))).collect();
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
    let engine = match s.engine {
        HeapEngine::Rare => "rare values",
        HeapEngine::Blocked => "blocked brute force",
        HeapEngine::General => "general engine",
    };
    println!("backend     {backend}, {engine}, {:.3} s", s.seconds);
    println!("G(0..)      {digits}{more}");
    println!(
        "max value   {} (first at heap {}); {} P-positions",
        s.stats.max_value, s.stats.first_max_at, s.stats.p_positions
    );
    let listed: Vec<String> = s
        .stats
        .first_p_positions
        .iter()
        .take(20)
        .map(|h| h.to_string())
        .collect();
    let more_p = if s.stats.p_positions > listed.len() as u64 {
        ", …"
    } else {
        ""
    };
    println!("P-positions {}{more_p}", listed.join(", "));
    let firsts: Vec<String> = s
        .stats
        .first_heap_with_value
        .iter()
        .enumerate()
        .take(16)
        .map(|(v, h)| match h {
            Some(h) => format!("{v}@{h}"),
            None => format!("{v}@-"),
        })
        .collect();
    println!("first heap  {}", firsts.join(" "));
    println!(
        "rare        mask {}: {} rare heaps{}",
        s.rare.rare_mask,
        s.rare.rare_count,
        s.rare
            .last_rare
            .map_or(String::new(), |h| format!(", the last at {h}"))
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
    for (what, path) in [
        ("wrote", &s.out),
        ("rare heaps", &s.rare_out),
        ("P-positions", &s.p_out),
        ("checkpoint", &s.checkpoint),
        ("picture", &s.plot),
    ] {
        if let Some(p) = path {
            println!("{what:<11} {p}");
        }
    }
}

/// Value against heap, rare values and P-positions marked, the period shaded.
fn plot_sequence(
    target: &PlotTarget,
    code: &Code,
    table: &HeapTable,
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
        table.len(),
        &|h| table.get(h) as u32,
        &class,
        ["common values", &rare, "P-positions"],
        period.map(|p| (p.period, p.preperiod, p.certified)),
    );
    plot::chart(target, &chart)
}
