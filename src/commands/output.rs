//! What every command shows the user: progress on stderr, one JSON object
//! on stdout, plots of tables, and the checks of its arguments they share.

use std::io::IsTerminal;
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use crate::plot::PlotTarget;
use grundy::error::{Error, Result};
use grundy::frontend::export::is_stdout;

/// Refuses two things writing to stdout at once.
pub(crate) fn reject_stdout_clash(json: bool, out: Option<&Path>) -> Result<()> {
    if json && out.is_some_and(is_stdout) {
        return Err(Error::Input(
            "--json and --out - both write to stdout; give --out a file name".into(),
        ));
    }
    Ok(())
}

/// Whether a command prints its text summary on stdout: not with --json
/// (the JSON object instead), -q (only errors) or --out - (the table).
pub(crate) fn shows_text(json: bool, quiet: bool, out: Option<&Path>) -> bool {
    !json && !quiet && !out.is_some_and(is_stdout)
}

/// The last line of every command that wrote a table to a file.
pub(crate) fn print_wrote(out: Option<&Path>) {
    if let Some(path) = out.filter(|p| !is_stdout(p)) {
        grundy::frontend::outln!("wrote {}", path.display());
    }
}

/// Prints one JSON object on stdout.
/// A run's summary: its JSON with `json`, else its text (`table`) where
/// text shows; then where the rows went, when they went to a file.
pub(crate) fn print_summary<S: Serialize>(
    summary: &S,
    table: impl FnOnce(&S) -> String,
    json: bool,
    quiet: bool,
    out: Option<&Path>,
) -> Result<()> {
    if json {
        return print_json(summary);
    }
    if shows_text(false, quiet, out) {
        grundy::frontend::out!("{}", table(summary));
    }
    print_wrote(out);
    Ok(())
}

pub(crate) fn print_json(value: &impl Serialize) -> Result<()> {
    grundy::frontend::outln!(
        "{}",
        serde_json::to_string(value).map_err(|e| Error::Run(e.to_string()))?
    );
    Ok(())
}

/// Draws a table given as rows (`coords`, `names.len()` per row); a notice
/// (panels left out, cells sampled) goes to stderr.
pub(crate) fn plot_table(
    target: &PlotTarget,
    title: String,
    names: &[&str],
    coords: &[u32],
    values: &[u32],
    symmetric: bool,
    quiet: bool,
) -> Result<()> {
    if let Some(note) = crate::plot::table(target, title, names, coords, values, symmetric)?
        && !quiet
    {
        eprintln!("grundy: {note}");
    }
    Ok(())
}

/// `1,3,4` → [1, 3, 4].
pub fn parse_set(text: &str) -> Result<Vec<u32>> {
    text.split(',')
        .map(|part| {
            part.trim().parse::<u32>().map_err(|_| {
                Error::Input(format!(
                    "bad subtraction set '{text}': '{}' is not a whole number; expected numbers like 1,3,4",
                    part.trim()
                ))
            })
        })
        .collect()
}

/// A counter on stderr for runs whose total is not known in advance (the
/// memo solver meets its pieces as it goes); shown like `progress_bar`.
pub fn progress_counter(quiet: bool, unit: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    if !std::io::stderr().is_terminal() {
        // A log file: a line every --log-every seconds instead of a bar.
        let bar = ProgressBar::hidden();
        super::progress::log_lines(&bar, unit);
        return bar;
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} {{spinner}} {{human_pos}} {unit}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// A progress bar on stderr; with stderr not a terminal, a log line every
/// --log-every seconds instead; nothing with --quiet.
pub fn progress_bar(len: u64, quiet: bool, unit: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    if !std::io::stderr().is_terminal() {
        // A log file: a line every --log-every seconds instead of a bar.
        let bar = ProgressBar::hidden();
        bar.set_length(len);
        super::progress::log_lines(&bar, unit);
        return bar;
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{rate}}, eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", whole_rate)
        .progress_chars("=> "),
    );
    // Redrawn while a long GPU submission or block runs, not only when it ends.
    bar.enable_steady_tick(std::time::Duration::from_millis(250));
    bar
}

/// The rate as a whole number per second ("1234/s", not "1234.5678/s").
fn whole_rate(state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write) {
    let _ = write!(out, "{}/s", rate_text(state.per_sec()));
}

fn rate_text(per_second: f64) -> String {
    if per_second.is_finite() {
        format!("{:.0}", per_second.max(0.0))
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_are_whole_numbers() {
        assert_eq!(super::rate_text(1234.5678), "1235");
        assert_eq!(super::rate_text(0.2), "0");
        assert_eq!(super::rate_text(f64::INFINITY), "-");
    }
}
