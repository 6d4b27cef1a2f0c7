//! `wpp hot`: minimal hot subpaths of a whole program path.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use wpp_grammar::HotParams;
use wpp_report::Dag;

/// Find the minimal hot subpaths: runs of at most L consecutive acyclic paths whose cost
/// (frequency × the paths' summed cost) is at least C.
///
/// A subpath's frequency counts every place it occurs, overlapping occurrences included
/// (as Larus counts), so a subpath that overlaps itself (a loop's path twice) can cost
/// more than the run; its share of the run is taken from the occurrences that fit side by
/// side, counted left to right, and is never more than the run.
///
/// The search runs on the grammar's DAG without expanding the trace: it counts the
/// windows of up to L paths that cross each rule's boundaries, weighted by the rule's
/// frequency, following only windows that can still be part of a hot one. It reports
/// every minimal hot subpath, with its exact frequency and cost. Works on grammar and trace
/// profiles (a trace is compressed first). With --json: {"subpaths": [{"frequency",
/// "cost", "disjoint", "disjoint_cost", "share", "length", "paths": [{"function",
/// "function_index", "path_id", "blocks", "source"}]}], "run_cost", "truncated",
/// "total_subpaths"}.
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp hot lua.wpp\n  wpp hot lua.wpp --max-len 100 --min-cost 1000000 --min-len 10\n  wpp hot lua.wpp --min-cost 0.5%")]
pub struct Opts {
    /// A profile with a grammar or a trace.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// Longest subpath, in acyclic paths (the report's default).
    #[arg(long, value_name = "L", default_value_t = 32)]
    max_len: usize,
    /// Least cost of a hot subpath: a number in the cost's unit, or a share of the run's
    /// cost (`1%`, the report's default).
    #[arg(long, value_name = "C", default_value = "1%")]
    min_cost: wpp_report::MinCost,
    /// Shortest subpath, in acyclic paths.
    #[arg(long, value_name = "M", default_value_t = 1)]
    min_len: usize,
    /// The cost of one run of a path.
    #[arg(long, value_enum, default_value_t = Cost::Instructions)]
    cost: Cost,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(Clone, Copy, ValueEnum)]
enum Cost {
    /// Instructions along the path.
    Instructions,
    /// 1 per path: a subpath's cost is its frequency times its length.
    Paths,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    anyhow::ensure!(o.max_len >= 1, "--max-len must be at least 1");
    anyhow::ensure!(o.min_len >= 1, "--min-len must be at least 1: a subpath has at least one path");
    anyhow::ensure!(o.min_len <= o.max_len, "--min-len {} is above --max-len {}", o.min_len, o.max_len);
    let dag = Dag::of(o.run.open(&o.profile)?)?;
    let cost = match o.cost {
        Cost::Instructions => wpp_report::Cost::Instructions,
        Cost::Paths => wpp_report::Cost::Paths,
    };
    let min_cost = o.min_cost.resolve(wpp_report::run_cost(&dag, cost));
    let params = HotParams { max_len: o.max_len, min_len: o.min_len, min_cost };
    let report = wpp_report::hot_subpaths(&dag, cost, &params, o.output.top());
    if o.output.json {
        return crate::print_json(&report);
    }
    wpp_text::hot::render(&mut std::io::stdout().lock(), &report, cost, &params, dag.boundary.is_some())?;
    Ok(())
}
