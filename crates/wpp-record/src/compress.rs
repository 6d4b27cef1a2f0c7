//! Grammar profiles of symbol traces recorded by something else.

use std::io::{BufRead, Read};
use std::path::Path;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use wpp_grammar::Grammar;
use wpp_profile::{section, Builder, Ending, Meta, RecordMode, Writer};

use crate::Error;
use wpp_profile::{GrammarBuilder, Prediction};

/// How a symbol trace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolFormat {
    /// 4-byte little-endian unsigned integers.
    U32le,
    /// 4-byte little-endian unsigned integers, the format assumed when none was named:
    /// an input that starts like text or another kind of file (a profile, a module, JSON)
    /// is refused with the formats that read it, rather than read as numbers.
    U32leAssumed,
    /// Unsigned decimal integers separated by whitespace.
    Text,
    /// Path events, one `FUNCTION PATH` per line (two unsigned decimal integers, the
    /// second up to 64 bits), as `wpp expand` prints a profile's path trace.
    Events,
}

/// One symbol of the input.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Symbol {
    Value(u32),
    Event(u32, u64),
}

/// What [`compress`] built.
pub struct Compressed {
    pub n_symbols: u64,
    pub n_distinct: u32,
    pub build_time: Duration,
    pub grammar: Grammar,
    pub encoded_bytes: usize,
}

/// Compresses the symbols read from `input` (named `name` in errors and in the profile)
/// into a grammar with `builder` and writes it as a profile to `output`. Symbols are
/// renumbered densely in order of first appearance; the profile keeps each terminal's
/// input value, so expanding it gives the input back.
pub fn compress(input: impl Read, name: &Path, format: SymbolFormat, builder: Builder, prediction: Prediction, output: &Path) -> Result<Compressed, Error> {
    let t = Instant::now();
    let mut b = GrammarBuilder::for_paths(builder, prediction);
    b.use_threads(std::thread::available_parallelism().map_or(1, |n| n.get())).map_err(|e| Error::Build(e.into()))?;
    let mut dense: FxHashMap<Symbol, u32> = FxHashMap::default();
    let mut terminals: Vec<Symbol> = Vec::new();
    let mut n = 0u64;
    read_symbols(input, name, format, |v| {
        let next = terminals.len() as u32;
        let t = *dense.entry(v).or_insert(next);
        if t == next {
            if next > wpp_grammar::MAX_TERMINAL {
                return Err(Error::Invalid(format!("{}: more than {} distinct symbols", name.display(), wpp_grammar::MAX_TERMINAL)));
            }
            terminals.push(v);
        }
        b.push(t).map_err(|e| Error::Invalid(format!("{}: {e}", name.display())))?;
        n += 1;
        Ok(())
    })?;
    let grammar = b.finish().map_err(|e| Error::Invalid(format!("{}: {e}", name.display())))?;
    let build_time = t.elapsed();
    let encoded = wpp_grammar::encode_grammar(&grammar, terminals.len() as u32);
    let meta = Meta {
        module: name.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        module_bytes: 0,
        mode: RecordMode::Grammar(builder),
        max_paths: u64::MAX,
        functions: Vec::new(),
        args: Vec::new(),
        ending: Ending::Exited(0),
        guest_nanos: 0,
        events: n,
    };
    let mut w = Writer::create(output)?;
    w.write_value(section::META, &meta)?;
    w.write_value(section::COUNTS, &Vec::<wpp_profile::PathCount>::new())?;
    if format == SymbolFormat::Events {
        let events: Vec<(u32, u64)> = terminals.iter().map(|t| if let Symbol::Event(f, p) = *t { (f, p) } else { unreachable!("events read") }).collect();
        w.write_value(section::TERMINAL_EVENTS, &events)?;
    } else {
        let values: Vec<u32> = terminals.iter().map(|t| if let Symbol::Value(v) = *t { v } else { unreachable!("values read") }).collect();
        w.write_value(section::TERMINALS, &values)?;
    }
    w.write_section(section::GRAMMAR, &encoded)?;
    w.write_value(section::GRAMMAR_OPTIONS, &wpp_profile::GrammarOptions { prediction })?;
    w.finish()?;
    Ok(Compressed { n_symbols: n, n_distinct: terminals.len() as u32, build_time, grammar, encoded_bytes: encoded.len() })
}

/// Reads the symbols of `input`, calling `f` with each.
fn read_symbols(input: impl Read, name: &Path, format: SymbolFormat, mut f: impl FnMut(Symbol) -> Result<(), Error>) -> Result<(), Error> {
    let read_err = |source| Error::Read { path: name.to_owned(), source };
    let mut reader = std::io::BufReader::with_capacity(1 << 20, input);
    match format {
        SymbolFormat::U32le | SymbolFormat::U32leAssumed => {
            let mut buf = vec![0u8; 1 << 20];
            let mut have = 0usize;
            let mut offset = 0u64;
            let mut first = format == SymbolFormat::U32leAssumed;
            loop {
                let n = reader.read(&mut buf[have..]).map_err(read_err)?;
                if std::mem::take(&mut first) {
                    use wpp_model::sniff::FileKind;
                    let kind = FileKind::of(&buf[..n]);
                    if !matches!(kind, FileKind::Binary(_) | FileKind::Empty) {
                        return Err(Error::Invalid(format!(
                            "{}: {kind}, not 4-byte little-endian symbols; --format text reads whitespace-separated numbers, --format events `FUNCTION PATH` lines, and --format u32le reads it as 4-byte symbols all the same",
                            name.display()
                        )));
                    }
                }
                if n == 0 {
                    if have != 0 {
                        return Err(Error::Invalid(format!("{}: {} bytes is not a whole number of 4-byte symbols", name.display(), offset + have as u64)));
                    }
                    return Ok(());
                }
                have += n;
                let whole = have / 4 * 4;
                for c in buf[..whole].chunks_exact(4) {
                    f(Symbol::Value(u32::from_le_bytes(c.try_into().expect("4 bytes"))))?;
                }
                buf.copy_within(whole..have, 0);
                offset += whole as u64;
                have -= whole;
            }
        }
        SymbolFormat::Text => lines(reader, name, |line_no, line| {
            for word in line.split_whitespace() {
                let v: u32 = word.parse().map_err(|e| {
                    let hint = match word.parse::<u64>() {
                        Ok(_) if line.split_whitespace().count() == 2 => {
                            " (lines of `FUNCTION PATH`, as `wpp expand` prints them, are read with --format events)"
                        }
                        _ => "",
                    };
                    Error::Invalid(format!("{}:{line_no}: `{word}` is not a symbol (an integer from 0 to {}): {e}{hint}", name.display(), u32::MAX))
                })?;
                f(Symbol::Value(v))?;
            }
            Ok(())
        }),
        SymbolFormat::Events => lines(reader, name, |line_no, line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let event = match words[..] {
                [] => return Ok(()),
                [func, path] => func.parse::<u32>().ok().zip(path.parse::<u64>().ok()),
                _ => None,
            };
            let Some((func, path)) = event else {
                return Err(Error::Invalid(format!(
                    "{}:{line_no}: `{}` is not an event (FUNCTION PATH: an integer up to {} and one up to {})",
                    name.display(),
                    line.trim_end(),
                    u32::MAX,
                    u64::MAX
                )));
            };
            f(Symbol::Event(func, path))
        }),
    }
}

/// Calls `f(line number, line)` with each line of `reader` (named `name` in errors).
fn lines(mut reader: impl BufRead, name: &Path, mut f: impl FnMut(u64, &str) -> Result<(), Error>) -> Result<(), Error> {
    let mut line = String::new();
    let mut line_no = 0u64;
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(|source| Error::Read { path: name.to_owned(), source })? == 0 {
            return Ok(());
        }
        line_no += 1;
        f(line_no, &line)?;
    }
}
