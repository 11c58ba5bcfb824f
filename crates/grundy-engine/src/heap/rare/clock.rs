//! The time the block schedule reads: how long a block took (whether
//! blocks in order pay, `BlockPlan::note_cost`) and when a stretch of
//! blocks hands back to the caller. Runs read the wall clock; tests read a
//! fake one, so that the schedule, and the counters that follow from it,
//! do not depend on the machine's load. Counters of time alone (the
//! pass's and the finish's nanoseconds) read the wall clock directly.

use std::time::Instant;

/// A source of time, read by the thread that finishes the blocks.
pub trait Clock: Send {
    /// Nanoseconds since the clock started, read when the table holds
    /// `heaps` heaps (what a fake clock counts its time in).
    fn nanos(&mut self, heaps: usize) -> u64;
}

/// Wall time.
pub struct WallClock(Instant);

impl Clock for WallClock {
    fn nanos(&mut self, _heaps: usize) -> u64 {
        self.0.elapsed().as_nanos() as u64
    }
}

/// Time that moves `per_heap` nanoseconds with every heap the table
/// gains, whatever the machine does: every heap costs the schedule the
/// same, in order or with a pass.
pub struct FakeClock {
    per_heap: u64,
}

impl Clock for FakeClock {
    fn nanos(&mut self, heaps: usize) -> u64 {
        heaps as u64 * self.per_heap
    }
}

/// Which clock a run's schedule reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScheduleClock {
    /// Wall time (every run a user starts).
    #[default]
    Wall,
    /// A fake clock on which every heap costs `per_heap_nanos` (tests).
    Fake { per_heap_nanos: u64 },
}

impl ScheduleClock {
    /// The clock, started now.
    pub fn start(self) -> Box<dyn Clock> {
        match self {
            ScheduleClock::Wall => Box::new(WallClock(Instant::now())),
            ScheduleClock::Fake { per_heap_nanos } => Box::new(FakeClock {
                per_heap: per_heap_nanos,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fake_clock_counts_heaps_and_the_wall_clock_never_goes_back() {
        let mut fake = ScheduleClock::Fake { per_heap_nanos: 7 }.start();
        assert_eq!([fake.nanos(3), fake.nanos(3), fake.nanos(10)], [21, 21, 70]);
        let mut wall = ScheduleClock::Wall.start();
        let (a, b) = (wall.nanos(0), wall.nanos(0));
        assert!(b >= a, "{a} then {b}");
    }
}
