//! `wpp trace`: one function's distinct traces in a TWPP, with their timestamps.

use std::io::{self, Write};

use wpp_report::format::{count, group};
use wpp_report::trace::TraceReport;

/// The traces `report` as `wpp trace` prints them: the first blocks, series and callers of
/// each (`--json` has every one).
pub fn render(out: &mut dyn Write, report: &TraceReport) -> io::Result<()> {
    writeln!(
        out,
        "{} (function {}): {}, {}",
        report.function,
        report.function_index,
        count(report.invocations, "invocation", "invocations"),
        count(report.distinct_traces as u64, "distinct trace", "distinct traces")
    )?;
    if let Some(c) = &report.call {
        writeln!(out, "invocation {} was called by {}", group(c.n), c.caller)?;
    }
    for r in &report.traces {
        writeln!(out, "\ntrace {}: {}, {}", r.trace, count(r.invocations, "invocation", "invocations"), count(r.length, "block", "blocks"))?;
        let by: Vec<String> = r.callers.iter().take(6).map(|c| format!("{} ({})", c.function, group(c.invocations))).collect();
        writeln!(out, "  called by   {}{}", by.join(", "), if r.callers.len() > 6 { format!(", ... {} more", r.callers.len() - 6) } else { String::new() })?;
        let shown: Vec<String> = r.source.iter().take(12).cloned().collect();
        writeln!(out, "  source      {}{}", shown.join(" "), if r.source.len() > 12 { format!(" ... ({} more)", r.source.len() - 12) } else { String::new() })?;
        if !r.dynamic_blocks.is_empty() {
            let chains: Vec<String> = r.dynamic_blocks.iter().take(8).map(|c| c.iter().map(|b| b.to_string()).collect::<Vec<_>>().join("-")).collect();
            writeln!(out, "  dynamic     {}{}", chains.join(" "), if r.dynamic_blocks.len() > 8 { " ..." } else { "" })?;
        }
        for s in r.timestamps.iter().take(12) {
            let steps: Vec<String> = s.steps.iter().take(8).map(wpp_report::trace::series).collect();
            writeln!(
                out,
                "  block {:<5} {}{}",
                s.block,
                steps.join(" "),
                if s.steps.len() > 8 { format!(" ... ({} series)", s.steps.len()) } else { String::new() }
            )?;
        }
        if r.timestamps.len() > 12 {
            writeln!(out, "  ... {} more blocks (--json has every one)", r.timestamps.len() - 12)?;
        }
    }
    if let Some(note) = report.truncation.note("traces", "traces") {
        writeln!(out, "\n{note}")?;
    }
    Ok(())
}
