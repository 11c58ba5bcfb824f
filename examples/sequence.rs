//! A Nim-sequence from a Rust program: Grundy's game to a million heaps
//! with a progress line on stderr, then what the table says.
//!
//! `cargo run --release --example sequence -- 4!.0 1000000`

use grundy::setting::Marked;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use grundy::{RunHooks, Sequence};

/// Prints the heaps done every tenth of the run, and notices as they come.
struct Tenths {
    of: u64,
    said: AtomicU64,
}

impl RunHooks for Tenths {
    fn notice(&self, message: Marked<'_>) {
        eprintln!("note: {message}");
    }
    fn progress(&self, done: u64) {
        let tenth = done * 10 / self.of.max(1);
        if self.said.fetch_max(tenth, Relaxed) < tenth {
            eprintln!("{done} heaps done");
        }
    }
}

fn main() -> Result<(), grundy::Error> {
    let mut args = std::env::args().skip(1);
    let code = args.next().unwrap_or_else(|| "4!.0".into());
    let n: u64 = match args.next() {
        Some(text) => text
            .parse()
            .map_err(|_| grundy::Error::Input(format!("{text}: expected a number of heaps")))?,
        None => 1_000_000,
    };
    let hooks = Tenths {
        of: n,
        said: AtomicU64::new(0),
    };
    let table = Sequence::octal(&code)?.heaps(n).run_with(&hooks)?;
    let stats = table.stats();
    let (split, rare) = table.rare();
    println!("{code} to heap {n} in {:.2} s", table.seconds());
    println!("first values  {:?}", table.values(0, 20));
    println!(
        "largest value {} (first at heap {}); {} P-positions",
        stats.max_value, stats.first_max_at, stats.p_positions
    );
    println!(
        "rare values   mask {}: {} rare heaps",
        split.label(),
        rare.rare_count
    );
    match table.period() {
        Some(p) => println!(
            "period        {} from heap {}{}",
            p.period,
            p.preperiod,
            if p.certified { ", certified" } else { "" }
        ),
        None => println!("period        none found"),
    }
    Ok(())
}
