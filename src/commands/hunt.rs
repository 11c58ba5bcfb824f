//! `grundy hunt`: codes pushed as far as a budget allows, resumable from
//! the hunt's folder, sharded as surveys are; a row per code.

use std::path::Path;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, reject_stdout_clash, shows_text};
use super::survey_parts::shard_of;
use crate::cli::HuntArgs;
use grundy::error::{Error, Result};
use grundy::frontend::export::OutputRules;
use grundy::frontend::setting::{Setting, seconds};
use grundy::frontend::{export, interrupt};
use grundy::game::Code;
use grundy::{Hunt, HuntEnd, HuntRow, Kept, Survey, UNSOLVED};

/// The JSON summary: the hunt's settings and its rows.
#[derive(Serialize)]
struct HuntSummary<'a> {
    budget_seconds: f64,
    dir: String,
    shard: Option<String>,
    rows: &'a [HuntRow],
}

pub fn hunt(args: &HuntArgs, rules: OutputRules) -> Result<()> {
    reject_stdout_clash(args.json, args.out.as_deref())?;
    let budget = seconds(Setting::Budget, args.budget).map_err(Error::Input)?;
    if args.misere {
        return super::misere_hunt::misere_hunt(args, codes_of(args)?, rules);
    }
    let hooks = CliHooks::new(args.quiet);
    let list = codes_of(args)?;
    let shard = shard_of(args.shard, &hooks)?;
    let codes = match shard {
        Some(shard) => grundy::hunt::shard_codes(&list, shard, &hooks)?,
        None => list,
    };
    let hunt = Hunt::of(&args.dir, budget)
        .start(args.start)
        .max_n(args.max_n)
        .backend(args.backend)
        .algorithm(args.algorithm)
        .keep(
            Some(Kept {
                prefix: args.keep_prefix,
                window: args.keep_window,
            }),
            args.keep_past,
        );
    let rows = {
        let _listening = interrupt::Listening::start();
        run_all(&hunt, &codes, &hooks, args.quiet)?
    };
    if let Some(path) = &args.out {
        write_rows(path, &rows, rules)?;
    }
    if args.json {
        print_json(&HuntSummary {
            budget_seconds: args.budget,
            dir: args.dir.display().to_string(),
            shard: shard.map(|s| s.to_string()),
            rows: &rows,
        })?;
    } else if shows_text(false, args.quiet, args.out.as_deref()) {
        print_wrote(args.out.as_deref());
    }
    match rows.iter().any(|row| row.end == HuntEnd::Stopped) {
        true => Err(Error::Interrupted {
            message: format!(
                "interrupted by {}: the hunt saved each code's checkpoint and row; run it again \
                 to go on from {}",
                interrupt::received_name(),
                args.dir.display()
            ),
            status: interrupt::exit_status(),
        }),
        false => Ok(()),
    }
}

/// The codes named, then --codes FILE's, then the unsolved list's, each once.
pub(super) fn codes_of(args: &HuntArgs) -> Result<Vec<Code>> {
    let mut texts: Vec<Code> = Vec::new();
    for text in &args.codes {
        texts.push(Code::parse(text).map_err(|e| Error::Input(format!("code '{text}': {e}")))?);
    }
    if let Some(path) = &args.codes_file {
        texts.extend(Survey::codes_in(path)?.code_list().iter().cloned());
    }
    if args.unsolved {
        texts.extend(
            UNSOLVED
                .iter()
                .map(|t| Code::parse(t).expect("the list parses")),
        );
    }
    let mut seen = std::collections::HashSet::new();
    texts.retain(|code| seen.insert(code.name()));
    if texts.is_empty() {
        return Err(Error::Input(
            "no codes to hunt; expected codes (such as 0.6), --codes FILE or --unsolved".into(),
        ));
    }
    Ok(texts)
}

/// Hunts each code in turn, printing its row as it ends.
fn run_all(hunt: &Hunt, codes: &[Code], hooks: &CliHooks, quiet: bool) -> Result<Vec<HuntRow>> {
    if !quiet {
        grundy::frontend::outln!("{}", row_line(None));
    }
    hunt.run_codes(codes, hooks, &mut |row| {
        if !quiet {
            grundy::frontend::outln!("{}", row_line(Some(row)));
        }
    })
}

/// A row of the printed table (its header for `None`).
fn row_line(row: Option<&HuntRow>) -> String {
    let Some(r) = row else {
        return format!(
            "{:<8} {:>10} {:<7} {:>5} {:>10} {:>9} {:>7} {:>10} {:>14} {:>8}",
            "code", "n", "end", "max", "first at", "mask", "rare", "last rare", "period", "seconds"
        );
    };
    let last = r.at.last_rare.map_or("-".into(), |h| h.to_string());
    let period = match (r.period, r.preperiod) {
        (Some(p), Some(from)) => format!("{p}@{from}{}", if r.certified { "" } else { "?" }),
        _ => "-".into(),
    };
    let end = r.end.as_str();
    format!(
        "{:<8} {:>10} {:<7} {:>5} {:>10} {:>9} {:>7} {:>10} {:>14} {:>8.1}",
        r.code,
        r.at.n,
        end,
        r.at.max_value,
        r.at.first_max_at,
        r.at.rare_mask,
        r.at.rare_count,
        last,
        period,
        r.seconds
    )
}

/// The rows' CSV (frequencies apart: they are in each code's NAME.freq).
fn write_rows(path: &Path, rows: &[HuntRow], rules: OutputRules) -> Result<()> {
    #[derive(Serialize)]
    struct CsvRow<'a> {
        code: &'a str,
        n: u64,
        end: HuntEnd,
        engine: &'a str,
        max_value: u16,
        first_max_at: u64,
        p_positions: u64,
        rare_mask: &'a str,
        rare_count: u64,
        last_rare: Option<u64>,
        period: Option<u64>,
        preperiod: Option<u64>,
        certified: bool,
        seconds: f64,
        resumed_heaps: u64,
    }
    export::write_to(path, rules, |w| {
        let mut csv = csv::Writer::from_writer(w);
        for r in rows {
            csv.serialize(CsvRow {
                code: &r.code,
                n: r.at.n,
                end: r.end,
                engine: &r.engine,
                max_value: r.at.max_value,
                first_max_at: r.at.first_max_at,
                p_positions: r.at.p_positions,
                rare_mask: &r.at.rare_mask,
                rare_count: r.at.rare_count,
                last_rare: r.at.last_rare,
                period: r.period,
                preperiod: r.preperiod,
                certified: r.certified,
                seconds: (r.seconds * 1000.0).round() / 1000.0,
                resumed_heaps: r.resumed_heaps,
            })?;
        }
        csv.flush()
    })
}
