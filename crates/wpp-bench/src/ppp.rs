//! `wpp-bench ppp`: the overhead of preferential path profiling against Ball-Larus
//! profiling with arrays and with a hash table, on the real-program workloads.

use std::io::Write as _;
use std::time::Duration;

use clap::Args;
use wpp_runtime::{run_paths, run_plain, PathCounts};
use wpp_wasm::{Instrumented, Interesting, Mode, Options};

use crate::workloads::{geomean, load, WorkloadArgs};

/// Measure preferential path profiling (PPP) on the workloads in workloads/workloads.json.
///
/// Each program's bench run is timed uninstrumented; with Ball-Larus counting in arrays
/// (the hash table only for functions with too many paths, as `wpp record --mode paths`);
/// with the hash table for every function (the classic hashing path profiler, the
/// baseline of Vaswani, Nori & Chilimbi); with PPP where every path of the run itself is
/// interesting (the paper's setting: interesting paths from a profile of the same input),
/// as `wpp record --mode ppp` does it (Ball-Larus arrays where they fit, PPP slots in the
/// other functions) and with PPP slots in every function (`PPPall`, `--ppp-everywhere`);
/// and with PPP where the interesting paths are those of the `train` run (residual path
/// profiling: paths of the bench input the train input never ran are residual). Times are
/// the guest's, the best of --repeat rounds in which every variant runs once; ratios are
/// against the uninstrumented run. `PPP/hash` is PPP's overhead as a share of the hashing
/// profiler's. The last columns describe the PPP numbering of the paper's setting: functions with
/// interesting paths, how many at rho = 1, <= 2 and > 10, and the interesting paths whose
/// ids lie past their function's slot array under `PPPall` (counted in the hash table). `Mpaths/s` is the
/// rate at which the uninstrumented program runs through paths, and `ns/path` PPP's extra
/// time per path execution: a profiler that counts every path pays at least its counter
/// update per path, which bounds the overhead from below at high rates.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Rounds of runs; each variant's fastest counts.
    #[arg(long, default_value_t = 5)]
    repeat: usize,
}

struct Row {
    name: String,
    plain: Duration,
    array: Duration,
    hash: Duration,
    ppp: Duration,
    ppp_all: Duration,
    ppp_train: Option<Duration>,
    /// Path executions and distinct paths of the timed run, and of them residual under the
    /// train set.
    events: u64,
    distinct: usize,
    residual: Option<usize>,
    /// Functions with interesting paths; at rho = 1, <= 2, > 10; interesting paths without a slot.
    funcs: usize,
    rho: [usize; 3],
    unslotted: usize,
}

/// Every path of `counts`, by function.
fn interesting_of(counts: &PathCounts) -> Interesting {
    let mut out = Interesting::new();
    for &(f, p) in counts.keys() {
        out.entry(f).or_default().push(p);
    }
    out
}

fn measure(engine: &wpp_runtime::Engine, o: &Opts, dir: &std::path::Path, p: &wpp_workloads::Program, run: &wpp_workloads::Run) -> anyhow::Result<Row> {
    let (wasm, cfg) = load(dir, p, run)?;
    let program = wpp_wasm::decode(&wasm)?;
    let instrument = |opts: Options| wpp_wasm::instrument(&wasm, &program, &Options { mode: Mode::Count, ..opts });
    let once = |inst: &Instrumented| -> anyhow::Result<(Duration, wpp_runtime::PathsRun)> {
        let (r, ()) = run_paths(engine, inst, &cfg, ())?;
        anyhow::ensure!(r.result.outcome.exit_status() == 0, "{}: the run failed: {}", p.name, String::from_utf8_lossy(&r.result.stderr));
        Ok((r.result.guest_time, r))
    };
    // The interesting paths: every path of this run, and every path of the train run
    // (the same module, so the array-counting build serves it too).
    let array = instrument(Options::default())?;
    let (_, counted) = once(&array)?;
    let all = interesting_of(&counted.counts);
    let hash = instrument(Options { force_hash: true, ..Options::default() })?;
    let ppp = instrument(Options { interesting: Some(all.clone()), ..Options::default() })?;
    let ppp_all = instrument(Options { interesting: Some(all), ppp_everywhere: true, ..Options::default() })?;
    let train_counts = match p.runs.get("train") {
        Some(train) => Some(run_paths(engine, &array, &load(dir, p, train)?.1, ())?.0.counts),
        None => None,
    };
    let ppp_train = train_counts.as_ref().map(|c| instrument(Options { interesting: Some(interesting_of(c)), ..Options::default() })).transpose()?;

    // Round robin, so that a slow spell of the machine hits every variant alike. `best`
    // follows `variants`.
    let variants = [Some(&array), Some(&hash), Some(&ppp), Some(&ppp_all), ppp_train.as_ref()];
    let (mut plain, mut best) = (Duration::MAX, [Duration::MAX; 5]);
    let mut ppp_all_hashed = 0;
    for _ in 0..o.repeat.max(1) {
        plain = plain.min(run_plain(engine, &wasm, &cfg)?.guest_time);
        for (i, inst) in variants.iter().enumerate() {
            let Some(inst) = inst else { continue };
            let (t, r) = once(inst)?;
            anyhow::ensure!(r.counts == counted.counts, "{}: counts differ between the profilers", p.name);
            if std::ptr::eq(*inst, &ppp_all) {
                ppp_all_hashed = r.hashed.len();
            }
            best[i] = best[i].min(t);
        }
    }
    let mut rho = [0; 3];
    let mut funcs = 0;
    for n in ppp_all.ppp.values() {
        let r = n.rho().unwrap_or(1.0);
        funcs += 1;
        rho[0] += (r <= 1.0) as usize;
        rho[1] += (r <= 2.0) as usize;
        rho[2] += (r > 10.0) as usize;
    }
    Ok(Row {
        name: p.name.clone(),
        plain,
        array: best[0],
        hash: best[1],
        ppp: best[2],
        ppp_all: best[3],
        ppp_train: ppp_train.as_ref().map(|_| best[4]),
        events: counted.counts.values().sum(),
        distinct: counted.counts.len(),
        residual: train_counts.map(|c| counted.counts.keys().filter(|k| !c.contains_key(k)).count()),
        funcs,
        rho,
        unslotted: ppp_all_hashed,
    })
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let engine = wpp_runtime::engine()?;
    let mut rows = Vec::new();
    let w = o.workloads.select(Some("workloads"), "bench")?.expect("a default directory");
    for (p, run) in &w.runs {
        eprint!("wpp-bench ppp: {} ...\r", p.name);
        rows.push(measure(&engine, &o, &w.dir, p, run)?);
    }
    eprint!("{:40}\r", "");
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<14} {:>8} {:>7} {:>7} {:>7} {:>8} {:>8} {:>9} {:>9} {:>8} {:>9} {:>9} {:>7} {:>6} {:>6} {:>5} {:>9}",
        "program",
        "plain s",
        "array×",
        "hash×",
        "PPP×",
        "PPP/hash",
        "PPPall×",
        "PPPtrain×",
        "Mpaths/s",
        "ns/path",
        "distinct",
        "residual",
        "funcs",
        "rho=1",
        "<=2",
        ">10",
        "unslotted"
    )?;
    let x = |d: Duration, plain: Duration| d.as_secs_f64() / plain.as_secs_f64();
    // PPP's overhead as a share of the hashing profiler's.
    let share = |r: &Row| (x(r.ppp, r.plain) - 1.0) / (x(r.hash, r.plain) - 1.0);
    for r in &rows {
        writeln!(
            out,
            "{:<14} {:>8.3} {:>7.2} {:>7.2} {:>7.2} {:>8.2} {:>8.2} {:>9} {:>9.0} {:>8.2} {:>9} {:>9} {:>7} {:>6} {:>6} {:>5} {:>9}",
            r.name,
            r.plain.as_secs_f64(),
            x(r.array, r.plain),
            x(r.hash, r.plain),
            x(r.ppp, r.plain),
            share(r),
            x(r.ppp_all, r.plain),
            r.ppp_train.map_or("-".into(), |t| format!("{:.2}", x(t, r.plain))),
            r.events as f64 / r.plain.as_secs_f64() / 1e6,
            (r.ppp.as_secs_f64() - r.plain.as_secs_f64()) * 1e9 / r.events.max(1) as f64,
            r.distinct,
            r.residual.map_or("-".into(), |n| n.to_string()),
            r.funcs,
            r.rho[0],
            r.rho[1],
            r.rho[2],
            r.unslotted,
        )?;
    }
    let g = |f: &dyn Fn(&Row) -> Option<Duration>| geomean(rows.iter().filter_map(|r| f(r).map(|d| x(d, r.plain))));
    let (garray, ghash, gppp) = (g(&|r| Some(r.array)), g(&|r| Some(r.hash)), g(&|r| Some(r.ppp)));
    writeln!(
        out,
        "{:<14} {:>8} {:>7.2} {:>7.2} {:>7.2} {:>8.2} {:>8.2} {:>9.2}",
        "geomean",
        "",
        garray,
        ghash,
        gppp,
        (gppp - 1.0) / (ghash - 1.0),
        g(&|r| Some(r.ppp_all)),
        g(&|r| r.ppp_train)
    )?;
    let cover = |i: usize| rows.iter().map(|r| r.rho[i]).sum::<usize>();
    let funcs: usize = rows.iter().map(|r| r.funcs).sum();
    writeln!(out, "rho over all {} functions with interesting paths: {} at rho = 1, {} at <= 2, {} above 10", funcs, cover(0), cover(1), cover(2))?;
    Ok(())
}
