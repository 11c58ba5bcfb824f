//! How much work goes into one GPU submission.

/// Work per submission, doubled while a submission takes under 0.1 s and
/// halved past 0.5 s, within `floor..=ceiling`: the progress bar moves a few
/// times a second, and Ctrl-C is heard within a submission, on any adapter.
pub struct BatchSize {
    pub work: u64,
    floor: u64,
    ceiling: u64,
}

impl BatchSize {
    pub fn new(first: u64, floor: u64, ceiling: u64) -> BatchSize {
        BatchSize {
            work: first,
            floor,
            ceiling,
        }
    }

    /// Adjusts the work to the seconds the last submission took.
    pub fn after(&mut self, seconds: f64) {
        if seconds < 0.1 {
            self.work = (self.work * 2).min(self.ceiling);
        } else if seconds > 0.5 {
            self.work = (self.work / 2).max(self.floor);
        }
    }
}
