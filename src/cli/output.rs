//! Where a table goes: --out, its format, --plot and how it is drawn.

use std::path::PathBuf;

use clap::Args;

use grundy::frontend::export::TableFormat;

/// How a --plot picture is drawn.
#[derive(Args, Debug, Clone, Default)]
pub struct PlotStyle {
    /// The --plot picture's size in pixels, WxH (default: its own, which grows with the table).
    #[arg(long, value_name = "WxH", requires = "plot")]
    pub size: Option<crate::plot::PlotSize>,
    /// The --plot picture's label size in pixels (titles and axis names scale with it; default 13).
    #[arg(long, value_name = "N", requires = "plot")]
    pub font_size: Option<u32>,
}

impl PlotStyle {
    /// The picture `--plot PATH` asks for, in this style, checked.
    pub fn target(
        &self,
        path: Option<&std::path::Path>,
        rules: grundy::frontend::export::OutputRules,
    ) -> grundy::error::Result<Option<crate::plot::PlotTarget>> {
        let target = crate::plot::PlotTarget::optional(path, self.size, self.font_size)?;
        Ok(target.map(|t| crate::plot::PlotTarget { rules, ..t }))
    }
}

/// Where a table goes.
#[derive(Args, Debug)]
pub struct TableOutput {
    /// Write the table here (- for stdout), as --format says.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// The table's format for --out: csv, or latex (a tabular a paper can \input; tables of G over two coordinates as a matrix).
    #[arg(long, value_enum, default_value = "csv", requires = "out")]
    pub format: TableFormat,
    #[command(flatten)]
    pub report: Report,
    /// Draw the table as a heat map (small multiples for more than two coordinates) here: SVG or PNG by the extension.
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub plot_style: PlotStyle,
}

/// What a run prints besides its table: one JSON object, or only errors.
#[derive(Args, Debug, Clone, Copy)]
pub struct Report {
    /// Print one JSON object summarising the run on stdout.
    #[arg(long)]
    pub json: bool,
    /// Only errors: no progress, notices or summary (--json and --out - still print).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}
