//! `wpp hot`: minimal hot subpaths of a whole program path.

use std::io::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;
use wpp_grammar::HotParams;

use crate::dag::{Dag, PathRef};

/// Find the minimal hot subpaths: runs of at most L consecutive acyclic paths whose cost
/// (frequency × the paths' summed cost) is at least C.
///
/// The search runs on the grammar's DAG without expanding the trace (Larus 1999, §4.2),
/// then counts each found subpath's exact frequency. It reports a subset of all minimal
/// hot subpaths: a subpath whose occurrences are spread over many places in the grammar,
/// or that overlaps one already reported, may be missed. Works on grammar and trace
/// profiles (a trace is compressed first).
#[derive(Args)]
#[command(after_help = "Example:\n  wpp hot lua.wpp --max-len 100 --min-cost 1000000 --min-len 10")]
pub struct Opts {
    /// A profile with a grammar or a trace.
    profile: PathBuf,
    /// Longest subpath, in acyclic paths.
    #[arg(long, value_name = "L")]
    max_len: usize,
    /// Least cost of a hot subpath.
    #[arg(long, value_name = "C")]
    min_cost: u64,
    /// Shortest subpath, in acyclic paths.
    #[arg(long, value_name = "M", default_value_t = 1)]
    min_len: usize,
    /// Show at most N subpaths [0 for all].
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// The cost of one run of a path.
    #[arg(long, value_enum, default_value_t = Cost::Instructions)]
    cost: Cost,
    /// Print JSON: {"subpaths": [{"frequency", "cost", "length", "paths": [{"function", "function_index", "path_id", "blocks", "source"}]}]}.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Cost {
    /// Instructions along the path.
    Instructions,
    /// 1 per path: a subpath's cost is its frequency times its length.
    Paths,
}

#[derive(Serialize)]
struct Row {
    frequency: u64,
    cost: u64,
    length: usize,
    paths: Vec<PathRef>,
}

#[derive(Serialize)]
struct Report {
    subpaths: Vec<Row>,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    anyhow::ensure!(o.max_len >= 1, "--max-len must be at least 1");
    anyhow::ensure!(o.min_len <= o.max_len, "--min-len {} is above --max-len {}", o.min_len, o.max_len);
    let dag = Dag::open(&o.profile)?;
    let costs = match o.cost {
        Cost::Instructions => dag.instruction_costs(),
        Cost::Paths => vec![1; dag.paths.len()],
    };
    let params = HotParams { max_len: o.max_len, min_len: o.min_len, min_cost: o.min_cost };
    let mut hot = wpp_grammar::hot_subpaths(&dag.grammar, &costs, &params);
    let total = hot.len();
    if o.top > 0 {
        hot.truncate(o.top);
    }
    let rows: Vec<Row> = hot
        .iter()
        .map(|h| Row { frequency: h.frequency, cost: h.cost, length: h.symbols.len(), paths: h.symbols.iter().map(|&t| dag.describe(t)).collect() })
        .collect();
    let mut out = std::io::stdout().lock();
    if o.json {
        serde_json::to_writer_pretty(&mut out, &Report { subpaths: rows })?;
        writeln!(out)?;
        return Ok(());
    }
    let unit = match o.cost {
        Cost::Instructions => "instructions",
        Cost::Paths => "paths",
    };
    writeln!(out, "{total} minimal hot subpaths of {} to {} paths costing at least {} {unit}", o.min_len, o.max_len, crate::record::group(o.min_cost))?;
    for (i, r) in rows.iter().enumerate() {
        writeln!(out, "\n#{:<3} cost {} {unit}, frequency {}, {} paths", i + 1, crate::record::group(r.cost), crate::record::group(r.frequency), r.length)?;
        // Runs of one path are shown once with a repeat count.
        let mut j = 0;
        while j < r.paths.len() {
            let mut k = j + 1;
            while k < r.paths.len() && r.paths[k].function_index == r.paths[j].function_index && r.paths[k].path_id == r.paths[j].path_id {
                k += 1;
            }
            let times = if k - j > 1 { format!(" ×{}", k - j) } else { String::new() };
            writeln!(out, "     {}{times}", r.paths[j])?;
            j = k;
        }
    }
    if rows.len() < total {
        writeln!(out, "\n... {} more (--top 0 shows all)", total - rows.len())?;
    }
    Ok(())
}
