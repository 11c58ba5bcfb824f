//! Where a sequence's table lives: in memory or in a memory-mapped file
//! (`store`, `paged`), one byte a value with the few larger ones apart
//! (`escaped`) or two (`table`), grown as the run goes (`growing`), and read
//! past the heaps computed from a certified period (`filled`); what every
//! width does, so callers need not know which they hold (`width`).

pub mod escaped;
pub mod filled;
pub mod growing;
pub mod paged;
pub mod store;
pub mod table;
pub mod width;
