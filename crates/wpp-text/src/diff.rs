//! `wpp diff`: two runs (or two builds) side by side, functions and paths by the change in
//! the instructions they executed.

use std::io::{self, Write};
use std::path::Path;

use wpp_report::diff::Diff;
use wpp_report::format::{group, signed, truncate};

/// What `wpp diff --html` says when it wrote the page.
pub fn wrote(out: &mut dyn Write, page: &Path, d: &Diff) -> io::Result<()> {
    writeln!(out, "wpp: wrote {} ({} functions, {} paths)", page.display(), d.functions.len(), d.paths.len())
}

/// The comparison `d` as `wpp diff` prints it, paths placed by source lines when the
/// profiles have them (`source`), by byte ranges when not.
pub fn render(out: &mut dyn Write, d: &Diff, source: bool) -> io::Result<()> {
    let [name_a, name_b] = d.labels();
    writeln!(out, "A: {name_a}: {} path executions, {} instructions", group(d.executions_a), group(d.instructions_a))?;
    writeln!(out, "B: {name_b}: {} path executions, {} instructions", group(d.executions_b), group(d.instructions_b))?;
    writeln!(
        out,
        "change in instructions: {}; paths only A ran: {}, only B ran: {}",
        signed(d.instructions_b as i128 - d.instructions_a as i128),
        d.only_a,
        d.only_b
    )?;
    if d.unmatched_a.is_some() {
        writeln!(out, "two builds: functions matched by name, paths by source lines")?;
    }
    for line in d.unmatched() {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(out, "functions by change in instructions (B - A):")?;
    writeln!(out, "{:>16} {:>16} {:>16}  function", "change", "instrs A", "instrs B")?;
    for f in &d.functions {
        writeln!(out, "{:>16} {:>16} {:>16}  {}", signed(f.change), group(f.instructions_a), group(f.instructions_b), f.function)?;
    }
    if let Some(note) = d.truncation.note("functions", "functions") {
        writeln!(out, "{note}")?;
    }
    writeln!(out)?;
    writeln!(out, "paths by change in instructions (B - A):")?;
    writeln!(
        out,
        "{:>16} {:>12} {:>12}  {:<32} {:>10} {:>7}  {}",
        "change",
        "count A",
        "count B",
        "function",
        "path",
        "instrs",
        wpp_report::PathRow::places_header(source)
    )?;
    let builds = d.unmatched_a.is_some();
    for p in &d.paths {
        let id = match (builds, p.only) {
            (false, _) => p.path.path_id.to_string(),
            (true, Some("b")) => format!("-/{}", p.path.path_id),
            (true, _) => format!("{}/{}", p.path.path_id, p.path_id_b.map_or("-".into(), |x| x.to_string())),
        };
        let only = match p.only {
            Some("a") => "  [only A]",
            Some(_) => "  [only B]",
            None => "",
        };
        writeln!(
            out,
            "{:>16} {:>12} {:>12}  {:<32} {:>10} {:>7}  {}{only}",
            signed(p.change),
            group(p.count_a),
            group(p.count_b),
            truncate(&p.path.function, 32),
            id,
            p.path.instructions,
            p.path.places(source)
        )?;
    }
    if let Some(note) = d.truncation.note("paths", "paths") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
