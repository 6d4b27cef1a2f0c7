//! `wpp-bench twpp`: the timestamped whole program path's compaction steps on the real
//! programs (Zhang & Gupta, Tables 2, 3 and 6).

use std::io::Write;
use std::time::Instant;

use clap::Args;
use wpp_record::TraceStats;
use wpp_twpp::steps::{measure, Compaction};

use crate::workloads::{load, WorkloadArgs};

/// Sizes after each compaction step, per workload run, in MB of 4-byte numbers as the
/// paper counts them: every invocation's block trace (the WPP's traces), each function's
/// distinct traces (×: the step's factor), the distinct traces with dynamic basic blocks
/// collapsed plus their distinct dictionaries, the compacted timestamped form of those
/// plus dictionaries (`twpp`), the call graph uncompressed (`dcg`) and compressed by LZW
/// and by SEQUITUR(1) (the smaller is kept), and the overall factor (WPP traces +
/// uncompressed DCG against TWPP + dictionaries + compressed DCG). Then the time to partition the
/// events, static against dynamic flow graph sizes (functions that ran; summed over
/// distinct traces), and the mean timestamp vector per dynamic block, compacted
/// (uncompacted).
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
}

fn mb(numbers: u64) -> f64 {
    numbers as f64 * 4.0 / 1e6
}

fn row(out: &mut impl Write, name: &str, c: &Compaction, secs: f64) -> anyhow::Result<()> {
    let factor = |a: u64, b: u64| a as f64 / b.max(1) as f64;
    let dbb = c.dbb_heads + c.dictionary_numbers;
    let twpp = c.twpp_numbers + c.dictionary_numbers;
    writeln!(
        out,
        "{:<14} {:>11} {:>10} {:>8} {:>9.2} {:>8.2} {:>6.1}x {:>8.2} {:>5.2}x {:>8.3} {:>5.2}x {:>8.2} {:>7.3} {:>7.3} {:>7.1}x {:>7.2} {:>6} {:>6} {:>7} {:>7} {:>5.1} ({:.1})",
        name,
        c.events,
        c.invocations,
        c.distinct_traces,
        mb(c.wpp_blocks),
        mb(c.distinct_blocks),
        factor(c.wpp_blocks, c.distinct_blocks),
        mb(dbb),
        factor(c.distinct_blocks, dbb),
        mb(twpp),
        factor(dbb, twpp),
        mb(c.dcg_numbers),
        c.dcg_lzw_bytes as f64 / 1e6,
        c.dcg_grammar_bytes as f64 / 1e6,
        factor(c.wpp_total(), c.twpp_total()),
        secs,
        c.static_nodes,
        c.static_edges,
        c.dynamic_nodes,
        c.dynamic_edges,
        c.series as f64 / c.dynamic_nodes.max(1) as f64,
        c.timestamps as f64 / c.dynamic_nodes.max(1) as f64,
    )?;
    Ok(())
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<14} {:>11} {:>10} {:>8} {:>9} {:>8} {:>7} {:>8} {:>6} {:>8} {:>6} {:>8} {:>7} {:>7} {:>8} {:>7} {:>6} {:>6} {:>7} {:>7} {:>7}",
        "program",
        "events",
        "calls",
        "traces",
        "wpp MB",
        "dedup MB",
        "",
        "dbb MB",
        "",
        "twpp MB",
        "",
        "dcg MB",
        "lzw MB",
        "gram MB",
        "overall",
        "part s",
        "st N",
        "st E",
        "dyn ΣN",
        "dyn ΣE",
        "avg |T|"
    )?;
    let Some(sel) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    let engine = wpp_runtime::engine()?;
    for (p, run) in &sel.runs {
        eprint!("wpp-bench twpp: {} ...\r", p.name);
        let (wasm, cfg) = load(&sel.dir, p, run)?;
        let program = wpp_wasm::decode(&wasm)?;
        let inst = wpp_wasm::instrument(&wasm, &program, &wpp_wasm::Options { mode: wpp_wasm::Mode::Trace, ..Default::default() })?;
        let (_, stats) = wpp_runtime::run_paths(&engine, &inst, &cfg, TraceStats::for_numberings(&inst.numberings).checking_order(true))?;
        let events = stats.events.expect("events kept");
        let t = Instant::now();
        let part = wpp_twpp::partition(&program.functions, &inst.numberings, events.iter().copied())?;
        let secs = t.elapsed().as_secs_f64();
        drop(events);
        let c = measure(&part, &program.functions, &inst.numberings);
        row(&mut out, &p.name, &c, secs)?;
    }
    Ok(())
}
