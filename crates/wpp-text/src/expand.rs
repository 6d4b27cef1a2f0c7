//! `wpp expand`: a profile's whole program path, one event a line (or a compressed trace's
//! symbols, as they were given).

use std::io::{self, Write};

use wpp_profile::Profile;

/// Why a profile's events could not all be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The output could not be written (a source, not transparent, so that the binary
    /// sees the I/O error in the chain: a closed pipe ends `wpp expand | head` quietly).
    #[error("writing the events")]
    Write(#[from] io::Error),
    /// The profile could not be read.
    #[error(transparent)]
    Profile(#[from] wpp_profile::Error),
}

impl Error {
    /// Whether wpp failed (the output could not be written) rather than its input.
    pub fn is_failure(&self) -> bool {
        match self {
            Error::Write(_) => true,
            Error::Profile(e) => e.is_failure(),
        }
    }
}

/// Writes the events of `p` as `wpp expand` prints them: `FUNC PATH` a line (with
/// `decode`, the path's name and blocks too), or for a profile of `wpp compress` each
/// symbol as the input gave it.
pub fn write(out: &mut dyn Write, p: &Profile, decode: bool) -> Result<(), Error> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
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
        result = if decode {
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
