//! `wpp trace`: one function's traces from a TWPP file.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_report::format::{count, group};
use wpp_report::trace::TraceReport;
use wpp_twpp::Twpp;

/// Print a function's distinct traces from a TWPP file, reading its part only.
///
/// Each distinct trace (most invocations first) with how many invocations followed it and
/// who made them, how many blocks it ran, the source lines it ran (when the module had
/// DWARF; each once, in the order first run), its dynamic basic blocks (chains of blocks
/// always run together), and its timestamped form: each dynamic block with the steps it
/// ran at, as `l`, `l:h` (every step from l to h) or `l:h:s` (every s-th). With --call N,
/// only the trace of F's N-th invocation (from 1, in the order the run made them) and its
/// caller. Reads F's part of the file and its callers, nothing else. With --json:
/// {"function", "function_index", "invocations", "call": null or {"n", "caller"},
/// "traces": [{"trace", "invocations", "callers": [{"function", "function_index",
/// "invocations"}], "length", "blocks": [every block in order], "source",
/// "dynamic_blocks": [[block, ...]], "timestamps": [{"block", "steps": ["l", "l:h",
/// "l:h:s"]}]}], "truncated", "total_traces"}, every trace; a caller `(host)`
/// (function_index null) is the host calling the program.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp trace lua.twpp --func luaH_get --json")]
pub struct Opts {
    /// A file written by `wpp twpp build`.
    file: PathBuf,
    /// The function, by name or index.
    #[arg(long, value_name = "F")]
    func: String,
    /// Only the trace of F's N-th invocation (from 1, in the order the run made them).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    call: Option<u64>,
    #[command(flatten)]
    output: crate::Output,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let twpp = Twpp::open(&o.file)?;
    let f = wpp_report::select_func(&twpp.profile, &o.func)?;
    let report = wpp_report::traces(&twpp, f, o.call, o.output.top(), o.output.json)?;
    if o.output.json {
        return crate::print_json(&report);
    }
    print_text(&report)?;
    Ok(())
}

fn print_text(report: &TraceReport) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
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
