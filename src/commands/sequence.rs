//! `grundy octal` and `grundy subtraction`: one Nim-sequence, written as it
//! is computed, checkpointed and resumable, summarised for a researcher.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::output::{print_json, print_wrote, progress_bar, reject_stdout_clash, shows_text};
use crate::analysis::period::{Period, PeriodRule};
use crate::analysis::rare_split::{RareSplit, RareSummary};
use crate::analysis::stats::HeapStats;
use crate::cli::SequenceArgs;
use crate::engine::filled::Filled;
use crate::engine::heap_table::HeapTable;
use crate::engine::paged::Place;
use crate::engine::sequence::{Algorithm, SequenceRun, WORKING};
use crate::engine::{HeapEngine, LazyBackend, MAX_HEAP, RanOn, checkpoint, memory};
use crate::error::{Error, Result};
use crate::export::{self, Format, SequenceWriter, nim_digit};
use crate::game::Code;
use crate::gpu::heap::GpuTuning;
use crate::interrupt;
use crate::plot::{self, PlotTarget};

/// The JSON summary of a Nim-sequence run.
#[derive(Serialize)]
pub struct SequenceSummary {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtraction_set: Option<Vec<u32>>,
    pub min_diff: u32,
    pub n: u64,
    #[serde(flatten)]
    pub ran: RanOn,
    /// The algorithm asked for, and the engine that computed the last values.
    pub algorithm: Algorithm,
    pub engine: HeapEngine,
    /// Bytes per value the table held in memory.
    pub bytes_per_value: u64,
    /// The SIMD path of the rare values' wide steps (`GRUNDY_SIMD`).
    pub simd: crate::engine::simd::Simd,
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
    /// The first heap whose value was filled from the certified period
    /// instead of computed (null: every value computed).
    pub filled_from: Option<u64>,
    /// Heaps loaded from --resume (0 for a fresh run).
    pub resumed_heaps: u64,
    /// Checkpoints saved, and the seconds they took (apart from `seconds`,
    /// the computing).
    pub checkpoint_saves: u64,
    pub checkpoint_seconds: f64,
    pub seconds: f64,
    pub out: Option<String>,
    pub rare_out: Option<String>,
    pub p_out: Option<String>,
    pub checkpoint: Option<String>,
    pub plot: Option<String>,
}

/// What a run was asked for, checked before any work starts.
struct Plan {
    /// Heaps 0..=target (the first target under --until-periodic).
    target: u64,
    /// Where checkpoints go (--checkpoint, else the --resume file).
    checkpoint: Option<PathBuf>,
    every: Duration,
    /// Fill the table from a certified period once one is found.
    fill: bool,
}

impl Plan {
    fn check(args: &SequenceArgs) -> Result<Plan> {
        reject_stdout_clash(args.json, args.out.as_deref())?;
        let every = Duration::try_from_secs_f64(args.checkpoint_every)
            .ok()
            .filter(|d| !d.is_zero() && d.as_secs() <= MAX_CHECKPOINT_EVERY)
            .ok_or_else(|| {
                Error::Input(format!(
                    "--checkpoint-every {:?}: expected a positive number of seconds, at most \
                     {MAX_CHECKPOINT_EVERY} (a year)",
                    args.checkpoint_every
                ))
            })?;
        if let (Some(n), true) = (args.n, args.until_periodic)
            && n > args.max_n
        {
            return Err(Error::Input(format!(
                "-n {n} is above --max-n {}: expected a first N at most the cap",
                args.max_n
            )));
        }
        let checkpoint = args.checkpoint_path().map(|(_, path)| path.to_path_buf());
        let last = if args.until_periodic {
            args.max_n
        } else {
            args.n.unwrap_or(0)
        };
        if last > MAX_HEAP {
            let flag = if args.until_periodic { "--max-n" } else { "-n" };
            return Err(Error::Input(format!(
                "{flag} {last} is too large; expected at most {MAX_HEAP}"
            )));
        }
        let target = if args.until_periodic {
            args.n.unwrap_or(1024).min(args.max_n)
        } else {
            args.n.unwrap_or(0)
        };
        Ok(Plan {
            target,
            checkpoint,
            every,
            fill: !args.no_fill,
        })
    }
}

/// The longest --checkpoint-every: a year.
const MAX_CHECKPOINT_EVERY: u64 = 365 * 24 * 3600;

/// How the computing loop ended.
struct Computed {
    period: Option<Period>,
    /// The last heap, when the heaps past the computed ones come from the
    /// certified period.
    filled_to: Option<u64>,
}

impl Computed {
    /// The sequence the run asked for: the computed heaps, then the filled ones.
    fn sequence<'t>(&self, table: &'t HeapTable) -> Filled<'t> {
        match (self.period, self.filled_to) {
            (Some(p), Some(to)) => Filled::by_period(table, &p, to),
            _ => Filled::computed(table),
        }
    }
}

/// Where the checkpoint file stands.
struct Saves<'p> {
    path: Option<&'p Path>,
    /// Heaps in the file now (loaded from it, or last saved).
    heaps: u64,
    last: Instant,
    /// The file, open for appending, once it is in the appended format.
    appender: Option<checkpoint::Appender>,
    /// Saves made and the seconds they took.
    count: u64,
    seconds: f64,
}

impl<'p> Saves<'p> {
    /// Checkpoints to `path`: the --resume file goes on taking appends (its
    /// torn last piece cut off); any other starts afresh at the first save.
    fn open(path: Option<&'p Path>, args: &SequenceArgs, resumed: &Resumed) -> Result<Saves<'p>> {
        let same = path.is_some() && args.resume.as_deref() == path;
        let appender = match (path, resumed.appendable) {
            (Some(path), Some(whole)) if same => {
                Some(checkpoint::Appender::open(path, whole, resumed.heaps)?)
            }
            _ => None,
        };
        Ok(Saves {
            path,
            heaps: if same { resumed.heaps } else { 0 },
            last: Instant::now(),
            appender,
            count: 0,
            seconds: 0.0,
        })
    }

    /// Saves the heaps the file does not hold yet (appended; the whole table
    /// the first time): a run resumed to a smaller N never shrinks it.
    fn save(&mut self, code: &Code, table: &HeapTable) -> Result<()> {
        if let Some(path) = self.path
            && table.len() as u64 > self.heaps
        {
            let started = Instant::now();
            match &mut self.appender {
                Some(file) => file.append(table)?,
                None => self.appender = Some(checkpoint::Appender::create(path, code, table)?),
            }
            self.heaps = table.len() as u64;
            self.count += 1;
            self.seconds += started.elapsed().as_secs_f64();
            super::progress::note_checkpoint(self.heaps);
            // Said if a second signal or a failed allocation ends the process.
            interrupt::set_exit_note(Some(self.holds(code)));
        }
        self.last = Instant::now();
        Ok(())
    }

    /// `FILE holds heaps 0..=K of CODE; continue with --resume FILE`.
    fn holds(&self, code: &Code) -> String {
        let path = self.path.map_or(String::new(), |p| p.display().to_string());
        format!(
            "{path} holds heaps 0..={} of {}; continue with --resume {path}",
            self.heaps.saturating_sub(1),
            code.name()
        )
    }

    /// The message for a signal: what the file holds now, exactly.
    fn interrupted(&self, code: &Code) -> Error {
        let by = interrupt::received_name();
        if self.heaps == 0 {
            let path = self.path.map_or(String::new(), |p| p.display().to_string());
            return Error::Interrupted {
                message: format!(
                    "interrupted by {by} before any heap was done: nothing was written, {path} \
                     included"
                ),
                status: interrupt::exit_status(),
            };
        }
        Error::Interrupted {
            message: format!(
                "interrupted by {by}: {} (no other output was written)",
                self.holds(code)
            ),
            status: interrupt::exit_status(),
        }
    }

    /// A run that failed while computing (out of memory, the GPU lost):
    /// the heaps done so far are saved first, and the message says so.
    fn failed(&mut self, code: &Code, table: &HeapTable, e: Error) -> Error {
        if self.path.is_none() {
            return e;
        }
        match self.save(code, table) {
            Ok(()) if self.heaps > 0 => Error::Run(format!("{e}; {}", self.holds(code))),
            Ok(()) => e,
            Err(saving) => Error::Run(format!("{e}; the checkpoint could not be saved: {saving}")),
        }
    }
}

pub fn sequence(code: &Code, set: Option<Vec<u32>>, args: &SequenceArgs) -> Result<()> {
    if let Some(why) = crate::engine::general::unsupported(code) {
        return Err(Error::Input(why));
    }
    let plan = Plan::check(args)?;
    let plot = args.plot_style.target(args.plot.as_deref())?;
    let quiet = args.quiet;
    let mut notice = |m: &str| {
        if !quiet {
            eprintln!("grundy: {m}");
        }
    };
    let (mut run, resumed) = start_run(code, args, &plan, &mut notice)?;
    let resumed_heaps = resumed.heaps;
    let backend = LazyBackend::new(args.backend, quiet)?;
    let mut writer = match &args.out {
        // NumPy's header names the dtype, so the table is written at the end.
        Some(_) if args.format == Format::Npy => None,
        Some(path) => Some(SequenceWriter::create(
            path,
            args.format,
            &match args.format {
                // CGSuite reads its own digits (&N; past V).
                crate::export::Format::Cgsuite => code.cgsuite_text(),
                _ => code.text.clone(),
            },
            code.min_diff,
            plan.target + 1,
        )?),
        None => None,
    };
    let mut saves = Saves::open(plan.checkpoint.as_deref(), args, &resumed)?;
    let computed = {
        let _listening = plan.checkpoint.is_some().then(interrupt::Listening::start);
        let computed = compute(
            &mut run,
            &backend,
            args,
            &plan,
            &mut saves,
            &mut writer,
            &mut notice,
        )?;
        saves.save(code, &run.table)?;
        computed
    };
    let sequence = computed.sequence(&run.table);
    if let Some(mut w) = writer {
        sequence.append_to(&mut w)?;
        w.finish()?;
    }
    if let (Some(path), Format::Npy) = (&args.out, args.format) {
        write_npy(path, &sequence)?;
    }
    let (split, rare) = sequence.rare_summary(run.parity());
    write_side_outputs(args, &sequence, split)?;
    if let Some(target) = &plot {
        plot_sequence(target, code, &sequence, split, computed.period)?;
    }
    let summary = summarise(
        code,
        set,
        args,
        (&run, &sequence, rare),
        &backend,
        computed.period,
        (resumed_heaps, &saves),
        &plan,
    );
    if args.json {
        print_json(&summary)?;
    } else if shows_text(false, quiet, args.out.as_deref()) {
        print_summary(&summary, computed.period, &sequence);
    }
    Ok(())
}

/// The run, from --resume's checkpoint or empty, and the heaps resumed;
/// the memory it will need is checked before any work (a table filled from
/// a period is as large as a computed one).
fn start_run<'a>(
    code: &'a Code,
    args: &SequenceArgs,
    plan: &Plan,
    notice: &mut dyn FnMut(&str),
) -> Result<(SequenceRun<'a>, Resumed)> {
    let mut run = SequenceRun::new(code, args.algorithm, HeapTable::default())?;
    if !may_fill(code, plan) && !run.uses_rare_values() {
        crate::engine::heap_run::check_heap_bound(plan.target)?;
    }
    // Probed at most once, and only for a run that does not fit.
    let early = std::cell::LazyCell::new(|| period_certified_early(code, args.algorithm, plan));
    let early = || *early;
    let place = choose_place(&run, args, plan, &early, notice)?;
    let (table, appendable) = match &args.resume {
        Some(path) => {
            let loaded = checkpoint::load_in(path, code, &place)?;
            if loaded.torn {
                notice(&format!(
                    "{}: its last piece was cut short when the run was stopped; going on from \
                     heap {}",
                    path.display(),
                    loaded.table.len()
                ));
            }
            (loaded.table, loaded.appendable)
        }
        None => (HeapTable::new_in(&place).map_err(file_failed)?, None),
    };
    let resumed = Resumed {
        heaps: table.len() as u64,
        appendable,
    };
    run.table = table;
    if place == Place::Memory {
        check_memory(&run, plan, &early, notice)?;
    }
    Ok((run, resumed))
}

fn file_failed(e: std::io::Error) -> Error {
    Error::Run(format!("a file for the table could not be made: {e}"))
}

/// Where the table's values live: in memory when the run fits the memory
/// it may use (--memory, else what is free less an eighth), else in a
/// memory-mapped file beside --checkpoint or --out. A run that cannot fit
/// either way is refused, naming what it needs, unless a period is
/// certified `early` (then `check_memory` says so and it goes on).
fn choose_place(
    run: &SequenceRun,
    args: &SequenceArgs,
    plan: &Plan,
    early: &dyn Fn() -> bool,
    notice: &mut dyn FnMut(&str),
) -> Result<Place> {
    let values = plan.target + 1;
    let (budget, bound) = match (args.memory, memory::default_budget()) {
        (Some(bytes), _) => (bytes, format!("--memory {}", memory::human(bytes))),
        (None, Some(room)) => (
            room.bytes,
            format!("{} {}", memory::human(room.bytes), room.bound),
        ),
        (None, None) => return Ok(Place::Memory),
    };
    let in_memory = run.memory_needed_at(values, &Place::Memory);
    if in_memory <= budget {
        return Ok(Place::Memory);
    }
    let folder = table_folder(args);
    let Place::Folder(dir) = &folder else {
        unreachable!("a folder")
    };
    let (paged, disk) = (
        run.memory_needed_at(values, &folder),
        values.saturating_mul(2),
    );
    let what = format!("a table of {values} values");
    let refusal = paging_refusal(&what, (paged, disk), dir, (budget, &bound));
    match refusal {
        // `check_memory` says what it means for a run a period fills.
        Some(_) if early() => Ok(Place::Memory),
        Some(why) => Err(Error::Input(why)),
        None => {
            notice(&format!(
                "{what} needs about {} of memory, more than {bound}: its values go to a file in \
                 {} (up to {} of disk), memory-mapped; about {} stays in memory",
                memory::human(in_memory),
                dir.display(),
                memory::human(disk),
                memory::human(paged)
            ));
            Ok(folder)
        }
    }
}

/// Why `what` cannot keep its values in a file in `dir`: the memory it
/// needs even so (`paged`) past `budget` (named `bound`), the address
/// space a mapping of the file takes under ulimit -v, or the `disk` it
/// needs there.
fn paging_refusal(
    what: &str,
    (paged, disk): (u64, u64),
    dir: &Path,
    (budget, bound): (u64, &str),
) -> Option<String> {
    // --memory bounds what grows with the table; the engine's working
    // memory (the rare list, the bitsets: `WORKING`) comes on top.
    if paged > budget + WORKING {
        return Some(format!(
            "{what} needs about {} of memory even with its values in a file, more than {bound} \
             and the engine's {} of working memory; expected --memory {} or more",
            memory::human(paged),
            memory::human(WORKING),
            memory::human(paged - WORKING)
        ));
    }
    let mapped = paged.saturating_add(disk);
    if let Some(left) = memory::address_space_left().filter(|&left| left < mapped) {
        return Some(format!(
            "{what} needs about {} of address space with its values in a file mapped into it, \
             and {} is left under ulimit -v (RLIMIT_AS); expected a larger ulimit -v, or a \
             memory cgroup (Slurm's --mem) in its place",
            memory::human(mapped),
            memory::human(left)
        ));
    }
    let free = memory::disk_free(dir).filter(|&free| free < disk)?;
    Some(format!(
        "{what} kept in a file needs up to {} of disk in {}, and {} is free there; expected a \
         folder with room (--checkpoint or --out names it)",
        memory::human(disk),
        dir.display(),
        memory::human(free)
    ))
}

/// The folder a table kept in a file goes to: the checkpoint's, else the
/// output's (when it is a file to be: not stdout, a device or a FIFO), else
/// the current one.
fn table_folder(args: &SequenceArgs) -> Place {
    let a_file =
        |out: &Path| out != Path::new("-") && std::fs::metadata(out).map_or(true, |m| m.is_file());
    match (args.checkpoint_path(), &args.out) {
        (Some((_, path)), _) => Place::beside(path),
        (None, Some(out)) if a_file(out) => Place::beside(out),
        _ => Place::Folder(PathBuf::from(".")),
    }
}

/// Whether a certified period may fill the heaps past a computed part.
fn may_fill(code: &Code, plan: &Plan) -> bool {
    plan.fill && PeriodRule::for_code(code).theorem_applies
}

/// Heaps a run that does not fit computes first, to see whether a period
/// is certified early (then the fill holds the rest without memory).
const FILL_PROBE: u64 = 1 << 16;

/// Whether a certified period fills the run's heaps past the first
/// `FILL_PROBE` (computed here, on the CPU: milliseconds).
fn period_certified_early(code: &Code, algorithm: Algorithm, plan: &Plan) -> bool {
    if !may_fill(code, plan) || plan.target <= FILL_PROBE {
        return false;
    }
    let Ok(mut probe) = SequenceRun::new(code, algorithm, HeapTable::default()) else {
        return false;
    };
    let rule = PeriodRule::for_code(code);
    probe.extend_on_cpu(FILL_PROBE).is_ok()
        && probe.table.period(&rule).is_some_and(|p| p.certified)
}

/// Refuses a run whose table cannot fit, before any work; where a period
/// is certified `early` (which then fills the rest without holding it),
/// says so and goes on.
fn check_memory(
    run: &SequenceRun,
    plan: &Plan,
    early: &dyn Fn() -> bool,
    notice: &mut dyn FnMut(&str),
) -> Result<()> {
    let values = plan.target + 1;
    let what = format!("a table of {values} values");
    let checked = memory::check_fits(&what, run.memory_needed(values));
    match (checked, memory::room()) {
        (Err(_), Some(room)) if early() => {
            notice(&format!(
                "{what} would need about {} of memory; {} {}: going on, since a period is \
                 certified within the first {FILL_PROBE} heaps and fills the rest without \
                 holding them",
                memory::human(run.memory_needed(values)),
                memory::human(room.bytes),
                room.bound
            ));
            Ok(())
        }
        (checked, _) => checked,
    }
}

/// What --resume gave the run.
struct Resumed {
    heaps: u64,
    /// Bytes of whole pieces of a checkpoint that takes appends.
    appendable: Option<u64>,
}

/// Extends the table piece by piece: checkpoints when due, stops on a signal,
/// fills from a certified period, doubles N under --until-periodic.
fn compute(
    run: &mut SequenceRun,
    backend: &LazyBackend,
    args: &SequenceArgs,
    plan: &Plan,
    saves: &mut Saves,
    writer: &mut Option<SequenceWriter>,
    notice: &mut dyn FnMut(&str),
) -> Result<Computed> {
    let code = run.code();
    let rule = PeriodRule::for_code(code);
    let fill = plan.fill && rule.theorem_applies;
    let last_save = Cell::new(saves.last);
    let checkpoints = saves.path.is_some();
    let stop =
        || interrupt::requested() || (checkpoints && last_save.get().elapsed() >= plan.every);
    let mut to = plan.target;
    let mut filled_to = None;
    let period = loop {
        // With fill on, stop at doublings to look for a certificate.
        let piece_to = if fill {
            to.min((2 * run.table.len() as u64).max(4095))
        } else {
            to
        };
        let done = extend_piece(
            run,
            backend,
            (piece_to, to),
            args.quiet,
            saves,
            notice,
            &stop,
        )?;
        if interrupt::requested() {
            saves.save(code, &run.table)?;
            return Err(saves.interrupted(code));
        }
        if !done {
            saves.save(code, &run.table)?;
            last_save.set(saves.last);
            continue;
        }
        let period = run.table.period(&rule);
        if let Some(p) = period.filter(|p| fill && p.certified && piece_to < to) {
            filled_to = Some(to);
            notice(&format!(
                "{}: period {} from heap {} certified at heap {}; heaps {}..={to} filled from it \
                 (--no-fill computes them)",
                code.name(),
                p.period,
                p.preperiod,
                piece_to,
                piece_to + 1
            ));
        } else if piece_to < to {
            continue;
        }
        if let Some(w) = writer.as_mut() {
            run.table.append_to(w)?;
        }
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
    Ok(Computed { period, filled_to })
}

/// Extends the run to `piece_to` under a progress bar to `to`: whether it
/// got there (false: `stop` paused it). A failure saves the heaps done
/// first.
fn extend_piece(
    run: &mut SequenceRun,
    backend: &LazyBackend,
    (piece_to, to): (u64, u64),
    quiet: bool,
    saves: &mut Saves,
    notice: &mut dyn FnMut(&str),
    stop: &dyn Fn() -> bool,
) -> Result<bool> {
    let bar = progress_bar(to + 1, quiet, "heaps");
    bar.set_position(run.table.len() as u64);
    let extended = run.extend(
        piece_to,
        backend,
        &GpuTuning::default(),
        notice,
        &|done| bar.set_position(done),
        stop,
    );
    bar.finish_and_clear();
    extended.map_err(|e| saves.failed(run.code(), &run.table, e))
}

/// `--format npy`: uint8 values, or uint16 when one passes 255.
fn write_npy(path: &Path, sequence: &Filled) -> Result<()> {
    let wide = sequence.has_wide_values();
    export::write_to(path, |w| {
        let values = |a: usize, b: usize| sequence.values(a as u64, b as u64);
        crate::export::npy::write(w, sequence.len() as usize, wide, values)
    })
}

/// --rare-out (the rare heaps under `split`, heap 0 included when rare) and
/// --p-out.
fn write_side_outputs(args: &SequenceArgs, sequence: &Filled, split: RareSplit) -> Result<()> {
    if let Some(path) = &args.rare_out {
        export::write_to(path, |w| {
            writeln!(w, "n,g")?;
            let rare = |n, v| split.is_rare(n, v);
            sequence.for_each_where(rare, |n, v| writeln!(w, "{n},{v}"))
        })?;
    }
    if let Some(path) = &args.p_out {
        export::write_to(path, |w| {
            writeln!(w, "n")?;
            sequence.for_each_where(|_, v| v == 0, |n, _| writeln!(w, "{n}"))
        })?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)] // the summary gathers everything the run knew
fn summarise(
    code: &Code,
    set: Option<Vec<u32>>,
    args: &SequenceArgs,
    (run, sequence, rare): (&SequenceRun, &Filled, RareSummary),
    backend: &LazyBackend,
    period: Option<Period>,
    (resumed_heaps, saves): (u64, &Saves),
    plan: &Plan,
) -> SequenceSummary {
    let rule = PeriodRule::for_code(code);
    let shown = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    SequenceSummary {
        code: code.text.clone(),
        subtraction_set: set,
        min_diff: code.min_diff,
        n: sequence.len() - 1,
        ran: backend
            .opened()
            .map_or(RanOn::cpu(), |b| b.ran_on(run.ran_on)),
        algorithm: args.algorithm,
        engine: run.engine,
        bytes_per_value: run.table.bytes_per_value(),
        simd: crate::engine::simd::chosen(),
        stats: sequence.stats(),
        rare,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        values_needed: period.map(|p| rule.values_needed(p.period, p.preperiod)),
        filled_from: sequence.filled_from(),
        resumed_heaps,
        checkpoint_saves: saves.count,
        checkpoint_seconds: saves.seconds,
        seconds: run.seconds,
        out: shown(&args.out),
        rare_out: shown(&args.rare_out),
        p_out: shown(&args.p_out),
        checkpoint: shown(&plan.checkpoint),
        plot: shown(&args.plot),
    }
}

fn print_summary(s: &SequenceSummary, period: Option<Period>, g: &Filled) {
    let shown = g.len().min(100);
    let digits: String = (0..shown).map(|n| nim_digit(g.get(n))).collect();
    let more = if g.len() > shown { "…" } else { "" };
    crate::outln!(
        "code        {}{}",
        s.code,
        if s.min_diff > 0 {
            format!(" (min-diff {})", s.min_diff)
        } else {
            String::new()
        }
    );
    crate::outln!("heaps       0..={}", s.n);
    let backend = match &s.ran.adapter {
        Some(a) => format!("{} ({a})", s.ran.backend),
        None => s.ran.backend.to_string(),
    };
    let engine = match s.engine {
        HeapEngine::Rare => "rare values",
        HeapEngine::Blocked => "blocked brute force",
        HeapEngine::General => "general engine",
    };
    crate::outln!("backend     {backend}, {engine}, {:.3} s", s.seconds);
    crate::outln!("G(0..)      {digits}{more}");
    crate::outln!(
        "max value   {} (first at heap {}); {} P-positions",
        s.stats.max_value,
        s.stats.first_max_at,
        s.stats.p_positions
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
    crate::outln!("P-positions {}{more_p}", listed.join(", "));
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
    crate::outln!("first heap  {}", firsts.join(" "));
    crate::outln!(
        "rare        mask {}: {} rare heaps{}",
        s.rare.rare_mask,
        s.rare.rare_count,
        s.rare
            .last_rare
            .map_or(String::new(), |h| format!(", the last at {h}"))
    );
    match period {
        Some(p) => crate::outln!(
            "period      {} from heap {} ({})",
            p.period,
            p.preperiod,
            if p.certified {
                "certified"
            } else {
                "apparent: the periodicity theorem does not cover this code"
            }
        ),
        None => crate::outln!("period      none found up to heap {}", s.n),
    }
    print_outputs(s);
}

/// The summary's last lines: values filled from the period, files written.
fn print_outputs(s: &SequenceSummary) {
    if let Some(from) = s.filled_from {
        crate::outln!(
            "filled      heaps {from}..={} from the certified period (--no-fill computes them)",
            s.n
        );
    }
    for (what, path) in [
        ("rare heaps", &s.rare_out),
        ("P-positions", &s.p_out),
        ("checkpoint", &s.checkpoint),
        ("picture", &s.plot),
    ] {
        if let Some(p) = path {
            crate::outln!("{what:<11} {p}");
        }
    }
    print_wrote(s.out.as_deref().map(Path::new));
}

/// Value against heap, rare values and P-positions marked, the period shaded.
fn plot_sequence(
    target: &PlotTarget,
    code: &Code,
    table: &Filled,
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
        table.len() as usize,
        &|h| table.get(h as u64) as u32,
        &class,
        ["common values", &rare, "P-positions"],
        period.map(|p| (p.period, p.preperiod, p.certified)),
    );
    plot::chart(target, &chart)
}
