//! `wpp dataflow`: demand-driven data flow over a TWPP (redundant loads, reaching
//! definitions).

use std::io::{self, Write};

use wpp_report::dataflow::{ReachingReport, RedundancyReport, SiteCount};
use wpp_report::format::group;

/// The loads selected and how often each was redundant, as `wpp dataflow redundancy`
/// prints them.
pub fn redundancy(out: &mut dyn Write, report: &RedundancyReport) -> io::Result<()> {
    let untracked = report.untracked_loads;
    if report.loads.is_empty() {
        writeln!(out, "no load selected ran{}", if untracked > 0 { " with an address the analysis follows" } else { "" })?;
    }
    for l in &report.loads {
        let pct = 100.0 * l.redundant as f64 / l.executions as f64;
        writeln!(out, "{}  load {}", l.load.at_function(), l.address)?;
        writeln!(out, "    redundant  {:>12} of {} executions ({pct:.1}%)", group(l.redundant), group(l.executions))?;
        sites(out, "from", &l.available_from)?;
        sites(out, "killed by", &l.killed_by)?;
    }
    if let Some(note) = report.truncation.note("loads", "loads") {
        writeln!(out, "{note}")?;
    }
    if untracked > 0 {
        writeln!(out, "{untracked} selected loads ran with an address the analysis does not follow (not a constant, or a variable plus a constant)")?;
    }
    if report.never_ran_loads > 0 {
        let n = report.never_ran_loads;
        writeln!(out, "{} selected load{} never ran", group(n as u64), if n == 1 { "" } else { "s" })?;
    }
    Ok(())
}

/// The definitions that reached a point, as `wpp dataflow reaching` prints them.
pub fn reaching(out: &mut dyn Write, r: &ReachingReport) -> io::Result<()> {
    writeln!(out, "{} at {}: {} executions", r.variable, r.point.at_function(), group(r.executions))?;
    sites(out, "defined", &r.definitions)?;
    Ok(())
}

/// The first sites of a list, each with its count (`--json` has every one).
fn sites(out: &mut dyn Write, what: &str, v: &[SiteCount]) -> io::Result<()> {
    for s in v.iter().take(6) {
        writeln!(out, "    {what:<10} {:>12}  {}", group(s.count), s.name())?;
    }
    if v.len() > 6 {
        writeln!(out, "    {what:<10} ... {} more sites (--json has every one)", v.len() - 6)?;
    }
    Ok(())
}
