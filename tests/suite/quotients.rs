//! Misère quotients (`grundy quotient`, `grundy::quotient`) against what
//! shares nothing with them: the outcomes of sums of heaps searched whole
//! (`analysis::whole_sum`), and the quotients the papers print.

use crate::common::{grundy, grundy_stdout as stdout, json};
use grundy::analysis::genus::HeapsAndNimHeaps;
use grundy::analysis::whole_sum::SumSearch;
use grundy::game::{Code, Convention};
use grundy::quotient::{Method, MisereQuotient, Named};

/// A sum of heaps as the parts `HeapsAndNimHeaps` reads.
fn heap_parts(sum: &[u16]) -> Vec<u32> {
    sum.iter()
        .map(|&h| HeapsAndNimHeaps::heap(h.into()))
        .collect()
}

/// Every multiset of at most `k` heaps from 1..=h, the empty one first.
fn sums_up_to(h: u16, k: usize) -> Vec<Vec<u16>> {
    let mut all = vec![Vec::new()];
    let mut layer: Vec<Vec<u16>> = vec![Vec::new()];
    for _ in 0..k {
        let mut next = Vec::new();
        for sum in &layer {
            for top in sum.last().copied().unwrap_or(1)..=h {
                next.push([sum.as_slice(), &[top]].concat());
            }
        }
        all.extend(next.iter().cloned());
        layer = next;
    }
    all
}

/// For random two- and three-digit codes, the quotient of heaps up to 12
/// gives every sum of up to six heaps of up to 5, and of up to three heaps
/// of up to 12, its outcome.
#[test]
fn random_codes_quotients_give_every_small_sum_its_outcome() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    let mut checked = 0;
    for round in 0..8 {
        let digits = 2 + round % 2;
        let text: String = "0."
            .chars()
            .chain((0..digits).map(|_| char::from(b'0' + next(8) as u8)))
            .collect();
        // A code whose quotient passes 64 MiB is left for the benchmarks.
        let run = MisereQuotient::of(&text)
            .unwrap()
            .max_heap(12)
            .memory(64 << 20)
            .run();
        let Ok(q) = run else { continue };
        checked += 1;
        let stop = || false;
        let code = Code::parse(&text).unwrap();
        let mut search = SumSearch::new(
            HeapsAndNimHeaps::new(&code),
            Convention::Misere,
            1 << 26,
            &stop,
        );
        // Six heaps of up to 12 take minutes to search whole: six of up to
        // 5, and three of up to 12.
        for sum in sums_up_to(5, 6).into_iter().chain(sums_up_to(12, 3)) {
            let parts = heap_parts(&sum);
            let p = search.value(&parts).unwrap() == 0;
            assert_eq!(q.is_p(&sum), p, "{text}: {sum:?}");
        }
    }
    assert!(checked >= 5, "only {checked} of 8 codes' quotients fit");
}

/// The learned quotient is the one the box of heap counts gives, heap
/// size by heap size, on codes the papers treat.
#[test]
fn learned_and_exact_quotients_agree() {
    for text in ["0.75", "0.07", "0.77", "0.137", "0.[3]", "4.7"] {
        let run = |m| {
            MisereQuotient::of(text)
                .unwrap()
                .max_heap(6)
                .method(m)
                .run()
                .unwrap()
        };
        let (learned, exact) = (run(Method::Learn), run(Method::Exact));
        assert_eq!(learned.orders, exact.orders, "{text}");
        assert!(learned.monoid.same_as(&exact.monoid), "{text}");
    }
}

/// Plambeck and Siegel's quotients: misère Nim's tame T2, and 0.75's R8
/// with the pretending function 1 a b a b c b c b ab² b ab² … (period 2).
#[test]
fn the_papers_quotients_are_reproduced() {
    let nim = MisereQuotient::of("0.[3]")
        .unwrap()
        .max_heap(3)
        .run()
        .unwrap();
    assert_eq!(
        (nim.order(), nim.p_portion_names()),
        (6, vec!["a".into(), "b^2".into()])
    );
    let r8 = MisereQuotient::of("0.75")
        .unwrap()
        .max_heap(40)
        .run()
        .unwrap();
    assert_eq!(r8.order(), 8);
    let names = r8.pretending_names();
    assert_eq!(
        names[..10],
        ["1", "a", "b", "a", "b", "c", "b", "c", "b", "ab^2"]
    );
    for (h, name) in names.iter().enumerate().skip(10) {
        assert_eq!(name, if h % 2 == 0 { "b" } else { "ab^2" }, "heap {h}");
    }
}

/// Plambeck and Siegel's supplement to "Misère quotients for impartial
/// games" lists wild games solved with simple quotients and the period of
/// each pretending function; the periodicity theorem proves each period.
#[test]
fn the_supplements_periods_are_reproduced() {
    let printed = [
        ("0.34", 8),
        ("0.3101", 2),
        ("0.3131", 2),
        ("0.1023", 7),
        ("0.1032", 7),
        ("0.1033", 7),
        ("0.1331", 5),
        ("0.3103", 5),
        ("0.3112", 5),
        ("0.1323", 6),
    ];
    for (text, period) in printed {
        let q = MisereQuotient::of(text)
            .unwrap()
            .max_heap(400)
            .until_solved(true)
            .run()
            .unwrap();
        let solved = q.period.unwrap_or_else(|| panic!("{text}: not solved"));
        assert_eq!(solved.period, period, "{text}");
    }
}

#[test]
fn the_command_prints_the_presentation_and_json() {
    let text = stdout(&["quotient", "0.75", "--max-heap", "12"]);
    assert!(
        text.contains("relations   a^2 = 1, bc = ab, c^2 = b^2, b^3 = b"),
        "{text}"
    );
    assert!(text.contains("P-portion   a, b^2"), "{text}");
    assert!(
        text.contains("grew at     heap 1 (2), heap 2 (6), heap 5 (8)"),
        "{text}"
    );
    let v = json(&grundy(&["quotient", "0.07", "-H", "12", "--json"]));
    assert_eq!(
        (v["order"].as_u64(), v["convention"].as_str()),
        (Some(12), Some("misere"))
    );
    assert_eq!(v["pretending"].as_array().unwrap().len(), 13);
    assert!(v["solved"].is_null(), "{v}");
    // Solved: 0.75's pretending function has period 2 from heap 8, proved
    // from the heaps up to 2·8 + 2·2 + 2 − 1 = 21, where the run stops.
    let v = json(&grundy(&[
        "quotient",
        "0.75",
        "-H",
        "300",
        "--until-solved",
        "--json",
    ]));
    assert_eq!(v["max_heap"].as_u64(), Some(21), "{v}");
    let solved = &v["solved"];
    assert_eq!(
        [&solved["start"], &solved["period"], &solved["checked_to"]].map(|x| x.as_u64()),
        [Some(8), Some(2), Some(21)]
    );
    let text = stdout(&["quotient", "0.[3]", "-H", "5"]);
    assert!(
        text.contains("the periodicity theorem does not apply"),
        "{text}"
    );
    let tex = stdout(&["quotient", "0.[3]", "-H", "3", "--latex"]);
    assert!(
        tex.contains(r"\langle a, b \mid a^{2} = 1,\ b^{3} = b \rangle"),
        "{tex}"
    );
    for bad in [
        &["quotient", "zero", "-H", "3"][..],
        &["quotient", "0.07", "-H", "0"],
    ] {
        assert_eq!(grundy(bad).status.code(), Some(2), "{bad:?}");
    }
}

/// `play octal --misere` reads the quotient: instant on two hundred heaps,
/// and on sums of up to four heaps of random codes it agrees with a
/// search over the whole sum.
#[test]
fn misere_play_reads_the_quotient() {
    let heaps: Vec<String> = (0..200).map(|i| (i % 16 + 1).to_string()).collect();
    let v = json(&grundy(&[
        "play",
        "octal",
        "0.75",
        &heaps.join(","),
        "--misere",
        "--json",
    ]));
    assert!(v["notes"].to_string().contains("misère quotient"), "{v}");
    let stop = || false;
    for text in ["0.75", "0.137", "0.35"] {
        let code = Code::parse(text).unwrap();
        let mut search = SumSearch::new(
            HeapsAndNimHeaps::new(&code),
            Convention::Misere,
            1 << 24,
            &stop,
        );
        for sum in sums_up_to(9, 3).into_iter().skip(1) {
            let parts = heap_parts(&sum);
            let listed: Vec<String> = sum.iter().map(u16::to_string).collect();
            let v = json(&grundy(&[
                "play",
                "octal",
                text,
                &listed.join(","),
                "--misere",
                "--json",
            ]));
            let p = search.value(&parts).unwrap() == 0;
            assert_eq!(v["outcome"], if p { "P" } else { "N" }, "{text} {sum:?}");
        }
    }
}

/// `survey --misere` over the one-digit codes: each row's quotient is the
/// one `grundy quotient --until-solved` computes, its genus period the one
/// `octal --misere` certifies, and the codes that split are named; the
/// normal survey's flags that do not apply are refused.
#[test]
fn the_misere_survey_agrees_with_quotient_and_octal() {
    let args = [
        "survey", "--misere", "--digits", "1", "-n", "500", "-H", "10",
    ];
    let csv = stdout(&[&args[..], &["--seconds", "600", "--out", "-", "-q"]].concat());
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("code,splits,heaps,order,growth,solved_period")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 8, "{csv}");
    for row in &rows {
        let code = row[0];
        let q = json(&grundy(&[
            "quotient",
            code,
            "-H",
            "10",
            "--until-solved",
            "--json",
        ]));
        assert_eq!(row[2], q["max_heap"].to_string(), "{code}");
        assert_eq!(row[3], q["order"].to_string(), "{code}");
        assert_eq!(
            row[5],
            q["solved"]["period"]
                .as_u64()
                .map_or(String::new(), |p| p.to_string())
        );
        let splits = code.chars().skip(2).any(|d| d > '3');
        assert_eq!(row[1], splits.to_string(), "{code}");
        if !splits && code != "0.0" {
            let m = json(&grundy(&["octal", code, "-n", "500", "--misere", "--json"]));
            assert_eq!(row[9], m["period"]["period"].to_string(), "{code}");
            assert_eq!(row[10], m["period"]["start"].to_string(), "{code}");
        }
    }
    // 0.3, misère Nim with heaps of 1 only: solved with period 2 from 1.
    assert_eq!(
        rows[3][..9],
        ["0.3", "false", "6", "2", "1:2", "2", "1", "6", ""]
    );
    for bad in [
        &[
            "survey", "--misere", "--digits", "1", "-n", "9", "--shard", "0/2",
        ][..],
        &["survey", "--digits", "1", "-n", "9", "--max-heap", "5"],
        &[
            "survey",
            "--misere",
            "--digits",
            "1",
            "-n",
            "9",
            "--seconds",
            "0",
        ],
    ] {
        assert_eq!(grundy(bad).status.code(), Some(2), "{bad:?}");
    }
}

/// `grundy hunt --misere` keeps each code's quotient in its folder: a hunt
/// to heap 10 then one to heap 30 goes on from heap 10 and ends with the
/// quotient a straight `grundy quotient` run gives; a solved code is not
/// run again; a kept quotient edited to give a sum a wrong outcome (its
/// checksum made to match) is refused with status 2, naming the file.
#[test]
fn a_misere_hunt_goes_on_from_what_it_kept_and_refuses_a_wrong_quotient() {
    let dir = crate::common::tmp("misere-hunt");
    let dir_text = dir.to_str().unwrap();
    let hunt = |heaps: &str| {
        json(&grundy(&[
            "hunt", "--misere", "0.[3]", "0.75", "--budget", "600", "--dir", dir_text, "-H", heaps,
            "--json",
        ]))
    };
    let first = hunt("10");
    assert_eq!(first["rows"][0]["heaps"], 10, "{first}");
    assert_eq!(first["rows"][0]["end"], "max-heap", "{first}");
    let second = hunt("30");
    let (nim, r8) = (&second["rows"][0], &second["rows"][1]);
    assert_eq!(
        (nim["resumed_from"].as_u64(), nim["heaps"].as_u64()),
        (Some(10), Some(30))
    );
    let straight = json(&grundy(&["quotient", "0.[3]", "-H", "30", "--json"]));
    assert_eq!(nim["order"], straight["order"], "{second}");
    assert_eq!(r8["end"], "solved", "{second}");
    assert_eq!(r8["order"], 8, "{second}");
    let third = hunt("30");
    assert_eq!(
        third["rows"][1]["seconds"], r8["seconds"],
        "a solved code runs no more"
    );
    // The last element's outcome flipped, the checksum recomputed.
    let path = dir.join("0.75.misere");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut kept: serde_json::Value = serde_json::from_str(&text[9..]).unwrap();
    // `kept` written back with a matching checksum; the hunt's message.
    let refused = |kept: &serde_json::Value| {
        let payload = kept.to_string();
        let line = format!(
            "{:08x} {payload}\n",
            crate::common::crc32(payload.as_bytes())
        );
        std::fs::write(&path, line).unwrap();
        let out = grundy(&[
            "hunt", "--misere", "0.75", "--budget", "600", "--dir", dir_text,
        ]);
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let last = kept["p"].as_array().unwrap().len() - 1;
    let flip = |kept: &mut serde_json::Value| {
        kept["p"][last] = serde_json::Value::Bool(!kept["p"][last].as_bool().unwrap());
    };
    flip(&mut kept);
    let err = refused(&kept);
    assert!(
        err.contains("0.75.misere") && err.contains("wrong outcome"),
        "{err}"
    );
    // Seconds no run could have spent, the outcome put back: refused
    // before anything runs.
    flip(&mut kept);
    kept["seconds"] = serde_json::json!(-1.0);
    let err = refused(&kept);
    assert!(err.contains("not well formed"), "{err}");
}
