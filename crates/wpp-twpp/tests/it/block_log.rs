//! The partition of real runs against the block-log oracle: the module rewritten to call
//! the host on every function entry, basic block and exit (sharing only the CFG with the
//! path rewrite) shows each invocation's blocks directly. The partition of the same run's
//! path events, its traces decoded into blocks, must give the same invocations with the
//! same blocks, in the same order (post-order), under the default numbering and under one
//! that cuts every function as far as it goes. On the `.wat` programs and every real
//! program's test run.

use wpp_model::PathEvent;
use wpp_paths::ProgramNumbering;
use wpp_record::TraceStats;
use wpp_runtime::{run_block_log, run_paths, BlockSink, RunConfig, Stdio};
use wpp_test_support::agree::cut_numbering;
use wpp_test_support::{corpus, workloads};
use wpp_twpp::{partition, Partition};

/// Each invocation's blocks, in post-order, from the block log. A tail call shows there as
/// an exit followed by an entry; it is ordered as the partition orders it, the tail-calling
/// invocation ending right after its callee.
#[derive(Default)]
struct Invocations {
    /// (function, blocks, ended by a tail call)
    open: Vec<(u32, Vec<u32>, bool)>,
    /// The invocation that just exited, until the next event tells whether it tail-called.
    exited: Option<(u32, Vec<u32>, bool)>,
    done: Vec<(u32, Vec<u32>)>,
}

impl Invocations {
    /// The last exit was a return: that invocation ends, with those waiting on it.
    fn returned(&mut self) {
        if let Some((f, blocks, _)) = self.exited.take() {
            self.done.push((f, blocks));
            while self.open.last().is_some_and(|t| t.2) {
                let (f, blocks, _) = self.open.pop().expect("a waiting invocation");
                self.done.push((f, blocks));
            }
        }
    }

    /// Those still open when the run ended (it exited or trapped inside them) end there;
    /// how many there were.
    fn finish(mut self) -> (Vec<(u32, Vec<u32>)>, usize) {
        self.returned();
        let open = self.open.len();
        while let Some((f, blocks, _)) = self.open.pop() {
            self.done.push((f, blocks));
        }
        (self.done, open)
    }
}

impl BlockSink for Invocations {
    fn enter(&mut self, func: u32) {
        if let Some(mut tail_caller) = self.exited.take() {
            // Entered right after an exit: a tail call.
            tail_caller.2 = true;
            self.open.push(tail_caller);
        }
        self.open.push((func, Vec::new(), false));
    }
    fn block(&mut self, func: u32, block: u32) {
        self.returned();
        let top = self.open.last_mut().expect("a block inside an invocation");
        assert_eq!(top.0, func);
        top.1.push(block);
    }
    fn exit(&mut self, func: u32) {
        self.returned();
        let top = self.open.pop().expect("an exit from an invocation");
        assert_eq!(top.0, func);
        self.exited = Some(top);
    }
    fn leave(&mut self, _func: u32) {}
    /// An exception left the invocation: it ends, and with it those waiting on it after
    /// tail calls, as at a return (an unwound frame is a return).
    fn unwind(&mut self, func: u32) {
        self.exit(func);
        self.returned();
    }
}

/// The partition's invocations, their traces decoded into blocks.
fn decoded(p: &Partition, numberings: &ProgramNumbering) -> Vec<(u32, Vec<u32>)> {
    p.dcg
        .nodes
        .iter()
        .map(|n| {
            let numbering = numberings.get(n.func).unwrap();
            let trace = &p.traces.get(n.func).unwrap().traces[n.trace.0 as usize];
            let blocks = trace.iter().flat_map(|&path| numbering.decode(path).unwrap()).map(|b| b.0).collect();
            (n.func.0, blocks)
        })
        .collect()
}

/// Records `wasm` under `cfg` and checks its partition under both numberings; the number
/// of invocations.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig) -> usize {
    let engine = wpp_runtime::engine().unwrap();
    let program = wpp_wasm::decode(wasm).unwrap();
    let oracle_wasm = wpp_wasm::instrument_block_log(wasm, &program).unwrap();
    let (_, log) = run_block_log(&engine, &oracle_wasm, cfg, Invocations::default()).unwrap();
    // The invocations the run was inside of when it ended come last. A trap mid-path
    // leaves their last path unrecorded: the partition holds a prefix of their blocks, and
    // none of those that completed no path.
    let (want, open) = log.finish();
    let closed = want.len() - open;
    let opts = wpp_wasm::Options { mode: wpp_wasm::Mode::Trace, ..Default::default() };
    let default = wpp_wasm::instrument(wasm, &program, &opts).unwrap().numberings;
    let cut = cut_numbering(&program, &default);
    for (what, numbering) in [("default numbering", default), ("cut numbering", cut)] {
        let inst = wpp_wasm::instrument_numbered(wasm, &program, numbering, &opts).unwrap();
        let (_, stats) = run_paths(&engine, &inst, cfg, TraceStats::for_numberings(&inst.numberings).checking_order(true)).unwrap();
        let events: Vec<PathEvent> = stats.events.unwrap();
        let p = partition(&program.functions, &inst.numberings, events.iter().copied()).unwrap_or_else(|e| panic!("{name}: {what}: {e}"));
        assert_eq!(p.ambiguous, 0, "{name}: {what}");
        let got = decoded(&p, &inst.numberings);
        assert!(
            got.len() >= closed && got.len() <= want.len(),
            "{name}: {what}: {} invocations, the block log has {} ({open} open at the end)",
            got.len(),
            want.len()
        );
        if let Some(i) = (0..closed).find(|&i| got[i] != want[i]) {
            panic!(
                "{name}: {what}: invocation {i} (post-order): function {} with {} blocks, the block log has function {} with {} blocks",
                got[i].0,
                got[i].1.len(),
                want[i].0,
                want[i].1.len()
            );
        }
        // The open ones: the innermost may be missing; the others are prefixes.
        let skipped = want.len() - got.len();
        for (g, w) in got[closed..].iter().zip(&want[closed + skipped..]) {
            assert!(g.0 == w.0 && w.1.starts_with(&g.1), "{name}: {what}: an invocation open at the end differs from the block log's");
        }
        assert!(p.events() == events, "{name}: {what}: the rebuilt events differ");
        let distinct: usize = p.traces.values().map(|t| t.traces.len()).sum();
        // The compaction measure counts what the invocations hold: every block, and each
        // function's distinct block traces (distinct path traces are distinct block traces).
        let c = wpp_twpp::steps::measure(&p, &program.functions, &inst.numberings);
        assert_eq!(c.wpp_blocks, got.iter().map(|(_, b)| b.len() as u64).sum::<u64>(), "{name}: {what}");
        assert_eq!(c.invocations, got.len() as u64);
        let distinct_blocks: std::collections::HashSet<&(u32, Vec<u32>)> = got.iter().collect();
        assert_eq!((c.distinct_traces, distinct), (distinct_blocks.len() as u64, distinct_blocks.len()), "{name}: {what}");
        assert_eq!(c.distinct_blocks, distinct_blocks.iter().map(|(_, b)| b.len() as u64).sum::<u64>());
        let tails = p.dcg.calls.iter().filter(|c| c.tail).count();
        eprintln!("{name}: {what}: {} events, {} invocations ({tails} by tail calls), {distinct} distinct traces", events.len(), got.len());
    }
    closed
}

#[test]
fn wat_programs() {
    for name in corpus::names() {
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        check(&name, &corpus::bytes(&name), &cfg);
    }
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = workloads::load_run(m, p, run);
    let invocations = check(&p.name, &wasm, &cfg);
    assert!(invocations > 100, "{}: only {invocations} invocations", p.name);
});
