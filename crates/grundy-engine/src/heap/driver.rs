//! A long Nim-sequence run from start to end: where its table lives (memory,
//! or a file when it does not fit), the memory check before any work, the
//! resume from a checkpoint, pieces between checkpoints, a certified
//! period's fill, N doubled until a period shows. The command line and the
//! library both drive a run through here; they only report.

use crate::heap::bounds::{Reach, check_last_heap};
use grundy_core::export::OutputRules;
use grundy_core::setting::Marked;
use grundy_core::setting::{Setting, seconds};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::heap::rare::Tuning;
use crate::heap::sequence::{Algorithm, SequenceRun, WORKING};
use crate::heap::storage::filled::Filled;
use crate::heap::storage::paged::Place;
use crate::heap::storage::table::HeapTable;
use crate::{LazyBackend, heap::checkpoint, memory};
use grundy_core::analysis::period::{Period, PeriodRule};
use grundy_core::error::{Error, Result};
use grundy_core::export::SequenceWriter;
use grundy_core::game::Code;
use grundy_core::hooks::{NoStop, RunHooks, StopAlso};
use grundy_core::interrupt;
use grundy_gpu::heap::GpuTuning;

/// What a sequence run is asked for, checked by its caller.
#[derive(Clone, Debug)]
pub struct SequenceJob {
    pub algorithm: Algorithm,
    /// Heaps 0..=n; under `until_periodic`, the first N tried.
    pub n: u64,
    /// Double N until a period is found, up to this last heap.
    pub until_periodic: Option<u64>,
    /// Fill the heaps past a certified period from it instead of
    /// computing them.
    pub fill: bool,
    /// Where checkpoints go, and how often.
    pub checkpoint: Option<PathBuf>,
    pub every: Duration,
    /// The checkpoint the run goes on from.
    pub resume: Option<PathBuf>,
    /// The memory the table may take (`--memory`); none: what is free less
    /// an eighth.
    pub memory: Option<u64>,
    /// Where a table too large for memory keeps its values.
    pub folder: PathBuf,
    /// What the checkpoint may replace, and whether its folder may be made.
    pub rules: OutputRules,
    /// How the run spreads its work (the same table whatever it says).
    pub tuning: Tuning,
}

impl SequenceJob {
    /// Heaps 0..=n on the given algorithm, in memory, with no checkpoint.
    pub fn new(algorithm: Algorithm, n: u64) -> SequenceJob {
        SequenceJob {
            algorithm,
            n,
            until_periodic: None,
            fill: true,
            checkpoint: None,
            every: Duration::from_secs(3600),
            resume: None,
            memory: None,
            folder: PathBuf::from("."),
            rules: OutputRules::default(),
            tuning: Tuning::default(),
        }
    }

    /// What a run of this job would refuse before any work: a first N
    /// above the cap, heaps past `MAX_HEAP`, checkpoints every 0 s.
    pub fn check(&self) -> Result<()> {
        if let Some(cap) = self.until_periodic
            && self.n > cap
        {
            return Err(Error::Input(format!(
                "{} is above {}: expected a first N at most the cap",
                Setting::N.is(self.n),
                Setting::MaxN.is(cap)
            )));
        }
        let (name, last) = match self.until_periodic {
            Some(cap) => (Setting::MaxN, cap),
            None => (Setting::N, self.n),
        };
        check_last_heap(&name.named(), last, Reach::Any)?;
        if self.checkpoint.is_some() {
            seconds(Setting::CheckpointEvery, self.every.as_secs_f64()).map_err(Error::Input)?;
        }
        Ok(())
    }
}

/// How the computing ended.
#[derive(Clone, Copy, Debug)]
pub struct Computed {
    pub period: Option<Period>,
    /// The last heap, when the heaps past the computed ones come from the
    /// certified period.
    pub filled_to: Option<u64>,
}

impl Computed {
    /// The sequence the run asked for: the computed heaps, then the filled ones.
    pub fn sequence<'t>(&self, table: &'t HeapTable) -> Filled<'t> {
        match (self.period, self.filled_to) {
            (Some(p), Some(to)) => Filled::by_period(table, &p, to),
            _ => Filled::computed(table),
        }
    }
}

/// A run started: its table (resumed or empty, in memory or in a file)
/// and its checkpoint file.
pub struct SequenceDriver<'a> {
    pub run: SequenceRun<'a>,
    /// Heaps loaded from the checkpoint resumed (0 for a fresh run).
    pub resumed_heaps: u64,
    saves: Saves,
    job: SequenceJob,
}

/// Where the checkpoint file stands.
struct Saves {
    path: Option<PathBuf>,
    rules: OutputRules,
    /// Heaps in the file now (loaded from it, or last saved).
    heaps: u64,
    last: Instant,
    /// The file, open for appending, once it is in the appended format.
    appender: Option<checkpoint::Appender>,
    /// Saves made and the seconds they took.
    count: u64,
    seconds: f64,
}

impl Saves {
    /// Checkpoints to `path`: the file resumed goes on taking appends (its
    /// torn last piece cut off); any other starts afresh at the first save.
    fn open(job: &SequenceJob, resumed: &Resumed) -> Result<Saves> {
        let path = job.checkpoint.clone().or_else(|| job.resume.clone());
        let same = path.is_some() && job.resume == path;
        let appender = match (&path, resumed.appendable) {
            (Some(path), Some(whole)) if same => {
                Some(checkpoint::Appender::open(path, whole, resumed.heaps)?)
            }
            _ => None,
        };
        Ok(Saves {
            path,
            rules: job.rules,
            heaps: if same { resumed.heaps } else { 0 },
            last: Instant::now(),
            appender,
            count: 0,
            seconds: 0.0,
        })
    }

    /// Saves the heaps the file does not hold yet (appended; the whole table
    /// the first time): a run resumed to a smaller N never shrinks it.
    fn save(&mut self, code: &Code, table: &HeapTable, hooks: &dyn RunHooks) -> Result<()> {
        if let Some(path) = &self.path
            && table.len() as u64 > self.heaps
        {
            let started = Instant::now();
            match &mut self.appender {
                Some(file) => file.append(table)?,
                None => {
                    let file = checkpoint::Appender::create(path, self.rules, code, table)?;
                    self.appender = Some(file);
                }
            }
            self.heaps = table.len() as u64;
            self.count += 1;
            self.seconds += started.elapsed().as_secs_f64();
            hooks.saved(&format!("heaps 0..={}", self.heaps - 1));
            // Said if a second signal or a failed allocation ends the process.
            interrupt::set_exit_note(Some(self.holds(code)));
        }
        self.last = Instant::now();
        Ok(())
    }

    /// `FILE holds heaps 0..=K of CODE; continue with --resume FILE`.
    fn holds(&self, code: &Code) -> String {
        let path = self.shown();
        format!(
            "{path} holds heaps 0..={} of {}; continue with {}",
            self.heaps.saturating_sub(1),
            code.name(),
            Setting::Resume.is(&path)
        )
    }

    fn shown(&self) -> String {
        self.path
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string())
    }

    /// The error for a signal: what the file holds now, exactly.
    fn interrupted(&self, code: &Code) -> Error {
        let by = interrupt::received_name();
        let message = match self.heaps {
            0 => format!(
                "interrupted by {by} before any heap was done: nothing was written, {} included",
                self.shown()
            ),
            _ => format!(
                "interrupted by {by}: {} (no other output was written)",
                self.holds(code)
            ),
        };
        Error::Interrupted {
            message,
            status: interrupt::exit_status(),
        }
    }

    /// A run that failed while computing (out of memory, the GPU lost):
    /// the heaps done so far are saved first, and the message says so.
    fn failed(&mut self, code: &Code, table: &HeapTable, e: Error, hooks: &dyn RunHooks) -> Error {
        if self.path.is_none() {
            return e;
        }
        match self.save(code, table, hooks) {
            Ok(()) if self.heaps > 0 => Error::Run(format!("{e}; {}", self.holds(code))),
            Ok(()) => e,
            Err(saving) => Error::Run(format!("{e}; the checkpoint could not be saved: {saving}")),
        }
    }
}

/// What a resume gave the run.
struct Resumed {
    heaps: u64,
    /// Bytes of whole pieces of a checkpoint that takes appends.
    appendable: Option<u64>,
}

impl SequenceJob {
    /// The heap the run computes to first.
    fn target(&self) -> u64 {
        match self.until_periodic {
            Some(max_n) => self.n.min(max_n),
            None => self.n,
        }
    }

    /// Starts the run: from the checkpoint resumed, or empty; the memory it
    /// will need is checked before any work (a table filled from a period
    /// is as large as a computed one), and the table goes to a file in
    /// `folder` when it does not fit in memory.
    pub fn start<'a>(&self, code: &'a Code, hooks: &dyn RunHooks) -> Result<SequenceDriver<'a>> {
        if let Some(why) = crate::heap::brute::general::unsupported(code) {
            return Err(Error::Input(why));
        }
        let mut run =
            SequenceRun::new(code, self.algorithm, HeapTable::default())?.tuned(self.tuning);
        if !self.may_fill(code) && !run.uses_rare_values() {
            check_last_heap("heap", self.target(), Reach::BruteForce)?;
        }
        // Probed at most once, and only for a run that does not fit.
        let early = std::cell::LazyCell::new(|| self.period_certified_early(code));
        let early = || *early;
        let place = self.choose_place(&run, &early, hooks)?;
        let (table, appendable) = match &self.resume {
            Some(path) => {
                let loaded = checkpoint::load_in(path, code, &place)?;
                if loaded.torn {
                    hooks.notice(Marked(&format!(
                        "{}: its last piece was cut short when the run was stopped; going on \
                         from heap {}",
                        path.display(),
                        loaded.table.len()
                    )));
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
            self.check_memory(&run, &early, hooks)?;
        }
        // The run's one memory check for its first N (in a file, the table
        // was sized by `choose_place`); a doubled N is checked again.
        run.fits_to(self.target());
        Ok(SequenceDriver {
            run,
            resumed_heaps: resumed.heaps,
            saves: Saves::open(self, &resumed)?,
            job: self.clone(),
        })
    }
}

fn file_failed(e: std::io::Error) -> Error {
    Error::Run(format!("a file for the table could not be made: {e}"))
}

impl SequenceJob {
    /// Where the table's values live: in memory when the run fits the
    /// memory it may use (`memory`, else what is free less an eighth), else
    /// in a memory-mapped file in `folder`. A run that cannot fit either way
    /// is refused, naming what it needs, unless a period is certified
    /// `early` (then `check_memory` says so and it goes on).
    fn choose_place(
        &self,
        run: &SequenceRun,
        early: &dyn Fn() -> bool,
        hooks: &dyn RunHooks,
    ) -> Result<Place> {
        let values = self.target() + 1;
        let (budget, bound) = match (self.memory, memory::default_budget()) {
            (Some(bytes), _) => (bytes, Setting::Memory.is(memory::human(bytes))),
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
        let folder = Place::Folder(self.folder.clone());
        let (paged, disk) = (
            run.memory_needed_at(values, &folder),
            values.saturating_mul(2),
        );
        let what = format!("a table of {values} values");
        let refusal = paging_refusal(&what, paged, disk, &self.folder, budget, &bound);
        match refusal {
            // `check_memory` says what it means for a run a period fills.
            Some(_) if early() => Ok(Place::Memory),
            Some(why) => Err(Error::WontFit(why)),
            None => {
                hooks.notice(Marked(&format!(
                    "{what} needs about {} of memory, more than {bound}: its values go to a file \
                     in {} (up to {} of disk), memory-mapped; about {} stays in memory",
                    memory::human(in_memory),
                    self.folder.display(),
                    memory::human(disk),
                    memory::human(paged)
                )));
                Ok(folder)
            }
        }
    }

    /// Whether a certified period may fill the heaps past a computed part.
    fn may_fill(&self, code: &Code) -> bool {
        self.fill && PeriodRule::for_code(code).theorem_applies
    }

    /// Whether a certified period fills the run's heaps past the first
    /// `FILL_PROBE` (computed here, on the CPU: milliseconds).
    fn period_certified_early(&self, code: &Code) -> bool {
        if !self.may_fill(code) || self.target() <= FILL_PROBE {
            return false;
        }
        let Ok(mut probe) = SequenceRun::new(code, self.algorithm, HeapTable::default()) else {
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
        &self,
        run: &SequenceRun,
        early: &dyn Fn() -> bool,
        hooks: &dyn RunHooks,
    ) -> Result<()> {
        let values = self.target() + 1;
        let what = format!("a table of {values} values");
        let checked = memory::check_fits(&what, run.memory_needed(values));
        match (checked, memory::room()) {
            (Err(_), Some(room)) if early() => {
                hooks.notice(Marked(&format!(
                    "{what} would need about {} of memory; {} {}: going on, since a period is \
                     certified within the first {FILL_PROBE} heaps and fills the rest without \
                     holding them",
                    memory::human(run.memory_needed(values)),
                    memory::human(room.bytes),
                    room.bound
                )));
                Ok(())
            }
            (checked, _) => checked,
        }
    }
}

/// Why `what` cannot keep its values in a file in `dir`: the memory it
/// needs even so (`paged`) past `budget` (named `bound`), the address
/// space a mapping of the file takes under ulimit -v, or the `disk` it
/// needs there.
fn paging_refusal(
    what: &str,
    paged: u64,
    disk: u64,
    dir: &Path,
    budget: u64,
    bound: &str,
) -> Option<String> {
    // The memory setting bounds what grows with the table; the engine's
    // working memory (the rare list, the bitsets: `WORKING`) comes on top.
    if paged > budget + WORKING {
        return Some(format!(
            "{what} needs about {} of memory even with its values in a file, more than {bound} \
             and the engine's {} of working memory; expected {} or more",
            memory::human(paged),
            memory::human(WORKING),
            Setting::Memory.is(memory::human(paged - WORKING))
        ));
    }
    let mapped = paged.saturating_add(disk);
    if let Some(left) = memory::address_space_left().filter(|&left| left < mapped) {
        return Some(format!(
            "{what} needs about {} of address space with its values in a file mapped into it, \
             and {} is left under ulimit -v (RLIMIT_AS); expected a larger ulimit -v, or a \
             memory cgroup (Slurm's memory request) in its place",
            memory::human(mapped),
            memory::human(left)
        ));
    }
    let free = memory::disk_free(dir).filter(|&free| free < disk)?;
    Some(format!(
        "{what} kept in a file needs up to {} of disk in {}, and {} is free there; expected a \
         folder with room ({} or {} names it)",
        memory::human(disk),
        dir.display(),
        memory::human(free),
        Setting::Checkpoint.named(),
        Setting::Out.named()
    ))
}

/// Heaps a run that does not fit computes first, to see whether a period
/// is certified early (then the fill holds the rest without memory).
const FILL_PROBE: u64 = 1 << 16;

impl SequenceDriver<'_> {
    /// Checkpoints saved so far, and the seconds they took.
    pub fn saves(&self) -> (u64, f64) {
        (self.saves.count, self.saves.seconds)
    }

    /// Where checkpoints go, if anywhere.
    pub fn checkpoint(&self) -> Option<&Path> {
        self.saves.path.as_deref()
    }

    /// Computes the run: piece by piece, saving when a checkpoint is due
    /// and once at the end, pausing with the heaps done saved when
    /// `hooks.stop()` says so (an `Error::Interrupted` when a signal
    /// asked), filling from a certified period, doubling N until a period
    /// shows. The computed heaps go to `writer` as each piece is done.
    pub fn compute(
        &mut self,
        backend: &LazyBackend,
        mut writer: Option<&mut SequenceWriter>,
        hooks: &dyn RunHooks,
    ) -> Result<Computed> {
        let computed = self.pieces(backend, &mut writer, hooks)?;
        let code = self.run.code();
        self.saves.save(code, &self.run.table, hooks)?;
        Ok(computed)
    }

    /// The loop of `compute`.
    fn pieces(
        &mut self,
        backend: &LazyBackend,
        writer: &mut Option<&mut SequenceWriter>,
        hooks: &dyn RunHooks,
    ) -> Result<Computed> {
        let code = self.run.code();
        let rule = PeriodRule::for_code(code);
        let fill = self.job.may_fill(code);
        let mut to = self.job.target();
        let mut filled_to = None;
        let period = loop {
            // With fill on, stop at doublings to look for a certificate.
            let piece_to = match fill {
                true => to.min((2 * self.run.table.len() as u64).max(4095)),
                false => to,
            };
            let (done, asked) = self.extend_piece(backend, piece_to, to, hooks)?;
            if interrupt::requested() || asked {
                self.saves.save(code, &self.run.table, hooks)?;
                return Err(self.paused(code));
            }
            if !done {
                self.saves.save(code, &self.run.table, hooks)?;
                continue;
            }
            let period = self.run.table.period(&rule);
            if let Some(p) = period.filter(|p| fill && p.certified && piece_to < to) {
                filled_to = Some(to);
                hooks.notice(Marked(&format!(
                    "{}: period {} from heap {} certified at heap {piece_to}; heaps {}..={to} \
                     filled from it ({} computes them)",
                    code.name(),
                    p.period,
                    p.preperiod,
                    piece_to + 1,
                    Setting::NoFill.named()
                )));
            } else if piece_to < to {
                continue;
            }
            if let Some(w) = writer.as_mut() {
                self.run.table.append_to(w)?;
            }
            match self.job.until_periodic {
                Some(max_n) if period.is_none() && to < max_n => {
                    to = to.saturating_mul(2).max(64).min(max_n)
                }
                Some(max_n) if period.is_none() => {
                    hooks.notice(Marked(&format!(
                        "no period found up to heap {to} (the cap {})",
                        Setting::MaxN.is(max_n)
                    )));
                    break period;
                }
                _ => break period,
            }
        };
        Ok(Computed { period, filled_to })
    }

    /// Why the run stopped early: a signal (said with what the checkpoint
    /// holds), or the caller's `stop`.
    fn paused(&self, code: &Code) -> Error {
        match interrupt::requested() {
            true => self.saves.interrupted(code),
            false => Error::Stopped(match self.saves.heaps {
                0 => format!(
                    "stopped with heaps 0..={} computed",
                    self.run.table.len().saturating_sub(1)
                ),
                _ => format!("stopped: {}", self.saves.holds(code)),
            }),
        }
    }

    /// Extends the run to `piece_to` with progress counted to `to`: whether
    /// it got there (else a checkpoint was due, or the caller asked), and
    /// whether `hooks.stop()` asked. A failure saves the heaps done first.
    fn extend_piece(
        &mut self,
        backend: &LazyBackend,
        piece_to: u64,
        to: u64,
        hooks: &dyn RunHooks,
    ) -> Result<(bool, bool)> {
        let every = self.job.every;
        let checkpoints = self.saves.path.is_some();
        let saves = &self.saves;
        // The caller's answer is kept: its `stop` may say so only once.
        let asked = AtomicBool::new(false);
        let stop = || {
            let caller = hooks.stop();
            asked.fetch_or(caller, Relaxed);
            caller || (checkpoints && saves.last.elapsed() >= every)
        };
        let piece_hooks = StopAlso {
            hooks: &NoStop(hooks),
            also: stop,
        };
        hooks.begin(to + 1, "heaps");
        hooks.progress(self.run.table.len() as u64);
        let tuning = GpuTuning::default();
        let extended = self.run.extend(piece_to, backend, &tuning, &piece_hooks);
        hooks.end();
        let code = self.run.code();
        let done = extended.map_err(|e| self.saves.failed(code, &self.run.table, e, hooks))?;
        Ok((done, asked.into_inner()))
    }
}
