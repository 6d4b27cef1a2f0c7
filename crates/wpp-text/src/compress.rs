//! `wpp compress`: the grammar profile made of a symbol trace.

use std::io::{self, Write};
use std::path::Path;

use wpp_record::Compressed;
use wpp_report::format::group;

/// What `wpp compress` says when it wrote the grammar profile `output`.
pub fn compressed(out: &mut dyn Write, c: &Compressed, output: &Path) -> io::Result<()> {
    writeln!(
        out,
        "wpp: {} symbols ({} distinct) in {:.2} s ({:.2} M/s); grammar {} rules, {} symbols, {} bytes -> {}",
        group(c.n_symbols),
        group(c.n_distinct as u64),
        c.build_time.as_secs_f64(),
        c.n_symbols as f64 / c.build_time.as_secs_f64().max(1e-9) / 1e6,
        group(c.grammar.rules.len() as u64),
        group(c.grammar.n_symbols() as u64),
        group(c.encoded_bytes as u64),
        output.display()
    )
}
