//! `wpp paths`: the path profile, most executed (or most instructions) first.

use std::io::{self, Write};

use wpp_report::format::{group, percent, truncate};
use wpp_report::{PathProfile, PathRow, PathSort};

/// The path profile `report` as `wpp paths` prints it: of one function (`func`, its name)
/// or of all, with source lines when the profile has them (`lines`).
pub fn render(out: &mut dyn Write, report: &PathProfile, sort: PathSort, func: Option<&str>, lines: bool) -> io::Result<()> {
    let where_ = PathRow::places_header(lines);
    let of = func.map(|f| format!("paths of {f}"));
    match sort {
        PathSort::Count => {
            let events = report.executions;
            // With a function the share is of the function's executions, and the header says so.
            let share_of = match &of {
                Some(of) => {
                    writeln!(out, "{of}: {} executions; % is of these", group(events))?;
                    "% fn"
                }
                None => "%",
            };
            writeln!(out, "{:>14} {:>6}  {:<32} {:>10} {:>7}  {where_}", "count", share_of, "function", "path", "instrs")?;
            for r in &report.paths {
                let count = r.count.unwrap_or(0);
                writeln!(
                    out,
                    "{:>14} {:>5.1}%  {:<32} {:>10} {:>7}  {}",
                    group(count),
                    percent(count, events),
                    truncate(&r.function, 32),
                    r.path_id,
                    r.instructions,
                    r.places(lines)
                )?;
            }
        }
        PathSort::Instructions => {
            let all = report.instructions;
            writeln!(out, "{} by instructions executed (count × instrs): {} in all; % is of these", of.as_deref().unwrap_or("paths"), group(all))?;
            writeln!(out, "{:>16} {:>6} {:>14}  {:<32} {:>10} {:>7}  {where_}", "instructions", "%", "count", "function", "path", "instrs")?;
            for r in &report.paths {
                let count = r.count.unwrap_or(0);
                let total = count.saturating_mul(r.instructions);
                writeln!(
                    out,
                    "{:>16} {:>5.1}% {:>14}  {:<32} {:>10} {:>7}  {}",
                    group(total),
                    percent(total, all),
                    group(count),
                    truncate(&r.function, 32),
                    r.path_id,
                    r.instructions,
                    r.places(lines)
                )?;
            }
        }
    }
    if let Some(note) = report.truncation.note("paths", "paths") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
