//! The command line: one subcommand per family, common flags shared.
// Its doc comments are clap's help text, not rustdoc: `[3]` is a code.
#![allow(rustdoc::broken_intra_doc_links)]

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod output;
mod play;
mod tables;

pub use output::{PlotStyle, Report, TableOutput};
pub use play::{PLAY_HELP, PlayArgs, PlayGame};
pub use tables::*;

use grundy::Algorithm;
use grundy::BackendChoice;
pub use grundy::Solver;
use grundy::frontend::export::{Format, TableFormat};

/// `grundy --version`: the version, the commit it was built from and the
/// wgpu backends this build carries (Vulkan on Linux and Windows, Metal on
/// macOS, DX12 on Windows).
pub fn long_version() -> String {
    let names = grundy::device::compiled_backends();
    format!(
        "{} (commit {}; wgpu 30; GPU backends compiled in: {})",
        env!("CARGO_PKG_VERSION"),
        grundy::COMMIT,
        if names.is_empty() {
            "none, the CPU only".to_string()
        } else {
            names.join(", ")
        }
    )
}

/// The command line, with the long version filled in.
pub fn parse() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    // clap keeps the text for the life of the program
    let version: &'static str = Box::leak(long_version().into_boxed_str());
    let matches = Cli::command().long_version(version).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about = "Sprague-Grundy tables in bulk, on the GPU with a CPU fallback",
    long_about = "Sprague-Grundy tables in bulk, on the GPU (wgpu: Vulkan, Metal, DX12) with a CPU \
                  fallback, exported as CSV.\n\nExit status: 0 done, 2 bad input, 1 failure while running; \
                  130, 143 or 129 stopped by Ctrl-C, SIGTERM or SIGHUP (128 + the signal), after \
                  saving the checkpoint where there is one.",
    after_help = "Examples:\n  grundy octal 0.07 -n 100000 --out output/0.07.csv\n  grundy octal 4!.0 -n 1000000 --json\n  \
                  grundy octal 0.16 --until-periodic --json\n  grundy subtraction 1,3,4 -n 1000\n  \
                  grundy graph 0.03 --graph grid:3x5 --moves\n  grundy podes 0.33 --max-legs 10\n  \
                  grundy bipodes 0.33 --middle 2 --max 6 --out output/bipodes-2.csv\n  \
                  grundy rect --max 2048 --out output/rect.csv\n  \
                  grundy delete-nim --rule single --heaps 4 --max 40\n  grundy bench --quick\n\n\
                  Environment:\n  \
                  GRUNDY_SIMD=avx512|avx2|portable|plain  a narrower SIMD path for the rare values than \
                  the CPU's widest (to measure or test one)\n  \
                  GRUNDY_GPU_MAX_BINDING=BYTES  plan GPU runs with a smaller storage binding\n  \
                  GRUNDY_PASS_AHEAD=1|0, GRUNDY_STRETCHES=1|0|idle  start the rare values' passes ahead, finish \
                  their blocks in stretches: always (1), never (0), or once a block's pass is done (idle); \
                  the same tables, another speed\n  \
                  GRUNDY_STRETCH_RUNS=2..16  runs a stretch whatever the threads (with \
                  GRUNDY_STRETCHES=1 on one thread: a many-core host's critical path, counted in --json)\n  \
                  SLURM_ARRAY_TASK_ID (with _COUNT, or _MIN and _MAX)  a survey's shard when --shard is not given"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// With stderr not a terminal (a log file, Slurm's output, nohup): a progress line every SECONDS (0: none).
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 60.0)]
    pub log_every: f64,
    /// Create the missing folders of output paths (without it a path into a folder that does not exist is refused).
    #[arg(long, global = true)]
    pub mkdir: bool,
    /// Replace an output file you made read-only, and write into a block device (a disk) named as an output; without it both are refused.
    #[arg(long, global = true)]
    pub force: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Nim-sequence G(0..=N) of a take-and-break game in CGSuite's code notation.
    #[command(after_help = OCTAL_HELP)]
    Octal(OctalArgs),
    /// Every code of K digits (or a list of codes) to N heaps: one row per code.
    #[command(after_help = SURVEY_HELP)]
    Survey(SurveyArgs),
    /// Hunt periods: push each code (or the published unsolved games) as far as a time budget allows, doubling N, resumable.
    #[command(after_help = HUNT_HELP)]
    Hunt(HuntArgs),
    /// Nim-sequence of the subtraction game with a given set (take s tokens, s in the set).
    #[command(after_help = "Examples:\n  grundy subtraction 1,3,4 -n 1000\n  \
                            grundy subtraction 2,5,7 --until-periodic --json\n  \
                            grundy subtraction 1,3,4 -n 1000 --misere --out misere.csv\n\n\
                            The set S = {s1, s2, ...} is the code 0.d1d2... with d_s = 3 for s in S.")]
    Subtraction(SubtractionArgs),
    /// An octal game on a graph (Dailly, Octal games on graphs, Definition 22): G of the whole graph, every position's value.
    #[command(after_help = GRAPH_HELP)]
    Graph(GraphArgs),
    /// Grundy values of k-podes whose legs have length 1..L (Dailly, Octal games on graphs, Figure 34).
    #[command(after_help = "Examples:\n  grundy podes 0.33 --max-legs 10\n  \
                            grundy podes 0.33 --max-legs 8 --max-length 3 --out output/podes.csv\n\n\
                            CSV: legs,long_legs,g (legs = k, long_legs = legs of length 2); with \
                            --max-length L > 2: legs,len1,...,lenL,g. Solved on the CPU by the memo \
                            solver (canonical rooted trees), one memo for the whole table.")]
    Podes(PodesArgs),
    /// Grundy values of bipodes B(a1,a2,b1,b2) with a middle chain of M edges (Dailly, Octal games on graphs, Tables 4-5).
    #[command(
        after_help = "Examples:\n  grundy bipodes 0.33 --middle 1 --max 6 --out output/bipodes-1.csv\n  \
                            grundy bipodes 0.33 --middle 2 --max 4\n\n\
                            a1/a2 count the legs of length 1/2 at one centre, b1/b2 at the other. \
                            CSV: a1,a2,b1,b2,g. Each bipode is built as a graph and solved by the \
                            memo solver, one memo for the whole table."
    )]
    Bipodes(BipodesArgs),
    /// Grundy's game on rectangles or boxes with sides up to M (Schrage, A two-dimensional generalization of Grundy's game): G of every shape.
    #[command(after_help = RECT_HELP)]
    Rect(RectArgs),
    /// Delete Nim and its many-heap rules (Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim): G of every nondecreasing tuple of heaps up to X.
    #[command(after_help = DELETE_NIM_HELP)]
    DeleteNim(DeleteNimArgs),
    /// The Game of Arrows (Mathews, The Game of Arrows on 3-legged spider graphs) on a graph, or a table of spiders.
    #[command(after_help = ARROWS_HELP)]
    Arrows(ArrowsArgs),
    /// Francis Su's Game of Cycles on a plane graph: who wins.
    #[command(after_help = CYCLES_HELP)]
    Cycles(CyclesArgs),
    /// Green Hackenbush on a rooted graph: the Grundy value.
    #[command(after_help = HACKENBUSH_HELP)]
    Hackenbush(HackenbushArgs),
    /// Who wins a position that is a sum of components, and every winning move.
    #[command(after_help = PLAY_HELP)]
    Play(PlayArgs),
    /// The misère quotient of a take-and-break game's heaps up to H (Plambeck and Siegel, Misère quotients for impartial games): the monoid, its P-portion and the pretending function, proved right on every sum.
    #[command(after_help = QUOTIENT_HELP)]
    Quotient(QuotientArgs),
    /// Shell completions for bash, zsh, fish, elvish or PowerShell, on stdout.
    #[command(
        after_help = "Examples:\n  grundy completions bash > ~/.local/share/bash-completion/completions/grundy\n  \
                            grundy completions zsh > ~/.zfunc/_grundy\n  \
                            grundy completions fish > ~/.config/fish/completions/grundy.fish"
    )]
    Completions(CompletionsArgs),
    /// The manual pages (roff), made from the same definitions as --help: grundy(1) on stdout, or a page for every command written into DIR.
    #[command(after_help = "Examples:\n  grundy man | man -l -\n  \
                            grundy man --dir ~/.local/share/man/man1   # then: man grundy-octal\n  \
                            sudo grundy man --dir /usr/local/share/man/man1")]
    Man(ManArgs),
    /// Time the same work on the GPU and the CPU and print the ratio.
    #[command(
        after_help = "Examples:\n  grundy bench\n  grundy bench --quick --json\n  \
                            grundy bench --only tables --backend cpu\n  \
                            grundy bench --out bench.csv   # appends one row per workload"
    )]
    Bench(BenchArgs),
}

#[derive(Args, Debug)]
pub struct QuotientArgs {
    /// The code, in CGSuite's notation (0.07, 0.75, 4.7).
    pub code: String,
    /// The largest heap: the quotient of every sum of heaps up to H.
    #[arg(long, short = 'H', value_name = "H", value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub max_heap: u16,
    /// learn: extend and refine candidates (the sizes the papers reach); exact: every sum in a box of heap counts (a few heaps).
    #[arg(long, value_enum, default_value = "learn")]
    pub method: QuotientMethod,
    /// Print it as LaTeX (the presentation, P-portion and pretending function) on stdout.
    #[arg(long, conflicts_with = "json")]
    pub latex: bool,
    /// Stop at the first heap up to H from which the periodicity theorem proves the quotient that of every sum of heaps (docs/misere.md).
    #[arg(long)]
    pub until_solved: bool,
    #[command(flatten)]
    pub report: Report,
}

/// `--method` of `grundy quotient`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotientMethod {
    Learn,
    Exact,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write grundy.1 and a page per command (grundy-octal.1, grundy-play-sum.1, ...) into DIR, created if missing, instead of printing grundy.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

const QUOTIENT_HELP: &str = "Examples:\n  grundy quotient 0.75 --max-heap 20\n  \
grundy quotient 0.07 --max-heap 16 --json\n  \
grundy quotient 0.[3] --max-heap 7 --latex > nim-quotient.tex\n  \
grundy quotient 0.137 --max-heap 6 --method exact\n\n\
Under misère play a sum of heaps has no nim-sum. Its class in the quotient is the product of its \
heaps' elements (the pretending function), and it is a P-position (the player to move loses) \
exactly when that product lies in the P-portion. Generators a, b, c, ... are the heaps at which \
the quotient grew past what earlier heaps reach; each element is named by its least monomial; \
the relations are written as the papers write them (a^2 = 1, b^3 = b). --method learn (the \
default) extends Q_(h-1) by heap h or refines candidates from a table of outcomes; --method \
exact values every sum in a box of heap counts, for a few heaps. Either way the quotient printed \
has been checked against every sum of the heaps up to H, by a finite check that covers them \
all (docs/misere.md). A run that would pass the memory budget stops and says at which heap.";

const HUNT_HELP: &str = "Examples:\n  grundy hunt --unsolved --budget 60 --dir hunt\n  \
grundy hunt 0.6 0.16 4!.0 --budget 600 --dir hunt --out hunt.csv\n  \
grundy hunt --codes mine.txt --budget 3600 --dir hunt --shard 3/16\n  \
grundy hunt --misere 0.07 0.77 0.137 --budget 120 --dir misere-hunt\n\n\
Each code runs to N = 1024, 2048, 4096, ... until its period is certified (solved: the \
heaps after are filled from it), N passes --max-n, or its budget is spent. --budget is a \
code's seconds over every hunt in --dir: run again with a larger one (here, or on another \
machine given the folder) and each code goes on from its checkpoint. The folder keeps, per \
code, NAME.ckpt (its checkpoint), NAME.row (its row, checksummed) and NAME.freq (the \
frequency of every value at every power of two, \"value count\" lines). --unsolved is the \
published list of unsolved octal games (Grundy's game and 82 codes; T. Czajka's \
octal-games tables, after A. Flammenkamp's). CSV: code,n,end,engine,max_value,first_max_at,\
p_positions,rare_mask,rare_count,last_rare,period,preperiod,certified,seconds,resumed_heaps \
(end: solved, budget, max-n or stopped).";

const SURVEY_HELP: &str = "Examples:\n  grundy survey --digits 3 -n 65536 --out output/survey-3.csv\n  \
grundy survey --digits 2 --prefix 4 -n 100000 --json --out survey-4.csv\n  \
grundy survey --codes my-codes.txt -n 1000000 --out mine.csv\n  \
grundy survey --digits 4 -n 1048576 --shard 3/64 --out parts/part-3.csv\n  \
grundy survey merge survey-4.csv parts/part-*.csv\n\n\
CSV: code,n,period,preperiod,certified,max_value,first_max_at,p_positions,rare_mask,rare_count,last_rare \
(period and preperiod empty when none shows in the table; rare_mask in hexadecimal as the published tables \
give it: 0x1ee is the value-parity split with mask 0x1ee, 0x6p1 the position-parity split with t = 1). Read \
the code column as text: pandas.read_csv(f, dtype={\"code\": str}) or grundy.read_csv(f) in Python, \
read.csv(f, colClasses = c(code = \"character\")) in R; without it 0.60 becomes the number 0.6. Codes equal to another code are still listed. On the GPU \
each code is one workgroup (the brute force, every code at once); on the CPU codes run in parallel, each \
by rare values where they pay and by the blocked brute force where not. Both stop a code as soon as its \
period is certified (rounds of 4096, 8192, ... heaps) and fill the rest from the period.\n\n\
A codes file holds one code per line (# starts a comment).\n\n\
Sharded surveys: --shard K/N (or a Slurm array task) runs the K-th of N shards, the codes dealt by \
estimated cost so that the shards take about as long, and writes a part: a first line '# grundy survey part: {...}' recording the survey's parameters and a checksum, then \
the CSV of its codes. `grundy survey merge OUT PART...` checks the parts and writes the single run's file.\n\n\
Checkpoints: --checkpoint FILE appends each finished code's row; a survey stopped by a signal, a time \
limit or kill -9 goes on with the same command and --resume FILE, and writes the same --out an \
uninterrupted run writes:\n  \
grundy survey --digits 4 -n 1048576 --shard 3/64 --out parts/part-3.csv --checkpoint ck/part-3.ck\n  \
grundy survey --digits 4 -n 1048576 --shard 3/64 --out parts/part-3.csv --resume ck/part-3.ck\n\n\
Misère play (docs/misere.md): --misere gives each code's misère quotient (heaps up to --max-heap, at most \
--seconds a code, stopped where the periodicity theorem solves it) and, for codes that never split a heap, \
the period of the truncated genus over heaps 0..=N:\n  \
grundy survey --misere --digits 2 -n 10000 --max-heap 40 --seconds 60 --out misere-2.csv\n\
CSV: code,splits,heaps,order,growth,solved_period,solved_start,checked_to,stopped,genus_period,genus_preperiod,seconds \
(growth: heap:order where the quotient grew; stopped: time or memory where the quotient did not reach --max-heap \
and was not solved).";

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
grundy octal 4.0 --min-diff 3 -n 500 --format digits --out -\n  \
grundy octal 0.1777 -n 443139470 --format raw --out 1777.u16 --checkpoint 1777.ck\n  \
grundy octal 0.1777 -n 443139470 --format raw --out 1777.u16 --resume 1777.ck\n  \
grundy octal 4!.0 -n 4294967295 --memory 2G --format raw --out g.u16 --checkpoint g.ck\n  \
grundy octal 0.167 -n 4294967295 --keep-prefix 1048576 --keep-window 1048576 --stats-out f.txt --checkpoint k.ck\n  \
grundy octal 0.07 -n 1099511627775 --json\n  \
grundy octal '0.[3]' -n 50000 --misere --backend gpu --out misere-nim.csv\n\n\
Algorithms: codes whose moves split a heap in two (and have no repeating tail) run by rare \
values (sparse space, on the CPU; its block pass runs on the GPU with --backend gpu), which costs about (breaking digits x rare heaps) per heap \
instead of a scan of every split; auto switches to the brute force (GPU when there is one) \
when more than one heap in 8 is rare, as for 0.007 or 0.06.\n\n\
Runs that last days: --checkpoint FILE saves the values every few minutes and when Ctrl-C, \
SIGTERM (a Slurm time limit) or SIGHUP stops the run (exit status 128 + the signal); \
--resume FILE continues exactly where the run stopped. With stderr not a terminal, a progress \
line every --log-every seconds goes to the log. --format raw writes u16 values after \
a one-line header and keeps one byte per value in memory while the values stay below 256, \
or while at most one heap in 1024 passes 254 (Grundy's game to 2^30 in about 1 GiB).";

const GRAPH_HELP: &str = "Graphs (at most 64 vertices):\n  \
path:N  cycle:N  grid:RxC\n  \
pode:l1,l2,...          a centre with chains of these lengths (a 3-pode is a spider)\n  \
bipode:l1,.../m1,.../k  two podes whose centres are joined by a chain of k edges\n  \
tree:p1,p2,...          the parent of vertex 1, 2, ... (vertex 0 is the root)\n  \
edges:FILE              one 'u v' pair per line, # comments\n  \
graph6:STRING           nauty's graph6 (a bare graph6 string works too)\n\n\
Codes: 0.d1d2... with octal digits: d_i says a connected set of i vertices may be removed \
from one component, bit j allowing that component to be left in j pieces (0.33, 0.03, 0.137).\n\n\
Solvers: dense (a table over every vertex subset, up to 34 vertices, on the GPU or the CPU twin) \
and memo (components under canonical forms: rooted trees, grid symmetries; for trees and \
larger sparse graphs; on grids up to 7x7 under codes that take one vertex, such as 0.33, every \
piece is listed up front and valued level by level on every core) and reach (only the positions \
reachable from the whole graph, with --moves; for codes like 0.03 that reach few). auto picks \
memo for forests, for grids under codes that never take one vertex (0.03) and for graphs too \
large for a dense table, reach for --moves on those.\n\n\
Examples:\n  grundy graph 0.03 --graph grid:3x5 --moves\n  \
grundy graph 0.33 --graph pode:1,2,2,5 --json\n  \
grundy graph 0.33 --graph grid:4x5 --out output/grid4x5.csv\n  \
grundy graph 0.33 --graph grid:5x6 --solver memo --json\n  \
grundy graph 0.137 --graph 'IheA@GUAo'\n  \
grundy graph 0.33 --graphs trees:14 --out trees14.csv\n  \
geng -c 7 | grundy graph 0.03 --graphs - --out connected7.csv\n\n\
Batches (--graphs): one row per graph, graph6,vertices,edges,g,outcome (then moves with --moves, and \
spec for spiders, grids and specs read from a file), the graphs in parallel on every core, each \
thread's memo kept across graphs. trees:N lists every unlabelled tree on N vertices once (OEIS \
A000055), spiders:N every spider (a centre and three or more legs) on N vertices, grids:MAXV every \
grid RxC (R <= C) with at most MAXV vertices.";

#[derive(Args, Debug)]
pub struct GraphArgs {
    /// The octal code, e.g. 0.33, 0.03, 0.137.
    pub code: String,
    /// Misère play: the last player to move loses. Values are misère nim values g⁻, a position of several pieces valued over its moves (never by its pieces' xor): auto takes the dense solver (reach past 34 vertices) unless the graph is connected and the code never leaves two pieces.
    #[arg(long)]
    pub misere: bool,
    /// The graph: path:N, cycle:N, grid:RxC, pode:..., bipode:.../.../k, tree:..., edges:FILE, graph6.
    #[arg(
        long,
        short = 'g',
        value_name = "SPEC",
        required_unless_present = "graphs"
    )]
    pub graph: Option<String>,
    /// Many graphs, one CSV row each (graph6,vertices,edges,g,outcome[,moves]): a file of graph6 lines (nauty's geng) or graph specs, - for stdin, or trees:N (every tree on N vertices), spiders:N (every spider on N vertices), grids:MAXV (every grid up to MAXV vertices).
    #[arg(long, value_name = "SOURCE", conflicts_with_all = ["graph", "plot"])]
    pub graphs: Option<String>,
    /// Where to compute the dense table: auto uses a real GPU when there is one and the table has 2^22 positions or more (never a software adapter such as llvmpipe).
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    #[arg(long, value_enum, default_value = "auto")]
    pub solver: Solver,
    /// Also compute the moves played when the winner plays to empty the graph and the loser to stop it.
    #[arg(long)]
    pub moves: bool,
    /// Write one row per evaluated position (mask,size,g[,moves]) here (- for stdout): every subset with --solver dense, one per canonical piece with memo.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Draw the table here (SVG or PNG by the extension): for grid:RxC, G of every a x b corner grid (and the moves, with --moves) as small multiples; otherwise the values found at each level.
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub plot_style: PlotStyle,
    #[command(flatten)]
    pub report: Report,
}

#[derive(Args, Debug)]
pub struct PodesArgs {
    /// The octal code, e.g. 0.33.
    pub code: String,
    /// Misère play: the last player to move loses (values are misère nim values g⁻; codes whose digits are at most 3).
    #[arg(long)]
    pub misere: bool,
    /// Podes with 0..=K legs.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub max_legs: usize,
    /// Legs of length 1..=L.
    #[arg(long, value_name = "L", default_value_t = 2)]
    pub max_length: usize,
    #[command(flatten)]
    pub output: TableOutput,
}

#[derive(Args, Debug)]
pub struct BipodesArgs {
    /// The octal code, e.g. 0.33.
    pub code: String,
    /// Misère play: the last player to move loses (values are misère nim values g⁻; codes whose digits are at most 3).
    #[arg(long)]
    pub misere: bool,
    /// Edges on the chain between the two centres.
    #[arg(long, value_name = "M", default_value_t = 1)]
    pub middle: usize,
    /// All a1, a2, b1, b2 in 0..=A.
    #[arg(long, value_name = "A", default_value_t = 6)]
    pub max: usize,
    #[command(flatten)]
    pub output: TableOutput,
}

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
    /// Where to compute: auto uses a real GPU for the brute force from 2^16 heaps when there is one (never a software adapter such as llvmpipe); rare values stay on the CPU unless gpu is asked for.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    /// Write the table here (- for stdout).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Table format for --out.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: Format,
    #[command(flatten)]
    pub report: Report,
    /// Keep doubling N until the period is certified (or apparent, for codes the theorem does not cover).
    #[arg(long)]
    pub until_periodic: bool,
    /// The largest N --until-periodic may reach.
    #[arg(long, value_name = "M", default_value_t = 1 << 24, requires = "until_periodic")]
    pub max_n: u64,
    /// Compute every value even after the period is certified (by default the rest of the table is filled from a certified period; apparent periods never fill).
    #[arg(long)]
    pub no_fill: bool,
    /// Rare values (sparse space) or brute force; auto picks rare values when they pay.
    #[arg(long, value_enum, default_value = "auto")]
    pub algorithm: Algorithm,
    /// Save the run here every --checkpoint-every seconds and when Ctrl-C, SIGTERM or SIGHUP stops it (atomically).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub checkpoint_every: f64,
    /// Continue the run saved in FILE (same code); checkpoints keep going to FILE unless --checkpoint says otherwise.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Write the rare positions (heap,g) of the best rare/common split here.
    #[arg(long, value_name = "FILE")]
    pub rare_out: Option<PathBuf>,
    /// Write every P-position (one heap per line) here.
    #[arg(long, value_name = "FILE")]
    pub p_out: Option<PathBuf>,
    /// Record the statistics at these heaps, each as a run to exactly that heap reports them (the frequency of every value, the largest and where, P-positions, rare mask, rare heaps, the last rare): pow2 (every power of two from 1024 to N) or heaps separated by commas. Shown in the summary and --json.
    #[arg(long, value_name = "pow2|N,N,..", value_parser = grundy::analysis::milestones::StatsAt::parse)]
    pub stats_at: Option<grundy::analysis::milestones::StatsAt>,
    /// Write the frequency of every value at each --stats-at heap here ("value count" lines after a "# n ..." line of its figures); alone it records at pow2.
    #[arg(long, value_name = "FILE")]
    pub stats_out: Option<PathBuf>,
    /// Draw value against heap here (SVG or PNG by the extension): rare values and P-positions marked, the period shaded.
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub plot_style: PlotStyle,
    /// Memory the run may use, e.g. 8G or 512M (default: what the machine or its memory cgroup has free, less an eighth). A table that does not fit is kept in a memory-mapped file beside --checkpoint (else --out, else here).
    #[arg(long, value_name = "SIZE", value_parser = grundy::memory::parse_size)]
    pub memory: Option<u64>,
    /// Keep only the values of heaps below HEAPS and of the last --keep-window heaps, in memory and in checkpoints: runs toward the records in gigabytes. Rare values on the CPU; the table goes to --out as it is computed; the statistics, --stats-at and --stats-out are counted as the run goes. A heap that needs a value not kept is never guessed: with --format raw --out FILE the run reads the heaps it gave back from FILE and keeps more from then on (within --memory); otherwise it stops, naming the sizes that would have done. Alone, the window is as large.
    #[arg(long, value_name = "HEAPS", conflicts_with_all = ["until_periodic", "plot", "rare_out", "p_out"])]
    pub keep_prefix: Option<usize>,
    /// Keep the values of the last HEAPS heaps (see --keep-prefix; alone, the prefix is as large).
    #[arg(long, value_name = "HEAPS", conflicts_with_all = ["until_periodic", "plot", "rare_out", "p_out"])]
    pub keep_window: Option<usize>,
    /// Misère play (the last player to move loses) instead of normal play: each heap's misère nim value, outcome (P: the player to move loses) and genus, as CSV columns n,g,g_misere,outcome_misere,genus. Codes that never split a heap (every digit at most 3) and subtraction games run in linear time, on the CPU; those that also take without bound (a tail such as 0.[3]) run in blocks, on the card with --backend gpu or from 32768 heaps on a real GPU; codes that split are valued over whole sums, as far as memory holds them (the table stops there and says so).
    #[arg(long, conflicts_with_all = [
        "until_periodic", "no_fill", "checkpoint", "resume", "rare_out", "p_out",
        "stats_at", "stats_out", "plot", "memory", "keep_prefix", "keep_window",
    ])]
    pub misere: bool,
}

impl SequenceArgs {
    /// The prefix and the window a run keeps (none: the whole table).
    pub fn kept(&self) -> Option<grundy::Kept> {
        grundy::Kept::either(self.keep_prefix, self.keep_window)
    }

    /// Where checkpoints go and the flag that named the file: --checkpoint,
    /// else the --resume file (a resumed run keeps saving to it).
    pub fn checkpoint_path(&self) -> Option<(&'static str, &std::path::Path)> {
        match (&self.checkpoint, &self.resume) {
            (Some(path), _) => Some(("--checkpoint", path)),
            (None, Some(path)) => Some(("--resume", path)),
            (None, None) => None,
        }
    }
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
pub struct HuntArgs {
    /// The codes to hunt, e.g. 0.6 4!.0 0.16.
    #[arg(value_name = "CODE")]
    pub codes: Vec<String>,
    /// Hunt the published unsolved octal games (Grundy's game and 82 codes) too.
    #[arg(long)]
    pub unsolved: bool,
    /// Hunt the codes listed in FILE too (one per line, # comments).
    #[arg(long = "codes", value_name = "FILE")]
    pub codes_file: Option<PathBuf>,
    /// Seconds each code may take, over every hunt in --dir.
    #[arg(long, value_name = "SECONDS")]
    pub budget: f64,
    /// The folder of the hunt's checkpoints, rows and frequency files (created if missing).
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// The first N (then doubled).
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub start: u64,
    /// The largest N a code is taken to.
    #[arg(long, value_name = "N", default_value_t = 1 << 32)]
    pub max_n: u64,
    /// Run only the K-th of N shards of the code list (K from 0 to N-1), codes dealt so that each shard gets as many unsolved ones (each spends its whole budget); inside a Slurm array job the slice comes from SLURM_ARRAY_TASK_ID when this is not given.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<grundy::survey::Shard>,
    /// Rare values where they pay (auto), always, or never.
    #[arg(long, value_enum, default_value = "auto")]
    pub algorithm: Algorithm,
    /// Runs past --keep-past heaps keep only the values of heaps below HEAPS and of the last --keep-window heaps (codes whose runs take rare values, on the CPU; the window at least twice the code's last rare heap, and only where the two hold at most a quarter of the heaps): their checkpoints stop growing with N. A heap that needs a value not kept ends its code (not-kept), naming the sizes that would have done; the hunt goes on.
    #[arg(long, value_name = "HEAPS", default_value_t = grundy::hunt::KEEP.prefix)]
    pub keep_prefix: usize,
    /// The least last heaps a run past --keep-past keeps (see --keep-prefix).
    #[arg(long, value_name = "HEAPS", default_value_t = grundy::hunt::KEEP.window)]
    pub keep_window: usize,
    /// Runs to at most N heaps keep the whole table (--keep-past at least --max-n: whole tables throughout).
    #[arg(long, value_name = "N", default_value_t = grundy::hunt::KEEP_PAST)]
    pub keep_past: u64,
    /// Where to compute: auto takes a real GPU for a brute-force code's runs from 2^16 heaps when there is one; rare values stay on the CPU.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    /// Write this run's rows here (- for stdout), in the list's order.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Print one JSON object with every row (and each code's frequencies at its last heap) on stdout.
    #[arg(long)]
    pub json: bool,
    /// Only errors: no progress, notices or table (--json and --out - still print).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Under misère play: each code's misère quotient, heap by heap, as far as --budget allows, until the periodicity theorem solves it or --max-heap; kept in --dir, so a later hunt with a larger budget goes on from it (what it reads back verified first).
    #[arg(long, conflicts_with_all = [
        "unsolved", "start", "max_n", "shard", "algorithm", "keep_prefix", "keep_window",
        "keep_past", "backend",
    ])]
    pub misere: bool,
    /// With --misere: quotients of heaps up to H at most (1 to 4096).
    #[arg(long, short = 'H', value_name = "H", default_value = "4096", requires = "misere",
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub max_heap: u16,
}

#[derive(Args, Debug)]
#[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
pub struct SurveyArgs {
    #[command(subcommand)]
    pub merge: Option<SurveyCommand>,
    /// Every code with K digits after the point (8^K codes).
    #[arg(
        long,
        value_name = "K",
        required_unless_present = "codes",
        conflicts_with = "codes"
    )]
    pub digits: Option<u32>,
    /// The digit before the point: 0, or 4 for codes that may split a heap without taking.
    #[arg(long, value_name = "D", default_value = "0", value_parser = ["0", "4"])]
    pub prefix: String,
    /// Survey the codes listed in FILE instead (one per line).
    #[arg(long, value_name = "FILE")]
    pub codes: Option<PathBuf>,
    /// Heaps 0..=N of every code.
    #[arg(short = 'n', value_name = "N", required = true)]
    pub n: Option<u64>,
    /// Run only the K-th of N shards of the code list (K from 0 to N-1; the codes dealt by estimated cost, costliest first, each to the shard with the least so far) and write it as a part for `survey merge`. Inside a Slurm array job the slice comes from SLURM_ARRAY_TASK_ID when this is not given.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<grundy::survey::Shard>,
    /// Rare values where they pay (auto), always, or never.
    #[arg(long, value_enum, default_value = "auto")]
    pub algorithm: Algorithm,
    /// Where to compute: auto uses a real GPU when there is one and the survey has 2^22 values (codes times heaps) or more, never a software adapter such as llvmpipe (one code per workgroup; the first 4096 heaps by brute force, then rare values for the codes where they pay); cpu runs codes in parallel, one per core, by rare values where they pay.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    /// Threads per code on the GPU (default: 256 on a GPU, 64 on a software adapter such as llvmpipe).
    #[arg(long, value_name = "THREADS")]
    pub workgroup: Option<u32>,
    /// Write the rows here (- for stdout).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// The rows' format for --out: csv, or latex (a tabular a paper can \input). A shard's part is always CSV.
    #[arg(long, value_enum, default_value = "csv", requires = "out")]
    pub format: TableFormat,
    /// Draw each code's period (log scale), certified or apparent, here: SVG or PNG by the extension.
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub plot_style: PlotStyle,
    /// Print one JSON object summarising the survey on stdout.
    #[arg(long)]
    pub json: bool,
    /// Append every finished code's row here (checksummed), so a stopped survey resumes with --resume FILE.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Skip the codes whose rows FILE holds (same survey: codes, -n, --algorithm, --shard); rows keep going to FILE unless --checkpoint says otherwise.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Only errors: no progress, notices or summary (--json and --out - still print).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Under misère play: each code's misère quotient as far as --max-heap and --seconds take it, whether the periodicity theorem solves it, and for codes that never split a heap the period of the genus over heaps 0..=N.
    #[arg(long, conflicts_with_all = ["shard", "plot", "checkpoint", "resume", "workgroup", "format", "algorithm"])]
    pub misere: bool,
    /// With --misere: quotients of heaps up to H (1 to 4096).
    #[arg(long, short = 'H', value_name = "H", default_value = "30", requires = "misere",
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub max_heap: u16,
    /// With --misere: the time each code's quotient may take (seconds).
    #[arg(long, value_name = "S", default_value = "60", requires = "misere")]
    pub seconds: f64,
}

impl SurveyArgs {
    /// Where rows are appended: --checkpoint, else the --resume file.
    pub fn checkpoint_path(&self) -> Option<&std::path::Path> {
        self.checkpoint.as_deref().or(self.resume.as_deref())
    }

    /// N (clap requires -n except for `survey merge`, which never asks).
    pub fn heaps(&self) -> u64 {
        self.n.unwrap_or_default()
    }
}

#[derive(Subcommand, Debug)]
pub enum SurveyCommand {
    /// Join the parts of a sharded survey into the file one run would have written.
    #[command(
        after_help = "Examples:\n  grundy survey merge survey-4.csv parts/part-*.csv\n\n\
                            Every part must come from the same survey (code list, -n, --algorithm, \
                            number of shards) and every shard must be there exactly once; the merged \
                            rows are in the code list's order, byte for byte what `survey --out` \
                            writes without --shard."
    )]
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The merged survey's CSV (- for stdout).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The parts, written by `survey --shard K/N --out PART`.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
    /// The merged file's format: csv (what one run writes), or latex.
    #[arg(long, value_enum, default_value = "csv")]
    pub format: TableFormat,
    /// No summary line.
    #[arg(long, short = 'q')]
    pub quiet: bool,
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
    /// Backends to compare: auto runs a real GPU when there is one (gpu: any adapter, software ones too), and always the CPU.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    /// Run only these parts of the suite (comma separated).
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "heaps,rare,long,survey,graphs,edges,tables"
    )]
    pub only: Vec<BenchPart>,
}

/// The parts of the benchmark suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchPart {
    /// Nim-sequences of heap games (the blocked brute force).
    Heaps,
    /// Rare values against the brute force on the same codes.
    Rare,
    /// Long sparse sequences by rare values (Officers, Grundy's game,
    /// .1777): values per second, one thread against all, the parallel
    /// pass's marks and share of the time.
    Long,
    /// Every short code at once (`grundy survey`).
    Survey,
    /// Dense graph tables.
    Graphs,
    /// Rectangles, boxes and Delete Nim tables.
    Tables,
    /// Edge games: dense Game of Arrows / Cycles tables and a spider table.
    Edges,
    /// Every grid of at most 30 vertices under 0.33 and 0.03, by the solver
    /// `graph` picks (not in the default suite: minutes on a small CPU).
    Grids,
}
