//! The readers of what a user hands over, one function each, taking any
//! bytes: the fuzz targets (`fuzz/`, run with `cargo afl`) and the replay
//! of their corpora in the tests (`tests/suite/fuzz_corpora.rs`) call
//! these. Each must answer every input with a value or an error, never a
//! panic, a hang or an allocation the input's size does not justify.

use std::path::Path;

use grundy_core::game::{Code, graph::Graph, graph_code::GraphCode};

/// A reader of any bytes.
pub type Target = fn(&[u8]);

/// The readers by name, as the corpora's folders are named.
pub const TARGETS: [(&str, Target); 8] = [
    ("code", code),
    ("graph", graph),
    ("graph_code", graph_code),
    ("raw", raw),
    ("heap_checkpoint", heap_checkpoint),
    ("survey_checkpoint", survey_checkpoint),
    ("heaps", heaps),
    ("boxes", boxes),
];

fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok()
}

/// CGSuite's code notation (`0.07`, `4!.0`, `0.[3]`, `{2+}`).
pub fn code(bytes: &[u8]) {
    if let Some(t) = text(bytes) {
        let _ = Code::parse(t);
    }
}

/// `--graph`: families (`grid:3x5`), graph6, edge lists, sums.
pub fn graph(bytes: &[u8]) {
    if let Some(t) = text(bytes) {
        let _ = Graph::parse(t);
    }
}

/// The octal code of a game on a graph.
pub fn graph_code(bytes: &[u8]) {
    if let Some(t) = text(bytes) {
        let _ = GraphCode::parse(t);
    }
}

/// A raw table's header and values.
pub fn raw(bytes: &[u8]) {
    let _ = grundy_core::export::read_raw(bytes);
}

/// Writes `bytes` to a file of this process's own and hands its path on.
fn as_file(name: &str, bytes: &[u8], read: impl FnOnce(&Path)) {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let k = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("grundy-fuzz-{}-{k}-{name}", std::process::id()));
    if std::fs::write(&path, bytes).is_ok() {
        read(&path);
    }
    let _ = std::fs::remove_file(&path);
}

/// A sequence's checkpoint (`--resume`), read as Officers' (`0.6`).
pub fn heap_checkpoint(bytes: &[u8]) {
    let code = Code::parse("0.6").expect("Officers' code");
    as_file("ck", bytes, |path| {
        let _ = grundy_engine::heap::checkpoint::load(path, &code);
    });
}

/// A survey's checkpoint (`survey --resume`), read as the one-digit
/// survey's to 1000 heaps.
pub fn survey_checkpoint(bytes: &[u8]) {
    use grundy_engine::survey::checkpoint::{SurveyKey, load};
    let list: Vec<Code> = (0..8)
        .map(|d| Code::parse(&format!("0.{d}")).expect("a one-digit code"))
        .collect();
    let names: Vec<String> = list.iter().map(|c| c.name()).collect();
    let key = SurveyKey::of(&list, 1000, crate::Algorithm::Auto, None);
    as_file("survey.ck", bytes, |path| {
        let _ = load(path, &key, &names);
    });
}

/// The heaps of a position (`play octal 0.07 5,9`).
pub fn heaps(bytes: &[u8]) {
    if let Some(t) = text(bytes) {
        let _ = grundy_engine::play::parse_heaps(t);
    }
}

/// The boxes of a position of Grundy's game on rectangles (`3x5,2x7`).
pub fn boxes(bytes: &[u8]) {
    if let Some(t) = text(bytes) {
        let _ = grundy_engine::play::parse_boxes(t);
    }
}
