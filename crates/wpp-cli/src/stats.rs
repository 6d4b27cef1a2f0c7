//! `wpp stats`: what a profile holds and how well its trace compressed.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use wpp_profile::{Profile, RecordMode};

use crate::record::group;

/// Print a profile's size and compression statistics.
///
/// Events, distinct paths, and for a grammar profile its rules, symbols and depth, the
/// compression ratio against the raw trace (4 bytes per event), and the bytes of every
/// section of the file.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp stats lua.wpp --json")]
pub struct Opts {
    /// A profile written by `wpp record` or `wpp compress`.
    profile: PathBuf,
    /// Print JSON: {"events", "distinct_paths", "rules", "grammar_symbols", "depth", "ratio", "sections": {name: bytes}}.
    #[arg(long)]
    json: bool,
}

/// The JSON form is a stable contract.
#[derive(Serialize)]
struct Stats {
    module: String,
    mode: String,
    events: u64,
    distinct_paths: u64,
    /// Grammar rules, the start rule included (null without a grammar).
    rules: Option<u64>,
    grammar_symbols: Option<u64>,
    depth: Option<u64>,
    /// 4 bytes per event: the trace as 32-bit symbols.
    raw_trace_bytes: u64,
    /// `raw_trace_bytes` over the bytes of the grammar section.
    ratio: Option<f64>,
    sections: BTreeMap<String, u64>,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let sections: BTreeMap<String, u64> = p.toc.iter().map(|e| (e.name.clone(), e.len)).collect();
    let raw = p.meta.events.saturating_mul(4);
    let mut s = Stats {
        module: p.meta.module.clone(),
        mode: match p.meta.mode {
            RecordMode::Paths => "paths".into(),
            RecordMode::Trace => "trace".into(),
            RecordMode::Ppp => "ppp".into(),
            RecordMode::Grammar(b) => format!("grammar ({})", b.name()),
        },
        events: p.meta.events,
        distinct_paths: if p.has_grammar() { p.n_terminals() as u64 } else { p.counts.len() as u64 },
        rules: None,
        grammar_symbols: None,
        depth: None,
        raw_trace_bytes: raw,
        ratio: None,
        sections,
    };
    if p.has_grammar() {
        let g = p.grammar()?;
        let st = g.stats();
        s.rules = Some(st.rules as u64);
        s.grammar_symbols = Some(st.symbols as u64);
        s.depth = Some(st.depth as u64);
        let bytes = s.sections.get(wpp_profile::section::GRAMMAR).copied().unwrap_or(0);
        s.ratio = Some(raw as f64 / bytes.max(1) as f64);
    }
    let mut out = std::io::stdout().lock();
    if o.json {
        serde_json::to_writer_pretty(&mut out, &s)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "profile         {}", o.profile.display())?;
    writeln!(out, "module          {}", s.module)?;
    writeln!(out, "mode            {}", s.mode)?;
    writeln!(out, "events          {}", group(s.events))?;
    writeln!(out, "distinct paths  {}", group(s.distinct_paths))?;
    if let (Some(r), Some(n), Some(d), Some(ratio)) = (s.rules, s.grammar_symbols, s.depth, s.ratio) {
        writeln!(out, "rules           {}", group(r))?;
        writeln!(out, "grammar symbols {}", group(n))?;
        writeln!(out, "depth           {d}")?;
        writeln!(out, "ratio           {ratio:.1}:1 (raw trace of {} bytes at 4 bytes per event)", group(s.raw_trace_bytes))?;
    }
    writeln!(out, "sections")?;
    for (name, bytes) in &s.sections {
        writeln!(out, "  {name:<14}{:>14} bytes", group(*bytes))?;
    }
    Ok(())
}
