//! `wpp paths`: the Ball-Larus path profile of a recorded run.

use std::path::PathBuf;

use clap::Args;
use wpp_report::PathSort;

/// Print the path profile: how often each acyclic path ran, most executed first.
///
/// Each path is shown with its function, its Ball-Larus number, the instructions it
/// executes, and its source lines (or its basic blocks as byte ranges of the original
/// module). With --func, the `%` column is the path's share of the function's executions.
/// With --sort instructions, the paths that executed the most instructions (count ×
/// instructions per run) come first, with those instructions and their share of all the
/// paths' (of the function's, with --func). With --json: {"paths": [{"function",
/// "function_index", "path_id", "count", "instructions", "blocks", "source"}],
/// "executions", "instructions", "truncated", "total_paths"} (a path's "instructions" are
/// those of one run; the report's are of every path, listed or not).
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp paths lua.wpp --func luaV_execute --top 10\n  wpp paths lua.wpp --sort instructions")]
pub struct Opts {
    /// A profile written by `wpp record`.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// Only paths of this function (name or index).
    #[arg(long)]
    func: Option<String>,
    /// The order: most executed first, or most instructions executed first.
    #[arg(long, value_enum, default_value = "count")]
    sort: Sort,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Sort {
    /// Most executed first.
    Count,
    /// Most instructions executed first (count × instructions per run).
    Instructions,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = o.run.open(&o.profile)?;
    p.require_program("paths")?;
    let func = o.func.as_deref().map(|s| wpp_report::select_func(&p, s)).transpose()?;
    let sort = match o.sort {
        Sort::Count => PathSort::Count,
        Sort::Instructions => PathSort::Instructions,
    };
    let report = wpp_report::path_profile(&p, func, sort, o.output.top());
    if o.output.json {
        return crate::print_json(&report);
    }
    let func = func.map(|f| p.meta.func_name(f));
    wpp_text::paths::render(&mut std::io::stdout().lock(), &report, sort, func.as_deref(), p.source.is_some())?;
    Ok(())
}
