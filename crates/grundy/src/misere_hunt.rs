//! `MisereHunt`: codes pushed under misère play as far as a time budget
//! allows (`grundy hunt --misere`), and resumable. Each code's quotient
//! grows heap by heap; what it has reached is kept in the hunt's folder (a
//! checksummed line per code), and a later hunt with a larger budget goes
//! on from it once the quotient read back is verified against every sum of
//! its heaps. A code ends solved (the periodicity theorem proves its
//! quotient the whole game's), at the largest heap asked, out of memory,
//! or out of budget.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grundy_core::analysis::quotient::monoid::Monoid;
use grundy_core::analysis::quotient::period::QuotientPeriod;
use grundy_core::analysis::quotient::{
    Limits, MAX_HEAP, Progress, Quotient, grew, resumed_quotient,
};
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::RunHooks;
use grundy_core::setting::{Setting, seconds};
use serde::{Deserialize, Serialize};

use crate::hunt::{load_checked, save_checked};
use crate::misere_survey::{Deadline, per_code};

/// A misère hunt: the codes, the folder that keeps their quotients, the
/// seconds each may take over every hunt in the folder, the largest heap.
#[derive(Clone, Debug)]
pub struct MisereHunt {
    codes: Vec<Code>,
    dir: PathBuf,
    budget: f64,
    max_heap: u16,
    memory: Option<u64>,
}

/// One code's row.
#[derive(Clone, Debug, Serialize)]
pub struct MisereHuntRow {
    /// The code, as written.
    pub code: String,
    /// Q_H was finished (and proved) for every heap up to this.
    pub heaps: u16,
    /// |Q_heaps|.
    pub order: usize,
    /// The heaps at which the quotient grew, as `heap:order`.
    pub growth: String,
    /// The pretending function's period and start, where the periodicity
    /// theorem proves the quotient the whole game's.
    pub solved: Option<QuotientPeriod>,
    /// How the code ended: "solved", "max-heap", "budget" or "memory".
    pub end: String,
    /// The seconds the code took, over every hunt in the folder.
    pub seconds: f64,
    /// The heap a former hunt had reached (0: none).
    pub resumed_from: u16,
}

/// What the folder keeps of a code: how far its quotient came, and the
/// seconds it took.
#[derive(Serialize, Deserialize)]
struct Kept {
    code: String,
    heap: u16,
    orders: Vec<usize>,
    heaps: Vec<u16>,
    times: Vec<Vec<u32>>,
    p: Vec<bool>,
    candidates: usize,
    seconds: f64,
    end: String,
}

/// Seconds between two saves of a code's progress while it runs.
const SAVE_EVERY: f64 = 2.0;

/// The largest heap of a code's first step.
const FIRST_STEP: u16 = 32;

impl MisereHunt {
    /// A hunt of `codes` keeping its state in `dir`, each code up to
    /// `budget` seconds (over every hunt there), quotients to heap 4096.
    pub fn of(codes: Vec<Code>, dir: impl Into<PathBuf>, budget: f64) -> MisereHunt {
        MisereHunt {
            codes,
            dir: dir.into(),
            budget,
            max_heap: MAX_HEAP,
            memory: None,
        }
    }

    /// Quotients of heaps up to `h` at most (1 ..= 4096).
    pub fn max_heap(mut self, h: u16) -> MisereHunt {
        self.max_heap = h;
        self
    }

    /// At most this many bytes, shared by the codes running at once.
    pub fn memory(mut self, bytes: u64) -> MisereHunt {
        self.memory = Some(bytes);
        self
    }

    /// The file that keeps `code`'s quotient.
    pub fn file(&self, code: &Code) -> PathBuf {
        self.dir
            .join(format!("{}.misere", crate::hunt::file_stem(code)))
    }

    /// Every code's row, in the codes' order, codes in parallel (one a
    /// core); `hooks` hear of each code done and may stop the hunt (each
    /// code's progress is kept first).
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<Vec<MisereHuntRow>> {
        seconds(Setting::Budget, self.budget).map_err(Error::Input)?;
        if !(1..=MAX_HEAP).contains(&self.max_heap) {
            return Err(Error::Input(format!(
                "max heap {}: expected 1 to {MAX_HEAP}",
                self.max_heap
            )));
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| Error::Input(format!("{}: {e}", self.dir.display())))?;
        per_code(&self.codes, self.memory, hooks, |code, memory| {
            let limits = Limits {
                until_solved: true,
                ..Limits::within(memory)
            };
            self.run_code(code, limits, hooks)
        })
    }

    /// Hunts one code from what the folder keeps of it, and keeps what it
    /// reaches.
    fn run_code(&self, code: &Code, limits: Limits, hooks: &dyn RunHooks) -> Result<MisereHuntRow> {
        let path = self.file(code);
        let kept = load(&path, code, limits, hooks)?;
        let (from, spent) = match &kept {
            Some(k) => (progress_of(k), k.seconds),
            None => (Progress::start(), 0.0),
        };
        let resumed_from = from.heap;
        let left = self.budget - spent;
        let solved = kept.as_ref().is_some_and(|k| k.end == "solved");
        if solved || left <= 0.0 || from.heap >= self.max_heap {
            let end = match (solved, from.heap >= self.max_heap) {
                (true, _) => "solved",
                (false, true) => "max-heap",
                (false, false) => "budget",
            };
            let q = rebuilt(code, from, limits)?;
            return Ok(row_of(code, &q, end.to_string(), spent, resumed_from));
        }
        self.grow(code, from, spent, limits, hooks)
    }

    /// Grows `code`'s quotient from `from` with what is left of its budget
    /// (`spent` of it gone), to twice the heap reached at a time (a step
    /// lists the moves of its heaps alone), keeping its progress.
    fn grow(
        &self,
        code: &Code,
        from: Progress,
        spent: f64,
        limits: Limits,
        hooks: &dyn RunHooks,
    ) -> Result<MisereHuntRow> {
        let (path, resumed_from) = (self.file(code), from.heap);
        let started = Instant::now();
        let deadline = Deadline {
            until: started + Duration::from_secs_f64(self.budget - spent),
            caller: hooks,
        };
        let last = RefCell::new(from);
        let mut saved_at = Instant::now();
        let mut keep = |p: &Progress| {
            *last.borrow_mut() = p.clone();
            if saved_at.elapsed().as_secs_f64() >= SAVE_EVERY {
                let seconds = spent + started.elapsed().as_secs_f64();
                // A failed save is said when the run's last one fails too.
                let _ = save_checked(&path, &kept_of(code, p, seconds, "running"));
                saved_at = Instant::now();
            }
        };
        let found = loop {
            let at = last.borrow().clone();
            let target = at
                .heap
                .max(FIRST_STEP / 2)
                .saturating_mul(2)
                .min(self.max_heap);
            match resumed_quotient(code, target, at, limits, &deadline, &mut keep) {
                Ok(q) if q.period.is_none() && q.max_heap < self.max_heap => continue,
                other => break other,
            }
        };
        let seconds = spent + started.elapsed().as_secs_f64();
        let end = match &found {
            Ok(q) if q.period.is_some() => "solved",
            Ok(_) => "max-heap",
            Err(s) if s.full => "memory",
            Err(_) => "budget",
        };
        // Kept even when no heap was finished: the seconds count.
        let reached = last.into_inner();
        save_checked(&path, &kept_of(code, &reached, seconds, end))?;
        if found.is_err() && hooks.stop() {
            return Err(Error::Stopped(format!(
                "the misère hunt was stopped at {} (its quotient to heap {} is kept in {})",
                code.name(),
                reached.heap,
                path.display()
            )));
        }
        let q = match found {
            Ok(q) => q,
            Err(_) => rebuilt(code, reached, limits)?,
        };
        Ok(row_of(code, &q, end.to_string(), seconds, resumed_from))
    }
}

/// The quotient a progress holds, its period found again (no heap added).
fn rebuilt(code: &Code, progress: Progress, limits: Limits) -> Result<Quotient> {
    let (heap, silent) = (progress.heap, &grundy_core::hooks::Silent);
    resumed_quotient(code, heap, progress, limits, silent, &mut |_| {})
        .map_err(|s| Error::Run(s.why))
}

fn row_of(
    code: &Code,
    q: &Quotient,
    end: String,
    seconds: f64,
    resumed_from: u16,
) -> MisereHuntRow {
    let growth: Vec<String> = grew(&q.orders)
        .iter()
        .map(|(h, order)| format!("{h}:{order}"))
        .collect();
    MisereHuntRow {
        code: code.text.clone(),
        heaps: q.max_heap,
        order: q.order(),
        growth: growth.join(" "),
        solved: q.period,
        end,
        seconds,
        resumed_from,
    }
}

fn kept_of(code: &Code, p: &Progress, seconds: f64, end: &str) -> Kept {
    Kept {
        code: code.name(),
        heap: p.heap,
        orders: p.orders.clone(),
        heaps: p.monoid.heaps.clone(),
        times: p.monoid.times.clone(),
        p: p.monoid.p.clone(),
        candidates: p.candidates,
        seconds,
        end: end.to_string(),
    }
}

fn progress_of(k: &Kept) -> Progress {
    Progress {
        heap: k.heap,
        monoid: Monoid {
            heaps: k.heaps.clone(),
            letter_of: Vec::new(),
            times: k.times.clone(),
            p: k.p.clone(),
        },
        orders: k.orders.clone(),
        candidates: k.candidates,
    }
}

/// What a former hunt kept of `code` (none: never hunted). A damaged
/// file, one of another code, or a quotient that does not give every sum
/// of its heaps its true outcome is refused, naming the file.
fn load(path: &Path, code: &Code, limits: Limits, hooks: &dyn RunHooks) -> Result<Option<Kept>> {
    let bad = |why: &str| {
        Error::Input(format!(
            "{}: {why}; expected a misère hunt's quotient of {} (delete the file to hunt the \
             code afresh)",
            path.display(),
            code.name()
        ))
    };
    let Some(kept) = load_checked::<Kept>(path, bad)? else {
        return Ok(None);
    };
    if kept.code != code.name() {
        return Err(bad(&format!("it is the quotient of {}", kept.code)));
    }
    if !well_formed(&kept) {
        return Err(bad("its quotient is not well formed"));
    }
    let stop = || hooks.stop();
    let holds = progress_of(&kept).holds(code, limits, &stop);
    match holds {
        Ok(true) => Ok(Some(kept)),
        Ok(false) => Err(bad(
            "its quotient gives some sum of its heaps a wrong outcome",
        )),
        Err(_) => Err(Error::Stopped(format!(
            "stopped while checking {}",
            path.display()
        ))),
    }
}

/// Whether the kept quotient's tables fit together: a row per letter,
/// every product an element, its heaps increasing and within its heap (at
/// most 4096), an order for each heap, and seconds a run could have spent.
fn well_formed(k: &Kept) -> bool {
    let elements = k.p.len();
    elements > 0
        && k.heap <= MAX_HEAP
        && k.seconds.is_finite()
        && k.seconds >= 0.0
        && k.orders.len() == k.heap as usize + 1
        && k.orders.last() == Some(&elements)
        && k.times.len() == k.heaps.len()
        && k.heaps.windows(2).all(|w| w[0] < w[1])
        && k.heaps.iter().all(|&h| h >= 1 && h <= k.heap)
        && k.times
            .iter()
            .all(|row| row.len() == elements && row.iter().all(|&e| (e as usize) < elements))
}
