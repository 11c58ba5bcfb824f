//! Runs that keep only a prefix and a window of their table
//! (`SequenceRun::keeping`): the values they give, streamed out as each
//! piece is done, are the whole table's; a heap that needs a value they do
//! not keep stops the run before it, with the sizes that would have done.

use grundy::game::Code;
use grundy::internals::engine::heap::rare::{Tuning, kept::Kept};
use grundy::internals::engine::heap::sequence::{Algorithm, SequenceRun};
use grundy::internals::engine::heap::storage::table::HeapTable;
use grundy::setting::Setting;

/// G(0..=n) of `code` by rare values, the whole table kept.
fn whole(code: &Code, n: u64) -> Vec<u16> {
    let mut run = SequenceRun::new(code, Algorithm::Rare, HeapTable::default())
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    run.extend_on_cpu(n).unwrap();
    run.table.into_wide()
}

/// G(0..=n) keeping `kept`, in pieces of `piece` heaps: each piece's values
/// taken as it is done (as `--out` writes them), then the heaps past the
/// window given back. Err: the run's message, with the values it gave.
fn keeping(code: &Code, n: u64, kept: Kept, piece: u64) -> Result<Vec<u16>, (String, Vec<u16>)> {
    let mut run = SequenceRun::keeping(code, kept, n)
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    let mut out = Vec::new();
    let mut to = 0;
    while (out.len() as u64) <= n {
        to = n.min(to + piece);
        let extended = run.extend_on_cpu(to);
        out.extend(run.table.values(out.len(), run.table.len()));
        if let Err(e) = extended {
            return Err((e.message().to_string(), out));
        }
        run.forget_past_window();
    }
    Ok(out)
}

/// The prefix and window a stopped run's message names.
fn sizes_named(message: &str) -> Kept {
    let said = |setting: Setting| -> usize {
        // The marked setting, worded by the front end: `setting` `value`.
        let worded = grundy::error::Error::Run(setting.is(0))
            .message()
            .to_string();
        let key = &worded[..worded.find('0').unwrap()];
        let at = message.find(key).unwrap_or_else(|| panic!("{message}"));
        let digits = message[at + key.len()..].split(|c: char| !c.is_ascii_digit());
        digits
            .into_iter()
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{message}"))
    };
    Kept {
        prefix: said(Setting::KeepPrefix),
        window: said(Setting::KeepWindow),
    }
}

/// Officers, Grundy's game, `.161`, `.167` and `.1777` to 2^18, from a
/// prefix and a window of 4096 heaps, each stop's sizes taken for the next
/// try: every try's values are the whole table's, as far as it went, and
/// the last try reaches 2^18 (`.167` and `.1777` keeping at most an
/// eighth of their heaps: 8,192 in most runs; where the blocks end, and so
/// when the split is chosen again, depends on their timing).
#[test]
fn a_prefix_and_a_window_give_the_whole_tables_values() {
    let n = 1 << 18;
    for text in ["0.6", "4!.0", "0.161", "0.167", "0.1777"] {
        let code = Code::parse(text).unwrap();
        let whole = whole(&code, n);
        let mut kept = Kept {
            prefix: 4096,
            window: 4096,
        };
        let mut tries = 0;
        let done = loop {
            tries += 1;
            assert!(tries < 40, "{text}: {kept:?}");
            match keeping(&code, n, kept, 1 << 14) {
                Ok(values) => break values,
                Err((message, values)) => {
                    assert!(values[..] == whole[..values.len()], "{text}: {message}");
                    // What is named is the least that would have done for
                    // that heap: the next try keeps twice what was short.
                    let named = sizes_named(&message);
                    assert!(named != kept, "{text}: the sizes named are the ones kept");
                    let grow = |had: usize, least: usize| match least > had {
                        true => least.max(2 * had),
                        false => had,
                    };
                    kept = Kept {
                        prefix: grow(kept.prefix, named.prefix),
                        window: grow(kept.window, named.window),
                    };
                }
            }
        };
        assert!(done == whole, "{text}: the values differ");
        if ["0.167", "0.1777"].contains(&text) {
            // Their rare heaps and scans stay short: most was given back.
            assert!(kept.prefix + kept.window <= 1 << 15, "{text}: {kept:?}");
        }
    }
}

/// Memory given back reads as zeros: the heaps between the prefix and the
/// window are no longer held (`.167`'s values there are not all 0).
#[test]
fn the_heaps_between_the_prefix_and_the_window_are_given_back() {
    let code = Code::parse("0.167").unwrap();
    let kept = Kept {
        prefix: 4096,
        window: 4096,
    };
    let mut run = SequenceRun::keeping(&code, kept, 1 << 17)
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    run.extend_on_cpu(1 << 17).unwrap();
    let before = run.table.values(1 << 15, 1 << 16);
    assert!(before.iter().any(|&v| v != 0));
    run.forget_past_window();
    assert!(run.table.values(1 << 15, 1 << 16).iter().all(|&v| v == 0));
    // The prefix and the window stay.
    let whole = whole(&code, 1 << 17);
    assert_eq!(run.table.values(0, 4096), whole[..4096]);
    let last = whole.len() - 4096;
    assert_eq!(run.table.values(last, whole.len()), whole[last..]);
}

/// A window too short for the rare heaps' partners, and a prefix too short
/// for the scans: the run stops before the heap that needed more, naming
/// it and the sizes that would have done, and every value it gave is the
/// whole table's. The sizes it names then do.
#[test]
fn a_heap_that_needs_more_than_is_kept_stops_the_run_before_it() {
    let code = Code::parse("0.6").unwrap();
    let n = 1 << 17;
    let whole = whole(&code, n);
    for kept in [
        // Officers' last rare heap is past 64: its partners reach past this window.
        Kept {
            prefix: 1 << 16,
            window: 64,
        },
        // Scans read pairs whose smaller part passes 8.
        Kept {
            prefix: 8,
            window: 1 << 16,
        },
    ] {
        let (message, got) = keeping(&code, n, kept, 1 << 12).expect_err("a heap needs more");
        assert!(!got.is_empty() && got[..] == whole[..got.len()], "{kept:?}");
        let heap = got.len();
        assert!(message.contains(&format!("heap {heap}")), "{message}");
        assert!(message.contains("start again"), "{message}");
        let wider = sizes_named(&message);
        assert!(
            wider.prefix >= kept.prefix && wider.window >= kept.window,
            "{message}"
        );
        // The sizes named are the least for that heap: a run keeping them
        // gets as far at least (its scan may want more pairs after them).
        match keeping(&code, heap as u64 + 1, wider, 1 << 12) {
            Ok(values) => assert!(values[..] == whole[..values.len()], "{message}"),
            Err((e, values)) => {
                assert!(values[..] == whole[..values.len()], "{message}; then: {e}");
                assert!(values.len() >= heap, "{message}; then: {e}");
            }
        }
    }
}

/// Every rare-value game of the published list of unsolved octal games to
/// 2^16, keeping 4,096 heaps of each kind in pieces of 4,096: each run's
/// values are the whole table's as far as it went, and a run that stopped
/// did so for a heap that needed more, said so.
#[test]
fn the_unsolved_list_to_2_16_keeping_a_prefix_and_a_window() {
    let kept = Kept {
        prefix: 4096,
        window: 4096,
    };
    let mut whole_runs = 0;
    for text in grundy::UNSOLVED {
        let code = Code::parse(text).unwrap();
        let Ok(mut run) = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default()) else {
            continue;
        };
        run.tuning = run.tuning.on_fake_clock();
        let n = 1 << 16;
        run.extend_on_cpu(n).unwrap();
        let whole = run.table.into_wide();
        match keeping(&code, n, kept, 4096) {
            Ok(values) => {
                assert!(values == whole, "{text}: the values differ");
                whole_runs += 1;
            }
            Err((message, values)) => {
                assert!(values[..] == whole[..values.len()], "{text}: {message}");
                assert!(message.contains("start again"), "{text}: {message}");
            }
        }
    }
    // (Each of them gave back the heaps from 4,096 to 2^16 − 4,096.)
    assert!(whole_runs >= 10, "{whole_runs} codes ran to 2^16");
}

/// The middle pairs (parts near half the heap, which spare `.1777` most of
/// its scans) are read only while the prefix holds them: past twice the
/// prefix no heap is settled by them, where a whole table settles most.
#[test]
fn the_middle_pairs_are_read_only_while_the_prefix_holds_them() {
    let code = Code::parse("0.1777").unwrap();
    let n = 1 << 17;
    let settled = |run: &SequenceRun| run.rare_counts().unwrap().settled_by_middle;
    // Blocks go in order by wasted passes alone, not by the clock: the
    // same schedule on a loaded machine (under load the clock's sent too
    // few of the whole run's blocks in order: 22 settled).
    let mut whole = SequenceRun::new(&code, Algorithm::Rare, HeapTable::default())
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    whole.tuning.in_order_timed = false;
    whole.extend_on_cpu(n).unwrap();
    let kept = Kept {
        prefix: 4096,
        window: 4096,
    };
    let mut run = SequenceRun::keeping(&code, kept, n)
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    run.tuning.in_order_timed = false;
    let mut out = Vec::new();
    for to in (4096..=n).step_by(4096) {
        run.extend_on_cpu(to).unwrap();
        out.extend(run.table.values(out.len(), run.table.len()));
        run.forget_past_window();
    }
    assert!(out == whole.table.clone().into_wide()[..out.len()]);
    assert!(settled(&whole) > n / 4, "{}", settled(&whole));
    // Before heaps were given back, and while the prefix held them.
    assert!(settled(&run) <= 4 * 4096, "{}", settled(&run));
}

/// Grundy's game's first 256 comes at heap 7,250,049, long after heaps
/// were given back: rare under the split chosen before it, its heap would
/// read every pair. With the mask's bits above the largest value set, it
/// is common, and the run keeping 2^20 heaps of each goes past it with the
/// whole table's values.
#[test]
fn a_new_largest_value_past_the_heaps_given_back_is_common() {
    let code = Code::parse("4!.0").unwrap();
    let n = 7_300_000;
    let kept = Kept {
        prefix: 1 << 20,
        window: 1 << 20,
    };
    let got = keeping(&code, n, kept, 1 << 20).unwrap_or_else(|(e, _)| panic!("{e}"));
    let whole = whole(&code, n);
    assert_eq!(whole[7_250_049], 256);
    assert!(got == whole, "the values differ");
}

/// Grundy's game and Officers from a prefix of 1,024 and of 4,096 heaps,
/// shorter than the longest block (8,192): a rare heap found inside a
/// block is read by the block's later heaps with partners as far below
/// them as the block is long, which would lie among the heaps given back
/// (blocks are capped by the prefix: `blocks::longest_window`, whose unit
/// test fails without the cap). Where a heap needs more, the run keeps the
/// least that would have held it (read back from the whole run, as the
/// command reads back from its `--out`) and goes on, giving heaps back
/// again. Every value is the whole table's; Grundy's game finds rare heaps
/// while heaps are given back (Officers' last, 20,627, comes before).
/// Under `--features verify` every read of a finish is checked outside
/// the heaps given back.
#[test]
fn a_prefix_shorter_than_a_block_reads_no_heap_it_gave_back() {
    let n = 1 << 18;
    for text in ["4!.0", "0.6"] {
        let code = Code::parse(text).unwrap();
        let whole = whole(&code, n);
        for prefix in [1024, 4096] {
            let (values, kept, late) = keeping_reading_back(&code, n, prefix, &whole);
            assert!(values == whole, "{text}, {kept:?}: the values differ");
            let rare_late = text == "4!.0";
            assert!(
                late > 0 || !rare_late,
                "{text}, {kept:?}: no rare heap past a gap"
            );
        }
    }
}

/// `keeping` from `prefix` and a window of 4,096 heaps, in pieces of 4,096:
/// a heap that needs more grows the sizes to the least that would have
/// held it, the heaps given back read from `whole`. With the values and
/// the sizes kept last, the rare heaps found in pieces that began with
/// heaps given back.
fn keeping_reading_back(
    code: &Code,
    n: u64,
    prefix: usize,
    whole: &[u16],
) -> (Vec<u16>, Kept, usize) {
    let mut kept = Kept {
        prefix,
        window: 4096,
    };
    let mut run = SequenceRun::keeping(code, kept, n)
        .unwrap()
        .tuned(Tuning::default().on_fake_clock());
    let (mut out, mut late) = (Vec::new(), 0);
    let rare = |run: &SequenceRun| run.rare_state().map_or(0, |state| state.rare.len());
    while (out.len() as u64) <= n {
        let len = run.table.len();
        let (gap_open, before) = (len > kept.prefix + kept.window, rare(&run));
        let extended = run.extend_on_cpu(n.min(len as u64 + 4095));
        out.extend(run.table.values(out.len(), run.table.len()));
        assert!(out[..] == whole[..out.len()], "{kept:?}: the values differ");
        late += gap_open as usize * (rare(&run) - before);
        if let Err(e) = extended {
            let least = run.would_do().unwrap_or_else(|| panic!("{}", e.message()));
            let grown = Kept {
                prefix: least.prefix.max(kept.prefix),
                window: least.window.max(kept.window),
            };
            assert!(grown != kept, "{kept:?}: {}", e.message());
            kept = grown;
            let read = |a: usize, b: usize| Ok(whole[a..b].to_vec());
            run.keep_more(kept, read).unwrap();
        }
        run.forget_past_window();
    }
    (out, kept, late)
}
