//! `wpp-bench decode`: how fast the grammar sections of existing profiles decode.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;

/// Decode the grammar section of each profile and report its size and speed: grammar
/// symbols, rules, section bytes, the fastest of --repeat decodes (`decode_grammar` alone,
/// from the section's bytes in memory) in seconds and grammar symbols per second, and the
/// grammar as an analysis reads it (`Profile::grammar`: the section read and checked,
/// decoded, validated against the profile, its length compared with the events recorded),
/// fastest of --repeat, with its symbols per second.
#[derive(Args)]
pub struct Opts {
    /// Profiles recorded with the whole program path as a grammar.
    #[arg(required = true)]
    profiles: Vec<PathBuf>,
    /// Decode each this many times and report the fastest.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{:<24} {:>12} {:>10} {:>12} {:>9} {:>9} {:>9} {:>9}", "profile", "symbols", "rules", "bytes", "decode s", "Msym/s", "open s", "Msym/s")?;
    for path in &o.profiles {
        let profile = wpp_profile::Profile::open(path).with_context(|| format!("{}", path.display()))?;
        let bytes = profile.section_bytes("grammar").with_context(|| format!("{}", path.display()))?;
        let mut decode = f64::INFINITY;
        let mut g = None;
        for _ in 0..o.repeat.max(1) {
            let t = Instant::now();
            let decoded = wpp_grammar::decode_grammar(&bytes).with_context(|| format!("{}: section `grammar`", path.display()))?;
            decode = decode.min(t.elapsed().as_secs_f64());
            g = Some(decoded);
        }
        let g = g.expect("decoded at least once");
        let mut open = f64::INFINITY;
        for _ in 0..o.repeat.max(1) {
            let t = Instant::now();
            let read = profile.grammar().with_context(|| format!("{}", path.display()))?;
            open = open.min(t.elapsed().as_secs_f64());
            anyhow::ensure!(read.n_symbols() <= g.n_symbols(), "{}: the profile's grammar has more symbols than its section", path.display());
        }
        let symbols = g.n_symbols();
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        writeln!(
            out,
            "{:<24} {:>12} {:>10} {:>12} {:>9.3} {:>9.1} {:>9.3} {:>9.1}",
            name,
            symbols,
            g.rules.len(),
            bytes.len(),
            decode,
            symbols as f64 / decode / 1e6,
            open,
            symbols as f64 / open / 1e6
        )?;
    }
    Ok(())
}
