//! `wpp-bench grammar`: the grammar builders' speed, memory and output size on real and
//! synthetic path traces, against general-purpose compressors.

use std::io::Write;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;

use crate::workloads::{synthetic_trace, workload_trace, WorkloadArgs};

/// Build grammars of path traces with every builder and report throughput, size and memory.
///
/// Builders: SEQUITUR and SEQUITUR(1), each symbol by symbol and with rule prediction
/// (+p), and Re-Pair in blocks; each also behind the run-length front end (+r: runs of one
/// symbol reach the builder as one stand-in symbol), and SEQUITUR(1) behind the phrase
/// front end (+cN, after the run-length front end: content-defined phrases of about N
/// tokens, phrase ids built by one SEQUITUR(1) and distinct phrases by another; +cNt runs
/// the two on threads of their own). For each: build time and symbols
/// per second, peak builder memory, rules, grammar symbols, the encoded grammar section in
/// bytes and how fast it decodes (grammar symbols per second, checked to give the grammar
/// back), `xz -9` and `zstd -19 --long=27` of the same trace as 4-byte little-endian
/// symbols, the grammar's size relative to xz's, and the compression ratio against the
/// 4-byte trace. Inputs: the workloads' path traces (--workloads) and a synthetic trace
/// (--symbols; 0 to skip).
///
/// The synthetic trace imitates a program's path trace: nested loops whose iterations run one of a
/// few hot path sequences (skewed choice), with occasional calls into other sequences and
/// rare one-off paths. The generator is seeded, so runs are comparable.
#[derive(Args)]
pub struct Opts {
    /// Number of symbols in the trace.
    #[arg(long, default_value_t = 10_000_000)]
    symbols: u64,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Skip xz and zstd.
    #[arg(long)]
    no_external: bool,
    /// Only these builders (sequitur, sequitur1, sequitur+p, sequitur1+p, repair, and +r for
    /// each with the run-length front end; sequitur1+c16, +c32, +c64 with the phrase front
    /// end, and +c16t, +c32t, +c64t with its builders on threads; any sequitur1+cN[lL][wW][t]
    /// for phrases of about N tokens in L levels and a rolling-hash window of W).
    #[arg(long, value_delimiter = ',')]
    builders: Vec<String>,
    /// Build with each builder this many times and report the fastest (on a busy machine).
    #[arg(long, default_value_t = 1)]
    repeat: usize,
}

/// One builder's result on one input.
struct BuildRow {
    builder: String,
    seconds: f64,
    peak_bytes: usize,
    rules: usize,
    symbols: usize,
    encoded: usize,
    /// Decoding the encoded section, in seconds (best of the repeats).
    decode_seconds: f64,
    /// What the phrase front end did, for the +c builders.
    phrases: Option<wpp_grammar::PhraseStats>,
}

const BUILDERS: &[&str] = &[
    "sequitur",
    "sequitur1",
    "sequitur+p",
    "sequitur1+p",
    "repair",
    "sequitur+r",
    "sequitur1+r",
    "sequitur1+p+r",
    "repair+r",
    "sequitur1+c16",
    "sequitur1+c32",
    "sequitur1+c64",
    "sequitur1+c16t",
    "sequitur1+c32t",
    "sequitur1+c64t",
];

/// The phrase front end's parameters for a `sequitur1+cN` builder: phrases of about N
/// tokens, then optionally `lL` for L levels of phrases (phrases of phrases), `wW` for a
/// rolling-hash window of W tokens and `t` for the two builders on threads of their own
/// (`sequitur1+c8l2`, `sequitur1+c32w4t`).
fn phrase_params(builder: &str) -> Option<wpp_grammar::PhraseParams> {
    let spec = builder.strip_prefix("sequitur1+c")?;
    let (spec, levels) = match spec.split_once('l') {
        Some((a, rest)) => {
            let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            let levels: u8 = rest[..digits].parse().ok().filter(|&l| l > 0)?;
            (format!("{a}{}", &rest[digits..]), levels)
        }
        None => (spec.to_string(), 1),
    };
    let spec = spec.as_str();
    let (spec, threads) = match spec.strip_suffix('t') {
        Some(s) => (s, wpp_grammar::PhraseThreads::Both),
        None => (spec, wpp_grammar::PhraseThreads::Neither),
    };
    let (average, window) = match spec.split_once('w') {
        Some((a, w)) => (a, Some(w.parse().ok()?)),
        None => (spec, None),
    };
    let mut p = wpp_grammar::PhraseParams::average(average.parse().ok().filter(|&a| a > 0)?).with_threads(threads).with_levels(levels);
    if let Some(w) = window {
        p.window = w;
    }
    (p.window.is_power_of_two() && p.window <= 64).then_some(p)
}

/// Builds a grammar of `input` with every builder, or the ones in `only` in its order,
/// `repeat` times each (the builders taking turns); a row has the fastest build.
fn build_all(input: &[u32], only: &[String], repeat: usize) -> Vec<BuildRow> {
    let builders: Vec<&str> = if only.is_empty() { BUILDERS.to_vec() } else { only.iter().map(String::as_str).collect() };
    let mut rows: Vec<BuildRow> = builders.iter().map(|b| build(input, b)).collect();
    for _ in 1..repeat {
        for (row, b) in rows.iter_mut().zip(&builders) {
            let again = build(input, b);
            row.seconds = row.seconds.min(again.seconds);
            row.decode_seconds = row.decode_seconds.min(again.decode_seconds);
        }
    }
    rows
}

/// Builds a grammar of `input` with one builder.
fn build(input: &[u32], builder: &str) -> BuildRow {
    let n_terminals = input.iter().max().map_or(0, |&m| m + 1);
    let builder_name = builder.to_string();
    if let Some(params) = phrase_params(builder) {
        let t = Instant::now();
        let mut b = wpp_grammar::Phrases::new(params);
        for &x in input {
            b.push(x).expect("a test trace fits a grammar");
        }
        let (g, stats) = b.finish_with_stats().expect("a test trace fits a grammar");
        let seconds = t.elapsed().as_secs_f64();
        let (encoded, decode_seconds) = encode_and_decode(&g, n_terminals);
        let (rules, symbols) = (g.rules.len(), g.n_symbols());
        return BuildRow { builder: builder_name, seconds, peak_bytes: stats.memory_bytes, rules, symbols, encoded, decode_seconds, phrases: Some(stats) };
    }
    let runs = builder.ends_with("+r");
    let prediction = if builder.trim_end_matches("+r").ends_with("+p") { wpp_record::Prediction::Rules } else { wpp_record::Prediction::Off };
    let kind = match builder.split('+').next().expect("a name") {
        "sequitur" => wpp_profile::Builder::Sequitur,
        "sequitur1" => wpp_profile::Builder::Sequitur1,
        _ => wpp_profile::Builder::RePair,
    };
    let t = Instant::now();
    let b = wpp_record::GrammarBuilder::new(kind, prediction);
    let mut b = if runs { b.collapsing_runs() } else { b };
    for &x in input {
        b.push(x).expect("a test trace fits a grammar");
    }
    let (g, stats) = b.finish_measured().expect("a test trace fits a grammar");
    let peak_bytes = stats.memory_bytes;
    let seconds = t.elapsed().as_secs_f64();
    let (encoded, decode_seconds) = encode_and_decode(&g, n_terminals);
    BuildRow { builder: builder_name, seconds, peak_bytes, rules: g.rules.len(), symbols: g.n_symbols(), encoded, decode_seconds, phrases: None }
}

/// The size of `g`'s grammar section and the time to decode it, checked to give `g` back.
fn encode_and_decode(g: &wpp_grammar::Grammar, n_terminals: u32) -> (usize, f64) {
    let bytes = wpp_grammar::encode_grammar(g, n_terminals);
    let t = Instant::now();
    let back = wpp_grammar::decode_grammar(&bytes).expect("an encoded grammar decodes");
    let seconds = t.elapsed().as_secs_f64();
    assert!(back == *g, "the grammar section decodes to another grammar");
    (bytes.len(), seconds)
}

/// Size of `data` compressed by an external compressor (`xz -9`, `zstd -19 --long`).
pub(crate) fn external_size(program: &str, args: &[&str], data: &[u8]) -> anyhow::Result<usize> {
    use std::io::Read as _;
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {program}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let data = data.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let mut out = Vec::new();
    child.stdout.take().expect("piped").read_to_end(&mut out)?;
    writer.join().map_err(|_| anyhow::anyhow!("{program}: writer thread panicked"))??;
    anyhow::ensure!(child.wait()?.success(), "{program} failed");
    Ok(out.len())
}

fn table(out: &mut impl Write, name: &str, input: &[u32], rows: &[BuildRow], external: Option<(usize, usize)>) -> anyhow::Result<()> {
    for r in rows {
        let (xz, zstd) = match external {
            Some((x, z)) => (format!("{x}"), format!("{z}")),
            None => ("-".into(), "-".into()),
        };
        let vs_xz = external.map_or("-".into(), |(x, _)| format!("{:.2}", r.encoded as f64 / x as f64));
        writeln!(
            out,
            "{:<14} {:<12} {:>12} {:>8.2} {:>9.2} {:>9.1} {:>8} {:>10} {:>10} {:>10.1} {:>10} {:>10} {:>7} {:>8.1}",
            name,
            r.builder,
            input.len(),
            r.seconds,
            input.len() as f64 / r.seconds / 1e6,
            r.peak_bytes as f64 / (1 << 20) as f64,
            r.rules,
            r.symbols,
            r.encoded,
            r.symbols as f64 / r.decode_seconds.max(1e-9) / 1e6,
            xz,
            zstd,
            vs_xz,
            (input.len() * 4) as f64 / r.encoded.max(1) as f64,
        )?;
    }
    Ok(())
}

/// The phrase front end's rows: size against SEQUITUR(1)'s (when it was built), average
/// phrase length in tokens, and the share of the input's symbols each of its two builders
/// received (the dictionary's counting one separator per distinct phrase).
fn phrase_table(out: &mut impl Write, name: &str, rows: &[BuildRow]) -> anyhow::Result<()> {
    let base = rows.iter().find(|r| r.builder == "sequitur1").map(|r| r.encoded);
    for r in rows {
        let Some(p) = r.phrases else { continue };
        let n = p.symbols.max(1) as f64;
        writeln!(
            out,
            "{:<14} {:<15} {:>8.2} {:>10} {:>7} {:>9.3} {:>8.1} {:>9} {:>8.2}% {:>8.2}%",
            name,
            r.builder,
            p.symbols as f64 / r.seconds / 1e6,
            r.encoded,
            base.map_or("-".into(), |b| format!("{:.3}", r.encoded as f64 / b as f64)),
            p.tokens as f64 / n,
            p.tokens as f64 / p.phrases.max(1) as f64,
            p.distinct,
            100.0 * p.phrases as f64 / n,
            100.0 * (p.dictionary_tokens + p.distinct) as f64 / n,
        )?;
    }
    Ok(())
}

fn phrase_header(out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{:<14} {:<15} {:>8} {:>10} {:>7} {:>9} {:>8} {:>9} {:>9} {:>9}",
        "input", "builder", "Msym/s", "bytes", "/seq1", "tokens/sym", "phrase", "distinct", "top", "dict"
    )?;
    Ok(())
}

fn header(out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{:<14} {:<12} {:>12} {:>8} {:>9} {:>9} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>7} {:>8}",
        "input", "builder", "symbols", "build s", "Msym/s", "peak MiB", "rules", "gram syms", "bytes", "dec Msym/s", "xz -9", "zstd -19", "/xz", "ratio"
    )?;
    Ok(())
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    for b in &o.builders {
        anyhow::ensure!(
            BUILDERS.contains(&b.as_str()) || phrase_params(b).is_some(),
            "--builders: no builder {b} (there are {}, and sequitur1+cN[lL][wW][t] for other phrase lengths N, levels L and windows W)",
            BUILDERS.join(", ")
        );
    }
    let mut out = std::io::stdout().lock();
    header(&mut out)?;
    // The phrase front end's own table follows the main one.
    let mut phrase_rows = Vec::new();
    if let Some(w) = o.workloads.select(None, "test")? {
        let engine = wpp_runtime::engine()?;
        for (p, run) in &w.runs {
            eprint!("wpp-bench grammar: {} ...\r", p.name);
            let input = workload_trace(&engine, &w.dir, p, run)?.trace;
            let rows = build_all(&input, &o.builders, o.repeat.max(1));
            let bytes: Vec<u8> = input.iter().flat_map(|s| s.to_le_bytes()).collect();
            let external = if o.no_external {
                None
            } else {
                Some((external_size("xz", &["-9", "-c", "-T1"], &bytes)?, external_size("zstd", &["-19", "--long=27", "-c", "-T1"], &bytes)?))
            };
            table(&mut out, &p.name, &input, &rows, external)?;
            phrase_table(&mut phrase_rows, &p.name, &rows)?;
        }
    }
    if o.symbols > 0 {
        let input: Vec<u32> = synthetic_trace(o.symbols, o.seed).collect();
        let rows = build_all(&input, &o.builders, o.repeat.max(1));
        let external = if o.no_external || input.len() > 50_000_000 {
            None
        } else {
            let bytes: Vec<u8> = input.iter().flat_map(|s| s.to_le_bytes()).collect();
            Some((external_size("xz", &["-9", "-c", "-T1"], &bytes)?, external_size("zstd", &["-19", "--long=27", "-c", "-T1"], &bytes)?))
        };
        table(&mut out, "synthetic", &input, &rows, external)?;
        phrase_table(&mut phrase_rows, "synthetic", &rows)?;
    }
    if !phrase_rows.is_empty() {
        writeln!(out)?;
        phrase_header(&mut out)?;
        out.write_all(&phrase_rows)?;
    }
    Ok(())
}
