//! `wpp dff`: exact data flow frequencies on a profile's grammar, with the module it was
//! recorded from, beside the edge profile's estimate.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_dataflow::dff::Dff;
use wpp_report::dataflow::DffReport;
use wpp_report::format::group;

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
    print_text(&out, o.output.top())?;
    Ok(())
}

fn estimate(e: Option<f64>) -> String {
    e.map_or_else(|| "-".into(), |x| wpp_report::format::group_f(x, 1))
}

/// Facts shown at each point unless `--top 0` asks for every one.
const FACTS_SHOWN: usize = 8;

fn print_text(o: &Out, top: wpp_report::Top) -> std::io::Result<()> {
    let facts_shown = if matches!(top, wpp_report::Top::All) { usize::MAX } else { FACTS_SHOWN };
    let r = &o.report;
    let c = &r.coverage;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} in {} (function {}): {} blocks, {} executed and analysed, {} executed with nothing to analyse, {} not executed; {} facts",
        r.problem,
        r.function,
        r.function_index,
        group(c.blocks as u64),
        group(c.executed_and_analysed as u64),
        group(c.executed_not_analysed as u64),
        group(c.not_executed as u64),
        group(c.facts as u64)
    )?;
    writeln!(
        out,
        "grammar: {} rules, {} hold a point, {} do something to a fact; {} of {} paths run hold a point",
        group(c.grammar_rules as u64),
        group(c.rules_with_points as u64),
        group(c.rules_with_effect as u64),
        group(c.terminals_with_points as u64),
        group(c.terminals_run as u64)
    )?;
    if r.points.is_empty() {
        let what = if r.problem == "available-loads" { "no load at a constant or global-based address" } else { "no point asked for" };
        writeln!(out, "\n{what} in {} ran", r.function)?;
    }
    for p in &r.points {
        writeln!(out, "\nblock {} at {}  executed {}", p.block, p.point.at_source(), group(p.executions))?;
        writeln!(out, "    {:>14} {:>16}  fact", "exact", "edge estimate")?;
        for f in p.facts.iter().take(facts_shown) {
            writeln!(out, "    {:>14} {:>16}  {}", group(f.exact), estimate(f.estimate), f.name())?;
        }
        if p.facts.len() > facts_shown {
            let left = p.facts.len() - facts_shown;
            writeln!(out, "    ... {left} more {} (--top 0 shows every one)", if left == 1 { "fact" } else { "facts" })?;
        }
    }
    if let Some(note) = r.truncation.note("points", "points") {
        writeln!(out, "{note}")?;
    }
    if r.differences.is_empty() {
        writeln!(out, "\nthe edge profile's estimate, rounded, is exact at every point shown")?;
    } else {
        writeln!(out, "\nwhere the edge profile's estimate is furthest from the exact count:")?;
        for d in &r.differences {
            writeln!(
                out,
                "    block {} at {}: {}  exact {} of {}, estimate {} ({:+.1})",
                d.block,
                d.point.at_source(),
                d.fact.name(),
                group(d.fact.exact),
                group(d.executions),
                estimate(d.fact.estimate),
                d.error
            )?;
        }
        if let Some(note) = r.truncation.note("differences", "differences") {
            writeln!(out, "{note}")?;
        }
    }
    Ok(())
}
