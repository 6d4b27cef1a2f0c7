//! Runs one module every way wpp can and checks that the ways agree: the uninstrumented
//! run, trace mode, count mode with arrays, count mode with the hash table only,
//! preferential path profiling of a subset of the paths, and the naive block-log oracle.
//! Used on the `.wat` programs and the real programs (feature `runtime`).

use anyhow::{ensure, Context as _};
use wpp_paths::split::{PathSplitter, SplitFunc};
use wpp_record::TraceStats;
use wpp_runtime::{run_block_log, run_paths, run_plain, Outcome, PathCounts, RunConfig, RunResult};
use wpp_wasm::{decode, instrument, instrument_block_log, CounterKind, Interesting, Mode, Options};

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
    let funcs = program
        .functions
        .iter()
        .map(|f| trace.numberings.get(f.index).map(|n| SplitFunc { cfg: f.cfg.clone().expect("defined"), numbering: n.clone() }))
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
        let num = trace.numberings.get(f).expect("defined");
        num.decode(p).with_context(|| format!("{name}: function {f}"))?;
    }
    if keep_events {
        ensure!(stats.events == oracle.events, "{name}: trace events differ from the oracle's");
    }
    check_ppp(name, wasm, &program, cfg, &opts, &plain, &oracle.counts)?;
    Ok(Agreed { plain, counts: oracle.counts, n_events: oracle.n_events, events: oracle.events })
}

/// Preferential path profiling with about two thirds of the executed paths interesting,
/// plus unexecuted ones: the counts must equal the oracle's, and exactly the paths neither
/// in a PPP slot nor in a Ball-Larus array (residual paths, and interesting ones past a
/// short slot array) must have been counted in the hash table. Run three ways: as
/// recorded by default (Ball-Larus arrays where they fit), with PPP slots in every
/// function, and with PPP everywhere and one slot per interesting path, so that functions
/// with wider PPP id ranges overflow.
fn check_ppp(
    name: &str,
    wasm: &[u8],
    program: &wpp_wasm::Program,
    cfg: &RunConfig,
    opts: &Options,
    plain: &RunResult,
    oracle: &PathCounts,
) -> anyhow::Result<()> {
    let mut keys: Vec<_> = oracle.keys().copied().collect();
    keys.sort();
    let mut interesting = Interesting::new();
    for (i, &(f, p)) in keys.iter().enumerate() {
        if i % 3 != 0 {
            interesting.entry(f).or_default().push(p);
        }
    }
    for (f, paths) in interesting.iter_mut() {
        let cfg = program.functions[f.idx()].cfg.as_ref().expect("defined");
        let n = wpp_paths::number(cfg, &wpp_paths::Options::default())?.n_paths();
        paths.extend([n - 1, n / 2].map(wpp_model::PathId));
    }
    for (everywhere, per_path, min) in [(false, 4, 64), (true, 4, 64), (true, 1, 1)] {
        let what = format!("PPP ({}{per_path} slots per path, at least {min})", if everywhere { "everywhere, " } else { "" });
        let o = Options {
            mode: Mode::Count,
            interesting: Some(interesting.clone()),
            ppp_slots_per_path: per_path,
            ppp_min_slots: min,
            ppp_everywhere: everywhere,
            ..opts.clone()
        };
        let inst = instrument(wasm, program, &o).with_context(|| format!("{name}: instrument {what}"))?;
        let (run, ()) = run_paths(&wpp_runtime::engine()?, &inst, cfg, ())?;
        same_behaviour(name, &what, plain, &run.result)?;
        same_counts(name, &what, &run.counts, oracle)?;
        // A path escapes the hash table if its function counts in a Ball-Larus array, or if
        // it is interesting, its function has slots and its id is in range.
        let kinds: std::collections::HashMap<_, _> = inst.layout.counters.iter().map(|&(f, k, _)| (f, k)).collect();
        let in_slot = |f: wpp_model::FuncIdx, p: wpp_model::PathId| match (inst.ppp.get(f), kinds.get(&f)) {
            (Some(ppp), Some(&CounterKind::Ppp { slots, .. })) => ppp.ids().iter().any(|&(q, id)| q == p && id < slots as i128),
            _ => false,
        };
        let in_array = |f: wpp_model::FuncIdx| matches!(kinds.get(&f), Some(CounterKind::Array { .. }));
        let want_hashed: PathCounts = oracle.iter().filter(|(&(f, p), _)| !in_array(f) && !in_slot(f, p)).map(|(&k, &v)| (k, v)).collect();
        same_counts(name, &format!("{what}: hash table"), &run.hashed, &want_hashed)?;
        if everywhere {
            ensure!(oracle.keys().any(|&(f, p)| in_slot(f, p)) || oracle.is_empty(), "{name}: {what}: no path was counted in a PPP slot");
        }
    }
    Ok(())
}
