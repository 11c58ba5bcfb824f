//! `grundy octal CODE --misere` and `grundy subtraction SET --misere`: each
//! heap's misère nim value, outcome and genus (`grundy::analysis::genus`):
//! in linear time for codes whose moves never split a heap, by search over
//! whole sums for the others, as far as the sums fit.

use std::io::Write;

use serde::Serialize;

use super::cli_hooks::CliHooks;
use super::output::{print_json, print_wrote, shows_text};
use crate::cli::SequenceArgs;
use grundy::Algorithm;
use grundy::analysis::genus::{GENUS_DEPTH, Genus, GenusRef};
use grundy::analysis::genus_stream::GenusPeriod;
use grundy::analysis::whole_sum::POSITION_BYTES;
use grundy::error::{Error, Result};
use grundy::frontend::export::{self, Format, OutputRules};
use grundy::game::Code;
use grundy::misere::{MisereEnd, MisereMethod, MisereSequence, SumsNeeded};
use grundy::{RanOn, memory};

/// The JSON summary of a misère run.
#[derive(Serialize)]
pub struct MisereSummary {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtraction_set: Option<Vec<u32>>,
    pub n: u64,
    /// "misere": the last player to move loses.
    pub convention: &'static str,
    /// Where the rows were computed ("gpu" only for method "blocked"), the
    /// adapter and what the run asked of it.
    #[serde(flatten)]
    pub ran: RanOn,
    /// The superscripts computed for each heap's genus (γ0 … γK).
    pub genus_depth: usize,
    /// Heaps with misère nim value 0 (the player to move loses), and the first of them.
    pub p_positions: u64,
    pub first_p_positions: Vec<u64>,
    /// The genus of the last heap in the table, as the literature writes it.
    pub last_genus: String,
    /// The last heap in the table: N, or less where a code's sums did not fit.
    pub last_heap: u64,
    /// "linear" (a code that never splits: each heap from the smaller
    /// heaps, one after another), "blocked" (one that also takes without
    /// bound: blocks of heaps, on the card or its CPU twin) or "sums" (a
    /// code that splits: by search over whole sums).
    pub method: MisereMethod,
    /// The period of the truncated genus (γ0 … γK with the normal values),
    /// certified: a window of heaps as long as the largest removal repeats
    /// (method "linear", where it shows within the table).
    pub period: Option<GenusPeriod>,
    /// Sums the search remembered (method "sums").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums: Option<usize>,
    /// The first heap whose sums did not fit (method "sums").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at: Option<u64>,
    /// The sums the search could meet, at most, counted before it started
    /// (method "sums"; null: too many to count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums_bound: Option<Option<u128>>,
    /// The last heap certain to fit in the memory budget (method "sums").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sums_certain_to: Option<Option<u64>>,
    pub seconds: f64,
    pub out: Option<String>,
}

/// Refuses what a misère run does not do (yet): the flags of the normal
/// engines. Those that clap refuses (`--until-periodic`, checkpoints, the
/// side outputs, kept tables) never reach here.
fn refuse_unsupported(args: &SequenceArgs) -> Result<()> {
    let refuse = |what: &str, expected: &str| {
        Err(Error::Input(format!(
            "--misere with {what}: misère tables are written as CSV and valued apart from \
             the normal engines; expected {expected}"
        )))
    };
    if args.format != Format::Csv {
        return refuse("--format other than csv", "--format csv (the default)");
    }
    if args.algorithm == Algorithm::Rare {
        return refuse("--algorithm rare", "--algorithm auto");
    }
    Ok(())
}

/// Computes and writes the misère table of `code` (a subtraction game's
/// `set` when it is one), as `args` say.
pub fn misere_sequence(
    code: &Code,
    set: Option<Vec<u32>>,
    args: &SequenceArgs,
    rules: OutputRules,
) -> Result<()> {
    refuse_unsupported(args)?;
    let n = args.n.expect("clap asks for -n without --until-periodic");
    let sequence = MisereSequence::of(code.clone())
        .heaps(n)
        .backend(args.backend);
    let started = std::time::Instant::now();
    let mut rows = Rows::default();
    let mut summary = MisereSummary::new(code, set, n, args);
    if let Some(needed) = sequence.sums_needed() {
        if !args.report.quiet {
            say_sums_needed(code, n, &needed);
        }
        summary.sums_bound = Some(needed.at_most);
        summary.sums_certain_to = Some(needed.certain_to);
    }
    let hooks = CliHooks::new(args.report.quiet);
    let mut rows_of = sequence.rows(&hooks)?;
    let mut each = |w: &mut dyn Write| -> std::io::Result<()> {
        while let Some(row) = rows_of.next_row().map_err(std::io::Error::other)? {
            rows.add(row.heap, row.normal, row.gammas);
            write_row(w, row.heap, row.normal, row.gammas)?;
        }
        Ok(())
    };
    match &args.out {
        Some(path) => export::write_to(path, rules, |w| {
            writeln!(w, "n,g,g_misere,outcome_misere,genus")?;
            each(w)
        })?,
        None => each(&mut std::io::sink())?,
    }
    let end = rows_of.end()?;
    if !args.report.quiet {
        say_stopped(code, &end);
    }
    summary.method = end.method;
    summary.ran = end.ran;
    (summary.period, summary.sums, summary.stopped_at) = (end.period, end.sums, end.stopped_at);
    summary.seconds = started.elapsed().as_secs_f64();
    rows.summarise(&mut summary);
    if args.report.json {
        print_json(&summary)?;
    } else if shows_text(false, args.report.quiet, args.out.as_deref()) {
        print_summary(&summary, &rows.digits);
    }
    Ok(())
}

impl MisereSummary {
    /// The summary of a run of `code` to heap `n` before it starts.
    fn new(code: &Code, set: Option<Vec<u32>>, n: u64, args: &SequenceArgs) -> MisereSummary {
        MisereSummary {
            code: code.text.clone(),
            subtraction_set: set,
            n,
            convention: "misere",
            ran: RanOn::cpu(),
            genus_depth: GENUS_DEPTH,
            p_positions: 0,
            first_p_positions: Vec::new(),
            last_genus: String::new(),
            last_heap: 0,
            method: MisereMethod::Linear,
            period: None,
            sums: None,
            stopped_at: None,
            sums_bound: None,
            sums_certain_to: None,
            seconds: 0.0,
            out: args.out.as_ref().map(|p| p.display().to_string()),
        }
    }
}

/// Where a code that splits stopped short: the sums of which heap passed
/// the budget.
fn say_stopped(code: &Code, end: &MisereEnd) {
    if let Some(h) = end.stopped_at {
        let sums = end.sums.unwrap_or(0);
        eprintln!(
            "{} splits heaps, so its misère values are valued over whole sums: the sums of \
             heap {h} pass {sums} remembered ({} of memory); the table stops at heap {}",
            code.name(),
            memory::human(sums as u64 * POSITION_BYTES),
            h - 1
        );
    }
}

/// Before a search over whole sums that may not fit: how many sums it can
/// meet, what the budget holds, and the heap it is certain to reach.
fn say_sums_needed(code: &Code, n: u64, needed: &SumsNeeded) {
    if needed.certain() {
        return;
    }
    let at_most = match needed.at_most {
        Some(sums) => format!("up to {sums} sums"),
        None => "more sums than can be counted".into(),
    };
    let certain = match needed.certain_to {
        Some(h) => format!("heaps to {h} are certain to fit"),
        None => "not even heap 0 is certain to fit".into(),
    };
    eprintln!(
        "{} splits heaps, so its misère values are searched over whole sums: to heap {n} they \
         may meet {at_most}, more than the memory budget's {} ({}); {certain}, and the table \
         goes on as far as the sums do",
        code.name(),
        needed.budget,
        memory::human(needed.budget as u64 * POSITION_BYTES)
    );
}

/// What the summary says of the rows, gathered as they go by.
#[derive(Default)]
struct Rows {
    p_positions: u64,
    first_p: Vec<u64>,
    /// The first misère values as a nim string.
    digits: String,
    /// The last heap, its normal value and superscripts.
    last: (u64, u32, Vec<u32>),
}

impl Rows {
    fn add(&mut self, h: u64, normal: u32, gammas: &[u32]) {
        if gammas[0] == 0 {
            self.p_positions += 1;
            if self.first_p.len() < 32 {
                self.first_p.push(h);
            }
        }
        if h < SHOWN_VALUES as u64 {
            self.digits
                .push_str(&export::nim_digit(gammas[0].min(u16::MAX as u32) as u16));
        }
        self.last.0 = h;
        self.last.1 = normal;
        self.last.2.clear();
        self.last.2.extend_from_slice(gammas);
    }

    fn summarise(&self, s: &mut MisereSummary) {
        s.p_positions = self.p_positions;
        s.first_p_positions = self.first_p.clone();
        s.last_heap = self.last.0;
        let genus = Genus {
            normal: self.last.1,
            gammas: self.last.2.clone(),
        };
        s.last_genus = genus.to_string();
    }
}

fn write_row(w: &mut dyn Write, h: u64, normal: u32, gammas: &[u32]) -> std::io::Result<()> {
    let outcome = if gammas[0] == 0 { 'P' } else { 'N' };
    let genus = GenusRef { normal, gammas };
    writeln!(w, "{h},{normal},{},{outcome},{genus}", gammas[0])
}

/// The text summary, laid out as the normal one: the convention named
/// beside the code, the first misère values as a nim string.
fn print_summary(s: &MisereSummary, digits: &str) {
    let first: Vec<String> = s.first_p_positions.iter().map(u64::to_string).collect();
    let more = if s.last_heap as usize >= SHOWN_VALUES {
        "…"
    } else {
        ""
    };
    grundy::frontend::outln!(
        "code        {} (misère play: the last player to move loses)",
        s.code
    );
    match s.stopped_at {
        None => grundy::frontend::outln!("heaps       0..={}", s.n),
        Some(h) => grundy::frontend::outln!(
            "heaps       0..={} (of 0..={}: the sums of heap {h} did not fit)",
            s.last_heap,
            s.n
        ),
    }
    let how = match (s.sums, s.sums_bound) {
        (Some(sums), Some(Some(bound))) => {
            format!(", {sums} sums searched whole (at most {bound} by the count made first)")
        }
        (Some(sums), _) => format!(", {sums} sums searched whole"),
        (None, _) => String::new(),
    };
    let on = match &s.ran.adapter {
        Some(adapter) => format!("gpu ({adapter})"),
        None => "cpu".into(),
    };
    let method = match s.method {
        MisereMethod::Blocked => ", blocked",
        _ => "",
    };
    grundy::frontend::outln!("backend     {on}{method}{how}, {:.3} s", s.seconds);
    grundy::frontend::outln!("G⁻(0..)     {digits}{more}");
    match first.is_empty() {
        true => grundy::frontend::outln!("P-positions {}", s.p_positions),
        false => grundy::frontend::outln!(
            "P-positions {} (the first: {})",
            s.p_positions,
            first.join(", ")
        ),
    }
    grundy::frontend::outln!("genus       of heap {}: {}", s.last_heap, s.last_genus);
    if let Some(p) = s.period {
        grundy::frontend::outln!(
            "period      {} from heap {} (certified: γ0..γ{} and g repeat, as a window of \
             heaps as long as the largest removal does)",
            p.period,
            p.start,
            s.genus_depth
        );
    }
    print_wrote(s.out.as_deref().map(std::path::Path::new));
}

/// Misère values the text summary shows as a nim string.
const SHOWN_VALUES: usize = 64;
