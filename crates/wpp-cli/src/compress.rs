//! `wpp compress`: a grammar profile from a symbol trace recorded elsewhere.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use wpp_record::{Builder, Prediction, SymbolFormat};

use crate::builder_arg;

/// Compress a trace of symbols into a grammar profile.
///
/// The input is any sequence of 32-bit symbols (another tracer's output, a test corpus),
/// or of path events as `wpp expand` prints them (`--format events`). Symbols are
/// renumbered densely in order of first appearance; the profile keeps each terminal's
/// input, so `wpp expand` prints the input back.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp compress trace.u32 -o trace.wpp --grammar repair")]
pub struct Opts {
    /// The symbol trace ("-" for stdin).
    input: PathBuf,
    /// The profile to write.
    #[arg(short, long)]
    output: PathBuf,
    /// How the input is written [default: u32le, refused for an input that starts like
    /// text or another kind of file unless named].
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The grammar builder.
    #[arg(long, value_parser = builder_arg(), default_value = "sequitur1")]
    grammar: Builder,
    /// SEQUITUR with rule prediction (see `wpp record --predict`: measured, not faster on
    /// real traces, and larger grammars).
    #[arg(long)]
    predict: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// 4-byte little-endian unsigned integers.
    U32le,
    /// Unsigned decimal integers separated by whitespace.
    Text,
    /// Path events, one `FUNCTION PATH` per line, as `wpp expand` prints them.
    Events,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let input: Box<dyn std::io::Read> = if o.input.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(&o.input).map_err(|source| wpp_record::Error::Read { path: o.input.clone(), source })?)
    };
    let format = match o.format {
        None => SymbolFormat::U32leAssumed,
        Some(Format::U32le) => SymbolFormat::U32le,
        Some(Format::Text) => SymbolFormat::Text,
        Some(Format::Events) => SymbolFormat::Events,
    };
    let prediction = if o.predict { Prediction::Rules } else { Prediction::Off };
    wpp_profile::check_writable(&o.output)?;
    let c = wpp_record::compress(input, &o.input, format, o.grammar, prediction, &o.output)?;
    wpp_text::compress::compressed(&mut std::io::stderr().lock(), &c, &o.output)?;
    Ok(())
}
