//! Runs one module every way wpp can and checks that the ways agree: the uninstrumented
//! run, trace mode, count mode with arrays, count mode with the hash table only,
//! preferential path profiling of a subset of the paths, trace and count modes under a
//! numbering that cuts every function as far as it goes ([`cut_numbering`]), and the
//! naive block-log oracle, whose one log is split into paths under both numberings. Used on the `.wat`
//! programs and the real programs (feature `runtime`).

use anyhow::{ensure, Context as _};
use wpp_paths::split::{PathSplitter, SplitFunc};
use wpp_paths::ProgramNumbering;
use wpp_record::TraceStats;
use wpp_runtime::{run_block_log, run_paths, run_plain, BlockSink, Frame, Outcome, PathCounts, RunConfig, RunResult};
use wpp_wasm::{decode, instrument, instrument_block_log, instrument_numbered, CounterKind, Instrumented, Interesting, Mode, Options, Program};

/// What every way of running agreed on.
pub struct Agreed {
    pub plain: RunResult,
    /// Path counts and events under the default numbering.
    pub counts: PathCounts,
    pub n_events: u64,
    pub events: Option<Vec<wpp_model::PathEvent>>,
    /// Functions with cut points under [`cut_numbering`].
    pub cut_functions: usize,
    /// Events under it (more than `n_events` when a cut point ran).
    pub cut_events: u64,
}

/// Every function of `program` cut as far as its numbering goes: numbered under the
/// smallest `max_paths` it can meet among the powers of two below its own number of paths
/// and that number less one. A function gets no cut points only if cutting cannot lower
/// its number of paths (paths from every start count, so cutting a small function often
/// adds paths). `default` is the program's numbering without a limit.
pub fn cut_numbering(program: &Program, default: &ProgramNumbering) -> ProgramNumbering {
    let number = |f: &wpp_model::Function| {
        let (cfg, uncut) = (f.cfg.as_ref()?, default.get(f.index)?);
        let n = uncut.n_paths();
        let mut limits =
            std::iter::successors(Some(1u64), |l| l.checked_mul(2)).take_while(|&l| l < n.saturating_sub(1)).chain(n.checked_sub(1).filter(|&l| l > 0));
        Some(limits.find_map(|max_paths| wpp_paths::number(cfg, &wpp_paths::Options { max_paths }).ok()).unwrap_or_else(|| uncut.clone()))
    };
    program.functions.iter().map(number).collect()
}

/// Feeds one block log to several splitters.
struct Splitters(Vec<PathSplitter>);

impl BlockSink for Splitters {
    fn enter(&mut self, func: u32) {
        self.0.iter_mut().for_each(|s| s.enter(func));
    }
    fn block(&mut self, func: u32, block: u32) {
        self.0.iter_mut().for_each(|s| s.block(func, block));
    }
    fn exit(&mut self, func: u32) {
        self.0.iter_mut().for_each(|s| s.exit(func));
    }
    fn leave(&mut self, func: u32) {
        self.0.iter_mut().for_each(|s| s.leave(func));
    }
    fn unwind(&mut self, func: u32) {
        self.0.iter_mut().for_each(|s| s.unwind(func));
    }
}

/// The block-log oracle's splitter for the numbering `inst` was instrumented with.
pub fn splitter(program: &Program, inst: &Instrumented, keep_events: bool) -> PathSplitter {
    let funcs = program
        .functions
        .iter()
        .map(|f| inst.numberings.get(f.index).map(|n| SplitFunc { cfg: f.cfg.clone().expect("defined"), numbering: n.clone() }))
        .collect();
    PathSplitter::new(funcs, keep_events)
}

/// Trace mode under one numbering, checked against the oracle's split of the block log
/// under the same numbering: counts, number and order of events (and the events
/// themselves, if kept).
fn same_trace(name: &str, what: &str, stats: &TraceStats, oracle: &PathSplitter) -> anyhow::Result<()> {
    if let Some(e) = &oracle.error {
        anyhow::bail!("{name}: oracle ({what}): {e}");
    }
    same_counts(name, what, &stats.counts(), &oracle.counts)?;
    ensure!(stats.n_events == oracle.n_events, "{name}: {what}: {} events, oracle {}", stats.n_events, oracle.n_events);
    ensure!(stats.sequence_hash == Some(oracle.sequence_hash), "{name}: {what}: event order differs from the oracle's");
    if oracle.events.is_some() {
        ensure!(stats.events == oracle.events, "{name}: {what}: events differ from the oracle's");
    }
    Ok(())
}

/// `other` behaved as `plain`: output, ending, and (if `frames`: `other` ran a path
/// rewrite, whose frames are mapped back to the original) a trap's backtrace.
fn same_behaviour(name: &str, what: &str, plain: &RunResult, other: &RunResult, frames: bool) -> anyhow::Result<()> {
    ensure!(plain.stdout == other.stdout, "{name}: {what} changed stdout ({} vs {} bytes)", plain.stdout.len(), other.stdout.len());
    ensure!(plain.stderr == other.stderr, "{name}: {what} changed stderr");
    match (&plain.outcome, &other.outcome) {
        (Outcome::Exited(a), Outcome::Exited(b)) => ensure!(a == b, "{name}: {what} exit status {b}, expected {a}"),
        (Outcome::Trapped { trap: a, backtrace: at }, Outcome::Trapped { trap: b, backtrace: bt }) => {
            ensure!(a == b, "{name}: {what} trapped with `{b}`, expected `{a}`");
            if !frames {
                return Ok(());
            }
            // The instrumented run's frames, mapped back, are the original's: the same
            // functions, and the callers at the same calls. (The innermost frame's offset
            // may differ: the engine can fold `if c then unreachable` into a trap at the
            // `if`, and not once instrumentation sits between them. A stack overflow comes
            // sooner in bigger frames: there only the outermost 20 frames are compared.)
            let n = if a.contains("call stack exhausted") { at.len().min(bt.len()).min(20) } else { at.len().max(bt.len()) };
            let key = |(i, f): (usize, &Frame)| (f.func, f.name.clone(), if i == 0 { None } else { f.offset });
            ensure!(
                at.iter().enumerate().map(key).rev().take(n).eq(bt.iter().enumerate().map(key).rev().take(n)),
                "{name}: {what} trapped in\n  {}\nexpected\n  {}",
                bt.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  "),
                at.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  ")
            );
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

/// Runs `wasm` every way and checks that behaviour, counts and the event sequence agree
/// with the uninstrumented run and the block-log oracle, under the default numbering and
/// under one with cut points ([`cut_numbering`]). `small_buffers` makes the event buffer and
/// hash table tiny so their flushes run often.
pub fn check_all_ways(name: &str, wasm: &[u8], cfg: &RunConfig, small_buffers: bool, keep_events: bool) -> anyhow::Result<Agreed> {
    let engine = wpp_runtime::engine()?;
    let program = decode(wasm).with_context(|| format!("{name}: decode"))?;
    let plain = run_plain(&engine, wasm, cfg)?;

    let mut opts = Options { mode: Mode::Trace, ..Options::default() };
    if small_buffers {
        opts.buffer_bytes = 256;
        opts.hash_entries = 16;
    }
    // `numbering`: the cut one, or `None` for the default.
    let rewrite = |what: &str, opts: &Options, numbering: Option<&ProgramNumbering>| -> anyhow::Result<Instrumented> {
        match numbering {
            None => instrument(wasm, &program, opts),
            Some(n) => instrument_numbered(wasm, &program, n.clone(), opts),
        }
        .with_context(|| format!("{name}: instrument {what}"))
    };
    let trace_run = |what: &str, opts: &Options, numbering: Option<&ProgramNumbering>| -> anyhow::Result<(Instrumented, TraceStats)> {
        let inst = rewrite(what, opts, numbering)?;
        let (run, stats) = run_paths(&engine, &inst, cfg, TraceStats::for_numberings(&inst.numberings).checking_order(keep_events))?;
        same_behaviour(name, what, &plain, &run.result, true)?;
        ensure!(!stats.is_truncated(), "{name}: {what}: the trace ends inside an event");
        Ok((inst, stats))
    };
    let count_run = |what: &str, opts: &Options, numbering: Option<&ProgramNumbering>| -> anyhow::Result<PathCounts> {
        let inst = rewrite(what, opts, numbering)?;
        let (run, ()) = run_paths(&engine, &inst, cfg, ())?;
        same_behaviour(name, what, &plain, &run.result, true)?;
        Ok(run.counts)
    };

    let (trace, stats) = trace_run("trace mode", &opts, None)?;
    let (_, narrow_stats) = trace_run("trace mode (4-byte events)", &Options { narrow_events: true, ..opts.clone() }, None)?;
    let counted = count_run("count mode", &Options { mode: Mode::Count, ..opts.clone() }, None)?;
    let hashed = count_run("count mode (hash table)", &Options { mode: Mode::Count, force_hash: true, ..opts.clone() }, None)?;
    let cut = cut_numbering(&program, &trace.numberings);
    let (cut_trace, cut_stats) = trace_run("trace mode (cut points)", &opts, Some(&cut))?;
    let cut_counted = count_run("count mode (cut points)", &Options { mode: Mode::Count, ..opts.clone() }, Some(&cut))?;

    let oracle_wasm = instrument_block_log(wasm, &program)?;
    let sinks = Splitters(vec![splitter(&program, &trace, keep_events), splitter(&program, &cut_trace, keep_events)]);
    let (oracle_run, Splitters(mut oracles)) = run_block_log(&engine, &oracle_wasm, cfg, sinks)?;
    same_behaviour(name, "the block-log oracle", &plain, &oracle_run, false)?;
    let cut_oracle = oracles.pop().expect("two splitters");
    let oracle = oracles.pop().expect("two splitters");

    same_trace(name, "trace mode", &stats, &oracle)?;
    same_trace(name, "trace mode (4-byte events)", &narrow_stats, &oracle)?;
    same_counts(name, "count mode", &counted, &oracle.counts)?;
    same_counts(name, "count mode (hash table)", &hashed, &oracle.counts)?;
    same_trace(name, "trace mode (cut points)", &cut_stats, &cut_oracle)?;
    same_counts(name, "count mode (cut points)", &cut_counted, &cut_oracle.counts)?;
    check_ppp(name, wasm, &program, cfg, &opts, &plain, &oracle.counts)?;
    let cut_functions = cut_trace.numberings.values().filter(|n| !n.cut_points().is_empty()).count();
    Ok(Agreed { plain, counts: oracle.counts, n_events: oracle.n_events, events: oracle.events, cut_functions, cut_events: cut_oracle.n_events })
}

/// Preferential path profiling with about two thirds of the executed paths interesting,
/// plus unexecuted ones: the counts must equal the oracle's, and exactly the paths neither
/// in a PPP slot nor in a Ball-Larus array (residual paths, and interesting ones past a
/// short slot array) must have been counted in the hash table. Run three ways: as
/// recorded by default (Ball-Larus arrays where they fit), with PPP slots in every
/// function, and with PPP everywhere and one slot per interesting path, so that functions
/// with wider PPP id ranges overflow.
fn check_ppp(name: &str, wasm: &[u8], program: &Program, cfg: &RunConfig, opts: &Options, plain: &RunResult, oracle: &PathCounts) -> anyhow::Result<()> {
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
        same_behaviour(name, &what, plain, &run.result, true)?;
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
