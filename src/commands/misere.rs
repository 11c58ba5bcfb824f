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
use grundy::analysis::genus::{
    GENUS_DEPTH, Genus, GenusRef, SearchedGenera, heap_genera_by_search,
};
use grundy::analysis::genus_stream::{
    GenusCycle, GenusPeriod, GenusStream, PeriodSearch, period_start,
};
use grundy::analysis::whole_sum::POSITION_BYTES;
use grundy::error::{Error, Result};
use grundy::export::{self, Format, OutputRules};
use grundy::game::Code;
use grundy::hooks::RunHooks;
use grundy::{BackendChoice, memory};

/// The JSON summary of a misère run.
#[derive(Serialize)]
pub struct MisereSummary {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtraction_set: Option<Vec<u32>>,
    pub n: u64,
    /// "misere": the last player to move loses.
    pub convention: &'static str,
    pub backend: &'static str,
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
    /// heaps) or "sums" (a code that splits: by search over whole sums).
    pub method: &'static str,
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
    pub seconds: f64,
    pub out: Option<String>,
}

/// Refuses what a misère run does not do (yet): the flags of the normal
/// engines. Those that clap refuses (`--until-periodic`, checkpoints, the
/// side outputs, kept tables) never reach here.
fn refuse_unsupported(args: &SequenceArgs) -> Result<()> {
    let refuse = |what: &str, expected: &str| {
        Err(Error::Input(format!(
            "--misere with {what}: misère tables run on the CPU and are written as CSV; \
             expected {expected}"
        )))
    };
    if args.format != Format::Csv {
        return refuse("--format other than csv", "--format csv (the default)");
    }
    if args.algorithm == Algorithm::Rare {
        return refuse("--algorithm rare", "--algorithm auto");
    }
    if args.backend == BackendChoice::Gpu {
        return refuse("--backend gpu", "--backend auto or cpu");
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
    let started = std::time::Instant::now();
    let mut rows = Rows::default();
    let mut summary = MisereSummary {
        code: code.text.clone(),
        subtraction_set: set,
        n,
        convention: "misere",
        backend: "cpu",
        genus_depth: GENUS_DEPTH,
        p_positions: 0,
        first_p_positions: Vec::new(),
        last_genus: String::new(),
        last_heap: 0,
        method: "linear",
        period: None,
        sums: None,
        stopped_at: None,
        seconds: 0.0,
        out: args.out.as_ref().map(|p| p.display().to_string()),
    };
    if splits_none(code) {
        summary.period = streamed(code, n, (args, rules), &mut rows)?;
    } else {
        let found = searched(code, n, args.report.quiet)?;
        for (h, genus) in found.genera.iter().enumerate() {
            rows.add(h as u64, genus.normal, &genus.gammas);
        }
        if let Some(path) = &args.out {
            export::write_to(path, rules, |w| write_csv(w, &found.genera))?;
        }
        (summary.method, summary.sums) = ("sums", Some(found.sums));
        summary.stopped_at = found.stopped_at;
    }
    summary.seconds = started.elapsed().as_secs_f64();
    rows.summarise(&mut summary);
    if args.report.json {
        print_json(&summary)?;
    } else if shows_text(false, args.report.quiet, args.out.as_deref()) {
        print_summary(&summary, &rows.digits);
    }
    Ok(())
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

/// Whether the code never splits a heap (the linear stream takes it).
fn splits_none(code: &Code) -> bool {
    grundy::analysis::genus::refuse_splitting(code).is_ok()
}

/// The rows of a code that never splits, heap after heap in a window,
/// written as they come. Once a window of heaps comes back, the period of
/// the truncated genus is certified and the later rows are the cycle's.
fn streamed(
    code: &Code,
    n: u64,
    (args, rules): (&SequenceArgs, OutputRules),
    rows: &mut Rows,
) -> Result<Option<GenusPeriod>> {
    let what = format!("a misère table of {} heaps", n.saturating_add(1));
    memory::check_fits(&what, GenusStream::bytes(code, GENUS_DEPTH, n))?;
    let mut stream = GenusStream::new(code, GENUS_DEPTH).map_err(Error::Input)?;
    let mut search = PeriodSearch::default();
    let mut cycle: Option<GenusCycle> = None;
    let mut each = |w: &mut dyn Write| -> std::io::Result<()> {
        for h in 0..=n {
            if let Some(c) = cycle.as_ref().filter(|c| h >= c.period.start) {
                let (normal, gammas) = c.genus_of(h);
                rows.add(h, *normal, gammas);
                write_row(w, h, *normal, gammas)?;
                continue;
            }
            stream.step();
            search.look(&stream);
            let (normal, gammas) = stream.genus_of(h);
            rows.add(h, normal, &gammas);
            write_row(w, h, normal, &gammas)?;
            if let (Some(p), None) = (search.found, &cycle)
                && p <= MAX_CYCLE
            {
                let found = GenusCycle::of(code, GENUS_DEPTH, p).map_err(std::io::Error::other)?;
                cycle = Some(found);
            }
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
    if let Some(c) = cycle {
        return Ok(Some(c.period));
    }
    match search.found {
        Some(p) => period_start(code, GENUS_DEPTH, p)
            .map(Some)
            .map_err(Error::Run),
        None => Ok(None),
    }
}

/// The longest cycle kept to fill the rows past a certified period's
/// start (a heap's genus is 8 numbers); a longer one is stepped through.
const MAX_CYCLE: u64 = 1 << 22;

/// The genera of heaps 0..=n of a code that splits heaps, by search over
/// whole sums as far as the memory budget holds them, saying on stderr
/// where they stopped.
fn searched(code: &Code, n: u64, quiet: bool) -> Result<SearchedGenera> {
    let limit = memory::sums_within_budget();
    let hooks = CliHooks::new(quiet);
    hooks.begin(n.saturating_add(1), "heaps");
    let found = heap_genera_by_search(code, (n, GENUS_DEPTH), limit, &hooks);
    hooks.end();
    if found.asked {
        let last = found.stopped_at.unwrap_or(0);
        return Err(Error::Interrupted {
            message: format!(
                "{} stopped the misère table of {} at heap {last} (heaps 0..{last} were done; \
                 nothing was written, since a table that stops short would look whole)",
                grundy::interrupt::received_name(),
                code.name()
            ),
            status: grundy::interrupt::exit_status(),
        });
    }
    if let Some(h) = found.stopped_at {
        if found.genera.is_empty() {
            return Err(Error::WontFit(format!(
                "the sums of heap 0 of {} under misère play pass {} remembered sums",
                code.name(),
                found.sums
            )));
        }
        if !quiet {
            eprintln!(
                "{} splits heaps, so its misère values are valued over whole sums: the sums of \
                 heap {h} pass {} remembered ({} of memory); the table stops at heap {}",
                code.name(),
                found.sums,
                memory::human(found.sums as u64 * POSITION_BYTES),
                h - 1
            );
        }
    }
    Ok(found)
}

/// `n,g,g_misere,outcome_misere,genus`: the normal value beside the
/// misère value, the misère outcome (P: the player to move loses) and the
/// genus as the literature writes it.
fn write_csv(w: &mut dyn Write, genera: &[Genus]) -> std::io::Result<()> {
    writeln!(w, "n,g,g_misere,outcome_misere,genus")?;
    for (h, genus) in genera.iter().enumerate() {
        write_row(w, h as u64, genus.normal, &genus.gammas)?;
    }
    Ok(())
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
    grundy::outln!(
        "code        {} (misère play: the last player to move loses)",
        s.code
    );
    match s.stopped_at {
        None => grundy::outln!("heaps       0..={}", s.n),
        Some(h) => grundy::outln!(
            "heaps       0..={} (of 0..={}: the sums of heap {h} did not fit)",
            s.last_heap,
            s.n
        ),
    }
    let how = match s.sums {
        Some(sums) => format!(", {sums} sums searched whole"),
        None => String::new(),
    };
    grundy::outln!("backend     cpu{how}, {:.3} s", s.seconds);
    grundy::outln!("G⁻(0..)     {digits}{more}");
    grundy::outln!(
        "P-positions {} (the first: {})",
        s.p_positions,
        first.join(", ")
    );
    grundy::outln!("genus       of heap {}: {}", s.last_heap, s.last_genus);
    if let Some(p) = s.period {
        grundy::outln!(
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
