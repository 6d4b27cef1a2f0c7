//! `wpp slice`: a dynamic slice, by source line.

use std::io::{self, Write};
use std::path::Path;

use wpp_report::format::group;
use wpp_report::slice::SliceReport;

/// What `wpp slice --html` says when it wrote the page.
pub fn wrote(out: &mut dyn Write, report: &SliceReport, page: &Path) -> io::Result<()> {
    let (c, n) = (&report.criterion, group(report.statements));
    writeln!(out, "slice of {} before {}: {n} instructions, {} executions -> {}", c.variable, c.place.at_function(), group(report.instances), page.display())
}

/// What the dependence cache gave or took (`said`, its summary).
pub fn cache(out: &mut dyn Write, said: &str) -> io::Result<()> {
    writeln!(out, "wpp: dependence cache: {said}")
}

/// The slice `r` as `wpp slice` prints it: the criterion, then each source line's
/// instructions with the dependences that put them there.
pub fn render(out: &mut dyn Write, r: &SliceReport) -> io::Result<()> {
    let c = &r.criterion;
    writeln!(out, "slice of {} before {} (execution {} of {})", c.variable, c.place.at_function(), group(c.execution), group(c.executions))?;
    for line in c.origin() {
        writeln!(out, "  {line}")?;
    }
    let lines = if r.source_lines > 0 { format!(" on {} source lines", group(r.source_lines)) } else { String::new() };
    writeln!(out, "  {} instructions{lines}, {} executions", group(r.statements), group(r.instances))?;
    for note in r.notes() {
        writeln!(out, "  {note}")?;
    }
    for l in &r.lines {
        writeln!(out)?;
        writeln!(out, "{}  {}", l.source.as_deref().unwrap_or("(no source line)"), l.function)?;
        for i in &l.instructions {
            writeln!(out, "  {:<8} {:<22} {:>8}x", i.at, i.text, group(i.instances))?;
            for d in &i.deps {
                let what = match &d.register {
                    Some(reg) => format!("{} {reg}", d.kind),
                    None => d.kind.to_string(),
                };
                writeln!(out, "      {what:<20} <- {}  {}x", d.from.describe(), group(d.count))?;
            }
        }
    }
    let noun = if r.source_lines > 0 { "source lines" } else { "functions" };
    if let Some(note) = r.truncation.note("lines", noun) {
        writeln!(out, "\n{note}")?;
    }
    Ok(())
}
