//! `wpp deps`: the memory dependences of a recorded run.

use std::path::PathBuf;

use clap::{Args, Subcommand};

mod chain;
mod stats;
use wpp_profile::Profile;

/// Print which stores, bulk writes and host calls each load read from.
///
/// The profile is an addresses recording (`wpp record --mode addresses`: the dependences
/// are recovered from its address trace against the control flow), an extended WPP
/// (`--mode ewpp`: recovered from the control flow alone, its checks' paths naming the
/// writers) or a filtering run (`--mode ewpp-filter`: their totals only). For each load (most executed first): where
/// it is, how often it ran, and each writer of the bytes it read with its dependences on
/// it (one per execution of the load and instance of the writer it read bytes of: a load
/// of bytes several instances wrote depends on each), their share of the load's, and how
/// many were on an earlier instance of the writer than its latest. With --use and --instance, one execution of that load: the write
/// instances it read. With --json: {"from", "loads": [{"function", "offset", "source",
/// "executions", "writers": [{"writer", "function", "offset", "source", "count",
/// "earlier_instance"}]}], "instance": [K, [{"writer", "source", "writer_instance",
/// "latest"}]] (with --instance), "load_executions", "dependences", "never_ran" (loads
/// selected that never ran, not listed), "truncated",
/// "total_loads"}.
///
/// With --chain (and --module): the chains of dependences back from one load (Tallam and
/// Gupta's RecoverChain and ChainFreq): what it read was written by a writer, which
/// computed what it wrote from loads of its own block (its uses), which read what other
/// writers wrote, and so on, up to --depth writers; each chain with the executions of the
/// load it was followed from. With --json: {"from", "load", "source", "executions",
/// "instance", "depth", "walks", "chains": [{"count", "links": [{"use", "use_offset",
/// "writer", "writer_offset", "source"}]}], "truncated", "total_chains"}.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
#[command(
    after_help = "Examples:\n  wpp record --mode addresses -o prog.wpp prog.wasm\n  wpp deps prog.wpp --use 0x1a2b\n  wpp deps prog.wpp --use main.c:42 --instance 3\n  wpp deps prog.wpp --use 0x1a2b --chain --module prog.wasm\n  wpp deps stats prog.wpp --module prog.wasm"
)]
pub struct Opts {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    show: ShowOpts,
}

#[derive(Subcommand)]
enum Command {
    Stats(stats::StatsOpts),
}

#[derive(Args)]
pub(crate) struct ShowOpts {
    /// A profile of `wpp record --mode addresses` or `--mode ewpp-filter`.
    pub(crate) profile: Option<PathBuf>,
    /// The loads to show, a program point: FUNC:0xOFF or 0xOFF (the load at a module byte
    /// offset), FUNC:bN (a block's loads), FILE:LINE (the loads of the code on that line)
    /// or FUNC (a function's loads) [default: every load].
    #[arg(long = "use", value_name = "POINT")]
    pub(crate) use_: Option<String>,
    /// With --use naming one load: its Kth execution (1-based), the write instances it
    /// read.
    #[arg(long, value_name = "K")]
    pub(crate) instance: Option<u64>,
    /// With --use naming one load: the chains of dependences back from it.
    #[arg(long, requires = "module", requires = "use_")]
    pub(crate) chain: bool,
    /// The longest chains to follow, in writers (each a walk of the run).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=16))]
    pub(crate) depth: u16,
    /// The module the profile was recorded from (for --chain: which loads each writer's
    /// operands came from).
    #[arg(long, value_name = "MODULE.wasm")]
    pub(crate) module: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) output: crate::Output,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    match o.command {
        Some(Command::Stats(s)) => stats::run(s),
        None => show(o.show),
    }
}

fn show(o: ShowOpts) -> anyhow::Result<()> {
    let Some(path) = &o.profile else { anyhow::bail!("a profile is needed: wpp deps PROFILE (or wpp deps stats PROFILE)") };
    let p = Profile::open(path)?;
    p.require_program("deps")?;
    if o.chain {
        return chain::run(&p, &o);
    }
    let r = wpp_report::deps::report(&p, o.use_.as_deref(), o.instance, o.output.top())?;
    if o.output.json {
        return crate::print_json(&r);
    }
    wpp_text::deps::report(&mut std::io::stdout().lock(), &r)?;
    Ok(())
}
