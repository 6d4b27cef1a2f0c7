//! `wpp dff`: exact data flow frequencies on a profile's grammar, with the module it was
//! recorded from, beside the edge profile's estimate.

use std::path::PathBuf;

use clap::Args;
use wpp_dataflow::dff::Dff;
use wpp_report::dataflow::DffReport;

/// Data flow frequencies: how often each fact held at each point over the whole run,
/// computed exactly on the profile's grammar (Scholz & Mehofer), in time proportional to
/// the grammar rather than the run.
///
/// Beside each exact count is the estimate an edge profile alone gives (at each block,
/// the facts of its predecessors mixed in proportion to the edge counts; program-wide
/// facts taken as exact at the function's entry and after its calls), and a list of the
/// points where the two differ most. Needs the module the profile was recorded from (its
/// SHA-256 is checked). A definition of a local is killed by the local's next definition;
/// of a global, by the next `global.set`; of memory at a constant address, by a store that
/// rewrites all its bytes (stores through pointers may-write and do not kill).
///
/// With --json: {"module", "profile", "problem", "function", "function_index", "points":
/// [{"point": {"function", "function_index", "at", "source"}, "block", "executions",
/// "facts": [{"kind", "variable", "site", "place", "exact", "estimate"}]}], "differences":
/// [{"point", "block", "executions", "fact", "error"}], "coverage": {"blocks",
/// "executed_and_analysed", "executed_not_analysed", "not_executed", "facts",
/// "grammar_rules", "rules_with_points", "rules_with_effect", "terminals_run",
/// "terminals_with_points", "passes"}, "truncated", "total_points", "total_differences"}.
/// `kind` is `local`, `global`, `memory` or `available`; `site` is `instruction` (with its
/// `place`), `entry` (a parameter or zero), `init` (the value at the start of the run) or
/// `load` (available loads: the fact is the load's own bytes).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  wpp dff lua.wpp --module lua.wasm --problem reaching-definitions --func luaH_get\n  wpp dff lua.wpp --module lua.wasm --problem available-loads --func luaV_execute --json\n  wpp dff fig.wpp --module fig.wasm --at fig.c:12 --func main"
)]
pub struct Opts {
    /// A profile recorded with --mode grammar (a trace profile is compressed first).
    file: PathBuf,
    /// The module the profile was recorded from.
    #[arg(long, value_name = "M.wasm")]
    module: PathBuf,
    #[arg(long, value_enum, default_value = "reaching-definitions")]
    problem: crate::Problem,
    /// The function whose points to show (name or index).
    #[arg(long, value_name = "F", required_unless_present = "at")]
    func: Option<String>,
    /// One point, before an instruction: FUNC:0xOFF or 0xOFF (a module byte offset),
    /// FUNC:bN or bN (block N of FUNC or of --func), or FILE:LINE (its first instruction
    /// in --func). For available loads, the load there.
    #[arg(long, value_name = "POINT")]
    at: Option<String>,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(serde::Serialize)]
struct Out {
    module: String,
    profile: String,
    #[serde(flatten)]
    report: DffReport,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let (dag, module) = wpp_dataflow::dff::open(&o.file, &o.module)?;
    let report = Dff::new(&dag, &module)?.answer(o.problem.into(), o.func.as_deref(), o.at.as_deref(), o.output.top())?;
    let out = Out { module: o.module.display().to_string(), profile: o.file.display().to_string(), report };
    if o.output.json {
        return crate::print_json(&out);
    }
    wpp_text::dff::render(&mut std::io::stdout().lock(), &out.report, o.output.top())?;
    Ok(())
}
