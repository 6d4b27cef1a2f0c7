//! `wpp`: record and analyse whole program paths of WebAssembly programs.
//!
//! One module per subcommand, each with its `Opts` (whose doc comments are the help text)
//! and a `run` function. This is the only crate that prints to stdout or parses
//! arguments.

mod alloc;
mod bench;
mod bench_grammar;
mod bench_hot;
mod bench_ppp;
mod compress;
mod dag;
mod expand;
mod export;
mod grammar_sink;
mod hot;
mod paths;
mod ppp;
mod query;
mod record;
mod stats;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

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
    Bench(bench::Opts),
    BenchGrammar(bench_grammar::Opts),
    BenchHot(bench_hot::Opts),
    BenchPpp(bench_ppp::Opts),
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
        Command::Bench(o) => bench::run(o).map(|()| 0),
        Command::BenchGrammar(o) => bench_grammar::run(o).map(|()| 0),
        Command::BenchHot(o) => bench_hot::run(o).map(|()| 0),
        Command::BenchPpp(o) => bench_ppp::run(o).map(|()| 0),
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
