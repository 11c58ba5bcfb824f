//! The games computed as tables: rectangles, Delete Nim and the edge games.

use std::path::PathBuf;

use clap::Args;

use super::output::{Report, TableOutput};
use grundy::ArrowSolver;
use grundy::BackendChoice;

pub const RECT_HELP: &str = "A move breaks one rectangle (box) along a grid line into two pieces of unequal \
size; with --min-diff D the pieces' sides along the cut must differ by at least D (D = 1 is Grundy's \
rule, D = 0 allows equal halves). A position of several pieces is worth the xor of its pieces. \
Level = sum of the sides; one GPU dispatch per level. With --misere the last player to cut loses; \
pieces side by side are then not their xor, and each shape is valued by search over whole sums of \
pieces (CPU; sides up to about 10), whose count is made and said first: a table whose sums pass \
the memory budget is refused before the search.\n\n\
CSV: a,b,g (boxes: a,b,c,g), one row per shape with a <= b (<= c); with --misere \
a,b,g_misere,outcome_misere.\n\n\
Examples:\n  grundy rect --max 20\n  \
grundy rect --max 2048 --out output/rect-2048.csv --json\n  \
grundy rect --max 64 --dims 3 --out output/boxes-64.csv\n  \
grundy rect --max 200 --min-diff 3 --out -\n  \
grundy rect --max 8 --misere";

pub const DELETE_NIM_HELP: &str = "A move keeps the number of heaps (--rule lists the rules of Abuku, Sakai, Shinoda and Suetsugu, Some extensions of Delete Nim). \
Positions are nondecreasing tuples of heap sizes (1..X; 0..X for delete), ranked; level = total \
tokens, one GPU dispatch per level. A position with no option has value 0 under normal play (the \
last player to move wins); with --misere (the last player to move loses) it has misère value 1, and \
every value is the misère nim value g⁻ (0: the player to move loses).\n\n\
CSV: h1,...,hn,g, one row per tuple h1 <= ... <= hn; with --misere h1,...,hn,g_misere,outcome_misere \
(P or N).\n\n\
Examples:\n  grundy delete-nim --rule delete --max 15\n  \
grundy delete-nim --rule abo --heaps 3 --max 20 --misere --out abo-misere.csv\n  \
grundy delete-nim --rule vdn --max 4096 --out output/vdn-4096.csv --json\n  \
grundy delete-nim --rule single --heaps 4 --max 40 --out output/single-4.csv\n  \
grundy delete-nim --rule kdelete --heaps 6 --k 3 --max 12 --json";

pub const ARROWS_HELP: &str = "Players take turns marking an unmarked edge with an arrow; an arrow may not \
make a vertex a sink (every edge in) or a source (every edge out), so a leaf edge is never marked. \
The last player to mark wins. --trimmed allows sinks and sources at leaves (Mathews, The Game of Arrows on 3-legged spider graphs, Section 3): \
the Game of Arrows on G equals the trimmed game on its trimming T(G) (--trim prints T(G)).\n\n\
Solvers: dense (every base-3 number over the edges, level by level from the full marking down; \
up to 20 edges, on the GPU or the CPU twin) and memo (forests: the marked edges cut the forest \
into independent pieces, remembered under canonical forms; any size: pode: and path: specs go \
past 64 vertices here). auto: memo for forests.\n\n\
--spiders L: every spider with legs 1 <= a <= b <= c (<= d) <= L edges, CSV a,b,c[,d],g. \
With --graph, --out writes one row: graph,vertices,edges,state,g,outcome.\n\n\
Examples:\n  grundy arrows --graph pode:3,3,3\n  \
grundy arrows --graph pode:2,3,3 --misere\n  \
grundy arrows --graph pode:2,4,4 --trimmed --state '0>1,5>6' --json\n  \
grundy arrows --graph tree:0,0,1,1,2 --trim\n  \
grundy arrows --spiders 40 --out output/spiders-40.csv\n  \
grundy arrows --spiders 12 --legs 4 --trimmed --out output/spiders4-12.csv\n  \
grundy arrows --graphs trees:12 --out arrows-trees12.csv\n\n\
--graphs SOURCE: one row per graph from the empty state, graph6,vertices,edges,g,outcome[,spec] \
(SOURCE: a file of graph6 lines or specs, - for stdin, trees:N, spiders:N, grids:MAXV).";

pub const CYCLES_HELP: &str = "The Game of Arrows on a plane graph, where a player who completes a cycle \
cell (a bounded face whose edges all point the same way round) wins at once. Faces: built in for \
cycle:N, grid:RxC and wheel:N; otherwise --faces FILE, one cycle of vertices per line. The value \
reported is the outcome (N: the first player wins); a Grundy value only when there is no face.\n\n\
Examples:\n  grundy cycles --graph wheel:5\n  grundy cycles --graph grid:2x3 --json\n  \
grundy cycles --graph edges:house.txt --faces house-faces.txt\n  \
grundy cycles --graphs grids:12 --out cycles-grids.csv\n\n\
--graphs SOURCE: one row per plane graph from the empty state, graph6,vertices,edges,g,outcome,faces[,spec] \
(g empty where there are faces). A file line is a spec (cycle:, grid:, wheel: bring their faces) or a \
graph followed by its faces, such as 'Ds_ 0,1,2;0,2,3,4'; grids:MAXV generates every grid.";

pub const HACKENBUSH_HELP: &str = "Green Hackenbush: a move cuts one edge; whatever is no longer connected \
to the ground falls away. The ground vertices (--ground) count as one. A bamboo stalk of n edges is \
a Nim heap of size n; trees follow the colon principle, cycles the fusion principle.\n\n\
Examples:\n  grundy hackenbush --graph path:6 --ground 0\n  \
grundy hackenbush --graph grid:2x3 --ground 0,1,2 --misere\n  \
grundy hackenbush --graph cycle:5 --ground 0 --json\n  \
grundy hackenbush --graph grid:3x3 --ground 0,1,2";

/// Where a table (rectangles, Delete Nim, edge games) is computed and where it goes.
#[derive(Args, Debug)]
pub struct TableRunArgs {
    /// Where to compute: auto uses a real GPU for an edge game's table of 2^22 states or more when there is one (never a software adapter such as llvmpipe); rect takes it from 2^20 positions; delete-nim stays on the CPU, where it ran faster, unless gpu is asked for.
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    #[command(flatten)]
    pub output: TableOutput,
}

#[derive(Args, Debug)]
pub struct RectArgs {
    /// Every shape with sides up to M.
    #[arg(long, value_name = "M")]
    pub max: u32,
    /// 2 for rectangles, 3 for boxes.
    #[arg(long, value_name = "2|3", default_value_t = 2)]
    pub dims: usize,
    /// The pieces' sides along a cut must differ by at least D (1: unequal pieces, Grundy's rule).
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub min_diff: u32,
    /// Misère play: the last player to cut loses. A cut leaves a sum of two pieces, so each shape is valued by search over whole sums of pieces, on the CPU, as far as memory holds them (small --max).
    #[arg(long)]
    pub misere: bool,
    #[command(flatten)]
    pub table: TableRunArgs,
}

#[derive(Args, Debug)]
pub struct DeleteNimArgs {
    /// The ruleset.
    #[arg(long, value_enum)]
    pub rule: grundy::game::delete_nim::Rule,
    /// Number of heaps n.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub heaps: usize,
    /// k of the kdelete rule: heaps are split into k (n = km).
    #[arg(long, value_name = "K")]
    pub k: Option<usize>,
    /// Every tuple of heaps up to X.
    #[arg(long, value_name = "X")]
    pub max: u32,
    /// Misère play: the last player to move loses (values are misère nim values g⁻).
    #[arg(long)]
    pub misere: bool,
    #[command(flatten)]
    pub table: TableRunArgs,
}

#[derive(Args, Debug)]
pub struct ArrowsArgs {
    /// The graph: path:N, cycle:N, wheel:N, grid:RxC, pode:..., tree:..., edges:FILE, graph6.
    #[arg(
        long,
        short = 'g',
        value_name = "SPEC",
        required_unless_present_any = ["spiders", "graphs"]
    )]
    pub graph: Option<String>,
    /// Many graphs, one CSV row each from the empty state: a file of graph6 lines or specs, - for stdin, trees:N, spiders:N or grids:MAXV.
    #[arg(long, value_name = "SOURCE", conflicts_with_all = ["graph", "spiders", "trim", "state"])]
    pub graphs: Option<String>,
    /// Sinks and sources allowed at leaves (the Trimmed Game of Arrows).
    #[arg(long)]
    pub trimmed: bool,
    /// Print the trimming T(G) of the graph (and play the trimmed game on it).
    #[arg(long, conflicts_with = "spiders")]
    pub trim: bool,
    /// Start from this state: arrows u>v, comma separated.
    #[arg(long, value_name = "ARROWS", conflicts_with = "spiders")]
    pub state: Option<String>,
    #[arg(long, value_enum, default_value = "auto")]
    pub solver: ArrowSolver,
    /// The table of every spider with legs up to L edges.
    #[arg(long, value_name = "L", conflicts_with = "graph")]
    pub spiders: Option<usize>,
    /// Legs of the spiders in the table.
    #[arg(long, value_name = "3|4", default_value_t = 3, requires = "spiders")]
    pub legs: usize,
    /// Misère play: the last player to mark loses (the value is the misère nim value g⁻), on the dense table (up to 20 edges): a forest's pieces are a sum, which the memo would add.
    #[arg(long, conflicts_with_all = ["spiders", "graphs", "trim"])]
    pub misere: bool,
    #[command(flatten)]
    pub table: TableRunArgs,
}

#[derive(Args, Debug)]
pub struct CyclesArgs {
    /// The plane graph.
    #[arg(
        long,
        short = 'g',
        value_name = "SPEC",
        required_unless_present = "graphs"
    )]
    pub graph: Option<String>,
    /// Many plane graphs, one CSV row each from the empty state: a file with one graph per line (a spec, or graph6 followed by its faces as 0,1,2;1,2,3), - for stdin, or grids:MAXV.
    #[arg(long, value_name = "SOURCE", conflicts_with_all = ["graph", "faces", "state"])]
    pub graphs: Option<String>,
    /// Write the rows of --graphs here (- for stdout).
    #[arg(long, value_name = "PATH", requires = "graphs")]
    pub out: Option<PathBuf>,
    /// Its bounded faces: one cycle of vertices per line (built in for cycle, grid, wheel).
    #[arg(long, value_name = "FILE")]
    pub faces: Option<PathBuf>,
    /// Start from this state: arrows u>v, comma separated.
    #[arg(long, value_name = "ARROWS")]
    pub state: Option<String>,
    #[arg(long, value_enum, default_value = "auto")]
    pub backend: BackendChoice,
    #[command(flatten)]
    pub report: Report,
}

#[derive(Args, Debug)]
pub struct HackenbushArgs {
    /// The graph.
    #[arg(long, short = 'g', value_name = "SPEC")]
    pub graph: String,
    /// The ground: vertices, comma separated.
    #[arg(long, value_name = "V,...")]
    pub ground: String,
    /// Misère play: the last player to cut loses (the value is the misère nim value g⁻).
    #[arg(long)]
    pub misere: bool,
    /// Print one JSON object summarising the run on stdout.
    #[arg(long)]
    pub json: bool,
}
