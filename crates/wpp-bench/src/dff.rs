//! `wpp-bench dff`: data flow frequencies on the grammar against the abstract run over the
//! expanded trace (Scholz & Mehofer), on synthetic traces of growing length and on the
//! real programs.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use wpp_dataflow::dff::{Dff, ProblemKind, Scope};
use wpp_grammar::dff::{abstract_run, Problem, Solver, Step, Terminal, Transfer};
use wpp_grammar::Grammar;
use wpp_record::{Builder, RecordMode, Recorder};

use crate::alloc;
use crate::workloads::{load, synthetic_trace, Rng, WorkloadArgs};

/// Two tables. First, a synthetic trace (the seeded trace of `wpp-bench grammar`) at each
/// length: its SEQUITUR(1) grammar (rules, symbols), a seeded GEN/KILL problem over its
/// paths (program-wide facts, a point on every path), the time and peak heap of the
/// frequencies on the grammar, and of the abstract run over the expanded trace (up to
/// --oracle-max events; both must agree, or the benchmark fails), and the speedup; with
/// nanoseconds per grammar symbol, which stays flat when the time is proportional to the
/// grammar. Second, each real program's run recorded into a grammar profile and its most
/// executed function analysed (reaching definitions of its locals, of globals and of
/// constant memory, at every block): events, grammar symbols, facts, the function's blocks
/// executed and analysed / executed without definitions / not executed (the paper's Fig.
/// 5), rules with points, time and peak heap on the grammar (`wpp dff` without the
/// estimate) against the abstract run, and the speedup.
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Synthetic trace lengths (events).
    #[arg(long, value_delimiter = ',', default_values_t = [1_000_000u64, 10_000_000, 100_000_000, 1_000_000_000])]
    lengths: Vec<u64>,
    /// Run the abstract run only up to this many events.
    #[arg(long, default_value_t = 100_000_000)]
    oracle_max: u64,
    /// Program-wide facts of the synthetic problem.
    #[arg(long, default_value_t = 64)]
    facts: u32,
    /// The synthetic problem's points: on every path, then on one path in N (the paths of
    /// one function, as a query asks).
    #[arg(long, default_value_t = 20)]
    one_in: u64,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Skip the real programs.
    #[arg(long)]
    no_workloads: bool,
}

/// A seeded problem over the synthetic trace's terminals: each path one to four stretches,
/// each a transfer that generates or kills a few of `facts` facts, and on one path in
/// `one_in` (all when 1) a point before each stretch.
fn synthetic_problem(terminals: u32, facts: u32, seed: u64, one_in: u64) -> Problem {
    let mut rng = Rng::new(seed);
    let points = 1000u32;
    let terms = (0..terminals)
        .map(|_| {
            let with_points = rng.below(one_in) == 0;
            Terminal {
                framed: false,
                steps: (0..1 + rng.below(4))
                    .map(|_| {
                        let point = with_points.then(|| rng.below(points as u64) as u32);
                        let pick = |rng: &mut Rng, k: u64| (0..rng.below(k)).map(|_| rng.below(facts as u64) as u32).collect::<Vec<_>>();
                        let gen = pick(&mut rng, 2);
                        let kill = pick(&mut rng, 3);
                        Step { point, transfer: Transfer::new(gen, kill) }
                    })
                    .collect(),
            }
        })
        .collect();
    Problem { facts, initial: (0..facts / 2).collect(), terminals: terms, points, ..Problem::default() }
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

/// Times `f`, with the peak heap it allocated beyond what was live before.
fn measured<T>(f: impl FnOnce() -> T) -> (T, f64, usize) {
    let live = alloc::reset_peak();
    let t = Instant::now();
    let v = f();
    let secs = t.elapsed().as_secs_f64();
    (v, secs, alloc::peak().saturating_sub(live))
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "synthetic trace, {} program-wide facts, 1000 points on every path (1/1) or on one path in N (1/N)", o.facts)?;
    writeln!(
        out,
        "{:>14} {:>7} {:>9} {:>10} {:>9} {:>10} {:>10} {:>9} {:>12} {:>10} {:>9}",
        "events", "points", "rules", "symbols", "build s", "dff s", "dff MiB", "ns/sym", "abstract s", "abs MiB", "speedup"
    )?;
    for &n in &o.lengths {
        eprint!("wpp-bench dff: synthetic {n} ...\r");
        let t = Instant::now();
        let mut b = wpp_profile::GrammarBuilder::for_paths(wpp_profile::Builder::Sequitur1, wpp_profile::Prediction::Off);
        let mut terminals = 0u32;
        for s in synthetic_trace(n, o.seed) {
            terminals = terminals.max(s + 1);
            b.push(s)?;
        }
        let g: Grammar = b.finish()?;
        let build = t.elapsed().as_secs_f64();
        for one_in in [1, o.one_in.max(1)] {
            let p = synthetic_problem(terminals, o.facts, o.seed, one_in);
            let (freq, secs, heap) = measured(|| {
                let t = Instant::now();
                let s = Solver::new(&g, &p)?;
                let bottom_up = t.elapsed().as_secs_f64();
                let f = s.solve(p.facts);
                eprintln!("synthetic {n} 1/{one_in}: bottom-up {bottom_up:.4} s, top-down {:.4} s", t.elapsed().as_secs_f64() - bottom_up);
                Ok::<_, wpp_grammar::dff::DffError>(f)
            });
            let freq = freq.map_err(|e| anyhow::anyhow!("{e}"))?;
            let symbols = g.n_symbols();
            let (abs_secs, abs_heap) = if n <= o.oracle_max {
                let (oracle, s, h) = measured(|| abstract_run(g.expand(), &p));
                let oracle = oracle.map_err(|e| anyhow::anyhow!("{e}"))?;
                anyhow::ensure!(oracle.executions == freq.executions && oracle.holds == freq.holds, "synthetic {n}: the grammar and the abstract run disagree");
                (Some(s), Some(h))
            } else {
                (None, None)
            };
            let opt = |x: Option<f64>, w: usize, prec: usize| x.map_or_else(|| format!("{:>w$}", "-"), |v| format!("{v:>w$.prec$}"));
            writeln!(
                out,
                "{:>14} {:>7} {:>9} {:>10} {:>9.2} {:>10.4} {:>10.1} {:>9.1} {} {} {}",
                n,
                format!("1/{one_in}"),
                g.rules.len(),
                symbols,
                build,
                secs,
                mib(heap),
                secs * 1e9 / symbols.max(1) as f64,
                opt(abs_secs, 12, 2),
                opt(abs_heap.map(mib), 10, 1),
                abs_secs.map_or_else(|| format!("{:>9}", "-"), |a| format!("{:>8.0}x", a / secs)),
            )?;
        }
    }
    if o.no_workloads {
        return Ok(());
    }
    let Some(w) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    writeln!(out, "\nreal programs: reaching definitions at every block of the most executed function")?;
    writeln!(
        out,
        "{:<14} {:<24} {:>12} {:>9} {:>7} {:>15} {:>8} {:>9} {:>9} {:>11} {:>9} {:>8}",
        "program", "function", "events", "symbols", "facts", "blocks a/n/x", "rules p", "dff s", "dff MiB", "abstract s", "abs MiB", "speedup"
    )?;
    let dir = tempfile::tempdir()?;
    for (p, run) in &w.runs {
        eprint!("wpp-bench dff: {} ...\r", p.name);
        let (wasm, cfg) = load(&w.dir, p, run)?;
        let module = dir.path().join(format!("{}.wasm", p.name));
        let profile = dir.path().join(format!("{}.wpp", p.name));
        std::fs::write(&module, &wasm)?;
        Recorder::from_bytes(&p.name, wasm)?.mode(RecordMode::Grammar(Builder::Sequitur1)).run_config(cfg).record(&profile)?;
        let (dag, module) = wpp_dataflow::dff::open(&profile, &module)?;
        let d = Dff::new(&dag, &module)?;
        let Some(func) = d.hottest_function() else { continue };
        let problem = d.problem(ProblemKind::ReachingDefinitions, func)?;
        let g = &d.dag.grammar;
        let (freq, secs, heap) = measured(|| Solver::new(g, &problem).map(|s| s.solve(problem.facts.max(1))));
        let freq = freq.map_err(|e| anyhow::anyhow!("{e}"))?;
        let (oracle, abs_secs, abs_heap) = measured(|| abstract_run(g.expand(), &problem));
        let oracle = oracle.map_err(|e| anyhow::anyhow!("{e}"))?;
        anyhow::ensure!(oracle.executions == freq.executions && oracle.holds == freq.holds, "{}: the grammar and the abstract run disagree", p.name);
        let report = d.analyse(ProblemKind::ReachingDefinitions, Scope::Func(func))?;
        let c = &report.coverage;
        let name: String = report.function.chars().take(24).collect();
        writeln!(
            out,
            "{:<14} {:<24} {:>12} {:>9} {:>7} {:>15} {:>8} {:>9.3} {:>9.1} {:>11.2} {:>9.1} {:>7.0}x",
            p.name,
            name,
            d.dag.profile.meta.events,
            g.n_symbols(),
            problem.facts,
            format!("{}/{}/{}", c.executed_and_analysed, c.executed_not_analysed, c.not_executed),
            freq.stats.rules_with_points,
            secs,
            mib(heap),
            abs_secs,
            mib(abs_heap),
            abs_secs / secs
        )?;
    }
    Ok(())
}
