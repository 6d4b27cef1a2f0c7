//! `wpp bench`: recording overhead on the real-program workloads, as one table.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use wpp_runtime::{run_paths, run_plain, RunConfig, Stdio, TraceStats};
pub use wpp_workloads::{Program, Run};

use crate::grammar_sink::GrammarSink;
use crate::record::ProfileSink;
use wpp_wasm::{Mode, Options};

/// Measure recording overhead on the workloads in workloads/workloads.json.
///
/// Each program runs uninstrumented, in count mode (arrays, the hash table for functions
/// with too many paths), in count mode with the hash table for every function (the
/// classic hashing path profiler), in trace mode with the events counted
/// on the consumer thread, and in trace mode with the events also written to a file (as
/// `wpp record --mode trace` does), and recording the whole program path as `wpp record`
/// does by default (events compressed by SEQUITUR(1) on the consumer thread while the
/// guest runs; a slower consumer makes the guest wait) and with `--predict`, under the same
/// wasmtime engine. Times are the guest's run time (compilation excluded; for the grammar,
/// plus finishing and encoding it after the run), the best of --repeat runs. Ratios are
/// against the uninstrumented run.
#[derive(Args)]
pub struct Opts {
    /// The workloads directory (holding workloads.json).
    #[arg(long, default_value = "workloads")]
    workloads: PathBuf,
    /// Which run of each program: the short `test` runs or the 0.5–5 s `bench` runs.
    #[arg(long, default_value = "bench")]
    runs: String,
    /// Runs per measurement; the fastest counts.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Only these programs.
    programs: Vec<String>,
}

/// The chosen run of each selected program of `dir/workloads.json`.
pub fn select(dir: &Path, runs: &str, only: &[String]) -> anyhow::Result<Vec<(Program, Run)>> {
    let manifest = wpp_workloads::Manifest::load(dir)?;
    for name in only {
        manifest.program(name)?;
    }
    Ok(manifest
        .programs
        .into_iter()
        .filter(|p| only.is_empty() || only.contains(&p.name))
        .filter_map(|p| {
            let run = p.runs.get(runs)?.clone();
            Some((p, run))
        })
        .collect())
}

/// The module's bytes and the run's configuration (stdin captured from its file).
pub fn load(dir: &Path, p: &Program, run: &Run) -> anyhow::Result<(Vec<u8>, RunConfig)> {
    let wasm_path = dir.join(&p.wasm);
    let wasm = std::fs::read(&wasm_path).with_context(|| format!("{} (build the workloads with workloads/build.sh)", wasm_path.display()))?;
    let stdin = match &run.stdin {
        Some(s) => std::fs::read(dir.join(s)).with_context(|| format!("{}", dir.join(s).display()))?,
        None => Vec::new(),
    };
    let cfg = RunConfig {
        program_name: p.name.clone(),
        args: run.args.clone(),
        dirs: run.dirs.iter().map(|d| (dir.join(d), d.clone())).collect(),
        stdio: Stdio::Capture { stdin },
        ..Default::default()
    };
    Ok((wasm, cfg))
}

struct Row {
    name: String,
    plain: Duration,
    count: Duration,
    hash: Duration,
    trace: Duration,
    trace_file: Duration,
    grammar: Duration,
    grammar_p: Duration,
    grammar_bytes: usize,
    events: u64,
    distinct: usize,
}

fn best<T>(repeat: usize, mut f: impl FnMut() -> anyhow::Result<(Duration, T)>) -> anyhow::Result<(Duration, T)> {
    let mut best: Option<(Duration, T)> = None;
    for _ in 0..repeat.max(1) {
        let (d, t) = f()?;
        if best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, t));
        }
    }
    Ok(best.expect("at least one run"))
}

fn measure(engine: &wpp_runtime::Engine, dir: &Path, p: &Program, run: &Run, repeat: usize) -> anyhow::Result<Row> {
    let (wasm, cfg) = load(dir, p, run)?;
    let program = wpp_wasm::decode(&wasm).with_context(|| format!("{}", dir.join(&p.wasm).display()))?;
    let (plain, _) = best(repeat, || Ok((run_plain(engine, &wasm, &cfg)?.guest_time, ())))?;
    let count = wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Count, ..Options::default() })?;
    let (count_t, _) = best(repeat, || {
        let (r, ()) = run_paths(engine, &count, &cfg, ())?;
        Ok((r.result.guest_time, ()))
    })?;
    let hashed = wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Count, force_hash: true, ..Options::default() })?;
    let (hash_t, _) = best(repeat, || {
        let (r, ()) = run_paths(engine, &hashed, &cfg, ())?;
        Ok((r.result.guest_time, ()))
    })?;
    let trace = wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Trace, ..Options::default() })?;
    let (trace_mem, _) = best(repeat, || {
        let (r, _) = run_paths(engine, &trace, &cfg, TraceStats::for_numberings(&trace.numberings))?;
        Ok((r.result.guest_time, ()))
    })?;
    let tmp = std::env::temp_dir().join(format!("wpp-bench-{}.wpp", std::process::id()));
    let (trace_t, (events, distinct)) = best(repeat, || {
        let sink = ProfileSink::new(wpp_profile::Writer::create(&tmp)?, TraceStats::for_numberings(&trace.numberings));
        let (r, sink) = run_paths(engine, &trace, &cfg, sink)?;
        sink.writer.finish()?;
        Ok((r.result.guest_time, (sink.stats.n_events, sink.stats.counts().len())))
    })?;
    let _ = std::fs::remove_file(&tmp);
    let record_grammar = |predict: bool| {
        best(repeat, || {
            let sink = GrammarSink::new(&trace.numberings, wpp_profile::Builder::Sequitur1, predict);
            let (r, sink) = run_paths(engine, &trace, &cfg, sink)?;
            let t = std::time::Instant::now();
            let n_terminals = sink.symbols.paths.len() as u32;
            let g = sink.builder.finish();
            let bytes = wpp_grammar::encode_grammar(&g, n_terminals).len();
            Ok((r.result.guest_time + t.elapsed(), bytes))
        })
    };
    let (grammar_t, grammar_bytes) = record_grammar(false)?;
    let (grammar_p, _) = record_grammar(true)?;
    Ok(Row {
        name: p.name.clone(),
        plain,
        count: count_t,
        hash: hash_t,
        trace: trace_mem,
        trace_file: trace_t,
        grammar: grammar_t,
        grammar_p,
        grammar_bytes,
        events,
        distinct,
    })
}

fn geomean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    if n == 0 {
        f64::NAN
    } else {
        (s / n as f64).exp()
    }
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let engine = wpp_runtime::engine()?;
    let mut rows = Vec::new();
    for (p, run) in select(&o.workloads, &o.runs, &o.programs)? {
        eprint!("wpp bench: {} ...\r", p.name);
        rows.push(measure(&engine, &o.workloads, &p, &run, o.repeat)?);
    }
    eprint!("{:40}\r", "");
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<14} {:>8} {:>8} {:>7} {:>7} {:>8} {:>7} {:>8} {:>7} {:>8} {:>7} {:>8} {:>13} {:>10} {:>9} {:>11}",
        "program",
        "plain s",
        "count s",
        "count×",
        "hash×",
        "trace s",
        "trace×",
        "+file s",
        "+file×",
        "gram s",
        "gram×",
        "gram+p×",
        "events",
        "Mevents/s",
        "distinct",
        "grammar B"
    )?;
    for r in &rows {
        let p = r.plain.as_secs_f64();
        writeln!(
            out,
            "{:<14} {:>8.3} {:>8.3} {:>7.2} {:>7.2} {:>8.3} {:>7.2} {:>8.3} {:>7.2} {:>8.3} {:>7.2} {:>8.2} {:>13} {:>10.1} {:>9} {:>11}",
            r.name,
            p,
            r.count.as_secs_f64(),
            r.count.as_secs_f64() / p,
            r.hash.as_secs_f64() / p,
            r.trace.as_secs_f64(),
            r.trace.as_secs_f64() / p,
            r.trace_file.as_secs_f64(),
            r.trace_file.as_secs_f64() / p,
            r.grammar.as_secs_f64(),
            r.grammar.as_secs_f64() / p,
            r.grammar_p.as_secs_f64() / p,
            crate::record::group(r.events),
            r.events as f64 / r.trace.as_secs_f64() / 1e6,
            r.distinct,
            crate::record::group(r.grammar_bytes as u64)
        )?;
    }
    let gc = geomean(rows.iter().map(|r| r.count.as_secs_f64() / r.plain.as_secs_f64()));
    let gh = geomean(rows.iter().map(|r| r.hash.as_secs_f64() / r.plain.as_secs_f64()));
    let gt = geomean(rows.iter().map(|r| r.trace.as_secs_f64() / r.plain.as_secs_f64()));
    let gf = geomean(rows.iter().map(|r| r.trace_file.as_secs_f64() / r.plain.as_secs_f64()));
    let gg = geomean(rows.iter().map(|r| r.grammar.as_secs_f64() / r.plain.as_secs_f64()));
    let gp = geomean(rows.iter().map(|r| r.grammar_p.as_secs_f64() / r.plain.as_secs_f64()));
    writeln!(
        out,
        "{:<14} {:>8} {:>8} {:>7.2} {:>7.2} {:>8} {:>7.2} {:>8} {:>7.2} {:>8} {:>7.2} {:>8.2}",
        "geomean", "", "", gc, gh, "", gt, "", gf, "", gg, gp
    )?;
    Ok(())
}
