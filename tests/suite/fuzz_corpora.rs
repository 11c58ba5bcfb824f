//! The fuzz targets' corpora replayed (`fuzz/corpus/TARGET`: real inputs,
//! and what fuzzing found that reached new code; `fuzz/found/TARGET`: the
//! inputs that once failed, kept as regressions), each through its reader
//! (`grundy::fuzz`): none may panic. Fuzzing itself runs by hand
//! (docs/fuzzing.md); this runs in every `cargo test`.

use std::path::Path;

#[test]
fn every_fuzz_corpus_replays_without_a_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    for (name, target) in grundy::fuzz::TARGETS {
        let mut replayed = 0;
        for folder in ["corpus", "found"] {
            let Ok(entries) = std::fs::read_dir(root.join(folder).join(name)) else {
                continue;
            };
            for entry in entries.filter_map(|e| e.ok()) {
                let bytes = std::fs::read(entry.path()).unwrap();
                let ran = std::panic::catch_unwind(|| target(&bytes));
                assert!(ran.is_ok(), "{name}: {} panicked", entry.path().display());
                replayed += 1;
            }
        }
        assert!(replayed > 0, "{name}: no corpus to replay");
    }
}
