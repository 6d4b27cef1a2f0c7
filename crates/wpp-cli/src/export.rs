//! `wpp export`: a whole profile as JSON, for other tools.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;

/// Write a profile as one JSON document.
///
/// Holds the run (module, arguments, how it ended), every function with its CFG, the path
/// counts, a trace profile's trace, and a grammar profile's symbol table and rules. A
/// symbol on a rule's right side is `{"t": TERMINAL}` or `{"r": RULE}`; rule 0 is the
/// start rule and terminal `i` is the path `symbols[i]`. Tags are snake_case strings;
/// integers past 2^53 - 1 (which JSON readers round) are decimal strings; "no limit" is
/// null. The schema: docs/export.md.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp export lua.wpp > lua.json")]
pub struct Opts {
    /// A profile.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// Write JSON (the only format, and the default).
    #[arg(long)]
    json: bool,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let _ = o.json;
    let p = o.run.open(&o.profile)?;
    let e = wpp_report::export(&p)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &e)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}
