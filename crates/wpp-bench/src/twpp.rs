//! `wpp-bench twpp`: the timestamped whole program path's compaction steps on the real
//! programs (Zhang & Gupta, Tables 2, 3 and 6).

use std::ffi::OsStr;
use std::io::Write;
use std::time::Instant;

use clap::Args;
use wpp_twpp::steps::{measure, Compaction};

use crate::workloads::{load, WorkloadArgs};

/// Sizes after each compaction step, per workload run, in MB of 4-byte numbers as the
/// paper counts them: every invocation's block trace (the WPP's traces), each function's
/// distinct traces (×: the step's factor), the distinct traces with dynamic basic blocks
/// collapsed plus their distinct dictionaries, the compacted timestamped form of those
/// plus dictionaries (`twpp`), the call graph uncompressed (`dcg`) and compressed by LZW
/// and by SEQUITUR(1) (the smaller is kept), and the overall factor (WPP traces +
/// uncompressed DCG against TWPP + dictionaries + compressed DCG). Then the time to scan
/// the path (each run is recorded as `wpp record` does, into a grammar profile; the scan
/// expands it and splits it by call), static against dynamic flow graph sizes (functions that ran; summed over
/// distinct traces), and the mean timestamp vector per dynamic block, compacted
/// (uncompacted).
///
/// A second table times reading one function: the run's TWPP file built; then per function, reading its traces from the
/// TWPP file (its section decoded and expanded to blocks), mean and maximum over all
/// functions that ran, against scanning the whole path for them (expanding the grammar and
/// splitting it by call, what any one function's traces cost without the TWPP), and the
/// speedup of the mean; with the sizes of the grammar profile and the TWPP file and the
/// time to build the latter.
///
/// A third table times the commands as a user types them, end to end (process start to
/// exit, peak resident memory as the kernel counts it), on the function whose part of
/// the file is largest: `wpp trace FILE --func F --top 1`, `wpp trace FILE --func F --call
/// N` (its last invocation) and `wpp twpp stats FILE`.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Skip the extraction table.
    #[arg(long)]
    no_extraction: bool,
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
        "scan s",
        "st N",
        "st E",
        "dyn ΣN",
        "dyn ΣE",
        "avg |T|"
    )?;
    let Some(sel) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    let tmp = std::env::temp_dir().join(format!("wpp-bench-twpp-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let mut extraction = Vec::new();
    let mut commands = Vec::new();
    for (p, run) in &sel.runs {
        eprint!("wpp-bench twpp: {} ...\r", p.name);
        // Recorded as `wpp record` does, into a grammar profile: nothing holds the whole
        // path in memory.
        let (wasm, cfg) = load(&sel.dir, p, run)?;
        let (profile_path, twpp_path) = (tmp.join("p.wpp"), tmp.join("p.twpp"));
        wpp_record::Recorder::from_bytes(sel.dir.join(&p.wasm), wasm)?.run_config(cfg).record(&profile_path)?;
        let profile = wpp_profile::Profile::open(&profile_path)?;
        // Without the TWPP: expand the grammar and split the path by call.
        let t = Instant::now();
        let scanned = wpp_twpp::file::partition_profile(&profile, &mut wpp_model::progress::Quiet)?;
        let scan_s = t.elapsed().as_secs_f64();
        let c = measure(&scanned, &profile.meta.functions, &profile.numberings);
        row(&mut out, &p.name, &c, scan_s)?;
        if o.no_extraction {
            continue;
        }
        let t = Instant::now();
        wpp_twpp::build(&profile, &twpp_path, &mut wpp_model::progress::Quiet)?;
        let build_s = t.elapsed().as_secs_f64();
        let twpp = wpp_twpp::Twpp::open(&twpp_path)?;
        let mut times = Vec::new();
        for e in &twpp.index.functions {
            let t = Instant::now();
            let traces = twpp.block_traces(e.func)?;
            times.push(t.elapsed().as_secs_f64());
            anyhow::ensure!(traces.len() == scanned.traces.get(e.func).map_or(0, |t| t.traces.len()), "{}: function {}: traces differ", p.name, e.func);
        }
        commands.push(command_row(&p.name, &twpp, &twpp_path)?);
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        let max = times.iter().copied().fold(0.0, f64::max);
        let (engine_s, q_mean, q_max, n_queries) = queries(&twpp_path, &sel.dir.join(&p.wasm))?;
        extraction.push(format!(
            "{:<14} {:>11} {:>10.0} {:>10.0} {:>8.2} {:>9.1} {:>9.3} {:>9.2} {:>9} {:>8.0}x {:>9.1} {:>8} {:>9.3} {:>9.2} {:>8.0}x",
            p.name,
            profile.meta.events,
            std::fs::metadata(&profile_path)?.len() as f64 / 1e3,
            std::fs::metadata(&twpp_path)?.len() as f64 / 1e3,
            build_s,
            scan_s * 1e3,
            mean * 1e3,
            max * 1e3,
            times.len(),
            scan_s / mean.max(1e-9),
            engine_s * 1e3,
            n_queries,
            q_mean * 1e3,
            q_max * 1e3,
            scan_s / q_mean.max(1e-9),
        ));
    }
    if !o.no_extraction {
        writeln!(out)?;
        writeln!(
            out,
            "{:<14} {:>11} {:>10} {:>10} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>9} {:>9} {:>9}",
            "program",
            "events",
            "wpp KB",
            "twpp KB",
            "build s",
            "scan ms",
            "fn mean",
            "fn max",
            "functions",
            "speedup",
            "dcg ms",
            "queries",
            "q mean",
            "q max",
            "vs scan"
        )?;
        for line in extraction {
            writeln!(out, "{line}")?;
        }
        writeln!(out)?;
        writeln!(
            out,
            "{:<14} {:<24} {:>9} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            "program", "largest part", "part KB", "invocations", "trace ms", "trace MB", "call ms", "call MB", "stats ms", "stats MB"
        )?;
        for line in commands {
            writeln!(out, "{line}")?;
        }
    }
    std::fs::remove_dir_all(&tmp)?;
    Ok(())
}

/// The commands as typed on the function of `twpp` with the largest part.
fn command_row(name: &str, twpp: &wpp_twpp::Twpp, path: &std::path::Path) -> anyhow::Result<String> {
    use crate::command::run_wpp;
    let part_bytes = |f: wpp_model::FuncIdx| {
        let (own, apart) = (wpp_twpp::file::section::function(f), format!("{}.", wpp_twpp::file::section::function(f)));
        twpp.profile.toc.iter().filter(|e| e.name == own || e.name.starts_with(&apart)).map(|e| e.len).sum::<u64>()
    };
    let Some(e) = twpp.index.functions.iter().max_by_key(|e| (part_bytes(e.func), std::cmp::Reverse(e.func))) else {
        return Ok(format!("{name:<14} (no function ran)"));
    };
    let (file, func, last) = (path.as_os_str(), e.func.0.to_string(), e.invocations.to_string());
    let trace = run_wpp(&[OsStr::new("trace"), file, OsStr::new("--func"), OsStr::new(&func), OsStr::new("--top"), OsStr::new("1")])?;
    let call = run_wpp(&[OsStr::new("trace"), file, OsStr::new("--func"), OsStr::new(&func), OsStr::new("--call"), OsStr::new(&last)])?;
    let stats = run_wpp(&[OsStr::new("twpp"), OsStr::new("stats"), file])?;
    let mut fname = twpp.profile.meta.func_name(e.func);
    if fname.len() > 24 {
        fname.truncate(23);
        fname.push('~');
    }
    let mb = |b: u64| b as f64 / 1e6;
    Ok(format!(
        "{:<14} {:<24} {:>9.1} {:>11} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
        name,
        fname,
        part_bytes(e.func) as f64 / 1e3,
        e.invocations,
        trace.seconds * 1e3,
        mb(trace.peak_bytes),
        call.seconds * 1e3,
        mb(call.peak_bytes),
        stats.seconds * 1e3,
        mb(stats.peak_bytes)
    ))
}

/// Times data flow queries on a TWPP file: reading its call graph (`dcg ms`), then a
/// seeded sample of loads of the functions that ran, half asked for redundancy and half
/// for the definition of a local their address reads or of a global (mean and maximum
/// per query). A forward walk of the run (the oracle) costs at least the scan.
fn queries(twpp: &std::path::Path, module: &std::path::Path) -> anyhow::Result<(f64, f64, f64, usize)> {
    use wpp_model::effects::{Action, Base, Var};
    use wpp_twpp::dataflow::{Fact, Point};
    let a = wpp_dataflow::query::open(twpp, module)?;
    let mut candidates = Vec::new();
    for e in &a.twpp.index.functions {
        let Some(fx) = a.module.effects.get(e.func) else { continue };
        for (b, acts) in fx.blocks.iter().enumerate() {
            for act in acts {
                if let Action::Load { access, at } = *act {
                    if access.base != Base::Unknown {
                        candidates.push((Point { func: e.func, block: wpp_model::BlockIdx(b as u32), at }, access));
                    }
                }
            }
        }
    }
    let t = Instant::now();
    let mut engine = a.engine()?;
    let engine_s = t.elapsed().as_secs_f64();
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut times = Vec::new();
    for i in 0..100.min(candidates.len() * 2) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let (point, access) = candidates[(seed % candidates.len() as u64) as usize];
        let fact = match (i % 2, access.base) {
            (0, _) => Fact::Available(access),
            (_, Base::Var(v)) => Fact::Reaching(v),
            _ => Fact::Reaching(Var::Local(0)),
        };
        let t = Instant::now();
        engine.query(point, &fact)?;
        times.push(t.elapsed().as_secs_f64());
    }
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    Ok((engine_s, mean, times.iter().copied().fold(0.0, f64::max), times.len()))
}
