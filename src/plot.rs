//! Pictures of tables, SVG or PNG by the file's extension: a chart of marks
//! (a Nim-sequence, values by level, a survey's periods) and heat maps (one
//! two-dimensional table, or small multiples of a table of more dimensions).
//! Drawn with plotters and a font compiled into the binary, since a fresh
//! machine may have none.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use grundy::error::{Error, Result};
use grundy::export;

/// DejaVu Sans Mono (Bitstream Vera licence: assets/DejaVuSansMono-LICENSE.txt).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");
const FAMILY: &str = "sans-serif";

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType file compiled in; a failure here would
        // only make text invisible, so it is not fatal.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// The picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageKind {
    Svg,
    Png,
}

/// Where a picture goes, checked before a run starts, and how large.
#[derive(Clone, Debug)]
pub struct PlotTarget {
    pub path: PathBuf,
    pub kind: ImageKind,
    /// `--size WxH`: the picture's size in pixels (default: the picture's own).
    pub size: Option<PlotSize>,
    /// `--font-size N`: the labels' size in pixels (titles and axis names scale with it).
    pub font_size: u32,
}

/// The labels' size when none is asked for.
pub const FONT_SIZE: u32 = 13;

/// A picture's size, `WxH` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlotSize {
    pub width: u32,
    pub height: u32,
}

/// Sides a picture may have, in pixels.
const SIDES: std::ops::RangeInclusive<u32> = 200..=16384;

impl std::str::FromStr for PlotSize {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<PlotSize, String> {
        let side = |t: &str| t.trim().parse::<u32>().ok().filter(|v| SIDES.contains(v));
        match text.split_once(['x', 'X']).map(|(w, h)| (side(w), side(h))) {
            Some((Some(width), Some(height))) => Ok(PlotSize { width, height }),
            _ => Err(format!(
                "'{text}': expected WxH in pixels, each from {} to {}, such as 1600x900",
                SIDES.start(),
                SIDES.end()
            )),
        }
    }
}

/// Font sizes a picture may have, in pixels.
pub const FONT_SIZES: std::ops::RangeInclusive<u32> = 6..=72;

/// Font sizes of one picture, from the labels' size.
#[derive(Clone, Copy, Debug)]
struct Fonts {
    label: u32,
}

impl Fonts {
    fn scaled(&self, size: u32) -> u32 {
        (size * self.label).div_ceil(FONT_SIZE)
    }
    fn title(&self) -> u32 {
        self.scaled(22)
    }
    fn axis(&self) -> u32 {
        self.scaled(15)
    }
}

impl PlotTarget {
    pub fn new(path: &Path) -> Result<PlotTarget> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let kind = match ext.as_deref() {
            Some("svg") => ImageKind::Svg,
            Some("png") => ImageKind::Png,
            _ => {
                return Err(Error::Input(format!(
                    "--plot {}: expected a file name ending in .svg or .png",
                    path.display()
                )));
            }
        };
        Ok(PlotTarget {
            path: path.to_path_buf(),
            kind,
            size: None,
            font_size: FONT_SIZE,
        })
    }

    /// `--plot` given on the command line, with `--size` and `--font-size`, checked.
    pub fn optional(
        path: Option<&Path>,
        size: Option<PlotSize>,
        font_size: Option<u32>,
    ) -> Result<Option<PlotTarget>> {
        let Some(path) = path else {
            return Ok(None);
        };
        let mut target = PlotTarget::new(path)?;
        target.size = size;
        if let Some(f) = font_size {
            if !FONT_SIZES.contains(&f) {
                return Err(Error::Input(format!(
                    "--font-size {f}: expected {} to {} pixels",
                    FONT_SIZES.start(),
                    FONT_SIZES.end()
                )));
            }
            target.font_size = f;
        }
        Ok(Some(target))
    }

    /// The pixel size `picture` will have here.
    fn size_of(&self, picture: &impl Draw) -> (u32, u32) {
        self.size
            .map_or_else(|| picture.size(), |s| (s.width, s.height))
    }
}

/// Something that draws itself on any plotters backend.
trait Draw {
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, fonts: Fonts) -> DrawResult;
}

type DrawResult = std::result::Result<(), String>;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Renders `picture` into the target's format and writes it atomically.
fn render(target: &PlotTarget, picture: &impl Draw) -> Result<()> {
    register_font();
    let (w, h) = target.size_of(picture);
    let fonts = Fonts {
        label: target.font_size,
    };
    let failed = |e: String| Error::Run(format!("drawing {}: {e}", target.path.display()));
    match target.kind {
        ImageKind::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
                picture.draw(&root, fonts).map_err(failed)?;
                root.present().map_err(|e| failed(err(e)))?;
            }
            export::write_to(&target.path, crate::front::output_rules(), |out| {
                out.write_all(svg.as_bytes())
            })
        }
        ImageKind::Png => {
            let mut rgb = vec![0u8; w as usize * h as usize * 3];
            {
                let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
                picture.draw(&root, fonts).map_err(failed)?;
                root.present().map_err(|e| failed(err(e)))?;
            }
            export::write_to(&target.path, crate::front::output_rules(), |out| {
                let mut encoder = png::Encoder::new(out, w, h);
                encoder.set_color(png::ColorType::Rgb);
                encoder.set_depth(png::BitDepth::Eight);
                // pictures are kept in repositories and papers: smaller beats faster
                encoder.set_compression(png::Compression::Best);
                encoder.set_filter(png::FilterType::Paeth);
                encoder.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
                let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
                writer
                    .write_image_data(&rgb)
                    .map_err(std::io::Error::other)?;
                writer.finish().map_err(std::io::Error::other)
            })
        }
    }
}

// ---------------------------------------------------------------- charts

/// The size of every chart picture.
pub const CHART_SIZE: (u32, u32) = (1200, 600);
/// Pixel columns a long sequence is folded into.
const CHART_COLUMNS: usize = 1000;

/// Marks of one colour: (x, y0, y1), a point when y0 = y1, else a vertical run.
pub struct Series {
    pub label: String,
    pub color: RGBColor,
    pub marks: Vec<(f64, f64, f64)>,
    /// How many entries of the table the marks stand for.
    pub count: u64,
}

/// A band of x shaded behind the marks.
pub struct Shade {
    pub label: String,
    pub from: f64,
    pub to: f64,
    pub color: RGBColor,
}

/// A chart of marks against x.
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_max: f64,
    pub y_max: f64,
    /// Width in x of one mark (1 for one heap per mark; more when heaps share a pixel column).
    pub mark_width: f64,
    pub shades: Vec<Shade>,
    pub series: Vec<Series>,
    /// Names of the whole x positions (empty: the numbers themselves).
    pub x_names: Vec<String>,
    /// A row below y = 0, at y = -1, for marks that have no y (its name).
    pub below_zero: Option<String>,
}

pub const COMMON: RGBColor = RGBColor(70, 110, 170);
pub const RARE: RGBColor = RGBColor(230, 120, 20);
pub const P_POSITION: RGBColor = RGBColor(200, 30, 40);
pub const PERIOD_BAND: RGBColor = RGBColor(200, 235, 200);
pub const PERIODIC_PART: RGBColor = RGBColor(232, 246, 232);

/// Which series a heap's mark belongs to.
pub type Classify<'a> = &'a dyn Fn(u64, u32) -> usize;

/// A Nim-sequence as a chart: value against heap, the heaps in `series`
/// chosen by `class` (0 common, 1 rare, 2 P-positions), the periodic part
/// shaded. Long tables are folded into pixel columns: each column shows every
/// value that occurs among its heaps, as runs.
pub fn sequence_chart(
    title: String,
    len: usize,
    get: &dyn Fn(usize) -> u32,
    class: Classify,
    labels: [&str; 3],
    period: Option<(u64, u64, bool)>,
) -> Chart {
    let max = (0..len).map(get).max().unwrap_or(0);
    let colors = [COMMON, RARE, P_POSITION];
    let mut series: Vec<Series> = labels
        .iter()
        .zip(colors)
        .map(|(label, color)| Series {
            label: label.to_string(),
            color,
            marks: Vec::new(),
            count: 0,
        })
        .collect();
    let columns = len.clamp(1, CHART_COLUMNS);
    let words = max as usize / 64 + 1;
    let mut seen = vec![vec![0u64; words]; series.len()];
    for c in 0..columns {
        let (lo, hi) = (c * len / columns, (c + 1) * len / columns);
        for s in &mut seen {
            s.fill(0);
        }
        for n in lo..hi {
            let v = get(n);
            let k = class(n as u64, v);
            seen[k][v as usize / 64] |= 1 << (v % 64);
            series[k].count += 1;
        }
        for (s, bits) in series.iter_mut().zip(&seen) {
            push_runs(&mut s.marks, lo as f64, bits);
        }
    }
    let mut shades = Vec::new();
    if let Some((p, e, certified)) = period {
        let (from, end) = (e as f64, len as f64);
        let kind = if certified { "certified" } else { "apparent" };
        shades.push(Shade {
            label: format!("periodic from {e} ({kind})"),
            from,
            to: end,
            color: PERIODIC_PART,
        });
        shades.push(Shade {
            label: format!("one period: {p}"),
            from,
            to: (from + p as f64).min(end),
            color: PERIOD_BAND,
        });
    }
    Chart {
        title,
        x_label: "heap".into(),
        y_label: "G(n)".into(),
        x_max: len as f64,
        y_max: max as f64 + 1.0,
        mark_width: (len as f64 / columns as f64).max(1.0),
        shades,
        series,
        x_names: Vec::new(),
        below_zero: None,
    }
}

/// Every maximal run of set bits as a mark at `x`.
fn push_runs(marks: &mut Vec<(f64, f64, f64)>, x: f64, bits: &[u64]) {
    let mut v = 0usize;
    let top = bits.len() * 64;
    while v < top {
        if bits[v / 64] >> (v % 64) & 1 == 0 {
            v += 1;
            continue;
        }
        let start = v;
        while v < top && bits[v / 64] >> (v % 64) & 1 == 1 {
            v += 1;
        }
        marks.push((x, start as f64, (v - 1) as f64));
    }
}

impl Draw for Chart {
    fn size(&self) -> (u32, u32) {
        CHART_SIZE
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, fonts: Fonts) -> DrawResult {
        root.fill(&WHITE).map_err(err)?;
        let root = root
            .titled(&self.title, (FAMILY, fonts.title()))
            .map_err(err)?;
        // The legend has a column of its own, right of the data.
        let (w, _) = root.dim_in_pixel();
        let (data, legend) = root.split_horizontally(w.saturating_sub(self.legend_width(fonts, w)));
        let y_min = if self.below_zero.is_some() { -1.5 } else { 0.0 };
        let mut chart = ChartBuilder::on(&data)
            .margin(16)
            .x_label_area_size(fonts.scaled(44))
            .y_label_area_size(fonts.scaled(64))
            .build_cartesian_2d(0f64..self.x_max.max(1.0), y_min..self.y_max.max(1.0))
            .map_err(err)?;
        let x_label = |x: &f64| match self.x_names.get(*x as usize) {
            Some(name) if !whole(*x).is_empty() => name.clone(),
            _ if self.x_names.is_empty() => whole(*x),
            _ => String::new(),
        };
        let y_label = |y: &f64| match (&self.below_zero, whole(*y).as_str()) {
            (Some(name), "-1") => name.clone(),
            (_, text) if *y >= 0.0 => text.to_string(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .label_style((FAMILY, fonts.label))
            .axis_desc_style((FAMILY, fonts.axis()))
            .draw()
            .map_err(err)?;
        for shade in &self.shades {
            let band = [(shade.from, y_min), (shade.to, self.y_max)];
            chart
                .draw_series(std::iter::once(Rectangle::new(band, shade.color.filled())))
                .map_err(err)?;
        }
        let w = self.mark_width;
        let points = self.mark_width <= 1.0 && self.x_max <= 400.0;
        for s in &self.series {
            let color = s.color;
            if points {
                chart.draw_series(
                    s.marks
                        .iter()
                        .map(move |&(x, y, _)| Circle::new((x, y), 3, color.filled())),
                )
            } else {
                chart.draw_series(s.marks.iter().map(move |&(x, y0, y1)| {
                    Rectangle::new([(x, y0), (x + w, y1 + 1.0)], color.filled())
                }))
            }
            .map_err(err)?;
        }
        self.draw_legend(&legend, fonts)
    }
}

impl Chart {
    /// The legend's entries: (colour, text, a swatch rather than a dot).
    fn legend_entries(&self) -> Vec<(RGBColor, String, bool)> {
        let shades = self.shades.iter().map(|s| (s.color, s.label.clone(), true));
        let series = self
            .series
            .iter()
            .map(|s| (s.color, format!("{} ({})", s.label, s.count), false));
        shades.chain(series).collect()
    }

    /// Pixels the legend column takes: its longest entry, at most half the picture.
    fn legend_width(&self, fonts: Fonts, width: u32) -> u32 {
        let chars = self
            .legend_entries()
            .iter()
            .map(|e| e.1.chars().count())
            .max();
        let text = chars.unwrap_or(0) as u32 * fonts.label * 62 / 100;
        (text + 48).min(width / 2)
    }

    fn draw_legend<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        fonts: Fonts,
    ) -> DrawResult {
        let text = TextStyle::from((FAMILY, fonts.label).into_font());
        let step = (fonts.label * 2) as i32;
        for (i, (color, label, swatch)) in self.legend_entries().into_iter().enumerate() {
            let y = 40 + step * i as i32;
            let half = (fonts.label / 2) as i32;
            if swatch {
                area.draw(&Rectangle::new(
                    [(8, y - half), (24, y + half)],
                    color.filled(),
                ))
            } else {
                area.draw(&Circle::new((16, y), half.max(3), color.filled()))
            }
            .map_err(err)?;
            area.draw(&Text::new(label, (32, y - half), text.clone()))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// An axis label for whole numbers only: tables are indexed by integers.
fn whole(x: f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

/// Writes a chart.
pub fn chart(target: &PlotTarget, chart: &Chart) -> Result<()> {
    render(target, chart)
}

// ---------------------------------------------------------------- heat maps

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

/// A table of one coordinate as a chart of its values.
pub fn values_chart(title: String, x_label: &str, xs: &[u32], values: &[u32]) -> Chart {
    let x_max = xs.iter().copied().max().unwrap_or(0) as f64 + 1.0;
    let y_max = values.iter().copied().max().unwrap_or(0) as f64 + 1.0;
    let marks = xs
        .iter()
        .zip(values)
        .map(|(&x, &v)| (x as f64, v as f64, v as f64))
        .collect();
    Chart {
        title,
        x_label: x_label.to_string(),
        y_label: "G".into(),
        x_max,
        y_max,
        mark_width: 1.0,
        shades: Vec::new(),
        series: vec![Series {
            label: "values".into(),
            color: COMMON,
            marks,
            count: xs.len() as u64,
        }],
        x_names: Vec::new(),
        below_zero: None,
    }
}

/// Values found at each level of a table of positions (level = tokens or
/// vertices left): one mark per (level, value) that occurs, P-positions red.
pub fn level_chart(title: String, x_label: &str, pairs: impl Iterator<Item = (u32, u32)>) -> Chart {
    use std::collections::BTreeSet;
    let mut seen = BTreeSet::new();
    let mut counts = [0u64; 2];
    for (level, v) in pairs {
        seen.insert((level, v));
        counts[usize::from(v == 0)] += 1;
    }
    let x_max = seen.iter().map(|p| p.0).max().unwrap_or(0) as f64 + 1.0;
    let y_max = seen.iter().map(|p| p.1).max().unwrap_or(0) as f64 + 1.0;
    let marks = |zero: bool| {
        seen.iter()
            .filter(|p| (p.1 == 0) == zero)
            .map(|&(l, v)| (l as f64, v as f64, v as f64))
            .collect()
    };
    Chart {
        title,
        x_label: x_label.to_string(),
        y_label: "values at this level".into(),
        x_max,
        y_max,
        mark_width: 1.0,
        shades: Vec::new(),
        series: vec![
            Series {
                label: "positions with G > 0".into(),
                color: COMMON,
                marks: marks(false),
                count: counts[0],
            },
            Series {
                label: "P-positions".into(),
                color: P_POSITION,
                marks: marks(true),
                count: counts[1],
            },
        ],
        x_names: Vec::new(),
        below_zero: None,
    }
}

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
