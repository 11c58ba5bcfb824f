//! Every subcommand run with hostile arguments: garbage codes and graph
//! specs, extreme and malformed numbers, odd files. A run may succeed or
//! refuse (exit 2), never panic (exit 101), die by a signal or hang.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The most CPU time a hostile run may use: every generator below is
/// bounded so that no case comes near it, on any machine. CPU time, not
/// wall time: a machine whose cores are busy with other jobs slows a run's
/// clock, not its work.
const CPU_LIMIT: Duration = Duration::from_secs(60);
/// A run that uses no CPU for this long has hung (a wait that never ends).
const WALL_LIMIT: Duration = Duration::from_secs(600);

/// Runs grundy with `args`; Err describes a panic, a signal or a hang.
fn survives(args: &[String]) -> Result<(), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        let cpu = cpu_time(child.id());
        if cpu > CPU_LIMIT || start.elapsed() > WALL_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{args:?} ran past {cpu:?} of CPU, {:?} in all",
                start.elapsed()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    match out.status.code() {
        Some(0..=2) => Ok(()),
        code => Err(format!(
            "{args:?} ended with {code:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        )),
    }
}

/// The CPU time process `pid` has used (user and system, every thread),
/// from /proc; zero where there is no /proc (then the wall limit alone).
fn cpu_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // Fields after the command name in parentheses: utime and stime are
    // the 14th and 15th fields of the line, in clock ticks (100 a second
    // on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse().ok())
        .collect();
    Duration::from_millis(fields.iter().sum::<u64>() * 10)
}

/// Sizes for the generators whose cost grows fast with the size (spider
/// tables, grid families): small, and the hostile spellings.
fn size() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u32..13).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["-1", "18446744073709551616", "4294967296", "", "3.5", "x"])
            .prop_map(String::from),
    ]
}

/// Numbers a user might mistype, and the edges of every integer type (not
/// 2^31 − 1: `-n 2147483647` is a valid request for hours of work).
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (0u32..30).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec![
            "-1", "18446744073709551615", "18446744073709551616", "4294967295",
            "4294967296", "2147483648", "65536", "1e30", "NaN", "inf",
            "", "3.5", "0x10", "٣", "99999999999999999999999999",
        ])
        .prop_map(String::from),
    ]
}

/// `number()` for a sequence's heaps, less the counts that are valid
/// requests for hours of work (2^31 to 2^40 − 1 heaps: rare values and a
/// period's fill reach them).
fn heaps() -> impl Strategy<Value = String> {
    number().prop_map(|n| match n.parse::<u64>() {
        Ok(h) if (1 << 31..1 << 40).contains(&h) => "1099511627776".into(),
        _ => n,
    })
}

/// Code-like garbage: digits, points, modifiers and brackets.
fn code() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9A-Za-z.!?=\\[\\]{},+ -]{0,14}",
        prop::sample::select(vec![
            "0.07", "4!.0", "0.[3]", "0.{2,3}", "0.33", "0.03", "4.0"
        ])
        .prop_map(String::from),
    ]
}

/// Graph specs: a family with hostile parameters, or raw garbage.
fn graph() -> impl Strategy<Value = String> {
    let family = prop::sample::select(vec![
        "path", "cycle", "wheel", "grid", "pode", "bipode", "tree", "graph6", "edges", "nope",
    ]);
    prop_oneof![
        (family.clone(), "[0-9x,/:-]{0,14}").prop_map(|(f, rest)| format!("{f}:{rest}")),
        (family, number()).prop_map(|(f, n)| format!("{f}:{n}")),
        "[ -~]{0,20}",
    ]
}

fn config() -> Config {
    Config {
        cases: 16,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x6772_756e_6479),
        ..Config::default()
    }
}

/// The parsers themselves, in process: many more cases per second than
/// spawning the binary. A panic fails the test.
fn parser_config() -> Config {
    Config {
        cases: 3000,
        ..config()
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sequences(code in code(), n in heaps(), every in number(), max in heaps()) {
        let ck = crate::common::tmp("hostile.ck");
        let ck = ck.to_str().unwrap();
        for args in [
            strings(&["octal", &code, "-n", &n, "--backend", "cpu", "-q"]),
            strings(&["octal", "0.07", "-n", &n, "--checkpoint-every", &every, "--checkpoint", ck, "-q"]),
            strings(&["octal", "0.16", "-n", &n, "--until-periodic", "--max-n", &max, "-q"]),
            strings(&["subtraction", &code, "-n", &n, "-q"]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }

    #[test]
    fn surveys(digits in number(), n in number(), lines in prop::collection::vec(code(), 0..4)) {
        let file = crate::common::tmp("hostile-codes.txt");
        std::fs::write(&file, lines.join("\n")).unwrap();
        for args in [
            strings(&["survey", "--digits", &digits, "-n", &n, "--backend", "cpu", "-q"]),
            strings(&["survey", "--codes", file.to_str().unwrap(), "-n", &n, "-q"]),
            strings(&["survey", "--digits", "1", "-n", "30", "--workgroup", &digits, "-q"]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }

    #[test]
    fn graphs(code in code(), spec in graph(), k in number(), l in number(), edges in "[0-9 #\n]{0,40}") {
        let file = crate::common::tmp("hostile-edges.txt");
        std::fs::write(&file, edges).unwrap();
        let from_file = format!("edges:{}", file.display());
        for args in [
            strings(&["graph", &code, "--graph", &spec, "--backend", "cpu", "-q"]),
            strings(&["graph", "0.33", "--graph", &from_file, "--backend", "cpu", "-q"]),
            strings(&["podes", &code, "--max-legs", &k, "--max-length", &l]),
            strings(&["bipodes", &code, "--middle", &k, "--max", &l]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }

    #[test]
    fn tables(max in number(), dims in number(), diff in number(), heaps in number(), k in number(),
              rule in prop::sample::select(vec!["single", "half", "kdelete", "grundy", "bogus"])) {
        for args in [
            strings(&["rect", "--max", &max, "--dims", &dims, "--min-diff", &diff, "--backend", "cpu", "-q"]),
            strings(&["delete-nim", "--rule", rule, "--heaps", &heaps, "--k", &k, "--max", &max, "--backend", "cpu", "-q"]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }

    #[test]
    fn edge_games(spec in graph(), state in "[0-9>,<-]{0,12}", legs in size(), ground in "[0-9,]{0,8}") {
        for args in [
            strings(&["arrows", "--graph", &spec, "--state", &state, "--backend", "cpu", "-q"]),
            strings(&["arrows", "--spiders", &legs, "--legs", &legs, "-q"]),
            strings(&["cycles", "--graph", &spec, "--state", &state, "--backend", "cpu", "-q"]),
            strings(&["hackenbush", "--graph", &spec, "--ground", &ground]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }

    #[test]
    fn play(code in code(), heaps in "[0-9,]{0,12}", spec in graph(), n in number()) {
        for args in [
            strings(&["play", "octal", &code, &heaps]),
            strings(&["play", "subtraction", &heaps, &n]),
            strings(&["play", "graph", &code, &spec]),
            strings(&["play", "arrows", &spec]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn research_workflows(
        heaps in "[0-9,x+]{0,12}",
        component in "[a-z0-9 .,:!-]{0,24}",
        shard in "[0-9/ -]{0,6}",
        lines in "[ -~\n]{0,40}",
        n in number(),
        k in size(),
        size in "[0-9xX]{0,9}",
    ) {
        let file = crate::common::tmp("hostile-graphs.txt");
        std::fs::write(&file, &lines).unwrap();
        let f = file.to_str().unwrap();
        let out = crate::common::tmp("hostile-out.csv");
        let o = out.to_str().unwrap();
        let png = crate::common::tmp("hostile.png").to_str().unwrap().to_string();
        for args in [
            strings(&["play", "rect", &heaps]),
            strings(&["play", "delete-nim", "--rule", "single", &heaps]),
            strings(&["play", "delete-nim", "--rule", "kdelete", "--k", &n, &heaps]),
            strings(&["play", "hackenbush", "--graph", &format!("path:{n}"), "--ground", &heaps]),
            strings(&["play", "cycles", "--graph", &component]),
            strings(&["play", "sum", &component, "octal 0.07 5", "--limit", &n]),
            strings(&["survey", "--digits", "1", "-n", "50", "--shard", &shard, "--out", o, "-q"]),
            strings(&["survey", "merge", o, f]),
            strings(&["graph", "0.33", "--graphs", f, "-q"]),
            strings(&["cycles", "--graphs", f, "-q"]),
            strings(&["arrows", "--graphs", &format!("spiders:{k}"), "-q"]),
            strings(&["graph", "0.03", "--graphs", &format!("grids:{k}"), "-q"]),
            strings(&["octal", "0.07", "-n", "20", "--plot", &png, "--size", &size, "--font-size", &n]),
            strings(&["octal", &component, "-n", "30", "--format", "cgsuite", "--out", "-"]),
        ] {
            prop_assert_eq!(survives(&args), Ok(()));
        }
    }
}

proptest! {
    #![proptest_config(parser_config())]

    #[test]
    fn code_parser(text in prop_oneof!["[0-9A-Za-z.!?=\\[\\]{},+ -]{0,24}", any::<String>()]) {
        let _ = grundy::game::Code::parse(&text);
        let _ = grundy::game::graph_code::GraphCode::parse(&text);
    }

    #[test]
    fn graph_parsers(spec in graph(), text in "[0-9 #\n,x]{0,60}", bytes in "[\\x3f-\\x7e]{0,24}") {
        let _ = grundy::game::graph::Graph::parse(&spec);
        let _ = grundy::game::graph::edge_list(&text);
        let _ = grundy::game::graph::graph6(&bytes);
        let _ = grundy::game::arrows::parse_faces(&text);
    }

    #[test]
    fn state_parser(spec in prop::sample::select(vec!["path:5", "pode:2,3,4", "cycle:6", "grid:2x3"]),
                    state in "[0-9>,< -]{0,16}") {
        let graph = grundy::game::graph::Graph::parse(spec).unwrap();
        let rule = grundy::game::arrows::ArrowRule::Arrows;
        let game = grundy::game::arrows::ArrowGame::new(&graph, rule, Vec::new());
        let _ = game.parse_state(&state);
    }
}
