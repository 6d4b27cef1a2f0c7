//! `wpp stats`: what a profile holds and how well its trace compressed.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_report::format::group;

/// Print a profile's size and compression statistics.
///
/// The SHA-256 of the module it was recorded from (what commands given the module check it
/// against), events, distinct paths, and for a grammar profile its rules, symbols and
/// depth, the compression ratio against the raw trace (4 bytes per event), and the bytes
/// of every section of the file. With --json: {"module", "module_sha256" (null when the
/// profile does not record it: an older wpp's, or `wpp compress`'s), "mode",
/// "prediction" (a grammar profile's rule prediction, `rules` or `off`; null when not
/// recorded), "ending",
/// "partial" (true when the recorder stopped the program: a signal or a limit), "events",
/// "distinct_paths", "rules", "grammar_symbols", "depth", "ratio", "sections": {name:
/// bytes}, "merged_runs": a merged profile's runs in order, [{"file", "mode", "args",
/// "ending", "partial", "events", "guest_nanos"}], null for a profile of one run}.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp stats lua.wpp --json")]
pub struct Opts {
    /// A profile written by `wpp record` or `wpp compress`.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    #[command(flatten)]
    output: crate::Json,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = o.run.open(&o.profile)?;
    let s = wpp_report::stats(&p)?;
    if o.output.json {
        return crate::print_json(&s);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "profile         {}", o.profile.display())?;
    writeln!(out, "module          {}", s.module)?;
    writeln!(out, "module sha256   {}", s.module_sha256.as_deref().unwrap_or("not recorded"))?;
    writeln!(out, "mode            {}", s.mode)?;
    writeln!(out, "ending          {}", s.ending)?;
    writeln!(out, "events          {}", group(s.events))?;
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
