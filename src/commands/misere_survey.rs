//! `grundy survey --misere`: every code's misère quotient as far as a
//! budget takes it, solved or not, and the genus period of the codes that
//! never split (`grundy::misere_survey`).

use std::io::Write;
use std::time::Instant;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::print_summary;
use crate::cli::SurveyArgs;
use grundy::error::Result;
use grundy::frontend::export::{self, OutputRules};
use grundy::game::Code;
use grundy::misere_survey::{MisereSurvey, MisereSurveyRow};

/// The JSON summary: the settings and every row.
#[derive(Serialize)]
struct Summary<'a> {
    convention: &'static str,
    codes: usize,
    max_heap: u16,
    seconds_per_code: f64,
    genus_heaps: u64,
    /// Codes whose quotient the periodicity theorem solved.
    solved: usize,
    seconds: f64,
    rows: &'a [MisereSurveyRow],
}

pub fn misere_survey(args: &SurveyArgs, codes: Vec<Code>, rules: OutputRules) -> Result<()> {
    let started = Instant::now();
    let survey = MisereSurvey::of(codes)
        .max_heap(args.max_heap)
        .seconds(args.seconds)
        .genus_heaps(args.heaps());
    let hooks = CliHooks::new(args.quiet);
    let rows = survey.run_with(&hooks)?;
    if let Some(path) = &args.out {
        export::write_to(path, rules, |w| write_csv(w, &rows))?;
    }
    let summary = Summary {
        convention: "misere",
        codes: rows.len(),
        max_heap: args.max_heap,
        seconds_per_code: args.seconds,
        genus_heaps: args.heaps(),
        solved: rows.iter().filter(|r| r.solved.is_some()).count(),
        seconds: started.elapsed().as_secs_f64(),
        rows: &rows,
    };
    print_summary(&summary, table, args.json, args.quiet, args.out.as_deref())
}

/// `code,splits,heaps,order,growth,solved_period,solved_start,checked_to,
/// stopped,genus_period,genus_preperiod,seconds`.
fn write_csv(w: &mut dyn Write, rows: &[MisereSurveyRow]) -> std::io::Result<()> {
    writeln!(
        w,
        "code,splits,heaps,order,growth,solved_period,solved_start,checked_to,stopped,\
         genus_period,genus_preperiod,seconds"
    )?;
    let or_empty = |x: Option<u64>| x.map_or(String::new(), |v| v.to_string());
    for r in rows {
        let solved = r.solved;
        writeln!(
            w,
            "{},{},{},{},{},{},{},{},{},{},{},{:.3}",
            r.code,
            r.splits,
            r.heaps,
            r.order,
            r.growth,
            or_empty(solved.map(|s| s.period.into())),
            or_empty(solved.map(|s| s.start.into())),
            or_empty(solved.map(|s| s.checked_to.into())),
            r.stopped,
            or_empty(r.genus_period.map(|p| p.period)),
            or_empty(r.genus_period.map(|p| p.start)),
            r.seconds
        )?;
    }
    Ok(())
}

/// The rows as a text table, then a line of totals.
fn table(s: &Summary) -> String {
    let mut text = format!(
        "{:<8} {:>6} {:>5} {:>6}  {:<26} {:<14} {}\n",
        "code", "splits", "heaps", "order", "quotient", "genus period", "grew at (heap:order)"
    );
    for r in s.rows {
        let quotient = match (r.solved, r.stopped.as_str()) {
            (Some(p), _) => format!("solved: period {} from {}", p.period, p.start),
            (None, "") => format!("to heap {}", r.heaps),
            (None, why) => format!("stopped ({why})"),
        };
        let genus = match (r.genus_period, r.splits) {
            (Some(p), _) => format!("{} from {}", p.period, p.start),
            (None, true) => "(splits)".to_string(),
            (None, false) => "none shown".to_string(),
        };
        text += &format!(
            "{:<8} {:>6} {:>5} {:>6}  {:<26} {:<14} {}\n",
            r.code,
            if r.splits { "yes" } else { "no" },
            r.heaps,
            r.order,
            quotient,
            genus,
            r.growth
        );
    }
    text += &format!(
        "{} codes, {} solved, quotients to heap {} at most, {} s a code; {:.1} s\n",
        s.codes, s.solved, s.max_heap, s.seconds_per_code, s.seconds
    );
    text
}
