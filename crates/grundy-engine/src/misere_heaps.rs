//! Misère tables of heap games whose moves never split a heap, by the
//! blocked kernels (`kernel::genus`): on the card, or their CPU twin with
//! a block's heaps in parallel. Each heap's row is its state (`PLANES`
//! values: the g⁻ of its sums with nim-heaps of 2 and 1, then its normal
//! value), as `analysis::genus_stream` steps them one at a time.

use rayon::prelude::*;

use crate::backend::{self, Backend, BackendChoice, Dual, GpuFrom, Ran, RanOn};
use grundy_core::error::{Error, Result};
use grundy_core::hooks::RunHooks;
use grundy_core::kernel::genus::genus_below::genus_below;
use grundy_core::kernel::genus::genus_finish::genus_finish;
use grundy_core::kernel::genus::{
    GenusKernelCode, MAX_BLOCK, MAX_WORDS, PLANES, Params, plane_deps, table_bytes,
};
use grundy_core::kernel::heap::plan_blocks;
use grundy_gpu::{Runner, Unfit};

/// Whether the blocked kernels value heaps `0..=n` of `code`: its takes are
/// unbounded (else the stream certifies its period within a few heaps and
/// does no more work), and every value provably fits their bitsets.
pub fn takes(code: &GenusKernelCode, n: u64) -> bool {
    n < u32::MAX as u64 && code.unbounded() && code.words_below(n as u32 + 1) < MAX_WORDS
}

/// Bytes a table of heaps `0..=n` of `code` takes on either backend: the
/// states, and the bitsets of a block's heaps, each plane's own.
pub fn bytes(code: &GenusKernelCode, n: u32) -> u64 {
    let words = code.words_below(n.saturating_add(1)) as u64;
    table_bytes(n) + MAX_BLOCK as u64 * PLANES as u64 * words * 4
}

/// Every heap's state `0..=n` (`PLANES` values a heap) by the CPU twin;
/// `None` when `hooks.stop()` said so between blocks.
pub fn cpu_table(code: &GenusKernelCode, n: u32, hooks: &dyn RunHooks) -> Result<Option<Vec<u32>>> {
    let deps = plane_deps();
    let words = code.words_below(n + 1);
    let mut table = vec![0u32; (n as usize + 1) * PLANES as usize];
    let heap_words = (PLANES * words) as usize;
    let mut below = vec![0u32; MAX_BLOCK as usize * heap_words];
    for blk in plan_blocks(0, n, MAX_BLOCK) {
        if blk.s > 0 && hooks.stop() {
            return Ok(None);
        }
        let p = Params::of(code, blk.s, blk.b);
        let heap_words = (PLANES * p.words) as usize;
        below[..blk.b as usize * heap_words]
            .par_chunks_mut(heap_words)
            .enumerate()
            .for_each(|(i, heap_bits)| {
                for slice in 0..p.slices {
                    genus_below(code, &table, heap_bits, &p, (i as u32, slice));
                }
            });
        genus_finish(code, &deps, &mut table, &mut below, &p).map_err(|heap| {
            Error::Run(format!(
                "heap {heap} has a misère value past 65535, the most the blocked kernels hold"
            ))
        })?;
        hooks.progress((blk.s + blk.b) as u64);
    }
    Ok(Some(table))
}

/// The table of heaps `0..=n` of a code, on the card or its twin.
struct GenusJob<'a> {
    code: &'a GenusKernelCode,
    n: u32,
    hooks: &'a dyn RunHooks,
}

impl Dual for GenusJob<'_> {
    type Output = Option<Vec<u32>>;

    fn fits(&self, runner: &Runner) -> std::result::Result<(), Unfit> {
        grundy_gpu::genus::fits(runner, self.code, self.n).map(|_| ())
    }

    fn on_gpu(&self, runner: &Runner) -> Result<Self::Output> {
        grundy_gpu::genus::table(runner, self.code, self.n, self.hooks)
    }

    fn on_cpu(&self) -> Result<Self::Output> {
        cpu_table(self.code, self.n, self.hooks)
    }
}

/// The states of heaps `0..=n` of `code` (`takes` must hold) on what
/// `choice` opens: under `auto` the card from `GpuFrom::GENUS_HEAPS` heaps
/// on a real GPU, else the twin. `None` when `hooks.stop()` said so.
pub fn run(
    code: &GenusKernelCode,
    n: u64,
    choice: BackendChoice,
    hooks: &dyn RunHooks,
) -> Result<(Option<Vec<u32>>, RanOn)> {
    debug_assert!(takes(code, n));
    let backend = Backend::open_for(choice, n, GpuFrom::GENUS_HEAPS, hooks)?;
    let (states, ran) = table_on(code, n as u32, &backend, hooks)?;
    Ok((states, backend.ran_on(ran)))
}

/// The states of heaps `0..=n` of `code` on an open `backend`: the card
/// when it is one and the table fits it, else the twin (which ran says).
pub fn table_on(
    code: &GenusKernelCode,
    n: u32,
    backend: &Backend,
    hooks: &dyn RunHooks,
) -> Result<(Option<Vec<u32>>, Ran)> {
    backend::run(&GenusJob { code, n, hooks }, backend, hooks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::analysis::genus::GENUS_DEPTH;
    use grundy_core::analysis::genus_stream::GenusStream;
    use grundy_core::game::Code;
    use grundy_core::hooks::Silent;

    /// Random codes that never split, with unbounded takes: a prefix and a
    /// repeating tail of digits 0–3, the tail taking something.
    fn random_codes(count: usize) -> Vec<String> {
        let mut next = crate::heap::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut codes = Vec::new();
        while codes.len() < count {
            let digit = |r: u64| char::from(b'0' + (r % 4) as u8);
            let prefix: String = (0..1 + next() % 5).map(|_| digit(next())).collect();
            let tail: String = (0..1 + next() % 3).map(|_| digit(next())).collect();
            if tail.chars().any(|c| c != '0') {
                codes.push(format!("0.{prefix}[{tail}]"));
            }
        }
        codes
    }

    /// The twin's table is the stream's states, heap for heap, across
    /// blocks of every length the plan makes (the first blocks of 64, then
    /// as long as the table below), for Nim and random codes.
    #[test]
    fn the_twin_gives_the_streams_states() {
        let mut codes = random_codes(12);
        codes.extend(["0.[3]", "0.[1]", "0.3[03]", "0.0[2]"].map(String::from));
        for (i, text) in codes.iter().enumerate() {
            // `--min-diff` on some: it moves nothing in a code that never
            // splits, and the stream reads the moves as the rules give them.
            let code = Code::parse(text).unwrap().with_min_diff(i as u32 % 3);
            let kernel = GenusKernelCode::new(&code).unwrap();
            let n = 700;
            assert!(takes(&kernel, n), "{text}");
            let table = cpu_table(&kernel, n as u32, &Silent).unwrap().unwrap();
            let mut stream = GenusStream::new(&code, GENUS_DEPTH).unwrap();
            for h in 0..=n {
                stream.step();
                let row = &table[(h * PLANES as u64) as usize..][..PLANES as usize];
                assert_eq!(row, stream.state(h), "{text}: heap {h}");
            }
        }
    }

    /// The bound on a block's values counts the takes: Nim's heap n has n
    /// options, a code taking every other number half as many.
    #[test]
    fn the_words_hold_every_value_and_no_more_than_needed() {
        let nim = GenusKernelCode::new(&Code::parse("0.[3]").unwrap()).unwrap();
        assert_eq!(nim.most_options_below(1), 0);
        assert_eq!(nim.most_options_below(1000), 999);
        let odd = GenusKernelCode::new(&Code::parse("0.[30]").unwrap()).unwrap();
        assert_eq!(odd.most_options_below(1001), 500);
        let bounded = GenusKernelCode::new(&Code::parse("0.33").unwrap()).unwrap();
        assert_eq!(bounded.most_options_below(1_000_000), 2);
        assert!(!takes(&bounded, 100));
        // Nim's heap 65530 has a value of 65531 past what the bitsets hold.
        assert!(takes(&nim, 60_000) && !takes(&nim, 65_530));
        let splits = Code::parse("0.77").unwrap();
        assert!(GenusKernelCode::new(&splits).is_err());
    }
}
