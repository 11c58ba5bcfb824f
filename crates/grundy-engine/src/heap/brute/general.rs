//! The general engine: any take-and-break code straight from its definition,
//! one heap after another. It is the reference the blocked kernels are tested
//! against, and the CPU path for codes that leave three or more heaps.
//!
//! Splits into `k >= 3` heaps without a modifier use xor-set tables:
//! `parts[c][m]` holds the nim-sums of `c` heaps summing to `m`, built from
//! `parts[c - 1]`, so no partition is ever enumerated. Modified splits into
//! three or more heaps (`!`, `?`) enumerate partitions in nondecreasing order.

use grundy_core::game::{Code, Modifier};
use grundy_core::hooks::RunHooks;

/// A growable set of small values.
#[derive(Clone, Default, Debug)]
pub struct ValueSet(Vec<u64>);

impl ValueSet {
    pub fn insert(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (v & 63);
    }

    pub fn mex(&self) -> u32 {
        for (w, word) in self.0.iter().enumerate() {
            if *word != u64::MAX {
                return w as u32 * 64 + (!word).trailing_zeros();
            }
        }
        self.0.len() as u32 * 64
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            (0..64)
                .filter(move |b| word >> b & 1 == 1)
                .map(move |b| w as u32 * 64 + b)
        })
    }

    /// Adds `{x ^ g : x in other}`.
    pub fn insert_xored(&mut self, other: &ValueSet, g: u32) {
        for x in other.iter() {
            self.insert(x ^ g);
        }
    }
}

/// Why the general engine refuses a code.
pub fn unsupported(code: &Code) -> Option<String> {
    for d in code.digits.iter().chain(&code.tail) {
        if d.at_least.is_some() && matches!(d.modifier, Modifier::Distinct | Modifier::NotAllEqual)
        {
            return Some(format!(
                "{}: '!' and '?' on an unbounded heap count ({{k+}}) are not supported; \
                 expected '=' or no modifier there, or a bounded list such as {{2,3,4}}",
                code.text
            ));
        }
    }
    None
}

/// G(0..=n_max) for any code, ending early (with the heaps done so far)
/// when `hooks.stop()` says so; it is asked every 1024 heaps, and told the
/// heaps done.
pub fn sequence(code: &Code, n_max: u64, hooks: &dyn RunHooks) -> Result<Vec<u16>, String> {
    if let Some(why) = unsupported(code) {
        return Err(why);
    }
    let mut run = General::new(code, n_max);
    for n in 0..=n_max {
        run.grow_tables(n as usize);
        let v = run.options(n).mex();
        if v > u16::MAX as u32 {
            return Err(format!("G({n}) = {v} does not fit in 16 bits"));
        }
        run.push_value(n as usize, v);
        if n % 1024 == 0 {
            hooks.progress(n);
            if hooks.stop() {
                return Ok(run.g);
            }
        }
    }
    hooks.progress(n_max);
    Ok(run.g)
}

/// The general engine's state: the values so far, and the sets of
/// nim-sums of heaps summing to each m that the splits read.
struct General<'a> {
    code: &'a Code,
    g: Vec<u16>,
    /// parts[c][m]: nim-sums of exactly c heaps summing to m (index 0 unused)
    parts: Vec<Vec<ValueSet>>,
    /// at_least[c][m]: nim-sums of c or more heaps summing to m
    at_least: Vec<Vec<ValueSet>>,
    jmax: Option<u64>,
}

impl<'a> General<'a> {
    fn new(code: &'a Code, n_max: u64) -> General<'a> {
        let all_digits = || code.digits.iter().chain(&code.tail);
        // Deepest plain split table needed, and the deepest "at least" table.
        let plain_depth = all_digits()
            .filter(|d| d.modifier == Modifier::Plain)
            .map(|d| 63 - d.counts.leading_zeros().min(63))
            .max()
            .unwrap_or(0)
            .max(1) as usize;
        let at_least_depth = all_digits()
            .filter_map(|d| d.at_least)
            .max()
            .map(|k| k.max(2) as usize);
        General {
            code,
            g: Vec::with_capacity(n_max as usize + 1),
            parts: vec![Vec::new(); plain_depth + 1],
            at_least: vec![Vec::new(); at_least_depth.map_or(0, |k| k + 1)],
            jmax: code.max_removal(),
        }
    }

    fn gv(&self, i: usize) -> u32 {
        self.g[i] as u32
    }

    /// The tables for n that need only heaps below n.
    fn grow_tables(&mut self, n: usize) {
        for c in 2..self.parts.len() {
            let mut set = ValueSet::default();
            for a in 1..n {
                if n - a >= c - 1 {
                    set.insert_xored(&self.parts[c - 1][n - a], self.gv(a));
                }
            }
            self.parts[c].push(set);
        }
        for c in 2..self.at_least.len() {
            let mut set = ValueSet::default();
            for a in 1..n {
                set.insert_xored(&self.at_least[c - 1][n - a], self.gv(a));
            }
            self.at_least[c].push(set);
        }
    }

    /// The values of heap n's options.
    fn options(&self, n: u64) -> ValueSet {
        let code = self.code;
        let mut options = ValueSet::default();
        for j in 0..=self.jmax.map_or(n, |t| t.min(n)) {
            let d = code.digit(j);
            if d.is_zero() {
                continue;
            }
            let m = (n - j) as usize;
            if m == 0 && d.allows(0) {
                options.insert(0);
            }
            if m >= 1 && d.allows(1) {
                options.insert(self.gv(m));
            }
            let bounded_top = (63 - d.counts.leading_zeros().min(63)) as usize;
            for k in 2..=bounded_top.min(m) {
                if d.allows(k as u32) {
                    let (g, parts) = (&self.g, &self.parts);
                    add_splits(&mut options, d.modifier, k, m, code.min_diff, g, parts);
                }
            }
            if let Some(k0) = d.at_least {
                self.at_least_options(&mut options, d.modifier, (k0 as usize).max(2), m);
            }
        }
        options
    }

    /// Options that split `m` into `k0` or more heaps under `modifier`.
    fn at_least_options(&self, options: &mut ValueSet, modifier: Modifier, k0: usize, m: usize) {
        let min_diff = self.code.min_diff;
        match modifier {
            Modifier::AllEqual => {
                for k in k0..=m {
                    if m.is_multiple_of(k) && (k > 2 || min_diff == 0) {
                        options.insert(if k % 2 == 1 { self.gv(m / k) } else { 0 });
                    }
                }
            }
            _ if k0 == 2 && min_diff > 0 => {
                // two heaps under --min-diff, three or more plain
                add_splits(
                    options,
                    Modifier::Plain,
                    2,
                    m,
                    min_diff,
                    &self.g,
                    &self.parts,
                );
                // three or more: one heap a plus two or more
                for a in 1..m {
                    options.insert_xored(&self.at_least[2][m - a], self.gv(a));
                }
            }
            _ => {
                if m >= k0 {
                    options.insert_xored(&self.at_least[k0][m], 0);
                }
            }
        }
    }

    /// Appends G(n) = v and the tables for n that need it.
    fn push_value(&mut self, n: usize, v: u32) {
        self.g.push(v as u16);
        let mut one = ValueSet::default();
        if n > 0 {
            one.insert(v);
        }
        self.parts[1].push(one);
        if !self.at_least.is_empty() {
            let mut set = ValueSet::default();
            if n > 0 {
                set.insert(v);
            }
            for a in 1..n {
                set.insert_xored(&self.at_least[1][n - a], self.gv(a));
            }
            self.at_least[1].push(set);
        }
    }
}

/// Options from splitting `m` into exactly `k >= 2` heaps under `modifier`.
fn add_splits(
    options: &mut ValueSet,
    modifier: Modifier,
    k: usize,
    m: usize,
    min_diff: u32,
    g: &[u16],
    parts: &[Vec<ValueSet>],
) {
    let gv = |i: usize| g[i] as u32;
    if k == 2 {
        for a in 1..=m / 2 {
            let diff = (m - 2 * a) as u32;
            let ok = match modifier {
                Modifier::Plain => true,
                Modifier::Distinct | Modifier::NotAllEqual => diff >= 1,
                Modifier::AllEqual => diff == 0,
            };
            if ok && diff >= min_diff {
                options.insert(gv(a) ^ gv(m - a));
            }
        }
        return;
    }
    match modifier {
        Modifier::AllEqual => {
            if m.is_multiple_of(k) {
                options.insert(if k % 2 == 1 { gv(m / k) } else { 0 });
            }
        }
        Modifier::Plain => options.insert_xored(&parts[k][m], 0),
        Modifier::Distinct | Modifier::NotAllEqual => {
            let mut heaps = Vec::with_capacity(k);
            partitions(m, k, 1, &mut heaps, &mut |p| {
                let distinct = p.windows(2).all(|w| w[0] < w[1]);
                let all_equal = p.first() == p.last();
                let ok = if modifier == Modifier::Distinct {
                    distinct
                } else {
                    !all_equal
                };
                if ok {
                    options.insert(p.iter().fold(0, |x, &h| x ^ gv(h)));
                }
            });
        }
    }
}

/// Calls `f` with every nondecreasing list of `k` heaps >= `min` summing to `m`.
fn partitions(m: usize, k: usize, min: usize, heaps: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
    if k == 1 {
        if m >= min {
            heaps.push(m);
            f(heaps);
            heaps.pop();
        }
        return;
    }
    let mut h = min;
    while h * k <= m {
        heaps.push(h);
        partitions(m - h, k - 1, h, heaps, f);
        heaps.pop();
        h += 1;
    }
}
