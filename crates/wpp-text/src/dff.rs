//! `wpp dff`: data flow frequencies on the grammar, exact and as the edge profile estimates
//! them.

use std::io::{self, Write};

use wpp_report::dataflow::DffReport;
use wpp_report::format::group;
use wpp_report::Top;

fn estimate(e: Option<f64>) -> String {
    e.map_or_else(|| "-".into(), |x| wpp_report::format::group_f(x, 1))
}

/// Facts shown at each point unless `--top 0` asks for every one.
const FACTS_SHOWN: usize = 8;

/// The data flow frequencies `r` as `wpp dff` prints them: each point's facts (the first
/// few, or every one with `--top 0`), beside the edge profile's estimate.
pub fn render(out: &mut dyn Write, r: &DffReport, top: Top) -> io::Result<()> {
    let facts_shown = if matches!(top, Top::All) { usize::MAX } else { FACTS_SHOWN };
    let c = &r.coverage;
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
