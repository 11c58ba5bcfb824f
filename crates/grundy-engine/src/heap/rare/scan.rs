//! Scans of split pairs for the rare values a heap still wants, in
//! chunks, stopping when none is left or at a limit.

use crate::heap::rare::kept::Gap;
use crate::heap::rare::simd::wide_scan::Wanted;
use crate::heap::storage::store::Values;
use grundy_core::kernel::rare::RareCode;

/// Pairs of one breaking digit scanned before the next digit's, so that
/// every digit's scan advances through the small parts a together.
pub(super) const SCAN_CHUNK: usize = 512;

/// Which split pairs (a, m − a) of a heap a scan looks at, given the first
/// heap `s` of the block being computed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pairs {
    All,
    /// Both parts below s (known before the block starts), the smaller
    /// part at least `from`.
    BothBelow {
        s: usize,
        from: usize,
    },
    /// Both parts below s, past the first `skip` smaller parts below s
    /// (`Tail`), or among them (`Head`).
    Tail {
        s: usize,
        skip: usize,
    },
    Head {
        s: usize,
        skip: usize,
    },
    /// A part at s or above (known only heap by heap).
    PartInBlock(usize),
}

impl Pairs {
    /// The range of a, the smaller part, for m = n − j and parts at least
    /// `diff` apart.
    pub(super) fn range(self, m: usize, diff: usize) -> Option<(usize, usize)> {
        if m < 2 + diff {
            return None;
        }
        let (mut lo, mut hi) = (1, (m - diff) / 2);
        match self {
            Pairs::All => {}
            // m − a < s  ⇔  a > m − s.
            Pairs::BothBelow { s, from } => lo = from.max((m + 1).saturating_sub(s)),
            Pairs::Tail { s, skip } => lo = (m + 1).saturating_sub(s).max(1) + skip,
            Pairs::Head { s, skip } => {
                lo = (m + 1).saturating_sub(s).max(1);
                hi = hi.min(lo + skip - 1);
            }
            Pairs::PartInBlock(s) => hi = hi.min(m.checked_sub(s)?),
        }
        (lo <= hi).then_some((lo, hi))
    }
}

/// One byte per possible value, 1 where a value is marked or still wanted:
/// a mark is one store and the scan's test one load, with no shift and no
/// bounds check (every value of a `u8` or `u16` table indexes it).
pub(super) struct ByteTable(pub(super) Box<[u8; 1 << 16]>);

impl ByteTable {
    /// Sets the bits of the values marked in the table, and zeroes it.
    pub(super) fn fold_into(&mut self, bits: &mut [u64]) {
        fold_bytes(&mut self.0[..], bits);
    }
}

/// Sets the bits of the values whose byte is 1 in `bytes` (one byte per
/// value, from 0), and zeroes the bytes.
pub(super) fn fold_bytes(bytes: &mut [u8], bits: &mut [u64]) {
    // Eight 0/1 bytes b0..b7 read as a u64: the product below puts b_k
    // at bit 56 + k, and nothing else lands in the top byte.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    for (word, sixty_four) in bits.iter_mut().zip(bytes.chunks_mut(64)) {
        for (k, eight) in sixty_four.chunks_exact_mut(8).enumerate() {
            let x = u64::from_le_bytes(eight.try_into().unwrap());
            if x != 0 {
                *word |= (x.wrapping_mul(GATHER) >> 56) << (8 * k);
                eight.fill(0);
            }
        }
    }
}

thread_local! {
    /// Each thread's table, all zero between uses.
    pub(super) static BYTE_TABLE: std::cell::RefCell<ByteTable> =
        std::cell::RefCell::new(ByteTable(vec![0u8; 1 << 16].try_into().unwrap()));
}

/// How a scan of split pairs ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scan {
    /// Every wanted value was reached.
    Found,
    /// Every pair was read; the values left wanted are reached by none.
    Exhausted,
    /// The pair limit was read; pairs from this smaller part on are left.
    Stopped(usize),
    /// The pairs from this smaller part on were wanted, and the run does
    /// not keep both their parts (`kept::Gap::deepest`).
    Beyond(usize),
}

/// Scans the split pairs `pairs` of heap n in order of the smaller part
/// a = 1, 2, …, clearing the `wanted` values they reach, until all `need`
/// of them are cleared or about `limit` pairs are read (whole chunks of a),
/// reading no pair with a part among the heaps given back (`gap`); with
/// it, how many pairs were read. Pairs are tested many at a time without a branch per pair
/// (`Wanted::scan`).
pub(super) fn scan_pairs<V: Values>(
    code: &RareCode,
    g: V,
    n: usize,
    wanted: &mut [u64],
    need: u32,
    pairs: Pairs,
    limit: ScanLimit,
) -> (Scan, u64) {
    if need == 0 {
        return (Scan::Found, 0);
    }
    BYTE_TABLE.with_borrow_mut(|table| {
        let mut set = Wanted::new(&mut table.0, wanted);
        let mut read = 0;
        let ended = scan_with(code, g, n, &mut set, &mut read, limit, pairs);
        // Leave the table all zero, and the bitset saying what is left.
        set.finish(wanted);
        (ended, read)
    })
}

/// What a scan may read: about `pairs` pairs at most (whole chunks), and
/// no pair with a part among the heaps the run gave back (`gap`).
#[derive(Clone, Copy, Debug)]
pub(super) struct ScanLimit {
    pub(super) pairs: u64,
    pub(super) gap: Gap,
}

/// `scan_pairs` on the wanted set; `read` counts the pairs.
pub(super) fn scan_with<V: Values>(
    code: &RareCode,
    g: V,
    n: usize,
    wanted: &mut Wanted,
    read: &mut u64,
    ScanLimit { pairs: limit, gap }: ScanLimit,
    pairs: Pairs,
) -> Scan {
    // Each digit's pairs up to the last whose parts were both kept, and
    // the first part past them of a digit that has more.
    let range = |j: usize, diff: usize| {
        let m = n.checked_sub(j)?;
        let (lo, hi) = pairs.range(m, diff)?;
        let deepest = gap.deepest(m);
        (lo <= deepest).then(|| (lo, hi.min(deepest)))
    };
    let beyond = code
        .splits
        .iter()
        .filter_map(|&(j, diff)| {
            let m = n.checked_sub(j)?;
            let (lo, hi) = pairs.range(m, diff)?;
            let deepest = gap.deepest(m);
            (hi > deepest).then(|| lo.max(deepest + 1))
        })
        .min();
    let (a_min, a_max) = code
        .splits
        .iter()
        .filter_map(|&(j, diff)| range(j, diff))
        .fold((usize::MAX, 0), |(lo, hi), (l, h)| (lo.min(l), hi.max(h)));
    let mut a = a_min;
    while a <= a_max {
        let a_end = (a + SCAN_CHUNK - 1).min(a_max);
        for &(j, diff) in &code.splits {
            let Some((lo, hi)) = range(j, diff) else {
                continue;
            };
            let (x0, x1) = (a.max(lo), a_end.min(hi));
            if x0 > x1 {
                continue;
            }
            *read += (x1 - x0 + 1) as u64;
            let m = n - j;
            if scan_run(wanted, g.range(x0, x1 + 1), g.range(m - x1, m - x0 + 1)) {
                return Scan::Found;
            }
        }
        a = a_end + 1;
        if *read >= limit && a <= a_max {
            return Scan::Stopped(a);
        }
    }
    match beyond {
        Some(part) => Scan::Beyond(part),
        None => Scan::Exhausted,
    }
}

/// `Wanted::scan` over the pairs (`low[k]`, `high[len − 1 − k]`) of two
/// runs of a table: many at a time between the pairs with an escape (each
/// of those one by one, with whole values).
pub(super) fn scan_run<V: Values>(wanted: &mut Wanted, low: V, high: V) -> bool {
    if let (Some(l), Some(h)) = (low.exact(), high.exact()) {
        return wanted.scan(l, h);
    }
    let len = low.len();
    let mut cuts = low.escapes();
    cuts.extend(high.escapes().into_iter().map(|i| len - 1 - i));
    cuts.sort_unstable();
    cuts.dedup();
    let mut k0 = 0;
    for k in cuts.into_iter().chain([len]) {
        if k > k0 {
            let (l, h) = (low.range(k0, k), high.range(len - k, len - k0));
            if wanted.scan(l.exact().expect("no escape"), h.exact().expect("no escape")) {
                return true;
            }
        }
        if k < len && wanted.take((low.at(k) ^ high.at(len - 1 - k)) as usize) {
            return true;
        }
        k0 = k + 1;
    }
    false
}
