//! `wpp twpp`: the timestamped whole program path — building the TWPP file from a profile
//! and its statistics.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use wpp_twpp::Twpp;

/// Timestamped whole program paths (Zhang & Gupta): the run reorganised by call, so that
/// one function's traces are read without touching the rest.
#[derive(Args)]
pub struct Opts {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Build(BuildOpts),
    Stats(StatsOpts),
}

/// Build the TWPP file of a profile's run.
///
/// The profile's whole program path (a grammar or a trace) is split into one path trace per
/// function invocation; each function's distinct traces are kept once, with dynamic basic
/// blocks collapsed behind dictionaries and in timestamped form (each block's steps as
/// arithmetic series), one section per function, most invoked first; the dynamic call
/// graph links them, compressed. The file is a profile too (`wpp stats`, `wpp paths` read
/// it), and the whole path can be rebuilt from it.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp twpp build lua.wpp -o lua.twpp\n  wpp trace lua.twpp --func luaH_get")]
pub struct BuildOpts {
    /// A profile recorded with --mode grammar or trace, or with --mode addresses or ewpp
    /// (the TWPP then keeps its memory dependences, which `wpp slice` follows).
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// Where to write it [default: the profile's name with the extension .twpp, in the
    /// current directory].
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Print what a TWPP file holds and what each compaction step saved.
///
/// Sizes are counted in 4-byte numbers, as the paper counts them: every invocation's block
/// trace, each function's distinct traces, those with dynamic basic blocks collapsed plus
/// their dictionaries, their timestamped form; then the call graph, the file's sections,
/// and static against dynamic flow graph sizes. With --json: {"events", "invocations",
/// "functions", "distinct_traces", "open_at_end", "ambiguous", "wpp_bytes", "dedup_bytes",
/// "dbb_bytes", "twpp_bytes", "dcg_bytes", "dcg_lzw_bytes", "dcg_grammar_bytes",
/// "overall_factor", "static_nodes", "static_edges", "dynamic_nodes", "dynamic_edges",
/// "mean_series", "mean_timestamps", "sections": {name: bytes}}.
#[derive(Args)]
pub struct StatsOpts {
    /// A file written by `wpp twpp build`.
    file: PathBuf,
    #[command(flatten)]
    output: crate::Json,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    match o.command {
        Command::Build(o) => build(o),
        Command::Stats(o) => stats(o),
    }
}

fn build(o: BuildOpts) -> anyhow::Result<()> {
    let output = match o.output {
        Some(out) => out,
        None => match o.profile.file_stem() {
            Some(stem) => Path::new(stem).with_extension("twpp"),
            None => anyhow::bail!("{}: not a file name; give the output's with -o", o.profile.display()),
        },
    };
    let t = Instant::now();
    let profile = o.run.open(&o.profile)?;
    wpp_profile::check_writable(&output)?;
    let (built, kept) = wpp_twpp::recover::build_twpp(&profile, &output, &mut crate::Bar::on_terminal())?;
    wpp_text::twpp::built(&mut std::io::stderr().lock(), &built, kept, t.elapsed().as_secs_f64(), &output)?;
    Ok(())
}

fn stats(o: StatsOpts) -> anyhow::Result<()> {
    let twpp = Twpp::open(&o.file)?;
    let s = wpp_report::twpp_stats(&twpp)?;
    if o.output.json {
        return crate::print_json(&s);
    }
    wpp_text::twpp::stats(&mut std::io::stdout().lock(), &o.file, &s)?;
    Ok(())
}
