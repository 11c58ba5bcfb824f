//! Power cuts at every point of a real run, and failed writes. A run
//! records every create, write, sync, truncation, rename and removal of
//! the files it keeps (`GRUNDY_RECORD_WRITES`); the test then rebuilds
//! what the disk could hold had the power gone after each of them —
//! nothing that was not synced (a file's bytes by its own sync, a name by
//! its folder's), and once more with the last unsynced write torn at a
//! random byte — and resumes from it. Every resume gives the table of an
//! uninterrupted run or refuses the file by name; an output under its own
//! name is always whole; and heaps a checkpoint had synced are never lost
//! (the heaps resumed never go down from one point to the next).
//! `GRUNDY_FAIL_WRITE` then makes writes fail with ENOSPC and EIO.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{Rng, partials, tmp};

/// One operation of the record.
#[derive(Clone, Debug)]
enum Op {
    Open { id: u64, path: String, create: bool },
    Write { id: u64, at: u64, bytes: Vec<u8> },
    Sync { id: u64 },
    Truncate { id: u64, len: u64 },
    Rename { from: String, to: String },
    Remove { path: String },
    SyncDir { dir: String },
}

fn parse(record: &str) -> Vec<Op> {
    let hex = |h: &str| -> Vec<u8> {
        (0..h.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
            .collect()
    };
    record
        .lines()
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let id = || f[1].parse::<u64>().unwrap();
            match f[0] {
                "create" | "append" => Op::Open {
                    id: id(),
                    path: f[2].into(),
                    create: f[0] == "create",
                },
                "write" => Op::Write {
                    id: id(),
                    at: f[2].parse().unwrap(),
                    bytes: hex(f[3]),
                },
                "sync" => Op::Sync { id: id() },
                "truncate" => Op::Truncate {
                    id: id(),
                    len: f[2].parse().unwrap(),
                },
                "rename" => Op::Rename {
                    from: f[1].into(),
                    to: f[2].into(),
                },
                "remove" => Op::Remove { path: f[1].into() },
                "syncdir" => Op::SyncDir { dir: f[1].into() },
                other => panic!("an operation the record does not have: {other}"),
            }
        })
        .collect()
}

/// A file's bytes as written, and as synced.
#[derive(Clone, Default)]
struct Node {
    now: Vec<u8>,
    synced: Vec<u8>,
}

/// The disk as the run left it, and as a power cut would.
#[derive(Clone, Default)]
struct Disk {
    nodes: Vec<Node>,
    /// Open files' nodes, names' nodes now, and names' nodes as synced.
    open: HashMap<u64, usize>,
    names: HashMap<String, usize>,
    synced_names: HashMap<String, usize>,
}

fn folder_of(path: &str) -> &str {
    Path::new(path).parent().unwrap().to_str().unwrap()
}

impl Disk {
    fn apply(&mut self, op: &Op) {
        match op {
            Op::Open { id, path, create } => {
                let node = match (self.names.get(path), create) {
                    (Some(&node), _) => node,
                    (None, _) => {
                        self.nodes.push(Node::default());
                        self.names.insert(path.clone(), self.nodes.len() - 1);
                        self.nodes.len() - 1
                    }
                };
                if *create {
                    self.nodes[node].now.clear();
                }
                self.open.insert(*id, node);
            }
            Op::Write { id, at, bytes } => {
                let now = &mut self.nodes[self.open[id]].now;
                let end = *at as usize + bytes.len();
                if now.len() < end {
                    now.resize(end, 0);
                }
                now[*at as usize..end].copy_from_slice(bytes);
            }
            Op::Sync { id } => {
                let node = &mut self.nodes[self.open[id]];
                node.synced = node.now.clone();
            }
            Op::Truncate { id, len } => self.nodes[self.open[id]].now.truncate(*len as usize),
            Op::Rename { from, to } => {
                let node = self.names.remove(from).unwrap();
                self.names.insert(to.clone(), node);
            }
            Op::Remove { path } => {
                self.names.remove(path);
            }
            Op::SyncDir { dir } => {
                self.synced_names.retain(|name, _| folder_of(name) != dir);
                for (name, &node) in &self.names {
                    if folder_of(name) == dir {
                        self.synced_names.insert(name.clone(), node);
                    }
                }
            }
        }
    }

    /// What the disk holds after a power cut now: synced names and bytes;
    /// with `torn`, the last write (if not synced) is there up to a cut.
    fn after_cut(&self, torn: Option<(&Op, usize)>) -> HashMap<String, Vec<u8>> {
        let mut files: HashMap<String, Vec<u8>> = HashMap::new();
        for (name, &node) in &self.synced_names {
            let mut bytes = self.nodes[node].synced.clone();
            if let Some((
                Op::Write {
                    id,
                    at,
                    bytes: written,
                },
                keep,
            )) = torn
                && self.open.get(id) == Some(&node)
            {
                let end = *at as usize + keep;
                if bytes.len() < end {
                    bytes.resize(end, 0);
                }
                bytes[*at as usize..end].copy_from_slice(&written[..keep]);
            }
            files.insert(name.clone(), bytes);
        }
        files
    }
}

/// Runs `grundy args` in `dir`, with `env`.
fn run_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A run whose table the resumes must give: its arguments (writing `out`
/// and checkpointing to `ck` in the folder it runs in) and how to resume.
struct Run {
    name: &'static str,
    args: Vec<&'static str>,
    resume: Vec<&'static str>,
    out: &'static str,
}

/// Records `run` in a fresh folder; returns the record, the folder and
/// the uninterrupted table.
fn record(run: &Run) -> (Vec<Op>, PathBuf, Vec<u8>) {
    let dir = tmp(&format!("crash-{}", run.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("run")).unwrap();
    let log = dir.join("record");
    let done = run_in(
        &dir.join("run"),
        &run.args,
        &[("GRUNDY_RECORD_WRITES", log.to_str().unwrap())],
    );
    assert!(done.status.success(), "{}", stderr(&done));
    let table = std::fs::read(dir.join("run").join(run.out)).unwrap();
    (parse(&std::fs::read_to_string(log).unwrap()), dir, table)
}

/// Puts `files` (named under `from`) into a fresh folder `to`.
fn materialise(files: &HashMap<String, Vec<u8>>, from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for (name, bytes) in files {
        let within = Path::new(name).strip_prefix(from).unwrap();
        std::fs::write(to.join(within), bytes).unwrap();
    }
}

/// Resumes from the cut state in `at`: the heaps (or rows) resumed, or
/// `None` where there was nothing to resume from or the file was refused
/// by name. Panics on a wrong table or an output that is not whole.
fn resume_after_cut(run: &Run, at: &Path, table: &[u8], what: &str) -> Option<u64> {
    if let Ok(whole) = std::fs::read(at.join(run.out)) {
        assert!(whole == table, "{what}: {} is there but not whole", run.out);
        return Some(u64::MAX);
    }
    if !at.join("ck").exists() {
        return None;
    }
    let out = run_in(at, &[&run.resume[..], &["--json"]].concat(), &[]);
    if out.status.code() == Some(2) {
        assert!(
            stderr(&out).contains("ck"),
            "{what}: refused without naming the file: {}",
            stderr(&out)
        );
        return None;
    }
    assert!(out.status.success(), "{what}: {}", stderr(&out));
    let resumed = std::fs::read(at.join(run.out)).unwrap();
    assert!(resumed == table, "{what}: the resumed table differs");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let resumed = ["resumed_heaps", "resumed_codes"].map(|key| summary[key].as_u64());
    Some(resumed.into_iter().flatten().next().unwrap_or(0))
}

/// Every cut of `run`'s record, plain and torn; returns the cuts tried.
/// Once the checkpoint under its own name has been synced (the run said
/// it saved), every later cut must resume from it or find the output whole.
fn every_cut(run: &Run) -> usize {
    let (ops, dir, table) = record(run);
    let (from, at) = (dir.join("run"), dir.join("cut"));
    let ck = from.join("ck").display().to_string();
    let mut rng = Rng(0x5eed_c0de);
    let mut disk = Disk::default();
    let (mut tried, mut best, mut saved, mut whole) = (0, 0, false, false);
    // Cut after every operation when the record is short, else at the
    // boundaries (before and after each operation that is not a write).
    let every = ops.len() <= 200;
    for (k, op) in ops.iter().enumerate() {
        let next_is_write = matches!(ops.get(k + 1), Some(Op::Write { .. }));
        let boundary = every || !next_is_write || !matches!(op, Op::Write { .. });
        disk.apply(op);
        if let Op::Sync { id } = op {
            saved |= disk.names.contains_key(&ck) && disk.names.get(&ck) == disk.open.get(id);
        }
        if !boundary {
            continue;
        }
        let torn = match op {
            Op::Write { bytes, .. } => Some((op, rng.below(bytes.len() as u64) as usize)),
            _ => None,
        };
        for (kind, torn) in [(0, None), (1, torn)] {
            if kind == 1 && torn.is_none() {
                continue;
            }
            let what = format!(
                "{}: a cut after operation {k} ({}){}",
                run.name,
                format!("{op:?}").chars().take(80).collect::<String>(),
                if kind == 1 { ", torn" } else { "" }
            );
            materialise(&disk.after_cut(torn), &from, &at);
            let resumed = resume_after_cut(run, &at, &table, &what);
            if kind == 0 {
                let heaps = resumed.unwrap_or(0);
                assert!(
                    heaps >= best,
                    "{what}: resumed {heaps} after {best} at an earlier cut"
                );
                assert!(!saved || heaps > 0, "{what}: the saved checkpoint is lost");
                whole |= heaps == u64::MAX;
                best = heaps;
            }
            tried += 1;
        }
    }
    assert!(
        saved && whole,
        "{}: the record saved a checkpoint and wrote the output",
        run.name
    );
    tried
}

/// A run of `job` (its command and sizes) that checkpoints to `ck`
/// (every `every` seconds, if given) and writes `out`.
fn run_of(
    name: &'static str,
    job: &[&'static str],
    every: Option<&'static str>,
    out: &'static str,
) -> Run {
    let common = [job, &["--backend", "cpu", "-q", "--out", out]].concat();
    let every = every.map_or(vec![], |s| vec!["--checkpoint-every", s]);
    Run {
        name,
        args: [&common[..], &["--checkpoint", "ck"], &every[..]].concat(),
        resume: [&common[..], &["--resume", "ck"]].concat(),
        out,
    }
}

fn sequence_run() -> Run {
    let job = ["octal", "4!.0", "-n", "300000"];
    run_of("sequence", &job, Some("0.05"), "t.csv")
}

fn survey_run() -> Run {
    let job = ["survey", "--prefix", "0", "--digits", "2", "-n", "4000"];
    run_of("survey", &job, None, "s.csv")
}

#[test]
fn a_power_cut_at_any_point_of_a_sequence_run_loses_nothing_synced() {
    let tried = every_cut(&sequence_run());
    assert!(tried >= 10, "{tried} cuts");
}

#[test]
fn a_power_cut_at_any_point_of_a_survey_loses_nothing_synced() {
    let tried = every_cut(&survey_run());
    assert!(tried >= 60, "{tried} cuts");
}

/// A write that fails (a full disk, a failing disk) at any point ends the
/// run with status 1 naming the file, leaves no partial file, and leaves
/// the last checkpoint whole: resuming from it gives the table. Every write
/// of a short sequence run and of a survey of eight codes fails in turn.
#[test]
fn a_failed_write_anywhere_ends_the_run_cleanly() {
    let short = ["octal", "4!.0", "-n", "60000"];
    let small_survey = ["survey", "--prefix", "0", "--digits", "1", "-n", "4000"];
    for run in [
        run_of("sequence", &short, Some("0.01"), "t.csv"),
        run_of("survey", &small_survey, None, "s.csv"),
    ] {
        let (ops, dir, table) = record(&run);
        let writes = ops
            .iter()
            .filter(|op| matches!(op, Op::Write { .. }))
            .count();
        // the checkpoint's pieces, its head and the output's writes (70 and
        // 10 when this was written)
        assert!(writes >= 8, "{}: only {writes} writes", run.name);
        let at = dir.join("fail");
        let mut never_reached = 0;
        for (i, k) in (0..writes).enumerate() {
            let error = ["ENOSPC", "EIO"][i % 2];
            let _ = std::fs::remove_dir_all(&at);
            std::fs::create_dir_all(&at).unwrap();
            let fail = format!("{k}:{error}");
            let log = dir.join("fail-record");
            let _ = std::fs::remove_file(&log);
            let env = [
                ("GRUNDY_FAIL_WRITE", fail.as_str()),
                ("GRUNDY_RECORD_WRITES", log.to_str().unwrap()),
            ];
            let out = run_in(&at, &run.args, &env);
            let what = format!("{}: write {k} failing with {error}", run.name);
            if out.status.success() {
                // Checkpoints every 0.01 s: this run saved fewer times than
                // the recorded one, and never made a K-th write to fail.
                let made = parse(&std::fs::read_to_string(&log).unwrap_or_default())
                    .iter()
                    .filter(|op| matches!(op, Op::Write { .. }))
                    .count();
                assert!(made <= k, "{what}: {made} writes, and it succeeded");
                never_reached += 1;
                continue;
            }
            assert_eq!(out.status.code(), Some(1), "{what}: {}", stderr(&out));
            let said = stderr(&out);
            assert!(
                said.contains(run.out) || said.contains("ck"),
                "{what}: {said}"
            );
            assert!(partials(&at).is_empty(), "{what}: {:?}", partials(&at));
            assert!(
                !at.join(run.out).exists(),
                "{what}: an output under its name"
            );
            if at.join("ck").exists() {
                let resumed = run_in(&at, &run.resume, &[]);
                assert!(
                    resumed.status.success(),
                    "{what}: resume: {}",
                    stderr(&resumed)
                );
                assert!(
                    std::fs::read(at.join(run.out)).unwrap() == table,
                    "{what}: resumed table"
                );
            }
        }
        assert!(
            never_reached * 4 <= writes,
            "{}: {never_reached} of {writes} writes never came",
            run.name
        );
    }
}
