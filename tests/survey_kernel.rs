//! The survey kernel (`shaders/survey_block.wgsl`) and its CPU twin: the
//! twin's tables equal the general engine's for every code it runs, the GPU
//! equals the twin, and a GPU survey writes the same rows as the CPU survey.

mod common;

use common::{Rng, gpu_or_skip};
use grundy::commands::survey::{all_codes, survey_rows, survey_rows_gpu};
use grundy::cpu::survey_block::survey_block;
use grundy::engine::Backend;
use grundy::engine::sequence::Algorithm;
use grundy::engine::survey_kernel::{STATE_WORDS, SURVEY_BLOCK, SurveyKernel, runs_on_kernel};
use grundy::game::Code;
use grundy::gpu::survey::GpuSurvey;

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

/// Runs the twin to `n` heaps, `block` heaps per call, as the GPU would.
fn twin_tables(kern: &SurveyKernel, n: u32, block: u32) -> (Vec<u32>, Vec<u32>) {
    let mut state = kern.fresh_state();
    for st in state.chunks_mut(STATE_WORDS) {
        st[2] = n + 1;
    }
    let mut table = vec![0u32; kern.codes * kern.stride];
    for _ in 0..(n + 1).div_ceil(block) {
        survey_block(kern, block, &mut state, &mut table);
    }
    (state, table)
}

#[test]
fn the_twin_equals_the_general_engine() {
    let mut rng = Rng(0x5eed_0001);
    let codes = random_codes(&mut rng, 30);
    let refs: Vec<&Code> = codes.iter().collect();
    assert!(refs.iter().all(|c| runs_on_kernel(c)));
    let n = 3000;
    let kern = SurveyKernel::new(&refs, n as u64);
    let want: Vec<Vec<u16>> = codes
        .iter()
        .map(|code| grundy::cpu::general::sequence(code, n as u64, &|_| {}).unwrap())
        .collect();
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
fn gpu_survey_kernel_equals_its_twin() {
    let Some(Backend::Gpu(ctx)) = gpu_or_skip("gpu_survey_kernel_equals_its_twin") else {
        return;
    };
    let mut rng = Rng(0x5eed_0002);
    let codes = random_codes(&mut rng, 12);
    let refs: Vec<&Code> = codes.iter().collect();
    let n = 5000u32;
    let kern = SurveyKernel::new(&refs, n as u64);
    let (twin_state, twin) = twin_tables(&kern, n, SURVEY_BLOCK);
    let mut gpu = GpuSurvey::new(&ctx, &kern).unwrap();
    // two rounds, as the survey runs them
    gpu.run_to(&vec![2500; codes.len()]).unwrap();
    gpu.run_to(&vec![n + 1; codes.len()]).unwrap();
    let tables = gpu.tables().unwrap();
    for (i, code) in codes.iter().enumerate() {
        assert_eq!(
            kern.values(&tables, i, n as usize + 1),
            kern.values(&twin, i, n as usize + 1),
            "{}",
            code.text
        );
        assert_eq!(
            gpu.state_words[i * STATE_WORDS + 1],
            twin_state[i * STATE_WORDS + 1]
        );
    }
}

#[test]
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
    let cpu = survey_rows(&codes, n, Algorithm::Auto, &|| {}).unwrap();
    let (gpu, stats) = survey_rows_gpu(&ctx, &codes, n, &|| {}).unwrap();
    assert!(stats.submissions > 0);
    for ((c, _), (g, _)) in cpu.iter().zip(&gpu) {
        assert_eq!(
            serde_json::to_value(c).unwrap(),
            serde_json::to_value(g).unwrap()
        );
    }
}
