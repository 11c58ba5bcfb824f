//! `grundy hunt --misere`: codes' misère quotients pushed as far as a
//! budget allows, resumable from the hunt's folder
//! (`grundy::misere_hunt`); a row per code.

use std::io::Write;
use std::time::Instant;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::print_summary;
use crate::cli::HuntArgs;
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, OutputRules};
use grundy::frontend::interrupt;
use grundy::game::Code;
use grundy::misere_hunt::{MisereHunt, MisereHuntRow};

/// The JSON summary: the settings and every row.
#[derive(Serialize)]
struct Summary<'a> {
    convention: &'static str,
    budget_seconds: f64,
    max_heap: u16,
    dir: String,
    /// Codes whose quotient the periodicity theorem solved.
    solved: usize,
    seconds: f64,
    rows: &'a [MisereHuntRow],
}

pub fn misere_hunt(args: &HuntArgs, codes: Vec<Code>, rules: OutputRules) -> Result<()> {
    let started = Instant::now();
    let hunt = MisereHunt::of(codes, &args.dir, args.budget).max_heap(args.max_heap);
    let hooks = CliHooks::new(args.quiet);
    let found = {
        let _listening = interrupt::Listening::start();
        hunt.run_with(&hooks)
    };
    let rows = match found {
        Err(Error::Stopped(why)) if interrupt::requested() => {
            return Err(Error::Interrupted {
                message: format!(
                    "interrupted by {} ({why}): run the hunt again to go on from {}",
                    interrupt::received_name(),
                    args.dir.display()
                ),
                status: interrupt::exit_status(),
            });
        }
        other => other?,
    };
    if let Some(path) = &args.out {
        export::write_to(path, rules, |w| write_csv(w, &rows))?;
    }
    let summary = Summary {
        convention: "misere",
        budget_seconds: args.budget,
        max_heap: args.max_heap,
        dir: args.dir.display().to_string(),
        solved: rows.iter().filter(|r| r.solved.is_some()).count(),
        seconds: started.elapsed().as_secs_f64(),
        rows: &rows,
    };
    print_summary(&summary, table, args.json, args.quiet, args.out.as_deref())
}

/// `code,heaps,order,growth,solved_period,solved_start,checked_to,end,
/// seconds,resumed_from`.
fn write_csv(w: &mut dyn Write, rows: &[MisereHuntRow]) -> std::io::Result<()> {
    writeln!(
        w,
        "code,heaps,order,growth,solved_period,solved_start,checked_to,end,seconds,resumed_from"
    )?;
    let or_empty = |x: Option<u16>| x.map_or(String::new(), |v| v.to_string());
    for r in rows {
        let solved = r.solved;
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{:.3},{}",
            r.code,
            r.heaps,
            r.order,
            r.growth,
            or_empty(solved.map(|s| s.period)),
            or_empty(solved.map(|s| s.start)),
            or_empty(solved.map(|s| s.checked_to)),
            r.end,
            r.seconds,
            r.resumed_from
        )?;
    }
    Ok(())
}

/// The rows as a text table, then a line of totals.
fn table(s: &Summary) -> String {
    let mut text = format!(
        "{:<8} {:>5} {:>6}  {:<26} {:>9} {:>8}  {}\n",
        "code", "heaps", "order", "end", "seconds", "from", "grew at (heap:order)"
    );
    for r in s.rows {
        let end = match r.solved {
            Some(p) => format!("solved: period {} from {}", p.period, p.start),
            None => r.end.clone(),
        };
        text += &format!(
            "{:<8} {:>5} {:>6}  {:<26} {:>9.1} {:>8}  {}\n",
            r.code, r.heaps, r.order, end, r.seconds, r.resumed_from, r.growth
        );
    }
    text += &format!(
        "{} codes, {} solved, budget {} s a code over every hunt in {}; {:.1} s\n",
        s.rows.len(),
        s.solved,
        s.budget_seconds,
        s.dir,
        s.seconds
    );
    text
}
