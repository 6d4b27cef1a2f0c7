//! `wpp hot`: the minimal hot subpaths of a run, costliest first.

use std::io::{self, Write};

use wpp_grammar::HotParams;
use wpp_report::format::{count, group};
use wpp_report::{Cost, HotSubpaths};

/// The hot subpaths `report` found with `params` as `wpp hot` prints them, each's share
/// of the run's (or, for a merged profile, the runs') `cost`.
pub fn render(out: &mut dyn Write, report: &HotSubpaths, cost: Cost, params: &HotParams, runs: bool) -> io::Result<()> {
    let unit = cost.unit();
    let total = report.truncation.total("subpaths");
    let of_the_run = if runs { "of the runs" } else { "of the run" };
    writeln!(
        out,
        "{} of {} to {} costing at least {} {unit}",
        count(total as u64, "minimal hot subpath", "minimal hot subpaths"),
        params.min_len,
        count(params.max_len as u64, "path", "paths"),
        group(params.min_cost)
    )?;
    for (i, r) in report.subpaths.iter().enumerate() {
        let share = 100.0 * r.share;
        if r.disjoint == r.frequency {
            writeln!(
                out,
                "\n#{:<3} cost {} {unit} ({share:.1}% {of_the_run}), frequency {}, {}",
                i + 1,
                group(r.cost),
                group(r.frequency),
                count(r.length as u64, "path", "paths")
            )?;
        } else {
            writeln!(
                out,
                "\n#{:<3} cost {} {unit}, frequency {} (overlapping), {}",
                i + 1,
                group(r.cost),
                group(r.frequency),
                count(r.length as u64, "path", "paths")
            )?;
            writeln!(out, "     side by side {} times: {} {unit} ({share:.1}% {of_the_run})", group(r.disjoint), group(r.disjoint_cost))?;
        }
        // Runs of one path are shown once with a repeat count.
        let mut j = 0;
        while j < r.paths.len() {
            let mut k = j + 1;
            while k < r.paths.len() && r.paths[k].same_path(&r.paths[j]) {
                k += 1;
            }
            let times = if k - j > 1 { format!(" ×{}", k - j) } else { String::new() };
            writeln!(out, "     {}{times}", r.paths[j])?;
            j = k;
        }
    }
    if let Some(note) = report.truncation.note("subpaths", "subpaths") {
        writeln!(out, "\n{note}")?;
    }
    Ok(())
}
