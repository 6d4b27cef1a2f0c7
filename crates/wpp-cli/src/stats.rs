//! `wpp stats`: what a profile holds and how well its trace compressed.

use std::path::PathBuf;

use clap::Args;

/// Print a profile's size and compression statistics.
///
/// The SHA-256 of the module it was recorded from (what commands given the module check it
/// against), events, distinct paths, and for a grammar profile its rules, symbols and
/// depth, the compression ratio against the raw trace (4 bytes per event), and the bytes
/// of every section of the file. With --json: {"module", "module_sha256" (null when the
/// profile does not record it: an older wpp's, or `wpp compress`'s), "mode",
/// "prediction" (a grammar profile's rule prediction, `rules` or `off`; null when not
/// recorded), "ending",
/// "partial" (true when the recorder stopped the program: a signal or a limit), "events"
/// (the program's path events), "check_events" (an extended WPP's: its check routine's,
/// recorded among them; null otherwise), "distinct_paths", "rules", "grammar_symbols", "depth", "ratio", "sections": {name:
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
    wpp_text::stats::render(&mut std::io::stdout().lock(), &o.profile, &s)?;
    Ok(())
}
