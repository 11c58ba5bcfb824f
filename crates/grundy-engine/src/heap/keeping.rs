//! A long run that keeps only a prefix and a window of its table
//! (`rare::kept`), from start to end: extended a piece at a time, each
//! piece's values written out and counted (`Tally`) before the heaps past
//! the window are given back; checkpoints of what is kept
//! (`kept_checkpoint`), and a resume from one. The library drives it as it
//! drives a whole table's run (`driver`).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::LazyBackend;
use crate::heap::checkpoint;
use crate::heap::driver::SequenceJob;
use crate::heap::kept_checkpoint::{self, KeptSaved, ToSave};
use crate::heap::rare::kept::Kept;
use crate::heap::rare::{RareCode, RareRun, rare_parity};
use crate::heap::sequence::{Algorithm, KeptValues, SequenceRun, WORKING};
use crate::memory;
use grundy_core::analysis::milestones::{FIRST_POWER, powers_of_two};
use grundy_core::analysis::period::{Period, PeriodRule, find_period_from};
use grundy_core::analysis::tally::Tally;
use grundy_core::error::{Error, Result};
use grundy_core::export::{OutputRules, SequenceWriter};
use grundy_core::game::Code;
use grundy_core::hooks::{NoStop, RunHooks, StopAlso};
use grundy_core::interrupt;
use grundy_core::setting::{Marked, Setting};
use grundy_gpu::heap::GpuTuning;

/// The fewest heaps a prefix or a window may keep.
pub const MIN_KEPT: usize = 1024;

/// A run keeping part of its table, started (fresh or resumed).
pub struct KeptDriver<'a> {
    pub run: SequenceRun<'a>,
    /// The statistics of every heap done.
    pub tally: Tally,
    kept: Kept,
    /// The last heap asked for.
    last: u64,
    saves: KeptSaves,
    /// Heaps the checkpoint resumed held (0 for a fresh run).
    pub resumed_heaps: u64,
    /// The memory the run may take (none: what the machine has).
    memory: Option<u64>,
}

/// Where the run's checkpoint stands.
struct KeptSaves {
    path: Option<PathBuf>,
    rules: OutputRules,
    every: Duration,
    last: Instant,
    /// Heaps the file holds.
    heaps: u64,
    count: u64,
    seconds: f64,
}

impl SequenceJob {
    /// Starts a run of `code` to heap `n` keeping `kept`, with milestones
    /// at every power of two from 1024 and at `at`: refused before any work
    /// where rare values cannot run it, it asks for a period's doubling,
    /// or its memory does not fit; resumed from `resume` when given.
    pub fn start_kept<'a>(&self, code: &'a Code, kept: Kept, at: &[u64]) -> Result<KeptDriver<'a>> {
        self.check_kept(code, kept)?;
        let mut due = powers_of_two(FIRST_POWER, self.n);
        due.extend(at.iter().filter(|&&h| h <= self.n));
        let (run, tally, resumed_heaps, kept) = match &self.resume {
            Some(path) => {
                let mut saved = resumed_kept(path, code, kept, &due)?;
                let values = KeptValues {
                    prefix: &saved.prefix,
                    window_from: saved.window_from as usize,
                    window: &saved.window,
                };
                let last = self.n.max(saved.heaps);
                let run = SequenceRun::keeping_from(code, saved.kept, last, values, saved.rare)?
                    .tuned(self.tuning);
                saved.tally.also_due(&due);
                (run, saved.tally, saved.heaps, saved.kept)
            }
            None => {
                let tally = Tally::new(rare_parity(code), &due);
                (
                    SequenceRun::keeping(code, kept, self.n)?.tuned(self.tuning),
                    tally,
                    0,
                    kept,
                )
            }
        };
        let path = self.checkpoint.clone().or_else(|| self.resume.clone());
        let same = path.is_some() && path == self.resume;
        Ok(KeptDriver {
            run,
            tally,
            kept,
            last: self.n,
            saves: KeptSaves {
                path,
                rules: self.rules,
                every: self.every,
                last: Instant::now(),
                heaps: if same { resumed_heaps } else { 0 },
                count: 0,
                seconds: 0.0,
            },
            resumed_heaps,
            memory: self.memory,
        })
    }

    /// What a run keeping `kept` refuses before any work.
    fn check_kept(&self, code: &Code, kept: Kept) -> Result<()> {
        check_sizes(kept)?;
        let rare = RareCode::new(code)
            .ok()
            .filter(|_| self.algorithm != Algorithm::Naive);
        if rare.is_none() {
            return Err(Error::Input(format!(
                "{} keeps part of the table for rare values, which {} does not run by; expected \
                 a code that splits heaps, without {}",
                Setting::KeepPrefix.named(),
                code.name(),
                Setting::Algorithm.is("naive")
            )));
        }
        if self.until_periodic.is_some() {
            return Err(Error::Input(format!(
                "{} and {} together: a period is looked for in the whole table; expected one \
                 of them",
                Setting::KeepPrefix.named(),
                Setting::MaxN.named()
            )));
        }
        fits(kept, self.memory)
    }
}

/// Refuses sizes whose memory (`kept_memory`) does not fit `budget` (none:
/// what the machine has).
fn fits(kept: Kept, budget: Option<u64>) -> Result<()> {
    let what = format!("a run keeping {} and {} heaps", kept.prefix, kept.window);
    let bytes = kept_memory(kept);
    match budget {
        Some(budget) if bytes > budget + WORKING => Err(Error::WontFit(format!(
            "{what} needs about {} of memory; expected {} or more",
            memory::human(bytes),
            Setting::Memory.is(memory::human(bytes - WORKING))
        ))),
        _ => memory::check_fits(&what, bytes),
    }
}

/// Refuses a prefix or a window under `MIN_KEPT` heaps.
pub fn check_sizes(kept: Kept) -> Result<()> {
    for (setting, heaps) in [
        (Setting::KeepPrefix, kept.prefix),
        (Setting::KeepWindow, kept.window),
    ] {
        if heaps < MIN_KEPT {
            return Err(Error::Input(format!(
                "{}: expected at least {MIN_KEPT} heaps",
                setting.is(heaps)
            )));
        }
    }
    Ok(())
}

/// Heaps computed between two moments the heaps past the window are
/// given back: a piece the window's size, within limits.
fn piece_len(kept: Kept) -> u64 {
    (kept.window as u64).clamp(1 << 12, 1 << 22)
}

/// The memory a run keeping `kept` holds at its peak: two bytes a heap of
/// the prefix, the window and a piece, and the engine's working memory.
pub fn kept_memory(kept: Kept) -> u64 {
    2 * (kept.prefix as u64 + kept.window as u64 + piece_len(kept)) + WORKING
}

/// The checkpoint at `path`, which must keep at least what `kept` says (a
/// run that read heaps back keeps more), or hold the whole table
/// (milestones due at `due` among its heaps).
fn resumed_kept(path: &Path, code: &Code, kept: Kept, due: &[u64]) -> Result<KeptSaved> {
    if !kept_checkpoint::is_kept(path) {
        return from_whole(path, code, kept, due);
    }
    let saved = kept_checkpoint::load(path, code)?;
    if saved.kept.prefix < kept.prefix || saved.kept.window < kept.window {
        return Err(Error::Input(format!(
            "{}: the run it holds keeps {} and {}; expected at most those (the heaps past \
             them were not kept)",
            Setting::Resume.is(path.display()),
            Setting::KeepPrefix.is(saved.kept.prefix),
            Setting::KeepWindow.is(saved.kept.window)
        )));
    }
    Ok(saved)
}

/// What a run keeping `kept` needs to go on from the whole table a
/// checkpoint at `path` holds: its prefix and window, the rare-value state
/// a whole run resumed from it would build, and the statistics of every
/// heap, with the milestones due at `due`.
fn from_whole(path: &Path, code: &Code, kept: Kept, due: &[u64]) -> Result<KeptSaved> {
    let table = checkpoint::load(path, code)?.table;
    let (len, heaps) = (table.len(), table.len() as u64);
    let values = table.values(0, len);
    let rare_code = RareCode::new(code).map_err(Error::Input)?;
    let mut tally = Tally::new(rare_parity(code), due);
    tally.add(0, &values);
    let from = KeptSaved::window_from(kept, heaps);
    Ok(KeptSaved {
        kept,
        heaps,
        prefix: values[..len.min(kept.prefix)].to_vec(),
        window_from: from,
        window: values[from as usize..].to_vec(),
        rare: RareRun::new(&rare_code, &values[..]).saved(),
        tally,
    })
}

impl KeptDriver<'_> {
    /// Checkpoints saved so far, and the seconds they took.
    pub fn saves(&self) -> (u64, f64) {
        (self.saves.count, self.saves.seconds)
    }

    /// Where checkpoints go, if anywhere.
    pub fn checkpoint(&self) -> Option<&Path> {
        self.saves.path.as_deref()
    }

    /// What the run keeps.
    pub fn kept(&self) -> Kept {
        self.kept
    }

    /// Computes the run a piece at a time, each piece's values to `writer`
    /// (which has every heap before them) and to the tally; saves when a
    /// checkpoint is due, when `hooks.stop()` or a signal asks (then
    /// stopping), when a heap needed what is not kept, and at the end.
    pub fn compute(
        &mut self,
        mut writer: Option<&mut SequenceWriter>,
        hooks: &dyn RunHooks,
    ) -> Result<()> {
        hooks.begin(self.last + 1, "heaps");
        hooks.progress(self.run.table.len() as u64);
        let done = self.pieces(&mut writer, hooks);
        hooks.end();
        done?;
        self.save(hooks)
    }

    /// The loop of `compute`.
    fn pieces(
        &mut self,
        writer: &mut Option<&mut SequenceWriter>,
        hooks: &dyn RunHooks,
    ) -> Result<()> {
        let piece = piece_len(self.kept);
        while (self.run.table.len() as u64) <= self.last {
            let piece_to = self.last.min(self.run.table.len() as u64 + piece - 1);
            let (extended, asked) = self.extend_piece(piece_to, hooks);
            self.take_new(writer)?;
            if let Err(e) = extended {
                if matches!(e, Error::NotKept(_)) && self.read_back(writer, hooks)? {
                    continue;
                }
                return Err(self.failed(e, hooks));
            }
            self.run.forget_past_window();
            if interrupt::requested() || asked {
                self.save(hooks)?;
                return Err(self.paused());
            }
            if self.saves.path.is_some() && self.saves.last.elapsed() >= self.saves.every {
                self.save(hooks)?;
            }
        }
        Ok(())
    }

    /// Extends the run to `piece_to`, stopping early when a checkpoint is
    /// due or the caller asks; with it, whether the caller asked.
    fn extend_piece(&mut self, piece_to: u64, hooks: &dyn RunHooks) -> (Result<bool>, bool) {
        let (every, last) = (self.saves.every, self.saves.last);
        let checkpoints = self.saves.path.is_some();
        let asked = AtomicBool::new(false);
        let stop = || {
            let caller = hooks.stop();
            asked.fetch_or(caller, Relaxed);
            caller || (checkpoints && last.elapsed() >= every)
        };
        let piece_hooks = StopAlso {
            hooks: &NoStop(hooks),
            also: stop,
        };
        let tuning = GpuTuning::default();
        let extended = self
            .run
            .extend(piece_to, &LazyBackend::cpu(), &tuning, &piece_hooks);
        (extended, asked.into_inner())
    }

    /// The heaps done since the last call, to `writer` and the tally.
    fn take_new(&mut self, writer: &mut Option<&mut SequenceWriter>) -> Result<()> {
        let (a, b) = (self.tally.heaps() as usize, self.run.table.len());
        if a >= b {
            return Ok(());
        }
        let values = self.run.table.values(a, b);
        if let Some(w) = writer.as_mut() {
            w.append_from(a, &values)?;
        }
        self.tally.add(a as u64, &values);
        Ok(())
    }

    /// After a heap needed a value the run gave back: where the table goes
    /// to a file that can be read by position (raw values), keeps from here
    /// on the sizes that would have held it (each to the next power of two,
    /// within the memory allowed), the heaps given back read from the file;
    /// whether it did, so that the piece goes on from that heap.
    fn read_back(
        &mut self,
        writer: &mut Option<&mut SequenceWriter>,
        hooks: &dyn RunHooks,
    ) -> Result<bool> {
        let (Some(w), Some(needed)) = (writer.as_deref_mut(), self.run.would_do()) else {
            return Ok(false);
        };
        let grown = Kept {
            prefix: needed.prefix.next_power_of_two().max(self.kept.prefix),
            window: needed.window.next_power_of_two().max(self.kept.window),
        };
        if grown == self.kept || fits(grown, self.memory).is_err() || !w.can_read_back() {
            return Ok(false);
        }
        self.run.keep_more(grown, |a, b| w.read_back(a, b))?;
        hooks.notice(Marked(&format!(
            "heap {} needed heaps this run had given back: read them back from {}, keeping {} \
             and {} from here on",
            self.run.table.len(),
            Setting::Out.named(),
            Setting::KeepPrefix.is(grown.prefix),
            Setting::KeepWindow.is(grown.window)
        )));
        self.kept = grown;
        Ok(true)
    }

    /// Saves what the run keeps, when heaps were done since the last save.
    fn save(&mut self, hooks: &dyn RunHooks) -> Result<()> {
        self.saves.last = Instant::now();
        let heaps = self.run.table.len() as u64;
        let (Some(path), Some(rare)) = (&self.saves.path, self.run.rare_state()) else {
            return Ok(());
        };
        if heaps <= self.saves.heaps {
            return Ok(());
        }
        let started = Instant::now();
        let saved = ToSave {
            kept: self.kept,
            heaps,
            rare,
            tally: &self.tally,
            table: &self.run.table,
        };
        kept_checkpoint::save(path, self.saves.rules, self.run.code(), saved)?;
        self.saves.heaps = heaps;
        self.saves.count += 1;
        self.saves.seconds += started.elapsed().as_secs_f64();
        hooks.saved(&format!("heaps 0..={}", heaps - 1));
        interrupt::set_exit_note(Some(self.holds()));
        Ok(())
    }

    /// `FILE holds heaps 0..=K of CODE; continue with --resume FILE`.
    fn holds(&self) -> String {
        let path = self
            .saves
            .path
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string());
        format!(
            "{path} holds heaps 0..={} of {}; continue with {}",
            self.saves.heaps.saturating_sub(1),
            self.run.code().name(),
            Setting::Resume.is(&path)
        )
    }

    /// A run that failed: the heaps done are saved first. A heap that
    /// needed what is not kept cannot be resumed past with these sizes.
    fn failed(&mut self, e: Error, hooks: &dyn RunHooks) -> Error {
        if self.saves.path.is_none() {
            return e;
        }
        match self.save(hooks) {
            Ok(()) => {
                let path = self.saves.path.as_ref().expect("a checkpoint").display();
                let holds = self.saves.heaps.saturating_sub(1);
                let message = format!("{}; {path} holds heaps 0..={holds}", e.message());
                match e {
                    Error::NotKept(_) => Error::NotKept(message),
                    _ => Error::Run(message),
                }
            }
            Err(saving) => Error::Run(format!(
                "{}; the checkpoint could not be saved: {}",
                e.message(),
                saving.message()
            )),
        }
    }

    /// Why the run stopped early: a signal, or the caller's `stop`.
    fn paused(&self) -> Error {
        let done = self.run.table.len().saturating_sub(1);
        match (interrupt::requested(), self.saves.path.is_some()) {
            (true, true) => Error::Interrupted {
                message: format!(
                    "interrupted by {}: {}",
                    interrupt::received_name(),
                    self.holds()
                ),
                status: interrupt::exit_status(),
            },
            (true, false) => Error::Interrupted {
                message: format!(
                    "interrupted by {} with heaps 0..={done} computed",
                    interrupt::received_name()
                ),
                status: interrupt::exit_status(),
            },
            (false, true) => Error::Stopped(format!("stopped: {}", self.holds())),
            (false, false) => Error::Stopped(format!("stopped with heaps 0..={done} computed")),
        }
    }

    /// The period the kept heaps show: over the whole table while the
    /// prefix and the window still meet, else over the window, where only
    /// a periodic part that starts inside it can be seen.
    pub fn period(&self) -> Option<Period> {
        let len = self.run.table.len();
        let from = match len <= self.kept.prefix + self.kept.window {
            true => 0,
            false => len - self.kept.window,
        };
        let values = self.run.table.values(from, len);
        find_period_from(from as u64, &values, &PeriodRule::for_code(self.run.code()))
    }
}
