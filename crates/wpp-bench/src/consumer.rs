//! `wpp-bench consumer`: what the consumer thread costs per event, in each event form.

use std::io::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use clap::Args;
use wpp_record::{GrammarSink, Spool, TraceStats};
use wpp_report::format::group;
use wpp_runtime::{run_paths, run_plain, EventSink};
use wpp_wasm::{Mode, Options};

use crate::workloads::{geomean, load, WorkloadArgs};

/// Measure the consumer thread's work per event, in both event forms.
///
/// Each program's run is recorded once in trace mode with every event kept; then its
/// events are taken in as `wpp record` takes them in while the guest runs (decoded,
/// numbered as dense symbols, runs of one path collapsed into tokens, tokens appended to
/// an in-memory spool; no grammar is built), buffer by buffer of the guest's size, on
/// this thread alone: as 4-byte events (what `wpp record` writes) and as 8-byte ones.
/// Times are the best of --repeat rounds. `guest Mev/s` is the rate at which the
/// uninstrumented program runs through paths, and `keeps up` how many times that rate the
/// consumer takes in 4-byte events: below 1 the guest must wait for the consumer while
/// the whole program path is recorded, whatever else runs.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Rounds; each form's fastest counts.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
}

/// The guest's event buffer, in bytes (as `wpp record` lays it out).
const BUFFER_BYTES: usize = 1 << 20;

struct Row {
    name: String,
    events: u64,
    tokens: u64,
    plain: Duration,
    wide: Duration,
    narrow: Duration,
}

/// Takes `words` in, `per_buffer` at a time, as a fresh grammar sink would; returns the time.
fn take_in<W>(inst: &wpp_wasm::Instrumented, words: &[W], per_buffer: usize, feed: fn(&mut GrammarSink, &[W])) -> Duration {
    let spool = Spool::new(Path::new("wpp-bench-consumer"), usize::MAX);
    let mut sink = GrammarSink::new(&inst.numberings, wpp_record::Builder::Sequitur1, wpp_record::Prediction::Off, spool);
    let t = Instant::now();
    for buffer in words.chunks(per_buffer) {
        feed(&mut sink, buffer);
    }
    let d = t.elapsed();
    drop(sink);
    d
}

fn measure(engine: &wpp_runtime::Engine, dir: &Path, p: &wpp_workloads::Program, run: &wpp_workloads::Run, repeat: usize) -> anyhow::Result<Row> {
    let (wasm, cfg) = load(dir, p, run)?;
    let program = wpp_wasm::decode(&wasm)?;
    let plain = (0..repeat.max(1)).map(|_| run_plain(engine, &wasm, &cfg).map(|r| r.guest_time)).collect::<Result<Vec<_>, _>>()?;
    let plain = plain.into_iter().min().expect("one run");
    let inst = wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Trace, ..Options::default() })?;
    let (_, stats) = run_paths(engine, &inst, &cfg, TraceStats::for_numberings(&inst.numberings).checking_order(true))?;
    let events = stats.events.unwrap_or_default();
    let tokens = events.windows(2).filter(|w| w[0] != w[1]).count() as u64 + !events.is_empty() as u64;
    let ids = wpp_wasm::narrow_ids(&inst.numberings);
    let (mut wide, mut narrow) = (Vec::new(), Vec::new());
    for &e in &events {
        e.encode(&mut wide);
        ids.encode(e, &mut narrow);
    }
    drop(events);
    let (mut best_wide, mut best_narrow) = (Duration::MAX, Duration::MAX);
    for _ in 0..repeat.max(1) {
        best_wide = best_wide.min(take_in(&inst, &wide, BUFFER_BYTES / 8, |s, w| s.events(w).expect("a sink in memory takes every event")));
        best_narrow = best_narrow.min(take_in(&inst, &narrow, BUFFER_BYTES / 4, |s, w| s.narrow_events(w).expect("a sink in memory takes every event")));
    }
    Ok(Row { name: p.name.clone(), events: stats.n_events, tokens, plain, wide: best_wide, narrow: best_narrow })
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let engine = wpp_runtime::engine()?;
    let w = o.workloads.select(Some("workloads"), "test")?.expect("a default directory");
    let mut rows = Vec::new();
    for (p, run) in &w.runs {
        eprint!("wpp-bench consumer: {} ...\r", p.name);
        rows.push(measure(&engine, &w.dir, p, run, o.repeat)?);
    }
    eprint!("{:40}\r", "");
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<14} {:>13} {:>13} {:>8} {:>11} {:>11} {:>9} {:>12} {:>12} {:>9}",
        "program", "events", "tokens", "tok/ev", "8-byte ns", "4-byte ns", "8/4", "4-byte Mev/s", "guest Mev/s", "keeps up"
    )?;
    let ns = |d: Duration, n: u64| d.as_secs_f64() * 1e9 / n.max(1) as f64;
    let rate = |n: u64, d: Duration| n as f64 / d.as_secs_f64().max(1e-9) / 1e6;
    for r in &rows {
        writeln!(
            out,
            "{:<14} {:>13} {:>13} {:>8.2} {:>11.2} {:>11.2} {:>9.2} {:>12.1} {:>12.1} {:>9.2}",
            r.name,
            group(r.events),
            group(r.tokens),
            r.tokens as f64 / r.events.max(1) as f64,
            ns(r.wide, r.events),
            ns(r.narrow, r.events),
            r.wide.as_secs_f64() / r.narrow.as_secs_f64().max(1e-9),
            rate(r.events, r.narrow),
            rate(r.events, r.plain),
            rate(r.events, r.narrow) / rate(r.events, r.plain).max(1e-9),
        )?;
    }
    let g = |f: &dyn Fn(&Row) -> f64| geomean(rows.iter().map(f));
    writeln!(
        out,
        "{:<14} {:>13} {:>13} {:>8} {:>11.2} {:>11.2} {:>9.2} {:>12} {:>12} {:>9.2}",
        "geomean",
        "",
        "",
        "",
        g(&|r| ns(r.wide, r.events)),
        g(&|r| ns(r.narrow, r.events)),
        g(&|r| r.wide.as_secs_f64() / r.narrow.as_secs_f64().max(1e-9)),
        "",
        "",
        g(&|r| rate(r.events, r.narrow) / rate(r.events, r.plain).max(1e-9)),
    )?;
    Ok(())
}
