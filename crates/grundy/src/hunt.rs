//! `Hunt`: codes pushed as far as a time budget allows, as researchers hunt
//! periods in unsolved games. Each code doubles N (from `start`) until its
//! period is certified, N passes `max_n`, or its budget is spent; its run
//! checkpoints into the hunt's folder, so a later hunt with a larger budget
//! (here or on another machine, given the folder) goes on where it stopped.
//!
//! The folder holds, per code, its checkpoint (`NAME.ckpt`), its row
//! (`NAME.row`: `CRC32 JSON`, what the hunt found and the seconds spent so
//! far) and its frequency file at every power of two (`NAME.freq`). Past
//! `keep_past` heaps a code whose runs take rare values keeps only a prefix
//! and a window of its table (`Sequence::keep`), so its checkpoint stops
//! growing with N.

use grundy_core::setting::{Marked, Setting, seconds};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::sequence::{Sequence, SequenceTable};
use grundy_core::analysis::milestones::{FIRST_POWER, Milestone, powers_of_two};
use grundy_core::error::{Error, Result};
use grundy_core::export::{self, AtomicFile, OutputRules};
use grundy_core::game::Code;
use grundy_core::hooks::{RunHooks, StopAlso};
use grundy_engine::heap::rare::kept::Kept;
use grundy_engine::heap::sequence::Algorithm;
use grundy_engine::heap::{keeping, kept_checkpoint};
use grundy_engine::survey::{PROBE_HEAPS, Shard, balanced_shards, checkpoint, estimated_costs};
use grundy_engine::{BackendChoice, HeapEngine};

/// The published list of unsolved octal games: Grundy's game (`4!.0`) and
/// 82 codes, as T. Czajka's `octal-games` tables list them (after A.
/// Flammenkamp's "Sprague-Grundy values of octal games").
pub const UNSOLVED: [&str; 83] = [
    "4!.0", "0.6", "0.04", "0.06", "0.14", "0.36", "0.64", "0.74", "0.76", "0.004", "0.005",
    "0.006", "0.014", "0.015", "0.016", "0.024", "0.026", "0.034", "0.054", "0.064", "0.104",
    "0.106", "0.114", "0.125", "0.126", "0.135", "0.136", "0.142", "0.143", "0.146", "0.161",
    "0.162", "0.163", "0.164", "0.166", "0.167", "0.172", "0.174", "0.204", "0.205", "0.206",
    "0.207", "0.224", "0.244", "0.245", "0.264", "0.314", "0.324", "0.334", "0.336", "0.342",
    "0.344", "0.346", "0.362", "0.364", "0.366", "0.371", "0.374", "0.404", "0.414", "0.416",
    "0.444", "0.454", "0.564", "0.604", "0.606", "0.744", "0.764", "0.774", "0.776", "4.004",
    "4.007", "4.026", "4.044", "4.045", "4.064", "4.324", "4.327", "4.344", "4.364", "4.367",
    "4.404", "4.406",
];

/// Why a code's hunt ended where it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HuntEnd {
    /// Its period is certified (the heaps after filled from it).
    Solved,
    /// Its budget is spent.
    Budget,
    /// N passed the hunt's largest.
    MaxN,
    /// The caller stopped the hunt (a signal, Ctrl-C).
    Stopped,
    /// A heap needed a value the kept prefix and window did not hold (the
    /// notice said which sizes would have); the hunt goes on with the
    /// other codes and leaves this one, whose files must be deleted to
    /// hunt it again.
    NotKept,
}

impl HuntEnd {
    /// The name rows give it (`solved`, `budget`, `max-n`, `stopped`).
    pub fn as_str(self) -> &'static str {
        match self {
            HuntEnd::Solved => "solved",
            HuntEnd::Budget => "budget",
            HuntEnd::MaxN => "max-n",
            HuntEnd::Stopped => "stopped",
            HuntEnd::NotKept => "not-kept",
        }
    }
}

/// What the hunt found for one code, at the last heap it reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HuntRow {
    /// The code, as CGSuite writes it.
    pub code: String,
    /// Why the hunt of this code ended where it did.
    pub end: HuntEnd,
    /// The engine of the last stage (`HeapEngine::describe`).
    pub engine: String,
    /// The statistics at the last heap reached (`at.n`): the same figures
    /// as the frequency file's last milestone.
    #[serde(flatten)]
    pub at: Milestone,
    /// The period found at the last heap (none: none found).
    pub period: Option<u64>,
    /// The first heap of the periodic part.
    pub preperiod: Option<u64>,
    /// Whether the periodicity theorem certifies the period.
    pub certified: bool,
    /// Seconds spent on this code by every hunt in the folder.
    pub seconds: f64,
    /// Heaps taken from the folder's checkpoint by this hunt.
    pub resumed_heaps: u64,
}

/// A hunt: its codes, folder, budget and how far each may go.
#[derive(Clone, Debug)]
pub struct Hunt {
    dir: PathBuf,
    budget: Duration,
    start: u64,
    max_n: u64,
    backend: BackendChoice,
    algorithm: Algorithm,
    keep: Option<Kept>,
    keep_past: u64,
}

/// The least a hunt's codes keep past `KEEP_PAST` heaps: a prefix and a
/// window of 2^22 heaps each (16 MiB of checkpoint, two bytes a value),
/// the window widened to twice a code's last rare heap (Grundy's game has
/// rare heaps to 48,399,022, so it keeps a window of 2^27 from 2^30 on).
pub const KEEP: Kept = Kept {
    prefix: 1 << 22,
    window: 1 << 22,
};

/// The largest N a hunt's codes keep their whole table to (a checkpoint of
/// at most 128 MiB).
pub const KEEP_PAST: u64 = 1 << 26;

/// A checkpoint is saved at least this often (a killed hunt loses less).
const SAVE_EVERY: Duration = Duration::from_secs(60);

impl Hunt {
    /// A hunt keeping its state in `dir` (created if missing), each code
    /// given `budget` in all, from N = 1024 to at most 2^32, on the CPU,
    /// keeping `KEEP` of the tables past `KEEP_PAST` heaps.
    pub fn of(dir: impl Into<PathBuf>, budget: Duration) -> Hunt {
        Hunt {
            dir: dir.into(),
            budget,
            start: FIRST_POWER,
            max_n: 1 << 32,
            backend: BackendChoice::Cpu,
            algorithm: Algorithm::Auto,
            keep: Some(KEEP),
            keep_past: KEEP_PAST,
        }
    }

    /// The name `Hunt::of` had in 0.1.
    #[deprecated(since = "0.2.0", note = "renamed `Hunt::of`")]
    pub fn new(dir: impl Into<PathBuf>, budget: Duration) -> Hunt {
        Hunt::of(dir, budget)
    }

    /// Runs to more than `past` heaps keep only a prefix and a window of
    /// their table, at least `kept` (none: the whole table), for codes whose
    /// runs took rare values and with the rare values' pass on the CPU: the
    /// window at least twice the code's last rare heap, and only where the
    /// two hold at most a quarter of the heaps. A code whose checkpoint kept
    /// part of its table goes on keeping the same.
    pub fn keep(mut self, kept: Option<Kept>, past: u64) -> Hunt {
        (self.keep, self.keep_past) = (kept, past);
        self
    }

    /// The first N (then doubled).
    pub fn start(mut self, n: u64) -> Hunt {
        self.start = n.max(1);
        self
    }

    /// The largest N a code is taken to.
    pub fn max_n(mut self, n: u64) -> Hunt {
        self.max_n = n;
        self
    }

    /// Where the brute force runs (rare values stay on the CPU under `Auto`).
    pub fn backend(mut self, backend: BackendChoice) -> Hunt {
        self.backend = backend;
        self
    }

    /// Rare values where they pay (`Auto`), always, or never.
    pub fn algorithm(mut self, algorithm: Algorithm) -> Hunt {
        self.algorithm = algorithm;
        self
    }

    /// The folder's files of `code`.
    pub fn files(&self, code: &Code) -> HuntFiles {
        let stem = file_stem(code);
        let at = |ext: &str| self.dir.join(format!("{stem}.{ext}"));
        HuntFiles {
            checkpoint: at("ckpt"),
            row: at("row"),
            frequencies: at("freq"),
        }
    }

    /// Hunts `code` for what is left of its budget and saves its row: the
    /// row a former hunt saved when the code is solved or its budget spent.
    pub fn run_code(&self, code: &Code, hooks: &dyn RunHooks) -> Result<HuntRow> {
        seconds(Setting::Budget, self.budget.as_secs_f64()).map_err(Error::Input)?;
        if let Some(kept) = self.keep {
            keeping::check_sizes(kept)?;
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| Error::Input(format!("{}: {e}", self.dir.display())))?;
        let files = self.files(code);
        let before = load_row(&files.row, code)?;
        let spent = before.as_ref().map_or(0.0, |row| row.seconds);
        let before_engine = before.as_ref().map(|row| row.engine.clone());
        let last = before
            .as_ref()
            .map_or(LastStage::default(), LastStage::of_row);
        if let Some(row) = before.filter(|row| self.is_done(row)) {
            return Ok(row);
        }
        let left = self.budget.saturating_sub(Duration::from_secs_f64(spent));
        let started = Instant::now();
        let resumed = resumable_heaps(&files.checkpoint, code)?;
        let deadline = started + left;
        let (table, end, engine) = self.double(code, &files, (resumed, deadline, last), hooks)?;
        // Every power of two, then the last heap: the row's own figures.
        let mut milestones = table.milestones(&milestone_heaps(table.len() - 1));
        export::write_to(&files.frequencies, OutputRules::default(), |w| {
            grundy_core::analysis::milestones::write_frequencies(w, &code.name(), &milestones)
        })?;
        let at = milestones.pop().expect("the last heap is a milestone");
        let mut row = row_of(&table, at, end, spent + started.elapsed().as_secs_f64());
        row.resumed_heaps = resumed;
        row.engine = match (end, engine, &before_engine) {
            (HuntEnd::Budget | HuntEnd::Stopped, Some(engine), _) => engine.describe().into(),
            (HuntEnd::Budget | HuntEnd::Stopped, None, Some(engine)) => engine.clone(),
            _ => row.engine,
        };
        save_checked(&files.row, &row)?;
        Ok(row)
    }

    /// Hunts `codes` in turn, telling `each` every row as it is saved; a
    /// hunt the caller stops ends after the code in flight, its row (ended
    /// `Stopped`) the last.
    pub fn run_codes(
        &self,
        codes: &[Code],
        hooks: &dyn RunHooks,
        each: &mut dyn FnMut(&HuntRow),
    ) -> Result<Vec<HuntRow>> {
        let mut rows = Vec::with_capacity(codes.len());
        for code in codes {
            let row = self.run_code(code, hooks)?;
            each(&row);
            let stopped = row.end == HuntEnd::Stopped;
            rows.push(row);
            if stopped {
                break;
            }
        }
        Ok(rows)
    }

    /// Whether a saved row leaves nothing to do.
    fn is_done(&self, row: &HuntRow) -> bool {
        row.certified
            || row.end == HuntEnd::NotKept
            || row.seconds >= self.budget.as_secs_f64()
            || row.at.n >= self.max_n
    }

    /// Runs `code`, whose checkpoint holds `done` heaps (`last` says how
    /// its last stage went), to doubling N until solved, `max_n` or
    /// `deadline`: the table reached, why it ended there, and the engine
    /// of the last stage this hunt finished (none: no stage finished).
    fn double(
        &self,
        code: &Code,
        files: &HuntFiles,
        (done, deadline, mut last): (u64, Instant, LastStage),
        hooks: &dyn RunHooks,
    ) -> Result<(SequenceTable, HuntEnd, Option<HeapEngine>)> {
        let once = OnceEach {
            hooks,
            said: Default::default(),
        };
        let stop = StopAlso {
            hooks: &once,
            also: || Instant::now() >= deadline,
        };
        let mut target = self.start.min(self.max_n);
        while target < done && target < self.max_n {
            target = target.saturating_mul(2).min(self.max_n);
        }
        let mut engine = None;
        loop {
            match self.sequence(code, files, (target, last))?.run_with(&stop) {
                Ok(table) if table.period().is_some_and(|p| p.certified) => {
                    return Ok((table, HuntEnd::Solved, engine));
                }
                Ok(table) if target >= self.max_n => return Ok((table, HuntEnd::MaxN, engine)),
                Ok(table) => {
                    engine = Some(table.engine());
                    last = LastStage::of_table(&table);
                    target = target.saturating_mul(2).min(self.max_n);
                }
                // The heaps before are saved; the hunt goes on without it.
                Err(e @ Error::NotKept(_)) if files.checkpoint.exists() => {
                    let again = "delete its files in the hunt's folder to hunt it again";
                    hooks.notice(Marked(&format!(
                        "{}: {}; {again}",
                        code.name(),
                        e.message()
                    )));
                    let table = SequenceTable::from_checkpoint(&files.checkpoint, code)?;
                    return Ok((table, HuntEnd::NotKept, engine));
                }
                // A signal's stop is its own error; either way the
                // checkpoint holds the heaps reached.
                Err(Error::Stopped(_)) if !hooks.stop() => {
                    let table = SequenceTable::from_checkpoint(&files.checkpoint, code)?;
                    return Ok((table, HuntEnd::Budget, engine));
                }
                Err(_) if hooks.stop() && files.checkpoint.exists() => {
                    let table = SequenceTable::from_checkpoint(&files.checkpoint, code)?;
                    return Ok((table, HuntEnd::Stopped, engine));
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The run of `code` to heap `n`, from the folder's checkpoint if any,
    /// keeping part of its table where `kept_for` says.
    fn sequence(
        &self,
        code: &Code,
        files: &HuntFiles,
        (n, last): (u64, LastStage),
    ) -> Result<Sequence> {
        let mut sequence = Sequence::of(code.clone())
            .heaps(n)
            .algorithm(self.algorithm)
            .backend(self.backend)
            .checkpoint(&files.checkpoint, SAVE_EVERY)
            .folder(&self.dir);
        if let Some(kept) = self.kept_for(code, &files.checkpoint, (n, last))? {
            sequence = sequence.keep(kept.prefix, kept.window);
        }
        Ok(match files.checkpoint.exists() {
            true => sequence.resume(&files.checkpoint),
            false => sequence,
        })
    }

    /// What a run of `code` to heap `n` keeps: what its checkpoint kept;
    /// else, past `keep_past` heaps, when the last stage took rare values
    /// and their pass runs on the CPU (a card's pass reads the whole
    /// table), `keep` with a window at least twice the last rare heap (its
    /// partners are read near every heap) where that holds at most a
    /// quarter of the heaps; else the whole table.
    fn kept_for(
        &self,
        code: &Code,
        checkpoint: &Path,
        (n, last): (u64, LastStage),
    ) -> Result<Option<Kept>> {
        if kept_checkpoint::is_kept(checkpoint) {
            return Ok(Some(kept_checkpoint::header(checkpoint, code)?.0));
        }
        let cpu = self.backend != BackendChoice::Gpu;
        let may = n > self.keep_past && last.rare && cpu && self.algorithm != Algorithm::Naive;
        let Some(keep) = self.keep.filter(|_| may) else {
            return Ok(None);
        };
        let partners = last.last_rare.map_or(0, |r| (2 * r).next_power_of_two());
        let kept = Kept {
            prefix: keep.prefix,
            window: keep
                .window
                .max(usize::try_from(partners).unwrap_or(usize::MAX)),
        };
        let pays = 4 * (kept.prefix as u64).saturating_add(kept.window as u64) <= n;
        Ok(pays.then_some(kept))
    }
}

/// What the hunt knows of a code's last stage: whether it took rare
/// values, and its last rare heap.
#[derive(Clone, Copy, Debug, Default)]
struct LastStage {
    rare: bool,
    last_rare: Option<u64>,
}

impl LastStage {
    /// As the row a former hunt saved says.
    fn of_row(row: &HuntRow) -> LastStage {
        LastStage {
            rare: row.engine == HeapEngine::Rare.describe(),
            last_rare: row.at.last_rare,
        }
    }

    /// As the stage's table says.
    fn of_table(table: &SequenceTable) -> LastStage {
        let rare = table.engine() == HeapEngine::Rare;
        LastStage {
            rare,
            last_rare: rare.then(|| table.rare().1.last_rare).flatten(),
        }
    }
}

/// `hooks` told each notice once: a code's stages repeat the same ones
/// (the GPU not taken, a table kept in a file).
struct OnceEach<'a> {
    hooks: &'a dyn RunHooks,
    said: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl RunHooks for OnceEach<'_> {
    fn notice(&self, message: Marked<'_>) {
        let new = self
            .said
            .lock()
            .is_ok_and(|mut said| said.insert(message.0.to_owned()));
        if new {
            self.hooks.notice(message);
        }
    }
    fn begin(&self, units: u64, unit: &str) {
        self.hooks.begin(units, unit);
    }
    fn progress(&self, done: u64) {
        self.hooks.progress(done);
    }
    fn end(&self) {
        self.hooks.end();
    }
    fn saved(&self, holds: &str) {
        self.hooks.saved(holds);
    }
    fn stop(&self) -> bool {
        self.hooks.stop()
    }
    fn cancelled(&self) -> bool {
        self.hooks.cancelled()
    }
}

/// The files a hunt keeps of one code.
#[derive(Clone, Debug)]
pub struct HuntFiles {
    /// `NAME.ckpt`: the run's checkpoint (a whole table's, or past
    /// `keep_past` what a kept run keeps).
    pub checkpoint: PathBuf,
    /// `NAME.row`: `CRC32 JSON`, the row and the seconds spent so far.
    pub row: PathBuf,
    /// `NAME.freq`: the frequencies at every power of two.
    pub frequencies: PathBuf,
}

/// Heaps a checkpoint holds (0: none yet).
fn resumable_heaps(path: &Path, code: &Code) -> Result<u64> {
    if !path.exists() {
        return Ok(0);
    }
    if kept_checkpoint::is_kept(path) {
        return Ok(kept_checkpoint::header(path, code)?.1);
    }
    let loaded = grundy_engine::heap::checkpoint::load(path, code)?;
    Ok(loaded.table.len() as u64)
}

/// Every power of two from 1024 to `last`, and `last`.
fn milestone_heaps(last: u64) -> Vec<u64> {
    let mut at = powers_of_two(FIRST_POWER, last);
    at.push(last);
    at
}

fn row_of(table: &SequenceTable, at: Milestone, end: HuntEnd, seconds: f64) -> HuntRow {
    let period = table.period();
    HuntRow {
        code: table.code().name(),
        end,
        engine: table.engine().describe().to_string(),
        at,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        seconds,
        resumed_heaps: 0,
    }
}

/// Saves `value` as one line, `CRC32 JSON`, written to a temporary name
/// and renamed over the last.
pub(crate) fn save_checked(path: &Path, value: &impl Serialize) -> Result<()> {
    let json = serde_json::to_string(value).map_err(|e| Error::Run(e.to_string()))?;
    let mut file = AtomicFile::create(path, OutputRules::default())?;
    let line = checkpoint::line_of(&json);
    std::io::Write::write_all(&mut file, line.as_bytes())
        .map_err(|e| Error::Run(format!("writing {}: {e}", path.display())))?;
    file.commit()
}

/// The value a `save_checked` line holds (none: no file); a line cut
/// short, a checksum that does not match or a value that does not parse
/// is refused with `bad`'s error.
pub(crate) fn load_checked<T: serde::de::DeserializeOwned>(
    path: &Path,
    bad: impl Fn(&str) -> Error,
) -> Result<Option<T>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Input(format!("{}: {e}", path.display()))),
    };
    let line = text
        .strip_suffix('\n')
        .ok_or_else(|| bad("no whole line"))?;
    let json = checkpoint::checked(line).ok_or_else(|| bad("its checksum does not match"))?;
    serde_json::from_str(json)
        .map(Some)
        .map_err(|e| bad(&e.to_string()))
}

/// The row a former hunt saved for `code` (none: never hunted); a damaged
/// row or one of another code is refused, naming the file.
fn load_row(path: &Path, code: &Code) -> Result<Option<HuntRow>> {
    let bad = |why: &str| {
        Error::Input(format!(
            "{}: {why}; expected a hunt's row of {} (delete the file to hunt the code afresh)",
            path.display(),
            code.name()
        ))
    };
    let Some(row) = load_checked::<HuntRow>(path, bad)? else {
        return Ok(None);
    };
    if row.code != code.name() {
        return Err(bad(&format!("it is the row of {}", row.code)));
    }
    Ok(Some(row))
}

/// This shard's codes: those whose period a short run certifies cost
/// next to nothing, any other its whole budget, dealt so that every shard
/// gets as much budget.
pub fn shard_codes(list: &[Code], shard: Shard, hooks: &dyn RunHooks) -> Result<Vec<Code>> {
    if shard.count as usize > list.len() {
        return Err(Error::Input(format!(
            "{}: the hunt has {} codes; expected at most that many shards",
            Setting::Shard.is(shard),
            list.len()
        )));
    }
    let probe = PROBE_HEAPS;
    let costs: Vec<u64> = estimated_costs(list, probe, Algorithm::Auto)?
        .into_iter()
        .map(|cost| if cost <= 1 { 1 } else { 1000 })
        .collect();
    let places = shard.places(&balanced_shards(&costs, shard.count));
    hooks.notice(Marked(&format!(
        "shard {shard}: {} of the {} codes",
        places.len(),
        list.len()
    )));
    Ok(places.into_iter().map(|i| list[i].clone()).collect())
}

/// A code's name as a file name: characters a file system may read
/// otherwise (`[`, `]`, `/`) become `_`.
pub(crate) fn file_stem(code: &Code) -> String {
    code.name()
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '!' | '-' => c,
            _ => '_',
        })
        .collect()
}
