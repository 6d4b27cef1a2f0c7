//! `wpp stats`: what a profile holds and how well its trace compressed.

use std::io::{self, Write};
use std::path::Path;

use wpp_report::format::group;
use wpp_report::stats::Stats;

/// The statistics `s` of the profile at `profile` as `wpp stats` prints them.
pub fn render(out: &mut dyn Write, profile: &Path, s: &Stats) -> io::Result<()> {
    writeln!(out, "profile         {}", profile.display())?;
    writeln!(out, "module          {}", s.module)?;
    writeln!(out, "module sha256   {}", s.module_sha256.as_deref().unwrap_or("not recorded"))?;
    writeln!(out, "mode            {}", s.mode)?;
    writeln!(out, "ending          {}", s.ending)?;
    writeln!(out, "events          {}", group(s.events))?;
    if let Some(c) = s.check_events {
        let share = 100.0 * c as f64 / (s.events + c).max(1) as f64;
        writeln!(out, "checks          {} events of the extended WPP's check routine ({share:.1}% of those recorded)", group(c))?;
    }
    writeln!(out, "distinct paths  {}", group(s.distinct_paths))?;
    if let Some(runs) = &s.merged_runs {
        writeln!(out, "runs            {} merged (--run N reads one)", runs.len())?;
        for (i, r) in runs.iter().enumerate() {
            let args = if r.args.is_empty() { String::new() } else { format!(", arguments: {}", r.args.join(" ")) };
            writeln!(out, "  {:>4}  {}: {}, {}, {} events{args}", i + 1, r.file, r.mode, r.ending, group(r.events))?;
        }
    }
    if let (Some(r), Some(n), Some(d), Some(ratio)) = (s.rules, s.grammar_symbols, s.depth, s.ratio) {
        writeln!(out, "rules           {}", group(r))?;
        writeln!(out, "grammar symbols {}", group(n))?;
        writeln!(out, "depth           {d}")?;
        writeln!(out, "ratio           {ratio:.1}:1 (raw trace of {} bytes at 4 bytes per event)", group(s.raw_trace_bytes))?;
    }
    writeln!(out, "sections")?;
    // Names are padded to the longest, so that the sizes line up.
    let width = s.sections.keys().map(|n| n.chars().count() + 1).max().unwrap_or(0).max(14);
    for (name, bytes) in &s.sections {
        writeln!(out, "  {name:<width$}{:>14} bytes", group(*bytes))?;
    }
    Ok(())
}
