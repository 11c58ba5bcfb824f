//! The survey kernel (`shaders/survey_block.wgsl`) and its CPU twin: the
//! twin's tables equal the general engine's for every code it runs, by
//! brute force and in rare mode (with lists that run full too), the GPU
//! equals the twin, and a GPU survey writes the same rows as the CPU survey.

use crate::common::{Rng, gpu_or_skip};
use grundy::game::Code;
use grundy::internals::engine::Backend;
use grundy::internals::engine::heap::sequence::Algorithm;
use grundy::internals::engine::survey::{all_codes, survey_rows, survey_rows_gpu};
use grundy::internals::gpu::survey::GpuSurvey;
use grundy::internals::kernel::survey::survey_block::survey_block;
use grundy::internals::kernel::survey::{
    MODE_RARE, STATE_WORDS, SURVEY_BLOCK, SurveyKernel, SurveyMode, choose_mode, runs_on_kernel,
};

/// Random codes the kernel runs: prefix 0 or 4, one to five octal digits.
fn random_codes(rng: &mut Rng, count: usize) -> Vec<Code> {
    (0..count)
        .map(|_| {
            let mut text = String::from(["0.", "4."][rng.below(2) as usize]);
            for _ in 0..1 + rng.below(5) {
                text.push(char::from(b'0' + rng.below(8) as u8));
            }
            Code::parse(&text).unwrap()
        })
        .collect()
}

/// The twin's buffers: state, tables and rare lists.
struct Twin {
    state: Vec<u32>,
    table: Vec<u32>,
    rare: Vec<u32>,
}

impl Twin {
    fn new(kern: &SurveyKernel) -> Twin {
        Twin {
            state: kern.fresh_state(),
            table: vec![0u32; kern.codes * kern.stride],
            rare: vec![0u32; kern.codes * kern.rare_cap],
        }
    }

    /// Runs every code to `n` heaps, `block` heaps per call, as the GPU would.
    fn run_to(&mut self, kern: &SurveyKernel, n: u32, block: u32) {
        for st in self.state.chunks_mut(STATE_WORDS) {
            st[2] = n + 1;
        }
        let done = self.state[0];
        for _ in 0..(n + 1 - done).div_ceil(block) {
            survey_block(
                kern,
                block,
                &mut self.state,
                &mut self.table,
                &mut self.rare,
            );
        }
    }

    /// Puts code `i` in `mode`, as the survey does between rounds.
    fn set_mode(&mut self, kern: &SurveyKernel, i: usize, mode: &SurveyMode) {
        kern.set_mode(&mut self.state, i, mode);
        if let SurveyMode::Rare { positions, .. } = mode {
            self.rare[kern.rare_list_at(i)..][..positions.len()].copy_from_slice(positions);
        }
    }
}

/// Runs the twin to `n` heaps, `block` heaps per call, by brute force.
fn twin_tables(kern: &SurveyKernel, n: u32, block: u32) -> (Vec<u32>, Vec<u32>) {
    let mut twin = Twin::new(kern);
    twin.run_to(kern, n, block);
    (twin.state, twin.table)
}

/// G(0..=n) of every code by the general engine.
fn general(codes: &[Code], n: u32) -> Vec<Vec<u16>> {
    codes
        .iter()
        .map(|code| {
            grundy::internals::engine::heap::brute::general::sequence(
                code,
                n as u64,
                &grundy::hooks::Silent,
            )
            .unwrap()
        })
        .collect()
}

/// Codes that split heaps: sparse ones (Officers, .16, .56, .106 by its
/// position parity, Grundy's game needs three heaps and is not here) and
/// dense ones (.007, .06), with and without taking first.
const SPLITTING: [&str; 10] = [
    "0.6", "0.16", "0.56", "0.106", "0.127", "0.165", "0.007", "0.06", "4.07", "0.1777",
];

#[test]
fn the_twin_equals_the_general_engine() {
    let mut rng = Rng(0x5eed_0001);
    let codes = random_codes(&mut rng, 30);
    let refs: Vec<&Code> = codes.iter().collect();
    assert!(refs.iter().all(|c| runs_on_kernel(c)));
    let n = 3000;
    let kern = SurveyKernel::new(&refs, n as u64, 1);
    let want = general(&codes, n);
    for block in [SURVEY_BLOCK, 77] {
        let (state, table) = twin_tables(&kern, n, block);
        for (i, code) in codes.iter().enumerate() {
            assert_eq!(state[i * STATE_WORDS], n + 1);
            let got = kern.values(&table, i, n as usize + 1);
            assert_eq!(got, want[i], "{} (block {block})", code.text);
        }
    }
}

#[test]
fn the_kernel_refuses_what_it_cannot_run() {
    for text in ["0.6!", "0.[3]", "0.8", "4!.0", "0.{2+}"] {
        assert!(!runs_on_kernel(&Code::parse(text).unwrap()), "{text}");
    }
    assert!(!runs_on_kernel(
        &Code::parse("4.0").unwrap().with_min_diff(2)
    ));
    for text in ["0.137", "4.07", "0.6", "0.16"] {
        assert!(runs_on_kernel(&Code::parse(text).unwrap()), "{text}");
    }
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_survey_kernel_equals_its_twin() {
    let Some(Backend::Gpu(ctx)) = gpu_or_skip("gpu_survey_kernel_equals_its_twin") else {
        return;
    };
    // 64 threads per code (llvmpipe's default) and a count that is not a
    // power of two: the scans run different lengths, the tables agree.
    for workgroup in [64, 200] {
        let mut rng = Rng(0x5eed_0002);
        let mut codes = random_codes(&mut rng, 12);
        codes.extend(SPLITTING.map(|t| Code::parse(t).unwrap()));
        let refs: Vec<&Code> = codes.iter().collect();
        let n = 6000u32;
        // a short list, so that some codes run it full and go back to brute force
        let kern = SurveyKernel::new(&refs, n as u64, 300);
        let mut twin = Twin::new(&kern);
        let mut gpu = GpuSurvey::new(&ctx, &kern, workgroup).unwrap();
        // two rounds, as the survey runs them: brute force, then rare mode
        // where the first round's table is sparse
        twin.run_to(&kern, 2499, SURVEY_BLOCK);
        gpu.run_to(&vec![2500; codes.len()]).unwrap();
        let tables = gpu.tables().unwrap();
        let mut rare_codes = 0;
        for (i, code) in codes.iter().enumerate() {
            let values = kern.values(&tables, i, 2500);
            assert_eq!(
                values,
                kern.values(&twin.table, i, 2500),
                "{} with {workgroup} threads",
                code.text
            );
            let mode = choose_mode(code, &values, kern.rare_cap, false);
            rare_codes += matches!(mode, SurveyMode::Rare { .. }) as usize;
            twin.set_mode(&kern, i, &mode);
            gpu.set_mode(i, &mode);
        }
        assert!(rare_codes >= 6, "{rare_codes} codes in rare mode");
        twin.run_to(&kern, n, SURVEY_BLOCK);
        gpu.run_to(&vec![n + 1; codes.len()]).unwrap();
        let tables = gpu.tables().unwrap();
        for (i, code) in codes.iter().enumerate() {
            assert_eq!(
                kern.values(&tables, i, n as usize + 1),
                kern.values(&twin.table, i, n as usize + 1),
                "{}",
                code.text
            );
            // the same largest value, mode and rare count
            let st = |s: &[u32], k| s[i * STATE_WORDS + k];
            for k in [1, 4, 5, 6, 7] {
                assert_eq!(
                    st(&gpu.state_words, k),
                    st(&twin.state, k),
                    "{} word {k} with {workgroup} threads",
                    code.text
                );
            }
        }
    }
}

#[test]
fn the_twin_in_rare_mode_equals_the_general_engine() {
    let mut rng = Rng(0x5eed_0003);
    let mut codes: Vec<Code> = SPLITTING.iter().map(|t| Code::parse(t).unwrap()).collect();
    codes.extend(random_codes(&mut rng, 16));
    let refs: Vec<&Code> = codes.iter().collect();
    let n = 5000;
    let want = general(&codes, n);
    // Rare mode from heap 1000 on: with room for every rare position, and
    // with lists that run full (the code goes back to the brute force).
    for (cap, always) in [(n as usize + 1, true), (n as usize / 8, false), (45, true)] {
        let kern = SurveyKernel::new(&refs, n as u64, cap);
        let mut twin = Twin::new(&kern);
        twin.run_to(&kern, 999, 333);
        let mut started = 0;
        for (i, code) in codes.iter().enumerate() {
            let values = kern.values(&twin.table, i, 1000);
            let mode = choose_mode(code, &values, cap, always);
            started += matches!(mode, SurveyMode::Rare { .. }) as usize;
            twin.set_mode(&kern, i, &mode);
        }
        twin.run_to(&kern, n, 1024);
        let mut still_rare = 0;
        for (i, code) in codes.iter().enumerate() {
            let got = kern.values(&twin.table, i, n as usize + 1);
            assert_eq!(got, want[i], "{} (cap {cap})", code.text);
            still_rare += (twin.state[i * STATE_WORDS + 4] == MODE_RARE) as usize;
        }
        if cap == 45 {
            // .16 (41 rare heaps to 1000, 50 to 12000) and .165 (37, then
            // 162) start and run their lists full; .106, .56, .1777 and
            // 4.07 (under 45 to 12000) do not.
            assert!(started >= 6, "cap 45: {started} codes started in rare mode");
            assert!(still_rare < started, "a list of 45 runs full for some code");
        } else {
            // Officers, .16, .56, .106, .127, .165, 4.07 and .1777 are sparse.
            assert!(
                started >= 8,
                "cap {cap}: {started} codes started in rare mode"
            );
            assert!(still_rare >= 8, "cap {cap}: {still_rare} codes stayed rare");
        }
    }
}

#[test]
fn choose_mode_takes_rare_values_where_they_pay() {
    let mode_of = |text: &str, n: u32| {
        let code = Code::parse(text).unwrap();
        let g = grundy::internals::engine::heap::brute::general::sequence(
            &code,
            n as u64,
            &grundy::hooks::Silent,
        )
        .unwrap();
        choose_mode(&code, &g, n as usize, false)
    };
    // .106's sparse split is the position-parity one (breaking digit 3: t = 1).
    match mode_of("0.106", 3000) {
        SurveyMode::Rare { parity, .. } => assert_eq!(parity, 2),
        SurveyMode::Brute => panic!(".106 is sparse"),
    }
    match mode_of("0.16", 3000) {
        SurveyMode::Rare { positions, .. } => {
            assert!(positions.len() < 3000 / 8, "{}", positions.len());
        }
        SurveyMode::Brute => panic!(".16 is sparse"),
    }
    // dense (Officers is not yet: 832 rare heaps of 4096, 1576 of 16384),
    // or no split at all
    for text in ["0.007", "0.06", "0.6", "0.07", "0.3"] {
        assert_eq!(mode_of(text, 3000), SurveyMode::Brute, "{text}");
    }
}

#[test]
#[cfg_attr(
    not(require_gpu),
    ignore = "needs a GPU adapter: GRUNDY_REQUIRE_GPU=1 cargo test runs it"
)]
fn gpu_survey_rows_equal_cpu_survey_rows() {
    let Some(Backend::Gpu(ctx)) = gpu_or_skip("gpu_survey_rows_equal_cpu_survey_rows") else {
        return;
    };
    // every 1-digit code, some that certify in the first round and some
    // that do not (0.16: period 149459), and codes the kernel leaves to the CPU
    let mut texts = all_codes("0", 1);
    texts.extend(all_codes("4", 1));
    texts.extend(["0.07", "0.137", "0.16", "4.04", "0.6!", "4!.0"].map(String::from));
    let codes: Vec<Code> = texts.iter().map(|t| Code::parse(t).unwrap()).collect();
    let n = 5000;
    let cpu = survey_rows(&codes, n, Algorithm::Auto, &|_, _| {}).unwrap();
    for algorithm in [Algorithm::Auto, Algorithm::Naive] {
        let before = ctx.counters().submits;
        let workgroup = grundy::internals::gpu::survey::workgroup_for(&ctx, None).unwrap();
        let (gpu, on_gpu) =
            survey_rows_gpu(&ctx, &codes, n, algorithm, workgroup, &|_, _| {}).unwrap();
        assert!(on_gpu && ctx.counters().submits > before);
        for ((c, _), (g, _)) in cpu.iter().zip(&gpu) {
            assert_eq!(
                serde_json::to_value(c).unwrap(),
                serde_json::to_value(g).unwrap()
            );
        }
        // .16 runs past the first round: in rare mode unless told not to
        let at = texts.iter().position(|t| t == "0.16").unwrap();
        let want = if algorithm == Algorithm::Naive {
            grundy::internals::engine::HeapEngine::Blocked
        } else {
            grundy::internals::engine::HeapEngine::Rare
        };
        assert_eq!(gpu[at].1, want);
    }
}
