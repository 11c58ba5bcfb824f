//! One Nim-sequence extended piece by piece with the algorithm that pays:
//! rare values on the CPU where the game is sparse, the blocked brute force
//! (GPU or CPU twins) where it is not, the general engine for codes that
//! leave three or more heaps. Pieces end when `stop()` asks (a checkpoint is
//! due, Ctrl-C), so a long run can be saved and resumed between them.

use crate::heap::bounds::{Reach, check_last_heap};
use grundy_core::setting::Marked;
use grundy_core::setting::Setting;
use std::time::Instant;

use crate::heap::rare::kept::{Beyond, Gap, Kept};
use crate::heap::rare::{
    self, BruteForceOn, Outcome, Persist, RareCode, RareRun, RareState, Target, Tuning,
};
use crate::heap::storage::paged::{Buf, Place};
use crate::heap::storage::store::Store;
use crate::heap::storage::table::HeapTable;
use crate::heap::storage::width::{OnStore, TableWidth};
use crate::{Backend, GpuFrom, HeapEngine, LazyBackend, Ran, extend_heap_table, memory};
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::{RunHooks, Silent};
use grundy_gpu::Runner;
use grundy_gpu::heap::GpuTuning;
use grundy_gpu::rare::GpuPass;

/// Which algorithm computes a sequence.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Rare values when the code splits heaps and its table stays sparse, else brute force.
    Auto,
    /// Rare values, even when they do not pay.
    Rare,
    /// The brute force: blocked kernels on the chosen backend, or the general engine.
    Naive,
}

/// What the rare-value engine holds besides its table, at most: the rare
/// list, the block pass's bitsets and windows (Grundy's game to 2^26 with
/// its table in a file peaks at 9.5 MiB of anonymous memory in all).
pub const WORKING: u64 = 32 << 20;

/// A sequence being computed, and how.
pub struct SequenceRun<'a> {
    code: &'a Code,
    algorithm: Algorithm,
    rare_code: Option<RareCode>,
    rare: Option<RareRun>,
    /// Auto found too many rare positions: brute force, looking again at
    /// every doubling of the table.
    dense: bool,
    /// The table's length when auto last judged rare values (gave them up
    /// or looked again): it looks again once the table has doubled.
    looked_at: usize,
    /// Times auto went back to rare values after the brute force.
    pub looked_back: u32,
    /// The notice that the rare values' block pass runs on the CPU was given.
    said_pass_on_cpu: bool,
    pub table: HeapTable,
    /// The engine of the last piece.
    pub engine: HeapEngine,
    /// Where the last piece ran.
    pub ran_on: Ran,
    pub seconds: f64,
    /// How the rare values spread their work and schedule their blocks.
    pub tuning: Tuning,
    /// The table was found to fit in memory up to this heap: `extend`
    /// checks again only past it (a run checks once, not every piece).
    fits_to: Option<u64>,
    /// What the run keeps of its table (none: all of it; `keeping`), and
    /// the end of the heaps it gave back.
    kept: Option<Kept>,
    forgotten_to: usize,
    /// What the heap that stopped a run keeping part of its table needed.
    missed: Option<Beyond>,
}

/// The code as rare values read it when `algorithm` may use them; an input
/// error when `--algorithm rare` asks for them and the code has none.
pub fn rare_code_for(code: &Code, algorithm: Algorithm) -> Result<Option<RareCode>> {
    match (algorithm, RareCode::new(code)) {
        (Algorithm::Naive, _) => Ok(None),
        (_, Ok(rc)) => Ok(Some(rc)),
        (Algorithm::Rare, Err(why)) => Err(Error::Input(format!(
            "{}: {why}; use {} or naive",
            Setting::Algorithm.is("rare"),
            Setting::Algorithm.is("auto")
        ))),
        (Algorithm::Auto, Err(_)) => Ok(None),
    }
}

impl<'a> SequenceRun<'a> {
    /// A run that continues `table` (empty for a fresh one).
    pub fn new(code: &'a Code, algorithm: Algorithm, table: HeapTable) -> Result<SequenceRun<'a>> {
        let rare_code = rare_code_for(code, algorithm)?;
        Ok(SequenceRun {
            code,
            tuning: Tuning::default(),
            algorithm,
            rare_code,
            rare: None,
            dense: false,
            looked_at: 0,
            looked_back: 0,
            said_pass_on_cpu: false,
            table,
            engine: HeapEngine::Blocked,
            ran_on: Ran::Cpu,
            seconds: 0.0,
            fits_to: None,
            kept: None,
            forgotten_to: 0,
            missed: None,
        })
    }

    /// The run with `tuning`.
    pub fn tuned(mut self, tuning: Tuning) -> SequenceRun<'a> {
        self.tuning = tuning;
        self
    }

    /// A fresh run by rare values that keeps only `kept` of a table of
    /// heaps `0..=last`: one byte a value while they fit it, then two, in
    /// memory reserved for all of them and taken only where kept
    /// (`forget_past_window` gives the rest back). An input error for a
    /// code rare values cannot run.
    pub fn keeping(code: &'a Code, kept: Kept, last: u64) -> Result<SequenceRun<'a>> {
        SequenceRun::keeping_in(code, kept, last, sparse_table(last, false)?)
    }

    /// `keeping`, on `table` (reserved for heaps `0..=last`).
    fn keeping_in(code: &'a Code, kept: Kept, last: u64, table: HeapTable) -> Result<Self> {
        let mut run = SequenceRun::new(code, Algorithm::Rare, table)?;
        run.kept = Some(kept);
        run.fits_to = Some(last);
        Ok(run)
    }

    /// `keeping`, going on from what a checkpoint saved: the values of the
    /// prefix, and of the window from heap `window_from`, in place (the
    /// heaps between read as zeros, never read), the rare-value state as
    /// it was.
    pub fn keeping_from(
        code: &'a Code,
        kept: Kept,
        last: u64,
        values: KeptValues,
        rare: RareState,
    ) -> Result<SequenceRun<'a>> {
        let wide = values
            .prefix
            .iter()
            .chain(values.window)
            .any(|&v| v > u8::MAX as u16);
        let from = values.window_from;
        let table = kept_table(last, wide, values)?;
        let mut run = SequenceRun::keeping_in(code, kept, last, table)?;
        let rare_code = run.rare_code.as_ref().expect("rare values");
        run.rare = Some(RareRun::resumed(rare_code, rare));
        run.forgotten_to = from;
        Ok(run)
    }

    /// The rare-value state a checkpoint of a run keeping part of its
    /// table saves (none before the first heap is computed).
    pub fn rare_state(&self) -> Option<RareState> {
        self.rare.as_ref().map(RareRun::saved)
    }

    /// Gives back the memory of the heaps between the prefix kept and the
    /// window below the table's end (nothing for a run that keeps all).
    pub fn forget_past_window(&mut self) {
        let Some(kept) = self.kept else { return };
        let end = self.table.len().saturating_sub(kept.window);
        if end > kept.prefix {
            self.table.forget(kept.prefix, end);
            self.forgotten_to = self.forgotten_to.max(end);
        }
    }

    /// The least sizes that would have held what the heap that stopped the
    /// run needed (none: no heap stopped it for that).
    pub fn would_do(&self) -> Option<Kept> {
        let (kept, missed) = (self.kept?, self.missed?);
        let (prefix, window) = missed.would_do(kept, self.rare_code.as_ref()?);
        Some(Kept {
            prefix: prefix as usize,
            window: window as usize,
        })
    }

    /// Keeps `grown` (at least what it keeps now) from here on: the heaps
    /// it gave back that `grown` keeps are read by `read_back(a, b)`
    /// (G(a..b)) and written back in place.
    pub fn keep_more(
        &mut self,
        grown: Kept,
        mut read_back: impl FnMut(usize, usize) -> Result<Vec<u16>>,
    ) -> Result<()> {
        let kept = self.kept.expect("a run keeping part of its table");
        let (len, lost_to) = (self.table.len(), self.forgotten_to.max(kept.prefix));
        let window_from = len.saturating_sub(grown.window).max(grown.prefix);
        let wanted = [
            (kept.prefix, grown.prefix.min(lost_to)),
            (window_from.max(kept.prefix), lost_to),
        ];
        for (a, b) in wanted.into_iter().filter(|(a, b)| a < b) {
            if !self.table.put(a, &read_back(a, b)?) {
                return Err(Error::Run(format!(
                    "heaps {a}..{b} read back could not be put in the table"
                )));
            }
        }
        self.forgotten_to = lost_to.min(window_from);
        (self.kept, self.missed) = (Some(grown), None);
        Ok(())
    }

    /// The game being computed.
    pub fn code(&self) -> &'a Code {
        self.code
    }

    /// How the rare-value algorithm's heaps went (none when it did not run).
    pub fn rare_counts(&self) -> Option<rare::RareCounts> {
        self.rare.as_ref().map(|run| run.counts)
    }

    /// Whether the rare-value algorithm may compute the table (`auto` may
    /// still leave it for the brute force if the table turns out dense).
    pub fn uses_rare_values(&self) -> bool {
        self.rare_code.is_some() && !self.dense
    }

    /// The position parity the code allows (for the rare statistics).
    pub fn parity(&self) -> Option<u32> {
        rare::rare_parity(self.code)
    }

    /// Bytes a table of `values` heaps will hold in memory at its peak,
    /// its values where the table keeps them now.
    pub fn memory_needed(&self, values: u64) -> u64 {
        self.memory_needed_at(values, &self.table.place())
    }

    /// Bytes a table of `values` heaps would hold in memory at its peak
    /// with its values at `place`.
    pub fn memory_needed_at(&self, values: u64, place: &Place) -> u64 {
        match (self.rare_code.is_some(), place) {
            // One byte per value (two if many values pass 254: the bound
            // said), the rare list and the parallel block's bitsets.
            (true, Place::Memory) => values.saturating_mul(2) + WORKING,
            // The values in a file: the list of values past 254 (at most
            // one heap in 1024, 16 bytes each), the marks of where they are,
            // the rare list and the bitsets.
            (true, Place::Folder(_)) => values / 64 + WORKING,
            // The brute force holds its table in memory, two bytes a value.
            (false, _) => memory::heap_table_bytes(values),
        }
    }

    /// Refuses a table to heap `to` that cannot fit in memory (its values
    /// where the table keeps them), unless one as long was found to fit.
    fn check_fits(&mut self, to: u64) -> Result<()> {
        if self.fits_to.is_some_and(|fits| fits >= to) {
            return Ok(());
        }
        if let (Some(_), Some(last)) = (self.kept, self.fits_to) {
            return Err(Error::Input(format!(
                "heap {to} is past heap {last}, the last this run reserved memory for"
            )));
        }
        let what = format!("a table of {} values", to + 1);
        memory::check_fits(&what, self.memory_needed(to + 1))?;
        self.fits_to = Some(to);
        Ok(())
    }

    /// Notes that a table to heap `to` was found to fit (or was let go on:
    /// a period certified early fills the rest without holding it).
    pub fn fits_to(&mut self, to: u64) {
        self.fits_to = Some(to);
    }

    /// Extends the table to heap `to` on the CPU, without notices, progress
    /// or a stop (surveys, `play`, benchmarks).
    pub fn extend_on_cpu(&mut self, to: u64) -> Result<()> {
        let tuning = GpuTuning::default();
        self.extend(to, &LazyBackend::cpu(), &tuning, &Silent)
            .map(|_| ())
    }

    /// Extends the table to heaps `0..=to`, or until `hooks.stop()` says to
    /// pause. Returns whether the table reached `to`.
    pub fn extend(
        &mut self,
        to: u64,
        backend: &LazyBackend,
        tuning: &GpuTuning,
        hooks: &dyn RunHooks,
    ) -> Result<bool> {
        let use_rare = self.uses_rare_values();
        let reach = if use_rare {
            Reach::Any
        } else {
            Reach::BruteForce
        };
        check_last_heap("heap", to, reach)?;
        self.check_fits(to)?;
        if self.table.len() as u64 > to {
            self.table.truncate(to as usize + 1);
            return Ok(true);
        }
        let start = Instant::now();
        let done = self.extend_by_engines(to, backend, tuning, hooks);
        self.seconds += start.elapsed().as_secs_f64();
        done
    }

    /// `extend`'s work: by rare values while they pay, else by the brute
    /// force; a run of `auto` that gave rare values up looks again at every
    /// doubling of its table (`look_again`), since rare heaps often thin
    /// out as the table grows (`.206`: 21.8 % of the first 2^15 heaps,
    /// 3.5 % of the first 2^18).
    fn extend_by_engines(
        &mut self,
        to: u64,
        backend: &LazyBackend,
        tuning: &GpuTuning,
        hooks: &dyn RunHooks,
    ) -> Result<bool> {
        loop {
            if self.uses_rare_values() {
                let against = brute_force_on(backend, to);
                let done = self.extend_rare(to, backend.pass_runner(), against, hooks)?;
                if !self.dense {
                    return Ok(done);
                }
                let brute = backend.get_for(to, GpuFrom::HEAPS, hooks)?;
                if against == BruteForceOn::Gpu && matches!(brute, Backend::Cpu) {
                    // Judged against a card that is not there: go on by
                    // the CPU's rule.
                    self.dense = false;
                    continue;
                }
                self.give_up_rare(hooks);
            }
            let brute = backend.get_for(to, GpuFrom::HEAPS, hooks)?;
            if self.rare_code.is_some() && self.table.len() >= 2 * self.looked_at {
                self.looked_at = self.table.len();
                if self.look_again(brute_force_of(brute), hooks) {
                    continue;
                }
            }
            let piece_to = match self.rare_code {
                Some(_) => to.min((2 * self.looked_at as u64).saturating_sub(1)),
                None => to,
            };
            let done = self.extend_brute(piece_to, brute, tuning, hooks)?;
            if !done || piece_to >= to {
                return Ok(done);
            }
            if hooks.stop() {
                return Ok(false);
            }
        }
    }

    /// Says that rare values do not pay and lets their state go; the run
    /// looks again once its table has doubled.
    fn give_up_rare(&mut self, hooks: &dyn RunHooks) {
        let rare = self.rare.take().map_or(0, |r| r.rare.len());
        self.looked_at = self.table.len();
        hooks.notice(Marked(&format!(
            "{} rare positions among the first {} heaps: rare values do not pay for {}; going \
             on by brute force, looking again at every doubling",
            rare,
            self.table.len(),
            self.code.name()
        )));
    }

    /// Whether rare values pay again for a table that `auto` went on with
    /// by the brute force `against`: the rare heaps under the table's best
    /// split, judged by the rule that gave them up (`rare_values_pay`).
    /// Where they pay, the run holds that state and goes on by rare values
    /// (true).
    fn look_again(&mut self, against: BruteForceOn, hooks: &dyn RunHooks) -> bool {
        let Some(code) = self.rare_code.as_ref() else {
            return false;
        };
        let run = self.table.with_store(NewRareRun { code });
        let heaps = self.table.len();
        if !rare::rare_values_pay(run.rare.len(), heaps, against) {
            return false;
        }
        hooks.notice(Marked(&format!(
            "{} rare positions among the first {heaps} heaps: rare values pay again for {}; \
             going on by them",
            run.rare.len(),
            self.code.name()
        )));
        self.looked_back += 1;
        (self.rare, self.dense) = (Some(run), false);
        true
    }

    fn extend_rare(
        &mut self,
        to: u64,
        gpu: Option<&Runner>,
        against: BruteForceOn,
        hooks: &dyn RunHooks,
    ) -> Result<bool> {
        // A run keeping part of its table runs its pass on the CPU: the
        // card's pass uploads the whole table below each block.
        let gpu = gpu.filter(|_| self.kept.is_none());
        let mut pass = self.gpu_pass(gpu, to, hooks);
        let code = self.rare_code.as_ref().expect("rare code");
        let persist = if self.algorithm == Algorithm::Rare {
            Persist::Always
        } else {
            Persist::GiveUpWhenDense(against)
        };
        self.engine = HeapEngine::Rare;
        let gpu_heaps = self.rare.as_ref().map_or(0, |r| r.counts.gpu_heaps);
        let outcome = loop {
            let outcome = self.table.with_store(RareStep {
                code,
                run: &mut self.rare,
                tuning: self.tuning,
                kept: self.kept,
                gap: Gap {
                    from: self.kept.map_or(0, |k| k.prefix),
                    to: self.forgotten_to,
                },
                target: Target { to, persist },
                pass: &mut pass,
                hooks,
            });
            if !matches!(outcome, Outcome::Widen { .. }) || self.table.is_widest() {
                break outcome;
            }
            // One byte, then one byte with the larger values kept apart,
            // then two bytes; for a table that keeps part of its values,
            // one byte then two.
            match self.kept {
                Some(kept) => {
                    let last = self.fits_to.unwrap_or(self.table.len() as u64);
                    widen_kept(&mut self.table, kept, self.forgotten_to, last)?
                }
                None => self.table.widen(),
            }
        };
        let on_gpu = self.rare.as_ref().map_or(0, |r| r.counts.gpu_heaps) > gpu_heaps;
        self.ran_on = if on_gpu { Ran::Gpu } else { Ran::Cpu };
        self.rare_outcome(outcome)
    }

    /// The block pass on the GPU, when one is open; says once when the
    /// card holds less of the table than the run needs (the pass runs the
    /// blocks below what it holds, the CPU the rest).
    fn gpu_pass<'r>(
        &mut self,
        gpu: Option<&'r Runner>,
        to: u64,
        hooks: &dyn RunHooks,
    ) -> Option<GpuPass<'r>> {
        let runner = gpu?;
        let code = self.rare_code.as_ref()?;
        let pass = match grundy_gpu::rare::unfit(runner) {
            None => Some(GpuPass::new(runner, code, to + 1)),
            Some(why) => {
                self.say_pass_on_cpu(&why, 0, hooks);
                None
            }
        }?;
        if let Some(why) = pass.short_of_room() {
            self.say_pass_on_cpu(why, pass.holds(), hooks);
        }
        (pass.holds() > 0).then_some(pass)
    }

    /// Says once why the block pass runs on the CPU from heap `held` on.
    fn say_pass_on_cpu(&mut self, why: &str, held: u64, hooks: &dyn RunHooks) {
        if self.said_pass_on_cpu {
            return;
        }
        let runs = match held {
            0 => "on the CPU".to_string(),
            held => format!("on the GPU below heap {held} and on the CPU past it"),
        };
        hooks.notice(Marked(&format!(
            "{why}; the rare values' block pass runs {runs}"
        )));
        self.said_pass_on_cpu = true;
    }

    /// What a rare-value call's outcome means for the run: done, paused,
    /// or the brute force from here on.
    fn rare_outcome(&mut self, outcome: Outcome) -> Result<bool> {
        match outcome {
            Outcome::Done => Ok(true),
            Outcome::Paused => Ok(false),
            Outcome::Dense => {
                self.dense = true;
                Ok(false)
            }
            Outcome::Widen { n, value } => Err(Error::Run(format!(
                "G({n}) = {value} is larger than 65535, the most a u16 table holds"
            ))),
            Outcome::Failed(why) => Err(Error::Run(why)),
            Outcome::Beyond(beyond) => {
                self.missed = Some(beyond);
                Err(self.beyond(beyond))
            }
            Outcome::OutOfMemory { heaps } => Err(Error::OutOfMemory(format!(
                "out of memory: room for {heaps} more values ({}) could not be had after heap \
                 {}; ask for fewer heaps or free memory",
                memory::human(heaps as u64 * self.table.bytes_per_value()),
                self.table.len().saturating_sub(1)
            ))),
        }
    }

    /// The error for a heap that needed a value the run does not keep: the
    /// heaps below it are done, and the sizes that would have done are said.
    fn beyond(&self, beyond: Beyond) -> Error {
        let kept = self.kept.expect("only a run that keeps part of its table");
        let code = self.rare_code.as_ref().expect("rare code");
        let (prefix, window) = beyond.would_do(kept, code);
        Error::NotKept(format!(
            "{}, a value this run does not keep (the heaps below {} and the last {}); heaps \
             0..={} are done. It needs at least {} and {}: start again with as much or more \
             (the heaps it would read were not kept)",
            beyond.what(),
            kept.prefix,
            kept.window,
            beyond.heap().saturating_sub(1),
            Setting::KeepPrefix.is(prefix),
            Setting::KeepWindow.is(window)
        ))
    }

    /// The blocked kernels (or the general engine), in pieces that end on
    /// `hooks.stop()`; each piece at least doubles the table or adds 2^20
    /// heaps.
    fn extend_brute(
        &mut self,
        to: u64,
        backend: &Backend,
        tuning: &GpuTuning,
        hooks: &dyn RunHooks,
    ) -> Result<bool> {
        loop {
            let len = self.table.len() as u64;
            let piece_to = to.min((2 * len).max(len + (1 << 20)));
            let place = self.table.place();
            let wide = std::mem::take(&mut self.table).into_wide();
            let run = extend_heap_table(self.code, wide, piece_to, backend, tuning, hooks)?;
            let stopped = (run.table.len() as u64) <= piece_to;
            // The kernels hold their table in memory; it goes back where it was.
            self.table = HeapTable::from_wide(run.table)
                .moved_to(&place)
                .map_err(|e| Error::Run(format!("the table's file could not be written: {e}")))?;
            self.engine = run.engine;
            self.ran_on = run.backend;
            if stopped {
                return Ok(false);
            }
            if piece_to >= to {
                return Ok(true);
            }
            if hooks.stop() {
                return Ok(false);
            }
        }
    }
}

/// `table`, keeping `kept` of its values and having given back those
/// below `forgotten_to` past the prefix, two bytes a value: the prefix and
/// the heaps not given back copied, none between.
fn widen_kept(table: &mut HeapTable, kept: Kept, forgotten_to: usize, last: u64) -> Result<()> {
    let len = table.len();
    let prefix = table.values(0, kept.prefix.min(len));
    let window_from = forgotten_to.clamp(prefix.len(), len);
    let window = table.values(window_from, len);
    let values = KeptValues {
        prefix: &prefix,
        window_from,
        window: &window,
    };
    *table = kept_table(last, true, values)?;
    Ok(())
}

/// The values a run keeping part of its table holds: its prefix, and its
/// window from heap `window_from` on.
pub struct KeptValues<'v> {
    pub prefix: &'v [u16],
    pub window_from: usize,
    pub window: &'v [u16],
}

/// A table of heaps `0..=last`, two bytes a value when `wide`, holding
/// `values` in place (the heaps between the prefix and the window never
/// written: they hold no memory).
fn kept_table(last: u64, wide: bool, values: KeptValues) -> Result<HeapTable> {
    let mut table = sparse_table(last, wide)?;
    table.extend_words(values.prefix);
    if !table.skip_to(values.window_from) {
        return Err(Error::Run(
            "the table's memory could not be reserved".into(),
        ));
    }
    table.extend_words(values.window);
    Ok(table)
}

/// An empty table for heaps `0..=last` in memory reserved, not taken:
/// two bytes a value when `wide`, else one.
fn sparse_table(last: u64, wide: bool) -> Result<HeapTable> {
    let reserved = |e: std::io::Error| {
        Error::Run(format!(
            "memory for a table of {} heaps could not be reserved: {e}",
            last + 1
        ))
    };
    let cap = usize::try_from(last)
        .ok()
        .and_then(|l| l.checked_add(1))
        .ok_or_else(|| reserved(std::io::Error::other("too many heaps")))?;
    Ok(match wide {
        true => HeapTable::Wide(Buf::sparse(cap).map_err(reserved)?),
        false => HeapTable::Narrow(Buf::sparse(cap).map_err(reserved)?),
    })
}

/// One call of the rare-value engine on a table, at the table's width.
struct RareStep<'a, 'r> {
    code: &'a RareCode,
    run: &'a mut Option<RareRun>,
    tuning: Tuning,
    kept: Option<Kept>,
    gap: Gap,
    target: Target,
    pass: &'a mut Option<GpuPass<'r>>,
    hooks: &'a dyn RunHooks,
}

/// The brute force that rare values are weighed against for a table to
/// heap `to`: where `backend` runs it once open; while `auto` has not
/// looked for a card, the card's (the stricter rule), unless the table is
/// too short for `auto` to take one.
fn brute_force_on(backend: &LazyBackend, to: u64) -> BruteForceOn {
    match backend.opened() {
        Some(opened) => brute_force_of(opened),
        None if GpuFrom::HEAPS.takes(to) => BruteForceOn::Gpu,
        None => BruteForceOn::Cpu,
    }
}

/// The brute force `backend` runs.
fn brute_force_of(backend: &Backend) -> BruteForceOn {
    match backend {
        Backend::Gpu(_) => BruteForceOn::Gpu,
        Backend::Cpu => BruteForceOn::Cpu,
    }
}

/// A rare-value run's state built from the table (`RareRun::new`).
struct NewRareRun<'a> {
    code: &'a RareCode,
}

impl OnStore for NewRareRun<'_> {
    type Output = RareRun;
    fn on<S: Store + TableWidth>(self, g: &mut S) -> RareRun {
        RareRun::new(self.code, g.view())
    }
}

impl OnStore for RareStep<'_, '_> {
    type Output = Outcome;
    fn on<S: Store + TableWidth>(self, g: &mut S) -> Outcome {
        let code = self.code;
        let run = self.run.get_or_insert_with(|| RareRun::new(code, g.view()));
        run.tuning = self.tuning;
        run.set_kept(self.kept, self.gap);
        rare::extend(code, run, g, self.target, self.pass, self.hooks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept table widened to two bytes a value after heaps were given
    /// back (as when a value passes 255) keeps its prefix and window, and
    /// the run goes on to the whole table's values.
    #[test]
    fn a_kept_table_widened_past_what_it_gave_back_goes_on_the_same() {
        let code = Code::parse("0.167").unwrap();
        let kept = Kept {
            prefix: 4096,
            window: 2048,
        };
        let mut run = SequenceRun::keeping(&code, kept, 40_000).unwrap();
        let mut out = Vec::new();
        let piece = |run: &mut SequenceRun, out: &mut Vec<u16>, to: u64| {
            run.extend_on_cpu(to).unwrap();
            out.extend(run.table.values(out.len(), run.table.len()));
            run.forget_past_window();
        };
        for to in (1024..20_000).step_by(1024) {
            piece(&mut run, &mut out, to);
        }
        assert!(!run.table.is_widest());
        let before = run.table.values(0, 4096);
        let len = run.table.len();
        widen_kept(&mut run.table, kept, run.forgotten_to, 40_000).unwrap();
        assert!(run.table.is_widest());
        assert_eq!(run.table.values(0, 4096), before);
        assert_eq!(run.table.values(len - 2048, len), out[len - 2048..]);
        assert!(run.table.values(8192, len - 4096).iter().all(|&v| v == 0));
        for to in (20_480..=40_000).step_by(1024).chain([40_000]) {
            piece(&mut run, &mut out, to);
        }
        let mut whole = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default()).unwrap();
        whole.extend_on_cpu(40_000).unwrap();
        assert!(out == whole.table.into_wide());
    }
}
