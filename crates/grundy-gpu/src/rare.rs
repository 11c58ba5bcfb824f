//! Rare values' block pass on the GPU: `kernel::rare::RARE_PASS` over a
//! block of heaps, one workgroup per heap. The table and the rare list stay
//! on the card and grow by what each block added; the marks, the missing
//! values, c′ and the pairs read come back for the host to finish the
//! block heap by heap.

use super::Runner;
use super::runner::{ParamSlots, SentBack};
pub use crate::outputs::{Launched, PassOutput, Table};
use grundy_core::error::Result;
use grundy_core::kernel::rare::{
    MAX_WORDS, PassParams, RARE_PASS, RareCode, SCAN_PER_THREAD, TABLE_PIECES, WG,
};
use grundy_core::kernel::{grid_2d, packed_words};

/// Heaps per block at most (the engine's blocks are shorter).
pub const MAX_BLOCK_HEAPS: u64 = 8192;

/// Values packed and written to the card at a time (even).
const UPLOAD_PIECE: usize = 1 << 24;

/// The pass's buffers on the card for one run.
pub struct GpuPass<'a> {
    runner: &'a Runner,
    code: wgpu::Buffer,
    /// The table in pieces of `1 << piece_shift` words, as many as the run
    /// needs and the card holds.
    pieces: Vec<wgpu::Buffer>,
    piece_shift: u32,
    /// Why the pieces hold fewer values than the run asked for.
    short: Option<String>,
    rare: wgpu::Buffer,
    rare_capacity: usize,
    sets: wgpu::Buffer,
    results: wgpu::Buffer,
    /// Where a pass's results, then its sets, come back to the host.
    back: wgpu::Buffer,
    /// The last pass launched, on its way back, and its number.
    in_flight: Option<(u64, SentBack)>,
    launches: u64,
    slots: ParamSlots,
    /// Values and rare positions already on the card, and the split
    /// (mask, parity) the rare list is of: a new split is a new list.
    table_known: usize,
    rare_known: usize,
    split: (u32, u32),
}

/// Why this adapter cannot run the pass at all, if it cannot: it must bind
/// the table's pieces and the pass's other buffers in one stage.
pub fn unfit(runner: &Runner) -> Option<String> {
    let needed = RARE_PASS.read_only.len() as u32;
    let stage = runner.limits.max_storage_buffers_per_shader_stage;
    (stage < needed).then(|| {
        format!(
            "the adapter '{}' binds {stage} storage buffers per stage; the rare values' pass needs \
             {needed}",
            runner.info.name
        )
    })
}

/// The largest table piece: 2^31 words, so a word's index within its
/// piece and the piece's number stay u32 in the shader.
const MAX_PIECE_BYTES: u64 = 1 << 33;

/// The pieces of a table of `values` values, `1 << shift` words each (the
/// last as long as it needs), at most `TABLE_PIECES`, allocated until the
/// card has no room for the next; and why they hold fewer values, if so.
fn table_pieces(runner: &Runner, values: u64, shift: u32) -> (Vec<wgpu::Buffer>, Option<String>) {
    let piece_words = 1u64 << shift;
    let words = packed_words(values);
    let needed = words.div_ceil(piece_words) as usize;
    let mut pieces = Vec::new();
    for k in 0..needed.min(TABLE_PIECES) {
        let bytes = (words - k as u64 * piece_words).min(piece_words) * 4;
        match runner.try_zeroed("rare table piece", bytes) {
            Some(piece) => pieces.push(piece),
            None => {
                let why = format!(
                    "the adapter '{}' has no room for piece {} of the table ({}): it holds {} \
                     values",
                    runner.info.name,
                    k + 1,
                    binary_size(bytes),
                    (k as u64 * piece_words) << 1
                );
                return (pieces, Some(why));
            }
        }
    }
    let short = (needed > TABLE_PIECES).then(|| {
        format!(
            "a table of {values} values needs {needed} pieces of {}; the pass binds {TABLE_PIECES} \
             on the adapter '{}' ({} values)",
            binary_size(piece_words * 4),
            runner.info.name,
            (TABLE_PIECES as u64 * piece_words) << 1
        )
    });
    (pieces, short)
}

/// `bytes` in the largest binary unit that keeps it whole enough to read
/// (pieces are powers of two).
fn binary_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b => format!("{} KiB", b >> 10),
    }
}

impl<'a> GpuPass<'a> {
    /// Buffers for a run of `code` up to `values` values, the table in
    /// pieces as large as the adapter binds.
    pub fn new(runner: &'a Runner, code: &RareCode, values: u64) -> GpuPass<'a> {
        GpuPass::in_pieces(runner, code, values, runner.max_binding_pow2())
    }

    /// As `new`, with table pieces of at most `piece_bytes` (rounded down
    /// to a power of two; never more than the adapter binds).
    pub fn in_pieces(
        runner: &'a Runner,
        code: &RareCode,
        values: u64,
        piece_bytes: u64,
    ) -> GpuPass<'a> {
        let piece_bytes = piece_bytes
            .min(runner.max_binding_pow2())
            .clamp(4, MAX_PIECE_BYTES);
        let piece_shift = piece_bytes.ilog2() - 2;
        let (pieces, short) = table_pieces(runner, values, piece_shift);
        let out_words = MAX_BLOCK_HEAPS * 2 * MAX_WORDS as u64;
        let results_bytes = MAX_BLOCK_HEAPS * 8;
        runner.start_pipeline();
        GpuPass {
            runner,
            code: runner.storage("rare code", bytemuck::cast_slice(&code.pass_words())),
            pieces,
            piece_shift,
            short,
            rare: runner.zeroed("rare list", 1024 * 8),
            rare_capacity: 1024,
            sets: runner.zeroed("rare marks", out_words * 4),
            results: runner.zeroed("rare results", results_bytes),
            back: runner.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("rare pass read-back"),
                // the timestamps after the results and sets
                size: results_bytes + out_words * 4 + 16,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            in_flight: None,
            launches: 0,
            slots: runner.param_slots::<PassParams>("rare params", 1),
            table_known: 0,
            rare_known: 0,
            split: (0, 0),
        }
    }

    /// The values the table's pieces on the card hold: the pass takes the
    /// blocks below this.
    pub fn holds(&self) -> u64 {
        // Two values a 4-byte word.
        self.pieces.iter().map(|piece| piece.size() / 2).sum()
    }

    /// Why the pieces hold fewer values than the run asked for (what the
    /// adapter binds, or the card's memory), when they do.
    pub fn short_of_room(&self) -> Option<&str> {
        self.short.as_deref()
    }

    /// Writes `words` of the packed table from word `at` on, into the
    /// pieces that hold them.
    fn write_table(&self, mut at: u64, mut words: &[u32]) {
        let piece_words = 1u64 << self.piece_shift;
        while !words.is_empty() {
            let (piece, within) = ((at / piece_words) as usize, at % piece_words);
            let here = words.len().min((piece_words - within) as usize);
            let (now, rest) = words.split_at(here);
            self.runner
                .write(&self.pieces[piece], within * 4, bytemuck::cast_slice(now));
            (at, words) = (at + here as u64, rest);
        }
    }

    /// Whether the pass runs heaps up to `e` with values below `2 · words64
    /// · 64`: the bitsets fit the shader's, and on a software adapter the
    /// loops fit its budget (llvmpipe ends an invocation's loops after 65535
    /// iterations in all).
    /// The shader's heap indices are u32: heaps past `u32::MAX` run their
    /// pass on the CPU, as do heaps past what the table's pieces hold.
    pub fn takes(&self, words64: usize, e: usize, splits: usize, rare: usize) -> bool {
        let words = 2 * words64 as u64;
        if words > MAX_WORDS as u64 || e as u64 > self.holds() || u32::try_from(e).is_err() {
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
            self.write_table(from as u64 / 2, &(g.pack)(from, to));
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

    /// As `run`, without waiting: one submission runs the pass and sends
    /// its results back while the host goes on; `collect` then takes them
    /// (waiting only if they are not back yet). One launch at a time: a
    /// launch not collected is waited for and dropped by the next.
    pub fn launch(
        &mut self,
        mut params: PassParams,
        g: &Table,
        rare: &[usize],
        values: &[u32],
    ) -> Launched {
        if let Some((_, dropped)) = self.in_flight.take() {
            // Its bytes are not wanted, only the read-back buffer free.
            let _ = self.runner.take(dropped);
        }
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
        params.piece_shift = self.piece_shift;
        params.rare_count = rare.len() as u32;
        runner.write_params(&self.slots, &[params]);
        let pipelines = runner.pipelines(&RARE_PASS, &[]);
        let piece = |k: usize| self.pieces.get(k).unwrap_or(&self.pieces[0]);
        let storage = [
            &self.code,
            piece(0),
            piece(1),
            piece(2),
            piece(3),
            piece(4),
            piece(5),
            piece(6),
            piece(7),
            &self.rare,
            &self.sets,
            &self.results,
        ];
        let bind_group = runner.bind(&pipelines, &self.slots, &storage);
        let count = params.count as u64;
        let copies = [
            (&self.results, count * 8),
            (&self.sets, count * 2 * params.words as u64 * 4),
        ];
        let record = |pass: &mut wgpu::ComputePass<'_>| {
            pass.set_pipeline(pipelines.entry("rare_pass"));
            pass.set_bind_group(0, &bind_group, &[0]);
            pass.dispatch_workgroups(gx, gy, 1);
        };
        let sent = runner.dispatch_and_send_back("rare pass", record, &copies, &self.back);
        self.launches += 1;
        self.in_flight = Some((self.launches, sent));
        Launched {
            params,
            id: self.launches,
        }
    }

    /// The result of a `launch`, the last one.
    pub fn collect(&mut self, launched: Launched) -> Result<PassOutput> {
        let sent = match self.in_flight.take() {
            Some((id, sent)) if id == launched.id => sent,
            _ => {
                return Err(grundy_core::error::Error::Run(
                    "the rare values' pass collected a launch not the last".into(),
                ));
            }
        };
        let bytes = self.runner.take(sent)?;
        let (results, sets) = bytes.split_at(launched.params.count as usize * 8);
        Ok(PassOutput {
            sets: bytemuck::pod_collect_to_vec(sets),
            results: bytemuck::pod_collect_to_vec(results),
        })
    }

    /// Notes that `blocks` blocks are in flight at once (the one the host
    /// finishes and the passes ahead of it).
    pub fn note_in_flight(&self, blocks: u64) {
        self.runner.note_in_flight(blocks);
    }
}

#[cfg(test)]
mod tests {
    use super::binary_size;

    #[test]
    fn piece_sizes_read_in_their_unit() {
        assert_eq!(binary_size(4096), "4 KiB");
        assert_eq!(binary_size(16 << 20), "16 MiB");
        assert_eq!(binary_size(1 << 30), "1 GiB");
    }
}
