//! `wpp`: record and analyse whole program paths of WebAssembly programs.
//!
//! One module per subcommand, each with its `Opts` (whose doc comments are the help text)
//! and a `run` function that makes one call into a library crate (`wpp-record` to record,
//! `wpp-report` for reports, `wpp-twpp` for the timestamped path, `wpp-dataflow` for data
//! flow, `wpp-html` for the HTML report) and one into `wpp-text` to print the result. No
//! subcommand uses another's module; what they share is re-exported here. This is the only
//! crate that parses arguments, and the one that owns stdout and stderr.
//!
//! ## Code map
//!
//! One module per subcommand (`record`, `paths`, `merge`, `diff`, `functions`, `annotate`,
//! `stats`, `expand`, `export`, `compress`, `hot`, `query`, `ppp` (select, report), `twpp`
//! (build, stats), `trace`, `dataflow`, `deps`, `dff`, `slice`, `report`, `completions` and
//! `man`, both generated from the same clap definitions); `options`: the option groups and
//! parsers they share (`--json`/`--top`, `--run`, `--problem`, `--grammar`, `--source-map`);
//! `recording`: how a program is recorded (mode, builder, limits); `bar`: progress on a
//! terminal; `main`: the dispatch and `--version` with the profile format;
//! `error`: an error as one line (its causes joined, each once, I/O errors as words), its
//! exit status (1 when the library error's `is_failure` says wpp failed, 2 for bad input)
//! and the statuses' table.

mod annotate;
mod bar;
mod completions;
mod compress;
mod dataflow;
mod deps;
mod dff;
mod diff;
mod error;
mod expand;
mod export;
mod functions;
mod hot;
mod man;
mod merge;
mod options;
mod paths;
mod ppp;
mod query;
mod record;
mod recording;
mod report;
mod slice;
mod stats;
mod trace;
mod twpp;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub(crate) use bar::{grammar_bar, Bar};
pub(crate) use options::{builder_arg, parse_source_map, print_json, Json, Output, Problem, Run};
pub(crate) use recording::{BuildOpts, LimitOpts, ModeOpts};

/// Record and analyse the whole program paths of WebAssembly (wasm32-wasi) programs.
#[derive(Parser)]
#[command(name = "wpp", about, after_long_help = error::EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `wpp --version`: the version and the profile format versions it writes and reads.
fn version() -> String {
    format!("{} (writes profile format {}, reads 1 to {})", env!("CARGO_PKG_VERSION"), wpp_profile::VERSION, wpp_profile::VERSION)
}

#[derive(Subcommand)]
enum Command {
    Record(record::Opts),
    Paths(paths::Opts),
    Merge(merge::Opts),
    Diff(diff::Opts),
    Functions(functions::Opts),
    Annotate(annotate::Opts),
    Stats(stats::Opts),
    Expand(expand::Opts),
    Export(export::Opts),
    Hot(hot::Opts),
    Query(query::Opts),
    Ppp(ppp::Opts),
    Compress(compress::Opts),
    Twpp(twpp::Opts),
    Trace(trace::Opts),
    Dataflow(dataflow::Opts),
    Deps(deps::Opts),
    Dff(dff::Opts),
    Slice(slice::Opts),
    Report(report::Opts),
    Completions(completions::Opts),
    Man(man::Opts),
}

/// The command-line definition, with the version filled in.
pub(crate) fn command() -> clap::Command {
    Cli::command().version(version())
}

fn main() -> ExitCode {
    let cli = match command().try_get_matches().and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => return error::usage_error(e),
    };
    let result = match cli.command {
        Command::Record(o) => record::run(o),
        Command::Paths(o) => paths::run(o).map(|()| 0),
        Command::Merge(o) => merge::run(o).map(|()| 0),
        Command::Diff(o) => diff::run(o).map(|()| 0),
        Command::Functions(o) => functions::run(o).map(|()| 0),
        Command::Annotate(o) => annotate::run(o).map(|()| 0),
        Command::Stats(o) => stats::run(o).map(|()| 0),
        Command::Expand(o) => expand::run(o).map(|()| 0),
        Command::Export(o) => export::run(o).map(|()| 0),
        Command::Hot(o) => hot::run(o).map(|()| 0),
        Command::Query(o) => query::run(o).map(|()| 0),
        Command::Ppp(o) => ppp::run(o).map(|()| 0),
        Command::Compress(o) => compress::run(o).map(|()| 0),
        Command::Twpp(o) => twpp::run(o).map(|()| 0),
        Command::Trace(o) => trace::run(o).map(|()| 0),
        Command::Dataflow(o) => dataflow::run(o).map(|()| 0),
        Command::Deps(o) => deps::run(o).map(|()| 0),
        Command::Dff(o) => dff::run(o).map(|()| 0),
        Command::Slice(o) => slice::run(o).map(|()| 0),
        Command::Report(o) => report::run(o).map(|()| 0),
        Command::Completions(o) => completions::run(o).map(|()| 0),
        Command::Man(o) => man::run(o).map(|()| 0),
    };
    match result {
        Ok(status) => ExitCode::from(status.clamp(0, 255) as u8),
        Err(e) => {
            // A closed pipe (`wpp paths ... | head`) is not an error worth reporting.
            if error::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("wpp: error: {}", error::one_line(&e));
            ExitCode::from(error::exit_status(&e))
        }
    }
}
