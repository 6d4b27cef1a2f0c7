//! `wpp twpp build` and `wpp twpp stats`: a TWPP file made, and what it holds.

use std::io::{self, Write};
use std::path::Path;

use wpp_report::format::group;
use wpp_report::TwppStats;
use wpp_twpp::file::Built;

/// What `wpp twpp build` says when it wrote `output` in `secs` seconds, keeping `kept`
/// memory dependences if the profile had them.
pub fn built(out: &mut dyn Write, built: &Built, kept: Option<u64>, secs: f64, output: &Path) -> io::Result<()> {
    writeln!(
        out,
        "wpp: {} events, {} invocations of {} functions, {} distinct traces; function parts {} bytes, call graph {} bytes; {:.2} s -> {}",
        group(built.index.events),
        group(built.index.invocations()),
        built.index.functions.len(),
        group(built.index.distinct_traces()),
        group(built.part_bytes),
        group(built.dcg_bytes),
        secs,
        output.display()
    )?;
    if let Some(n) = kept {
        writeln!(out, "wpp: kept {} memory dependences (load executions and the write instances they read), which `wpp slice` follows", group(n))?;
    }
    Ok(())
}

/// The statistics `s` of the TWPP `file` as `wpp twpp stats` prints them: the size after
/// each step of the compaction, the call graph's, and the first sections.
pub fn stats(out: &mut dyn Write, file: &Path, s: &TwppStats) -> io::Result<()> {
    let factor = |a: u64, b: u64| a as f64 / b.max(1) as f64;
    writeln!(out, "file                  {}", file.display())?;
    writeln!(out, "events                {}", group(s.events))?;
    writeln!(out, "invocations           {} of {} functions ({} open when the trace ended)", group(s.invocations), s.functions, s.open_at_end)?;
    writeln!(out, "distinct traces       {}", group(s.distinct_traces))?;
    writeln!(out, "WPP traces            {:>14} bytes (every invocation's blocks)", group(s.wpp_bytes))?;
    writeln!(out, "  duplicates removed  {:>14} bytes  x{:.2}", group(s.dedup_bytes), factor(s.wpp_bytes, s.dedup_bytes))?;
    writeln!(out, "  dynamic blocks      {:>14} bytes  x{:.2} (with dictionaries)", group(s.dbb_bytes), factor(s.dedup_bytes, s.dbb_bytes))?;
    writeln!(out, "  timestamped         {:>14} bytes  x{:.2}", group(s.twpp_bytes), factor(s.dbb_bytes, s.twpp_bytes))?;
    writeln!(
        out,
        "call graph            {:>14} bytes; LZW {} bytes, SEQUITUR(1) {} bytes",
        group(s.dcg_bytes),
        group(s.dcg_lzw_bytes),
        group(s.dcg_grammar_bytes)
    )?;
    writeln!(out, "overall               x{:.1} (WPP traces and call graph against TWPP traces, dictionaries and compressed call graph)", s.overall_factor)?;
    writeln!(
        out,
        "flow graphs           static {} nodes, {} edges; dynamic {} nodes, {} edges (summed over distinct traces)",
        group(s.static_nodes),
        group(s.static_edges),
        group(s.dynamic_nodes),
        group(s.dynamic_edges)
    )?;
    writeln!(out, "timestamp vectors     {:.1} series per dynamic block ({:.1} timestamps)", s.mean_series, s.mean_timestamps)?;
    writeln!(out, "sections")?;
    let n = s.sections.len();
    for (i, (name, bytes)) in s.sections.iter().enumerate() {
        if i < 12 || i + 1 == n {
            writeln!(out, "  {name:<14}{:>14} bytes", group(*bytes))?;
        } else if i == 12 {
            writeln!(out, "  ... {} more", n - 13)?;
        }
    }
    Ok(())
}
