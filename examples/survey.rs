//! A survey from a Rust program: every octal code with two digits after
//! the point, to a number of heaps, then the codes whose period was
//! certified and the longest of them. A checkpoint (when a path is given)
//! lets a stopped run go on where it was.
//!
//! `cargo run --release --example survey -- 20000 [CHECKPOINT]`

use grundy::{Survey, SurveyRow};

fn main() -> Result<(), grundy::Error> {
    let mut args = std::env::args().skip(1);
    let n: u64 = match args.next() {
        Some(text) => text
            .parse()
            .map_err(|_| grundy::Error::Input(format!("{text}: expected a number of heaps")))?,
        None => 20_000,
    };
    let mut survey = Survey::all("0", 2)?.heaps(n);
    if let Some(path) = args.next() {
        // Resuming a file that does not exist yet starts it afresh.
        survey = match std::path::Path::new(&path).exists() {
            true => survey.resume(&path),
            false => survey.checkpoint(&path),
        };
    }
    let rows = survey.run()?;
    let certified: Vec<&SurveyRow> = rows.iter().filter(|r| r.certified).collect();
    println!(
        "{} of {} codes certified periodic by heap {n}",
        certified.len(),
        rows.len()
    );
    if let Some(longest) = certified.iter().max_by_key(|r| r.period) {
        println!(
            "longest period: {} has period {} from heap {}",
            longest.code,
            longest.period.unwrap_or_default(),
            longest.preperiod.unwrap_or_default()
        );
    }
    for row in rows.iter().filter(|r| !r.certified) {
        println!(
            "{}: no certified period (largest value {}, {} rare heaps)",
            row.code, row.max_value, row.rare_count
        );
    }
    Ok(())
}
