//! Misère play of heap games whose moves never split a heap (every digit
//! of the code at most 3: the quaternary games, and subtraction games): a
//! heap's options are heaps, so each heap's misère nim value and genus
//! follow from the smaller heaps'.
//!
//! The misère nim value g⁻ of a position is 1 when it has no move, else the
//! mex of its options' g⁻; the position is a P-position (the player to move
//! loses) exactly when g⁻ = 0. The genus g^{γ0γ1γ2…} (Conway, *On Numbers
//! and Games*, ch. 12; Berlekamp, Conway and Guy, *Winning Ways*, ch. 13)
//! holds the normal nim value g and, for each k, γk: the g⁻ of the heap
//! plus k nim-heaps of size 2. Each γk here is computed on that whole sum,
//! (heap, a heaps of 2, b heaps of 1), with every option of every part:
//! no theorem about sums is used, so the values are exact for any code.
//!
//! A code that splits heaps makes a heap's options sums of heaps, valued
//! whole by search (`heap_genera_by_search`, `analysis::whole_sum`), as far
//! as the sums the search remembers fit.

use crate::analysis::whole_sum::{Parts, Stopped, SumSearch};
use crate::game::{Code, Convention};
use crate::hooks::RunHooks;

/// The superscripts computed for each heap: γ0 … γ_GENUS_DEPTH.
pub const GENUS_DEPTH: usize = 6;

/// A heap's genus: its normal nim value and the superscripts γ0 … γK.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genus {
    /// The normal-play nim value g.
    pub normal: u32,
    /// γk for k = 0 … K: the misère nim value of the heap plus k heaps of 2.
    pub gammas: Vec<u32>,
}

impl Genus {
    /// The misère nim value g⁻ (γ0): 0 exactly at a P-position.
    pub fn misere(&self) -> u32 {
        self.gammas[0]
    }

    /// The superscripts as the literature writes them: up to the point
    /// from which, within those computed, they alternate (γk = γk+2); all
    /// of them when they do not alternate by the last two.
    pub fn written(&self) -> &[u32] {
        written(&self.gammas)
    }
}

/// The superscripts `g` as the literature writes them (`Genus::written`).
fn written(g: &[u32]) -> &[u32] {
    if g.len() < 3 {
        return g;
    }
    let mut from = g.len() - 2;
    while from > 0 && g[from - 1] == g[from + 1] {
        from -= 1;
    }
    // From `from` on they alternate between g[from] and g[from + 1]:
    // one of them is enough where the two are the same.
    match g[from] == g[from + 1] && from + 2 < g.len() {
        true => &g[..from + 1],
        false => &g[..from + 2],
    }
}

impl std::fmt::Display for Genus {
    /// `0^120`, or `12^(12)(13)` when a superscript passes 9.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        GenusRef {
            normal: self.normal,
            gammas: &self.gammas,
        }
        .fmt(f)
    }
}

/// A genus held elsewhere (a stream's state), written as `Genus` is.
pub struct GenusRef<'a> {
    pub normal: u32,
    pub gammas: &'a [u32],
}

impl std::fmt::Display for GenusRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}^", self.normal)?;
        for &s in written(self.gammas) {
            match s {
                0..=9 => write!(f, "{s}")?,
                _ => write!(f, "({s})")?,
            }
        }
        Ok(())
    }
}

/// Why a code's genera are not computed here.
pub fn refuse_splitting(code: &Code) -> Result<(), String> {
    match code.max_heaps() {
        Some(k) if k <= 1 => Ok(()),
        _ => Err(format!(
            "{} may split a heap in two or more: under misère play its heaps are sums, \
             whose values this computation does not cover; expected a code whose digits are \
             all at most 3, or a subtraction game",
            code.name()
        )),
    }
}

/// The genus of every heap 0..=n of a code whose moves never split a
/// heap (`refuse_splitting`), each to `depth` superscripts. Time: heaps ×
/// options a heap × (depth + 1)(depth + 2)/2 sums; memory: 4 bytes for
/// each of those sums a heap.
pub fn heap_genera(code: &Code, n: u64, depth: usize) -> Result<Vec<Genus>, String> {
    refuse_splitting(code)?;
    let states = States { depth };
    let stride = states.count();
    // Every sum of every heap, heap by heap: `stride` values a heap.
    let mut misere: Vec<u32> = Vec::with_capacity((n as usize + 1) * stride);
    let mut normal: Vec<u32> = Vec::with_capacity(n as usize + 1);
    for h in 0..=n {
        let options = heap_options(code, h);
        normal.push(mex(options.iter().map(|&o| normal[o as usize])));
        let values = states.values_of(&options, |o, i| misere[o as usize * stride + i]);
        misere.extend(values);
    }
    Ok(normal
        .into_iter()
        .zip(misere.chunks_exact(stride))
        .map(|(g, values)| Genus {
            normal: g,
            gammas: (0..=depth).map(|k| values[states.index(k, 0)]).collect(),
        })
        .collect())
}

/// Bytes `heap_genera` holds at its peak for heaps 0..=n to `depth`
/// superscripts: every sum of every heap, each heap's normal value, and
/// each heap's `Genus`.
pub fn genera_bytes(n: u64, depth: usize) -> u64 {
    let sums = States { depth }.count() as u64;
    let genus = (std::mem::size_of::<Genus>() + 4 * (depth + 1)) as u64;
    (n + 1).saturating_mul(4 * sums + 4 + genus)
}

/// The parts of the sums a heap's genus needs: the code's heaps (part 2h)
/// and nim-heaps (part 2m + 1), every move of each.
pub struct HeapsAndNimHeaps<'a> {
    code: &'a Code,
}

impl<'a> HeapsAndNimHeaps<'a> {
    pub fn new(code: &'a Code) -> HeapsAndNimHeaps<'a> {
        HeapsAndNimHeaps { code }
    }

    /// The part that is a heap of `h` of the code.
    pub fn heap(h: u64) -> u32 {
        2 * h as u32
    }
}

impl Parts for HeapsAndNimHeaps<'_> {
    fn moves(&self, part: u32, visit: &mut dyn FnMut(&[u32])) {
        let size = part / 2;
        if part % 2 == 1 {
            visit(&[]);
            for smaller in 1..size {
                visit(&[2 * smaller + 1]);
            }
            return;
        }
        let mut left: Vec<u32> = Vec::new();
        self.code
            .for_each_move(size.into(), u64::MAX, &mut |_, heaps| {
                left.clear();
                left.extend(heaps.iter().filter(|&&h| h > 0).map(|&h| 2 * h as u32));
                visit(&left);
            });
    }
}

/// What `heap_genera_by_search` found.
#[derive(Clone, Debug)]
pub struct SearchedGenera {
    /// The genera of heaps 0, 1, … up to the last the sums allowed.
    pub genera: Vec<Genus>,
    /// The first heap left unfinished, if one was.
    pub stopped_at: Option<u64>,
    /// Whether the caller stopped it there (else the sums passed the limit).
    pub asked: bool,
    /// Sums remembered.
    pub sums: usize,
}

/// The genus of every heap 0..=n of any code (one that splits heaps too),
/// each superscript by search over the whole sum of the heap and its
/// nim-heaps of 2, remembering at most `limit` sums (`whole_sum`). Stops
/// at the first heap the limit, or `hooks.stop()`, leaves unfinished;
/// `hooks` hear of each heap done. The normal values add by the
/// Sprague–Grundy theorem, which holds under normal play.
pub fn heap_genera_by_search(
    code: &Code,
    (n, depth): (u64, usize),
    limit: usize,
    hooks: &dyn RunHooks,
) -> SearchedGenera {
    let parts = HeapsAndNimHeaps { code };
    let stop = || hooks.stop();
    let mut search = SumSearch::new(parts, Convention::Misere, limit, &stop);
    let mut normal: Vec<u32> = Vec::new();
    let mut genera = Vec::new();
    for h in 0..=n.min(u32::MAX as u64 / 2 - 1) {
        let mut xors = Vec::new();
        code.for_each_move(h, u64::MAX, &mut |_, left| {
            xors.push(left.iter().fold(0, |x, &part| x ^ normal[part as usize]));
        });
        normal.push(mex(xors.into_iter()));
        let gammas: Result<Vec<u32>, Stopped> = (0..=depth)
            .map(|k| {
                let mut sum = vec![2 * h as u32];
                sum.extend(std::iter::repeat_n(2 * 2 + 1, k));
                search.value(&sum)
            })
            .collect();
        match gammas {
            Ok(gammas) => genera.push(Genus {
                normal: normal[h as usize],
                gammas,
            }),
            Err(Stopped { positions, full }) => {
                return SearchedGenera {
                    genera,
                    stopped_at: Some(h),
                    asked: !full,
                    sums: positions,
                };
            }
        }
        hooks.progress(h + 1);
    }
    SearchedGenera {
        genera,
        stopped_at: None,
        asked: false,
        sums: search.positions(),
    }
}

/// The heaps one move leaves from a heap of `h` (0 for none left).
pub(crate) fn heap_options(code: &Code, h: u64) -> Vec<u64> {
    let mut options = Vec::new();
    code.for_each_move(h, u64::MAX, &mut |_, left| {
        options.push(left.first().copied().unwrap_or(0));
    });
    options
}

/// The sums (heap, a heaps of 2, b heaps of 1) with a + b ≤ depth, indexed.
pub(crate) struct States {
    pub(crate) depth: usize,
}

impl States {
    /// The sums of one heap.
    pub(crate) fn count(&self) -> usize {
        (self.depth + 1) * (self.depth + 2) / 2
    }

    /// The index of (a, b) among a heap's sums.
    pub(crate) fn index(&self, a: usize, b: usize) -> usize {
        // Rows a = 0, 1, …, each of depth + 1 − a entries.
        a * (self.depth + 1) - a * a.saturating_sub(1) / 2 + b
    }

    /// g⁻ of every sum of one heap whose options are `options`, where
    /// `below(o, i)` is the g⁻ of sum i of the smaller heap o.
    pub(crate) fn values_of(&self, options: &[u64], below: impl Fn(u64, usize) -> u32) -> Vec<u32> {
        let mut values = vec![0; self.count()];
        let mut seen = Vec::with_capacity(options.len() + 3);
        self.values_into(options, below, (&mut values, &mut seen));
        values
    }

    /// `values_of` into `values` (`count()` of them), `seen` a buffer.
    pub(crate) fn values_into(
        &self,
        options: &[u64],
        below: impl Fn(u64, usize) -> u32,
        (values, seen): (&mut [u32], &mut Vec<u32>),
    ) {
        for a in 0..=self.depth {
            for b in 0..=self.depth - a {
                let i = self.index(a, b);
                seen.clear();
                seen.extend(options.iter().map(|&o| below(o, i)));
                if a > 0 {
                    // A heap of 2 taken to 1, or taken whole.
                    seen.push(values[self.index(a - 1, b + 1)]);
                    seen.push(values[self.index(a - 1, b)]);
                }
                if b > 0 {
                    seen.push(values[self.index(a, b - 1)]);
                }
                values[i] = match seen.is_empty() {
                    true => 1,
                    false => mex(seen.iter().copied()),
                };
            }
        }
    }
}

/// The least value not in `values`.
pub(crate) fn mex(values: impl Iterator<Item = u32> + Clone) -> u32 {
    // Values below 64 in one word: the common case, without allocating.
    let mut low = 0u64;
    let mut high = false;
    for v in values.clone() {
        match v < 64 {
            true => low |= 1 << v,
            false => high = true,
        }
    }
    if low != u64::MAX || !high {
        return (!low).trailing_zeros();
    }
    let mut seen = Vec::<u64>::new();
    for v in values {
        let w = v as usize / 64;
        if seen.len() <= w {
            seen.resize(w + 1, 0);
        }
        seen[w] |= 1 << (v % 64);
    }
    let free = seen.iter().position(|&w| w != u64::MAX);
    match free {
        Some(w) => (w * 64) as u32 + (!seen[w]).trailing_zeros(),
        None => (seen.len() * 64) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::Silent;
    use std::collections::HashMap;

    /// The misère nim value of a sum of the code's heaps and nim-heaps, by
    /// search over every option of every part (heaps split where the code
    /// splits them), memoised by the sorted parts: independent of `States`.
    struct Brute<'a> {
        code: &'a Code,
        memo: HashMap<(Vec<u64>, Vec<u64>), u32>,
    }

    impl Brute<'_> {
        fn value(&mut self, mut heaps: Vec<u64>, mut nims: Vec<u64>) -> u32 {
            heaps.retain(|&h| h > 0);
            nims.retain(|&h| h > 0);
            heaps.sort_unstable();
            nims.sort_unstable();
            let key = (heaps.clone(), nims.clone());
            if let Some(&v) = self.memo.get(&key) {
                return v;
            }
            let mut seen = Vec::new();
            for i in 0..heaps.len() {
                let mut lefts = Vec::new();
                self.code
                    .for_each_move(heaps[i], u64::MAX, &mut |_, left| lefts.push(left.to_vec()));
                for left in lefts {
                    let mut next = heaps.clone();
                    next.remove(i);
                    next.extend(left);
                    seen.push(self.value(next, nims.clone()));
                }
            }
            for i in 0..nims.len() {
                for to in 0..nims[i] {
                    let mut next = nims.clone();
                    next[i] = to;
                    seen.push(self.value(heaps.clone(), next));
                }
            }
            let v = if seen.is_empty() {
                1
            } else {
                mex(seen.into_iter())
            };
            self.memo.insert(key, v);
            v
        }
    }

    /// Misère Nim (*Winning Ways*, ch. 13): a heap of n has g⁻ = n for
    /// n ≥ 2, g⁻(0) = 1, g⁻(1) = 0, and the genera 0^120, 1^031, 2^20, 3^31:
    /// for n ≥ 2, n^{n, n ⊕ 2} (a heap of n and one of 2 have the nim-sum
    /// n ⊕ 2 and a heap past 1, where misère Nim goes as normal Nim).
    #[test]
    fn nim_heaps_have_the_genera_of_winning_ways() {
        let nim = Code::parse("0.[3]").unwrap();
        let genera = heap_genera(&nim, 12, GENUS_DEPTH).unwrap();
        let shown: Vec<String> = genera.iter().map(|g| g.to_string()).collect();
        assert_eq!(&shown[..4], ["0^120", "1^031", "2^20", "3^31"]);
        for (n, genus) in genera.iter().enumerate().skip(2) {
            assert_eq!((genus.normal, genus.misere()), (n as u32, n as u32));
            assert_eq!(genus.written(), [n as u32, n as u32 ^ 2], "heap {n}");
        }
        assert_eq!(genera[10].to_string(), "10^(10)8");
    }

    /// Every γk of every heap to 40, k ≤ 4, on random codes that never
    /// split and on subtraction games, equals the brute force's g⁻ of the
    /// heap plus k heaps of 2.
    #[test]
    fn every_superscript_is_the_misere_value_of_the_whole_sum() {
        let mut codes: Vec<Code> = ["0.3", "0.33", "0.03", "0.0303", "0.123", "0.31", "0.3333"]
            .iter()
            .map(|t| Code::parse(t).unwrap())
            .collect();
        for set in [[1, 3, 4], [2, 5, 6], [1, 4, 9]] {
            codes.push(Code::subtraction(&set).unwrap());
        }
        let mut state = 0x5eed_u64;
        while codes.len() < 30 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // One to five digits, each 0 to 3.
            let digits: String = (0..1 + state % 5)
                .map(|i| char::from(b'0' + ((state >> (2 * i + 8)) % 4) as u8))
                .collect();
            codes.push(Code::parse(&format!("0.{digits}")).unwrap());
        }
        for code in &codes {
            let genera = heap_genera(code, 40, 4).unwrap();
            let mut brute = Brute {
                code,
                memo: HashMap::new(),
            };
            for (h, genus) in genera.iter().enumerate() {
                for k in 0..=4 {
                    let want = brute.value(vec![h as u64], vec![2; k]);
                    assert_eq!(genus.gammas[k], want, "{}: heap {h}, γ{k}", code.name());
                }
            }
        }
    }

    /// Codes that split heaps, by the search over whole sums, against the
    /// brute force above; codes that never split, against `heap_genera`.
    #[test]
    fn the_search_over_whole_sums_gives_every_codes_genera() {
        for text in [
            "0.07", "0.77", "0.137", "4.07", "0.6", "0.26", "0.717", "4!.0",
        ] {
            let code = Code::parse(text).unwrap();
            let run = heap_genera_by_search(&code, (14, 3), 1 << 22, &Silent);
            let genera = run.genera;
            assert_eq!((genera.len(), run.stopped_at), (15, None), "{text}");
            let mut brute = Brute {
                code: &code,
                memo: HashMap::new(),
            };
            for (h, genus) in genera.iter().enumerate() {
                for k in 0..=3 {
                    let want = brute.value(vec![h as u64], vec![2; k]);
                    assert_eq!(genus.gammas[k], want, "{text}: heap {h}, γ{k}");
                }
            }
        }
        for text in ["0.3", "0.0303", "0.123"] {
            let code = Code::parse(text).unwrap();
            let run = heap_genera_by_search(&code, (30, 4), 1 << 22, &Silent);
            assert_eq!(run.genera, heap_genera(&code, 30, 4).unwrap(), "{text}");
        }
    }

    #[test]
    fn the_search_stops_at_the_first_heap_the_limit_leaves_unfinished() {
        let kayles = Code::parse("0.77").unwrap();
        let run = heap_genera_by_search(&kayles, (40, 2), 2000, &Silent);
        let at = run.stopped_at.expect("2000 sums do not reach heap 40");
        assert_eq!(run.genera.len() as u64, at);
        let all = heap_genera_by_search(&kayles, (at - 1, 2), 1 << 22, &Silent).genera;
        assert_eq!(run.genera, all, "the genera before the stop are whole");
    }

    #[test]
    fn a_code_that_splits_heaps_is_refused_naming_it() {
        let kayles = Code::parse("0.77").unwrap();
        let why = heap_genera(&kayles, 10, 3).unwrap_err();
        assert!(why.contains("0.77") && why.contains("at most 3"), "{why}");
    }

    #[test]
    fn the_written_superscripts_stop_where_they_alternate() {
        let genus = |gammas: Vec<u32>| Genus { normal: 0, gammas };
        assert_eq!(genus(vec![1, 2, 0, 2, 0, 2, 0]).written(), [1, 2, 0]);
        assert_eq!(genus(vec![3, 3, 3, 3]).written(), [3]);
        assert_eq!(genus(vec![0, 3, 1, 2, 0, 2, 0]).written(), [0, 3, 1, 2, 0]);
        assert_eq!(genus(vec![1, 2, 3, 4]).written(), [1, 2, 3, 4]);
    }
}
