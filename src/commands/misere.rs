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
    GENUS_DEPTH, Genus, SearchedGenera, genera_bytes, heap_genera, heap_genera_by_search,
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
    let found = genera_of(code, n, args.report.quiet)?;
    let genera = &found.genera;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.out {
        export::write_to(path, rules, |w| write_csv(w, genera))?;
    }
    let last_heap = genera.len() as u64 - 1;
    let p: Vec<u64> = (0..=last_heap)
        .filter(|&h| genera[h as usize].misere() == 0)
        .collect();
    let splits = !splits_none(code);
    let summary = MisereSummary {
        code: code.text.clone(),
        subtraction_set: set,
        n,
        convention: "misere",
        backend: "cpu",
        genus_depth: GENUS_DEPTH,
        p_positions: p.len() as u64,
        first_p_positions: p.iter().take(32).copied().collect(),
        last_genus: genera[last_heap as usize].to_string(),
        last_heap,
        method: if splits { "sums" } else { "linear" },
        sums: splits.then_some(found.sums),
        stopped_at: found.stopped_at,
        seconds,
        out: args.out.as_ref().map(|p| p.display().to_string()),
    };
    if args.report.json {
        print_json(&summary)?;
    } else if shows_text(false, args.report.quiet, args.out.as_deref()) {
        print_summary(&summary, genera);
    }
    Ok(())
}

fn splits_none(code: &Code) -> bool {
    grundy::analysis::genus::refuse_splitting(code).is_ok()
}

/// The genera of heaps 0..=n: from the smaller heaps where the code never
/// splits (refused before it starts when they cannot fit), else by search
/// over whole sums as far as the memory budget holds them, saying on
/// stderr where they stopped.
fn genera_of(code: &Code, n: u64, quiet: bool) -> Result<SearchedGenera> {
    if splits_none(code) {
        let what = format!("a misère table of {} heaps", n.saturating_add(1));
        memory::check_fits(&what, genera_bytes(n, GENUS_DEPTH))?;
        let genera = heap_genera(code, n, GENUS_DEPTH).map_err(Error::Input)?;
        return Ok(SearchedGenera {
            genera,
            stopped_at: None,
            asked: false,
            sums: 0,
        });
    }
    let budget = memory::default_budget().map_or(1 << 32, |room| room.bytes);
    let limit = (budget / POSITION_BYTES).min(usize::MAX as u64) as usize;
    let hooks = CliHooks::new(quiet);
    hooks.begin(n.saturating_add(1), "heaps");
    let found = heap_genera_by_search(code, (n, GENUS_DEPTH), limit, &hooks);
    hooks.end();
    if found.asked {
        // Nothing is written: a table that stops short would look whole.
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
        let outcome = if genus.misere() == 0 { 'P' } else { 'N' };
        writeln!(
            w,
            "{h},{},{},{outcome},{genus}",
            genus.normal,
            genus.misere()
        )?;
    }
    Ok(())
}

/// The text summary, laid out as the normal one: the convention named
/// beside the code, the first misère values as a nim string.
fn print_summary(s: &MisereSummary, genera: &[Genus]) {
    let first: Vec<String> = s.first_p_positions.iter().map(u64::to_string).collect();
    let shown = genera.len().min(SHOWN_VALUES);
    let digits: String = genera[..shown]
        .iter()
        .map(|g| export::nim_digit(g.misere().min(u16::MAX as u32) as u16))
        .collect();
    let more = if genera.len() > shown { "…" } else { "" };
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
    print_wrote(s.out.as_deref().map(std::path::Path::new));
}

/// Misère values the text summary shows as a nim string.
const SHOWN_VALUES: usize = 64;
