//! What every part of `grundy bench` is: rows of one workload family timed
//! on the GPU (when one is open) and the CPU in one run, kept under the
//! part's key in the JSON report and given as CSV rows to `--out` and the
//! verdicts.

use serde::Serialize;

use super::report::CsvRow;
use crate::cli::BenchPart;
use grundy::error::{Error, Result};
use grundy::internals::engine::Backend;

/// What a part is run with.
pub struct Setup<'a> {
    /// The GPU, when one opened (a software adapter only when asked for).
    pub gpu: Option<&'a Backend>,
    /// Small sizes, for a quick look.
    pub quick: bool,
    /// The report is JSON: no table printed as the rows come.
    pub json: bool,
}

/// One part of the benchmark.
pub trait Part {
    /// The `--only` value that asks for it.
    const PART: BenchPart;
    /// Its key in the JSON report.
    const KEY: &'static str;
    /// Its rows (empty, or none, when the part is not run).
    type Rows: Serialize + Default;
    /// Times the part's workloads, printing its table unless `setup.json`.
    fn rows(setup: &Setup) -> Result<Self::Rows>;
    /// The rows as `--out` and the verdicts read them.
    fn csv(rows: &Self::Rows) -> Vec<CsvRow>;
}

/// Runs part `P` when `only` asks for it (its empty rows otherwise), keeps
/// its rows in `report` under its key, and returns its CSV rows.
pub fn run_part<P: Part>(
    setup: &Setup,
    only: &[BenchPart],
    report: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<Vec<CsvRow>> {
    let rows = match only.contains(&P::PART) {
        true => P::rows(setup)?,
        false => P::Rows::default(),
    };
    let value = serde_json::to_value(&rows).map_err(|e| Error::Run(e.to_string()))?;
    report.insert(P::KEY.into(), value);
    Ok(P::csv(&rows))
}
