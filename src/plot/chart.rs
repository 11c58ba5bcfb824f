//! Charts of marks: a Nim-sequence, values by level, a survey's periods.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{Draw, DrawResult, FAMILY, Fonts, PlotTarget, err, render};
use grundy::error::Result;

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
pub(super) fn whole(x: f64) -> String {
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
