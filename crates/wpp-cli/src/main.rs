//! `wpp`: record and analyse whole program paths of WebAssembly programs.
//!
//! One module per subcommand, each with its `Opts` (whose doc comments are the help text)
//! and a `run` function that makes one call into a library crate (`wpp-record` to record,
//! `wpp-report` for reports) and prints the result. No subcommand uses another's module.
//! This is the only crate that prints to stdout or parses arguments.

mod compress;
mod expand;
mod export;
mod hot;
mod paths;
mod ppp;
mod query;
mod record;
mod stats;

use std::io::Write as _;
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use wpp_record::Builder;

/// Record and analyse the whole program paths of WebAssembly (wasm32-wasi) programs.
#[derive(Parser)]
#[command(name = "wpp", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Record(record::Opts),
    Paths(paths::Opts),
    Stats(stats::Opts),
    Expand(expand::Opts),
    Export(export::Opts),
    Hot(hot::Opts),
    Query(query::Opts),
    Ppp(ppp::Opts),
    Compress(compress::Opts),
}

/// `--grammar`: a grammar builder by name.
pub(crate) fn builder_arg() -> impl TypedValueParser<Value = Builder> {
    PossibleValuesParser::new(Builder::ALL.map(|b| {
        PossibleValue::new(b.name()).help(match b {
            Builder::Sequitur => "SEQUITUR (Nevill-Manning & Witten)",
            Builder::Sequitur1 => "SEQUITUR with Larus's one-symbol look-ahead",
            Builder::RePair => "Most frequent digram first (Re-Pair), after the run",
        })
    }))
    .map(|name| Builder::from_name(&name).expect("one of the possible values"))
}

/// Writes `v` as pretty JSON and a newline.
pub(crate) fn print_json(v: &impl serde::Serialize) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Record(o) => record::run(o),
        Command::Paths(o) => paths::run(o).map(|()| 0),
        Command::Stats(o) => stats::run(o).map(|()| 0),
        Command::Expand(o) => expand::run(o).map(|()| 0),
        Command::Export(o) => export::run(o).map(|()| 0),
        Command::Hot(o) => hot::run(o).map(|()| 0),
        Command::Query(o) => query::run(o).map(|()| 0),
        Command::Ppp(o) => ppp::run(o).map(|()| 0),
        Command::Compress(o) => compress::run(o).map(|()| 0),
    };
    match result {
        Ok(status) => ExitCode::from(status.clamp(0, 255) as u8),
        Err(e) => {
            // A closed pipe (`wpp paths ... | head`) is not an error worth reporting.
            let broken_pipe = |c: &(dyn std::error::Error + 'static)| {
                c.downcast_ref::<std::io::Error>().map(|io| io.kind()).or_else(|| c.downcast_ref::<serde_json::Error>().and_then(|j| j.io_error_kind()))
                    == Some(std::io::ErrorKind::BrokenPipe)
            };
            if e.chain().any(broken_pipe) {
                return ExitCode::SUCCESS;
            }
            eprintln!("wpp: error: {e}");
            for cause in e.chain().skip(1) {
                eprintln!("  caused by: {cause}");
            }
            ExitCode::from(2)
        }
    }
}
