//! `wpp`: record and analyse whole program paths of WebAssembly programs.
//!
//! One module per subcommand, each with its `Opts` (whose doc comments are the help text)
//! and a `run` function that makes one call into a library crate (`wpp-record` to record,
//! `wpp-report` for reports, `wpp-twpp` for the timestamped path, `wpp-dataflow` for data
//! flow, `wpp-html` for the HTML report) and prints the result. No subcommand uses
//! another's module; what they share (`Output`, `Json`: the `--json` and `--top` options;
//! `print_json`; the `--grammar` and `--source-map` parsers; `Bar`, progress on a
//! terminal) is here.
//! This is the only crate that prints to stdout or parses arguments.
//!
//! ## Code map
//!
//! The `wpp` binary: one module per subcommand (`record`, `paths`, `functions`,
//! `annotate`, `stats`, `expand`, `export`, `compress`, `hot`, `query`, `ppp` (select,
//! report), `twpp` (build, stats), `trace`, `dataflow`, `deps`, `dff`, `slice`, `report`), each its
//! options, one call into a library (wpp-record, wpp-report, wpp-dataflow, wpp-html) and
//! printing; `main` holds what they share: the `--json`/`--top` option groups (`Output`,
//! `Json`), the `--grammar` and `--source-map` parsers, JSON printing, `completions` and
//! `man` (generated from the same clap definitions), and
//! `--version` with the profile format; `error`: an error as one line (its causes joined,
//! each once, I/O errors as words) and its exit status (1 when the library error's
//! `is_failure` says wpp failed, 2 for bad input).

mod annotate;
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

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use wpp_record::Builder;

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

/// `--json` and `--top`: how a report with lists is printed, the same on every command.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct Output {
    /// Print JSON instead of text (the command's description gives its fields): every row
    /// of every list unless --top is given.
    #[arg(long, global = true)]
    pub json: bool,
    /// Show at most N rows of each list, 0 for all [default: 20 as text; JSON has every
    /// row unless given].
    #[arg(long, value_name = "N", global = true)]
    pub top: Option<usize>,
}

impl Output {
    /// How many rows of each list to keep.
    pub fn top(self) -> wpp_report::Top {
        wpp_report::Top::of(self.top, self.json)
    }
}

/// `--run N`: one run of a merged profile.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct Run {
    /// Of a merged profile (`wpp merge`), only run N (from 1, in the order merged), as it
    /// was recorded; without it, the sum of the runs.
    #[arg(long, value_name = "N")]
    pub run: Option<usize>,
}

impl Run {
    /// Opens `path`, or its run N with --run N.
    pub fn open(&self, path: &std::path::Path) -> Result<wpp_profile::Profile, wpp_profile::Error> {
        match self.run {
            Some(n) => wpp_profile::Profile::open_run(path, n),
            None => wpp_profile::Profile::open(path),
        }
    }
}

/// `--json` alone: how a report without lists is printed.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct Json {
    /// Print JSON instead of text (the command's description gives its fields).
    #[arg(long, global = true)]
    pub json: bool,
}

/// `--problem`: a data flow problem of `wpp dff` and `wpp report --dataflow`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum Problem {
    /// Definitions of the function's locals (per invocation), of globals and of memory at
    /// constant addresses (program-wide) that reach each block.
    ReachingDefinitions,
    /// Loads at a constant or global-based address whose bytes were already loaded or
    /// stored there (an intersection problem, solved through its dual).
    AvailableLoads,
}

impl From<Problem> for wpp_dataflow::dff::ProblemKind {
    fn from(p: Problem) -> Self {
        match p {
            Problem::ReachingDefinitions => Self::ReachingDefinitions,
            Problem::AvailableLoads => Self::AvailableLoads,
        }
    }
}

/// `--source-map FROM=TO`: source files whose DWARF name starts with FROM are read under
/// TO (`wpp report`, `wpp annotate`).
pub(crate) fn parse_source_map(s: &str) -> Result<(String, std::path::PathBuf), String> {
    match s.split_once('=') {
        Some((from, to)) if !from.is_empty() && !to.is_empty() => Ok((from.to_owned(), std::path::PathBuf::from(to))),
        _ => Err(format!("`{s}` is not FROM=TO (a prefix of the source names, and the directory to read them from)")),
    }
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

/// Progress on stderr, drawn as a bar (a spinner for a step of unknown length) when stderr
/// is a terminal, and nothing otherwise. Every step that can take over a second reports
/// to one.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    pub fn on_terminal() -> Bar {
        Bar(None)
    }
}

impl wpp_model::progress::Progress for Bar {
    fn stage(&mut self, name: &str, total: Option<u64>) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
        let b = match total {
            Some(n) => indicatif::ProgressBar::with_draw_target(Some(n), indicatif::ProgressDrawTarget::stderr()).with_style(
                indicatif::ProgressStyle::with_template("wpp: {msg} {bar:30} {percent:>3}% of {human_len} ({eta} left)").expect("a valid template"),
            ),
            None => {
                let b = indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr())
                    .with_style(indicatif::ProgressStyle::with_template("wpp: {spinner} {msg} ({elapsed})").expect("a valid template"));
                b.enable_steady_tick(std::time::Duration::from_millis(120));
                b
            }
        };
        b.set_message(name.to_owned());
        self.0 = Some(b);
    }

    fn advance(&mut self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}
