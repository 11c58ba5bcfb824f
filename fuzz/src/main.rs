//! One fuzz target a run, named by `GRUNDY_FUZZ_TARGET` (a name of
//! `grundy::fuzz::TARGETS`): `cargo afl build --release`, then
//! `GRUNDY_FUZZ_TARGET=code cargo afl fuzz -i corpus/code -o out/code target/release/grundy-fuzz`.

fn main() {
    let name = std::env::var("GRUNDY_FUZZ_TARGET").unwrap_or_default();
    let Some(&(_, target)) = grundy::fuzz::TARGETS.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = grundy::fuzz::TARGETS.iter().map(|(n, _)| *n).collect();
        eprintln!("GRUNDY_FUZZ_TARGET: expected one of {}", names.join(", "));
        std::process::exit(2);
    };
    afl::fuzz!(|data: &[u8]| {
        target(data);
    });
}
