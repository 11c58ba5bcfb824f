//! The finish of a block's heaps on several cores: a stretch of heaps
//! finished at once on guesses, in rounds, then checked in order.
//!
//! A heap's finish reads the heaps of its block below it. Guess them, and
//! every heap of a stretch can be finished at once. First every heap of
//! the stretch from p on adds, in parallel, the marks of the block's heaps
//! below p (`mark_window`: their values are final), and its first free
//! common value is its guess: wrong only where the stretch's own heaps move
//! it, or where the heap is rare (the pass's own candidate c′, from the
//! heaps below the block, is wrong for half the heaps at the end of a long
//! block). Then the stretch is cut into runs of `RUN` heaps, each run
//! finished in order on one core from those marks, reading its own values
//! and, for the heaps of the runs before it, their inputs (at first the
//! guesses); each heap notes which heaps of the stretch it read
//! (`GuessView`). While a run's values differ from the inputs the runs after
//! it read, another round (at most `ROUNDS`, where a stretch has more than
//! two runs) takes those values as inputs and, on every core again,
//! finishes only the heaps that read a changed value, and of those only
//! where the change could move their marks below c or their scan read it
//! (`marks_unmoved`): after round k the
//! first k runs are exact, and most stretches settle in a few rounds, where
//! the check in order below would redo most heaps of a long stretch one at
//! a time. Last, in order, a heap is kept when every stretch heap it read
//! held its true value; otherwise it is finished again from the true
//! values, as a heap in order always is. So the values are those of the
//! in-order finish, whatever the guesses and the rounds: a wrong input
//! costs a heap done again, never a wrong value.
//! A heap whose guessed finish came out rare, or past the values the
//! stretch allowed for, ends its run: the rare list and the bitsets' width
//! stay fixed while the runs go, and the heaps after it are done in order.

use super::bits::{LocalMarks, common_word, first_unmarked, set_bit, words_for};
use super::finish_heap::{Finishing, Noted, RareNear, Scratch, candidate, finish_scan};
use super::marks::{mark_rare_pairs, one_heap_takes, options_through, split_heap};
use super::pass::BlockPass;
use super::scan::SCAN_CHUNK;
use super::state::RareRun;
use crate::heap::storage::store::{Value, Values};
use grundy_core::kernel::rare::RareCode;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

/// Heaps one core finishes in order within a stretch.
pub(super) const RUN: usize = 32;
/// Words of a heap's note of the stretch heaps it read: a stretch is at
/// most `64 * READ_WORDS` heaps.
const READ_WORDS: usize = 8;
/// The most heaps of one stretch.
pub(super) const MAX_STRETCH: usize = 64 * READ_WORDS;
/// The most rounds of a stretch of more than two runs: with 16 runs most
/// of Officers' settle in three or four, and more than eight left almost
/// none fewer to redo in order (BENCHMARKS-log.md, "The finish in rounds").
const ROUNDS: usize = 8;

/// The stretch heaps a heap read, one bit each from the stretch's first.
type Reads = [u64; READ_WORDS];

/// The table below a stretch's first heap `p` as it is, and the stretch's
/// heaps from p on as one run guessed them (`guess`), every read of those
/// noted in `reads`. A range past p is exact where `tail` holds it (the
/// table's last units below p, then the guesses as units): the scans read
/// it many pairs at a time, and its heaps past p are all noted as read
/// (more than a scan that stops early reads: a heap is only redone more
/// often). Elsewhere past p the scans take the guesses one at a time, as
/// they do escaped values.
#[derive(Clone, Copy)]
pub(super) struct GuessView<'a, V: Values> {
    below: V,
    guess: &'a [u32],
    /// Units of heaps `tail_from..`, up to the last guess (empty: none).
    tail: &'a [V::Unit],
    tail_from: usize,
    reads: &'a [AtomicU64; READ_WORDS],
    /// The view's first heap and its length.
    base: usize,
    len: usize,
    /// The view's heaps below p, as a view of `below`.
    known: Option<V>,
}

/// The table's units of the heaps from `from` on, up to a stretch's last
/// guess (`units` empty: none), for the scans to read many at a time.
#[derive(Clone, Copy)]
struct Tail<'a, U> {
    units: &'a [U],
    from: usize,
}

impl<'a, V: Values> GuessView<'a, V> {
    /// Heaps 0..len: `below`, then `guess` (read with a note in `reads`);
    /// `tail` the units of heaps from its first on, where it is not empty.
    fn new(
        below: V,
        guess: &'a [u32],
        Tail {
            units: tail,
            from: tail_from,
        }: Tail<'a, V::Unit>,
        reads: &'a [AtomicU64; READ_WORDS],
    ) -> Self {
        let len = below.len() + guess.len();
        let whole = GuessView {
            below,
            guess,
            tail,
            tail_from,
            reads,
            base: 0,
            len,
            known: None,
        };
        whole.range(0, len)
    }

    fn p(&self) -> usize {
        self.below.len()
    }

    /// Notes the stretch heaps p + a..p + b as read.
    fn note_read(&self, a: usize, b: usize) {
        for w in a / 64..b.div_ceil(64) {
            let (from, to) = (a.max(64 * w) - 64 * w, b.min(64 * w + 64) - 64 * w);
            let bits = (!0u64 >> (64 - (to - from))) << from;
            let word = &self.reads[w];
            word.store(word.load(Relaxed) | bits, Relaxed);
        }
    }
}

impl<V: Values> Values for GuessView<'_, V> {
    type Unit = V::Unit;
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn at(&self, i: usize) -> u32 {
        let x = self.base + i;
        match x.checked_sub(self.p()) {
            None => self.below.at(x),
            Some(k) => {
                let word = &self.reads[k / 64];
                // Each heap's notes are its own thread's: no other writer.
                word.store(word.load(Relaxed) | 1 << (k % 64), Relaxed);
                self.guess[k]
            }
        }
    }
    fn range(&self, a: usize, b: usize) -> Self {
        assert!(a <= b && b <= self.len, "a view's range within it");
        let (base, end) = (self.base + a, self.base + b);
        let known_end = end.min(self.p());
        GuessView {
            base,
            len: b - a,
            known: (base < known_end).then(|| self.below.range(base, known_end)),
            ..*self
        }
    }
    fn exact(&self) -> Option<&[V::Unit]> {
        let (end, p) = (self.base + self.len, self.p());
        if end <= p {
            return self.known.as_ref()?.exact();
        }
        let tail_end = self.tail_from + self.tail.len();
        if self.tail.is_empty() || self.base < self.tail_from || end > tail_end {
            return None;
        }
        self.note_read(self.base.max(p) - p, end - p);
        Some(&self.tail[self.base - self.tail_from..end - self.tail_from])
    }
    fn escapes(&self) -> Vec<usize> {
        let mut cuts = self.known.map_or(Vec::new(), |known| known.escapes());
        let guessed = self.base.max(self.p())..self.base + self.len;
        cuts.extend(guessed.map(|x| x - self.base));
        cuts
    }
    fn no_escapes(&self) -> Option<&[V::Unit]> {
        match self.base + self.len <= self.p() {
            true => self.known.as_ref()?.no_escapes(),
            false => None,
        }
    }
}

/// A stretch's heaps as each run finished them on guesses, in rounds.
pub(super) struct Guessed {
    /// The stretch's first heap.
    pub(super) p: usize,
    /// Per heap from p: its input in the last round (in the first, its
    /// guess), which the runs after its own read; and in the round before.
    guesses: Vec<u32>,
    inputs_before: Vec<u32>,
    /// Per heap from p, `words` words: the pass's marks and those of the
    /// block's heaps below p.
    marks: Vec<u64>,
    words: usize,
    /// The rare heaps near the stretch's, for the marks of its own heaps.
    pub(super) near: RareNear,
    /// Per run, the values it finished (a run that stopped early has fewer).
    runs: Vec<RunOut>,
}

impl Guessed {
    /// Makes each heap's input for the next round the value its run gave it
    /// (where its run reached it within the values allowed for), and gives
    /// the stretch heaps whose input changed; `None`, and no input changed,
    /// where no run would read a change: only the last run's heaps, read as
    /// inputs by no other run, differ.
    fn next_round(&mut self, max_value: u32) -> Option<Reads> {
        let outputs = self.runs.iter().enumerate().flat_map(|(r, own)| {
            own.heaps
                .iter()
                .enumerate()
                .map(move |(i, heap)| (r * RUN + i, heap.value))
        });
        let changes: Vec<(usize, u32)> = outputs
            .filter(|&(k, v)| v != self.guesses[k] && v <= max_value)
            .collect();
        let last_run = self.guesses.len().saturating_sub(1) / RUN * RUN;
        if changes.iter().all(|&(k, _)| k >= last_run) {
            return None;
        }
        let mut changed = [0; READ_WORDS];
        self.inputs_before.clone_from(&self.guesses);
        for (k, v) in changes {
            self.guesses[k] = v;
            changed[k / 64] |= 1 << (k % 64);
        }
        Some(changed)
    }

    /// The most heaps one run finished in the last round, and the most
    /// time one took: the round's length on as many cores as runs.
    fn longest_run(&self) -> (u64, u64) {
        let most = |of: fn(&RunOut) -> u64| self.runs.iter().map(of).max().unwrap_or(0);
        (most(|r| r.finished as u64), most(|r| r.nanos))
    }

    /// Heap n's marks from the pass and the block's heaps below p.
    pub(super) fn marks(&self, n: usize) -> &[u64] {
        let k = n - self.p;
        &self.marks[k * self.words..(k + 1) * self.words]
    }
}

/// A heap as its run finished it in a round.
#[derive(Clone, Copy)]
struct HeapOut {
    value: u32,
    noted: Noted,
    /// The stretch heaps its marks read (the other parts of its options)
    /// and those its scan read.
    mark_reads: Reads,
    scan_reads: Reads,
    /// Its candidate c (`candidate`).
    c: u32,
}

impl HeapOut {
    /// The stretch heaps its finish read.
    fn reads(&self) -> Reads {
        std::array::from_fn(|w| self.mark_reads[w] | self.scan_reads[w])
    }
}

#[derive(Default)]
struct RunOut {
    heaps: Vec<HeapOut>,
    /// Heaps the run finished in its round (the others kept the round
    /// before's value); of those it kept, the ones whose marks a changed
    /// read could not move (`marks_unmoved`); and its time.
    finished: u32,
    unmoved: u32,
    nanos: u64,
}

/// Finishes heaps p..end (at most `MAX_STRETCH`; every pass task holding
/// them done) on guesses, each run of `RUN` heaps on a core of its own;
/// `g` holds the heaps below p.
pub(super) fn guess_stretch<V: Values>(
    code: &RareCode,
    run: &mut RareRun,
    g: V,
    ahead: &BlockPass,
    Range { start: p, end }: Range<usize>,
) -> Guessed {
    debug_assert!(end - p <= MAX_STRETCH && g.len() == p);
    let clock = std::time::Instant::now();
    let (words, marks) = window_marks(code, run, g, ahead, p..end);
    // The window's marks go in parallel over the heaps: on the path, a
    // run's share of them.
    let runs = (end - p).div_ceil(RUN) as u64;
    run.counts.path_nanos += clock.elapsed().as_nanos() as u64 / runs;
    let (mask, flip) = (run.split.mask, |n: usize| run.split.flip(n as u64));
    let guesses: Vec<u32> = marks
        .chunks_exact(words)
        .zip(p..)
        .map(|(bits, n)| first_unmarked(bits, |w| common_word(mask, flip(n), w)))
        .collect();
    // Bitsets wide enough for every guess and every value a run keeps:
    // wider than the heap in order would take, which changes no value.
    let true_max = run.max_value;
    run.max_value = guesses.iter().copied().fold(true_max, u32::max);
    let mut guessed = Guessed {
        p,
        guesses,
        inputs_before: Vec::new(),
        marks,
        words,
        near: RareNear::new(&run.rare, p, end),
        runs: Vec::new(),
    };
    let at = Stretch {
        code,
        run,
        pass: ahead,
        guessed: &guessed,
    };
    guessed.runs = run_round(at, g, end, None);
    add_path(run, &guessed);
    // With two runs only the second can change in a later round, alone on
    // one core and through the guessing view, slower than the check's redo.
    let rounds = if end - p > 2 * RUN { ROUNDS } else { 1 };
    for _ in 1..rounds {
        let Some(changed) = guessed.next_round(run.max_value) else {
            break;
        };
        let before = std::mem::take(&mut guessed.runs);
        let at = Stretch {
            code,
            run,
            pass: ahead,
            guessed: &guessed,
        };
        guessed.runs = run_round(at, g, end, Some((&before, &changed)));
        run.counts.rounds += 1;
        let sum = |of: fn(&RunOut) -> u32| guessed.runs.iter().map(|r| of(r) as u64).sum::<u64>();
        run.counts.round_heaps += sum(|r| r.finished);
        run.counts.round_unmoved += sum(|r| r.unmoved);
        add_path(run, &guessed);
    }
    run.max_value = true_max;
    guessed
}

/// Adds the last round's longest run to the stretches' critical path.
fn add_path(run: &mut RareRun, guessed: &Guessed) {
    let (heaps, nanos) = guessed.longest_run();
    run.counts.path_heaps += heaps;
    run.counts.path_nanos += nanos;
}

/// One round of the stretch p..end: each run of `RUN` heaps finished in
/// order on a core of its own from the stretch's inputs (`guesses`). In a
/// later round (`again`: the round before's runs, and the heaps whose input
/// changed since) a heap is finished again only where something it read
/// changed; the others keep the round before's value.
fn run_round<V: Values>(
    at: Stretch<'_>,
    g: V,
    end: usize,
    again: Option<(&[RunOut], &Reads)>,
) -> Vec<RunOut> {
    let p = at.guessed.p;
    (p..end)
        .step_by(RUN)
        .enumerate()
        .collect::<Vec<_>>()
        .into_par_iter()
        .with_max_len(1)
        .map(|(r, first)| {
            let before = again.map(|(runs, changed)| (&runs[r], changed));
            let own = first..end.min(first + RUN);
            guess_run(at, g, own, before)
        })
        .collect()
}

/// What every heap of a stretch reads that stays put while the stretch
/// is guessed: the code, the run's state, the block's pass, and the
/// stretch's guesses and fixed marks.
#[derive(Clone, Copy)]
struct Stretch<'a> {
    code: &'a RareCode,
    run: &'a RareRun,
    pass: &'a BlockPass,
    guessed: &'a Guessed,
}

/// Per heap of p..end, `words` words: the pass's marks and those of the
/// block's heaps below p (in parallel).
fn window_marks<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    ahead: &BlockPass,
    Range { start: p, end }: Range<usize>,
) -> (usize, Vec<u64>) {
    let words = words_for(run.max_value).max(ahead.words);
    let mut marks = vec![0u64; (end - p) * words];
    marks
        .par_chunks_mut(words)
        .with_min_len(8)
        .zip(p..end)
        .for_each(|(bits, n)| {
            let pass = ahead.marks(n);
            bits[..pass.len()].copy_from_slice(pass);
            mark_window(code, run, g, n, ahead.below..p, bits);
        });
    (words, marks)
}

/// Marks the options of heap n with a part in lo..hi and none from hi
/// on (`g` holds every heap below hi, the rare list every rare one): take
/// moves to heaps there, and rare pairs with a part there. Those with a
/// part from hi on are left to the heap's finish (`mark_in_block`, from
/// hi), so that the two together mark what the finish from lo would.
pub(super) fn mark_window<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    n: usize,
    Range { start: lo, end: hi }: Range<usize>,
    bits: &mut [u64],
) {
    if !LocalMarks::fits(bits.len()) {
        return window_pairs(code, run, g, n, lo..hi, &mut |v| set_bit(bits, v));
    }
    let mut local = LocalMarks::default();
    window_pairs(code, run, g, n, lo..hi, &mut |v| local.mark(v));
    local.fold_into(bits);
}

/// `mark_window`'s options, each value given to `mark`.
#[inline(always)]
fn window_pairs<V: Values>(
    code: &RareCode,
    run: &RareRun,
    g: V,
    n: usize,
    Range { start: lo, end: hi }: Range<usize>,
    mark: &mut impl FnMut(u32),
) {
    for j in one_heap_takes(code) {
        if j < n && (lo..hi).contains(&(n - j)) {
            mark(g.at(n - j));
        }
    }
    let (rare, values) = (&run.rare, &run.rare_values);
    for &(j, diff) in &code.splits {
        let Some(m) = split_heap(n, j) else {
            continue;
        };
        let mut pairs = |from: usize, to: usize| {
            let (rare, values) = (&rare[from..to], &values[from..to]);
            mark_rare_pairs(mark, g, rare, values, m, diff);
        };
        // The partner m − r in lo..hi: m − hi < r ≤ m − lo.
        let first = rare.partition_point(|&r| r + hi <= m);
        let past = rare.partition_point(|&r| r + lo <= m);
        pairs(first, past);
        // The rare part in lo..hi (below m), its partner then below lo.
        let from = rare.partition_point(|&r| r < lo).max(past);
        let to = rare.partition_point(|&r| r < m.min(hi));
        pairs(from, to.max(from));
    }
}

/// One run of heaps `own` in order, from the stretch's marks, reading the
/// inputs (`guesses`) for the stretch heaps before it; stops at a value
/// that is rare or above the largest `run` allows for. With `before` (the
/// run in the round before, and the stretch heaps whose input changed since
/// then) a heap keeps its value unless something it read changed in a way
/// that could move it (`marks_unmoved`).
fn guess_run<V: Values>(
    at: Stretch<'_>,
    g: V,
    Range {
        start: first,
        end: last,
    }: Range<usize>,
    before: Option<(&RunOut, &Reads)>,
) -> RunOut {
    let (code, run, stretch) = (at.code, at.run, at.guessed);
    let (p, clock) = (stretch.p, std::time::Instant::now());
    let mut seen = stretch.guesses[..last - p].to_vec();
    let (mut tail, tail_from) = tail_units(g, &seen);
    let mut scratch = Scratch::default();
    let mut out = RunOut::default();
    // changed: the stretch heaps whose value differs from what this run's
    // heaps read in the round before (its own added as they change).
    let (read_before, mut changed) = read_before(stretch, first..last, before);
    for n in first..last {
        let (k, i) = (n - p, n - first);
        let last_time = before.and_then(|(prior, _)| prior.heaps.get(i).copied());
        let unmoved = |was: &HeapOut| {
            let before = read_before.as_deref().unwrap_or_default();
            let at = Finishing { code, run, g };
            marks_unmoved(at, stretch, n, was, &changed, before, &seen)
        };
        let heap = match last_time {
            Some(same) if !meets(&same.reads(), &changed) => same,
            Some(same) if unmoved(&same) => {
                out.unmoved += 1;
                same
            }
            _ => {
                let tail_len = tail.len().min(p - tail_from + k);
                let table = RunTable {
                    below: g,
                    inputs: &seen[..k],
                    tail: Tail {
                        units: &tail[..tail_len],
                        from: tail_from,
                    },
                };
                let heap = finish_guessed(at, table, n, &mut scratch);
                out.finished += 1;
                if last_time.is_none_or(|was| was.value != heap.value) {
                    changed[k / 64] |= 1 << (k % 64);
                }
                heap
            }
        };
        if heap.noted.beyond.is_some() {
            // Past what the run keeps: the check in order stops there.
            break;
        }
        out.heaps.push(heap);
        let v = heap.value;
        seen[k] = v;
        match v <= <V::Unit as Value>::MAX {
            true if !tail.is_empty() => tail[p - tail_from + k] = V::Unit::of(v),
            _ => tail.clear(),
        }
        if v > run.max_value || run.split.is_rare(n as u64, v) {
            break;
        }
    }
    out.nanos = clock.elapsed().as_nanos() as u64;
    out
}

/// What the heaps of the run `first..last` read of the stretch in the round
/// before (from p: the inputs then, and the run's own values then), and
/// the stretch heaps whose input changed since (the run's own heaps are
/// read as it finishes them, not as inputs: left out).
fn read_before(
    stretch: &Guessed,
    Range {
        start: first,
        end: last,
    }: Range<usize>,
    before: Option<(&RunOut, &Reads)>,
) -> (Option<Vec<u32>>, Reads) {
    let p = stretch.p;
    let read = before.map(|(prior, _)| {
        let mut read = stretch.inputs_before[..last - p].to_vec();
        let own = prior.heaps.iter().map(|heap| heap.value);
        read[first - p..]
            .iter_mut()
            .zip(own)
            .for_each(|(v, own)| *v = own);
        read
    });
    let mut changed = before.map_or([0; READ_WORDS], |(_, changed)| *changed);
    for (w, word) in changed.iter_mut().enumerate() {
        *word &= !run_bits(w, first - p, last - p);
    }
    (read, changed)
}

/// What a heap of a run reads: the table below the stretch, the run's
/// values before the heap, and the tail's units and first heap
/// (`GuessView::new`).
#[derive(Clone, Copy)]
struct RunTable<'a, V: Values> {
    below: V,
    inputs: &'a [u32],
    tail: Tail<'a, V::Unit>,
}

impl<V: Values> RunTable<'_, V> {
    /// The view that notes its reads in `reads`.
    fn view<'r>(&'r self, reads: &'r [AtomicU64; READ_WORDS]) -> GuessView<'r, V> {
        GuessView::new(self.below, self.inputs, self.tail, reads)
    }
}

/// Heap n of a run, finished from the stretch's marks through views of the
/// table and the run's inputs (`GuessView`) that note apart what its marks
/// and its scan read.
fn finish_guessed<V: Values>(
    at: Stretch<'_>,
    table: RunTable<'_, V>,
    n: usize,
    scratch: &mut Scratch,
) -> HeapOut {
    let (mark_reads, scan_reads): ([AtomicU64; READ_WORDS], [AtomicU64; READ_WORDS]) =
        Default::default();
    let (code, run, ahead, stretch) = (at.code, at.run, at.pass, at.guessed);
    let marks = Finishing {
        code,
        run,
        g: table.view(&mark_reads),
    };
    let marked = scratch.marked(stretch.marks(n));
    let (c, noted, any_wanted) = candidate(marks, ahead, &stretch.near, n, marked);
    let (value, noted) = match any_wanted {
        true => {
            let scan_view = table.view(&scan_reads);
            let inputs = Finishing {
                code,
                run,
                g: scan_view,
            };
            finish_scan(inputs, ahead, n, c, noted, &mut scratch.wanted)
        }
        false => (c, noted),
    };
    HeapOut {
        value,
        noted,
        mark_reads: mark_reads.map(|w| w.into_inner()),
        scan_reads: scan_reads.map(|w| w.into_inner()),
        c,
    }
}

/// Whether heap n, as `was` finished it in the round before, finishes the
/// same now that the stretch heaps in `changed` hold other values (`now`,
/// from p; `before`, what its run read in the round before): true where
/// its scan read none of them, and each of its options through a changed
/// heap its marks read (`marks::options_through`, the list every marking
/// of the finish is held to) had and has a value above c or one the
/// stretch's fixed marks hold (`Guessed::marks`: the pass's and the
/// block's heaps below p). Then its marks below c, so c and the values its
/// scan looks for, are what they were, and its scan reads the same values:
/// everything it did comes out the same. No stretch heap is rare while the
/// rounds run (a run ends at a rare value; the rare list grows in order),
/// so no option through one reads a heap past its run's inputs.
fn marks_unmoved<V: Values>(
    Finishing { code, run, g }: Finishing<'_, V>,
    stretch: &Guessed,
    n: usize,
    was: &HeapOut,
    changed: &Reads,
    before: &[u32],
    now: &[u32],
) -> bool {
    let p = stretch.p;
    debug_assert!(
        run.rare.last().is_none_or(|&r| r < p),
        "a rare stretch heap"
    );
    if meets(&was.scan_reads, changed) {
        return false;
    }
    let fixed = stretch.marks(n);
    let still = |v: u32| {
        v > was.c
            || fixed
                .get((v >> 6) as usize)
                .is_some_and(|w| w >> (v & 63) & 1 != 0)
    };
    for (w, (&read, &changed)) in was.mark_reads.iter().zip(changed).enumerate() {
        let mut moved = read & changed;
        while moved != 0 {
            let k = 64 * w + moved.trailing_zeros() as usize;
            moved &= moved - 1;
            let (from, to) = (before[k], now[k]);
            let mut unmoved = true;
            options_through(
                code,
                &run.rare,
                &run.rare_values,
                g,
                n,
                p + k,
                &mut |other| {
                    unmoved &= still(other ^ from) && still(other ^ to);
                },
            );
            if !unmoved {
                return false;
            }
        }
    }
    true
}

/// The units of the `SCAN_CHUNK` heaps below a stretch (`g` holds the heaps
/// below it) and of its inputs `seen`, and the first heap they hold; none
/// where the table's units there are not all values or an input does not
/// fit a unit. A scan's range past the stretch's first heap is at most a
/// chunk long, so the tail holds every one.
fn tail_units<V: Values>(g: V, seen: &[u32]) -> (Vec<V::Unit>, usize) {
    let p = g.len();
    let tail_from = p.saturating_sub(SCAN_CHUNK);
    let fits = seen.iter().all(|&v| v <= <V::Unit as Value>::MAX);
    let below = g.range(tail_from, p);
    let Some(known) = below.exact().filter(|_| fits) else {
        return (Vec::new(), tail_from);
    };
    let mut tail = known.to_vec();
    tail.extend(seen.iter().map(|&v| V::Unit::of(v)));
    (tail, tail_from)
}

/// Whether any heap noted in `read` is in `set`.
fn meets(read: &Reads, set: &Reads) -> bool {
    read.iter().zip(set).any(|(a, b)| a & b != 0)
}

/// Checks a stretch's guessed heaps in order against the true values
/// pushed so far.
pub(super) struct Checker<'a> {
    guessed: &'a Guessed,
    /// Stretch heaps whose true value differs from the guess that the
    /// runs after their own read, and from what their own run finished.
    wrong_guess: Reads,
    wrong_own: Reads,
    /// A stretch heap is rare: the runs after it did not know.
    rare_seen: bool,
}

impl<'a> Checker<'a> {
    pub(super) fn new(guessed: &'a Guessed) -> Checker<'a> {
        Checker {
            guessed,
            wrong_guess: [0; READ_WORDS],
            wrong_own: [0; READ_WORDS],
            rare_seen: false,
        }
    }

    /// Heap n's guessed finish, when everything it read held its true
    /// value (every heap of the stretch below n told with `tell`).
    pub(super) fn confirmed(&self, n: usize) -> Option<(u32, Noted)> {
        let k = n - self.guessed.p;
        let own = self.guessed.runs.get(k / RUN)?;
        let i = k % RUN;
        let heap = own.heaps.get(i)?;
        if self.rare_seen {
            return None;
        }
        let run_first = k - i;
        let read_wrong = heap.reads().iter().enumerate().any(|(w, &read)| {
            let own_bits = run_bits(w, run_first, k);
            read & ((self.wrong_guess[w] & !own_bits) | (self.wrong_own[w] & own_bits)) != 0
        });
        (!read_wrong).then_some((heap.value, heap.noted))
    }

    /// Heap n's true value, and whether it is rare.
    pub(super) fn tell(&mut self, n: usize, v: u32, rare: bool) {
        let k = n - self.guessed.p;
        let bit = |set: &mut Reads| set[k / 64] |= 1 << (k % 64);
        if self.guessed.guesses[k] != v {
            bit(&mut self.wrong_guess);
        }
        let own = self.guessed.runs[k / RUN].heaps.get(k % RUN);
        if own.map(|heap| heap.value) != Some(v) {
            bit(&mut self.wrong_own);
        }
        self.rare_seen |= rare;
    }
}

/// The bits of word w of a stretch that lie in the run from `first` up to
/// (not including) k.
fn run_bits(w: usize, first: usize, k: usize) -> u64 {
    let ones = |x: usize| match x.saturating_sub(64 * w) {
        0 => 0,
        d if d >= 64 => !0,
        d => (1u64 << d) - 1,
    };
    ones(k) & !ones(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_bits_covers_a_run_within_each_word() {
        assert_eq!(run_bits(0, 0, 3), 0b111);
        assert_eq!(run_bits(0, 32, 35), 0b111 << 32);
        assert_eq!(run_bits(1, 64, 96), (1u64 << 32) - 1);
        assert_eq!(run_bits(0, 64, 96), 0);
        assert_eq!(run_bits(1, 32, 70), 0b11_1111);
        assert_eq!(run_bits(0, 32, 70), !0u64 << 32);
    }

    /// A range past p that the tail holds is exact: the tail's units, and
    /// every stretch heap in it noted as read, across words; a range that
    /// starts below the tail is not.
    #[test]
    fn a_guessed_view_reads_its_tail_whole_and_notes_it() {
        let below: Vec<u8> = (0..100).map(|i| (i % 7) as u8).collect();
        let guess: Vec<u32> = (0..200).map(|i| 40 + i % 9).collect();
        let tail: Vec<u8> = below[90..]
            .iter()
            .copied()
            .chain(guess.iter().map(|&v| v as u8))
            .collect();
        let reads: [AtomicU64; READ_WORDS] = Default::default();
        let view = GuessView::new(
            &below[..],
            &guess,
            Tail {
                units: &tail,
                from: 90,
            },
            &reads,
        );
        assert_eq!(view.range(95, 102).exact(), Some(&tail[5..12]));
        assert_eq!(reads[0].load(Relaxed), 0b11);
        assert!(view.range(80, 101).exact().is_none());
        assert_eq!(view.range(10, 100).exact(), Some(&below[10..100]));
        assert_eq!(reads[0].load(Relaxed), 0b11);
        assert_eq!(view.range(160, 230).exact(), Some(&tail[70..140]));
        let words = reads.each_ref().map(|w| w.load(Relaxed));
        assert_eq!(&words[..3], &[!0u64 << 60 | 0b11, !0, 0b11]);
    }

    /// A view past the known heaps reads the guesses, notes each read, and
    /// shows them to the scans as escapes (taken one at a time).
    #[test]
    fn a_guessed_view_reads_the_guesses_and_notes_them() {
        let below: Vec<u8> = (0..100).map(|i| (i % 7) as u8).collect();
        let guess = [40u32, 41, 42, 43];
        let reads: [AtomicU64; READ_WORDS] = Default::default();
        let view = GuessView::new(
            &below[..],
            &guess,
            Tail {
                units: &[],
                from: 0,
            },
            &reads,
        );
        assert_eq!((view.at(99), view.at(101)), (99 % 7, 41));
        assert_eq!(reads[0].load(Relaxed), 0b10);
        let tail = view.range(98, 103);
        assert_eq!(tail.escapes(), vec![2, 3, 4]);
        assert!(tail.exact().is_none() && view.range(10, 100).exact().is_some());
        assert_eq!(tail.at(4), 42);
        assert_eq!(reads[0].load(Relaxed), 0b110);
    }

    use crate::heap::rare::finish_heap::mark_in_block;
    use crate::heap::xorshift;

    /// A code of takes (j, digit bits) and splits (j, diff), and a run on
    /// `g` whose rare heaps are `rare` (their values from `g`).
    fn code_and_run(
        takes: Vec<(usize, u32)>,
        splits: Vec<(usize, usize)>,
        g: &[u8],
        rare: Vec<usize>,
    ) -> (RareCode, RareRun) {
        let code = RareCode {
            takes,
            splits,
            equal_splits: vec![],
            parity: None,
        };
        let mut run = RareRun::new(&code, g);
        run.rare_values = rare.iter().map(|&r| g[r] as u32).collect();
        run.rare = rare;
        (code, run)
    }

    /// The values of heap n's options through the heaps lo..n, by
    /// `options_through`, as bits.
    fn through(code: &RareCode, run: &RareRun, g: &[u8], n: usize, lo: usize) -> u64 {
        let mut bits = 0u64;
        for x in lo..n {
            options_through(code, &run.rare, &run.rare_values, g, n, x, &mut |other| {
                bits |= 1 << ((g[x] as u32 ^ other) & 63);
            });
        }
        bits
    }

    /// The finish's marks of the heaps from s on (`mark_in_block`) and the
    /// stretch's of a window (`mark_window`) are exactly heap n's options
    /// through those heaps as `options_through` lists them, the list
    /// `marks_unmoved` reads: on random codes, tables and rare lists.
    #[test]
    fn every_mark_is_an_option_through_a_heap() {
        let mut next = xorshift(0x5eed_1234_abcd_0001);
        for case in 0..3000 {
            let len = 40 + (next() % 200) as usize;
            let g: Vec<u8> = (0..len).map(|_| (next() % 64) as u8).collect();
            let takes = (0..next() % 3)
                .map(|_| (1 + (next() % 8) as usize, 2))
                .collect();
            let splits = (0..1 + next() % 3)
                .map(|_| ((next() % 4) as usize, (next() % 4) as usize))
                .collect();
            let rare: Vec<usize> = (1..len).filter(|_| next().is_multiple_of(6)).collect();
            let (code, run) = code_and_run(takes, splits, &g, rare);
            let n = len / 2 + (next() as usize % (len / 2));
            let s = 1 + (next() as usize % (n - 1));
            let near = RareNear::new(&run.rare, s, n + 1);
            let mut block = 0u64;
            mark_in_block(&code, &run, &g[..], &near, n, &mut |v| {
                block |= 1 << (v & 63)
            });
            // The window's heaps lie below n, and so its rare heaps.
            let below_n: Vec<usize> = run.rare.iter().copied().filter(|&r| r < n).collect();
            let (_, rare_below_n) =
                code_and_run(code.takes.clone(), code.splits.clone(), &g, below_n);
            let expected = through(&code, &run, &g, n, s);
            assert_eq!(block, expected, "case {case}: heap {n}, block from {s}");
            let mut window = [0u64; 1];
            mark_window(&code, &rare_below_n, &g[..n], n, s..n, &mut window);
            let expected = through(&code, &rare_below_n, &g, n, s);
            assert_eq!(
                window[0], expected,
                "case {case}: heap {n}, window from {s}"
            );
        }
    }

    /// A stretch from heap 100 of a code that takes 37 leaving one heap,
    /// and takes 27 and splits the rest, with rare heaps 10 (value 9) and
    /// 20 (value 5). Heap 140, whose candidate was c = 6 with 0..=3 held
    /// by the stretch's fixed marks, read stretch heap 103 through the take
    /// (140 − 37) and through the pair (10, 103) of 140 − 27 = 113.
    fn stretch_reading_103() -> (RareCode, RareRun, Vec<u8>, Guessed, HeapOut) {
        let mut g = vec![0u8; 100];
        (g[10], g[20]) = (9, 5);
        let (code, run) = code_and_run(vec![(37, 2)], vec![(27, 0)], &g, vec![10, 20]);
        let p = 100;
        let mut marks = vec![0u64; 64];
        marks[40] = 0b1111;
        let guessed = Guessed {
            p,
            guesses: vec![2; 64],
            inputs_before: vec![2; 64],
            marks,
            words: 1,
            near: RareNear::new(&run.rare, p, p + 64),
            runs: Vec::new(),
        };
        let mut mark_reads = [0u64; READ_WORDS];
        mark_reads[0] = 1 << 3;
        let was = HeapOut {
            value: 6,
            noted: Noted::default(),
            mark_reads,
            scan_reads: [0; READ_WORDS],
            c: 6,
        };
        (code, run, g, guessed, was)
    }

    /// Heap 103 changing from 2 to `to`: whether heap 140 is unmoved.
    fn unmoved_by(to: u32, scan_read_it: bool) -> bool {
        let (code, run, g, guessed, mut was) = stretch_reading_103();
        if scan_read_it {
            was.scan_reads[0] = 1 << 3;
        }
        let mut changed = [0u64; READ_WORDS];
        changed[0] = 1 << 3;
        let (before, mut now) = (vec![2u32; 64], vec![2u32; 64]);
        now[3] = to;
        let inputs = Finishing {
            code: &code,
            run: &run,
            g: &g[..],
        };
        marks_unmoved(inputs, &guessed, 140, &was, &changed, &before, &now)
    }

    /// The take gives 2 then `to`, the pair 9 ⊕ 2 = 11 then 9 ⊕ `to`: a
    /// heap is unmoved only where every one of them is above c = 6 or held
    /// by the fixed marks (0..=3), and its scan read no changed heap.
    #[test]
    fn marks_unmoved_keeps_a_heap_only_where_no_option_through_a_change_moves() {
        // 3: the take's 3 is held; the pair's 9 ⊕ 3 = 10 is above c.
        assert!(unmoved_by(3, false));
        // 0: the take's 0 is held, the pair's 9 ⊕ 0 = 9 is above c.
        assert!(unmoved_by(0, false));
        // 5: the take's 5 lies below c, unheld: c could move.
        assert!(!unmoved_by(5, false));
        // 12: the take's 12 is above c, but the pair's 9 ⊕ 12 = 5 is not.
        assert!(!unmoved_by(12, false));
        // 15: 15 and 9 ⊕ 15 = 6 (c itself, not above it): moved.
        assert!(!unmoved_by(15, false));
        // Whatever the marks, a scan that read the changed heap is redone.
        assert!(!unmoved_by(3, true));
    }

    /// A heap of a run as a round left it: its value and what it read.
    fn heap_out(value: u32, reads: &[usize]) -> HeapOut {
        let mut mark_reads = [0u64; READ_WORDS];
        for &k in reads {
            mark_reads[k / 64] |= 1 << (k % 64);
        }
        HeapOut {
            value,
            noted: Noted::default(),
            mark_reads,
            scan_reads: [0; READ_WORDS],
            c: value,
        }
    }

    /// A stretch of three runs (96 heaps from 1000), all guessed 1; the
    /// runs' values `values[k]`, heap k having read the heaps `reads(k)`.
    fn three_runs(values: &[u32], reads: impl Fn(usize) -> Vec<usize>) -> Guessed {
        let runs = (0..3)
            .map(|r| RunOut {
                heaps: (r * RUN..(r + 1) * RUN)
                    .map(|k| heap_out(values[k], &reads(k)))
                    .collect(),
                ..RunOut::default()
            })
            .collect();
        Guessed {
            p: 1000,
            guesses: vec![1; 3 * RUN],
            inputs_before: Vec::new(),
            marks: vec![0; 3 * RUN],
            words: 1,
            near: RareNear::new(&[], 1000, 1000 + 3 * RUN),
            runs,
        }
    }

    /// The next round's inputs are the runs' values: the heaps whose value
    /// differs from its guess are the changes, within the values allowed;
    /// changes in the last run alone (read by no later run) end the rounds.
    #[test]
    fn next_round_takes_the_runs_values_as_inputs() {
        let mut values = vec![1u32; 3 * RUN];
        (values[5], values[40], values[70]) = (3, 200, 4);
        let mut guessed = three_runs(&values, |_| vec![]);
        let changed = guessed
            .next_round(100)
            .expect("a change read by later runs");
        assert_eq!(
            changed[0],
            1 << 5,
            "heap 40's 200 is past the values allowed"
        );
        assert_eq!(changed[1], 1 << (70 - 64));
        assert_eq!((guessed.guesses[5], guessed.guesses[40]), (3, 1));
        assert_eq!(guessed.inputs_before, vec![1; 3 * RUN]);
        // Only the last run differs from its inputs now: no round is due.
        let mut last_only = vec![1u32; 3 * RUN];
        last_only[70] = 4;
        let mut guessed = three_runs(&last_only, |_| vec![]);
        assert!(guessed.next_round(100).is_none());
        assert_eq!(guessed.guesses[70], 1, "no input changed");
    }

    /// The check in order keeps a guessed heap only where everything it
    /// read held its true value: the inputs for the runs before its own,
    /// its run's own values for its run; and nothing once a heap is rare.
    #[test]
    fn the_checker_keeps_only_heaps_that_read_true_values() {
        let values = vec![1u32; 3 * RUN];
        // Heap 33 (run 1) read heap 2 (run 0, an input); heap 34 read heap
        // 33 (its own run); heap 35 read nothing.
        let reads = |k: usize| match k {
            33 => vec![2],
            34 => vec![33],
            _ => vec![],
        };
        let mut guessed = three_runs(&values, reads);
        // Run 0 stopped after heap 1: its heaps from 2 on are done in order.
        guessed.runs[0].heaps.truncate(2);
        let p = guessed.p;
        let mut checker = Checker::new(&guessed);
        for k in 0..33 {
            // Run 1 starts at heap 32, which read nothing.
            let kept = checker.confirmed(p + k).map(|kept| kept.0);
            assert_eq!(kept, (k < 2 || k == 32).then_some(1), "heap {k}");
            // Heap 2 is 7 in order: its guess was wrong.
            checker.tell(p + k, if k == 2 { 7 } else { 1 }, false);
        }
        assert!(
            checker.confirmed(p + 33).is_none(),
            "read heap 2's wrong guess"
        );
        // Heap 33 is 4 in order, not what its run gave it.
        checker.tell(p + 33, 4, false);
        assert!(
            checker.confirmed(p + 34).is_none(),
            "read its run's wrong heap 33"
        );
        checker.tell(p + 34, 1, false);
        assert_eq!(checker.confirmed(p + 35).map(|kept| kept.0), Some(1));
        checker.tell(p + 35, 1, true);
        assert!(checker.confirmed(p + 36).is_none(), "after a rare heap");
    }
}
