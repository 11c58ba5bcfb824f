//! The survey driver: many codes to the same N, each in rounds that double
//! until a period is certified or N is reached, the codes in parallel on
//! the CPU or one workgroup each on the GPU (`gpu::survey`), with the same
//! rounds on both so the rows are the same.

pub mod checkpoint;
pub mod driver;

use grundy_core::setting::Setting;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::backend::{Backend, Dual, Ran};
use crate::heap::brute::blocked::HeapEngine;
use crate::heap::sequence::{Algorithm, SequenceRun};
use crate::heap::storage::table::HeapTable;
use crate::memory;
use grundy_core::analysis::period::{Period, PeriodRule};
use grundy_core::analysis::rare_split::RareSplit;
use grundy_core::error::{Error, Result};
use grundy_core::game::Code;
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::rare::{BruteForceOn, rare_parity, rare_values_pay};
use grundy_core::kernel::survey::{SurveyKernel, SurveyMode, choose_mode, runs_on_kernel};
use grundy_gpu::survey::{GpuSurvey, codes_per_batch, workgroup_for};
use grundy_gpu::{Runner, Unfit};

/// Heaps of the first round; each further round doubles until a period is
/// certified or N is reached.
const FIRST_ROUND: u64 = 4096;

/// The most digits `--digits` takes (8^6 = 262144 codes).
pub const MAX_DIGITS: u32 = 6;

/// One row of the survey.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurveyRow {
    pub code: String,
    pub n: u64,
    pub period: Option<u64>,
    pub preperiod: Option<u64>,
    pub certified: bool,
    pub max_value: u16,
    pub first_max_at: u64,
    pub p_positions: u64,
    /// `RareSplit::label`'s form; read back from either base, so that a
    /// checkpoint or part written before the masks were hex joins as hex.
    #[serde(deserialize_with = "mask_label")]
    pub rare_mask: String,
    pub rare_count: u64,
    pub last_rare: Option<u64>,
}

/// A rare mask's label in this version's form, or an error naming it.
fn mask_label<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    RareSplit::relabel(&String::deserialize(d)?).map_err(serde::de::Error::custom)
}

/// Every code `prefix.d1..dK` with digits 0-7, in numeric order.
pub fn all_codes(prefix: &str, digits: u32) -> Vec<String> {
    (0..8u64.pow(digits))
        .map(|i| {
            let mut text = format!("{prefix}.");
            for k in (0..digits).rev() {
                text.push(char::from(b'0' + (i >> (3 * k) & 7) as u8));
            }
            text
        })
        .collect()
}

/// One of `count` disjoint slices of a code list, `index` from 0: the codes
/// `balanced_shards` deals it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// The most slices a survey is cut into.
pub const MAX_SHARDS: u32 = 1 << 20;

/// Heaps of the short run that estimates each code's cost before the
/// codes of a sharded survey are dealt.
pub const PROBE_HEAPS: u64 = 4096;

/// The most heaps a probe goes on to while its code looks dense: by 4096
/// the rare heaps of Officers' kind (`.60`–`.63`, `.37`) still grow as fast
/// as a dense code's, their split not settled yet; by 8192 they have
/// slowed (BENCHMARKS-log.md, "Two threads again").
pub const LONG_PROBE_HEAPS: u64 = 16384;

/// The most heaps a survey to `n` probes a code to: doubling from
/// `PROBE_HEAPS` while at most an eighth of `n`, so that every shard's
/// probes of every code stay small beside its share of the survey.
pub fn probe_heaps(n: u64) -> u64 {
    let mut probe = n.min(PROBE_HEAPS);
    while 2 * probe <= LONG_PROBE_HEAPS && 16 * probe <= n {
        probe *= 2;
    }
    probe
}

/// Each code's estimated cost to `n` heaps (`estimated_cost`), every code
/// on its own core.
pub fn estimated_costs(codes: &[Code], n: u64, algorithm: Algorithm) -> Result<Vec<u64>> {
    codes
        .par_iter()
        .map(|code| estimated_cost(code, n, algorithm))
        .collect()
}

/// A code's cost to `n` heaps, estimated from a run to `PROBE_HEAPS` (the
/// same on every machine, so every shard deals alike): next to nothing when
/// its period is certified by then; else its rare heaps, counted at half
/// the probe and at its end, are extrapolated to n — a code whose rare
/// heaps are too many for rare values to pay (`rare_values_pay`, as `auto`
/// judges them on the CPU) goes on by brute force (its option reads, counted
/// from its digits), any other by rare values (∝ n × rare heaps). A code
/// that looks dense is probed again at twice the heaps, up to
/// `probe_heaps(n)`.
fn estimated_cost(code: &Code, n: u64, algorithm: Algorithm) -> Result<u64> {
    let mut probe = n.min(PROBE_HEAPS);
    let parity = rare_parity(code);
    let mut run = SequenceRun::new(code, algorithm, HeapTable::default())?;
    run.extend_on_cpu(probe / 2)?;
    let mut half = run.table.rare_summary(parity).1.rare_count.max(1);
    let rule = PeriodRule::for_code(code);
    loop {
        run.extend_on_cpu(probe)?;
        if run.table.period(&rule).is_some_and(|p| p.certified) {
            return Ok(1);
        }
        let full = run.table.rare_summary(parity).1.rare_count.max(1);
        let growth = (full as f64 / half as f64).log2().clamp(0.0, 1.0);
        let rare_at_n = full as f64 * (n as f64 / probe as f64).powf(growth);
        // The rule `auto` goes by on the CPU, where a survey's rows run.
        let dense = !rare_values_pay(rare_at_n as usize, n as usize, BruteForceOn::Cpu);
        if dense && probe < probe_heaps(n) {
            (half, probe) = (full, 2 * probe);
            continue;
        }
        let cost = match dense {
            true => option_reads(code, n as f64),
            false => RARE_MARK_READS * n as f64 * rare_at_n,
        };
        return Ok((cost / 1024.0) as u64 + 1);
    }
}

/// What one rare heap's mark at one heap costs, in the brute force's
/// option reads: the wide scans test many pairs a word (fitted to the
/// 2-digit codes to 100,000 heaps on a 2-core VM, BENCHMARKS.md).
const RARE_MARK_READS: f64 = 0.4;

/// Takes whose digits `option_reads` reads one by one; past them, the
/// share of splitting takes among them stands for the rest.
const READ_TAKES: u64 = 1024;

/// The option reads of the brute force to heap `n`, counted from the
/// code's digits: a take of j that may split the heap in two reads about
/// (m − j)/2 pairs at heap m, so (n − j)²/4 in all; one that leaves one
/// heap or none, one value a heap.
fn option_reads(code: &Code, n: f64) -> f64 {
    let top = code.max_removal().map_or(n as u64, |t| t.min(n as u64));
    let counted = top.min(READ_TAKES);
    let mut reads = 0.0;
    for j in 0..=counted {
        let digit = code.digit(j);
        let left = (n - j as f64).max(0.0);
        if digit.allows(2) || digit.max_heaps().is_none_or(|k| k > 2) {
            reads += left * left / 4.0;
        } else if !digit.is_zero() {
            reads += left;
        }
    }
    // A tail longer than the takes counted: the rest at the same density.
    reads * (top + 1) as f64 / (counted + 1) as f64
}

/// The shard of each code, dealt by cost: costliest first, each to the
/// shard with the least cost so far (the lowest-numbered on a tie), so the
/// shards cost about the same even when a few codes cost most of all.
pub fn balanced_shards(costs: &[u64], count: u32) -> Vec<u32> {
    use std::cmp::Reverse;
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by_key(|&i| (Reverse(costs[i]), i));
    let mut loads: std::collections::BinaryHeap<Reverse<(u64, u32)>> =
        (0..count.max(1)).map(|k| Reverse((0, k))).collect();
    let mut shards = vec![0; costs.len()];
    for place in order {
        let Some(Reverse((load, k))) = loads.pop() else {
            break;
        };
        shards[place] = k;
        loads.push(Reverse((load + costs[place], k)));
    }
    shards
}

/// How a part's codes were dealt: in turn down the list (format 1, code i
/// to shard i mod N; still merged), or by cost (format 2: the part lists
/// the places of its codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dealing {
    InTurn,
    ByCost,
}

impl Shard {
    /// The places of this shard's codes, in list order, given every
    /// code's shard.
    pub fn places(&self, shards: &[u32]) -> Vec<usize> {
        (0..shards.len())
            .filter(|&i| shards[i] == self.index)
            .collect()
    }

    /// How many of `total` codes dealt in turn the slice holds (format 1).
    pub fn len_in_turn(&self, total: u64) -> u64 {
        total
            .saturating_sub(self.index as u64)
            .div_ceil(self.count as u64)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `K/N`, K from 0 to N − 1.
    fn from_str(text: &str) -> std::result::Result<Shard, String> {
        let expected = || {
            format!(
                "'{text}' is not a shard; expected K/N with N from 1 to {MAX_SHARDS} and K \
                 from 0 to N-1, such as 3/64"
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(expected)?;
        let (index, count) = match (k.trim().parse::<u32>(), n.trim().parse::<u32>()) {
            (Ok(k), Ok(n)) if (1..=MAX_SHARDS).contains(&n) && k < n => (k, n),
            _ => return Err(expected()),
        };
        Ok(Shard { index, count })
    }
}

/// Called as each code finishes, with its place in the list and its row.
pub type RowDone<'a> = dyn Fn(usize, &(SurveyRow, HeapEngine)) + Sync + 'a;

/// A survey's rows and where they ran.
pub struct SurveyRun {
    pub rows: Vec<(SurveyRow, HeapEngine)>,
    /// The GPU when any code ran there.
    pub ran: Ran,
    /// Threads per code on the GPU.
    pub workgroup: Option<u32>,
}

/// Every code's row on `backend` (the GPU when one is open and the batch
/// fits it, else the CPU); `done` is called as each code finishes.
pub fn survey(
    codes: &[Code],
    n: u64,
    algorithm: Algorithm,
    backend: &Backend,
    workgroup: Option<u32>,
    hooks: &dyn RunHooks,
    done: &RowDone,
) -> Result<SurveyRun> {
    let job = SurveyJob {
        codes,
        n,
        algorithm,
        workgroup,
        done,
    };
    let ((rows, workgroup), ran) = crate::backend::run(&job, backend, hooks)?;
    // Codes the kernel does not run go to the CPU even on the GPU.
    let on_gpu = ran == Ran::Gpu && codes.iter().any(runs_on_kernel);
    Ok(SurveyRun {
        rows,
        ran: if on_gpu { Ran::Gpu } else { Ran::Cpu },
        workgroup: workgroup.filter(|_| on_gpu),
    })
}

/// A survey on either backend: the rows, and the GPU's threads per code.
struct SurveyJob<'a> {
    codes: &'a [Code],
    n: u64,
    algorithm: Algorithm,
    workgroup: Option<u32>,
    done: &'a RowDone<'a>,
}

type SurveyOutput = (Vec<(SurveyRow, HeapEngine)>, Option<u32>);

impl Dual for SurveyJob<'_> {
    type Output = SurveyOutput;

    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit> {
        if self.n > GPU_MAX_N {
            return Err(Unfit(format!("the GPU survey stops at heap {GPU_MAX_N}")));
        }
        // One code's table and rare list must fit a binding.
        let words = grundy_core::kernel::packed_words(self.n + 1)
            .max(rare_cap(self.algorithm, self.n) as u64);
        if words * 4 > runner.max_binding() {
            return Err(Unfit(format!(
                "a table of {} values needs a {} MiB binding; the adapter '{}' binds at most {} MiB",
                self.n + 1,
                (words * 4) >> 20,
                runner.adapter_name(),
                runner.max_binding() >> 20
            )));
        }
        Ok(())
    }

    fn on_gpu(&self, runner: &Runner) -> Result<SurveyOutput> {
        let workgroup = workgroup_for(runner, self.workgroup)?;
        let (rows, _) = survey_rows_gpu(
            runner,
            self.codes,
            self.n,
            self.algorithm,
            workgroup,
            self.done,
        )?;
        Ok((rows, Some(workgroup)))
    }

    fn on_cpu(&self) -> Result<SurveyOutput> {
        let rows = survey_rows(self.codes, self.n, self.algorithm, self.done)?;
        Ok((rows, None))
    }
}

/// Every code's row, codes in parallel on the CPU (rayon); `done` is called
/// as each code finishes.
pub fn survey_rows(
    codes: &[Code],
    n: u64,
    algorithm: Algorithm,
    done: &RowDone,
) -> Result<Vec<(SurveyRow, HeapEngine)>> {
    codes
        .par_iter()
        .enumerate()
        .map(|(place, code)| {
            let row = survey_row(code, n, algorithm)?;
            done(place, &row);
            Ok(row)
        })
        .collect()
}

/// After a round to heap `to`: the period when the code is done (a
/// certified period fills the table to `n`; or `to` is `n`), `None` to go on.
fn round_end(table: &mut HeapTable, rule: &PeriodRule, to: u64, n: u64) -> Option<Option<Period>> {
    let period = table.period(rule);
    if let Some(p) = period.filter(|p| p.certified) {
        table.extend_by_period(&p, n);
        return Some(Some(p));
    }
    (to >= n).then_some(period)
}

/// What a code's table after a GPU round to heap `to` says.
enum RoundEnd {
    /// The code is done: its row.
    Done(SurveyRow),
    /// Another round, in this mode (`None`: the same).
    Next(Option<SurveyMode>),
}

/// The host's part of a GPU round for one code: its row when the round
/// ends it, else the mode of its next round (`choose_mode`).
fn after_round(
    code: &Code,
    values: Vec<u16>,
    to: u64,
    n: u64,
    algorithm: Algorithm,
    rare_cap: usize,
) -> RoundEnd {
    let mut table = HeapTable::from_wide(values.clone());
    if let Some(period) = round_end(&mut table, &PeriodRule::for_code(code), to, n) {
        return RoundEnd::Done(row_of(code, n, &table, period));
    }
    if algorithm == Algorithm::Naive {
        return RoundEnd::Next(None);
    }
    let always = algorithm == Algorithm::Rare;
    RoundEnd::Next(Some(choose_mode(code, &values, rare_cap, always)))
}

/// The row of a code whose table holds heaps 0..=n.
fn row_of(code: &Code, n: u64, table: &HeapTable, period: Option<Period>) -> SurveyRow {
    let stats = table.stats();
    let (_, rare) = table.rare_summary(rare_parity(code));
    SurveyRow {
        code: code.name(),
        n,
        period: period.map(|p| p.period),
        preperiod: period.map(|p| p.preperiod),
        certified: period.is_some_and(|p| p.certified),
        max_value: stats.max_value,
        first_max_at: stats.first_max_at,
        p_positions: stats.p_positions,
        rare_mask: rare.rare_mask,
        rare_count: rare.rare_count,
        last_rare: rare.last_rare,
    }
}

/// G(0..=n) of one code on the CPU and its row.
pub fn survey_row(code: &Code, n: u64, algorithm: Algorithm) -> Result<(SurveyRow, HeapEngine)> {
    let mut run = SequenceRun::new(code, algorithm, HeapTable::default())?;
    let rule = PeriodRule::for_code(code);
    // Short tables first: once a period is certified the rest follows from it.
    let mut to = n.min(FIRST_ROUND);
    let period = loop {
        run.extend_on_cpu(to)?;
        if let Some(period) = round_end(&mut run.table, &rule, to, n) {
            break period;
        }
        to = (2 * to).min(n);
    };
    Ok((row_of(code, n, &run.table, period), run.engine))
}

/// Rare list words per code on the GPU: `--algorithm auto` starts rare mode
/// only under one rare heap in 8 (`sparse_enough`), and a code whose list
/// outgrows that during a round goes back to the brute force; `rare` keeps
/// every rare position; `naive` needs no list.
fn rare_cap(algorithm: Algorithm, n: u64) -> usize {
    match algorithm {
        Algorithm::Auto => (n as usize + 1) / 8 + 64,
        Algorithm::Rare => n as usize + 1,
        Algorithm::Naive => 1,
    }
}

/// The largest N the GPU survey runs (heap indices with room to double).
const GPU_MAX_N: u64 = u32::MAX as u64 / 2 - 1;

/// Every code's row with the codes on the GPU, one workgroup each, in the
/// same rounds as on the CPU (so the rows are the same); codes the kernel
/// does not run (modifiers, tails, three heaps) go to the CPU. Returns the
/// rows and whether any code ran on the GPU.
pub fn survey_rows_gpu(
    runner: &Runner,
    codes: &[Code],
    n: u64,
    algorithm: Algorithm,
    workgroup: u32,
    done: &RowDone,
) -> Result<(Vec<(SurveyRow, HeapEngine)>, bool)> {
    if n > GPU_MAX_N {
        return Err(Error::Input(format!(
            "{}: the GPU survey stops at {GPU_MAX_N}; expected a smaller N or {}",
            Setting::N.is(n),
            Setting::Backend.is("cpu")
        )));
    }
    let (gpu, cpu): (Vec<usize>, Vec<usize>) =
        (0..codes.len()).partition(|&i| runs_on_kernel(&codes[i]));
    let mut rows: Vec<Option<(SurveyRow, HeapEngine)>> = vec![None; codes.len()];
    let cpu_rows: Vec<(usize, (SurveyRow, HeapEngine))> = cpu
        .par_iter()
        .map(|&i| {
            let row = survey_row(&codes[i], n, algorithm)?;
            done(i, &row);
            Ok((i, row))
        })
        .collect::<Result<_>>()?;
    for (i, row) in cpu_rows {
        rows[i] = Some(row);
    }
    let stride = grundy_core::kernel::packed_words(n + 1) as usize;
    let rare_cap = rare_cap(algorithm, n);
    let per_batch = codes_per_batch(runner, stride.max(rare_cap));
    // each round reads a batch's tables back, and every thread unpacks one
    // code's table at a time
    let threads = rayon::current_num_threads() as u64;
    memory::check_fits(
        &format!("the GPU survey's tables of {} values", n + 1),
        (per_batch.min(gpu.len()) * stride * 4) as u64 + threads * 8 * (n + 1),
    )?;
    for batch in gpu.chunks(per_batch) {
        let batch_codes: Vec<&Code> = batch.iter().map(|&i| &codes[i]).collect();
        let kern = SurveyKernel::new(&batch_codes, n, rare_cap);
        let mut on_gpu = GpuSurvey::new(runner, &kern, workgroup)?;
        let batch_rows = Batch {
            codes: &batch_codes,
            places: batch,
            n,
            algorithm,
            rare_cap,
        }
        .run(&kern, &mut on_gpu, done)?;
        for (&i, row) in batch.iter().zip(batch_rows) {
            rows[i] = Some(row);
        }
    }
    let rows = rows.into_iter().map(|r| r.expect("every code has a row"));
    Ok((rows.collect(), !gpu.is_empty()))
}

/// One batch of codes on the GPU.
struct Batch<'a> {
    codes: &'a [&'a Code],
    /// The codes' places in the survey's list.
    places: &'a [usize],
    n: u64,
    algorithm: Algorithm,
    rare_cap: usize,
}

impl Batch<'_> {
    /// Rounds until every code of the batch is done: the first round is
    /// the brute force; after each the host chooses every code's mode for
    /// the next from its table so far (rare values under the best split
    /// when they pay, `choose_mode`).
    fn run(
        &self,
        kern: &SurveyKernel,
        on_gpu: &mut GpuSurvey,
        done: &RowDone,
    ) -> Result<Vec<(SurveyRow, HeapEngine)>> {
        let mut rows = vec![None; self.codes.len()];
        let mut to = self.n.min(FIRST_ROUND);
        while rows.contains(&None) {
            let targets: Vec<u32> = rows
                .iter()
                .map(|r| if r.is_none() { to as u32 + 1 } else { 0 })
                .collect();
            on_gpu.run_to(&targets)?;
            let tables = on_gpu.tables()?;
            // The codes' tables are independent: the host's part of a round
            // (period checks, mode choices) runs on every core.
            let ends: Vec<(usize, RoundEnd)> = (0..self.codes.len())
                .into_par_iter()
                .filter(|&k| rows[k].is_none())
                .map(|k| {
                    let values = kern.values(&tables, k, to as usize + 1);
                    let (code, n) = (self.codes[k], self.n);
                    (
                        k,
                        after_round(code, values, to, n, self.algorithm, self.rare_cap),
                    )
                })
                .collect();
            for (k, end) in ends {
                match end {
                    RoundEnd::Done(row) => {
                        let engine = match on_gpu.is_rare(k) {
                            true => HeapEngine::Rare,
                            false => HeapEngine::Blocked,
                        };
                        let row = (row, engine);
                        done(self.places[k], &row);
                        rows[k] = Some(row);
                    }
                    RoundEnd::Next(Some(mode)) => on_gpu.set_mode(k, &mode),
                    RoundEnd::Next(None) => {}
                }
            }
            to = (2 * to).min(self.n);
        }
        Ok(rows.into_iter().map(|r| r.expect("done")).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_saved_with_decimal_masks_read_back_in_hex() {
        let saved = r#"{"code":"0.6","n":9,"period":null,"preperiod":null,"certified":false,
            "max_value":3,"first_max_at":8,"p_positions":4,"rare_mask":"494","rare_count":1,
            "last_rare":0}"#;
        let row: SurveyRow = serde_json::from_str(saved).unwrap();
        assert_eq!(row.rare_mask, "0x1ee");
        let parity = saved.replace(r#""494""#, r#""6p1""#);
        let row: SurveyRow = serde_json::from_str(&parity).unwrap();
        assert_eq!(row.rare_mask, "0x6p1");
        let bad = saved.replace(r#""494""#, r#""mask""#);
        let e = serde_json::from_str::<SurveyRow>(&bad).unwrap_err();
        assert!(
            e.to_string().contains("expected a mask such as 0x1ee"),
            "{e}"
        );
    }

    #[test]
    fn a_dense_codes_cost_counts_its_splitting_digits() {
        let cost =
            |t: &str| estimated_cost(&Code::parse(t).unwrap(), 100_000, Algorithm::Auto).unwrap();
        let reads = |t: &str| option_reads(&Code::parse(t).unwrap(), 100_000.0);
        // .76 splits after taking 1 or 2; .04 and .06 after taking 2 only.
        let ratio = reads("0.76") / reads("0.06");
        assert!((1.8..2.2).contains(&ratio), ".76 / .06 = {ratio}");
        assert_eq!(reads("0.04"), reads("0.06"));
        // .76 (37 % rare heaps at 2^16) goes by brute force: its cost is
        // its option reads.
        let c76 = cost("0.76");
        assert_eq!(c76, (reads("0.76") / 1024.0) as u64 + 1);
        // .74 goes by rare values: measured 6 times cheaper than .04 by
        // brute force; the estimate counts its marks, not its scans, so it
        // says more, but not next to nothing.
        let c04 = (reads("0.04") / 1024.0) as u64 + 1;
        let c74 = cost("0.74");
        assert!(
            c74 * 3 < c04 && c74 * 100 > c04,
            ".74 {c74} against .04 by brute force {c04}"
        );
    }

    #[test]
    fn shards_dealt_by_cost_cost_about_the_same() {
        // A synthetic cost with the structure measured on 2-digit surveys
        // (an even last digit costs ten times more, and each digit that
        // splits heaps adds), and a few codes that cost most of all.
        let cost = |i: usize, code: &str| {
            let digits: Vec<u32> = code[2..].chars().map(|c| c.to_digit(8).unwrap()).collect();
            let last = if digits.last().unwrap() & 1 == 0 {
                10
            } else {
                1
            };
            let heavy = if i % 97 == 5 { 5 } else { 1 };
            heavy * last * (1 + digits.iter().filter(|&&d| d & 2 != 0).count() as u64)
        };
        for (digits, count) in [(3, 2), (3, 8), (4, 64)] {
            let codes = all_codes("0", digits);
            let costs: Vec<u64> = codes.iter().enumerate().map(|(i, c)| cost(i, c)).collect();
            let spread = |shards: Vec<u32>| {
                let mut sums = vec![0; count as usize];
                for (c, k) in costs.iter().zip(shards) {
                    sums[k as usize] += c;
                }
                *sums.iter().max().unwrap() as f64 / *sums.iter().min().unwrap() as f64
            };
            let by_cost = spread(balanced_shards(&costs, count));
            assert!(by_cost <= 1.05, "{count} shards: {by_cost}");
            // Dealt in turn down the list, the shards differ tenfold.
            let in_turn = spread(
                (0..codes.len())
                    .map(|i| (i % count as usize) as u32)
                    .collect(),
            );
            assert!(in_turn > 5.0, "{count} shards: {in_turn}");
        }
    }

    #[test]
    fn the_estimate_ranks_dense_codes_above_sparse_and_periodic_ones() {
        let parse = |t: &str| Code::parse(t).unwrap();
        // .07 is certified early; .16 has few rare heaps (its period is
        // certified only past 300,000 heaps); .06 has many.
        let codes = [parse("0.07"), parse("0.16"), parse("0.06")];
        let costs = estimated_costs(&codes, 1 << 20, Algorithm::Auto).unwrap();
        assert!(costs[0] < costs[1] && costs[1] < costs[2], "{costs:?}");
        let shards = balanced_shards(&costs, 2);
        assert_ne!(
            shards[2], shards[1],
            "the costliest code has a shard to itself"
        );
    }

    #[test]
    fn all_codes_counts_in_octal() {
        let codes = all_codes("0", 2);
        assert_eq!(codes.len(), 64);
        assert_eq!(codes[0], "0.00");
        assert_eq!(codes[9], "0.11");
        assert_eq!(codes[63], "0.77");
        assert_eq!(all_codes("4", 1)[7], "4.7");
    }
}
