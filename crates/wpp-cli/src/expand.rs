//! `wpp expand`: the path trace, event by event.

use std::io::Write as _;
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
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if p.has_grammar() && p.symbols.is_empty() && (!p.terminals.is_empty() || !p.terminal_events.is_empty()) {
        let g = p.grammar()?;
        for t in g.expand() {
            match p.terminal_events.get(t as usize) {
                Some((func, path)) => writeln!(out, "{func} {path}")?,
                None => writeln!(out, "{}", p.terminals[t as usize])?,
            }
        }
        out.flush()?;
        return Ok(());
    }
    let mut result = Ok(());
    // Few distinct paths run many times: decode each once.
    let mut decoded: rustc_hash::FxHashMap<wpp_model::PathEvent, String> = rustc_hash::FxHashMap::default();
    p.for_each_event(|e| {
        if result.is_err() {
            return;
        }
        result = if o.decode {
            let line = decoded.entry(e).or_insert_with(|| {
                let name = p.meta.func_name(e.func);
                let mut line = format!("{} {} {name}:", e.func.0, e.path.0);
                for b in p.path_blocks(e.func, e.path).unwrap_or_default() {
                    line.push(' ');
                    line.push_str(&b.0.to_string());
                }
                line
            });
            writeln!(out, "{line}")
        } else {
            writeln!(out, "{} {}", e.func.0, e.path.0)
        };
    })?;
    result?;
    out.flush()?;
    Ok(())
}
