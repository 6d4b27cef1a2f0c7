//! `wpp paths`: the Ball-Larus path profile of a recorded run.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_profile::Profile;
use wpp_report::format::{group, truncate};
use wpp_report::PathRow;

/// Print the path profile: how often each acyclic path ran, hottest first.
///
/// Each path is shown with its function, its Ball-Larus number, the instructions it
/// executes, and its basic blocks as byte ranges of the original module. With --func, the
/// `%` column is the path's share of the function's executions. With --json: {"paths":
/// [{"function", "function_index", "path_id", "count", "instructions", "blocks",
/// "source"}], "executions", "truncated", "total_paths"}.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp paths lua.wpp --func luaV_execute --top 10")]
pub struct Opts {
    /// A profile written by `wpp record`.
    profile: PathBuf,
    /// Only paths of this function (name or index).
    #[arg(long)]
    func: Option<String>,
    #[command(flatten)]
    output: crate::Output,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let func = o.func.as_deref().map(|s| wpp_report::select_func(&p, s)).transpose()?;
    let report = wpp_report::path_profile(&p, func, o.output.top());
    if o.output.json {
        return crate::print_json(&report);
    }
    let mut out = std::io::stdout().lock();
    let events = report.executions;
    let where_ = PathRow::places_header(p.source.is_some());
    // With --func the share is of the function's executions, and the header says so.
    let share_of = match func {
        Some(f) => {
            writeln!(out, "paths of {}: {} executions; % is of these", p.meta.func_name(f), group(events))?;
            "% fn"
        }
        None => "%",
    };
    writeln!(out, "{:>14} {:>6}  {:<32} {:>10} {:>7}  {where_}", "count", share_of, "function", "path", "instrs")?;
    for r in &report.paths {
        let count = r.count.unwrap_or(0);
        let share = if events > 0 { 100.0 * count as f64 / events as f64 } else { 0.0 };
        writeln!(
            out,
            "{:>14} {:>5.1}%  {:<32} {:>10} {:>7}  {}",
            group(count),
            share,
            truncate(&r.function, 32),
            r.path_id,
            r.instructions,
            r.places(p.source.is_some())
        )?;
    }
    if let Some(note) = report.truncation.note("paths", "paths") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
