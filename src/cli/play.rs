//! `grundy play`: a position of any game, its value and its winning moves.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use grundy::play::MoveLimit;

pub const PLAY_HELP: &str = "The position is a sum of components: heaps, the connected components of a \
graph (join graphs with +), the components of a Game of Arrows, rectangles, or the components of \
different games (play sum). Its value is the nim-sum (xor) of the components' values; it is a \
P-position (the player to move loses) when that is 0. A winning move takes one component to a value \
that cancels the rest; every such move is counted, and the first --limit are listed.\n\n\
Examples:\n  grundy play octal 0.07 5,7,9\n  grundy play octal 4!.0 10,11,12 --json\n  \
grundy play subtraction 1,3,4 6,7\n  grundy play graph 0.33 'grid:2x3+path:4'\n  \
grundy play arrows pode:2,3,4 --state '0>1'\n  grundy play rect 3x5,2x7\n  \
grundy play delete-nim --rule vdn 4,6\n  grundy play hackenbush --graph path:3\n  \
grundy play cycles --graph cycle:4\n  \
grundy play sum 'octal 0.07 5,9' 'subtraction 1,3 6' 'graph 0.33 pode:1,2,2' 'rect 3x5'\n  \
grundy play octal 0.77 1000000,3 --limit 5";

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(subcommand)]
    pub game: PlayGame,
    /// Print one JSON object on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    /// List at most K winning moves (or all); the count of every winning move is always given.
    #[arg(long, global = true, value_name = "K|all", default_value = "100")]
    pub limit: MoveLimit,
}

/// The games `play` knows.
#[derive(Subcommand, Debug)]
pub enum PlayGame {
    /// Heaps of a take-and-break game: CODE and heap sizes, e.g. 0.07 5,7,9.
    #[command(
        after_help = "Examples:\n  grundy play octal 0.07 5,7,9\n  grundy play octal 0.77 3,3,8 --json\n  \
                      grundy play octal 0.77 2,3,5 --misere"
    )]
    Octal {
        /// The code, e.g. 0.07, 4!.0.
        code: String,
        /// Heap sizes, comma separated.
        heaps: String,
        /// Two-heap splits must leave heaps differing by at least D.
        #[arg(long, value_name = "D")]
        min_diff: Option<u32>,
        /// Misère play: the last player to move loses. The sum has no nim-sum: its misère value is searched over the whole sum (small sums).
        #[arg(long)]
        misere: bool,
    },
    /// Heaps of a subtraction game: the set and heap sizes, e.g. 1,3,4 6,7.
    #[command(
        after_help = "Examples:\n  grundy play subtraction 1,3,4 6,7\n  grundy play subtraction 2,5 10,12,20 --json"
    )]
    Subtraction {
        /// The subtraction set, comma separated.
        set: String,
        /// Heap sizes, comma separated.
        heaps: String,
        /// Misère play: the last player to move loses (the sum searched whole).
        #[arg(long)]
        misere: bool,
    },
    /// An octal game on a graph: CODE and the graph (its connected components are the sum).
    #[command(
        after_help = "Examples:\n  grundy play graph 0.33 grid:2x3\n  grundy play graph 0.03 'path:5+cycle:4+pode:1,2,2' --json\n  \
                      grundy play graph 0.33 'path:3+path:4' --misere\n\n\
                            Vertices are numbered as in `grundy graph` (grid:RxC: vertex r*C + c; \
                            joined graphs continue the numbering)."
    )]
    Graph {
        /// The octal code, e.g. 0.33.
        code: String,
        /// The graph, or several joined by +.
        spec: String,
        /// Misère play: the last player to move loses. The components have no nim-sum: the whole graph is one position, valued by a table of its vertex subsets (up to 24 vertices).
        #[arg(long)]
        misere: bool,
    },
    /// The Game of Arrows on a graph (a spider: pode:a,b,c), from a state.
    #[command(
        after_help = "Examples:\n  grundy play arrows pode:2,3,4\n  grundy play arrows 'pode:1,2,2+path:4' --state '0>1' --json\n  \
                            grundy play arrows cycle:5 --trimmed\n  grundy play arrows 'pode:1,2+path:3' --misere"
    )]
    Arrows {
        /// The graph, or several joined by +.
        spec: String,
        /// Arrows already marked: u>v, comma separated.
        #[arg(long, value_name = "ARROWS")]
        state: Option<String>,
        /// Sinks and sources allowed at leaves (the Trimmed Game of Arrows).
        #[arg(long)]
        trimmed: bool,
        /// Misère play: the last player to move loses. The components have no nim-sum: the whole graph is one position, valued by a table of its states.
        #[arg(long)]
        misere: bool,
    },
    /// Grundy's game on rectangles or boxes: the boxes side by side, e.g. 3x5,2x7.
    #[command(
        after_help = "Examples:\n  grundy play rect 3x5,2x7\n  grundy play rect 2x3x4 --json\n  \
                            grundy play rect 6x9 --min-diff 2\n  grundy play rect 3x5,2x7 --misere\n\n\
                            A move cuts one box along a grid line into two pieces of unequal size \
                            (Schrage, A two-dimensional generalization of Grundy's game); both pieces \
                            stay in play."
    )]
    Rect {
        /// The boxes: RxC (or AxBxC), comma separated.
        boxes: String,
        /// The pieces' sides along a cut must differ by at least D.
        #[arg(long, value_name = "D", default_value_t = 1)]
        min_diff: u32,
        /// Misère play: the last player to cut loses. The boxes have no nim-sum: the sum is searched whole (small sums).
        #[arg(long)]
        misere: bool,
    },
    /// A Delete Nim position: the heaps of one position, e.g. --rule vdn 4,6.
    #[command(after_help = "Examples:\n  grundy play delete-nim --rule vdn 4,6\n  \
                            grundy play delete-nim --rule delete 0,5\n  \
                            grundy play delete-nim --rule kdelete --k 3 2,3,5,5,6,8 --json\n  \
                            grundy play delete-nim --rule vdn 4,6 --misere\n\n\
                            The heaps together are one component: every rule's move changes several \
                            heaps at once (Abuku, Sakai, Shinoda and Suetsugu, Some extensions of \
                            Delete Nim).")]
    DeleteNim {
        /// The ruleset.
        #[arg(long, value_enum)]
        rule: grundy::game::delete_nim::Rule,
        /// k of the kdelete rule.
        #[arg(long, value_name = "K")]
        k: Option<usize>,
        /// The heaps, comma separated (their number is the rule's n).
        heaps: String,
        /// Misère play: the last player to move loses (the position's misère value, from the misère table).
        #[arg(long)]
        misere: bool,
    },
    /// Green Hackenbush on a graph with a ground: which edge to cut.
    #[command(after_help = "Examples:\n  grundy play hackenbush --graph path:3\n  \
                            grundy play hackenbush --graph cycle:5 --ground 0 --json\n  \
                            grundy play hackenbush --graph pode:1,2,3 --misere")]
    Hackenbush {
        /// The graph.
        #[arg(long, short = 'g', value_name = "SPEC")]
        graph: String,
        /// The ground: vertices, comma separated.
        #[arg(long, value_name = "V,...", default_value = "0")]
        ground: String,
        /// Misère play: the last player to cut loses.
        #[arg(long)]
        misere: bool,
    },
    /// Francis Su's Game of Cycles on a plane graph, from a state: the winning arrows.
    #[command(after_help = "Examples:\n  grundy play cycles --graph cycle:4\n  \
                            grundy play cycles --graph grid:2x3 --state '0>1,1>2'\n\n\
                            Completing a cycle cell wins at once, so G is the outcome (1: the player \
                            to move wins) and a Game of Cycles cannot stand in a sum.")]
    Cycles {
        /// The plane graph.
        #[arg(long, short = 'g', value_name = "SPEC")]
        graph: String,
        /// Its bounded faces: one cycle of vertices per line (built in for cycle, grid, wheel).
        #[arg(long, value_name = "FILE")]
        faces: Option<PathBuf>,
        /// Arrows already marked: u>v, comma separated.
        #[arg(long, value_name = "ARROWS")]
        state: Option<String>,
    },
    /// A sum of different games: each COMPONENT written as its own `play` takes it.
    #[command(
        after_help = "Examples:\n  grundy play sum 'octal 0.07 5,9' 'subtraction 1,3 6'\n  \
                            grundy play sum 'octal 0.77 4' 'graph 0.33 pode:1,2,2' \
                            'hackenbush --graph path:3' 'rect 3x5' 'delete-nim --rule vdn 4,6' --json\n  \
                            grundy play sum --misere 'octal 0.07 5' 'rect 3x4' 'graph 0.33 path:4'\n\n\
                            Each component is one word list (quote it): a game as `grundy play` \
                            names it and its position. The value of the sum is the nim-sum of every \
                            component's value. Under --misere (the last player to move loses) there \
                            is no nim-sum: the whole sum is searched, its size said if it cannot fit."
    )]
    Sum {
        /// The games, each quoted: 'GAME ARGS...'.
        #[arg(value_name = "COMPONENT", required = true)]
        components: Vec<String>,
        /// Misère play: the last player to move loses; the sum is searched whole.
        #[arg(long)]
        misere: bool,
    },
}
