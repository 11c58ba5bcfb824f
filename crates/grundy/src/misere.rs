//! `MisereSequence`: a heap game's table under misère play (the last
//! player to move loses): each heap's misère nim value g⁻, its outcome and
//! its genus (`analysis::genus`). Codes that never split a heap run in time
//! linear in the heaps and find their period; codes that split are valued
//! over whole sums, as far as the sums fit.

use grundy_core::analysis::genus::{
    GENUS_DEPTH, Genus, SearchedGenera, heap_genera_by_search, refuse_splitting,
};
use grundy_core::analysis::genus_stream::{
    GenusCycle, GenusPeriod, GenusStream, PeriodSearch, period_start,
};
use grundy_core::analysis::sum_bound::HeapSums;
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::{RunHooks, Silent};
use grundy_core::kernel::genus::{GenusKernelCode, NORMAL_PLANE, PLANES, gamma_plane};
use grundy_core::setting::Setting;
use grundy_engine::misere_heaps;
use grundy_engine::{BackendChoice, RanOn};

use crate::memory;

/// A heap game's misère table to compute: a code and how far.
///
/// ```
/// use grundy::MisereSequence;
///
/// // Kayles (0.77) under misère play: heaps 1, 4, 9, 12 are P-positions.
/// let kayles = MisereSequence::octal("0.77")?.heaps(12).run()?;
/// let p: Vec<u64> = (0..=12).filter(|&h| kayles.is_p(h)).collect();
/// assert_eq!(p, [1, 4, 9, 12]);
/// assert_eq!(kayles.genus(4).to_string(), "1^031"); // as Winning Ways writes it
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct MisereSequence {
    code: Code,
    heaps: u64,
    backend: BackendChoice,
}

/// How a misère table was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MisereMethod {
    /// A code that never splits a heap: each heap from the smaller heaps,
    /// one after another.
    Linear,
    /// A code that never splits a heap and takes without bound: blocks of
    /// heaps, each block's options in parallel (on the card, or its CPU
    /// twin), each heap from the smaller heaps.
    Blocked,
    /// A code that splits: each heap over whole sums with nim-heaps of 2.
    Sums,
}

/// What a misère run ends with, besides its rows.
#[derive(Clone, Debug)]
pub struct MisereEnd {
    /// How the rows were computed.
    pub method: MisereMethod,
    /// The period of the truncated genus (γ0 … γK with the normal value),
    /// certified by a window of heaps as long as the largest removal
    /// coming back (method `Linear`, where it shows within the table).
    pub period: Option<GenusPeriod>,
    /// Sums the search remembered (method `Sums`).
    pub sums: Option<usize>,
    /// The first heap whose sums did not fit (method `Sums`): the rows
    /// stop before it.
    pub stopped_at: Option<u64>,
    /// Where the rows were computed: the card or the CPU (method `Blocked`
    /// may run on either; the others run on the CPU).
    pub ran: RanOn,
}

/// What a search over whole sums may need, counted before it starts
/// (`analysis::sum_bound`): a bound from above, since the search may meet
/// far fewer sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumsNeeded {
    /// The sums the search can meet, at most (`None`: too many to count).
    pub at_most: Option<u128>,
    /// The sums the memory budget holds.
    pub budget: usize,
    /// The last heap certain to fit in the budget (`None`: not even heap 0).
    pub certain_to: Option<u64>,
}

impl SumsNeeded {
    /// Whether the whole run is certain to fit.
    pub fn certain(&self) -> bool {
        self.at_most.is_some_and(|n| n <= self.budget as u128)
    }
}

impl MisereSequence {
    /// The misère table of an octal or take-and-break code in CGSuite's
    /// notation (`0.77`, `0.137`, `4.7`).
    pub fn octal(code: &str) -> Result<MisereSequence> {
        let code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
        Ok(MisereSequence::of(code))
    }

    /// The misère table of the subtraction game on `set`.
    pub fn subtraction(set: &[u32]) -> Result<MisereSequence> {
        Ok(MisereSequence::of(
            Code::subtraction(set).map_err(Error::Input)?,
        ))
    }

    /// The misère table of a parsed code, to heap 0 until `heaps` says more.
    pub fn of(code: Code) -> MisereSequence {
        MisereSequence {
            code,
            heaps: 0,
            backend: BackendChoice::Cpu,
        }
    }

    /// Where a code that takes without bound runs (method `Blocked`):
    /// `Auto` takes a real GPU for long tables, `Gpu` any adapter. Codes
    /// with bounded takes and codes that split run on the CPU: `Auto`
    /// keeps them there and `Gpu` is refused for them, since their work is
    /// not the card's (docs/misere.md).
    pub fn backend(mut self, backend: BackendChoice) -> MisereSequence {
        self.backend = backend;
        self
    }

    /// Heaps 0..=n.
    pub fn heaps(mut self, n: u64) -> MisereSequence {
        self.heaps = n;
        self
    }

    /// The code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The last heap asked for.
    pub fn last_heap(&self) -> u64 {
        self.heaps
    }

    /// How the table will be computed.
    pub fn method(&self) -> MisereMethod {
        if refuse_splitting(&self.code).is_err() {
            return MisereMethod::Sums;
        }
        match self.blocked_code() {
            Some(_) => MisereMethod::Blocked,
            None => MisereMethod::Linear,
        }
    }

    /// `Gpu` asked for a table the card does not run, refused with why.
    fn refuse_card(&self) -> Result<()> {
        let other = "or a code with an unbounded tail such as 0.[3]";
        let (why, instead) = match self.method() {
            _ if self.backend != BackendChoice::Gpu => return Ok(()),
            MisereMethod::Blocked => return Ok(()),
            MisereMethod::Sums => (
                "splits heaps (its heaps are searched over whole sums)".into(),
                other,
            ),
            MisereMethod::Linear => match GenusKernelCode::new(&self.code) {
                Ok(k) if k.unbounded() => (
                    format!(
                        "may have values past 65535 by heap {} (more than the card's bitsets \
                         hold)",
                        self.heaps
                    ),
                    "or fewer heaps",
                ),
                _ => (
                    "takes at most a few counters (its period shows within a few heaps)".into(),
                    other,
                ),
            },
        };
        Err(Error::Input(format!(
            "{} with {}: {} {why}, and runs on the CPU; expected {} or {}, {instead}",
            Setting::Backend.is("gpu"),
            Setting::Misere.named(),
            self.code.name(),
            Setting::Backend.is("auto"),
            Setting::Backend.is("cpu")
        )))
    }

    /// The code as the blocked kernels read it, where they value it.
    fn blocked_code(&self) -> Option<GenusKernelCode> {
        GenusKernelCode::new(&self.code)
            .ok()
            .filter(|k| misere_heaps::takes(k, self.heaps))
    }

    /// For a code that splits (`method` is `Sums`), the sums its search may
    /// remember, said before the run: the table stops where the sums pass
    /// the budget, and is certain to reach `certain_to`.
    pub fn sums_needed(&self) -> Option<SumsNeeded> {
        if self.method() != MisereMethod::Sums {
            return None;
        }
        let counts = HeapSums::of(&self.code, self.heaps);
        let budget = memory::sums_within_budget();
        let at_most = counts.genus_table(self.heaps, GENUS_DEPTH);
        Some(SumsNeeded {
            at_most: (at_most < u128::MAX).then_some(at_most),
            budget,
            certain_to: counts.genus_table_fits_to(self.heaps, GENUS_DEPTH, budget),
        })
    }

    /// The rows one at a time, as they are computed (for writing a table
    /// of 10^8 heaps without keeping it): a code that splits is searched
    /// here, hearing `hooks`; one that never splits is stepped by
    /// `MisereRows::next_row`. Refuses a stream that does not fit in the
    /// memory budget.
    pub fn rows(&self, hooks: &dyn RunHooks) -> Result<MisereRows<'_>> {
        self.refuse_card()?;
        let source = match self.method() {
            MisereMethod::Linear => {
                let what = format!("a misère table of {} heaps", self.heaps.saturating_add(1));
                memory::check_fits(
                    &what,
                    GenusStream::bytes(&self.code, GENUS_DEPTH, self.heaps),
                )?;
                let stream = GenusStream::new(&self.code, GENUS_DEPTH).map_err(Error::Input)?;
                Source::Linear(Box::new(stream), PeriodSearch::default(), None)
            }
            MisereMethod::Blocked => self.blocked(hooks)?,
            MisereMethod::Sums => Source::Searched(self.searched(hooks)?),
        };
        Ok(MisereRows {
            code: &self.code,
            n: self.heaps,
            next: 0,
            row: Vec::with_capacity(GENUS_DEPTH + 1),
            source,
        })
    }

    /// The whole table in memory.
    pub fn run(&self) -> Result<MisereTable> {
        self.run_with(&Silent)
    }

    /// The whole table in memory, `hooks` hearing of a search's heaps and
    /// asked whether to stop.
    pub fn run_with(&self, hooks: &dyn RunHooks) -> Result<MisereTable> {
        let per_heap = (GENUS_DEPTH as u64 + 2) * 4;
        let what = format!("the misère table of {} heaps", self.heaps.saturating_add(1));
        memory::check_fits(&what, self.heaps.saturating_add(1).saturating_mul(per_heap))?;
        let mut rows = self.rows(hooks)?;
        let (mut normal, mut gammas) = (Vec::new(), Vec::new());
        while let Some(row) = rows.next_row()? {
            normal.push(row.normal);
            gammas.extend_from_slice(row.gammas);
        }
        Ok(MisereTable {
            code: self.code.text.clone(),
            normal,
            gammas,
            end: rows.end()?,
        })
    }

    /// A code that takes without bound: every heap's state by the blocked
    /// kernels, on the backend asked for; an interruption is an error.
    fn blocked(&self, hooks: &dyn RunHooks) -> Result<Source<'_>> {
        let kernel = self.blocked_code().expect("method() said Blocked");
        let what = format!("a misère table of {} heaps", self.heaps.saturating_add(1));
        memory::check_fits(&what, misere_heaps::bytes(&kernel, self.heaps as u32))?;
        hooks.begin(self.heaps.saturating_add(1), "heaps");
        let (states, ran) = misere_heaps::run(&kernel, self.heaps, self.backend, hooks)?;
        hooks.end();
        let Some(states) = states else {
            return Err(Error::Interrupted {
                message: format!(
                    "{} stopped the misère table of {} (a table that stops short would look \
                     whole, so none is given)",
                    grundy_core::interrupt::received_name(),
                    self.code.name()
                ),
                status: grundy_core::interrupt::exit_status(),
            });
        };
        Ok(Source::Blocked(states, ran))
    }

    /// A code that splits: every genus by search over whole sums, within
    /// the memory budget's sums; an interruption is an error.
    fn searched(&self, hooks: &dyn RunHooks) -> Result<SearchedGenera> {
        let limit = memory::sums_within_budget();
        hooks.begin(self.heaps.saturating_add(1), "heaps");
        let found = heap_genera_by_search(&self.code, (self.heaps, GENUS_DEPTH), limit, hooks);
        hooks.end();
        if found.asked {
            let last = found.stopped_at.unwrap_or(0);
            return Err(Error::Interrupted {
                message: format!(
                    "{} stopped the misère table of {} at heap {last} (heaps 0..{last} were \
                     done; a table that stops short would look whole, so none is given)",
                    grundy_core::interrupt::received_name(),
                    self.code.name()
                ),
                status: grundy_core::interrupt::exit_status(),
            });
        }
        if found.genera.is_empty() {
            return Err(Error::WontFit(format!(
                "the sums of heap 0 of {} under misère play pass {} remembered sums",
                self.code.name(),
                found.sums
            )));
        }
        Ok(found)
    }
}

/// Where a table's rows come from.
enum Source<'a> {
    /// The stream, the search for its period, and the period's cycle
    /// once found (the later rows are the cycle's).
    Linear(Box<GenusStream<'a>>, PeriodSearch, Option<GenusCycle>),
    /// Every heap's state (`PLANES` values a heap), and where it was computed.
    Blocked(Vec<u32>, RanOn),
    Searched(SearchedGenera),
}

/// A misère table's rows, one at a time (`MisereSequence::rows`).
pub struct MisereRows<'a> {
    code: &'a Code,
    n: u64,
    next: u64,
    /// The superscripts of the row last given.
    row: Vec<u32>,
    source: Source<'a>,
}

/// One heap's row of a misère table.
pub struct MisereRow<'a> {
    /// The heap.
    pub heap: u64,
    /// Its normal-play nim value.
    pub normal: u32,
    /// Its superscripts γ0 … γK (γ0 = g⁻, the misère nim value).
    pub gammas: &'a [u32],
}

/// The longest cycle kept to give the rows past a certified period's
/// start (a heap's genus is 8 numbers); a longer one is stepped through.
const MAX_CYCLE: u64 = 1 << 22;

impl MisereRows<'_> {
    /// The next row; `None` after the last.
    pub fn next_row(&mut self) -> Result<Option<MisereRow<'_>>> {
        let h = self.next;
        if h > self.n {
            return Ok(None);
        }
        let normal = match &mut self.source {
            Source::Searched(found) => {
                let Some(genus) = found.genera.get(h as usize) else {
                    return Ok(None);
                };
                self.row.clone_from(&genus.gammas);
                genus.normal
            }
            Source::Blocked(states, _) => {
                let row = &states[(h * PLANES as u64) as usize..][..PLANES as usize];
                self.row.clear();
                self.row
                    .extend((0..=GENUS_DEPTH).map(|k| row[gamma_plane(k)]));
                row[NORMAL_PLANE as usize]
            }
            Source::Linear(stream, search, cycle) => {
                if let Some(c) = cycle.as_ref().filter(|c| h >= c.period.start) {
                    let (normal, gammas) = c.genus_of(h);
                    self.row.clone_from(gammas);
                    *normal
                } else {
                    stream.step();
                    search.look(stream);
                    let (normal, gammas) = stream.genus_of(h);
                    self.row = gammas;
                    if let (Some(p), None) = (search.found, &cycle)
                        && p <= MAX_CYCLE
                    {
                        let found =
                            GenusCycle::of(self.code, GENUS_DEPTH, p).map_err(Error::Run)?;
                        *cycle = Some(found);
                    }
                    normal
                }
            }
        };
        self.next += 1;
        Ok(Some(MisereRow {
            heap: h,
            normal,
            gammas: &self.row,
        }))
    }

    /// How the rows were computed, and the period they certified.
    pub fn end(self) -> Result<MisereEnd> {
        match self.source {
            Source::Searched(found) => Ok(MisereEnd {
                method: MisereMethod::Sums,
                period: None,
                sums: Some(found.sums),
                stopped_at: found.stopped_at,
                ran: RanOn::cpu(),
            }),
            Source::Blocked(_, ran) => Ok(MisereEnd {
                method: MisereMethod::Blocked,
                period: None,
                sums: None,
                stopped_at: None,
                ran,
            }),
            Source::Linear(_, search, cycle) => {
                let period = match (cycle, search.found) {
                    (Some(c), _) => Some(c.period),
                    (None, Some(p)) => {
                        Some(period_start(self.code, GENUS_DEPTH, p).map_err(Error::Run)?)
                    }
                    (None, None) => None,
                };
                Ok(MisereEnd {
                    method: MisereMethod::Linear,
                    period,
                    sums: None,
                    stopped_at: None,
                    ran: RanOn::cpu(),
                })
            }
        }
    }
}

/// A misère table in memory: every heap's normal value and genus.
#[derive(Clone, Debug)]
pub struct MisereTable {
    code: String,
    normal: Vec<u32>,
    /// γ0 … γK of each heap, one after another.
    gammas: Vec<u32>,
    end: MisereEnd,
}

impl MisereTable {
    /// The code, as written.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Heaps in the table (0..len): fewer than asked where a splitting
    /// code's sums did not fit (`stopped_at`).
    pub fn len(&self) -> u64 {
        self.normal.len() as u64
    }

    /// Whether the table has no heap.
    pub fn is_empty(&self) -> bool {
        self.normal.is_empty()
    }

    /// Every heap's normal value, heap 0 first.
    pub fn normal_values(&self) -> &[u32] {
        &self.normal
    }

    /// Every heap's superscripts γ0 … γK, heap after heap: `len()` rows
    /// of `GENUS_DEPTH + 1`.
    pub fn gammas(&self) -> &[u32] {
        &self.gammas
    }

    /// The genus of heap `h`: normal value and superscripts.
    pub fn genus(&self, h: u64) -> Genus {
        let k = GENUS_DEPTH + 1;
        let at = h as usize * k;
        Genus {
            normal: self.normal[h as usize],
            gammas: self.gammas[at..at + k].to_vec(),
        }
    }

    /// The misère nim value g⁻ of heap `h`.
    pub fn misere(&self, h: u64) -> u32 {
        self.gammas[h as usize * (GENUS_DEPTH + 1)]
    }

    /// The normal nim value of heap `h`.
    pub fn normal(&self, h: u64) -> u32 {
        self.normal[h as usize]
    }

    /// Whether heap `h` is a P-position under misère play (g⁻ = 0: the
    /// player to move loses).
    pub fn is_p(&self, h: u64) -> bool {
        self.misere(h) == 0
    }

    /// How the table was computed, its certified period and where the
    /// sums stopped.
    pub fn end(&self) -> &MisereEnd {
        &self.end
    }
}
