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
/// symbol reach the builder as one stand-in symbol). For each: build time and symbols
/// per second, peak builder memory, rules, grammar symbols, the encoded grammar section in
/// bytes, `xz -9` and `zstd -19 --long=27` of the same trace as 4-byte little-endian
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
    /// each with the run-length front end).
    #[arg(long, value_delimiter = ',')]
    builders: Vec<String>,
}

/// One builder's result on one input.
struct BuildRow {
    builder: &'static str,
    seconds: f64,
    peak_bytes: usize,
    rules: usize,
    symbols: usize,
    encoded: usize,
}

const BUILDERS: [&str; 9] = ["sequitur", "sequitur1", "sequitur+p", "sequitur1+p", "repair", "sequitur+r", "sequitur1+r", "sequitur1+p+r", "repair+r"];

/// Builds a grammar of `input` with every builder.
fn build_all(input: &[u32], only: &[String]) -> Vec<BuildRow> {
    let n_terminals = input.iter().max().map_or(0, |&m| m + 1);
    BUILDERS
        .iter()
        .filter(|b| only.is_empty() || only.iter().any(|o| o == *b))
        .map(|&builder| {
            let runs = builder.ends_with("+r");
            let predict = builder.trim_end_matches("+r").ends_with("+p");
            let kind = match builder.split('+').next().expect("a name") {
                "sequitur" => wpp_profile::Builder::Sequitur,
                "sequitur1" => wpp_profile::Builder::Sequitur1,
                _ => wpp_profile::Builder::RePair,
            };
            let t = Instant::now();
            let mut b = wpp_record::GrammarBuilder::new(kind, predict).collapsing_runs(runs);
            for &x in input {
                b.push(x).expect("a test trace fits a grammar");
            }
            let (g, peak_bytes) = b.finish_measured().expect("a test trace fits a grammar");
            let seconds = t.elapsed().as_secs_f64();
            let encoded = wpp_grammar::encode_grammar(&g, n_terminals).len();
            BuildRow { builder, seconds, peak_bytes, rules: g.rules.len(), symbols: g.n_symbols(), encoded }
        })
        .collect()
}

/// Size of `data` compressed by an external compressor (`xz -9`, `zstd -19 --long`).
fn external_size(program: &str, args: &[&str], data: &[u8]) -> anyhow::Result<usize> {
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
            "{:<14} {:<12} {:>12} {:>8.2} {:>9.2} {:>9.1} {:>8} {:>10} {:>10} {:>10} {:>10} {:>7} {:>8.1}",
            name,
            r.builder,
            input.len(),
            r.seconds,
            input.len() as f64 / r.seconds / 1e6,
            r.peak_bytes as f64 / (1 << 20) as f64,
            r.rules,
            r.symbols,
            r.encoded,
            xz,
            zstd,
            vs_xz,
            (input.len() * 4) as f64 / r.encoded.max(1) as f64,
        )?;
    }
    Ok(())
}

fn header(out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{:<14} {:<12} {:>12} {:>8} {:>9} {:>9} {:>8} {:>10} {:>10} {:>10} {:>10} {:>7} {:>8}",
        "input", "builder", "symbols", "build s", "Msym/s", "peak MiB", "rules", "gram syms", "bytes", "xz -9", "zstd -19", "/xz", "ratio"
    )?;
    Ok(())
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    for b in &o.builders {
        anyhow::ensure!(BUILDERS.contains(&b.as_str()), "--builders: no builder {b} (there are {})", BUILDERS.join(", "));
    }
    let mut out = std::io::stdout().lock();
    header(&mut out)?;
    if let Some(w) = o.workloads.select(None, "test")? {
        let engine = wpp_runtime::engine()?;
        for (p, run) in &w.runs {
            eprint!("wpp-bench grammar: {} ...\r", p.name);
            let input = workload_trace(&engine, &w.dir, p, run)?.trace;
            let rows = build_all(&input, &o.builders);
            let bytes: Vec<u8> = input.iter().flat_map(|s| s.to_le_bytes()).collect();
            let external = if o.no_external {
                None
            } else {
                Some((external_size("xz", &["-9", "-c", "-T1"], &bytes)?, external_size("zstd", &["-19", "--long=27", "-c", "-T1"], &bytes)?))
            };
            table(&mut out, &p.name, &input, &rows, external)?;
        }
    }
    if o.symbols > 0 {
        let input: Vec<u32> = synthetic_trace(o.symbols, o.seed).collect();
        let rows = build_all(&input, &o.builders);
        let external = if o.no_external || input.len() > 50_000_000 {
            None
        } else {
            let bytes: Vec<u8> = input.iter().flat_map(|s| s.to_le_bytes()).collect();
            Some((external_size("xz", &["-9", "-c", "-T1"], &bytes)?, external_size("zstd", &["-19", "--long=27", "-c", "-T1"], &bytes)?))
        };
        table(&mut out, "synthetic", &input, &rows, external)?;
    }
    Ok(())
}
