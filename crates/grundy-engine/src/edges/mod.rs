//! Edge games: the Game of Arrows and of Cycles (a dense table of states,
//! or a memo over pieces), and green Hackenbush.

pub mod arrows_dense;
pub mod arrows_memo;
pub mod hackenbush;
pub mod solve;
