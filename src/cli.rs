//! The command line: one subcommand per family, common flags shared.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::engine::BackendChoice;
use crate::export::Format;

pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (wgpu 30; GPU backends compiled in: Vulkan, Metal, DX12)"
);

#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    long_version = LONG_VERSION,
    about = "Sprague-Grundy tables in bulk, on the GPU with a CPU fallback",
    long_about = "Sprague-Grundy tables in bulk, on the GPU (wgpu: Vulkan, Metal, DX12) with a CPU \
                  fallback, exported as CSV.\n\nExit status: 0 done, 2 bad input, 1 failure while running.",
    after_help = "Examples:\n  grundy octal 0.07 -n 100000 --out output/0.07.csv\n  grundy octal 4!.0 -n 1000000 --json\n  \
                  grundy octal 0.16 --until-periodic --json\n  grundy subtraction 1,3,4 -n 1000\n  grundy bench --quick"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Nim-sequence G(0..=N) of a take-and-break game in CGSuite's code notation.
    #[command(after_help = OCTAL_HELP)]
    Octal(OctalArgs),
    /// Nim-sequence of the subtraction game with a given set (take s tokens, s in the set).
    #[command(after_help = "Examples:\n  grundy subtraction 1,3,4 -n 1000\n  \
                            grundy subtraction 2,5,7 --until-periodic --json\n\n\
                            The set S = {s1, s2, ...} is the code 0.d1d2... with d_s = 3 for s in S.")]
    Subtraction(SubtractionArgs),
    /// Time the same work on the GPU and the CPU and print the ratio.
    #[command(
        after_help = "Examples:\n  grundy bench\n  grundy bench --quick --json\n  \
                            grundy bench --out bench.csv   # appends one row per workload"
    )]
    Bench(BenchArgs),
}

const OCTAL_HELP: &str = "Codes (CGSuite notation): d0.d1d2... where digit dj says what may be left after \
taking j tokens from one heap: bit 0 nothing, bit 1 one heap, bit 2 two heaps, bit 3 three heaps \
(digits 0-9 and A-Z). After a digit: ! heaps pairwise unequal, ? not all equal, = all equal. \
{2,3} lists heap counts, {2+} means two or more. A bracketed tail repeats forever.\n\n  \
0.77    Kayles            0.07   Dawson's Kayles\n  \
4!.0    Grundy's game     0.[3]  Nim\n  \
0.3033  subtraction {1,3,4}\n\n\
Examples:\n  grundy octal 0.07 -n 100000 --out output/0.07.csv\n  \
grundy octal 4!.0 -n 1000000 --json\n  \
grundy octal 0.16 --until-periodic --json\n  \
grundy octal 4.0 --min-diff 3 -n 500 --format digits --out -";

/// Flags shared by every Nim-sequence command.
#[derive(Args, Debug, Clone)]
pub struct SequenceArgs {
    /// Compute heaps 0..=N.
    #[arg(
        short = 'n',
        value_name = "N",
        required_unless_present = "until_periodic"
    )]
    pub n: Option<u64>,
    /// Where to compute: auto uses the GPU when an adapter exists.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    /// Write the table here (- for stdout).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Table format for --out.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
    /// Print one JSON object summarising the run on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no notices on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Keep doubling N until the period is certified (or apparent, for codes the theorem does not cover).
    #[arg(long)]
    pub until_periodic: bool,
    /// The largest N --until-periodic may reach.
    #[arg(long, value_name = "M", default_value_t = 1 << 24, requires = "until_periodic")]
    pub max_n: u64,
}

#[derive(Args, Debug)]
pub struct OctalArgs {
    /// The code, e.g. 0.07, 4!.0, 0.[3], 0.{2,3}.
    pub code: String,
    /// Two-heap splits must leave heaps differing by at least D (Schrage; D = 1 is like !).
    #[arg(long, value_name = "D")]
    pub min_diff: Option<u32>,
    #[command(flatten)]
    pub seq: SequenceArgs,
}

#[derive(Args, Debug)]
pub struct SubtractionArgs {
    /// The subtraction set, comma separated, e.g. 1,3,4.
    pub set: String,
    #[command(flatten)]
    pub seq: SequenceArgs,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// A smaller suite that finishes in seconds.
    #[arg(long)]
    pub quick: bool,
    /// Print the results as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Append one CSV row per workload to this file (for comparing machines).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Backends to compare: auto runs the GPU when there is one, and always the CPU.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
}
