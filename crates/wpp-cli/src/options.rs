//! The option groups and value parsers the subcommands share: `--json` and `--top`
//! (`Output`, `Json`, and `print_json`), `--run N` (`Run`), `--problem`, `--grammar` and `--source-map`.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use wpp_record::Builder;

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
    use std::io::Write as _;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, v)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
