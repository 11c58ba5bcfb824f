//! `MisereSurvey`: many codes under misère play at once (`grundy survey
//! --misere`): each code's quotient as far as a time and memory budget
//! take it, whether the periodicity theorem solves it, and for the codes
//! that never split a heap the period of the truncated genus.

use std::time::{Duration, Instant};

use grundy_core::analysis::genus_stream::GenusPeriod;
use grundy_core::analysis::quotient::period::QuotientPeriod;
use grundy_core::analysis::quotient::{Limits, Method, grew, misere_quotient};
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::RunHooks;
use grundy_core::setting::{Setting, seconds};
use rayon::prelude::*;
use serde::Serialize;

use crate::misere::{MisereMethod, MisereSequence};

/// A misère survey: the codes, the largest heap of their quotients, the
/// time each may take, and the heaps of a genus table.
#[derive(Clone, Debug)]
pub struct MisereSurvey {
    codes: Vec<Code>,
    max_heap: u16,
    seconds: f64,
    genus_heaps: u64,
    memory: Option<u64>,
}

/// One code's row.
#[derive(Clone, Debug, Serialize)]
pub struct MisereSurveyRow {
    /// The code, as written.
    pub code: String,
    /// Whether a move may split a heap in two or more.
    pub splits: bool,
    /// Q_H was finished (and proved) for every heap up to this.
    pub heaps: u16,
    /// |Q_heaps|.
    pub order: usize,
    /// The heaps at which the quotient grew, each with its order from
    /// there, as `heap:order` separated by spaces.
    pub growth: String,
    /// The pretending function's period and start, where the periodicity
    /// theorem proves the quotient the whole game's.
    pub solved: Option<QuotientPeriod>,
    /// Why the quotient stopped before the largest heap asked, if it did:
    /// "time" or "memory"; empty when it went all the way or was solved.
    pub stopped: String,
    /// The certified period of the truncated genus (codes that never
    /// split a heap, within the genus table's heaps).
    pub genus_period: Option<GenusPeriod>,
    /// The time the code took.
    pub seconds: f64,
}

/// `row` of each code, in the codes' order, codes in parallel (one a
/// core), each given its share of `memory` (by default the memory
/// budget); `hooks` hear of each code done.
pub(crate) fn per_code<R: Send>(
    codes: &[Code],
    memory: Option<u64>,
    hooks: &dyn RunHooks,
    row: impl Fn(&Code, u64) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let threads = rayon::current_num_threads().max(1) as u64;
    let share = memory.unwrap_or_else(grundy_engine::memory::budget_bytes) / threads;
    let done = std::sync::atomic::AtomicU64::new(0);
    hooks.begin(codes.len() as u64, "codes");
    let rows = codes
        .par_iter()
        .map(|code| {
            let found = row(code, share);
            let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            hooks.progress(finished);
            found
        })
        .collect::<Result<Vec<_>>>();
    hooks.end();
    rows
}

/// Hooks that stop at a deadline, or when the caller's do.
pub(crate) struct Deadline<'a> {
    pub(crate) until: Instant,
    pub(crate) caller: &'a dyn RunHooks,
}

impl RunHooks for Deadline<'_> {
    fn stop(&self) -> bool {
        Instant::now() >= self.until || self.caller.stop()
    }
}

impl MisereSurvey {
    /// A survey of `codes`, to heap 30 in 60 seconds a code, genera to
    /// heap 10,000, within the memory budget.
    pub fn of(codes: Vec<Code>) -> MisereSurvey {
        MisereSurvey {
            codes,
            max_heap: 30,
            seconds: 60.0,
            genus_heaps: 10_000,
            memory: None,
        }
    }

    /// At most this many bytes, shared by the codes running at once (by
    /// default the memory budget: what the machine has room for, less an
    /// eighth).
    pub fn memory(mut self, bytes: u64) -> MisereSurvey {
        self.memory = Some(bytes);
        self
    }

    /// Quotients of heaps up to `h` (1 ..= 4096).
    pub fn max_heap(mut self, h: u16) -> MisereSurvey {
        self.max_heap = h;
        self
    }

    /// The time each code's quotient may take.
    pub fn seconds(mut self, seconds: f64) -> MisereSurvey {
        self.seconds = seconds;
        self
    }

    /// The heaps of the genus table of a code that never splits.
    pub fn genus_heaps(mut self, n: u64) -> MisereSurvey {
        self.genus_heaps = n;
        self
    }

    /// Every code's row, in the codes' order, codes in parallel (one a
    /// core); `hooks` hear of each code done and may stop the survey.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<Vec<MisereSurveyRow>> {
        seconds(Setting::Seconds, self.seconds).map_err(Error::Input)?;
        per_code(&self.codes, self.memory, hooks, |code, memory| {
            self.row(code, memory, hooks)
        })
    }

    fn row(&self, code: &Code, memory: u64, hooks: &dyn RunHooks) -> Result<MisereSurveyRow> {
        let started = Instant::now();
        let deadline = Deadline {
            until: started + Duration::from_secs_f64(self.seconds),
            caller: hooks,
        };
        let limits = Limits {
            until_solved: true,
            ..Limits::within(memory)
        };
        let found = misere_quotient(code, self.max_heap, Method::Learn, limits, &deadline);
        let (orders, solved, stopped) = match found {
            Ok(q) => (q.orders, q.period, String::new()),
            Err(_) if hooks.stop() => {
                return Err(Error::Stopped(format!(
                    "the misère survey was stopped at {}",
                    code.name()
                )));
            }
            Err(s) => {
                let why = if s.full { "memory" } else { "time" };
                (s.orders, None, why.to_string())
            }
        };
        let sequence = MisereSequence::of(code.clone()).heaps(self.genus_heaps);
        let genus_period = match sequence.method() {
            MisereMethod::Linear => sequence.run()?.end().period,
            // unbounded takes: no window of heaps to repeat
            MisereMethod::Blocked | MisereMethod::Sums => None,
        };
        let growth: Vec<String> = grew(&orders)
            .iter()
            .map(|(h, order)| format!("{h}:{order}"))
            .collect();
        Ok(MisereSurveyRow {
            code: code.text.clone(),
            splits: sequence.method() == MisereMethod::Sums,
            heaps: (orders.len() - 1) as u16,
            order: orders.last().copied().unwrap_or(1),
            growth: growth.join(" "),
            solved,
            stopped,
            genus_period,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}
