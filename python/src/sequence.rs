//! `octal` and `subtraction`: a Nim-sequence as a `Table`, its values a
//! numpy array over the table's own memory (the array's base is the
//! table), with the period, rare values and statistics beside them.

use grundy::HeapEngine;
use grundy::RanOn;
use grundy::analysis::milestones::{FIRST_POWER, Milestone, StatsAt, milestones, powers_of_two};
use grundy::analysis::period::Period;
use grundy::analysis::rare_split::RareSummary;
use grundy::analysis::stats::HeapStats;
use grundy::frontend::setting::{Setting, seconds};
use grundy::{Algorithm, Sequence, Values};
use numpy::PyArray1;
use numpy::ndarray::ArrayView1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::backend_of;
use crate::run::{py_err, run};

/// A computed Nim-sequence (`grundy.octal`, `grundy.subtraction`).
#[pyclass(frozen, module = "grundy")]
pub struct Table {
    held: Held,
    min_diff: u32,
    ran: RanOn,
    engine: HeapEngine,
    stats: HeapStats,
    rare: RareSummary,
    #[pyo3(get)]
    code: String,
    /// The last heap: the values are G(0..=n).
    #[pyo3(get)]
    n: u64,
    period: Option<Period>,
    /// The heaps the period was looked for in: the table's, or for a
    /// table shorter than `PERIOD_PROBE` heaps without a period of its own,
    /// the first `PERIOD_PROBE`.
    #[pyo3(get)]
    period_heaps: u64,
    #[pyo3(get)]
    filled_from: Option<u64>,
    #[pyo3(get)]
    seconds: f64,
    parity: Option<u32>,
}

/// The values a table holds.
enum Held {
    Whole(Values),
    /// A run that kept only a prefix and a window (`keep_prefix`): their
    /// values, and the milestones it counted as it went.
    Kept {
        prefix: Vec<u16>,
        window_from: u64,
        window: Vec<u16>,
        milestones: Vec<Milestone>,
    },
}

/// What a table that kept only a prefix and a window cannot give.
const NOT_WHOLE: &str = "the run kept only a prefix and a window of the table (keep_prefix, \
                         keep_window)";

#[pymethods]
impl Table {
    /// G(0..=n) as a numpy array (uint8, or uint16 when a value passes
    /// 255) over the table's memory: no copy, read-only.
    #[getter]
    fn values<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let owner = slf.clone().into_any();
        // SAFETY: the table is frozen, so its values never move or change,
        // and the array keeps `owner` (the table) alive as its base.
        let array = match &slf.get().held {
            Held::Whole(Values::Bytes(v)) => unsafe {
                PyArray1::borrow_from_array(&ArrayView1::from(&v[..]), owner).into_any()
            },
            Held::Whole(Values::Words(v)) => unsafe {
                PyArray1::borrow_from_array(&ArrayView1::from(&v[..]), owner).into_any()
            },
            Held::Kept { .. } => {
                return Err(PyValueError::new_err(format!(
                    "values: {NOT_WHOLE}; expected .prefix and .window"
                )));
            }
        };
        let _ = array.call_method1("setflags", (false,));
        Ok(array)
    }

    /// For a run that kept only a prefix and a window: the prefix's values,
    /// G(0..keep_prefix) (uint16; None for a whole table).
    #[getter]
    fn prefix<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u16>>> {
        match &self.held {
            Held::Kept { prefix, .. } => Some(PyArray1::from_slice(py, prefix)),
            Held::Whole(_) => None,
        }
    }

    /// For a run that kept only a prefix and a window: the window's values,
    /// G(window_from..=n) (uint16; None for a whole table).
    #[getter]
    fn window<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u16>>> {
        match &self.held {
            Held::Kept { window, .. } => Some(PyArray1::from_slice(py, window)),
            Held::Whole(_) => None,
        }
    }

    /// The first heap of `window` (None for a whole table).
    #[getter]
    fn window_from(&self) -> Option<u64> {
        match &self.held {
            Held::Kept { window_from, .. } => Some(*window_from),
            Held::Whole(_) => None,
        }
    }

    /// The largest value.
    #[getter]
    fn max_value(&self) -> u16 {
        self.stats.max_value
    }

    /// The first heap with the largest value.
    #[getter]
    fn first_max_at(&self) -> u64 {
        self.stats.first_max_at
    }

    /// The rare/common split's mask, as the command prints it, in
    /// hexadecimal (`0x1ee`, `0x6p0` for a position-parity split).
    #[getter]
    fn rare_mask(&self) -> &str {
        &self.rare.rare_mask
    }

    #[getter]
    fn rare_count(&self) -> u64 {
        self.rare.rare_count
    }

    #[getter]
    fn last_rare(&self) -> Option<u64> {
        self.rare.last_rare
    }

    /// "gpu" or "cpu".
    #[getter]
    fn backend(&self) -> String {
        self.ran.backend.to_string()
    }

    /// "rare values", "blocked brute force" or "general engine".
    #[getter]
    fn engine(&self) -> &'static str {
        self.engine.describe()
    }

    /// The period p (None: none found).
    #[getter]
    fn period(&self) -> Option<u64> {
        self.period.map(|p| p.period)
    }

    /// The first heap of the periodic part (None: no period found).
    #[getter]
    fn preperiod(&self) -> Option<u64> {
        self.period.map(|p| p.preperiod)
    }

    /// Whether the periodicity theorem certifies the period.
    #[getter]
    fn certified(&self) -> bool {
        self.period.is_some_and(|p| p.certified)
    }

    /// The heaps of value 0, as a numpy array (uint64).
    #[getter]
    fn p_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let zeros: Vec<u64> = match &self.held {
            Held::Whole(Values::Bytes(v)) => zero_heaps(v),
            Held::Whole(Values::Words(v)) => zero_heaps(v),
            Held::Kept { .. } => {
                return Err(PyValueError::new_err(format!(
                    "p_positions: {NOT_WHOLE}; expected milestones()'s p_positions, their count"
                )));
            }
        };
        Ok(PyArray1::from_vec(py, zeros))
    }

    /// The statistics at each heap of `at` ("pow2": every power of two
    /// from 1024 to n; or a list of heaps), each as a run to exactly that
    /// heap reports them: columns a `pandas.DataFrame` takes (n, max_value,
    /// first_max_at, p_positions, rare_mask, rare_count, last_rare) and
    /// `frequencies`, a numpy array per heap (`frequencies[v]`: heaps whose
    /// value is v). A run that kept only a prefix and a window counted them
    /// at every power of two, at `stats_at` and at n.
    #[pyo3(signature = (at = None))]
    fn milestones<'py>(
        &self,
        py: Python<'py>,
        at: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let at =
            match at {
                None => StatsAt::PowersOfTwo,
                Some(text) if text.is_instance_of::<PyString>() => {
                    StatsAt::parse(&text.extract::<String>()?)
                        .map_err(|e| PyValueError::new_err(format!("at {e}")))?
                }
                Some(heaps) => StatsAt::Heaps(heaps.extract().map_err(|_| {
                    PyValueError::new_err("at: expected \"pow2\" or a list of heaps")
                })?),
            };
        let heaps = at.heaps(self.n);
        let found = match &self.held {
            Held::Whole(Values::Bytes(v)) => py.detach(|| milestones(v, self.parity, &heaps)),
            Held::Whole(Values::Words(v)) => py.detach(|| milestones(v, self.parity, &heaps)),
            Held::Kept { milestones, .. } => counted(milestones, &heaps)?,
        };
        milestone_columns(py, &found)
    }

    fn __len__(&self) -> usize {
        self.n as usize + 1
    }

    /// The command's summary.
    fn __repr__(&self) -> String {
        let shown = self.__len__().min(100);
        let first: Vec<u16> = (0..shown).map(|n| self.get(n)).collect();
        let summary = grundy::Summary {
            code: &self.code,
            min_diff: self.min_diff,
            n: self.n,
            ran: &self.ran,
            engine: self.engine,
            seconds: self.seconds,
            first: &first,
            more: self.__len__() > shown,
            stats: &self.stats,
            rare: &self.rare,
            period: self.period,
        };
        let mut lines = summary.lines();
        if self.period.is_some() && self.period_heaps > self.n + 1 {
            lines.push(format!(
                "            seen in the first {} heaps",
                self.period_heaps
            ));
        }
        lines.join("\n")
    }
}

impl Table {
    /// G(n), for n in the prefix when the run kept only part of its table.
    fn get(&self, n: usize) -> u16 {
        match &self.held {
            Held::Whole(Values::Bytes(v)) => u16::from(v[n]),
            Held::Whole(Values::Words(v)) => v[n],
            Held::Kept { prefix, .. } => prefix[n],
        }
    }
}

/// The milestones a kept run counted at `heaps`, each of which it must have.
fn counted(made: &[Milestone], heaps: &[u64]) -> PyResult<Vec<Milestone>> {
    let at = |n: &u64| made.iter().find(|m| m.n == *n).cloned();
    heaps
        .iter()
        .map(|n| {
            at(n).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "at {n}: {NOT_WHOLE}, which counted the statistics only at every power of \
                     two from 1024, at stats_at and at n; expected one of those"
                ))
            })
        })
        .collect()
}

/// Milestones as columns, the frequencies as arrays.
fn milestone_columns<'py>(py: Python<'py>, found: &[Milestone]) -> PyResult<Bound<'py, PyDict>> {
    let columns = PyDict::new(py);
    let column = |f: fn(&Milestone) -> u64| found.iter().map(f).collect::<Vec<u64>>();
    columns.set_item("n", column(|m| m.n))?;
    columns.set_item("max_value", column(|m| m.max_value.into()))?;
    columns.set_item("first_max_at", column(|m| m.first_max_at))?;
    columns.set_item("p_positions", column(|m| m.p_positions))?;
    let masks: Vec<&str> = found.iter().map(|m| m.rare_mask.as_str()).collect();
    columns.set_item("rare_mask", masks)?;
    columns.set_item("rare_count", column(|m| m.rare_count))?;
    let last: Vec<Option<u64>> = found.iter().map(|m| m.last_rare).collect();
    columns.set_item("last_rare", last)?;
    let arrays: Vec<Bound<'py, PyArray1<u64>>> = found
        .iter()
        .map(|m| PyArray1::from_slice(py, &m.frequencies))
        .collect();
    columns.set_item("frequencies", arrays)?;
    Ok(columns)
}

fn zero_heaps<T: Copy + Default + PartialEq>(values: &[T]) -> Vec<u64> {
    let zero = T::default();
    (0..values.len() as u64)
        .filter(|&n| values[n as usize] == zero)
        .collect()
}

/// What `octal` and `subtraction` take besides the game.
#[derive(Clone)]
pub struct RunArgs {
    pub n: u64,
    pub until_periodic: Option<u64>,
    pub algorithm: String,
    pub backend: String,
    pub fill: bool,
    pub checkpoint: Option<String>,
    pub checkpoint_every: f64,
    pub resume: Option<String>,
    pub memory: Option<u64>,
    pub folder: Option<String>,
    /// The prefix and the window a run keeps (none: the whole table).
    pub kept: Option<grundy::Kept>,
    /// Heaps where a run keeping part of its table counts the statistics.
    pub stats_at: Vec<u64>,
}

/// `sequence` with the caller's settings.
fn configured(mut sequence: Sequence, args: &RunArgs) -> PyResult<Sequence> {
    sequence = sequence
        .heaps(args.n)
        .fill(args.fill)
        .backend(backend_of(&args.backend)?)
        .algorithm(match args.algorithm.as_str() {
            "auto" => Algorithm::Auto,
            "rare" => Algorithm::Rare,
            "naive" => Algorithm::Naive,
            other => {
                return Err(PyValueError::new_err(format!(
                    "algorithm '{other}': expected 'auto', 'rare' or 'naive'"
                )));
            }
        });
    if let Some(max_n) = args.until_periodic {
        sequence = sequence.until_periodic(max_n);
    }
    if let Some(path) = &args.checkpoint {
        let every = seconds(Setting::CheckpointEvery, args.checkpoint_every)
            .map_err(|m| py_err(grundy::Error::Input(m)))?;
        sequence = sequence.checkpoint(path, every);
    }
    if let Some(path) = &args.resume {
        sequence = sequence.resume(path);
    }
    if let Some(bytes) = args.memory {
        sequence = sequence.memory(bytes);
    }
    if let Some(folder) = &args.folder {
        sequence = sequence.folder(folder);
    }
    if let Some(kept) = args.kept {
        sequence = sequence
            .keep(kept.prefix, kept.window)
            .stats_at(&args.stats_at);
    }
    Ok(sequence)
}

/// A table shorter than this many heaps looks for its period in this many
/// (a period of 34 from heap 53, as 0.07's, shows only past heap 121).
pub const PERIOD_PROBE: u64 = 4096;

/// Runs `sequence` and keeps what Python reads of it.
pub fn table_of(
    py: Python<'_>,
    sequence: Sequence,
    args: &RunArgs,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Table> {
    let probe = sequence.clone();
    let sequence = configured(sequence, args)?;
    let table = run(py, progress, |hooks| sequence.run_with(hooks))?;
    let (mut period, mut period_heaps) = (table.period(), table.len());
    if period.is_none() && args.until_periodic.is_none() && table.len() < PERIOD_PROBE {
        let probe = probe
            .heaps(PERIOD_PROBE - 1)
            .backend(grundy::BackendChoice::Cpu);
        let longer = run(py, None, |hooks| probe.run_with(hooks))?;
        (period, period_heaps) = (longer.period(), longer.len());
    }
    let (_, rare) = table.rare();
    let stats = table.stats();
    Ok(Table {
        code: table.code().name(),
        n: table.len().saturating_sub(1),
        period,
        period_heaps,
        min_diff: table.code().min_diff,
        ran: table.ran_on().clone(),
        engine: table.engine(),
        rare,
        stats,
        filled_from: table.filled_from(),
        seconds: table.seconds(),
        parity: table.rare_parity(),
        held: py.detach(|| held_of(table, &args.stats_at)),
    })
}

/// What Python keeps of `table`: its values, or what it kept and the
/// milestones it counted.
fn held_of(table: grundy::SequenceTable, stats_at: &[u64]) -> Held {
    let Some(kept) = table.kept() else {
        return Held::Whole(table.into_values());
    };
    let len = table.len();
    let prefix_end = len.min(kept.prefix as u64);
    let window_from = table.window_from().unwrap_or(len);
    let mut at = powers_of_two(FIRST_POWER, len.saturating_sub(1));
    at.extend(stats_at);
    at.push(len.saturating_sub(1));
    Held::Kept {
        prefix: table.values(0, prefix_end),
        window_from,
        window: table.values(window_from, len),
        milestones: table.milestones(&at),
    }
}

pub fn parse_code(code: &str, min_diff: Option<u32>) -> PyResult<Sequence> {
    let mut sequence = Sequence::octal(code).map_err(py_err)?;
    if let Some(d) = min_diff {
        sequence = Sequence::of(sequence.code().clone().with_min_diff(d));
    }
    Ok(sequence)
}
