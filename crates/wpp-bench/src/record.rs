//! `wpp-bench record`: recording overhead on the real-program workloads, as one table.

use std::io::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use wpp_record::{Prediction, TraceStats};
use wpp_report::format::group;
use wpp_runtime::{run_paths, run_plain};
use wpp_wasm::{Mode, Options};
use wpp_workloads::{Program, Run};

use crate::workloads::{geomean, load, WorkloadArgs};

/// Measure recording overhead on the workloads in workloads/workloads.json.
///
/// Each program runs uninstrumented, in count mode as `wpp record --mode paths` runs it
/// (arrays, the hash table for functions with too many paths; stoppable by a signal,
/// which costs a load and an add per path), in count mode with the hash table for every function (the
/// classic hashing path profiler), in trace mode with the events counted
/// on the consumer thread (4-byte events as `wpp record` writes them, and 8-byte ones as
/// recordings of memory accesses do: trace8×), recording in trace mode as `wpp record --mode trace` does
/// (run-length tokens written to the profile; +file), and recording the whole program path exactly as
/// `wpp record` does by default (events spooled on the consumer thread, the grammar built
/// from the spool between buffers and after the guest ends) and with `--predict`, under
/// the same wasmtime engine. Times are the guest's run time (compilation excluded), the
/// best of --repeat runs; for +file the whole recording's, with the profile's size (trace
/// B); for the grammar two: the guest's (guest×) and the whole
/// recording's, until the profile is written (gram×). Ratios are against the
/// uninstrumented run. Last, what the default recording's front ends left for the grammar
/// builders: tokens after runs of one path were collapsed, per event (tok/ev); phrases cut
/// from them, per event (phr/ev); the distinct phrases' share of the phrases (dist%); the
/// tokens of the distinct phrases, per event (dict/ev: what the phrase dictionary's
/// builder sees; the top level sees phr/ev); and the events per second the consumer thread
/// turned into tokens while the guest ran (runs Me/s).
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Runs per measurement; the fastest counts.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Only these measurements (the uninstrumented run is always made) [default: all].
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<Measure>,
    /// Threads that build the grammar's segments [default: the cores available].
    #[arg(long)]
    build_threads: Option<usize>,
    /// Instead of the table: record the whole program path of each program with each of
    /// these numbers of build threads (comma-separated, e.g. 1,2,4) and print gram×
    /// against threads, with the parallel fraction fitted to Amdahl's law.
    #[arg(long, value_delimiter = ',')]
    threads_sweep: Vec<usize>,
    /// Build the grammar in segments of about this many tokens (`wpp record
    /// --segment-tokens`).
    #[arg(long)]
    segment_tokens: Option<usize>,
}

/// A measurement `wpp-bench record` can make besides the uninstrumented run.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Measure {
    /// Count mode.
    Count,
    /// Count mode with the hash table for every function.
    Hash,
    /// Trace mode, events counted in memory.
    Trace,
    /// The same with 8-byte events, the form recordings of memory accesses write.
    Trace8,
    /// Trace mode as `wpp record --mode trace` records it: run-length tokens written to a
    /// profile (the whole recording's time, and the profile's size).
    File,
    /// The whole program path as `wpp record` records it by default.
    Gram,
    /// The same with `--predict`.
    GramP,
}

struct Row {
    name: String,
    plain: Duration,
    count: Option<Duration>,
    hash: Option<Duration>,
    trace: Option<Duration>,
    trace8: Option<Duration>,
    trace_file: Option<Duration>,
    /// The trace-mode profile's size.
    trace_bytes: Option<u64>,
    /// The guest's time, and the whole recording's (until the profile is written).
    grammar: Option<(Duration, Duration)>,
    grammar_p: Option<(Duration, Duration)>,
    grammar_bytes: Option<usize>,
    /// What the front ends of the default recording left for the builders.
    front: Option<Front>,
    /// Events and distinct paths, from whichever measurement saw them.
    events: Option<(u64, usize)>,
}

/// What the front ends left: events, tokens after runs (and the consumer's time making
/// them), phrases cut, distinct phrases, and the tokens of the distinct phrases.
#[derive(Clone, Copy)]
struct Front {
    events: u64,
    tokens: u64,
    tokenize: Duration,
    phrases: Option<wpp_grammar::PhraseStats>,
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

/// The engines of the measurements: one for plain and trace-mode runs, one for count mode
/// that can be stopped as `wpp record` can stop it.
struct Engines {
    plain: wpp_runtime::Engine,
    stoppable_count: wpp_runtime::Engine,
    stoppable: wpp_runtime::Limits,
}

fn measure(engines: &Engines, dir: &Path, p: &Program, run: &Run, o: &Opts) -> anyhow::Result<Row> {
    let engine = &engines.plain;
    let (repeat, only) = (o.repeat, &o.only[..]);
    let wanted = |m: Measure| only.is_empty() || only.contains(&m);
    let (wasm, cfg) = load(dir, p, run)?;
    let program = wpp_wasm::decode(&wasm).with_context(|| format!("{}", dir.join(&p.wasm).display()))?;
    let (plain, _) = best(repeat, || Ok((run_plain(engine, &wasm, &cfg)?.guest_time, ())))?;
    let mut row = Row {
        name: p.name.clone(),
        plain,
        count: None,
        hash: None,
        trace: None,
        trace8: None,
        trace_file: None,
        trace_bytes: None,
        grammar: None,
        grammar_p: None,
        grammar_bytes: None,
        front: None,
        events: None,
    };
    for (m, force_hash) in [(Measure::Count, false), (Measure::Hash, true)] {
        if !wanted(m) {
            continue;
        }
        let inst = wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Count, force_hash, ..Options::default() })?;
        let cfg = wpp_runtime::RunConfig { limits: engines.stoppable.clone(), ..cfg.clone() };
        let (t, _) = best(repeat, || {
            let (r, ()) = run_paths(&engines.stoppable_count, &inst, &cfg, ())?;
            Ok((r.result.guest_time, ()))
        })?;
        *(if force_hash { &mut row.hash } else { &mut row.count }) = Some(t);
    }
    for (m, narrow_events) in [(Measure::Trace, true), (Measure::Trace8, false)] {
        if !wanted(m) {
            continue;
        }
        let trace = wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Trace, narrow_events, ..Options::default() })?;
        let (t, events) = best(repeat, || {
            let (r, stats) = run_paths(engine, &trace, &cfg, TraceStats::for_numberings(&trace.numberings))?;
            Ok((r.result.guest_time, (stats.n_events, stats.counts().len())))
        })?;
        *(if narrow_events { &mut row.trace } else { &mut row.trace8 }) = Some(t);
        row.events = Some(events);
    }
    if wanted(Measure::File) {
        let tmp = std::env::temp_dir().join(format!("wpp-bench-{}.wpp", std::process::id()));
        let recorder = wpp_record::Recorder::from_bytes(dir.join(&p.wasm), wasm.clone())?.run_config(cfg.clone()).mode(wpp_profile::RecordMode::Trace);
        let (t, (bytes, events)) = best(repeat, || {
            let rec = recorder.record(&tmp)?;
            let bytes = std::fs::metadata(&tmp)?.len();
            Ok((rec.guest_time + rec.after_guest, (bytes, (rec.events, rec.distinct as usize))))
        })?;
        let _ = std::fs::remove_file(&tmp);
        row.trace_file = Some(t);
        row.trace_bytes = Some(bytes);
        row.events = Some(events);
    }
    for (m, prediction) in [(Measure::Gram, Prediction::Off), (Measure::GramP, Prediction::Rules)] {
        if !wanted(m) {
            continue;
        }
        let tmp = std::env::temp_dir().join(format!("wpp-bench-{}.wpp", std::process::id()));
        let mut recorder = wpp_record::Recorder::from_bytes(dir.join(&p.wasm), wasm.clone())?.run_config(cfg.clone()).predict(prediction);
        if let Some(n) = o.build_threads {
            recorder = recorder.build_threads(n);
        }
        if let Some(n) = o.segment_tokens {
            recorder = recorder.segment_tokens(n);
        }
        let (t, (guest, bytes, events, front)) = best(repeat, || {
            let rec = recorder.record(&tmp)?;
            let g = rec.grammar.as_ref().context("a grammar recording has a grammar")?;
            let front = Front { events: rec.events, tokens: g.tokens, tokenize: g.tokenize_time, phrases: g.phrases };
            Ok((rec.guest_time + rec.after_guest, (rec.guest_time, g.bytes as usize, (rec.events, rec.distinct as usize), front)))
        })?;
        let _ = std::fs::remove_file(&tmp);
        if prediction == Prediction::Rules {
            row.grammar_p = Some((guest, t));
        } else {
            row.grammar = Some((guest, t));
            row.grammar_bytes = Some(bytes);
            row.front = Some(front);
        }
        row.events = Some(events);
    }
    Ok(row)
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    if !o.threads_sweep.is_empty() {
        return sweep(&o);
    }
    let stoppable = wpp_runtime::Limits { stop: Some(wpp_runtime::StopHandle::new()), ..Default::default() };
    let engines = Engines { plain: wpp_runtime::engine()?, stoppable_count: wpp_runtime::engine_for(&stoppable, Some(Mode::Count))?, stoppable };
    let mut rows = Vec::new();
    let w = o.workloads.select(Some("workloads"), "bench")?.expect("a default directory");
    for (p, run) in &w.runs {
        eprint!("wpp-bench record: {} ...\r", p.name);
        rows.push(measure(&engines, &w.dir, p, run, &o)?);
    }
    eprint!("{:40}\r", "");
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<14} {:>8} {:>8} {:>7} {:>7} {:>8} {:>7} {:>7} {:>8} {:>7} {:>8} {:>7} {:>7} {:>8} {:>8} {:>13} {:>10} {:>9} {:>13} {:>11} {:>7} {:>7} {:>7} {:>7} {:>9}",
        "program",
        "plain s",
        "count s",
        "count×",
        "hash×",
        "trace s",
        "trace×",
        "trace8×",
        "+file s",
        "+file×",
        "gram s",
        "guest×",
        "gram×",
        "guest+p×",
        "gram+p×",
        "events",
        "Mevents/s",
        "distinct",
        "trace B",
        "grammar B",
        "tok/ev",
        "phr/ev",
        "dist%",
        "dict/ev",
        "runs Me/s"
    )?;
    // A duration, or its ratio to the uninstrumented run; "-" when not measured.
    let secs = |d: Option<Duration>, w: usize| d.map_or(format!("{:>w$}", "-"), |d| format!("{:>w$.3}", d.as_secs_f64()));
    let ratio =
        |d: Option<Duration>, plain: Duration, w: usize| d.map_or(format!("{:>w$}", "-"), |d| format!("{:>w$.2}", d.as_secs_f64() / plain.as_secs_f64()));
    for r in &rows {
        let (events, distinct) = r.events.map_or(("-".to_string(), "-".to_string()), |(e, d)| (group(e), d.to_string()));
        // How fast the instrumented guest produces events, when nothing slows the consumer.
        let rate = match (r.events, r.trace) {
            (Some((e, _)), Some(t)) => format!("{:.1}", e as f64 / t.as_secs_f64() / 1e6),
            _ => "-".into(),
        };
        writeln!(
            out,
            "{:<14} {:>8.3} {} {} {} {} {} {} {} {} {} {} {} {} {} {:>13} {:>10} {:>9} {:>13} {:>11} {}",
            r.name,
            r.plain.as_secs_f64(),
            secs(r.count, 8),
            ratio(r.count, r.plain, 7),
            ratio(r.hash, r.plain, 7),
            secs(r.trace, 8),
            ratio(r.trace, r.plain, 7),
            ratio(r.trace8, r.plain, 7),
            secs(r.trace_file, 8),
            ratio(r.trace_file, r.plain, 7),
            secs(r.grammar.map(|g| g.1), 8),
            ratio(r.grammar.map(|g| g.0), r.plain, 7),
            ratio(r.grammar.map(|g| g.1), r.plain, 7),
            ratio(r.grammar_p.map(|g| g.0), r.plain, 8),
            ratio(r.grammar_p.map(|g| g.1), r.plain, 8),
            events,
            rate,
            distinct,
            r.trace_bytes.map_or("-".to_string(), group),
            r.grammar_bytes.map_or("-".to_string(), |b| group(b as u64)),
            front_columns(r.front),
        )?;
    }
    let g = |f: fn(&Row) -> Option<Duration>, w: usize| {
        let ratios: Vec<f64> = rows.iter().filter_map(|r| f(r).map(|d| d.as_secs_f64() / r.plain.as_secs_f64())).collect();
        if ratios.is_empty() {
            format!("{:>w$}", "-")
        } else {
            format!("{:>w$.2}", geomean(ratios.into_iter()))
        }
    };
    writeln!(
        out,
        "{:<14} {:>8} {:>8} {} {} {:>8} {} {} {:>8} {} {:>8} {} {} {} {}",
        "geomean",
        "",
        "",
        g(|r| r.count, 7),
        g(|r| r.hash, 7),
        "",
        g(|r| r.trace, 7),
        g(|r| r.trace8, 7),
        "",
        g(|r| r.trace_file, 7),
        "",
        g(|r| r.grammar.map(|g| g.0), 7),
        g(|r| r.grammar.map(|g| g.1), 7),
        g(|r| r.grammar_p.map(|g| g.0), 8),
        g(|r| r.grammar_p.map(|g| g.1), 8)
    )?;
    Ok(())
}

/// The front ends' columns: tokens after runs per event, phrases per event, the distinct
/// phrases' share of the phrases, the tokens of the distinct phrases per event (what the
/// phrase dictionary's builder sees), and events per second the consumer turned into
/// tokens.
fn front_columns(f: Option<Front>) -> String {
    let Some(f) = f.filter(|f| f.events > 0) else { return format!("{:>7} {:>7} {:>7} {:>7} {:>9}", "-", "-", "-", "-", "-") };
    let per_event = |n: u64| format!("{:>7.3}", n as f64 / f.events as f64);
    let (phrases, distinct, dict) = match f.phrases {
        Some(p) if p.phrases > 0 => (per_event(p.phrases), format!("{:>7.1}", 100.0 * p.distinct as f64 / p.phrases as f64), per_event(p.dictionary_tokens)),
        _ => (format!("{:>7}", "-"), format!("{:>7}", "-"), format!("{:>7}", "-")),
    };
    let rate = f.events as f64 / f.tokenize.as_secs_f64().max(1e-9) / 1e6;
    format!("{} {} {} {} {:>9.0}", per_event(f.tokens), phrases, distinct, dict, rate)
}

/// `--threads-sweep`: the whole recording (gram×) against build threads, per program and
/// as a geometric mean, with Amdahl's parallel fraction fitted to each row; with
/// `--segment-tokens`, the segment builder's beside the default's, in the same run.
fn sweep(o: &Opts) -> anyhow::Result<()> {
    let engine = wpp_runtime::engine()?;
    let w = o.workloads.select(Some("workloads"), "bench")?.expect("a default directory");
    let threads = &o.threads_sweep;
    let builders: Vec<Option<usize>> = match o.segment_tokens {
        Some(n) => vec![None, Some(n)],
        None => vec![None],
    };
    let mut out = std::io::stdout().lock();
    write!(out, "{:<14} {:>8}", "program", "plain s")?;
    for b in &builders {
        let name = if b.is_some() { "seg×" } else { "gram×" };
        for t in threads {
            write!(out, " {:>9}", format!("{name} {t}t"))?;
        }
        write!(out, " {:>9} {:>13}", if b.is_some() { "seg par" } else { "parallel" }, if b.is_some() { "seg B" } else { "grammar B" })?;
    }
    writeln!(out, " {:>11}", "events")?;
    let mut columns: Vec<Vec<f64>> = vec![Vec::new(); threads.len() * builders.len()];
    for (p, run) in &w.runs {
        eprint!("wpp-bench record: {} ...\r", p.name);
        let (wasm, cfg) = load(&w.dir, p, run)?;
        let (plain, _) = best(o.repeat, || Ok((run_plain(&engine, &wasm, &cfg)?.guest_time, ())))?;
        let tmp = std::env::temp_dir().join(format!("wpp-bench-{}.wpp", std::process::id()));
        write!(out, "{:<14} {:>8.3}", p.name, plain.as_secs_f64())?;
        let mut events = 0;
        for (bi, b) in builders.iter().enumerate() {
            let mut ratios = Vec::new();
            let mut sizes = std::collections::BTreeSet::new();
            for &t in threads {
                let mut recorder = wpp_record::Recorder::from_bytes(w.dir.join(&p.wasm), wasm.clone())?.run_config(cfg.clone()).build_threads(t);
                if let Some(n) = *b {
                    recorder = recorder.segment_tokens(n);
                }
                let (d, (bytes, n)) = best(o.repeat, || {
                    let rec = recorder.record(&tmp)?;
                    let g = rec.grammar.as_ref().context("a grammar recording has a grammar")?;
                    Ok((rec.guest_time + rec.after_guest, (g.bytes, rec.events)))
                })?;
                sizes.insert(bytes);
                events = n;
                ratios.push(d.as_secs_f64() / plain.as_secs_f64());
            }
            anyhow::ensure!(sizes.len() == 1, "{}: the grammar's size depends on the threads: {sizes:?}", p.name);
            for (i, r) in ratios.iter().enumerate() {
                write!(out, " {r:>9.2}")?;
                columns[bi * threads.len() + i].push(*r);
            }
            let f = amdahl(threads, &ratios).map_or("-".to_string(), |f| format!("{f:.2}"));
            write!(out, " {f:>9} {:>13}", group(sizes.into_iter().next().unwrap_or(0)))?;
        }
        writeln!(out, " {:>11}", group(events))?;
        let _ = std::fs::remove_file(&tmp);
    }
    eprint!("{:40}\r", "");
    let means: Vec<f64> = columns.into_iter().map(|c| geomean(c.into_iter())).collect();
    write!(out, "{:<14} {:>8}", "geomean", "")?;
    for m in means.chunks(threads.len()) {
        for x in m {
            write!(out, " {x:>9.2}")?;
        }
        let f = amdahl(threads, m).map_or("-".to_string(), |f| format!("{f:.2}"));
        write!(out, " {f:>9} {:>13}", "")?;
    }
    writeln!(out)?;
    Ok(())
}

/// The parallel fraction `f` of Amdahl's law, `T(n) = T(1) · ((1 − f) + f / n)`, fitted by
/// least squares to times measured at `threads` (one of them 1); `None` without a
/// one-thread time or a second thread count.
fn amdahl(threads: &[usize], times: &[f64]) -> Option<f64> {
    let t1 = threads.iter().position(|&t| t == 1).map(|i| times[i])?;
    // T(n)/T(1) − 1 = −f · (1 − 1/n): a line through the origin in x = 1 − 1/n.
    let (mut xy, mut xx) = (0.0, 0.0);
    for (&n, &t) in threads.iter().zip(times) {
        let x = 1.0 - 1.0 / n as f64;
        xy += x * (t / t1 - 1.0);
        xx += x * x;
    }
    (xx > 0.0).then(|| -xy / xx)
}

#[cfg(test)]
mod tests {
    #[test]
    fn amdahl_recovers_the_fraction() {
        let f = 0.8;
        let threads = [1, 2, 4, 16];
        let times: Vec<f64> = threads.iter().map(|&n| 10.0 * ((1.0 - f) + f / n as f64)).collect();
        assert!((super::amdahl(&threads, &times).unwrap() - f).abs() < 1e-9);
        assert_eq!(super::amdahl(&[2, 4], &[1.0, 0.5]), None);
        assert_eq!(super::amdahl(&[1], &[1.0]), None);
    }
}
