//! `wpp compress`: a grammar profile from a symbol trace recorded elsewhere.

use std::io::{BufRead as _, Read as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context as _};
use clap::{Args, ValueEnum};
use rustc_hash::FxHashMap;
use wpp_profile::{section, Ending, Meta, RecordMode, Writer};

use crate::grammar_sink::GrammarBuilder;
use crate::record::{group, BuilderArg};

/// Compress a trace of symbols into a grammar profile.
///
/// The input is any sequence of 32-bit symbols (another tracer's output, a test corpus).
/// Symbols are renumbered densely in order of first appearance; the profile keeps each
/// terminal's input value, so `wpp expand` prints the input back.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp compress trace.u32 -o trace.wpp --grammar repair")]
pub struct Opts {
    /// The symbol trace ("-" for stdin).
    input: PathBuf,
    /// The profile to write.
    #[arg(short, long)]
    output: PathBuf,
    /// How the input is written.
    #[arg(long, value_enum, default_value_t = Format::U32le)]
    format: Format,
    /// The grammar builder.
    #[arg(long, value_enum, default_value_t = BuilderArg::Sequitur1)]
    grammar: BuilderArg,
    /// Speed SEQUITUR up with rule prediction (faster, larger grammars).
    #[arg(long)]
    predict: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// 4-byte little-endian unsigned integers.
    U32le,
    /// Unsigned decimal integers separated by whitespace.
    Text,
}

/// Reads the symbols of `input`, calling `f` with each.
fn read_symbols(input: &Path, format: Format, mut f: impl FnMut(u32) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let name = input.display();
    let reader: Box<dyn std::io::Read> = if input.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(input).with_context(|| format!("cannot read {name}"))?)
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 20, reader);
    match format {
        Format::U32le => {
            let mut buf = vec![0u8; 1 << 20];
            let mut have = 0usize;
            let mut offset = 0u64;
            loop {
                let n = reader.read(&mut buf[have..]).with_context(|| format!("cannot read {name}"))?;
                if n == 0 {
                    if have != 0 {
                        bail!("{name}: {} bytes is not a whole number of 4-byte symbols", offset + have as u64);
                    }
                    return Ok(());
                }
                have += n;
                let whole = have / 4 * 4;
                for c in buf[..whole].chunks_exact(4) {
                    f(u32::from_le_bytes(c.try_into().expect("4 bytes")))?;
                }
                buf.copy_within(whole..have, 0);
                offset += whole as u64;
                have -= whole;
            }
        }
        Format::Text => {
            let mut line = String::new();
            let mut line_no = 0u64;
            loop {
                line.clear();
                if reader.read_line(&mut line).with_context(|| format!("cannot read {name}"))? == 0 {
                    return Ok(());
                }
                line_no += 1;
                for word in line.split_whitespace() {
                    let v: u32 = word.parse().with_context(|| format!("{name}:{line_no}: `{word}` is not a symbol (an integer from 0 to {})", u32::MAX))?;
                    f(v)?;
                }
            }
        }
    }
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let t = Instant::now();
    let mut builder = GrammarBuilder::new(o.grammar.into(), o.predict);
    let mut dense: FxHashMap<u32, u32> = FxHashMap::default();
    let mut terminals: Vec<u32> = Vec::new();
    let mut n = 0u64;
    read_symbols(&o.input, o.format, |v| {
        let next = terminals.len() as u32;
        let t = *dense.entry(v).or_insert(next);
        if t == next {
            anyhow::ensure!(next <= wpp_grammar::MAX_TERMINAL, "{}: more than {} distinct symbols", o.input.display(), wpp_grammar::MAX_TERMINAL);
            terminals.push(v);
        }
        builder.push(t);
        n += 1;
        Ok(())
    })?;
    let grammar = builder.finish();
    let build = t.elapsed();
    let encoded = wpp_grammar::encode_grammar(&grammar, terminals.len() as u32);
    let meta = Meta {
        module: o.input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        module_bytes: 0,
        mode: RecordMode::Grammar(o.grammar.into()),
        max_paths: u64::MAX,
        functions: Vec::new(),
        args: Vec::new(),
        ending: Ending::Exited(0),
        guest_nanos: 0,
        events: n,
    };
    let mut w = Writer::create(&o.output)?;
    w.write_value(section::META, &meta)?;
    w.write_value(section::COUNTS, &Vec::<wpp_profile::PathCount>::new())?;
    w.write_value(section::TERMINALS, &terminals)?;
    w.write_section(section::GRAMMAR, &encoded)?;
    w.finish()?;
    eprintln!(
        "wpp: {} symbols ({} distinct) in {:.2} s ({:.2} M/s); grammar {} rules, {} symbols, {} bytes -> {}",
        group(n),
        group(terminals.len() as u64),
        build.as_secs_f64(),
        n as f64 / build.as_secs_f64().max(1e-9) / 1e6,
        group(grammar.rules.len() as u64),
        group(grammar.n_symbols() as u64),
        group(encoded.len() as u64),
        o.output.display()
    );
    Ok(())
}
