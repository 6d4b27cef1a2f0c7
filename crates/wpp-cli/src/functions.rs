//! `wpp functions`: the function table of a recorded run.

use std::path::PathBuf;

use clap::Args;
use wpp_report::FunctionSort;

/// Print every function that ran with the instructions it executed, most first.
///
/// Per function: the instructions its paths executed (each path's count × its
/// instructions) and their share of the run's, its path executions (a path runs once per
/// loop iteration and again after each call: these are not invocations), the distinct
/// paths that ran, how few of them make 90% of its executions (`90% ex`) and 90% of its
/// instructions (`90% in`), and where it starts (its entry block's source line, or its
/// bytes in the module). The HTML report's function table shows the same rows. With
/// --json: {"functions": [{"function", "function_index", "executions", "instructions",
/// "share" (of the run's instructions, 0 to 1), "paths", "paths_to_90_executions",
/// "paths_to_90_instructions", "source"}], "executions", "instructions" (the whole
/// run's), "truncated", "total_functions"}.
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp functions lua.wpp\n  wpp functions lua.wpp --sort paths --top 10")]
pub struct Opts {
    /// A profile written by `wpp record`.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// The order: most instructions, most path executions or most distinct paths first, or
    /// by name.
    #[arg(long, value_enum, default_value = "instructions")]
    sort: Sort,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Sort {
    /// Most instructions executed first.
    Instructions,
    /// Most path executions first.
    Executions,
    /// Most distinct paths first.
    Paths,
    /// By name, A to Z.
    Name,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = o.run.open(&o.profile)?;
    p.require_program("functions")?;
    let sort = match o.sort {
        Sort::Instructions => FunctionSort::Instructions,
        Sort::Executions => FunctionSort::Executions,
        Sort::Paths => FunctionSort::Paths,
        Sort::Name => FunctionSort::Name,
    };
    let report = wpp_report::functions(&p, sort, o.output.top());
    if o.output.json {
        return crate::print_json(&report);
    }
    wpp_text::functions::render(&mut std::io::stdout().lock(), &report, p.source.is_some())?;
    Ok(())
}
