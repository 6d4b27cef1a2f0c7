//! Runs one module every way wpp can and checks that the ways agree:
//! the uninstrumented run, trace mode, count mode with arrays, count mode with the hash
//! table only, and the naive block-log oracle.

#![allow(dead_code)]

use anyhow::{ensure, Context as _};
use wpp_paths::split::{PathSplitter, SplitFunc};
use wpp_runtime::{run_block_log, run_paths, run_plain, Outcome, PathCounts, RunConfig, RunResult, TraceStats};
use wpp_wasm::{decode, instrument, instrument_block_log, Mode, Options};

/// What every way of running agreed on.
pub struct Agreed {
    pub plain: RunResult,
    pub counts: PathCounts,
    pub n_events: u64,
    pub events: Option<Vec<wpp_model::PathEvent>>,
}

fn same_behaviour(name: &str, what: &str, plain: &RunResult, other: &RunResult) -> anyhow::Result<()> {
    ensure!(plain.stdout == other.stdout, "{name}: {what} changed stdout ({} vs {} bytes)", plain.stdout.len(), other.stdout.len());
    ensure!(plain.stderr == other.stderr, "{name}: {what} changed stderr");
    match (&plain.outcome, &other.outcome) {
        (Outcome::Exited(a), Outcome::Exited(b)) => ensure!(a == b, "{name}: {what} exit status {b}, expected {a}"),
        (Outcome::Trapped { trap: a, .. }, Outcome::Trapped { trap: b, .. }) => {
            ensure!(a == b, "{name}: {what} trapped with `{b}`, expected `{a}`")
        }
        (a, b) => anyhow::bail!("{name}: {what} ended with {b:?}, expected {a:?}"),
    }
    Ok(())
}

fn same_counts(name: &str, what: &str, got: &PathCounts, oracle: &PathCounts) -> anyhow::Result<()> {
    if got == oracle {
        return Ok(());
    }
    let mut diff: Vec<String> = Vec::new();
    for (k, v) in got {
        if oracle.get(k) != Some(v) {
            diff.push(format!("func {} path {}: {what} {v}, oracle {:?}", k.0, k.1, oracle.get(k)));
        }
    }
    for (k, v) in oracle {
        if !got.contains_key(k) {
            diff.push(format!("func {} path {}: {what} none, oracle {v}", k.0, k.1));
        }
    }
    diff.sort();
    diff.truncate(10);
    anyhow::bail!("{name}: {what} counts differ from the oracle's:\n  {}", diff.join("\n  "))
}

/// Runs `wasm` five ways and checks that behaviour, counts and the event sequence agree.
/// `small_buffers` makes the event buffer and hash table tiny so their flushes run often.
pub fn check_all_ways(name: &str, wasm: &[u8], cfg: &RunConfig, small_buffers: bool, keep_events: bool) -> anyhow::Result<Agreed> {
    let engine = wpp_runtime::engine()?;
    let program = decode(wasm).with_context(|| format!("{name}: decode"))?;
    let plain = run_plain(&engine, wasm, cfg)?;

    let mut opts = Options { mode: Mode::Trace, ..Options::default() };
    if small_buffers {
        opts.buffer_bytes = 256;
        opts.hash_entries = 16;
    }
    let trace = instrument(wasm, &program, &opts).with_context(|| format!("{name}: instrument trace"))?;
    let (run, stats) = run_paths(&engine, &trace, cfg, TraceStats::for_numberings(&trace.numberings).checking_order(keep_events))?;
    same_behaviour(name, "trace mode", &plain, &run.result)?;
    ensure!(!stats.is_truncated(), "{name}: trace ends inside an event");

    let count = instrument(wasm, &program, &Options { mode: Mode::Count, ..opts.clone() })?;
    let (counted, ()) = run_paths(&engine, &count, cfg, ())?;
    same_behaviour(name, "count mode", &plain, &counted.result)?;

    let hashed = instrument(wasm, &program, &Options { mode: Mode::Count, force_hash: true, ..opts.clone() })?;
    let (hashed_run, ()) = run_paths(&engine, &hashed, cfg, ())?;
    same_behaviour(name, "count mode (hash table)", &plain, &hashed_run.result)?;

    let oracle_wasm = instrument_block_log(wasm, &program)?;
    let funcs = trace
        .numberings
        .iter()
        .zip(&program.functions)
        .map(|(n, f)| n.as_ref().map(|n| SplitFunc { cfg: f.cfg.clone().expect("defined"), numbering: n.clone() }))
        .collect();
    let (oracle_run, oracle) = run_block_log(&engine, &oracle_wasm, cfg, PathSplitter::new(funcs, keep_events))?;
    same_behaviour(name, "the block-log oracle", &plain, &oracle_run)?;
    if let Some(e) = &oracle.error {
        anyhow::bail!("{name}: oracle: {e}");
    }

    same_counts(name, "trace mode", &stats.counts(), &oracle.counts)?;
    same_counts(name, "count mode", &counted.counts, &oracle.counts)?;
    same_counts(name, "count mode (hash table)", &hashed_run.counts, &oracle.counts)?;
    ensure!(stats.n_events == oracle.n_events, "{name}: {} trace events, oracle {}", stats.n_events, oracle.n_events);
    ensure!(stats.sequence_hash == Some(oracle.sequence_hash), "{name}: trace order differs from the oracle's");
    for &(f, p) in oracle.counts.keys() {
        let num = trace.numberings[f.idx()].as_ref().expect("defined");
        num.decode(p).with_context(|| format!("{name}: function {f}"))?;
    }
    if keep_events {
        ensure!(stats.events == oracle.events, "{name}: trace events differ from the oracle's");
    }
    Ok(Agreed { plain, counts: oracle.counts, n_events: oracle.n_events, events: oracle.events })
}
