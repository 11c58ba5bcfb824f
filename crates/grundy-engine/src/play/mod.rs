//! Who wins a position that is a sum of components, and every winning
//! move. The position's value is the nim-sum s of its components'; a
//! winning move takes one component of value g to an option worth g xor s,
//! which cancels the rest. The lecture notes' recipe (the component whose
//! value has the top bit of s, moved down) always finds one; options worth
//! more than their component give the others. Each family hands over a
//! `Part`; `report` and `sum_report` find the moves.

mod graphs;
mod heaps;
mod misere;
mod misere_sum;
mod misere_whole;
mod report;
mod tuples;

pub use graphs::{arrows_part, arrows_play, cycles_part, graph_part, graph_play, hackenbush_part};
pub use heaps::{MAX_PLAY_HEAP, heap_part, heap_play, parse_heaps, subtraction_part};
pub use misere::misere_heap_play;
pub use misere_sum::misere_sum_report;
pub use misere_whole::{
    misere_arrows_play, misere_delete_nim_play, misere_graph_play, misere_hackenbush_play,
    misere_rect_play,
};
pub use report::{
    Component, MoveLimit, MovesTo, Part, Piece, PieceMove, PieceMoves, Pieces, Play, PlayReport,
    WinningMove, and_list, report, sum_report,
};
pub use tuples::{delete_nim_part, parse_boxes, rect_part};
