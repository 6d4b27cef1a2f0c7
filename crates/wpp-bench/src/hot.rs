//! `wpp-bench hot`: the hot subpath search on the DAG against the brute force on the
//! expanded trace, in time and memory.

use std::collections::HashSet;
use std::io::Write;
use std::time::Instant;

use clap::Args;
use wpp_grammar::{Grammar, HotParams};

use crate::workloads::{synthetic_trace, workload_trace, WorkloadArgs};

/// Time and memory of the hot subpath search on the grammar (`wpp hot`) against the
/// brute-force oracle that expands the trace and counts every substring, per workload and
/// on a synthetic trace, for several maximum lengths L.
///
/// Each row: events, grammar symbols, L, the least cost C (a share of the whole run's
/// cost), the DAG search's time and peak heap, the subpaths it reports, the brute force's
/// time and peak heap (expansion included), all minimal hot subpaths, the DAG search's
/// recall (the share of all minimal hot subpaths it found, by count and by cost: the found
/// ones' share of the total cost of all), and the speedup. The brute force runs only while
/// events × L stays within --brute-budget. Costs are instructions per path (for the
/// synthetic trace, a fixed pseudo-random 5..64 per symbol).
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Symbols of the synthetic trace (the generator of `wpp-bench grammar`); 0 to skip.
    #[arg(long, default_value_t = 100_000_000)]
    symbols: u64,
    /// Seed of the synthetic trace.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Maximum subpath lengths to measure.
    #[arg(long, value_delimiter = ',', default_values_t = [10usize, 100, 1000])]
    lens: Vec<usize>,
    /// Minimum subpath length.
    #[arg(long, default_value_t = 2)]
    min_len: usize,
    /// The least cost of a hot subpath, as a share of the run's total cost.
    #[arg(long, default_value_t = 0.001)]
    min_cost_share: f64,
    /// Run the brute force only when events × L is at most this (its time grows with
    /// events × L², its memory with the distinct substrings: at L = 100 on 1.5 million
    /// events it needs about 5 GiB).
    #[arg(long, default_value_t = 100_000_000)]
    brute_budget: u64,
}

fn header(out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{:<14} {:>11} {:>9} {:>5} {:>13} {:>8} {:>8} {:>6} {:>8} {:>9} {:>7} {:>7} {:>8} {:>8}",
        "input", "events", "gram syms", "L", "min cost", "dag s", "dag MiB", "found", "brute s", "brute MiB", "all", "recall", "by cost", "speedup"
    )?;
    Ok(())
}

fn measure(out: &mut impl Write, o: &Opts, name: &str, trace: &[u32], costs: &[u64]) -> anyhow::Result<()> {
    let t = Instant::now();
    let mut s = wpp_grammar::Sequitur::with_lookahead();
    s.extend(trace.iter().copied());
    let g: Grammar = s.finish();
    eprintln!("wpp-bench hot: {name}: grammar of {} symbols built in {:.1} s", g.n_symbols(), t.elapsed().as_secs_f64());
    let total: u128 = trace.iter().map(|&x| costs[x as usize] as u128).sum();
    for &len in &o.lens {
        let min_cost = ((total as f64 * o.min_cost_share) as u64).max(1);
        let params = HotParams { max_len: len, min_len: o.min_len.min(len), min_cost };
        let base = crate::alloc::reset_peak();
        let t = Instant::now();
        let dag = wpp_grammar::hot_subpaths(&g, costs, &params);
        let dag_s = t.elapsed().as_secs_f64();
        let dag_mib = (crate::alloc::peak() - base) as f64 / (1 << 20) as f64;
        let (brute_s, brute_mib, all, recall, cost_recall, speedup) = if (trace.len() as u64).saturating_mul(len as u64) <= o.brute_budget {
            let base = crate::alloc::reset_peak();
            let t = Instant::now();
            let expanded: Vec<u32> = g.expand().collect();
            let brute = wpp_grammar::hot_subpaths_brute(&expanded, costs, &params);
            let s = t.elapsed().as_secs_f64();
            let mib = (crate::alloc::peak() - base) as f64 / (1 << 20) as f64;
            let all: HashSet<&[wpp_grammar::Terminal]> = brute.iter().map(|h| h.symbols.as_slice()).collect();
            anyhow::ensure!(
                dag.iter().all(|h| all.contains(h.symbols.as_slice())),
                "{name}, L = {len}: the DAG search reported a subpath that is not minimal hot"
            );
            let cost_of_all: u128 = brute.iter().map(|h| h.cost as u128).sum();
            let cost_found: u128 = dag.iter().map(|h| h.cost as u128).sum();
            (
                format!("{s:.2}"),
                format!("{mib:.1}"),
                brute.len().to_string(),
                percent(dag.len() as f64, brute.len() as f64),
                percent(cost_found as f64, cost_of_all as f64),
                format!("{:.0}x", s / dag_s),
            )
        } else {
            ("-".into(), "-".into(), "-".into(), "-".into(), "-".into(), "-".into())
        };
        writeln!(
            out,
            "{:<14} {:>11} {:>9} {:>5} {:>13} {:>8.3} {:>8.1} {:>6} {:>8} {:>9} {:>7} {:>7} {:>8} {:>8}",
            name,
            trace.len(),
            g.n_symbols(),
            len,
            min_cost,
            dag_s,
            dag_mib,
            dag.len(),
            brute_s,
            brute_mib,
            all,
            recall,
            cost_recall,
            speedup,
        )?;
    }
    Ok(())
}

/// `part` as a percentage of `whole` (100% of nothing: nothing was missed).
fn percent(part: f64, whole: f64) -> String {
    if whole == 0.0 {
        "100%".into()
    } else {
        format!("{:.1}%", 100.0 * part / whole)
    }
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    header(&mut out)?;
    if let Some(sel) = o.workloads.select(None, "test")? {
        let engine = wpp_runtime::engine()?;
        for (p, run) in &sel.runs {
            eprint!("wpp-bench hot: {} ...\r", p.name);
            let w = workload_trace(&engine, &sel.dir, p, run)?;
            measure(&mut out, &o, &p.name, &w.trace, &w.instructions)?;
        }
    }
    if o.symbols > 0 {
        let trace: Vec<u32> = synthetic_trace(o.symbols, o.seed).collect();
        let n = trace.iter().max().map_or(0, |&m| m as usize + 1);
        let costs: Vec<u64> = (0..n as u64).map(|t| 5 + (t.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)).collect();
        measure(&mut out, &o, "synthetic", &trace, &costs)?;
    }
    Ok(())
}
