//! `wpp export`: a whole profile as JSON, for other tools.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_profile::Profile;

/// Write a profile as one JSON document.
///
/// Holds the run (module, arguments, ending), every function with its CFG, the path
/// counts, and for a grammar profile the symbol table and the grammar's rules. A symbol on
/// a rule's right side is `{"t": TERMINAL}` or `{"r": RULE}`; rule 0 is the start rule
/// and terminal `i` is the path `symbols[i]`.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp export lua.wpp --json > lua.json")]
pub struct Opts {
    /// A profile.
    profile: PathBuf,
    /// Write JSON (the only format).
    #[arg(long, required = true)]
    json: bool,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    let e = wpp_report::export(&p)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &e)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}
