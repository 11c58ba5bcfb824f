//! Every other family: games on graphs, pode and bipode tables, tuple
//! games, edge games, surveys and `play`. Tables come back as numpy
//! columns in a dict (what `pandas.DataFrame` takes), single positions as
//! dicts.

use std::path::PathBuf;

use grundy::frontend::setting::{Setting, seconds};
use grundy::game::delete_nim::Rule;
use grundy::game::{Code, Convention, GraphCode};
use grundy::play::Position;
use grundy::{EdgeGame, GraphGame, Survey, TupleGame};
use numpy::ndarray::Array2;
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::backend_of;
use crate::run::{py_err, run};

/// A graph of `n` vertices and these edges as a spec the parsers read
/// (`graph6:…`).
#[pyfunction]
pub fn graph_spec(n: usize, edges: Vec<(usize, usize)>) -> PyResult<String> {
    if n > 64 {
        return Err(PyValueError::new_err(format!(
            "a graph of {n} vertices: expected at most 64"
        )));
    }
    let mut graph = grundy::game::Graph::empty(n);
    for (u, v) in edges {
        if u >= n || v >= n || u == v {
            return Err(PyValueError::new_err(format!(
                "edge ({u}, {v}): expected two different vertices below {n}"
            )));
        }
        graph.add_edge(u, v);
    }
    Ok(format!("graph6:{}", graph.to_graph6()))
}

/// G of an octal game on a graph (g⁻ under misère play): {value, outcome,
/// convention, positions, solver, backend, seconds}.
#[pyfunction]
#[pyo3(signature = (code, graph, misere = false, backend = "auto", progress = None))]
pub fn graph<'py>(
    py: Python<'py>,
    code: &str,
    graph: &str,
    misere: bool,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = GraphGame::octal(code, graph)
        .map_err(py_err)?
        .convention(Convention::misere_if(misere))
        .backend(backend_of(backend)?);
    let found = run(py, progress, |hooks| game.run_with(hooks))?;
    let dict = PyDict::new(py);
    dict.set_item("value", found.value)?;
    dict.set_item("outcome", if found.value == 0 { "P" } else { "N" })?;
    dict.set_item("convention", found.convention.name())?;
    dict.set_item("positions", found.positions)?;
    dict.set_item("solver", format!("{:?}", found.solver).to_lowercase())?;
    dict.set_item("backend", found.ran_on.backend.to_string())?;
    dict.set_item("seconds", found.seconds)?;
    Ok(dict)
}

/// Rows of parameters (one row per game) and their values, as columns.
fn family_columns<'py>(
    py: Python<'py>,
    name: &str,
    rows: Vec<Vec<u64>>,
    values: Vec<u32>,
) -> PyResult<Bound<'py, PyDict>> {
    let width = rows.first().map_or(0, Vec::len);
    let flat: Vec<u64> = rows.into_iter().flatten().collect();
    let shape = (values.len(), width);
    let table = Array2::from_shape_vec(shape, flat)
        .map_err(|e| PyValueError::new_err(format!("a table of uneven rows: {e}")))?;
    let dict = PyDict::new(py);
    dict.set_item(name, PyArray2::from_owned_array(py, table))?;
    dict.set_item("g", PyArray1::from_vec(py, values))?;
    Ok(dict)
}

/// A family table's rows (parameters, value) as the parameters' rows and
/// the values, for `family_columns`.
fn graph_rows<P: AsRef<[usize]>>(rows: Vec<(P, u8)>) -> (Vec<Vec<u64>>, Vec<u32>) {
    let rows = rows.into_iter();
    rows.map(|(p, g)| (p.as_ref().iter().map(|&x| x as u64).collect(), u32::from(g)))
        .unzip()
}

/// The misère table of an octal code or a subtraction set (as `grundy
/// octal --misere`): {"n", "g", "g_misere", "outcome_misere", "genus",
/// "gammas" (a row of γ0 … γK per heap), "convention", "method",
/// "period", "preperiod", "stopped_at", "sums_bound", "backend"}: a code
/// that takes without bound runs on `backend`'s choice; a code that splits
/// is searched over whole sums, at most "sums_bound" of them (counted
/// before the run; None where it never splits or too many to count).
#[pyfunction]
#[pyo3(signature = (code, subtract, n, min_diff = None, backend = "auto", progress = None))]
pub fn misere_table<'py>(
    py: Python<'py>,
    code: Option<&str>,
    subtract: Option<Vec<u32>>,
    n: u64,
    min_diff: Option<u32>,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut code = match (code, subtract) {
        (Some(text), None) => {
            Code::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))?
        }
        (None, Some(set)) => Code::subtraction(&set).map_err(PyValueError::new_err)?,
        _ => {
            return Err(PyValueError::new_err(
                "expected a code or a subtraction set",
            ));
        }
    };
    if let Some(d) = min_diff {
        code = code.with_min_diff(d);
    }
    let sequence = grundy::MisereSequence::of(code)
        .heaps(n)
        .backend(crate::backend_of(backend)?);
    let sums_bound = sequence.sums_needed().and_then(|needed| needed.at_most);
    let table = run(py, progress, |hooks| sequence.run_with(hooks))?;
    let dict = misere_columns(py, &table)?;
    dict.set_item("sums_bound", sums_bound)?;
    dict.set_item("backend", table.end().ran.backend.to_string())?;
    Ok(dict)
}

/// A misère table as columns (`misere_table`).
fn misere_columns<'py>(
    py: Python<'py>,
    table: &grundy::MisereTable,
) -> PyResult<Bound<'py, PyDict>> {
    let heaps = table.len() as usize;
    let width = table.gammas().len() / heaps.max(1);
    let gammas = Array2::from_shape_vec((heaps, width), table.gammas().to_vec())
        .map_err(|e| PyValueError::new_err(format!("a table of uneven rows: {e}")))?;
    let misere: Vec<u32> = (0..heaps as u64).map(|h| table.misere(h)).collect();
    let outcome: Vec<&str> = misere
        .iter()
        .map(|&g| if g == 0 { "P" } else { "N" })
        .collect();
    let genus: Vec<String> = (0..heaps as u64)
        .map(|h| table.genus(h).to_string())
        .collect();
    let end = table.end();
    let dict = PyDict::new(py);
    dict.set_item("n", PyArray1::from_vec(py, (0..heaps as u64).collect()))?;
    dict.set_item("g", PyArray1::from_slice(py, table.normal_values()))?;
    dict.set_item("g_misere", PyArray1::from_vec(py, misere))?;
    dict.set_item("outcome_misere", outcome)?;
    dict.set_item("genus", genus)?;
    dict.set_item("gammas", PyArray2::from_owned_array(py, gammas))?;
    dict.set_item("convention", "misere")?;
    let method = match end.method {
        grundy::misere::MisereMethod::Linear => "linear",
        grundy::misere::MisereMethod::Blocked => "blocked",
        grundy::misere::MisereMethod::Sums => "sums",
    };
    dict.set_item("method", method)?;
    dict.set_item("period", end.period.map(|p| p.period))?;
    dict.set_item("preperiod", end.period.map(|p| p.start))?;
    dict.set_item("stopped_at", end.stopped_at)?;
    Ok(dict)
}

/// A graph code, under misère play where `misere`.
fn graph_code(code: &str, misere: bool) -> PyResult<GraphCode> {
    let code = GraphCode::parse(code).map_err(|m| py_err(grundy::Error::Input(m)))?;
    Ok(code.under(Convention::misere_if(misere)))
}

/// G of every k-pode with up to `max_legs` legs of lengths 1..=max_length:
/// {"legs": rows counting the legs of each length, "g": values, "convention"}.
#[pyfunction]
#[pyo3(signature = (code, max_legs, max_length, misere = false, progress = None))]
pub fn podes<'py>(
    py: Python<'py>,
    code: &str,
    max_legs: usize,
    max_length: usize,
    misere: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let code = graph_code(code, misere)?;
    let table = run(py, progress, |hooks| {
        grundy::podes_of(&code, (max_legs, max_length), hooks)
    })?;
    let (rows, values) = graph_rows(table.rows);
    let columns = family_columns(py, "legs", rows, values)?;
    columns.set_item("convention", code.convention.name())?;
    Ok(columns)
}

/// G of every bipode up to `max` (`grundy bipodes`): {"bipode": rows of
/// four leg lengths, "g": values, "convention"}.
#[pyfunction]
#[pyo3(signature = (code, max, middle, misere = false, progress = None))]
pub fn bipodes<'py>(
    py: Python<'py>,
    code: &str,
    max: usize,
    middle: usize,
    misere: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let code = graph_code(code, misere)?;
    let table = run(py, progress, |hooks| {
        grundy::bipodes_of(&code, (max, middle), hooks)
    })?;
    let (rows, values) = graph_rows(table.rows);
    let columns = family_columns(py, "bipode", rows, values)?;
    columns.set_item("convention", code.convention.name())?;
    Ok(columns)
}

/// A whole tuple table as columns: {"sizes": one row per position, "g"}.
fn tuple_columns<'py>(
    py: Python<'py>,
    game: TupleGame,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let table = run(py, progress, |hooks| game.run_with(hooks))?;
    let (mut rows, mut values) = (Vec::new(), Vec::new());
    table.for_each(|sizes, g| {
        rows.push(sizes.iter().map(|&s| u64::from(s)).collect());
        values.push(g);
    });
    let columns = family_columns(py, "sizes", rows, values)?;
    columns.set_item("convention", table.convention().name())?;
    if let Some(sums) = table.sums_searched {
        columns.set_item("sums_searched", sums)?;
    }
    Ok(columns)
}

/// Grundy's game on boxes of `dims` sides up to `max` (a cut leaves parts
/// at least `min_diff` apart in area; 1 is Grundy's rule).
#[pyfunction]
#[pyo3(signature = (dims, max, min_diff = 1, misere = false, backend = "auto", progress = None))]
pub fn rect<'py>(
    py: Python<'py>,
    dims: usize,
    max: u32,
    min_diff: u32,
    misere: bool,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = TupleGame::rect(dims, min_diff, max).map_err(py_err)?;
    let game = game.convention(Convention::misere_if(misere));
    tuple_columns(py, game.backend(backend_of(backend)?), progress)
}

/// A Delete Nim rule by its command-line name.
fn rule_of(name: &str) -> PyResult<Rule> {
    let rules = [
        Rule::Delete,
        Rule::Vdn,
        Rule::Abo,
        Rule::Nmth,
        Rule::Half,
        Rule::Kdelete,
        Rule::Single,
    ];
    rules.into_iter().find(|r| r.name() == name).ok_or_else(|| {
        let names: Vec<&str> = rules.iter().map(|r| r.name()).collect();
        PyValueError::new_err(format!(
            "rule '{name}': expected one of {}",
            names.join(", ")
        ))
    })
}

/// Delete Nim under `rule` on `heaps` heaps up to `max` (`k` for kdelete),
/// under misère play where `misere` (the last player to move loses).
#[pyfunction]
#[pyo3(signature = (rule, heaps, max, k = None, misere = false, backend = "auto", progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn delete_nim<'py>(
    py: Python<'py>,
    rule: &str,
    heaps: usize,
    max: u32,
    k: Option<usize>,
    misere: bool,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = TupleGame::delete_nim(rule_of(rule)?, heaps, k, max).map_err(py_err)?;
    let game = game.convention(Convention::misere_if(misere));
    tuple_columns(py, game.backend(backend_of(backend)?), progress)
}

/// An edge game's value from a state: {value, outcome, states, solver,
/// backend, seconds}.
fn edge_dict<'py>(
    py: Python<'py>,
    game: EdgeGame,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let convention = game.game().convention;
    let found = run(py, progress, |hooks| game.run_with(hooks))?;
    let dict = PyDict::new(py);
    dict.set_item("value", found.g)?;
    dict.set_item("outcome", if found.g == 0 { "P" } else { "N" })?;
    dict.set_item("states", found.states)?;
    dict.set_item("solver", format!("{:?}", found.solver).to_lowercase())?;
    dict.set_item("backend", found.ran_on.backend.to_string())?;
    dict.set_item("seconds", found.seconds)?;
    dict.set_item("convention", convention.name())?;
    Ok(dict)
}

/// The Game of Arrows (or its trimmed variant) on a graph from a state,
/// under misère play where `misere`.
#[pyfunction]
#[pyo3(signature = (graph, state = None, trimmed = false, misere = false, backend = "auto", progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn arrows<'py>(
    py: Python<'py>,
    graph: &str,
    state: Option<&str>,
    trimmed: bool,
    misere: bool,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut game = match trimmed {
        true => EdgeGame::trimmed(graph),
        false => EdgeGame::arrows(graph),
    }
    .map_err(py_err)?
    .convention(Convention::misere_if(misere))
    .map_err(py_err)?;
    if let Some(text) = state {
        game = game.state(text).map_err(py_err)?;
    }
    edge_dict(py, game.backend(backend_of(backend)?), progress)
}

/// The Game of Cycles on a graph (faces read from the file `faces`).
#[pyfunction]
#[pyo3(signature = (graph, faces = None, state = None, backend = "auto", progress = None))]
pub fn cycles<'py>(
    py: Python<'py>,
    graph: &str,
    faces: Option<PathBuf>,
    state: Option<&str>,
    backend: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut game = EdgeGame::cycles(graph, faces.as_deref()).map_err(py_err)?;
    if let Some(text) = state {
        game = game.state(text).map_err(py_err)?;
    }
    edge_dict(py, game.backend(backend_of(backend)?), progress)
}

/// Green Hackenbush on a graph grounded at `ground` (`"0"`, `"0,3"`),
/// under misère play where `misere`: (value, positions solved).
#[pyfunction]
#[pyo3(signature = (graph, ground, misere = false))]
pub fn hackenbush(
    py: Python<'_>,
    graph: &str,
    ground: &str,
    misere: bool,
) -> PyResult<(u8, usize)> {
    let convention = Convention::misere_if(misere);
    run(py, None, |_| {
        grundy::hackenbush_under(graph, ground, convention).map(|h| (h.value, h.positions))
    })
}

/// One row per code (`grundy survey`), as columns: the codes given, or
/// every code `prefix.d1..dK` with `digits` digits (`all`).
#[pyfunction]
#[pyo3(signature = (codes, n, all = None, checkpoint = None, resume = None, progress = None))]
pub fn survey<'py>(
    py: Python<'py>,
    codes: Vec<String>,
    n: u64,
    all: Option<(String, u32)>,
    checkpoint: Option<PathBuf>,
    resume: Option<PathBuf>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let survey = match all {
        Some((prefix, digits)) => Survey::all(&prefix, digits),
        None => Survey::codes(&codes),
    };
    let mut survey = survey.map_err(py_err)?.heaps(n);
    if let Some(path) = checkpoint {
        survey = survey.checkpoint(path);
    }
    if let Some(path) = resume {
        survey = survey.resume(path);
    }
    let rows = run(py, progress, |hooks| survey.run_with(hooks))?.rows;
    let dict = PyDict::new(py);
    let codes: Vec<&str> = rows.iter().map(|r| r.code.as_str()).collect();
    dict.set_item("code", codes)?;
    dict.set_item("n", rows.iter().map(|r| r.n).collect::<Vec<_>>())?;
    dict.set_item("period", rows.iter().map(|r| r.period).collect::<Vec<_>>())?;
    dict.set_item(
        "preperiod",
        rows.iter().map(|r| r.preperiod).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "certified",
        rows.iter().map(|r| r.certified).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "max_value",
        rows.iter().map(|r| r.max_value).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "first_max_at",
        rows.iter().map(|r| r.first_max_at).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "p_positions",
        rows.iter().map(|r| r.p_positions).collect::<Vec<_>>(),
    )?;
    let masks: Vec<&str> = rows.iter().map(|r| r.rare_mask.as_str()).collect();
    dict.set_item("rare_mask", masks)?;
    dict.set_item(
        "rare_count",
        rows.iter().map(|r| r.rare_count).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "last_rare",
        rows.iter().map(|r| r.last_rare).collect::<Vec<_>>(),
    )?;
    Ok(dict)
}

/// `grundy survey --misere`: each code's misère quotient (heaps up to
/// `max_heap`, `seconds` a code) and, for codes that never split a heap,
/// the period of the truncated genus over heaps 0..=n; one row per code as
/// columns: the codes given, or every code `prefix.d1..dK` (`all`).
#[pyfunction]
#[pyo3(signature = (codes, n, all = None, max_heap = 30, seconds = 60.0, progress = None))]
pub fn misere_survey<'py>(
    py: Python<'py>,
    codes: Vec<String>,
    n: u64,
    all: Option<(String, u32)>,
    max_heap: u16,
    seconds: f64,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let codes = match all {
        Some((prefix, digits)) => Survey::all(&prefix, digits).map(|s| s.code_list().to_vec()),
        None => parsed_codes(codes.iter().map(String::as_str)),
    }
    .map_err(py_err)?;
    let survey = grundy::misere_survey::MisereSurvey::of(codes)
        .max_heap(max_heap)
        .seconds(seconds)
        .genus_heaps(n);
    let rows = run(py, progress, |hooks| survey.run_with(hooks))?;
    let reached = rows.iter().map(|r| QuotientReached {
        code: &r.code,
        heaps: r.heaps,
        order: r.order,
        growth: &r.growth,
        solved: r.solved.map(|s| (s.period, s.start)),
    });
    let dict = quotient_columns(py, reached)?;
    let column = |f: fn(&grundy::misere_survey::MisereSurveyRow) -> Option<u64>| {
        rows.iter().map(f).collect::<Vec<_>>()
    };
    dict.set_item("splits", rows.iter().map(|r| r.splits).collect::<Vec<_>>())?;
    dict.set_item(
        "checked_to",
        column(|r| r.solved.map(|s| s.checked_to.into())),
    )?;
    dict.set_item(
        "stopped",
        rows.iter().map(|r| r.stopped.clone()).collect::<Vec<_>>(),
    )?;
    dict.set_item("genus_period", column(|r| r.genus_period.map(|g| g.period)))?;
    dict.set_item(
        "genus_preperiod",
        column(|r| r.genus_period.map(|g| g.start)),
    )?;
    dict.set_item(
        "seconds",
        rows.iter().map(|r| r.seconds).collect::<Vec<_>>(),
    )?;
    Ok(dict)
}

/// `grundy hunt --misere`: each code's misère quotient grown heap by heap
/// as far as `budget` seconds (over every hunt in `dir`) allow, until the
/// periodicity theorem solves it or `max_heap`; kept in `dir`, so a later
/// call goes on from it. One row per code as columns.
#[pyfunction]
#[pyo3(signature = (codes, budget, dir, max_heap = 4096, progress = None))]
pub fn misere_hunt<'py>(
    py: Python<'py>,
    codes: Vec<String>,
    budget: f64,
    dir: PathBuf,
    max_heap: u16,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let codes = parsed_codes(codes.iter().map(String::as_str)).map_err(py_err)?;
    let hunt = grundy::misere_hunt::MisereHunt::of(codes, dir, budget).max_heap(max_heap);
    let rows = run(py, progress, |hooks| hunt.run_with(hooks))?;
    let reached = rows.iter().map(|r| QuotientReached {
        code: &r.code,
        heaps: r.heaps,
        order: r.order,
        growth: &r.growth,
        solved: r.solved.map(|s| (s.period, s.start)),
    });
    let dict = quotient_columns(py, reached)?;
    dict.set_item(
        "end",
        rows.iter().map(|r| r.end.clone()).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "seconds",
        rows.iter().map(|r| r.seconds).collect::<Vec<_>>(),
    )?;
    let resumed: Vec<u16> = rows.iter().map(|r| r.resumed_from).collect();
    dict.set_item("resumed_from", resumed)?;
    Ok(dict)
}

/// What a misère survey's row and a misère hunt's share: the code, how far
/// its quotient came, and the pretending function's (period, start) where
/// the theorem solved it.
struct QuotientReached<'r> {
    code: &'r str,
    heaps: u16,
    order: usize,
    growth: &'r str,
    solved: Option<(u16, u16)>,
}

/// The columns `code`, `heaps`, `order`, `growth`, `solved_period` and
/// `solved_start`, one entry a row.
fn quotient_columns<'py, 'r>(
    py: Python<'py>,
    rows: impl Iterator<Item = QuotientReached<'r>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rows: Vec<QuotientReached> = rows.collect();
    let dict = PyDict::new(py);
    dict.set_item("code", rows.iter().map(|r| r.code).collect::<Vec<_>>())?;
    dict.set_item("heaps", rows.iter().map(|r| r.heaps).collect::<Vec<_>>())?;
    dict.set_item("order", rows.iter().map(|r| r.order).collect::<Vec<_>>())?;
    dict.set_item("growth", rows.iter().map(|r| r.growth).collect::<Vec<_>>())?;
    let solved =
        |f: fn((u16, u16)) -> u16| rows.iter().map(|r| r.solved.map(f)).collect::<Vec<_>>();
    dict.set_item("solved_period", solved(|(period, _)| period))?;
    dict.set_item("solved_start", solved(|(_, start)| start))?;
    Ok(dict)
}

/// The codes `texts`, each parsed, the bad one named; repeats kept once.
fn parsed_codes<'t>(texts: impl IntoIterator<Item = &'t str>) -> grundy::Result<Vec<Code>> {
    let mut codes: Vec<Code> = Vec::new();
    for text in texts {
        let code =
            Code::parse(text).map_err(|e| grundy::Error::Input(format!("code '{text}': {e}")))?;
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    Ok(codes)
}

/// The misère quotient of a code's heaps up to `max_heap`, as the JSON
/// `grundy quotient --json` prints.
#[pyfunction]
#[pyo3(signature = (code, max_heap, exact = false, until_solved = false, progress = None))]
pub fn misere_quotient_json(
    py: Python<'_>,
    code: String,
    max_heap: u16,
    exact: bool,
    until_solved: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    use grundy::quotient::{Method, MisereQuotient, QuotientSummary};
    let method = if exact { Method::Exact } else { Method::Learn };
    let summary = run(py, progress, |hooks| {
        let started = std::time::Instant::now();
        let job = MisereQuotient::of(&code)?
            .max_heap(max_heap)
            .method(method)
            .until_solved(until_solved);
        let parsed = job.code().clone();
        let q = job.run_with(hooks)?;
        Ok(QuotientSummary::of(
            &parsed,
            &q,
            method,
            started.elapsed().as_secs_f64(),
        ))
    })?;
    serde_json::to_string(&summary).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Builds the position `words` names: a game and its arguments as
/// `grundy play` takes them (`["octal", "0.07", "5,7,9"]`).
/// `play` of heaps under misère play: `words` as `play` reads them for
/// "octal" (a code) or "subtraction" (a set), then the heaps.
#[pyfunction]
#[pyo3(signature = (words, limit = None))]
pub fn misere_play_json(
    py: Python<'_>,
    words: Vec<String>,
    limit: Option<usize>,
) -> PyResult<String> {
    let report = run(py, None, |_| misere_report(&words, limit))?;
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A position written as `play` words: the game, then its arguments.
struct PositionWords<'a>(&'a [String]);

impl<'a> PositionWords<'a> {
    fn bad(&self, why: &str) -> grundy::Error {
        grundy::Error::Input(format!("position {:?}: {why}", self.0))
    }

    fn game(&self) -> Option<&'a str> {
        self.0.first().map(String::as_str)
    }

    fn arg(&self, i: usize) -> Option<&'a str> {
        self.0.get(i).map(String::as_str).filter(|w| !w.is_empty())
    }

    fn need(&self, i: usize, what: &str) -> grundy::Result<&'a str> {
        self.arg(i)
            .ok_or_else(|| self.bad(&format!("expected {what}")))
    }

    fn heaps(&self, i: usize) -> grundy::Result<Vec<u64>> {
        grundy::play::parse_heaps(self.need(i, "heaps")?)
    }

    fn subtraction_set(&self) -> grundy::Result<Vec<u32>> {
        let set = grundy::play::parse_heaps(self.need(1, "a subtraction set")?)?;
        Ok(set.iter().map(|&s| s as u32).collect())
    }

    /// Delete Nim's rule (word 1), heaps (word 2) and optional k (word 3).
    fn delete_nim(&self) -> grundy::Result<(Rule, Option<usize>, &'a str)> {
        let rule = rule_of(self.need(1, "a rule")?).map_err(|e| self.bad(&e.to_string()))?;
        let k = self.arg(3).map(|k| k.parse().map_err(|_| self.bad("k")));
        Ok((rule, k.transpose()?, self.need(2, "heaps such as 0,5")?))
    }

    /// Rectangles' boxes (word 1) and least difference (word 2, default 1).
    fn rect(&self) -> grundy::Result<(&'a str, u32)> {
        let min_diff = self
            .arg(2)
            .map(|d| d.parse().map_err(|_| self.bad("min_diff")));
        Ok((
            self.need(1, "boxes such as 3x5")?,
            min_diff.unwrap_or(Ok(1))?,
        ))
    }
}

/// The misère report of one game's position, written as `play` words:
/// heaps of "octal" or "subtraction", a "graph" (its code and spec), an
/// "arrows", "rect", "hackenbush" or "delete_nim" position.
fn misere_report(
    words: &[String],
    limit: Option<usize>,
) -> grundy::Result<grundy::play::PlayReport> {
    let w = PositionWords(words);
    let code = match w.game() {
        Some("octal") => Code::parse(w.need(1, "a code")?).map_err(|e| w.bad(&e.to_string()))?,
        Some("subtraction") => Code::subtraction(&w.subtraction_set()?).map_err(|e| w.bad(&e))?,
        Some("graph") => {
            let code = GraphCode::parse(w.need(1, "a code")?).map_err(|e| w.bad(&e))?;
            return grundy::play::misere_graph(&code, w.need(2, "a graph")?, limit);
        }
        Some("delete_nim" | "delete-nim") => {
            let (rule, k, heaps) = w.delete_nim()?;
            return grundy::play::misere_delete_nim(rule, k, heaps, limit);
        }
        Some("arrows") => {
            let trimmed = w.arg(3) == Some("trimmed");
            return grundy::play::misere_arrows(w.need(1, "a graph")?, w.arg(2), trimmed, limit);
        }
        Some("rect") => {
            let (boxes, min_diff) = w.rect()?;
            return grundy::play::misere_rect(boxes, min_diff, limit);
        }
        Some("hackenbush") => {
            let (graph, ground) = (w.need(1, "a graph")?, w.need(2, "the ground")?);
            return grundy::play::misere_hackenbush(graph, ground, limit);
        }
        _ => {
            return Err(w.bad(
                "misere=True takes 'octal', 'subtraction', 'graph', 'arrows', 'rect', 'hackenbush' or 'delete_nim'",
            ));
        }
    };
    grundy::play::misere_heaps(&code, &w.heaps(2)?, limit)
}

fn position_of(words: &[String]) -> grundy::Result<Position> {
    let w = PositionWords(words);
    match w.game() {
        Some("octal") => Position::heaps(w.need(1, "a code")?, &w.heaps(2)?),
        Some("subtraction") => Position::subtraction(&w.subtraction_set()?, &w.heaps(2)?),
        Some("graph") => Position::graph(w.need(1, "a code")?, w.need(2, "a graph")?),
        Some("arrows") => Position::arrows(
            w.need(1, "a graph")?,
            w.arg(2),
            w.arg(3) == Some("trimmed"),
        ),
        Some("cycles") => Position::cycles(
            w.need(1, "a graph")?,
            w.arg(3).map(std::path::Path::new),
            w.arg(2),
        ),
        Some("rect") => {
            let (boxes, min_diff) = w.rect()?;
            Position::rect(boxes, min_diff)
        }
        Some("delete_nim" | "delete-nim") => {
            let (rule, k, heaps) = w.delete_nim()?;
            Position::delete_nim(rule, k, heaps)
        }
        Some("hackenbush") => Position::hackenbush(w.need(1, "a graph")?, w.need(2, "the ground")?),
        _ => Err(w.bad(
            "expected a game first: octal, subtraction, graph, arrows, cycles, rect, delete_nim or hackenbush",
        )),
    }
}

/// The report of `positions`, each a game and its arguments as words (one:
/// that game alone; several: their sum), as JSON; every winning move is
/// listed, or the first `limit`. Under misère play (`misere`) the sum is
/// searched whole. Positions are built on the run's thread.
#[pyfunction]
#[pyo3(signature = (positions, limit = None, misere = false))]
pub fn play_json(
    py: Python<'_>,
    positions: Vec<Vec<String>>,
    limit: Option<usize>,
    misere: bool,
) -> PyResult<String> {
    let report = run(py, None, |_| {
        let mut built = positions
            .iter()
            .map(|words| position_of(words))
            .collect::<grundy::Result<Vec<_>>>()?;
        match built.len() {
            0 => Err(grundy::Error::Input(
                "no position to play: expected one or more".into(),
            )),
            _ if misere => grundy::play::misere_play_sum(built, limit),
            1 => built.remove(0).report(limit),
            _ => grundy::play_sum(built, limit),
        }
    })?;
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `grundy hunt`: each code (the published unsolved games when `unsolved`)
/// pushed as far as `budget` seconds allow, from the state in `dir`; one
/// row per code as columns, with each code's frequencies at its last heap
/// as a numpy array.
#[pyfunction]
#[pyo3(signature = (codes, budget, dir, unsolved = false, start = 1024, max_n = 1 << 32,
    backend = "cpu", keep_prefix = grundy::hunt::KEEP.prefix,
    keep_window = grundy::hunt::KEEP.window, keep_past = grundy::hunt::KEEP_PAST,
    progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn hunt<'py>(
    py: Python<'py>,
    codes: Vec<String>,
    budget: f64,
    dir: PathBuf,
    unsolved: bool,
    start: u64,
    max_n: u64,
    backend: &str,
    keep_prefix: usize,
    keep_window: usize,
    keep_past: u64,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let budget = seconds(Setting::Budget, budget).map_err(|m| py_err(grundy::Error::Input(m)))?;
    let texts = codes.iter().map(String::as_str);
    let published = unsolved.then_some(grundy::UNSOLVED.iter().copied());
    let list = parsed_codes(texts.chain(published.into_iter().flatten())).map_err(py_err)?;
    let hunt = grundy::Hunt::of(dir, budget)
        .start(start)
        .max_n(max_n)
        .backend(backend_of(backend)?)
        .keep(
            Some(grundy::Kept {
                prefix: keep_prefix,
                window: keep_window,
            }),
            keep_past,
        );
    let rows = run(py, progress, |hooks| {
        let rows = hunt.run_codes(&list, hooks, &mut |_| {})?;
        match rows.last().map(|row| row.end) {
            Some(grundy::HuntEnd::Stopped) => Err(grundy::Error::Stopped(
                "hunt stopped: each code's checkpoint and row are saved; call it again to go on"
                    .into(),
            )),
            _ => Ok(rows),
        }
    })?;
    hunt_columns(py, &rows)
}

fn hunt_columns<'py>(py: Python<'py>, rows: &[grundy::HuntRow]) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let text = |f: fn(&grundy::HuntRow) -> String| rows.iter().map(f).collect::<Vec<_>>();
    let count = |f: fn(&grundy::HuntRow) -> Option<u64>| rows.iter().map(f).collect::<Vec<_>>();
    dict.set_item("code", text(|r| r.code.clone()))?;
    dict.set_item("n", count(|r| Some(r.at.n)))?;
    dict.set_item("end", text(|r| r.end.as_str().into()))?;
    dict.set_item("engine", text(|r| r.engine.clone()))?;
    dict.set_item("max_value", count(|r| Some(r.at.max_value.into())))?;
    dict.set_item("first_max_at", count(|r| Some(r.at.first_max_at)))?;
    dict.set_item("p_positions", count(|r| Some(r.at.p_positions)))?;
    dict.set_item("rare_mask", text(|r| r.at.rare_mask.clone()))?;
    dict.set_item("rare_count", count(|r| Some(r.at.rare_count)))?;
    dict.set_item("last_rare", count(|r| r.at.last_rare))?;
    dict.set_item("period", count(|r| r.period))?;
    dict.set_item("preperiod", count(|r| r.preperiod))?;
    dict.set_item(
        "certified",
        rows.iter().map(|r| r.certified).collect::<Vec<_>>(),
    )?;
    dict.set_item(
        "seconds",
        rows.iter().map(|r| r.seconds).collect::<Vec<_>>(),
    )?;
    dict.set_item("resumed_heaps", count(|r| Some(r.resumed_heaps)))?;
    let arrays: Vec<_> = rows
        .iter()
        .map(|r| numpy::PyArray1::from_slice(py, &r.at.frequencies))
        .collect();
    dict.set_item("frequencies", arrays)?;
    Ok(dict)
}
