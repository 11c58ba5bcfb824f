//! What a researcher reads first about a table: periods and statistics.

pub mod genus;
pub mod genus_stream;
pub mod milestones;
pub mod period;
pub mod quotient;
pub mod rare_split;
pub mod stats;
pub mod sum_bound;
pub mod tally;
pub mod whole_sum;
