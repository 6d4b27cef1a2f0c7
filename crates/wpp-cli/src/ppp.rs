//! `wpp ppp`: preferential path profiling — choosing the interesting paths, and reporting
//! what a run recorded with them (`wpp record --mode ppp`).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use wpp_profile::Profile;
use wpp_record::{PathSet, Selection};

/// Preferential path profiling: number a chosen set of interesting paths compactly.
#[derive(Args)]
pub struct Opts {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Select(SelectOpts),
    Report(ReportOpts),
}

/// Choose the interesting paths from an earlier profile and write them as a set file.
///
/// Exactly one of: every path the profiled run executed (`--all-executed`, e.g. what a
/// test suite covered), the hottest paths that together account for PERCENT of the run's
/// path executions (`--hot`), or the paths listed in a file, one `FUNCTION:PATH_ID` per
/// line (`--paths`; `#` starts a comment). The set file is JSON: {"module", "module_bytes",
/// "max_paths", "selection", "paths": [{"function", "function_index", "path_id",
/// "count"}], "functions": [{"function", "function_index", "n_interesting", "rho"}]},
/// paths sorted by function and path; `count` is the executions in the profile the set was
/// chosen from, `rho` how compactly preferential path profiling numbers the function's
/// interesting paths ((max id − min id + 1) / n_interesting; 1 is a dense range).
#[derive(Args)]
#[command(after_help = "Example:\n  wpp ppp select tests.wpp --all-executed -o tested.json")]
#[command(group = clap::ArgGroup::new("how").required(true).args(["all_executed", "hot", "paths"]))]
pub struct SelectOpts {
    /// A profile of the same module (any mode).
    profile: PathBuf,
    /// Every path the profiled run executed.
    #[arg(long)]
    all_executed: bool,
    /// The hottest paths covering this percentage of all path executions.
    #[arg(long, value_name = "PERCENT")]
    hot: Option<f64>,
    /// The paths listed in this file, one FUNCTION:PATH_ID per line.
    #[arg(long, value_name = "FILE")]
    paths: Option<PathBuf>,
    /// Where to write the set.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    match o.command {
        Command::Select(o) => select(o),
        Command::Report(o) => report(o),
    }
}

fn select(o: SelectOpts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    p.require_program("ppp select")?;
    wpp_profile::check_writable(&o.output)?;
    let how = if o.all_executed {
        Selection::AllExecuted
    } else if let Some(percent) = o.hot {
        Selection::Hot(percent)
    } else {
        Selection::Listed(o.paths.clone().expect("clap requires one of the three"))
    };
    let set = PathSet::select(&p, &how)?;
    set.save(&o.output)?;
    let rho: Vec<(usize, f64)> = set.functions.iter().map(|f| (f.n_interesting, f.rho)).collect();
    wpp_text::ppp::selected(&mut std::io::stderr().lock(), set.paths.len(), &set.selection, &rho, &o.output)?;
    Ok(())
}

/// Report a run recorded with `wpp record --mode ppp`: how often each interesting path
/// ran, the residual paths (executed but not interesting), and how compactly PPP numbered
/// each function's interesting paths.
///
/// An interesting path is counted in its function's slot array (`slot`); one whose PPP id
/// lies past the array (a function with a very sparse numbering) is counted by the hash
/// table with the residual paths and sorted back here (`hash`); in a function whose
/// Ball-Larus numbers fit a counter array, every path is counted there and sorted into
/// interesting and residual here (`array`). With --json:
/// {"set", "selection", "interesting": [{"function", "function_index", "path_id" (Ball-Larus),
/// "ppp_id", "count", "counted"}], "residual": [{"function", "function_index", "path_id",
/// "count", "instructions", "blocks", "source"}], "functions": [{"function",
/// "function_index", "n_interesting", "rho", "slots", "counters"}], "interesting_executed",
/// "interesting_executions", "interesting_hashed", "residual_executions", "truncated",
/// "total_interesting", "total_residual"}; both lists of paths most executed first (the
/// interesting ones executed or not), the totals over whole lists.
#[derive(Args)]
#[command(
    after_help = "Example:\n  wpp ppp select tests.wpp --all-executed -o tested.json\n  wpp record --mode ppp --interesting tested.json -o field.wpp prog.wasm\n  wpp ppp report field.wpp"
)]
pub struct ReportOpts {
    /// A profile recorded with `wpp record --mode ppp`.
    profile: PathBuf,
    #[command(flatten)]
    output: crate::Output,
}

fn report(o: ReportOpts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    p.require_program("ppp report")?;
    let report = wpp_report::ppp_report(&p, o.output.top())?;
    if o.output.json {
        return crate::print_json(&report);
    }
    wpp_text::ppp::report(&mut std::io::stdout().lock(), &report, p.source.is_some())?;
    Ok(())
}
