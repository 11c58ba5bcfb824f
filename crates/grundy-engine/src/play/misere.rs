//! `play` of heap games under misère play. A sum has no nim-sum there.
//! Where the misère quotient of the heaps involved is found within a small
//! budget (`analysis::quotient`), the sum's outcome is its heaps' product's
//! and a winning move is one to a product in the P-portion: instant on
//! sums of hundreds of heaps. Otherwise, and on small sums as a check of
//! the quotient, the misère value is searched over the whole sum
//! (`analysis::whole_sum`), a winning move being one to misère value 0.

use super::heaps::{heap_move, heap_part};
use super::report::{MoveLimit, Part, PlayReport, WinningMove};
use crate::memory::{sums_within_budget, walk_before_search, walked_note, whole_sum_error};
use grundy_core::analysis::genus::HeapsAndNimHeaps;
use grundy_core::analysis::quotient::{Limits, Method, Quotient, misere_quotient};
use grundy_core::analysis::sum_bound::heaps_bound;
use grundy_core::analysis::whole_sum::{Stopped, SumSearch};
use grundy_core::error::{Error, Result};
use grundy_core::game::{Code, Convention};

/// Moves of one heap looked at, at most.
const MOVE_LIMIT: u64 = 1_000_000;

/// A misère report's start: the heaps' normal values and their nim-sum,
/// for comparison. Normal play's moves to a nim-sum of 0 are not looked
/// for: they are not misère play's winning moves.
pub(super) fn normal_columns(part: Part) -> PlayReport {
    let nim_sum = part.components.iter().fold(0, |s, c| s ^ c.g);
    PlayReport {
        game: part.game,
        position: part.position,
        components: part.components,
        nim_sum,
        convention: Convention::Misere,
        misere_value: None,
        outcome: "N",
        winning_moves_total: 0,
        winning_moves: Vec::new(),
        notes: part.notes,
    }
}

/// The report of heaps of `code` under misère play: the components' normal
/// values beside the whole sum's misère value, and every move to a sum of
/// misère value 0 (up to `limit` listed).
pub fn misere_heap_play(
    code: &Code,
    heaps: &[u64],
    name: String,
    limit: MoveLimit,
) -> Result<PlayReport> {
    let r = normal_columns(heap_part(code, heaps, name)?);
    let Some(quotient) = small_quotient(code, heaps) else {
        return by_search(code, heaps, r, limit);
    };
    let mut by_quotient = from_quotient(code, heaps, r.clone(), limit, &quotient);
    // On a small sum the search is cheap: it checks the quotient.
    if heaps.len() <= CHECKED_HEAPS && heaps.iter().sum::<u64>() <= CHECKED_COUNTERS {
        let searched = by_search(code, heaps, r, limit)?;
        if (searched.outcome, searched.winning_moves_total)
            != (by_quotient.outcome, by_quotient.winning_moves_total)
        {
            return Err(Error::Run(format!(
                "the misère quotient and the search disagree on {}: please report this",
                by_quotient.position
            )));
        }
        by_quotient.misere_value = searched.misere_value;
    }
    Ok(by_quotient)
}

/// Sums at most this large are also searched, to check the quotient.
const CHECKED_HEAPS: usize = 6;
const CHECKED_COUNTERS: u64 = 60;

/// The largest heap a quotient is tried for in `play`.
const QUOTIENT_MAX_HEAP: u64 = 256;

/// The misère quotient of the heaps up to the largest of `heaps`, if it is
/// found within a small budget (64 MiB: a second or two where it is not).
fn small_quotient(code: &Code, heaps: &[u64]) -> Option<Quotient> {
    let top = heaps.iter().copied().max().unwrap_or(0).max(1);
    if top > QUOTIENT_MAX_HEAP {
        return None;
    }
    let limits = Limits::within(64 << 20);
    misere_quotient(
        code,
        top as u16,
        Method::Learn,
        limits,
        &grundy_core::hooks::Silent,
    )
    .ok()
}

/// The report from the quotient: the outcome of the heaps' product, and
/// every move to a product in the P-portion.
fn from_quotient(
    code: &Code,
    heaps: &[u64],
    mut r: PlayReport,
    limit: MoveLimit,
    q: &Quotient,
) -> PlayReport {
    let sum: Vec<u16> = heaps.iter().map(|&h| h as u16).collect();
    let mut moves = Vec::new();
    let mut total = 0;
    for (k, &h) in heaps.iter().enumerate() {
        let rest = q.element_of(&[&sum[..k], &sum[k + 1..]].concat());
        code.for_each_move(h, u64::MAX, &mut |take, left| {
            let left16: Vec<u16> = left.iter().map(|&x| x as u16).collect();
            if !q.monoid.is_p(q.monoid.times_sum(rest, &left16)) {
                return;
            }
            total += 1;
            if limit.0.is_none_or(|l| moves.len() < l) {
                let (text, to, play) = heap_move(h, take, left);
                moves.push(WinningMove {
                    component: k,
                    text,
                    to,
                    g: 0,
                    play,
                });
            }
        });
    }
    r.outcome = if q.is_p(&sum) { "P" } else { "N" };
    (r.winning_moves_total, r.winning_moves) = (total, moves);
    r.notes.push(format!(
        "misère play: the sum has no nim-sum; its outcome is read from the misère quotient of \
         heaps up to {} (order {}, P-portion {}), proved on every sum of those heaps",
        q.max_heap,
        q.order(),
        q.p_portion()
            .iter()
            .map(|&e| q.name(e))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    r
}

/// The report by search over the whole sum.
fn by_search(
    code: &Code,
    heaps: &[u64],
    mut r: PlayReport,
    limit: MoveLimit,
) -> Result<PlayReport> {
    let cap = sums_within_budget();
    let stop = || grundy_core::interrupt::requested();
    let mut search = SumSearch::new(HeapsAndNimHeaps::new(code), Convention::Misere, cap, &stop);
    let parts: Vec<u32> = heaps.iter().map(|&h| HeapsAndNimHeaps::heap(h)).collect();
    let expected = "fewer or smaller heaps";
    let walked = walk_before_search(&mut search, &parts, &r.position, expected)?;
    let too_many = |s: Stopped| whole_sum_error(s, &r.position, expected);
    let value = search.value(&parts).map_err(too_many)?;
    let mut moves = Vec::new();
    let mut total = 0;
    for (k, &h) in heaps.iter().enumerate() {
        let mut options = Vec::new();
        let complete = code.for_each_move(h, MOVE_LIMIT, &mut |take, left| {
            options.push((take, left.to_vec()))
        });
        if !complete {
            r.notes.push(format!(
                "the heap of {h} has more than {MOVE_LIMIT} moves; winning moves among the first \
                 {MOVE_LIMIT} are counted"
            ));
        }
        for (take, left) in options {
            let mut sum: Vec<u32> = parts.clone();
            sum.remove(k);
            sum.extend(left.iter().map(|&x| HeapsAndNimHeaps::heap(x)));
            if search.value(&sum).map_err(too_many)? != 0 {
                continue;
            }
            total += 1;
            if limit.0.is_none_or(|l| moves.len() < l) {
                let (text, to, play) = heap_move(h, take, &left);
                moves.push(WinningMove {
                    component: k,
                    text,
                    to,
                    g: 0,
                    play,
                });
            }
        }
    }
    r.misere_value = Some(value);
    r.outcome = if value == 0 { "P" } else { "N" };
    (r.winning_moves_total, r.winning_moves) = (total, moves);
    r.notes.push(format!(
        "misère play: the sum has no nim-sum; its misère value is searched over the whole sum \
         ({} sums, of {} counted before the search; at most {} by the heaps' partitions)",
        search.positions(),
        walked_note(&walked),
        heaps_bound(code, heaps).map_or("more than can be counted".into(), |n| n.to_string())
    ));
    Ok(r)
}
