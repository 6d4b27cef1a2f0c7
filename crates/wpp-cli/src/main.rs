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
//! (build, stats), `trace`, `dataflow`, `deps`, `dff`, `slice`, `report`); `options`: the
//! option groups and parsers they share (`--json`/`--top`, `--run`, `--problem`,
//! `--grammar`, `--source-map`); `bar`: progress on a terminal; `main`: the dispatch, JSON
//! printing, `completions` and `man` (generated from the same clap definitions) and
//! `--version` with the profile format; `error`: an error as one line (its causes joined,
//! each once, I/O errors as words) and its exit status (1 when the library error's
//! `is_failure` says wpp failed, 2 for bad input).

mod annotate;
mod bar;
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
mod merge;
mod options;
mod paths;
mod ppp;
mod query;
mod record;
mod report;
mod slice;
mod stats;
mod trace;
mod twpp;

use std::io::Write as _;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub(crate) use bar::{grammar_bar, Bar};
pub(crate) use options::{builder_arg, parse_source_map, Json, Output, Problem, Run};

/// Record and analyse the whole program paths of WebAssembly (wasm32-wasi) programs.
#[derive(Parser)]
#[command(name = "wpp", about, after_long_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The exit statuses, for `--help` and the man page.
const EXIT_STATUS: &str = "\
Exit status:
  0        success (wpp record: the program exited 0)
  1        wpp failed: a file could not be written, or a bug
  2        usage or input error: bad arguments, a missing or unreadable file, a file of
           the wrong kind, a name that names nothing
  N        wpp record: the program's own exit status
  124      wpp record: the program was stopped by --timeout, --fuel or --max-memory
  130, 143 wpp record: the program was stopped by SIGINT (Ctrl-C) or SIGTERM
  134      wpp record: the program trapped
wpp record keeps the profile in every case but 1 and 2.";

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
    Completions(CompletionsOpts),
    Man(ManOpts),
}

/// Print a shell completion script for wpp.
///
/// bash: `wpp completions bash > ~/.local/share/bash-completion/completions/wpp`;
/// zsh: write `_wpp` into a directory of $fpath; fish: `wpp completions fish >
/// ~/.config/fish/completions/wpp.fish`. `scripts/install.sh` installs them.
#[derive(clap::Args)]
struct CompletionsOpts {
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Write the man pages (wpp.1, wpp-record.1, ...) into a directory.
///
/// `scripts/install.sh` installs them under ~/.local/share/man/man1, where `man wpp` finds
/// them.
#[derive(clap::Args)]
struct ManOpts {
    /// The directory to write them into (created if missing).
    dir: std::path::PathBuf,
}

/// The command-line definition, with the version filled in.
fn command() -> clap::Command {
    Cli::command().version(version())
}

/// Writes `v` as pretty JSON and a newline.
pub(crate) fn print_json(v: &impl serde::Serialize) -> anyhow::Result<()> {
    // Buffered: stdout alone is line-buffered, a write call per line of the output.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&command().get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
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
        Command::Completions(o) => {
            clap_complete::generate(o.shell, &mut command(), "wpp", &mut std::io::stdout());
            Ok(0)
        }
        Command::Man(o) => man(&o.dir).map(|()| 0),
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
            eprintln!("wpp: error: {}", error::one_line(&e));
            ExitCode::from(error::exit_status(&e))
        }
    }
}

fn man(dir: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context as _;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    clap_mangen::generate_to(command(), dir).with_context(|| format!("cannot write the man pages into {}", dir.display()))?;
    Ok(())
}
