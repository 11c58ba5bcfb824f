//! `Survey`: many codes to the same N, one row of statistics each (period,
//! certificate, largest value, P-positions, rare split), as `grundy survey`
//! computes them, with its checkpoint and resume.

use std::path::{Path, PathBuf};
use std::time::Instant;

use grundy_core::error::{Error, Result};
use grundy_core::export::OutputRules;
use grundy_core::game::Code;
use grundy_core::hooks::{RunHooks, Silent};
use grundy_core::setting::{Marked, Setting};
use grundy_engine::heap::sequence::Algorithm;
use grundy_engine::survey::checkpoint::SurveyKey;
use grundy_engine::survey::driver::{SurveyDriver, SurveyJob};
use grundy_engine::survey::{PROBE_HEAPS, balanced_shards, estimated_costs, probe_heaps};

pub use grundy_engine::survey::{MAX_DIGITS, Shard, SurveyRow, all_codes};
use grundy_engine::{Backend, BackendChoice, GpuFrom, HeapEngine, Ran};
use grundy_gpu::GpuCounters;

use crate::survey_parts::{PartHeader, part_text};

/// A survey to run.
///
/// ```
/// use grundy::Survey;
///
/// // Every code 0.d1d2 to heap 2000: 64 rows.
/// let rows = Survey::all("0", 2)?.heaps(2000).run()?;
/// assert_eq!(rows.len(), 64);
/// let kayles = rows.iter().find(|r| r.code == "0.07").expect("0.07 surveyed");
/// assert_eq!((kayles.period, kayles.certified), (Some(34), true));
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Survey {
    codes: Vec<Code>,
    n: u64,
    algorithm: Algorithm,
    backend: BackendChoice,
    workgroup: Option<u32>,
    checkpoint: Option<PathBuf>,
    resume: Option<PathBuf>,
    rules: OutputRules,
    shard: Option<Shard>,
}

impl Survey {
    /// The codes given (CGSuite's notation), in this order.
    pub fn codes<S: AsRef<str>>(codes: &[S]) -> Result<Survey> {
        let codes = codes
            .iter()
            .map(|c| Code::parse(c.as_ref()).map_err(|e| Error::Input(e.to_string())))
            .collect::<Result<Vec<Code>>>()?;
        Ok(Survey::of(codes))
    }

    /// Every code `prefix.d1..dK` with `digits` digits 0-7 (`grundy survey
    /// --digits K --prefix P`), in numeric order.
    pub fn all(prefix: &str, digits: u32) -> Result<Survey> {
        if !(1..=MAX_DIGITS).contains(&digits) {
            return Err(Error::Input(format!(
                "{}: expected 1 to {MAX_DIGITS} (or {})",
                Setting::Digits.is(digits),
                Setting::Codes.is("FILE")
            )));
        }
        let texts = all_codes(prefix, digits);
        let codes = texts
            .iter()
            .map(|t| Code::parse(t).map_err(|e| Error::Input(format!("survey code '{t}': {e}"))))
            .collect::<Result<Vec<Code>>>()?;
        Ok(Survey::of(codes))
    }

    /// The codes of the file at `path`, one per line (`#` comments and
    /// blank lines skipped), in its order; a bad line is named by its
    /// number.
    pub fn codes_in(path: &Path) -> Result<Survey> {
        Ok(Survey::of(codes_in(path)?))
    }

    /// The survey's codes, in its order.
    pub fn code_list(&self) -> &[Code] {
        &self.codes
    }

    /// Heaps 0..=n of every code.
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The part file of a sharded run's `rows` (`shard` set), for
    /// `SurveyMerge`: a header line recording the survey, the slice and a
    /// checksum, then the rows as CSV, each led by its code's place in the
    /// whole list.
    pub fn part(&self, rows: &SurveyRows) -> Result<String> {
        let (Some(shard), Some(places)) = (self.shard, rows.places.as_deref()) else {
            return Err(Error::Input(format!(
                "a part is a shard's rows; expected {}",
                Setting::Shard.is("K/N")
            )));
        };
        let names: Vec<String> = self.codes.iter().map(|c| c.name()).collect();
        let header = PartHeader::of(shard, &names, self.n, self.algorithm);
        let csv = rows.csv()?;
        let mut lines = csv.lines();
        let mut placed = format!("place,{}\n", lines.next().unwrap_or(""));
        for (line, place) in lines.zip(places) {
            placed += &format!("{place},{line}\n");
        }
        part_text(header, &placed)
    }

    /// Parsed codes.
    pub fn of(codes: Vec<Code>) -> Survey {
        Survey {
            codes,
            n: 0,
            algorithm: Algorithm::Auto,
            backend: BackendChoice::Cpu,
            workgroup: None,
            checkpoint: None,
            resume: None,
            rules: OutputRules::default(),
            shard: None,
        }
    }

    /// Heaps 0..=n of every code.
    pub fn heaps(mut self, n: u64) -> Survey {
        self.n = n;
        self
    }

    /// Rare values, the brute force, or whichever pays (the default).
    pub fn algorithm(mut self, algorithm: Algorithm) -> Survey {
        self.algorithm = algorithm;
        self
    }

    /// Where the codes run (default: the CPU); on the GPU, `workgroup`
    /// threads per code (none: chosen).
    pub fn backend(mut self, backend: BackendChoice, workgroup: Option<u32>) -> Survey {
        self.backend = backend;
        self.workgroup = workgroup;
        self
    }

    /// Appends each finished code's row to `path`.
    pub fn checkpoint(mut self, path: impl Into<PathBuf>) -> Survey {
        self.checkpoint = Some(path.into());
        self
    }

    /// What the checkpoint may replace (a read-only file) and whether its
    /// missing folders are made (default: neither).
    pub fn output_rules(mut self, rules: OutputRules) -> Survey {
        self.rules = rules;
        self
    }

    /// Runs only `shard`'s slice of the codes, dealt by their estimated
    /// cost, for `grundy survey merge` to join (`SurveyRows::places` says
    /// where each row goes).
    pub fn shard(mut self, shard: Shard) -> Survey {
        self.shard = Some(shard);
        self
    }

    /// Keeps the rows the checkpoint at `path` holds (a checkpoint of
    /// another survey is refused) and goes on appending to it.
    pub fn resume(mut self, path: impl Into<PathBuf>) -> Survey {
        let path = path.into();
        self.checkpoint.get_or_insert_with(|| path.clone());
        self.resume = Some(path);
        self
    }

    /// Runs the survey, telling no one.
    pub fn run(&self) -> Result<Vec<SurveyRow>> {
        Ok(self.run_with(&Silent)?.rows)
    }

    /// Runs the survey, telling `hooks` of notices, the codes done and
    /// each row saved.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<SurveyRows> {
        let whole = SurveyJob {
            codes: &self.codes,
            n: self.n,
            algorithm: self.algorithm,
            workgroup: self.workgroup,
        };
        whole.check(&Setting::N.named())?;
        let places = self.shard.map(|s| self.dealt(s, hooks)).transpose()?;
        let sliced: Option<Vec<Code>> = places
            .as_ref()
            .map(|p| p.iter().map(|&i| self.codes[i].clone()).collect());
        let job = SurveyJob {
            codes: sliced.as_deref().unwrap_or(&self.codes),
            ..whole
        };
        let driver = self.open(job.codes, hooks)?;
        let resumed = driver.resumed();
        let values = (job.codes.len() as u64).saturating_mul(self.n.saturating_add(1));
        let backend = Backend::open_for(self.backend, values, GpuFrom::SURVEY_VALUES, hooks)?;
        if self.workgroup.is_some() && matches!(backend, Backend::Cpu) {
            hooks.notice(Marked(&format!(
                "{} sets the GPU's threads per code; the CPU backend ignores it",
                Setting::Workgroup.named()
            )));
        }
        let started = Instant::now();
        let run = driver.run(&job, &backend, hooks)?;
        let engines = run.rows.iter().map(|(_, e)| *e).collect();
        Ok(SurveyRows {
            rows: run.rows.into_iter().map(|(row, _)| row).collect(),
            engines,
            resumed,
            ran: run.ran,
            adapter: backend.adapter(),
            gpu: backend.gpu_counters().filter(|_| run.ran == Ran::Gpu),
            workgroup: run.workgroup,
            seconds: started.elapsed().as_secs_f64(),
            places,
        })
    }

    /// The checkpoint's rows of `codes` (the run's, a shard's slice), and
    /// the file the rest go to; says how many were resumed.
    fn open(&self, codes: &[Code], hooks: &dyn RunHooks) -> Result<SurveyDriver> {
        let names: Vec<String> = codes.iter().map(|c| c.name()).collect();
        let shard = self.shard.map(|s| s.to_string());
        let key = SurveyKey::of(&self.codes, self.n, self.algorithm, shard);
        let (checkpoint, resume) = (self.checkpoint.as_deref(), self.resume.as_deref());
        let driver = SurveyDriver::open(&key, &names, checkpoint, resume, self.rules)?;
        if let (resumed @ 1.., Some(path)) = (driver.resumed(), &self.resume) {
            hooks.notice(Marked(&format!(
                "{resumed} of {} codes resumed from {}",
                codes.len(),
                path.display()
            )));
        }
        Ok(driver)
    }

    /// The places in the list of `shard`'s codes, dealt by their estimated
    /// cost (costliest first, each to the shard with the least so far).
    fn dealt(&self, shard: Shard, hooks: &dyn RunHooks) -> Result<Vec<usize>> {
        if shard.count as usize > self.codes.len() {
            return Err(Error::Input(format!(
                "{}: the survey has {} codes; expected at most that many shards",
                Setting::Shard.is(shard),
                self.codes.len()
            )));
        }
        let started = Instant::now();
        let costs = estimated_costs(&self.codes, self.n, self.algorithm)?;
        let (probe, longest) = (self.n.min(PROBE_HEAPS), probe_heaps(self.n));
        let longer = match longest > probe {
            true => format!(", up to {longest} where dense"),
            false => String::new(),
        };
        hooks.notice(Marked(&format!(
            "{} codes dealt over {} shards by their cost estimated from {probe} heaps each{longer} ({:.1} s)",
            self.codes.len(),
            shard.count,
            started.elapsed().as_secs_f64()
        )));
        Ok(shard.places(&balanced_shards(&costs, shard.count)))
    }
}

/// The codes of a file, one per line, parsed.
fn codes_in(path: &Path) -> Result<Vec<Code>> {
    let bad = |why: String| Error::Input(format!("{}: {why}", Setting::Codes.is(path.display())));
    let lines = grundy_core::input::read_lines(path, MAX_CODES_BYTES).map_err(bad)?;
    let mut codes = Vec::new();
    for (number, line) in lines {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let code = Code::parse(text).map_err(|e| {
            bad(format!(
                "line {number}: {} is not a code ({e})",
                grundy_core::input::quoted(text)
            ))
        })?;
        codes.push(code);
    }
    if codes.is_empty() {
        return Err(bad(
            "no codes found; expected one code per line, such as 0.07".into(),
        ));
    }
    Ok(codes)
}

/// The largest file of codes read.
const MAX_CODES_BYTES: u64 = 64 << 20;

/// A survey's rows, in the list's order, with how they were made.
#[derive(Clone, Debug)]
pub struct SurveyRows {
    /// One row per code.
    pub rows: Vec<SurveyRow>,
    /// The engine of each row.
    pub engines: Vec<HeapEngine>,
    /// Rows that came from the checkpoint resumed.
    pub resumed: usize,
    /// The GPU when any code ran there.
    pub ran: Ran,
    /// The GPU's name, when a code ran there.
    pub adapter: Option<String>,
    /// What the run asked of the GPU (none when no code ran there).
    pub gpu: Option<GpuCounters>,
    /// Threads per code on the GPU.
    pub workgroup: Option<u32>,
    /// Seconds the codes took (the checkpoint read and the backend opened
    /// before them).
    pub seconds: f64,
    /// For a shard, the place in the whole list of each row's code.
    pub places: Option<Vec<usize>>,
}

impl SurveyRows {
    /// The rows as the survey's CSV (header line included).
    pub fn csv(&self) -> Result<String> {
        let mut csv = csv::Writer::from_writer(Vec::new());
        for row in &self.rows {
            csv.serialize(row).map_err(|e| Error::Run(e.to_string()))?;
        }
        let bytes = csv.into_inner().map_err(|e| Error::Run(e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| Error::Run(e.to_string()))
    }
}
