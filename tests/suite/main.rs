//! The integration tests, in one binary: every test file is a module here,
//! so the library and the `grundy` binary's tests link once, not once a file.

mod common;

mod architecture;
mod arrows;
mod cli;
mod cli_edges;
mod cli_graph;
mod cli_kept;
mod cli_long;
mod cli_misere;
mod cli_tuples;
mod cluster;
mod crash_points;
mod fuzz_corpora;
mod gpu;
mod graph_batches;
mod graphs;
mod hackenbush;
mod hostile;
mod hunt;
mod kept;
mod milestones;
mod misere_edges;
mod misere_graphs;
mod misere_sums;
mod newcomer;
mod paper_output;
mod papers;
mod play;
mod play_families;
mod plots;
mod quotients;
mod rare;
mod rare_gpu;
mod runner;
mod sequences;
mod simd;
mod survey_kernel;
mod survey_shards;
mod system_edges;
mod trust;
mod tuples;
mod words;
