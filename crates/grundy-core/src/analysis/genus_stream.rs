//! The genera of a code that never splits a heap, one heap after another,
//! in time linear in the heaps and, where the code's removals are bounded,
//! memory for that many heaps alone; and the certified period of the
//! truncated genus sequence.
//!
//! A heap's state is its normal value and the g⁻ of every sum of it with
//! up to `depth` nim-heaps of 2 and 1 (`genus::States`). Past the largest
//! removal t, a heap's options are the heaps t or fewer below it, so its
//! state is a function of the t states before it. If t consecutive states
//! repeat p heaps later, every later state repeats with period p: the
//! window's future is its image under that function. Allen ("On the
//! periodicity of genus sequences of quaternary games", INTEGERS 7, 2007)
//! shows that for quaternary games only such truncated genus sequences
//! need become periodic; this certifies the truncated genus (γ0 … γdepth)
//! with the normal values, not the genus's every superscript.

use crate::analysis::genus::{States, heap_options, mex, refuse_splitting};
use crate::game::Code;

/// Heap genera one after another.
pub struct GenusStream<'a> {
    code: &'a Code,
    states: States,
    /// Values of a heap's state: its sums', then its normal value.
    width: usize,
    /// The largest removal (`None`: unbounded, and every heap is kept).
    reach: Option<u64>,
    /// What one move takes from a heap past `reach`, leaving one heap.
    takes: Vec<u64>,
    /// The states of the last `ring` heaps (or of all of them), `width` a heap.
    kept: Vec<u32>,
    ring: u64,
    next: u64,
    seen: Vec<u32>,
    options: Vec<u64>,
    values: Vec<u32>,
}

impl<'a> GenusStream<'a> {
    /// The genera of `code` from heap 0, each to `depth` superscripts;
    /// refused for a code that splits heaps.
    pub fn new(code: &'a Code, depth: usize) -> Result<GenusStream<'a>, String> {
        refuse_splitting(code)?;
        let states = States { depth };
        let width = states.count() + 1;
        let reach = code.max_removal();
        let takes = match reach {
            Some(t) => (1..=t).filter(|&j| code.digit(j).allows(1)).collect(),
            None => Vec::new(),
        };
        let ring = reach.map_or(0, |t| t + 1);
        Ok(GenusStream {
            code,
            states,
            width,
            reach,
            takes,
            kept: vec![0; ring as usize * width],
            ring,
            next: 0,
            seen: Vec::new(),
            options: Vec::new(),
            values: vec![0; width - 1],
        })
    }

    /// Bytes the stream holds: `ring` heaps' states, or every heap's to `n`.
    pub fn bytes(code: &Code, depth: usize, n: u64) -> u64 {
        let width = States { depth }.count() as u64 + 1;
        let heaps = code.max_removal().map_or(n.saturating_add(1), |t| t + 1);
        heaps.saturating_mul(4 * width)
    }

    /// The heap the next `step` computes.
    pub fn next_heap(&self) -> u64 {
        self.next
    }

    fn slot(&self, h: u64) -> usize {
        let at = if self.ring == 0 { h } else { h % self.ring };
        at as usize * self.width
    }

    /// The state of heap `h`, one of the last kept.
    pub fn state(&self, h: u64) -> &[u32] {
        let at = self.slot(h);
        &self.kept[at..at + self.width]
    }

    /// Computes the next heap (`state` holds it after); returns its normal value.
    pub fn step(&mut self) -> u32 {
        let h = self.next;
        let mut options = std::mem::take(&mut self.options);
        options.clear();
        match self.reach {
            Some(t) if h > t => options.extend(self.takes.iter().map(|&j| h - j)),
            _ => options.extend(heap_options(self.code, h)),
        }
        if self.ring == 0 {
            self.kept.resize((h as usize + 1) * self.width, 0);
        }
        let count = self.width - 1;
        let mut values = std::mem::take(&mut self.values);
        let normal = mex(options.iter().map(|&o| self.state(o)[count]));
        let mut seen = std::mem::take(&mut self.seen);
        self.states
            .values_into(&options, |o, i| self.state(o)[i], (&mut values, &mut seen));
        let at = self.slot(h);
        self.kept[at..at + count].copy_from_slice(&values);
        self.kept[at + count] = normal;
        self.seen = seen;
        self.options = options;
        self.values = values;
        self.next += 1;
        normal
    }

    /// The normal value and superscripts γ0 … γdepth of heap `h`, one of
    /// the last kept.
    pub fn genus_of(&self, h: u64) -> (u32, Vec<u32>) {
        let state = self.state(h);
        let gammas = (0..=self.states.depth)
            .map(|k| self.gamma(state, k))
            .collect();
        (state[self.width - 1], gammas)
    }

    /// γk of a state (`step`'s): the g⁻ of the heap plus k nim-heaps of 2.
    pub fn gamma(&self, state: &[u32], k: usize) -> u32 {
        state[self.states.index(k, 0)]
    }

    /// The heaps of the window the next heap's state follows from: the
    /// last `reach` heaps (one where nothing can be taken, every state then
    /// being the same), once the stream is past `reach` (bounded removals
    /// only).
    fn window_heaps(&self) -> Option<std::ops::Range<u64>> {
        let t = self.reach?;
        if self.next <= t {
            return None;
        }
        Some((self.next - window_len(t))..self.next)
    }

    /// The window's states, copied.
    fn window(&self) -> Option<Vec<u32>> {
        let heaps = self.window_heaps()?;
        Some(heaps.flat_map(|h| self.state(h).to_vec()).collect())
    }

    /// Whether the window's states are `states` (a copy of a window of
    /// this stream), compared where they lie.
    fn window_is(&self, states: &[u32]) -> bool {
        let Some(heaps) = self.window_heaps() else {
            return false;
        };
        let chunks = states.chunks_exact(self.width);
        chunks.len() == heaps.clone().count() && heaps.zip(chunks).all(|(h, s)| self.state(h) == s)
    }

    /// Whether this stream's window holds the states of `other`'s.
    fn same_window(&self, other: &GenusStream) -> bool {
        match (self.window_heaps(), other.window_heaps()) {
            (Some(a), Some(b)) => a.zip(b).all(|(x, y)| self.state(x) == other.state(y)),
            _ => false,
        }
    }
}

/// The heaps a window holds for a largest removal `t`: t, or 1 where
/// nothing can be taken (a heap's state then depends on no heap before).
fn window_len(t: u64) -> u64 {
    t.max(1)
}

/// A certified period: every heap from `start` on has the state of the
/// heap `period` after it, state(h + period) = state(h), and `start` is the
/// first heap from which that holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GenusPeriod {
    pub start: u64,
    pub period: u64,
}

/// Finds the period of a stream's states by Brent's cycle search on its
/// windows while the stream runs (`look` after each heap), in the memory
/// of two windows.
pub struct PeriodSearch {
    saved: Option<Vec<u32>>,
    power: u64,
    lam: u64,
    /// The period's length, once a window came back.
    pub found: Option<u64>,
}

impl Default for PeriodSearch {
    fn default() -> Self {
        PeriodSearch {
            saved: None,
            power: 1,
            lam: 0,
            found: None,
        }
    }
}

impl PeriodSearch {
    /// Looks at the window the stream now ends with.
    pub fn look(&mut self, stream: &GenusStream) {
        if self.found.is_some() {
            return;
        }
        if stream.window_heaps().is_none() {
            return;
        }
        self.lam += 1;
        if self.saved.as_deref().is_some_and(|s| stream.window_is(s)) {
            self.found = Some(self.lam);
            return;
        }
        if self.saved.is_none() || self.power == self.lam {
            self.saved = stream.window();
            self.power *= 2;
            self.lam = 0;
        }
    }
}

/// The first heap from which the states of `code`'s heaps repeat with
/// `period` (found by `PeriodSearch`): two streams `period` heaps apart,
/// stepped until their windows agree; the certificate is that agreement.
pub fn period_start(code: &Code, depth: usize, period: u64) -> Result<GenusPeriod, String> {
    let mut behind = GenusStream::new(code, depth)?;
    let mut ahead = GenusStream::new(code, depth)?;
    let t = code
        .max_removal()
        .ok_or("a code with unbounded removals has no window")?;
    for _ in 0..period {
        ahead.step();
    }
    behind.step();
    ahead.step();
    let heap_0_repeats = behind.state(0) == ahead.state(period);
    loop {
        behind.step();
        ahead.step();
        if behind.same_window(&ahead) {
            // the window is heaps next - t .. next - 1; the heap before
            // it differs (else the previous window would have agreed)
            let start = behind.next_heap() - window_len(t);
            let start = if start == 1 && heap_0_repeats {
                0
            } else {
                start
            };
            return Ok(GenusPeriod { start, period });
        }
    }
}

/// A certified period and the genera of one cycle of it, from its start:
/// every later heap's are those of the cycle's heap it is congruent to.
pub struct GenusCycle {
    pub period: GenusPeriod,
    pub genera: Vec<(u32, Vec<u32>)>,
}

impl GenusCycle {
    /// The cycle of `code`'s genera with `period` (`PeriodSearch`'s).
    pub fn of(code: &Code, depth: usize, period: u64) -> Result<GenusCycle, String> {
        let found = period_start(code, depth, period)?;
        let mut stream = GenusStream::new(code, depth)?;
        let mut genera = Vec::with_capacity(period as usize);
        for h in 0..found.start + period {
            stream.step();
            if h >= found.start {
                genera.push(stream.genus_of(h));
            }
        }
        Ok(GenusCycle {
            period: found,
            genera,
        })
    }

    /// The normal value and superscripts of heap `h`, at or past the start.
    pub fn genus_of(&self, h: u64) -> &(u32, Vec<u32>) {
        let p = self.period;
        &self.genera[((h - p.start) % p.period) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::genus::heap_genera;

    #[test]
    fn the_stream_gives_heap_genera_in_a_window() {
        let mut codes: Vec<Code> = ["0.3", "0.33", "0.0303", "0.123", "0.[3]", "0.3[03]"]
            .iter()
            .map(|t| Code::parse(t).unwrap())
            .collect();
        codes.push(Code::subtraction(&[1, 3, 4]).unwrap());
        codes.push(Code::subtraction(&[2, 5, 7]).unwrap());
        for code in &codes {
            let genera = heap_genera(code, 200, 6).unwrap();
            let mut stream = GenusStream::new(code, 6).unwrap();
            for (h, genus) in genera.iter().enumerate() {
                let normal = stream.step();
                assert_eq!(normal, genus.normal, "{}: heap {h}", code.name());
                let (again, gammas) = stream.genus_of(h as u64);
                assert_eq!(
                    (again, gammas),
                    (normal, genus.gammas.clone()),
                    "{}",
                    code.name()
                );
            }
        }
    }

    /// The period found is the least one, from the first heap it holds,
    /// checked against the genera themselves far past it; 0.00, where
    /// nothing can be taken, has period 1 from heap 0.
    #[test]
    fn the_certified_period_holds_and_is_the_first() {
        let subtraction = |set: &[u32]| Code::subtraction(set).unwrap();
        for (code, expected) in [
            (subtraction(&[1, 3, 4]), 7),
            (subtraction(&[2, 5, 7]), 0),
            (subtraction(&[1, 2]), 3),
            (subtraction(&[3, 5, 8]), 0),
            (Code::parse("0.00").unwrap(), 1),
        ] {
            let set = code.name();
            let mut stream = GenusStream::new(&code, 6).unwrap();
            let mut search = PeriodSearch::default();
            while search.found.is_none() {
                stream.step();
                search.look(&stream);
            }
            let p = search.found.unwrap();
            if expected > 0 {
                assert_eq!(p, expected, "{set:?}");
            }
            let found = period_start(&code, 6, p).unwrap();
            if set == "0.00" {
                assert_eq!(found.start, 0);
            }
            let n = found.start + 20 * p + 50;
            let genera = heap_genera(&code, n, 6).unwrap();
            let at = |h: u64| &genera[h as usize];
            for h in found.start..=n - p {
                assert_eq!(at(h), at(h + p), "{set:?}: heap {h}");
            }
            // the first heap from which the states (genera with every sum
            // beside heaps of 1) repeat
            let mut again = GenusStream::new(&code, 6).unwrap();
            let states: Vec<Vec<u32>> = (0..=n)
                .map(|h| {
                    again.step();
                    again.state(h).to_vec()
                })
                .collect();
            let repeats = |h: u64| states[h as usize] == states[(h + p) as usize];
            assert!((found.start..=n - p).all(repeats), "{set:?}");
            assert!(found.start == 0 || !repeats(found.start - 1), "{set:?}");
        }
    }
}
