//! Where a picture goes and how it is drawn: the file and its kind, the
//! size and fonts, and the one render step every picture goes through.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use grundy::error::{Error, Result};
use grundy::frontend::export::{self, OutputRules};

/// DejaVu Sans Mono (Bitstream Vera licence: assets/DejaVuSansMono-LICENSE.txt).
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSansMono.ttf");
pub(super) const FAMILY: &str = "sans-serif";

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
    /// What the picture may replace, and whether its folders are made.
    pub rules: OutputRules,
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
pub(super) struct Fonts {
    pub(super) label: u32,
}

impl Fonts {
    pub(super) fn scaled(&self, size: u32) -> u32 {
        (size * self.label).div_ceil(FONT_SIZE)
    }
    pub(super) fn title(&self) -> u32 {
        self.scaled(22)
    }
    pub(super) fn axis(&self) -> u32 {
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
            rules: OutputRules::default(),
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
pub(super) trait Draw {
    fn size(&self) -> (u32, u32);
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, fonts: Fonts) -> DrawResult;
}

pub(super) type DrawResult = std::result::Result<(), String>;

pub(super) fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Renders `picture` into the target's format and writes it atomically.
pub(super) fn render(target: &PlotTarget, picture: &impl Draw) -> Result<()> {
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
            export::write_to(&target.path, target.rules, |out| {
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
            export::write_to(&target.path, target.rules, |out| {
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
