//! `wpp-bench`: wpp's benchmarks, each a subcommand that prints one comparison table.
//!
//! * `record`: recording overhead per mode on the real-program workloads;
//! * `consumer`: the consumer thread's work per event, in the 4-byte and 8-byte forms;
//! * `grammar`: the grammar builders' throughput, memory and output size;
//! * `hot`: the hot-subpath search on the DAG against the brute force;
//! * `ppp`: preferential path profiling against Ball-Larus array and hash counting;
//! * `twpp`: the timestamped whole program path's compaction steps;
//! * `dff`: data flow frequencies on the grammar against the abstract run;
//! * `ewpp`: the extended whole program path against the control-flow and address traces;
//! * `merge`: `wpp merge` of a thousand grammar profiles against recording one;
//! * `slice`: precise dynamic slices on the TWPP from seeded criteria, fresh and warm;
//! * `report`: making the HTML report, step by step, and the page's size and load time.
//!
//! The workloads are selected by one set of arguments ([`workloads::WorkloadArgs`]). A
//! counting global allocator ([`alloc`]) lets benchmarks report measured peak heap; it
//! lives here only, never under the `wpp` a user runs.
//!
//! ## Code map
//!
//! The `wpp-bench` binary: `record` (recording overhead per mode), `consumer` (the consumer
//! thread alone, per event and event form), `grammar` (builders' throughput, memory, size against xz and zstd), `hot` (DAG search against the brute
//! force), `ppp` (PPP against array and hash counting), `twpp` (the TWPP compaction steps),
//! `dff` (data flow frequencies against the abstract run), `ewpp` (the extended WPP against
//! the CF and address traces: sizes, classes, checks, recording and recovery time), `merge`
//! (`wpp merge` of many grammar profiles as typed: time, peak memory, size), `slice`
//! (dynamic slices: sizes, time and heap fresh and warm, `wpp slice` as typed), `report` (the HTML report's
//! steps, page size and, in Chromium, load time); `workloads`: the one set of workload
//! arguments, loading runs, path traces, the synthetic trace; `alloc`: the counting global
//! allocator (here only, never under `wpp`).

mod alloc;
mod command;
mod consumer;
mod decode;
mod dff;
mod ewpp;
mod grammar;
mod hot;
mod merge;
mod ppp;
mod record;
mod report;
mod slice;
mod twpp;
mod workloads;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// Benchmarks of wpp on real programs and synthetic traces.
#[derive(Parser)]
#[command(name = "wpp-bench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    #[command(alias = "bench")]
    Record(record::Opts),
    #[command(alias = "bench-grammar")]
    Grammar(grammar::Opts),
    #[command(alias = "bench-hot")]
    Hot(hot::Opts),
    #[command(alias = "bench-ppp")]
    Ppp(ppp::Opts),
    Twpp(twpp::Opts),
    Consumer(consumer::Opts),
    Dff(dff::Opts),
    Ewpp(ewpp::Opts),
    Merge(merge::Opts),
    Slice(slice::Opts),
    Report(report::Opts),
    Decode(decode::Opts),
}

fn main() -> anyhow::Result<()> {
    if std::env::args_os().nth(1).is_some_and(|a| a == command::MEASURE) {
        return command::measure(std::env::args_os().skip(2).collect());
    }
    match Cli::parse().command {
        Command::Record(o) => record::run(o),
        Command::Grammar(o) => grammar::run(o),
        Command::Hot(o) => hot::run(o),
        Command::Ewpp(o) => ewpp::run(o),
        Command::Merge(o) => merge::run(o),
        Command::Ppp(o) => ppp::run(o),
        Command::Twpp(o) => twpp::run(o),
        Command::Consumer(o) => consumer::run(o),
        Command::Dff(o) => dff::run(o),
        Command::Slice(o) => slice::run(o),
        Command::Report(o) => report::run(o),
        Command::Decode(o) => decode::run(o),
    }
}
