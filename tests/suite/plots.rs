//! Pictures: every kind renders to a valid SVG or PNG of the size the layout
//! promises, in the colours the table's values call for.

use std::collections::HashSet;
use std::path::Path;

use crate::common::{grundy, json, tmp};
use grundy_cli::plot::{self, HeatMaps, PlotTarget};
use plotters::style::RGBColor;

/// Width, height and every colour of a PNG file.
fn png_colors(path: &Path) -> (u32, u32, HashSet<[u8; 3]>) {
    let file = std::fs::File::open(path).expect("the picture exists");
    let mut reader = png::Decoder::new(file).read_info().expect("a valid PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("one frame");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let colors = buf[..info.buffer_size()]
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, colors)
}

/// Width, height and every fill colour of an SVG file.
fn svg_colors(path: &Path) -> (u32, u32, HashSet<String>) {
    let text = std::fs::read_to_string(path).expect("the picture exists");
    assert!(text.starts_with("<svg ") && text.trim_end().ends_with("</svg>"));
    let attr = |name: &str| -> u32 {
        let start = text.find(&format!("{name}=\"")).expect(name) + name.len() + 2;
        text[start..].split('"').next().unwrap().parse().unwrap()
    };
    let fills = text
        .split("fill=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_string())
        .filter(|f| f.starts_with('#'))
        .collect();
    (attr("width"), attr("height"), fills)
}

fn rgb(c: RGBColor) -> [u8; 3] {
    [c.0, c.1, c.2]
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

fn run_ok(args: &[&str]) -> std::process::Output {
    let out = grundy(args);
    assert!(
        out.status.success(),
        "grundy {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn sequence_png_marks_common_rare_and_p_positions_and_shades_the_period() {
    let path = tmp("0.16.png");
    let v = json(&run_ok(&[
        "octal",
        "0.16",
        "--until-periodic",
        "-q",
        "--json",
        "--plot",
        path.to_str().unwrap(),
    ]));
    assert_eq!(v["plot"], path.to_str().unwrap());
    assert_eq!(v["certified"], true);
    let (w, h, colors) = png_colors(&path);
    assert_eq!((w, h), plot::CHART_SIZE);
    for c in [
        plot::COMMON,
        plot::RARE,
        plot::P_POSITION,
        plot::PERIOD_BAND,
        plot::PERIODIC_PART,
    ] {
        assert!(colors.contains(&rgb(c)), "{c:?} missing");
    }
}

#[test]
fn sequence_svg_of_a_game_without_period_has_no_shading() {
    let path = tmp("grundy.svg");
    run_ok(&[
        "octal",
        "4!.0",
        "-n",
        "3000",
        "-q",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let (w, h, fills) = svg_colors(&path);
    assert_eq!((w, h), plot::CHART_SIZE);
    assert!(fills.contains(&hex(plot::COMMON)) && fills.contains(&hex(plot::P_POSITION)));
    assert!(!fills.contains(&hex(plot::PERIOD_BAND)));
}

#[test]
fn heat_map_shows_every_value_of_the_nim_sum_table_at_its_promised_size() {
    // G(a, b) = a xor b: the two-heap Nim table, one entry per a <= b
    for (max, kind) in [(15u32, "png"), (63, "svg")] {
        let mut coords = Vec::new();
        let mut values = Vec::new();
        for a in 0..=max {
            for b in a..=max {
                coords.extend([a, b]);
                values.push(a ^ b);
            }
        }
        let path = tmp(&format!("nim-{max}.{kind}"));
        let target = PlotTarget::new(&path).unwrap();
        let (panels, note) =
            plot::panels_from_rows(&["a", "b"], &coords, &values, true, target.kind);
        assert!(note.is_none());
        assert_eq!(panels.len(), 1);
        assert_eq!(
            (panels[0].cols, panels[0].rows),
            (max as usize + 1, max as usize + 1)
        );
        // mirrored: no cell is left empty
        assert!(panels[0].cells.iter().all(Option::is_some));
        let maps = HeatMaps::new("Nim".into(), panels);
        let size = plot::heat_map_size(&maps);
        plot::heat_maps(&target, &maps).unwrap();
        let want: Vec<RGBColor> = (0..=max).map(|v| plot::value_color(v, max)).collect();
        if kind == "png" {
            let (w, h, colors) = png_colors(&path);
            assert_eq!((w, h), size);
            for c in want {
                assert!(colors.contains(&rgb(c)));
            }
        } else {
            let (w, h, fills) = svg_colors(&path);
            assert_eq!((w, h), size);
            for c in want {
                assert!(fills.contains(&hex(c)), "{c:?}");
            }
        }
    }
}

#[test]
fn three_coordinates_make_small_multiples_with_shared_ranges() {
    // three-heap Nim: one panel per a, b and c on the axes
    let mut coords = Vec::new();
    let mut values = Vec::new();
    for a in 1..=6u32 {
        for b in a..=6 {
            for c in b..=6 {
                coords.extend([a, b, c]);
                values.push(a ^ b ^ c);
            }
        }
    }
    let (panels, _) = plot::panels_from_rows(
        &["a", "b", "c"],
        &coords,
        &values,
        true,
        plot::ImageKind::Png,
    );
    assert_eq!(panels.len(), 6);
    assert_eq!(panels[2].title, "a=3");
    for p in &panels {
        assert_eq!((p.x0, p.y0, p.cols, p.rows), (1, 1, 6, 6));
    }
    // panel a = 3 has b, c >= 3 only: the rest is empty
    let p = &panels[2];
    assert_eq!(p.cells[0], None);
    assert_eq!(p.cells[(5 - 1) * 6 + (4 - 1)], Some(3 ^ 4 ^ 5));
}

#[test]
fn every_table_command_draws_a_picture() {
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "rect.png",
            vec!["rect", "--max", "40", "--backend", "cpu", "-q"],
        ),
        (
            "boxes.svg",
            vec![
                "rect",
                "--max",
                "10",
                "--dims",
                "3",
                "--backend",
                "cpu",
                "-q",
            ],
        ),
        (
            "vdn.png",
            vec![
                "delete-nim",
                "--rule",
                "vdn",
                "--max",
                "60",
                "--backend",
                "cpu",
                "-q",
            ],
        ),
        ("podes.svg", vec!["podes", "0.33", "--max-legs", "8"]),
        (
            "podes3.png",
            vec!["podes", "0.33", "--max-legs", "5", "--max-length", "3"],
        ),
        (
            "bipodes.png",
            vec!["bipodes", "0.33", "--middle", "1", "--max", "2"],
        ),
        ("spiders.svg", vec!["arrows", "--spiders", "8", "-q"]),
        (
            "graph.png",
            vec![
                "graph",
                "0.33",
                "--graph",
                "pode:2,3,4",
                "--backend",
                "cpu",
                "-q",
            ],
        ),
        (
            "grid.svg",
            vec![
                "graph",
                "0.03",
                "--graph",
                "grid:3x4",
                "--backend",
                "cpu",
                "-q",
            ],
        ),
        (
            "survey.svg",
            vec!["survey", "--digits", "1", "-n", "2000", "-q"],
        ),
        ("sub.png", vec!["subtraction", "1,3,4", "-n", "200", "-q"]),
    ];
    for (name, mut args) in cases {
        let path = tmp(name);
        args.extend(["--plot", path.to_str().unwrap()]);
        run_ok(&args);
        if name.ends_with(".png") {
            let (w, h, colors) = png_colors(&path);
            assert!(w >= 200 && h >= 200, "{name}: {w}x{h}");
            assert!(colors.len() > 2, "{name}: {} colours", colors.len());
        } else {
            let (w, h, fills) = svg_colors(&path);
            assert!(w >= 200 && h >= 200, "{name}: {w}x{h}");
            assert!(fills.len() > 2, "{name}: {fills:?}");
        }
    }
}

#[test]
fn a_grid_table_shows_g_and_moves_of_every_corner_grid() {
    // 0.03 on a grids: G and moves of the a x b corner (Dailly, Octal games on graphs, Table 2: 3 x n)
    let path = tmp("grid-3x4.png");
    run_ok(&[
        "graph",
        "0.03",
        "--graph",
        "grid:3x4",
        "--moves",
        "--backend",
        "cpu",
        "-q",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let (w, h, colors) = png_colors(&path);
    assert!(w > h, "two panels side by side: {w}x{h}");
    // moves from the 3x4 grid: 6 (Conjecture 43: floor(12 / 2)); from 1x1: 0
    let top = 6;
    for v in [0, 6] {
        assert!(
            colors.contains(&rgb(plot::value_color(v, top))),
            "value {v}"
        );
    }
}

#[test]
fn a_grid_picture_from_the_memo_equals_the_one_from_the_dense_table() {
    // The memo solves each corner grid itself; the dense table holds them.
    // 0.137 goes to the recursion, 0.33 to the level memo.
    let picture = |code: &str, solver: &str| {
        let path = tmp(&format!("corners-{code}-{solver}.svg"));
        run_ok(&[
            "graph",
            code,
            "--graph",
            "grid:4x5",
            "--solver",
            solver,
            "--backend",
            "cpu",
            "-q",
            "--plot",
            path.to_str().unwrap(),
        ]);
        std::fs::read_to_string(&path).unwrap()
    };
    for code in ["0.137", "0.33"] {
        let memo = picture(code, "memo");
        assert!(
            memo.contains(&format!("{code} on grids up to 4x5")),
            "{memo:.300}"
        );
        assert_eq!(memo, picture(code, "dense"), "{code}");
    }
}

#[test]
fn a_large_table_in_svg_is_sampled_with_a_notice() {
    let path = tmp("rect-600.svg");
    let out = run_ok(&[
        "rect",
        "--max",
        "600",
        "--backend",
        "cpu",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("one row and column in 2"), "{err}");
    let (w, _, _) = svg_colors(&path);
    assert!(w < 1200, "{w}");
}

#[test]
fn bad_plot_requests_exit_2_and_say_what_was_expected() {
    let out = grundy(&["octal", "0.07", "-n", "10", "--plot", "g.gif"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("expected a file name ending in .svg or .png")
    );
    let out = grundy(&["arrows", "--graph", "pode:2,2,2", "--plot", "a.png"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--spiders"));
}

#[test]
fn size_and_font_size_are_the_pictures_and_bad_ones_are_refused() {
    let seq = tmp("sized.png");
    let p = seq.to_str().unwrap();
    run_ok(&[
        "octal",
        "0.07",
        "-n",
        "500",
        "-q",
        "--plot",
        p,
        "--size",
        "1600x900",
        "--font-size",
        "20",
    ]);
    assert_eq!(png_colors(&seq).0, 1600);
    assert_eq!(png_colors(&seq).1, 900);
    let map = tmp("sized-map.png");
    let m = map.to_str().unwrap();
    run_ok(&[
        "rect",
        "--max",
        "20",
        "-q",
        "--backend",
        "cpu",
        "--plot",
        m,
        "--size",
        "700x640",
    ]);
    let (w, h, colors) = png_colors(&map);
    assert_eq!((w, h), (700, 640));
    assert!(colors.contains(&rgb(plot::value_color(0, 4))));
    for (flag, value, what) in [
        ("--size", "10x900", "WxH"),
        ("--size", "1600", "WxH"),
        ("--font-size", "200", "--font-size 200"),
    ] {
        let out = grundy(&["octal", "0.07", "-n", "50", "--plot", p, flag, value]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(what), "{flag} {value}: {err}");
    }
    // --size without --plot is a mistake, not a silent no-op.
    let out = grundy(&["octal", "0.07", "-n", "50", "--size", "800x600"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_survey_picture_names_codes_and_sets_codes_without_a_period_apart() {
    let path = tmp("survey.svg");
    run_ok(&[
        "survey",
        "--digits",
        "1",
        "-n",
        "3000",
        "-q",
        "--backend",
        "cpu",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    // Axis labels are the codes; the row below period 1 is named.
    let texts: Vec<&str> = text.lines().map(str::trim).collect();
    for label in ["0.0", "0.4", "none"] {
        assert!(texts.contains(&label), "{label} missing");
    }
    // The legend stands right of every mark: no entry overlaps the data.
    let x_of = |tag: &str, attr: &str| -> Vec<f64> {
        text.split(tag)
            .skip(1)
            .filter_map(|s| {
                let start = s.find(&format!("{attr}=\""))? + attr.len() + 2;
                s[start..].split('"').next()?.parse().ok()
            })
            .collect()
    };
    let rightmost_mark = x_of("<circle", "cx").into_iter().fold(0.0, f64::max);
    let legend_x = text
        .split("<text")
        .filter(|t| t.contains("certified period ("))
        .filter_map(|t| {
            let start = t.find("x=\"")? + 3;
            t[start..].split('"').next()?.parse::<f64>().ok()
        })
        .next()
        .expect("a legend entry");
    assert!(
        legend_x > rightmost_mark,
        "legend at {legend_x}, a mark at {rightmost_mark}"
    );
}
