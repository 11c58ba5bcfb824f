//! `Sequence`: one Nim-sequence from a Rust program, as `grundy octal`
//! computes it (rare values, the blocked kernels on the GPU or the CPU, a
//! certified period's fill, checkpoints), returned as a table to read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use grundy_core::analysis::milestones::Milestone;
use grundy_core::analysis::period::{Period, PeriodRule};
use grundy_core::analysis::rare_split::{RareSplit, RareSummary};
use grundy_core::analysis::stats::HeapStats;
use grundy_core::analysis::tally::Tally;
use grundy_core::error::{Error, Result};
use grundy_core::export::{Format, OutputRules};
use grundy_core::game::Code;
use grundy_core::hooks::{RunHooks, Silent};
use grundy_core::interrupt;
use grundy_core::setting::Setting;
use grundy_engine::heap::driver::{Computed, SequenceDriver, SequenceJob};
use grundy_engine::heap::keeping::KeptDriver;
use grundy_engine::heap::kept_checkpoint::KeptSaved;
use grundy_engine::heap::storage::filled::writer_for;

pub use crate::rare_blocks::{RARE_BLOCKS_SCHEMA, RareBlocks};
pub use grundy_engine::heap::rare::kept::Kept;
pub use grundy_engine::heap::rare::{PassAhead, ScheduleClock, Stretches, Tuning};
pub use grundy_engine::heap::sequence::Algorithm;
pub use grundy_engine::heap::storage::filled::Filled;
use grundy_engine::heap::storage::table::{HeapTable, InMemory};
use grundy_engine::{BackendChoice, HeapEngine, LazyBackend, RanOn};

/// A Nim-sequence to compute: a code, how far, and how.
///
/// ```
/// use grundy::Sequence;
///
/// // Dawson's Kayles: period 34, certified by the periodicity theorem.
/// let kayles = Sequence::octal("0.07")?.heaps(500).run()?;
/// assert_eq!(kayles.values(0, 8), [0, 0, 1, 1, 2, 0, 3, 1]);
/// let period = kayles.period().expect("a period");
/// assert_eq!((period.period, period.certified), (34, true));
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Sequence {
    code: Code,
    job: SequenceJob,
    backend: BackendChoice,
    /// Where the table is written as it is computed, and in what format.
    out: Option<(PathBuf, Format)>,
    /// Keep only a prefix and a window of the table (`keep`), and the
    /// heaps whose statistics such a run counts besides the powers of two.
    keep: Option<Kept>,
    stats_at: Vec<u64>,
}

impl Sequence {
    /// The sequence of an octal or take-and-break code in CGSuite's
    /// notation (`0.07`, `4!.0`, `0.[3]`, `0.{2,3}`), to heap 0 until
    /// `heaps` says more.
    pub fn octal(code: &str) -> Result<Sequence> {
        let code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
        Ok(Sequence::of(code))
    }

    /// The sequence of the subtraction game on `set`.
    pub fn subtraction(set: &[u32]) -> Result<Sequence> {
        Ok(Sequence::of(Code::subtraction(set).map_err(Error::Input)?))
    }

    /// The sequence of a parsed code (`Code::with_min_diff` and the rest).
    pub fn of(code: Code) -> Sequence {
        Sequence {
            code,
            job: SequenceJob::new(Algorithm::Auto, 0),
            backend: BackendChoice::Cpu,
            out: None,
            keep: None,
            stats_at: Vec::new(),
        }
    }

    /// How the run spreads its work over the cores and the card (passes
    /// started ahead, blocks finished in stretches): the same table
    /// whatever it says; the default chooses by the figures measured.
    pub fn tuning(mut self, tuning: Tuning) -> Sequence {
        self.job.tuning = tuning;
        self
    }

    /// Keeps only the values of heaps below `prefix` and of the last
    /// `window` heaps, in memory and in checkpoints: runs toward the
    /// records in gigabytes instead of terabytes. Rare values only, on the
    /// CPU, no period's fill. The values go to `stream_to` as they are
    /// computed; the statistics, the rare summary, the period (where its
    /// start lies in the window) and the milestones at every power of two
    /// and at `stats_at` are counted as the run goes. A heap that needs a
    /// value given back is never guessed: with the table streamed as raw
    /// values (`stream_to`, `Format::Raw`) the run reads the heaps back
    /// from that file and keeps more from then on; otherwise it stops
    /// before the heap (`Error::NotKept`), naming the least prefix and
    /// window that would have held that value.
    ///
    /// ```
    /// use grundy::Sequence;
    ///
    /// let whole = Sequence::octal("0.167")?.heaps(100_000).run()?;
    /// let kept = Sequence::octal("0.167")?.heaps(100_000).keep(4096, 4096).run()?;
    /// assert_eq!(kept.stats(), whole.stats());
    /// assert_eq!(kept.get(99_999), whole.get(99_999));
    /// assert_eq!(kept.get(50_000), None); // given back
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn keep(mut self, prefix: usize, window: usize) -> Sequence {
        self.keep = Some(Kept { prefix, window });
        self
    }

    /// Heaps whose milestones a run that keeps part of its table counts,
    /// besides every power of two from 1024 (a whole table's run gives
    /// any heap's afterwards, `SequenceTable::milestones`).
    pub fn stats_at(mut self, heaps: &[u64]) -> Sequence {
        self.stats_at = heaps.to_vec();
        self
    }

    /// Heaps 0..=n.
    pub fn heaps(mut self, n: u64) -> Sequence {
        self.job.n = n;
        self
    }

    /// The same code and heaps under misère play (the last player to
    /// move loses): each heap's misère value, outcome and genus
    /// (`MisereSequence`, on the same backend; the other settings are
    /// normal play's engines').
    pub fn misere(self) -> crate::misere::MisereSequence {
        crate::misere::MisereSequence::of(self.code)
            .heaps(self.job.n)
            .backend(self.backend)
    }

    /// Doubles N from the `heaps` given until a period is found, up to
    /// heap `max_n`.
    pub fn until_periodic(mut self, max_n: u64) -> Sequence {
        self.job.until_periodic = Some(max_n);
        self
    }

    /// Rare values, the brute force, or whichever pays (the default).
    pub fn algorithm(mut self, algorithm: Algorithm) -> Sequence {
        self.job.algorithm = algorithm;
        self
    }

    /// Where the brute force runs: the CPU (the default here), a GPU, or
    /// a real GPU when there is one (`Auto`, the command line's default).
    pub fn backend(mut self, backend: BackendChoice) -> Sequence {
        self.backend = backend;
        self
    }

    /// Whether heaps past a certified period are filled from it (the
    /// default) or computed.
    pub fn fill(mut self, fill: bool) -> Sequence {
        self.job.fill = fill;
        self
    }

    /// Saves a checkpoint to `path` every `every` (appended: each save
    /// writes only the heaps new since the last).
    pub fn checkpoint(mut self, path: impl Into<PathBuf>, every: Duration) -> Sequence {
        self.job.checkpoint = Some(path.into());
        self.job.every = every;
        self
    }

    /// What the checkpoint may replace (a read-only file) and whether its
    /// missing folders are made (default: neither).
    pub fn output_rules(mut self, rules: OutputRules) -> Sequence {
        self.job.rules = rules;
        self
    }

    /// Goes on from the checkpoint at `path` (and saves to it, unless
    /// `checkpoint` names another file).
    pub fn resume(mut self, path: impl Into<PathBuf>) -> Sequence {
        self.job.resume = Some(path.into());
        self
    }

    /// The memory the table may take, in bytes; past it the values go to
    /// a memory-mapped file in `folder`. Default: what is free less an
    /// eighth.
    pub fn memory(mut self, bytes: u64) -> Sequence {
        self.job.memory = Some(bytes);
        self
    }

    /// Where a table too large for memory keeps its values (default: the
    /// current folder).
    pub fn folder(mut self, folder: impl Into<PathBuf>) -> Sequence {
        self.job.folder = folder.into();
        self
    }

    /// Writes the table to `path` (`-`: stdout) in `format` while it is
    /// computed, each heap as soon as it is final (to a temporary name,
    /// renamed when complete), as `grundy octal --out` does. NumPy's format
    /// names its type in its header: write it from the table at the end.
    pub fn stream_to(mut self, path: impl Into<PathBuf>, format: Format) -> Sequence {
        self.out = Some((path.into(), format));
        self
    }

    /// The code being computed.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// Computes the table, telling no one.
    pub fn run(&self) -> Result<SequenceTable> {
        self.run_with(&Silent)
    }

    /// Computes the table, telling `hooks` of notices, progress and saves,
    /// and stopping (`Error::Stopped`, the heaps done saved to the
    /// checkpoint) when `hooks.stop()` says so.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<SequenceTable> {
        self.job.check()?;
        if let Some((_, Format::Npy)) = self.out {
            return Err(npy_refused());
        }
        if let Some(kept) = self.keep {
            return self.run_kept(kept, hooks);
        }
        let mut driver = self.job.start(&self.code, hooks)?;
        let backend = LazyBackend::new(self.backend, hooks)?;
        let mut writer = match &self.out {
            Some((path, format)) => {
                let count = self.job.n + 1;
                Some(writer_for(
                    path,
                    self.job.rules,
                    *format,
                    &self.code,
                    count,
                )?)
            }
            None => None,
        };
        let computed = {
            // A signal asks a run with a checkpoint to save and stop.
            let _listening = driver
                .checkpoint()
                .is_some()
                .then(interrupt::Listening::start);
            driver.compute(&backend, writer.as_mut(), hooks)?
        };
        if let Some(mut w) = writer {
            computed.sequence(&driver.run.table).append_to(&mut w)?;
            w.finish()?;
        }
        Ok(SequenceTable::of(
            self.code.clone(),
            driver,
            &backend,
            computed,
        ))
    }
}

impl Sequence {
    /// `run_with` for a run keeping only `kept` of its table.
    fn run_kept(&self, kept: Kept, hooks: &dyn RunHooks) -> Result<SequenceTable> {
        if self.backend == BackendChoice::Gpu {
            return Err(Error::Input(format!(
                "{} with {}: the rare values' pass of a run keeping part of its table runs on \
                 the CPU (the card's reads the whole table); expected {} or {}",
                Setting::Backend.is("gpu"),
                Setting::KeepPrefix.named(),
                Setting::Backend.is("cpu"),
                Setting::Backend.is("auto")
            )));
        }
        if let (Some(path), Some(_)) = (&self.job.resume, &self.out) {
            return Err(Error::Input(format!(
                "{} with {}: the heaps before the checkpoint's end were not kept, so the table \
                 cannot be written whole; expected a resume without it (the statistics go on)",
                Setting::Resume.is(path.display()),
                Setting::Out.named()
            )));
        }
        let mut driver = self.job.start_kept(&self.code, kept, &self.stats_at)?;
        let mut writer = match &self.out {
            Some((path, format)) => Some(writer_for(
                path,
                self.job.rules,
                *format,
                &self.code,
                self.job.n + 1,
            )?),
            None => None,
        };
        {
            let _listening = driver
                .checkpoint()
                .is_some()
                .then(interrupt::Listening::start);
            driver.compute(writer.as_mut(), hooks)?;
        }
        if let Some(w) = writer {
            w.finish()?;
        }
        Ok(SequenceTable::of_kept(self.code.clone(), driver))
    }
}

/// A computed Nim-sequence: its values (those filled from a certified
/// period generated as they are read), its period, its rare values, and
/// where and how it was computed.
pub struct SequenceTable {
    code: Code,
    table: HeapTable,
    computed: Computed,
    parity: Option<u32>,
    ran: RanOn,
    engine: HeapEngine,
    seconds: f64,
    saves: Saves,
    rare_blocks: Option<RareBlocks>,
    /// For a run that kept only a prefix and a window: what it kept, and
    /// the statistics it counted of every heap.
    kept: Option<(Kept, Tally)>,
}

/// A run's checkpoint: the heaps it was resumed with, where it saved, and
/// how often and for how long.
#[derive(Clone, Debug, Default)]
pub struct Saves {
    /// Heaps loaded from the checkpoint resumed (0 for a fresh run).
    pub resumed_heaps: u64,
    /// Where it saved (none: no checkpoint).
    pub checkpoint: Option<PathBuf>,
    /// Saves made, and the seconds they took (apart from the computing).
    pub count: u64,
    /// Seconds the saves took.
    pub seconds: f64,
}

impl Saves {
    /// A run's saves: the heaps it resumed with, its file, and the saves
    /// made and the seconds they took.
    fn of(resumed_heaps: u64, checkpoint: Option<&Path>, (count, seconds): (u64, f64)) -> Saves {
        Saves {
            resumed_heaps,
            checkpoint: checkpoint.map(Path::to_path_buf),
            count,
            seconds,
        }
    }
}

impl SequenceTable {
    /// The table a driver computed.
    fn of(
        code: Code,
        mut driver: SequenceDriver,
        backend: &LazyBackend,
        computed: Computed,
    ) -> SequenceTable {
        let saves = Saves::of(driver.resumed_heaps, driver.checkpoint(), driver.saves());
        let run = &mut driver.run;
        SequenceTable {
            ran: backend
                .opened()
                .map_or(RanOn::cpu(), |b| b.ran_on(run.ran_on)),
            engine: run.engine,
            seconds: run.seconds,
            parity: run.parity(),
            rare_blocks: run
                .rare_counts()
                .map(|c| RareBlocks::of(&c, run.looked_back)),
            table: std::mem::take(&mut run.table),
            computed,
            code,
            saves,
            kept: None,
        }
    }

    /// The table a run that kept only part of it computed.
    fn of_kept(code: Code, mut driver: KeptDriver) -> SequenceTable {
        let saves = Saves::of(driver.resumed_heaps, driver.checkpoint(), driver.saves());
        let period = driver.period();
        let run = &mut driver.run;
        SequenceTable {
            ran: RanOn::cpu(),
            engine: run.engine,
            seconds: run.seconds,
            parity: run.parity(),
            rare_blocks: run
                .rare_counts()
                .map(|c| RareBlocks::of(&c, run.looked_back)),
            table: std::mem::take(&mut run.table),
            computed: Computed {
                period,
                filled_to: None,
            },
            code,
            saves,
            kept: Some((driver.kept(), std::mem::take(&mut driver.tally))),
        }
    }
    /// The table a checkpoint of `code` holds, as a run resumed from it
    /// and stopped at once would give it (its period looked for, nothing
    /// computed): the heaps a stopped run reached, read back.
    pub fn from_checkpoint(path: &Path, code: &Code) -> Result<SequenceTable> {
        if grundy_engine::heap::kept_checkpoint::is_kept(path) {
            return SequenceTable::from_kept_checkpoint(path, code);
        }
        let table = grundy_engine::heap::checkpoint::load(path, code)?.table;
        let period = table.period(&PeriodRule::for_code(code));
        Ok(SequenceTable {
            code: code.clone(),
            computed: Computed {
                period,
                filled_to: None,
            },
            parity: grundy_core::kernel::rare::rare_parity(code),
            ran: RanOn::cpu(),
            engine: HeapEngine::Rare,
            seconds: 0.0,
            table,
            saves: Saves::default(),
            rare_blocks: None,
            kept: None,
        })
    }

    /// `from_checkpoint` for a checkpoint of a run that kept part of its
    /// table: what it kept, and the statistics of every heap.
    fn from_kept_checkpoint(path: &Path, code: &Code) -> Result<SequenceTable> {
        let (kept, _) = grundy_engine::heap::kept_checkpoint::header(path, code)?;
        let mut job = SequenceJob::new(Algorithm::Auto, 0);
        job.resume = Some(path.to_path_buf());
        let driver = job.start_kept(code, kept, &[])?;
        Ok(SequenceTable::of_kept(code.clone(), driver))
    }

    /// The values as the engine reads them: those computed, then those
    /// filled from the certified period.
    ///
    /// # Panics
    /// For a table that kept only a prefix and a window (`Sequence::keep`):
    /// it has no whole sequence to read (`get` reads what it kept).
    pub fn filled(&self) -> Filled<'_> {
        assert!(self.kept.is_none(), "{}", NOT_WHOLE);
        self.computed.sequence(&self.table)
    }

    /// What a run that kept only part of its table kept (none: all of it).
    pub fn kept(&self) -> Option<Kept> {
        self.kept.as_ref().map(|(kept, _)| *kept)
    }

    /// For a table that kept only a prefix and a window: the window's first
    /// heap (past the prefix; the table's end while the prefix holds all).
    pub fn window_from(&self) -> Option<u64> {
        let (kept, _) = self.kept.as_ref()?;
        Some(KeptSaved::window_from(*kept, self.table.len() as u64))
    }

    /// Whether heap n's value was kept.
    fn holds(&self, n: u64) -> bool {
        match (&self.kept, self.window_from()) {
            (Some((kept, _)), Some(from)) => n < kept.prefix as u64 || n >= from,
            _ => true,
        }
    }

    /// The run's checkpoint: heaps resumed, where it saved, saves made.
    pub fn saves(&self) -> &Saves {
        &self.saves
    }

    /// How the rare values' blocks went (none for the other engines).
    pub fn rare_blocks(&self) -> Option<RareBlocks> {
        self.rare_blocks
    }

    /// Bytes per value the table held in memory.
    pub fn bytes_per_value(&self) -> u64 {
        self.table.bytes_per_value()
    }

    /// The code computed.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// Heaps in the table (heap 0 included): the last heap is `len() - 1`.
    pub fn len(&self) -> u64 {
        match self.kept {
            Some(_) => self.table.len() as u64,
            None => self.filled().len(),
        }
    }

    /// Whether the table holds no heap (heaps were never asked for).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(n), or none past the table (or between the prefix and the window
    /// of a table that kept only those).
    pub fn get(&self, n: u64) -> Option<u16> {
        match self.kept {
            Some(_) => (n < self.len() && self.holds(n)).then(|| self.table.get(n as usize)),
            None => (n < self.len()).then(|| self.filled().get(n)),
        }
    }

    /// G(a..b), `b` cut to the table's end.
    ///
    /// # Panics
    /// Where a table that kept only a prefix and a window did not keep a
    /// heap of a..b.
    pub fn values(&self, a: u64, b: u64) -> Vec<u16> {
        let b = b.min(self.len());
        if a >= b {
            return Vec::new();
        }
        match self.kept {
            Some(_) => {
                assert!((a..b).all(|n| self.holds(n)), "heaps {a}..{b}: {NOT_WHOLE}");
                self.table.values(a as usize, b as usize)
            }
            None => self.filled().values(a, b),
        }
    }

    /// The period of the table's end (none found: none), certified when
    /// the periodicity theorem covers the code and the table is long
    /// enough.
    pub fn period(&self) -> Option<Period> {
        self.computed.period
    }

    /// The values the theorem needs to certify `period`.
    pub fn values_needed(&self, period: &Period) -> u64 {
        PeriodRule::for_code(&self.code).values_needed(period.period, period.preperiod)
    }

    /// The first heap filled from the certified period (none: every heap
    /// computed).
    pub fn filled_from(&self) -> Option<u64> {
        match self.kept {
            Some(_) => None,
            None => self.filled().filled_from(),
        }
    }

    /// The best rare/common split of the whole table and its rare heaps.
    pub fn rare(&self) -> (RareSplit, RareSummary) {
        match &self.kept {
            Some((_, tally)) => tally.rare(),
            None => self.filled().rare_summary(self.parity),
        }
    }

    /// The largest value, the P-positions and the first heap of each value.
    pub fn stats(&self) -> HeapStats {
        match &self.kept {
            Some((_, tally)) => tally.stats(),
            None => self.filled().stats(),
        }
    }

    /// The statistics at each heap of `at` in the table, as a run to
    /// exactly that heap reports them: the frequency of every value, the
    /// largest and where, the P-positions, the rare split and its heaps.
    /// `powers_of_two(from, len() - 1)` gives the usual milestones.
    ///
    /// ```
    /// use grundy::{Sequence, powers_of_two};
    ///
    /// let officers = Sequence::octal("0.6")?.heaps(5000).run()?;
    /// let at = officers.milestones(&powers_of_two(1024, 5000));
    /// assert_eq!(at.iter().map(|m| m.n).collect::<Vec<_>>(), [1024, 2048, 4096]);
    /// let cut = Sequence::octal("0.6")?.heaps(2048).run()?;
    /// assert_eq!(at[1].rare_mask, cut.rare().1.rare_mask);
    /// assert_eq!(at[1].frequencies.iter().sum::<u64>(), 2049);
    /// # Ok::<(), grundy::Error>(())
    /// ```
    ///
    /// A table that kept only a prefix and a window gives those of `at` it
    /// counted as it went: every power of two from 1024, the heaps
    /// `Sequence::stats_at` named, and its last heap.
    pub fn milestones(&self, at: &[u64]) -> Vec<Milestone> {
        match &self.kept {
            Some((_, tally)) => {
                let made = tally.milestones().iter();
                let mut made: Vec<Milestone> =
                    made.filter(|m| at.contains(&m.n)).cloned().collect();
                let last = tally.heaps().checked_sub(1);
                let missing = |n| made.last().is_none_or(|m: &Milestone| m.n != n);
                if last.is_some_and(|n| at.contains(&n) && missing(n)) {
                    made.push(tally.milestone());
                }
                made
            }
            None => self.filled().milestones(self.parity, at),
        }
    }

    /// The heap parity the rare split may flip on (`Some(t)` for codes
    /// whose rare values the `p0`/`p1` masks describe), as `milestones` of
    /// a table's values take it.
    pub fn rare_parity(&self) -> Option<u32> {
        self.parity
    }

    /// Where the last values were computed (the backend, the GPU's name
    /// and what was asked of it).
    pub fn ran_on(&self) -> &RanOn {
        &self.ran
    }

    /// The engine that computed the last values.
    pub fn engine(&self) -> HeapEngine {
        self.engine
    }

    /// Seconds spent computing (checkpoints apart).
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Every value as one array, taking the table apart: one byte a value
    /// when the table holds them so, else two. Values computed and kept in
    /// memory are handed over as they are, without a copy; those filled from
    /// the certified period, kept in a file or stored apart are generated
    /// into the array.
    ///
    /// # Panics
    /// For a table that kept only a prefix and a window.
    pub fn into_values(mut self) -> Values {
        assert!(self.kept.is_none(), "{}", NOT_WHOLE);
        let len = self.len();
        if self.filled_from().is_none() && self.table.len() as u64 == len {
            match self.table.into_memory() {
                InMemory::Bytes(values) => return Values::Bytes(values),
                InMemory::Words(values) => return Values::Words(values),
                InMemory::Elsewhere(table) => self.table = *table,
            }
        }
        let values = self.values(0, len);
        match values.iter().all(|&v| v <= u8::MAX as u16) {
            true => Values::Bytes(values.into_iter().map(|v| v as u8).collect()),
            false => Values::Words(values),
        }
    }

    /// Writes the table to `path` (`-`: stdout) in `format` (not NumPy's,
    /// which `grundy octal --format npy` writes), as `grundy octal --out`
    /// does: to a temporary name, renamed when complete. A read-only file
    /// or a missing folder is refused (`write_under` allows them).
    pub fn write(&self, path: &Path, format: Format) -> Result<()> {
        self.write_under(path, format, OutputRules::default())
    }

    /// `write`, replacing what `rules` allow and making the folders they ask for.
    pub fn write_under(&self, path: &Path, format: Format, rules: OutputRules) -> Result<()> {
        if format == Format::Npy {
            return Err(npy_refused());
        }
        if self.kept.is_some() {
            return Err(Error::Input(format!(
                "{NOT_WHOLE}; expected the table streamed out as it was computed ({})",
                Setting::Out.named()
            )));
        }
        let mut w = writer_for(path, rules, format, &self.code, self.len())?;
        self.filled().append_to(&mut w)?;
        w.finish()
    }
}

/// What a table that kept only a prefix and a window cannot give.
const NOT_WHOLE: &str = "the run kept only a prefix and a window of the table \
                         (Sequence::keep), not the heaps between";

/// NumPy's format names its type in its header: written from a whole table.
fn npy_refused() -> Error {
    Error::Input(
        "format npy: expected csv, bfile, digits, raw, latex or cgsuite here (`grundy octal \
         --format npy` writes NumPy files)"
            .into(),
    )
}

/// A whole table's values (`SequenceTable::into_values`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Values {
    /// Every value is below 256.
    Bytes(Vec<u8>),
    /// Some value passes 255.
    Words(Vec<u16>),
}
