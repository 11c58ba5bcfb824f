//! Heat maps: one two-dimensional table, or small multiples of a table of
//! more dimensions.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Draw, DrawResult, FAMILY, Fonts, ImageKind, PlotTarget, err, render};
use super::chart::whole;
use grundy::error::Result;

/// One two-dimensional table: `cells[row * cols + col]`, row 0 at the bottom;
/// `None` where the table has no entry.
pub struct Panel {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// The x and y of column 0 and row 0.
    pub x0: u32,
    pub y0: u32,
    /// Table units per cell (more than 1 when a large table is sampled).
    pub step: u32,
    pub cols: usize,
    pub rows: usize,
    pub cells: Vec<Option<u32>>,
}

/// Small multiples beyond this many panels are left out (with a notice).
pub const MAX_PANELS: usize = 64;
/// The most cells a side of a heat map shows; larger tables are sampled.
pub const MAX_SIDE: usize = 2048;
/// SVG heat maps with more cells than this are sampled (PNG shows every cell).
const SVG_CELLS: usize = 1 << 18;
const LEGEND_WIDTH: u32 = 150;
const PANEL_MARGIN: (u32, u32, u32, u32) = (64, 20, 40, 48); // left, right, top, bottom
const FEW_VALUES: u32 = 16;
/// The colour of cells the table has no entry for.
pub const NO_ENTRY: RGBColor = RGBColor(222, 222, 222);

/// Heat maps of one or more panels with a shared legend of values.
pub struct HeatMaps {
    pub title: String,
    pub panels: Vec<Panel>,
    /// Pixels per cell and the layout, set by `layout`.
    cell: u32,
    per_row: usize,
    max_value: u32,
}

impl HeatMaps {
    /// Lays the panels out: one panel gets up to about 800 pixels, small
    /// multiples about 260 each, never less than one pixel per cell.
    pub fn new(title: String, panels: Vec<Panel>) -> HeatMaps {
        let side = panels
            .iter()
            .map(|p| p.cols.max(p.rows))
            .max()
            .unwrap_or(1)
            .max(1);
        let room = if panels.len() <= 1 { 800 } else { 260 };
        let cell = (room / side).clamp(1, 40) as u32;
        let per_row = (panels.len() as f64).sqrt().ceil().max(1.0) as usize;
        let max_value = panels
            .iter()
            .flat_map(|p| p.cells.iter().flatten())
            .copied()
            .max()
            .unwrap_or(0);
        HeatMaps {
            title,
            panels,
            cell,
            per_row,
            max_value,
        }
    }

    fn panel_size(&self) -> (u32, u32) {
        let cols = self.panels.iter().map(|p| p.cols).max().unwrap_or(1) as u32;
        let rows = self.panels.iter().map(|p| p.rows).max().unwrap_or(1) as u32;
        let (l, r, t, b) = PANEL_MARGIN;
        (cols * self.cell + l + r, rows * self.cell + t + b)
    }

    fn color(&self, v: u32) -> RGBColor {
        value_color(v, self.max_value)
    }
}

/// A colour per value: a fixed palette for few values, viridis beyond.
pub fn value_color(v: u32, max_value: u32) -> RGBColor {
    const PALETTE: [RGBColor; 16] = [
        RGBColor(250, 250, 250),
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 0),
        RGBColor(174, 199, 232),
        RGBColor(255, 187, 120),
        RGBColor(152, 223, 138),
        RGBColor(255, 152, 150),
    ];
    if max_value < FEW_VALUES {
        PALETTE[v as usize]
    } else {
        ViridisRGB::get_color_normalized(v as f32, 0.0, max_value as f32)
    }
}

impl Draw for HeatMaps {
    fn size(&self) -> (u32, u32) {
        let (pw, ph) = self.panel_size();
        let n = self.panels.len().max(1);
        let rows = n.div_ceil(self.per_row) as u32;
        let legend_rows = if self.max_value < FEW_VALUES {
            self.max_value + 1
        } else {
            12
        };
        let height = (rows * ph + 50).max(legend_rows * 22 + 90);
        (self.per_row as u32 * pw + LEGEND_WIDTH, height)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, fonts: Fonts) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(&self.title, (FAMILY, fonts.title()))
            .map_err(err)?;
        let (w, h) = root.dim_in_pixel();
        let legend_width = fonts.scaled(LEGEND_WIDTH);
        let (grid, legend) = root.split_horizontally(w.saturating_sub(legend_width));
        // The panels share what the picture has (its own size, or --size).
        let rows = self.panels.len().max(1).div_ceil(self.per_row) as u32;
        let pw = w.saturating_sub(legend_width) / self.per_row as u32;
        let ph = h / rows;
        for (i, panel) in self.panels.iter().enumerate() {
            let (r, c) = ((i / self.per_row) as i32, (i % self.per_row) as i32);
            let area = grid
                .clone()
                .shrink((c * pw as i32, r * ph as i32), (pw, ph));
            self.draw_panel(&area, panel, fonts)?;
        }
        self.draw_legend(&legend, fonts)
    }
}

impl HeatMaps {
    fn draw_panel<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        p: &Panel,
        fonts: Fonts,
    ) -> DrawResult {
        let (l, _, t, b) = PANEL_MARGIN;
        let (x0, y0, k) = (p.x0 as f64, p.y0 as f64, p.step as f64);
        let mut chart = ChartBuilder::on(area)
            .caption(&p.title, (FAMILY, fonts.axis()))
            .margin_right(PANEL_MARGIN.1)
            .margin_top(t.saturating_sub(24))
            .x_label_area_size(fonts.scaled(b))
            .y_label_area_size(fonts.scaled(l))
            .build_cartesian_2d(x0..x0 + k * p.cols as f64, y0..y0 + k * p.rows as f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(&p.x_label)
            .y_desc(&p.y_label)
            .x_labels((p.cols * p.step as usize).min(8) + 1)
            .y_labels((p.rows * p.step as usize).min(8) + 1)
            .x_label_formatter(&|x| whole(*x))
            .y_label_formatter(&|y| whole(*y))
            .label_style((FAMILY, fonts.scaled(12)))
            .axis_desc_style((FAMILY, fonts.label))
            .draw()
            .map_err(err)?;
        chart.plotting_area().fill(&NO_ENTRY).map_err(err)?;
        // one rectangle per run of equal cells in a row keeps SVGs small
        let mut runs = Vec::new();
        for row in 0..p.rows {
            let mut col = 0;
            while col < p.cols {
                let v = p.cells[row * p.cols + col];
                let start = col;
                while col < p.cols && p.cells[row * p.cols + col] == v {
                    col += 1;
                }
                if let Some(v) = v {
                    runs.push((start, col, row, v));
                }
            }
        }
        chart
            .draw_series(runs.into_iter().map(|(c0, c1, row, v)| {
                Rectangle::new(
                    [
                        (x0 + k * c0 as f64, y0 + k * row as f64),
                        (x0 + k * c1 as f64, y0 + k * (row + 1) as f64),
                    ],
                    self.color(v).filled(),
                )
            }))
            .map_err(err)?;
        Ok(())
    }

    fn draw_legend<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        fonts: Fonts,
    ) -> DrawResult {
        let text = TextStyle::from((FAMILY, fonts.label).into_font());
        area.draw(&Text::new("value", (10, 40), text.clone()))
            .map_err(err)?;
        if self.panels.iter().any(|p| p.cells.contains(&None)) {
            area.draw(&Rectangle::new([(10, 14), (34, 30)], NO_ENTRY.filled()))
                .map_err(err)?;
            area.draw(&Text::new("no entry", (42, 16), text.clone()))
                .map_err(err)?;
        }
        if self.max_value < FEW_VALUES {
            for v in 0..=self.max_value {
                let y = 62 + 22 * v as i32;
                area.draw(&Rectangle::new(
                    [(10, y), (34, y + 16)],
                    self.color(v).filled(),
                ))
                .map_err(err)?;
                area.draw(&Rectangle::new([(10, y), (34, y + 16)], BLACK))
                    .map_err(err)?;
                area.draw(&Text::new(v.to_string(), (42, y + 2), text.clone()))
                    .map_err(err)?;
            }
            return Ok(());
        }
        // a colour bar from 0 (bottom) to the largest value (top), with ticks
        let (top, height) = (62, 240);
        for i in 0..height {
            let v = self.max_value as f64 * (height - 1 - i) as f64 / (height - 1) as f64;
            area.draw(&Rectangle::new(
                [(10, top + i), (34, top + i + 1)],
                self.color(v.round() as u32).filled(),
            ))
            .map_err(err)?;
        }
        for k in 0..=4 {
            let v = self.max_value as f64 * k as f64 / 4.0;
            let y = top + height - 1 - ((height - 1) as f64 * k as f64 / 4.0) as i32;
            area.draw(&Text::new(format!("{v:.0}"), (42, y - 7), text.clone()))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// Writes heat maps.
pub fn heat_maps(target: &PlotTarget, maps: &HeatMaps) -> Result<()> {
    render(target, maps)
}

/// The pixel size a picture will have (what a test checks the file against).
pub fn heat_map_size(maps: &HeatMaps) -> (u32, u32) {
    maps.size()
}

/// A table given as rows of coordinates (`coords`, `names.len()` per row)
/// and a value each, as heat maps: the last two coordinates are a panel's x
/// and y, the ones before pick the panel (small multiples). `symmetric`
/// fills (y, x) from (x, y) for tables that list each unordered pair once.
/// Returns the panels and a notice when some were left out or sampled.
pub fn panels_from_rows(
    names: &[&str],
    coords: &[u32],
    values: &[u32],
    symmetric: bool,
    kind: ImageKind,
) -> (Vec<Panel>, Option<String>) {
    use std::collections::BTreeMap;
    let d = names.len();
    assert!(d >= 2, "a heat map needs two coordinates");
    let mut groups: BTreeMap<&[u32], Vec<(u32, u32, u32)>> = BTreeMap::new();
    for (row, &v) in coords.chunks_exact(d).zip(values) {
        groups
            .entry(&row[..d - 2])
            .or_default()
            .push((row[d - 2], row[d - 1], v));
    }
    let mut notes = Vec::new();
    if groups.len() > MAX_PANELS {
        notes.push(format!(
            "the picture shows the first {MAX_PANELS} of {} panels",
            groups.len()
        ));
    }
    let (xs, ys) = (names[d - 2], names[d - 1]);
    let limit = match kind {
        ImageKind::Png => MAX_SIDE,
        ImageKind::Svg => (SVG_CELLS as f64).sqrt() as usize,
    };
    let (x0, x1, y0, y1) = shared_ranges(coords, d, symmetric);
    let side = (x1 - x0 + 1).max(y1 - y0 + 1) as usize;
    let step = side.div_ceil(limit).max(1) as u32;
    if step > 1 {
        notes.push(format!(
            "the picture shows one row and column in {step}{}",
            if kind == ImageKind::Svg {
                " (a .png shows up to 2048 per side)"
            } else {
                ""
            }
        ));
    }
    let frame = Frame {
        x0,
        y0,
        cols: ((x1 - x0) / step + 1) as usize,
        rows: ((y1 - y0) / step + 1) as usize,
        step,
    };
    let panels = groups
        .into_iter()
        .take(MAX_PANELS)
        .map(|(prefix, cells)| {
            let title = prefix
                .iter()
                .zip(names)
                .map(|(v, n)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            frame.panel(title, (xs, ys), &cells, symmetric)
        })
        .collect();
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    (panels, note)
}

/// The x and y ranges every panel spans, so small multiples compare cell
/// for cell; a symmetric table spans the same range on both axes.
fn shared_ranges(coords: &[u32], d: usize, symmetric: bool) -> (u32, u32, u32, u32) {
    let range = |f: fn(&[u32]) -> u32| {
        let all = coords.chunks_exact(d).map(f);
        (all.clone().min().unwrap_or(0), all.max().unwrap_or(0))
    };
    let ((x0, x1), (y0, y1)) = (range(|r| r[r.len() - 2]), range(|r| r[r.len() - 1]));
    match symmetric {
        true => (x0.min(y0), x1.max(y1), x0.min(y0), x1.max(y1)),
        false => (x0, x1, y0, y1),
    }
}

/// The cells every panel shows: from (x0, y0), one in `step` each way.
struct Frame {
    x0: u32,
    y0: u32,
    cols: usize,
    rows: usize,
    step: u32,
}

impl Frame {
    /// A panel of `cells` (x, y, value), mirrored when symmetric.
    fn panel(
        &self,
        title: String,
        labels: (&str, &str),
        cells: &[(u32, u32, u32)],
        symmetric: bool,
    ) -> Panel {
        let mut grid = vec![None; self.cols * self.rows];
        let (x0, y0, step) = (self.x0, self.y0, self.step);
        let mut put = |x: u32, y: u32, v: u32| {
            if (x - x0).is_multiple_of(step) && (y - y0).is_multiple_of(step) {
                grid[((y - y0) / step) as usize * self.cols + ((x - x0) / step) as usize] = Some(v);
            }
        };
        for &(x, y, v) in cells {
            put(x, y, v);
            if symmetric {
                put(y, x, v);
            }
        }
        Panel {
            title,
            x_label: labels.0.to_string(),
            y_label: labels.1.to_string(),
            x0,
            y0,
            step,
            cols: self.cols,
            rows: self.rows,
            cells: grid,
        }
    }
}
