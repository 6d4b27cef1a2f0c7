//! `wpp-bench slice`: precise dynamic slices on each real program's TWPP, from seeded
//! criteria, first on a fresh slicer and then with the dependences earlier slices found,
//! and `wpp slice` as typed.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use wpp_model::stmts::Reg;
use wpp_model::FuncIdx;
use wpp_record::{Builder, RecordMode, Recorder};
use wpp_twpp::slice::{Program, Slicer};

use crate::alloc;
use crate::command::run_wpp;
use crate::workloads::{load, Rng, WorkloadArgs};

/// Per real program: path events, invocations; then over `--criteria` seeded criteria
/// (a random execution of a random instruction that reads a local or a global, among the
/// functions that ran; the value it reads is sliced): the median and largest slice
/// (nodes: executions and calls' parts; distinct instructions), the median and slowest
/// time and the median and largest peak heap of a slice on a fresh slicer that keeps
/// nothing (the call graph read, the traces it needs read, every dependence found anew);
/// then, on one slicer that keeps the dependences it finds, the same criteria in turn
/// (those of at most --warm-max nodes): the median time of a first slice there and of
/// the same slice again; finally `wpp slice` as a user types it on the first criterion
/// (time and peak resident memory, the TWPP and the module read, the listing built; its
/// dependence cache written beside the TWPP), then again (the cache read: time, and the
/// cache's size). Last, the comparison published slicers invite: the whole dynamic
/// dependence graph built first (time, peak heap, nodes), then the median time of the
/// same slices walked on it.
/// On the first --approach-criteria criteria, approaches 2 and 1 on a fresh slicer: the
/// median time and instructions in the slice. With --memory the run is recorded with
/// its addresses and the TWPP keeps its memory dependences: slices follow loads to
/// their stores (the table then says so, and times the TWPP build with them).
#[derive(Args)]
pub struct Opts {
    #[command(flatten)]
    workloads: WorkloadArgs,
    /// Criteria per program.
    #[arg(long, default_value_t = 100)]
    criteria: usize,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Time the warm pass only on the criteria whose slice has at most this many nodes
    /// (kept dependences cost about 150 bytes a node).
    #[arg(long, default_value_t = 3_000_000)]
    warm_max: usize,
    /// Criteria per program for approaches 2 and 1 (each follows every execution of the
    /// instructions it reaches).
    #[arg(long, default_value_t = 10)]
    approach_criteria: usize,
    /// Follow memory: record the addresses, keep the memory dependences in the TWPP.
    #[arg(long)]
    memory: bool,
    /// Build the whole dynamic dependence graph (as published slicers do first) only for
    /// runs of at most this many path events.
    #[arg(long, default_value_t = 3_000_000)]
    full_max_events: u64,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let Some(w) = o.workloads.select(Some("workloads"), "test")? else { return Ok(()) };
    let mut out = std::io::stdout().lock();
    let what = if o.memory { "registers, control and memory" } else { "registers and control" };
    writeln!(
        out,
        "precise slices (approach 3, {what}) of {} seeded criteria per program; approaches 2 and 1 on the first {}",
        o.criteria, o.approach_criteria
    )?;
    writeln!(
        out,
        "{:<12} {:>12} {:>9} {:>8} {:>10} {:>10} {:>7} {:>9} {:>9} {:>9} {:>9} {:>6} {:>9} {:>9} {:>8} {:>8} {:>8} {:>9} {:>8} {:>7} {:>8} {:>7} {:>8} {:>8} {:>11} {:>8}",
        "program",
        "events",
        "invocs",
        "build s",
        "med nodes",
        "max nodes",
        "instrs",
        "first s",
        "max s",
        "med MiB",
        "max MiB",
        "warm n",
        "kept s",
        "again s",
        "cli s",
        "cli MiB",
        "cli2 s",
        "cache MiB",
        "a2 s",
        "a2 ins",
        "a1 s",
        "a1 ins",
        "full s",
        "full MiB",
        "full nodes",
        "walk s"
    )?;
    let dir = tempfile::tempdir()?;
    for (p, run) in &w.runs {
        eprint!("wpp-bench slice: {} ...\r", p.name);
        let (wasm, cfg) = load(&w.dir, p, run)?;
        let module = dir.path().join(format!("{}.wasm", p.name));
        let profile = dir.path().join(format!("{}.wpp", p.name));
        let twpp_path = dir.path().join(format!("{}.twpp", p.name));
        std::fs::write(&module, &wasm)?;
        let mode = if o.memory { RecordMode::Addresses(Builder::Sequitur1) } else { RecordMode::Grammar(Builder::Sequitur1) };
        Recorder::from_bytes(&p.name, wasm.clone())?.mode(mode).run_config(cfg).record(&profile)?;
        let build = run_wpp(&["twpp".as_ref(), "build".as_ref(), profile.as_os_str(), "-o".as_ref(), twpp_path.as_os_str()])?;
        let twpp = wpp_twpp::Twpp::open(&twpp_path)?;
        let memory = twpp.memory()?;
        let program = wpp_wasm::decode(&wasm)?;
        let stmts = wpp_wasm::statements(&wasm, &program)?;
        let controllers = wpp_dataflow::control_dep::program_controllers(&twpp.profile.meta.functions);

        anyhow::ensure!(memory.is_some() == o.memory, "{}: the TWPP keeps memory dependences: {}", p.name, memory.is_some());
        let prog = || Program { functions: &twpp.profile.meta.functions, numberings: &twpp.profile.numberings, stmts: &stmts, controllers: &controllers };
        let slicer = || -> anyhow::Result<Slicer<'_>> {
            let mut s = Slicer::new(&twpp, prog())?;
            if let Some(m) = &memory {
                s.follow_memory(m);
            }
            Ok(s)
        };
        // Criteria: executions of instructions that read a register, in functions that ran.
        let mut rng = Rng::new(o.seed);
        let ran: Vec<FuncIdx> = twpp.index.functions.iter().map(|e| e.func).collect();
        let mut probe = slicer()?;
        let invocations = probe.dcg().nodes.len();
        let mut criteria = Vec::new();
        let mut tries = 0;
        while criteria.len() < o.criteria && tries < o.criteria * 50 {
            tries += 1;
            let f = ran[rng.below(ran.len() as u64) as usize];
            let Some(fs) = stmts.get(f) else { continue };
            let reads: Vec<(u32, Reg)> =
                fs.blocks.iter().flat_map(|b| &b.stmts).flat_map(|s| s.uses.iter().filter(|r| !matches!(r, Reg::Slot(_))).map(move |&r| (s.at, r))).collect();
            if reads.is_empty() {
                continue;
            }
            let (at, reg) = reads[rng.below(reads.len() as u64) as usize];
            let execs = probe.executions(f, at)?;
            if execs.is_empty() {
                continue;
            }
            criteria.push((f, at, reg, execs[rng.below(execs.len() as u64) as usize]));
        }
        drop(probe);
        let (mut first, mut heap, mut nodes, mut instrs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for &(_, _, reg, inst) in &criteria {
            let live = alloc::reset_peak();
            let t = Instant::now();
            let mut s = slicer()?;
            s.keep(false);
            let from = s.value_before(reg, inst)?;
            let slice = s.slice(&[from])?;
            first.push(t.elapsed().as_secs_f64());
            heap.push((alloc::peak().saturating_sub(live)) as f64 / (1u64 << 20) as f64);
            nodes.push(slice.nodes.len() as f64);
            let mut at: Vec<u32> = slice.nodes.iter().map(|n| n.inst.at).collect();
            at.sort_unstable();
            at.dedup();
            instrs.push(at.len() as f64);
        }
        let (mut kept, mut again) = (Vec::new(), Vec::new());
        let (mut a2, mut a2_ins, mut a1, mut a1_ins) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for &(_, _, reg, inst) in criteria.iter().take(o.approach_criteria) {
            let t = Instant::now();
            let mut s = slicer()?;
            s.keep(false);
            let from = s.value_before(reg, inst)?;
            a2_ins.push(s.slice_statements(&[from])?.len() as f64);
            a2.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let mut s = slicer()?;
            let from = s.value_before(reg, inst)?;
            let mut n = 0u64;
            s.visit_executed(&[from], |_, _, _, _, _| n += 1)?;
            a1.push(t.elapsed().as_secs_f64());
            a1_ins.push(n as f64);
        }
        let mut shared = slicer()?;
        for (&(_, _, reg, inst), &n) in criteria.iter().zip(&nodes) {
            if n as usize > o.warm_max {
                continue;
            }
            for times in [&mut kept, &mut again] {
                let t = Instant::now();
                let from = shared.value_before(reg, inst)?;
                shared.slice(&[from])?;
                times.push(t.elapsed().as_secs_f64());
            }
        }
        let warm_n = kept.len();
        drop(shared);
        let cache = wpp_dataflow::slice::cache_path(&twpp_path);
        let _ = std::fs::remove_file(&cache);
        let cli = match criteria.first() {
            Some(&(f, at, reg, _)) => {
                let var = match reg {
                    Reg::Local(l) => format!("local:{l}"),
                    Reg::Global(g) => format!("global:{g}"),
                    Reg::Slot(_) => unreachable!("criteria read locals and globals"),
                };
                let at = format!("{}:{at:#x}", twpp.profile.meta.func_name(f));
                let args = [
                    "slice".as_ref(),
                    twpp_path.as_os_str(),
                    "--module".as_ref(),
                    module.as_os_str(),
                    "--at".as_ref(),
                    at.as_ref(),
                    "--var".as_ref(),
                    var.as_ref(),
                    "--json".as_ref(),
                ];
                let first = run_wpp(&args)?;
                let again = run_wpp(&args)?;
                Some((first, again, std::fs::metadata(&cache).map_or(0, |m| m.len())))
            }
            None => None,
        };
        // The whole graph first, then the same slices on it.
        let full = if twpp.profile.meta.events <= o.full_max_events {
            let live = alloc::reset_peak();
            let t = Instant::now();
            let mut s = slicer()?;
            let n = s.whole_graph()?;
            let secs = t.elapsed().as_secs_f64();
            let mib = (alloc::peak().saturating_sub(live)) as f64 / (1u64 << 20) as f64;
            let mut walks = Vec::new();
            for &(_, _, reg, inst) in &criteria {
                let t = Instant::now();
                let from = s.value_before(reg, inst)?;
                s.slice(&[from])?;
                walks.push(t.elapsed().as_secs_f64());
            }
            anyhow::ensure!(s.known() as u64 == n, "{}: the slices reached nodes outside the whole graph", p.name);
            Some((secs, mib, n, median(&mut walks)))
        } else {
            None
        };
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        let (max_nodes, max_first, max_heap) = (max(&nodes), max(&first), max(&heap));
        writeln!(
            out,
            "{:<12} {:>12} {:>9} {:>8.2} {:>10.0} {:>10.0} {:>7.0} {:>9.4} {:>9.3} {:>9.1} {:>9.1} {:>6} {:>9.5} {:>9.5} {:>8} {:>8} {:>8} {:>9} {:>8.3} {:>7.0} {:>8.3} {:>7.0} {:>8} {:>8} {:>11} {:>8}",
            p.name,
            twpp.profile.meta.events,
            invocations,
            build.seconds,
            median(&mut nodes),
            max_nodes,
            median(&mut instrs),
            median(&mut first),
            max_first,
            median(&mut heap),
            max_heap,
            warm_n,
            median(&mut kept),
            median(&mut again),
            cli.map_or_else(|| "-".into(), |c| format!("{:.2}", c.0.seconds)),
            cli.map_or_else(|| "-".into(), |c| format!("{:.0}", c.0.peak_bytes as f64 / (1u64 << 20) as f64)),
            cli.map_or_else(|| "-".into(), |c| format!("{:.2}", c.1.seconds)),
            cli.map_or_else(|| "-".into(), |c| format!("{:.1}", c.2 as f64 / (1u64 << 20) as f64)),
            median(&mut a2),
            median(&mut a2_ins),
            median(&mut a1),
            median(&mut a1_ins),
            full.map_or_else(|| "-".into(), |f| format!("{:.2}", f.0)),
            full.map_or_else(|| "-".into(), |f| format!("{:.0}", f.1)),
            full.map_or_else(|| "-".into(), |f| f.2.to_string()),
            full.map_or_else(|| "-".into(), |f| format!("{:.4}", f.3)),
        )?;
        out.flush()?;
    }
    Ok(())
}
