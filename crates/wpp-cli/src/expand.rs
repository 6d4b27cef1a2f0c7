//! `wpp expand`: the path trace, event by event.

use std::path::PathBuf;

use clap::Args;

/// Print the path trace, one event per line, as `FUNCTION_INDEX PATH_ID`.
///
/// Works on grammar profiles (the grammar is expanded lazily, never held whole) and on
/// trace profiles alike. For a trace compressed by `wpp compress`, prints its symbols.
/// The output is `wpp compress --format events`' input: `wpp expand P.wpp | wpp compress -
/// --format events -o Q.wpp` gives a profile whose expansion is the same.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp expand lua.wpp --decode | head")]
pub struct Opts {
    /// A profile with a trace or a grammar.
    profile: PathBuf,
    #[command(flatten)]
    run: crate::Run,
    /// Also print each path's function name and blocks: `FUNCTION_INDEX PATH_ID NAME: BLOCK...`.
    #[arg(long)]
    decode: bool,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let p = o.run.open(&o.profile)?;
    if o.decode {
        p.require_program("expand --decode")?;
    }
    wpp_text::expand::write(&mut std::io::stdout().lock(), &p, o.decode)?;
    Ok(())
}
