//! `wpp functions`: each function's executions, instructions and paths.

use std::io::{self, Write};

use wpp_report::format::{group, percent, truncate};
use wpp_report::Functions;

/// The function table `report` as `wpp functions` prints it, the last column source lines
/// when the profile has them (`lines`), byte ranges when not.
pub fn render(out: &mut dyn Write, report: &Functions, lines: bool) -> io::Result<()> {
    writeln!(
        out,
        "{:>16} {:>6} {:>14} {:>7} {:>6} {:>6}  {:<32}  {}",
        "instructions",
        "%",
        "executions",
        "paths",
        "90% ex",
        "90% in",
        "function",
        if lines { "source" } else { "bytes" }
    )?;
    for r in &report.functions {
        writeln!(
            out,
            "{:>16} {:>5.1}% {:>14} {:>7} {:>6} {:>6}  {:<32}  {}",
            group(r.instructions),
            percent(r.instructions, report.instructions),
            group(r.executions),
            group(r.paths as u64),
            group(r.paths_to_90_executions as u64),
            group(r.paths_to_90_instructions as u64),
            truncate(&r.function, 32),
            r.source
        )?;
    }
    if let Some(note) = report.truncation.note("functions", "functions") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
