//! A survey run from start to end: the rows its checkpoint holds are kept,
//! the other codes computed, each row appended to the checkpoint as it
//! finishes, and every row handed back in the list's order.

use grundy_core::export::OutputRules;
use grundy_core::setting::Setting;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::heap::bounds::{Reach, check_last_heap};
use crate::heap::sequence::Algorithm;
use crate::heap::sequence::rare_code_for;
use crate::survey::checkpoint::{self, Appender, DoneRows, SurveyKey};
use crate::survey::{SurveyRow, SurveyRun, survey};
use crate::{Backend, HeapEngine, memory};
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::RunHooks;
use grundy_core::interrupt;

/// What a survey computes: its codes (the list, or a shard's slice of it)
/// to heap `n`.
pub struct SurveyJob<'c> {
    pub codes: &'c [Code],
    pub n: u64,
    pub algorithm: Algorithm,
    /// Threads per code on the GPU (none: chosen).
    pub workgroup: Option<u32>,
}

impl SurveyJob<'_> {
    /// Refuses, before any work, a survey past the brute force's heaps, a
    /// code no engine runs (or rare values asked of one without them), or
    /// tables that cannot fit in memory (each thread holds one at a time).
    /// `n_name` is N as the caller calls it (`-n`, `heaps`).
    pub fn check(&self, n_name: &str) -> Result<()> {
        check_last_heap(n_name, self.n, Reach::BruteForce)?;
        for code in self.codes {
            if let Some(why) = crate::heap::brute::general::unsupported(code) {
                return Err(Error::Input(why));
            }
            rare_code_for(code, self.algorithm)?;
        }
        let threads = rayon::current_num_threads() as u64;
        memory::check_fits(
            &format!("{threads} tables of {} values at once", self.n + 1),
            threads.saturating_mul(memory::heap_table_bytes(self.n + 1)),
        )
    }
}

/// A survey started: the rows its checkpoint held, and the file open for
/// appending the rest (none without a checkpoint).
pub struct SurveyDriver {
    rows: DoneRows,
    appender: Option<Result<Appender>>,
}

impl SurveyDriver {
    /// Reads `resume` (refusing another survey's file, as `key` and the
    /// codes' `names` tell) and opens the file rows go to: the same file,
    /// its torn last line cut; or a new one at `checkpoint`, under `rules`.
    pub fn open(
        key: &SurveyKey,
        names: &[String],
        checkpoint: Option<&Path>,
        resume: Option<&Path>,
        rules: OutputRules,
    ) -> Result<SurveyDriver> {
        let (rows, whole) = match resume {
            Some(path) => checkpoint::load(path, key, names)?,
            None => (DoneRows::new(), 0),
        };
        let appender = match (checkpoint, resume) {
            (None, _) => None,
            (Some(path), Some(resumed)) if path == resumed => {
                Some(Appender::resume(path, whole, rows.len()))
            }
            (Some(path), _) => Some(Appender::create(path, rules, key, &rows)),
        };
        let appender = appender.transpose()?.map(Ok);
        if let Some(Ok(ck)) = &appender {
            interrupt::set_exit_note(Some(resume_note(ck, names.len())));
        }
        Ok(SurveyDriver { rows, appender })
    }

    /// Codes whose rows the checkpoint held.
    pub fn resumed(&self) -> usize {
        self.rows.len()
    }

    /// Computes the codes the checkpoint did not hold on `backend`,
    /// appending each row to the checkpoint as it finishes; `hooks` count
    /// the codes done. Returns every code's row, in the list's order.
    pub fn run(
        self,
        job: &SurveyJob,
        backend: &Backend,
        hooks: &dyn RunHooks,
    ) -> Result<SurveyRun> {
        let codes = job.codes;
        let todo: Vec<usize> = (0..codes.len())
            .filter(|i| !self.rows.contains_key(i))
            .collect();
        let todo_codes: Vec<Code> = todo.iter().map(|&i| codes[i].clone()).collect();
        hooks.begin(codes.len() as u64, "codes");
        let done = AtomicU64::new(self.rows.len() as u64);
        hooks.progress(done.load(Relaxed));
        let appender = Mutex::new(self.appender);
        let run = survey(
            &todo_codes,
            job.n,
            job.algorithm,
            backend,
            job.workgroup,
            hooks,
            &|k, row| {
                hooks.progress(done.fetch_add(1, Relaxed) + 1);
                append_row(&appender, todo[k], row, codes.len(), hooks);
            },
        );
        hooks.end();
        let mut run = run?;
        let appender = appender
            .into_inner()
            .map_err(|_| Error::Run("a row failed".into()))?;
        if let Some(ck) = appender {
            ck?.finish()?;
        }
        run.rows = merged(self.rows, &todo, run.rows);
        Ok(run)
    }
}

/// What a signal's message says of the checkpoint.
fn resume_note(ck: &Appender, codes: usize) -> String {
    let path = ck.path().display();
    format!(
        "{path} holds the rows of {} of {codes} codes; continue with the same command and {}",
        ck.rows(),
        Setting::Resume.is(&path)
    )
}

/// Appends a finished code's row to the checkpoint; the first failure is
/// kept (and appending stops) to be reported when the survey ends.
fn append_row(
    appender: &Mutex<Option<Result<Appender>>>,
    place: usize,
    (row, engine): &(SurveyRow, HeapEngine),
    codes: usize,
    hooks: &dyn RunHooks,
) {
    let Ok(mut held) = appender.lock() else {
        return;
    };
    if let Some(Ok(ck)) = held.as_mut() {
        match ck.append(place, row, *engine) {
            Ok(()) => {
                interrupt::set_exit_note(Some(resume_note(ck, codes)));
                hooks.saved(&format!("the rows of {} codes", ck.rows()));
            }
            Err(e) => *held = Some(Err(e)),
        }
    }
}

/// The resumed rows and this run's (the codes at places `todo`), in the
/// list's order.
fn merged(
    mut saved: DoneRows,
    todo: &[usize],
    computed: Vec<(SurveyRow, HeapEngine)>,
) -> Vec<(SurveyRow, HeapEngine)> {
    saved.extend(todo.iter().copied().zip(computed));
    saved.into_values().collect()
}
