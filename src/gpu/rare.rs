//! Rare values' block pass on the GPU: `kernel::rare::RARE_PASS` over a
//! block of heaps, one workgroup per heap. The table and the rare list stay
//! on the card and grow by what each block added; the marks, the missing
//! values, c′ and the pairs read come back for the host to finish the
//! block heap by heap.

use super::runner::ParamSlots;
use super::{Runner, Unfit};
use crate::error::Result;
use crate::kernel::rare::{MAX_WORDS, PassParams, RARE_PASS, RareCode, SCAN_PER_THREAD, WG};
use crate::kernel::{grid_2d, packed_words};

/// Heaps per block at most (the engine's blocks are shorter).
pub const MAX_BLOCK_HEAPS: u64 = 8192;

/// What one block's pass found: per heap `words` u32 of marks then of
/// missing values (`sets`), and c′ and the pairs read (`results`).
pub struct PassOutput {
    pub sets: Vec<u32>,
    pub results: Vec<u32>,
}

/// The table the pass reads: its length, and its values a..b (a even) two
/// to a word as the card holds them (`kernel::pack_u16`).
pub struct Table<'t> {
    pub len: usize,
    pub pack: &'t dyn Fn(usize, usize) -> Vec<u32>,
}

impl Table<'_> {
    /// `pack` for the values of a slice.
    pub fn pack_slice<T: Copy + Into<u32>>(g: &[T]) -> impl Fn(usize, usize) -> Vec<u32> + '_ {
        move |a, b| crate::kernel::pack_u16(&g[a..b])
    }
}

/// Values packed and written to the card at a time (even).
const UPLOAD_PIECE: usize = 1 << 24;

/// The pass's buffers on the card for one run.
pub struct GpuPass<'a> {
    runner: &'a Runner,
    code: wgpu::Buffer,
    table: wgpu::Buffer,
    rare: wgpu::Buffer,
    rare_capacity: usize,
    sets: wgpu::Buffer,
    results: wgpu::Buffer,
    slots: ParamSlots,
    /// Values and rare positions already on the card, and the split
    /// (mask, parity) the rare list is of: a new split is a new list.
    table_known: usize,
    rare_known: usize,
    split: (u32, u32),
}

/// `Ok` when this adapter can hold a table of `values` values.
pub fn fits(runner: &Runner, values: u64) -> std::result::Result<(), Unfit> {
    let bytes = packed_words(values) * 4;
    if bytes > runner.max_binding() {
        return Err(Unfit(format!(
            "a table of {values} values needs a {} MiB binding; the adapter '{}' binds at most {} MiB",
            bytes >> 20,
            runner.info.name,
            runner.max_binding() >> 20
        )));
    }
    Ok(())
}

impl<'a> GpuPass<'a> {
    /// Buffers for a run of `code` up to `values` values.
    pub fn new(runner: &'a Runner, code: &RareCode, values: u64) -> GpuPass<'a> {
        let out_words = MAX_BLOCK_HEAPS * 2 * MAX_WORDS as u64;
        GpuPass {
            runner,
            code: runner.storage("rare code", bytemuck::cast_slice(&code.pass_words())),
            table: runner.zeroed("rare table", packed_words(values) * 4),
            rare: runner.zeroed("rare list", 1024 * 8),
            rare_capacity: 1024,
            sets: runner.zeroed("rare marks", out_words * 4),
            results: runner.zeroed("rare results", MAX_BLOCK_HEAPS * 8),
            slots: runner.param_slots::<PassParams>("rare params", 1),
            table_known: 0,
            rare_known: 0,
            split: (0, 0),
        }
    }

    /// Whether the pass runs heaps up to `e` with values below `2 · words64
    /// · 64`: the bitsets fit the shader's, and on a software adapter the
    /// loops fit its budget (llvmpipe ends an invocation's loops after 65535
    /// iterations in all).
    /// The shader's heap indices are u32: heaps past `u32::MAX` run their
    /// pass on the CPU.
    pub fn takes(&self, words64: usize, e: usize, splits: usize, rare: usize) -> bool {
        let words = 2 * words64 as u64;
        if words > MAX_WORDS as u64 || u32::try_from(e).is_err() {
            return false;
        }
        let Some(budget) = super::heap::loop_budget(self.runner) else {
            return true;
        };
        let chunk = (WG * SCAN_PER_THREAD) as u64;
        let splits = splits as u64;
        // the bitsets, the rare list per digit, the scan's chunks per digit
        let trips = 2 * words
            + splits * (rare as u64 / WG as u64 + 1)
            + 2 * splits * (e as u64 / 2 / chunk + 1);
        trips <= budget
    }

    /// Appends the values of `g` and the rare positions not yet on the card.
    fn upload(&mut self, g: &Table, rare: &[usize], values: &[u32]) {
        // Whole words: from the word holding the first value not sent (a
        // shorter table than the card's is a new one).
        if g.len < self.table_known {
            self.table_known = 0;
        }
        // A piece at a time: an escaped table is packed from its one-byte
        // values, and only a piece is ever two bytes a value on the host.
        let mut from = self.table_known & !1;
        while from < g.len {
            let to = g.len.min(from + UPLOAD_PIECE);
            let words = (g.pack)(from, to);
            self.runner
                .write(&self.table, from as u64 * 2, bytemuck::cast_slice(&words));
            from = to;
        }
        self.table_known = g.len;
        if rare.len() > self.rare_capacity {
            self.rare_capacity = rare.len().next_power_of_two();
            self.rare = self
                .runner
                .zeroed("rare list", self.rare_capacity as u64 * 8);
            self.rare_known = 0;
        }
        let pairs: Vec<u32> = rare[self.rare_known..]
            .iter()
            .zip(&values[self.rare_known..])
            .flat_map(|(&r, &v)| [r as u32, v])
            .collect();
        self.runner.write(
            &self.rare,
            self.rare_known as u64 * 8,
            bytemuck::cast_slice(&pairs),
        );
        self.rare_known = rare.len();
    }

    /// The pass over heaps `params.first..` (`params.count` of them) with
    /// heaps below `params.s` known: `g` holds them (and `rare`, `values`
    /// the rare positions among them). Waits for the result.
    pub fn run(
        &mut self,
        params: PassParams,
        g: &Table,
        rare: &[usize],
        values: &[u32],
    ) -> Result<PassOutput> {
        let launched = self.launch(params, g, rare, values);
        self.collect(launched)
    }

    /// As `run`, without waiting: the card works while the host goes on;
    /// `collect` then waits for it. One launch at a time.
    pub fn launch(
        &mut self,
        mut params: PassParams,
        g: &Table,
        rare: &[usize],
        values: &[u32],
    ) -> PassParams {
        if self.split != (params.mask, params.parity) {
            self.split = (params.mask, params.parity);
            self.rare_known = 0;
        }
        self.upload(g, rare, values);
        let runner = self.runner;
        let (gx, gy) = grid_2d(
            params.count,
            runner.limits.max_compute_workgroups_per_dimension,
        );
        params.groups_x = gx;
        params.rare_count = rare.len() as u32;
        runner.write_params(&self.slots, &[params]);
        let pipelines = runner.pipelines(&RARE_PASS, &[]);
        let storage = [
            &self.code,
            &self.table,
            &self.rare,
            &self.sets,
            &self.results,
        ];
        let bind_group = runner.bind(&pipelines, &self.slots, &storage);
        runner.dispatch("rare pass", |pass| {
            pass.set_pipeline(pipelines.entry("rare_pass"));
            pass.set_bind_group(0, &bind_group, &[0]);
            pass.dispatch_workgroups(gx, gy, 1);
        });
        params
    }

    /// The result of the last `launch` (its parameters).
    pub fn collect(&mut self, params: PassParams) -> Result<PassOutput> {
        let count = params.count as u64;
        let results = self.runner.read(&self.results, 0, count * 8)?;
        let sets = self
            .runner
            .read(&self.sets, 0, count * 2 * params.words as u64 * 4)?;
        self.runner.dispatch_time()?;
        Ok(PassOutput {
            sets: bytemuck::pod_collect_to_vec(&sets),
            results: bytemuck::pod_collect_to_vec(&results),
        })
    }
}
