//! `import grundy`: the library's builders for Python. Tables come back as
//! numpy arrays over the table's own memory; every run releases the GIL,
//! answers Ctrl-C within a tick, and can report progress.

mod families;
mod run;
mod sequence;

use grundy::BackendChoice;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use sequence::{RunArgs, Table, parse_code, table_of};

/// `backend=` as the command line's `--backend`.
pub(crate) fn backend_of(name: &str) -> PyResult<BackendChoice> {
    match name {
        "auto" => Ok(BackendChoice::Auto),
        "gpu" => Ok(BackendChoice::Gpu),
        "cpu" => Ok(BackendChoice::Cpu),
        other => Err(PyValueError::new_err(format!(
            "backend '{other}': expected 'auto', 'gpu' or 'cpu'"
        ))),
    }
}

/// The Nim-sequence of a take-and-break code in CGSuite's notation.
#[pyfunction]
#[pyo3(signature = (code, n, *, until_periodic = None, min_diff = None,
    algorithm = "auto".to_string(), backend = "auto".to_string(), fill = true,
    checkpoint = None, checkpoint_every = 300.0, resume = None, memory = None, folder = None,
    keep_prefix = None, keep_window = None, stats_at = Vec::new(), progress = None))]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
fn octal(
    py: Python<'_>,
    code: &str,
    n: u64,
    until_periodic: Option<u64>,
    min_diff: Option<u32>,
    algorithm: String,
    backend: String,
    fill: bool,
    checkpoint: Option<String>,
    checkpoint_every: f64,
    resume: Option<String>,
    memory: Option<u64>,
    folder: Option<String>,
    keep_prefix: Option<usize>,
    keep_window: Option<usize>,
    stats_at: Vec<u64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Table> {
    let kept = grundy::Kept::either(keep_prefix, keep_window);
    let args = RunArgs {
        n,
        until_periodic,
        algorithm,
        backend,
        fill,
        checkpoint,
        checkpoint_every,
        resume,
        memory,
        folder,
        kept,
        stats_at,
    };
    table_of(py, parse_code(code, min_diff)?, &args, progress)
}

/// The Nim-sequence of the subtraction game whose moves take a number in
/// `subtract` (as `grundy subtraction`).
#[pyfunction]
#[pyo3(signature = (subtract, n, *, min_diff = None, backend = "auto".to_string(),
    checkpoint = None, resume = None, progress = None))]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments")]
fn subtraction(
    py: Python<'_>,
    subtract: Vec<u32>,
    n: u64,
    min_diff: Option<u32>,
    backend: String,
    checkpoint: Option<String>,
    resume: Option<String>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Table> {
    let mut sequence = grundy::Sequence::subtraction(&subtract).map_err(run::py_err)?;
    if let Some(d) = min_diff {
        sequence = grundy::Sequence::of(sequence.code().clone().with_min_diff(d));
    }
    let args = RunArgs {
        n,
        until_periodic: None,
        algorithm: "auto".into(),
        backend,
        fill: true,
        checkpoint,
        checkpoint_every: 300.0,
        resume,
        memory: None,
        folder: None,
        kept: None,
        stats_at: Vec::new(),
    };
    table_of(py, sequence, &args, progress)
}

/// Bytes from a size as `--memory` reads it (`8G`, `512M`, `1.5GiB`,
/// `1000000`), or a `ValueError` naming the argument.
#[pyfunction]
fn parse_size(argument: &str, text: &str) -> PyResult<u64> {
    grundy::memory::parse_size(text).map_err(|e| PyValueError::new_err(format!("{argument}={e}")))
}

#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // A full disk raises in the caller instead of ending the interpreter.
    grundy::frontend::interrupt::unwind_on_full_disk();
    // Before the pool's threads start: the memory budget under `ulimit -v`
    // stays true (threads created before import keep their arenas).
    grundy::memory::one_malloc_arena_under_address_limit();
    machine_from_env()?;
    m.add_class::<Table>()?;
    m.add_function(wrap_pyfunction!(octal, m)?)?;
    m.add_function(wrap_pyfunction!(subtraction, m)?)?;
    m.add_function(wrap_pyfunction!(parse_size, m)?)?;
    m.add_function(wrap_pyfunction!(families::graph_spec, m)?)?;
    m.add_function(wrap_pyfunction!(families::graph, m)?)?;
    m.add_function(wrap_pyfunction!(families::podes, m)?)?;
    m.add_function(wrap_pyfunction!(families::bipodes, m)?)?;
    m.add_function(wrap_pyfunction!(families::rect, m)?)?;
    m.add_function(wrap_pyfunction!(families::delete_nim, m)?)?;
    m.add_function(wrap_pyfunction!(families::arrows, m)?)?;
    m.add_function(wrap_pyfunction!(families::cycles, m)?)?;
    m.add_function(wrap_pyfunction!(families::hackenbush, m)?)?;
    m.add_function(wrap_pyfunction!(families::survey, m)?)?;
    m.add_function(wrap_pyfunction!(families::hunt, m)?)?;
    m.add_function(wrap_pyfunction!(families::misere_survey, m)?)?;
    m.add_function(wrap_pyfunction!(families::misere_hunt, m)?)?;
    m.add_function(wrap_pyfunction!(families::play_json, m)?)?;
    m.add_function(wrap_pyfunction!(families::misere_play_json, m)?)?;
    m.add_function(wrap_pyfunction!(families::misere_quotient_json, m)?)?;
    m.add_function(wrap_pyfunction!(families::misere_table, m)?)?;
    m.add("__version__", python_version())?;
    m.add("__commit__", grundy::COMMIT)?;
    Ok(())
}

/// What `GRUNDY_SIMD` and `GRUNDY_GPU_MAX_BINDING` ask of this machine, as
/// the command line reads them: set for the process at import; a bad
/// value raises `ValueError` naming the variable.
fn machine_from_env() -> PyResult<()> {
    use grundy::device::{BINDING_VAR, SIMD_VAR, set_from_env_texts};
    let read = |name| std::env::var_os(name).map(|t| t.to_string_lossy().into_owned());
    let (simd, binding) = (read(SIMD_VAR), read(BINDING_VAR));
    set_from_env_texts(simd.as_deref(), binding.as_deref()).map_err(PyValueError::new_err)
}

/// The library's version with the commit as a PEP 440 local label
/// (`0.1.0+g1a2b3c4d5e6f`, `.changes` for uncommitted changes), or the
/// version alone when the commit is not known.
fn python_version() -> String {
    match grundy::COMMIT.strip_suffix("+changes") {
        _ if grundy::COMMIT == "unknown commit" => grundy::VERSION.to_string(),
        Some(head) => format!("{}+g{head}.changes", grundy::VERSION),
        None => format!("{}+g{}", grundy::VERSION, grundy::COMMIT),
    }
}
