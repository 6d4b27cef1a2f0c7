//! The integration tests of wpp-cli, one module per concern, in one test binary (one link).

mod analyses;
mod annotate;
mod architecture;
mod cli;
mod common;
mod cxx;
mod dataflow;
mod deps;
mod dff;
mod diff_builds;
mod errors;
mod exports;
mod json;
mod merge;
mod ppp;
mod real_grammar;
mod real_ppp;
mod report;
mod slice;
mod stop;
mod twpp;
