//! Pictures of tables, SVG or PNG by the file's extension: a chart of marks
//! (a Nim-sequence, values by level, a survey's periods) and heat maps (one
//! two-dimensional table, or small multiples of a table of more dimensions).
//! Drawn with plotters and a font compiled into the binary, since a fresh
//! machine may have none.

mod canvas;
mod chart;
mod heat;

pub use canvas::*;
pub use chart::*;
pub use heat::*;

use grundy::error::Result;

/// Draws a table of rows (`coords`, `names.len()` per row): a chart for one
/// coordinate, heat maps for two or more. Returns a notice, if any.
pub fn table(
    target: &PlotTarget,
    title: String,
    names: &[&str],
    coords: &[u32],
    values: &[u32],
    symmetric: bool,
) -> Result<Option<String>> {
    if names.len() == 1 {
        chart(target, &values_chart(title, names[0], coords, values))?;
        return Ok(None);
    }
    let (panels, note) = panels_from_rows(names, coords, values, symmetric, target.kind);
    heat_maps(target, &HeatMaps::new(title, panels))?;
    Ok(note)
}
