//! `MisereQuotient`: the misère quotient of a take-and-break game's heaps
//! up to a size (Plambeck and Siegel, "Misère quotients for impartial
//! games"), as `grundy quotient` computes it: the monoid, its P-portion,
//! the pretending function, a presentation in the papers' notation, and
//! the heap sizes at which it grew. Every quotient returned has been
//! proved right on every sum of those heaps (`analysis::quotient::verify`).
//!
//! ```
//! use grundy::quotient::{MisereQuotient, Named};
//!
//! // 0.75 is tamed by Plambeck's eight-element quotient R8.
//! let q = MisereQuotient::of("0.75")?.max_heap(12).run()?;
//! assert_eq!(q.order(), 8);
//! assert_eq!(q.p_portion_names(), ["a", "b^2"]);
//! // A heap of 1 (a) and two of 2 (b, b): ab^2, not in P.
//! assert!(!q.is_p(&[1, 2, 2]));
//! # Ok::<(), grundy::Error>(())
//! ```

use grundy_core::analysis::quotient::{Limits, MAX_HEAP, misere_quotient};
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::{RunHooks, Silent};
use serde::Serialize;

use grundy_core::analysis::quotient::presentation::generator_name;

pub use grundy_core::analysis::quotient::period::{QuotientPeriod, not_covered};
pub use grundy_core::analysis::quotient::presentation::{monomial_latex, monomial_text};
pub use grundy_core::analysis::quotient::{Method, Quotient, grew};

/// A quotient to compute: the code, the largest heap, the method and the
/// memory it may take.
pub struct MisereQuotient {
    code: Code,
    max_heap: u16,
    method: Method,
    memory: Option<u64>,
    until_solved: bool,
}

impl MisereQuotient {
    /// The quotient of a code in CGSuite's notation (`0.07`, `4.7`).
    pub fn of(code: &str) -> Result<MisereQuotient> {
        let code = Code::parse(code).map_err(|e| Error::Input(e.to_string()))?;
        Ok(MisereQuotient::of_code(code))
    }

    /// The quotient of a parsed code.
    pub fn of_code(code: Code) -> MisereQuotient {
        MisereQuotient {
            code,
            max_heap: 1,
            method: Method::Learn,
            memory: None,
            until_solved: false,
        }
    }

    /// The code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// Heaps up to `h` (1 ..= 4096).
    pub fn max_heap(mut self, h: u16) -> MisereQuotient {
        self.max_heap = h;
        self
    }

    /// `Method::Learn` (the default) or `Method::Exact` (a few heaps).
    pub fn method(mut self, method: Method) -> MisereQuotient {
        self.method = method;
        self
    }

    /// At most this many bytes for its sums and checks (by default the
    /// memory budget: what the machine has room for, less an eighth).
    pub fn memory(mut self, bytes: u64) -> MisereQuotient {
        self.memory = Some(bytes);
        self
    }

    /// Stop at the first heap up to `max_heap` from which the periodicity
    /// theorem proves the quotient the whole game's (`Quotient::period`),
    /// looked for at every heap to 128 and then as heaps grow by half.
    pub fn until_solved(mut self, yes: bool) -> MisereQuotient {
        self.until_solved = yes;
        self
    }

    /// Compute it, silently.
    pub fn run(self) -> Result<Quotient> {
        self.run_with(&Silent)
    }

    /// Compute it; `hooks` hear of each heap size done and may stop it.
    pub fn run_with(self, hooks: &dyn RunHooks) -> Result<Quotient> {
        if !(1..=MAX_HEAP).contains(&self.max_heap) {
            return Err(Error::Input(format!(
                "max heap {}: expected 1 to {MAX_HEAP}",
                self.max_heap
            )));
        }
        let bytes = self
            .memory
            .unwrap_or_else(grundy_engine::memory::budget_bytes);
        let limits = Limits {
            until_solved: self.until_solved,
            ..Limits::within(bytes)
        };
        misere_quotient(&self.code, self.max_heap, self.method, limits, hooks).map_err(|s| {
            let heaps = match s.at_heap {
                1 => "no heap size".to_string(),
                h => format!("heaps up to {}", h - 1),
            };
            let message = format!(
                "the misère quotient of {} stopped at heap {} ({heaps} done, last order {}): {}",
                self.code.name(),
                s.at_heap,
                s.orders.last().copied().unwrap_or(1),
                match s.full {
                    true => format!("more than {} within the memory budget", s.why),
                    false => "asked to stop".to_string(),
                }
            );
            match s.full {
                true => Error::WontFit(message),
                false => Error::Stopped(message),
            }
        })
    }
}

/// What a quotient's readers ask of it, by name.
pub trait Named {
    /// The P-portion, each element by name.
    fn p_portion_names(&self) -> Vec<String>;
    /// The pretending function: each heap 0 ..= max heap's element, by name.
    fn pretending_names(&self) -> Vec<String>;
}

impl Named for Quotient {
    fn p_portion_names(&self) -> Vec<String> {
        self.p_portion().into_iter().map(|e| self.name(e)).collect()
    }

    fn pretending_names(&self) -> Vec<String> {
        (0..=self.max_heap)
            .map(|h| self.name(self.element_of_heap(h)))
            .collect()
    }
}

/// A quotient as `grundy quotient --json` and Python's `misere_quotient` give it.
#[derive(Serialize)]
pub struct QuotientSummary {
    /// The code as given.
    pub code: String,
    /// The largest heap, H.
    pub max_heap: u16,
    /// "misere": the last player to move loses.
    pub convention: &'static str,
    /// "learn" or "exact".
    pub method: &'static str,
    /// |Q_H|.
    pub order: usize,
    /// Each generator's letter and the heap it is.
    pub generators: Vec<Generator>,
    /// Relations [u, v]: u = v.
    pub relations: Vec<[String; 2]>,
    /// Every element by name; element 0 is the identity, 1.
    pub elements: Vec<String>,
    /// The P-portion: the elements whose sums are P-positions.
    pub p_portion: Vec<String>,
    /// The element of each heap 0 ..= H.
    pub pretending: Vec<String>,
    /// |Q_h| for h = 0 ..= H.
    pub orders: Vec<usize>,
    /// The heaps at which the quotient grew, with its order from there.
    pub growth: Vec<Growth>,
    /// Candidates tried (learn).
    pub candidates: usize,
    /// Sums valued by search.
    pub sums_searched: usize,
    /// Wall time.
    pub seconds: f64,
    /// The pretending function's period where the periodicity theorem
    /// proves it from these heaps (docs/misere.md): Q is then the quotient
    /// of every sum of heaps, of any size.
    pub solved: Option<QuotientPeriod>,
    /// Why the theorem cannot prove this code's quotient whole, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_covered: Option<&'static str>,
}

/// A generator: its letter and the heap it is.
#[derive(Serialize)]
pub struct Generator {
    /// a, b, c, …
    pub name: String,
    /// The heap it is.
    pub heap: u16,
}

/// A heap at which the quotient grew, and its order from there.
#[derive(Serialize)]
pub struct Growth {
    /// The heap.
    pub heap: u16,
    /// |Q_h| from this heap on.
    pub order: usize,
}

impl QuotientSummary {
    /// The summary of `q`, computed from `code` by `method` in `seconds`.
    pub fn of(code: &Code, q: &Quotient, method: Method, seconds: f64) -> QuotientSummary {
        let p = &q.presentation;
        QuotientSummary {
            code: code.text.clone(),
            max_heap: q.max_heap,
            convention: "misere",
            method: match method {
                Method::Learn => "learn",
                Method::Exact => "exact",
            },
            order: q.order(),
            generators: p
                .generator_heaps
                .iter()
                .enumerate()
                .map(|(g, &heap)| Generator {
                    name: generator_name(g),
                    heap,
                })
                .collect(),
            relations: p
                .relations
                .iter()
                .map(|(u, v)| [monomial_text(u), monomial_text(v)])
                .collect(),
            elements: (0..q.order() as u32).map(|e| q.name(e)).collect(),
            p_portion: q.p_portion_names(),
            pretending: q.pretending_names(),
            orders: q.orders.clone(),
            growth: q
                .growth()
                .into_iter()
                .map(|(heap, order)| Growth { heap, order })
                .collect(),
            candidates: q.candidates,
            sums_searched: q.positions,
            seconds,
            solved: q.period,
            not_covered: not_covered(code),
        }
    }
}
