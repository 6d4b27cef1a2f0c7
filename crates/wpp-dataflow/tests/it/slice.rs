//! Dynamic slices on the TWPP against the full dynamic dependence graph of the run.
//!
//! The oracle runs the module rewritten to report every function entry, basic block,
//! call and exit (the block-log rewrite, which shares only the CFG with the path rewrite)
//! and interprets each block's instructions with shadow state: a real operand stack of
//! value origins (values popped from and pushed on the top, moved down when a branch
//! carries them to its label), the locals of every frame, the globals, and for every
//! block the latest execution of each block of its frame; and, for a TWPP that keeps the
//! run's memory dependences, the access log of the same run (every load, store, bulk
//! access and host write, with its address) over a shadow memory that names the last
//! writer of every byte. It records the dependences of every execution of every
//! instruction: the dynamic dependence graph that published slicers build before they
//! answer. Each slice of the engine (demand-driven, backward
//! over timestamps) must be exactly the graph's backward closure from the same
//! execution, and every node in it must have the same dependences.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use wpp_model::deps::{Shadow, INITIAL};
use wpp_model::stmts::{FuncStmts, Kind, Reg};
use wpp_model::{BlockIdx, FuncIdx, FuncMap, PathEvent};
use wpp_profile::Profile;
use wpp_record::{Builder, RecordMode, Recorder};
use wpp_runtime::{run_block_log, BlockSink, RunConfig, Stdio};
use wpp_test_support::{corpus, recordings, workloads, Rng};
use wpp_twpp::slice::{DepKind, Node, Origin, Part, Program, Slicer, Source};
use wpp_twpp::{build, Invocation, Twpp};

/// The graph projected on instructions: (offset, part) to the (offset, part) of each
/// dependence any execution had.
type Projected = HashMap<(u32, u32), BTreeSet<(u32, u32)>>;

/// A node of the oracle's graph: invocation (in entry order), block index in it,
/// instruction offset, part (0 execution, 1 result, 2 + k argument k).
type Id = (u32, u64, u32, u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Src {
    Node(Id),
    Entry,
    Init,
    Memory,
    InitialMemory,
}

fn part_code(p: Part) -> u32 {
    match p {
        Part::Exec => 0,
        Part::Result => 1,
        Part::Arg(k) => 2 + k,
    }
}

/// A call made by a frame, waiting for its callee.
struct Pending {
    call: Id,
    args: Vec<(Reg, Src)>,
    tail: bool,
    entered: bool,
}

struct Frame {
    func: u32,
    id: u32,
    blocks: u64,
    locals: HashMap<u32, Src>,
    stack: Vec<Src>,
    /// Each block's latest execution: its block index and last instruction.
    latest: HashMap<u32, (u64, u32)>,
    prev: Option<u32>,
    /// The call that made this invocation (for its entry's control dependence).
    made_by: Option<Id>,
    /// The call whose result this invocation's return gives (through tail calls).
    returns_to: Option<Id>,
    last: Option<Src>,
    pending: Option<Pending>,
}

struct Walk {
    stmts: FuncMap<FuncStmts>,
    controllers: FuncMap<Vec<Vec<BlockIdx>>>,
    globals: HashMap<u32, Src>,
    frames: Vec<Frame>,
    graph: HashMap<Id, Vec<(DepKind, Src)>>,
    next_id: u32,
    /// Every execution's place in the run.
    seq: HashMap<Id, u64>,
    /// A frame that left by a tail call, until its callee enters.
    tail: Option<Frame>,
    blocks_left: u64,
    /// Whether memory is followed: the last writer of every byte of memory 0, each write
    /// instance's node (`WriteId - 1`).
    memory: bool,
    shadow: Shadow,
    writes: Vec<Src>,
    /// For approach 1: each invocation's function; the calls that made each function's
    /// invocations (`None`: the host); per call instruction, the functions it entered
    /// and how often; each function's executed blocks.
    funcs: Vec<u32>,
    callers: HashMap<u32, BTreeSet<Option<(u32, u32)>>>,
    callees: HashMap<(u32, u32), (BTreeSet<u32>, u64)>,
    ran: HashMap<u32, BTreeSet<u32>>,
    /// The bytes each instruction read, and wrote (a call of an import: its result part).
    bytes_read: HashMap<u32, BTreeSet<u64>>,
    bytes_written: HashMap<(u32, u32), BTreeSet<u64>>,
    /// Each read of memory: the execution and the bytes.
    reads: Vec<(Id, u64, u64)>,
}

impl Walk {
    /// The result of a call whose callee returned `last`.
    fn returned(&mut self, call: Id, last: Option<Src>) {
        let deps = self.graph.entry((call.0, call.1, call.2, 1)).or_default();
        if let Some(l) = last {
            deps.push((DepKind::Return, l));
        }
    }

    /// A frame's pending call went to an import (no callee entered): its result comes
    /// from its arguments.
    fn settle_import(&mut self) {
        let Some(top) = self.frames.last_mut() else { return };
        if let Some(p) = top.pending.take() {
            if !p.entered {
                let deps = self.graph.entry((p.call.0, p.call.1, p.call.2, 1)).or_default();
                deps.extend(p.args.iter().map(|&(r, s)| (DepKind::Data(r), s)));
            }
        }
    }

    /// A tail call that went to an import: the tail-calling frame's caller gets its
    /// result from the import call's result.
    fn settle_tail_import(&mut self) {
        if let Some(mut f) = self.tail.take() {
            let p = f.pending.take().expect("a tail call is pending");
            let result = (p.call.0, p.call.1, p.call.2, 1);
            self.graph.entry(result).or_default().extend(p.args.iter().map(|&(r, s)| (DepKind::Data(r), s)));
            if let Some(to) = f.returns_to {
                self.returned(to, Some(Src::Node(result)));
            }
        }
    }

    fn run_block(&mut self, func: u32, block: u32) {
        let stmts = self.stmts.get(FuncIdx(func)).unwrap().blocks[block as usize].clone();
        let controllers = self.controllers.get(FuncIdx(func)).unwrap()[block as usize].clone();
        let frame = self.frames.last_mut().unwrap();
        assert_eq!(frame.func, func);
        let index = frame.blocks;
        frame.blocks += 1;
        self.ran.entry(func).or_default().insert(block);
        let id = frame.id;
        // Values a branch carried to this block's label.
        if frame.stack.len() as u32 != stmts.entry {
            let prev = frame.prev.expect("a block reached with values moved has a predecessor");
            let last = self.stmts.get(FuncIdx(func)).unwrap().blocks[prev as usize].stmts.last().unwrap();
            let shift = last
                .shifts
                .iter()
                .find(|s| s.entry == stmts.entry)
                .unwrap_or_else(|| panic!("block {block} of function {func} starts at height {} after {} values", stmts.entry, frame.stack.len()));
            let moved: Vec<Src> = frame.stack[shift.from as usize..(shift.from + shift.n) as usize].to_vec();
            frame.stack.truncate((shift.entry - shift.n) as usize);
            frame.stack.extend(moved);
        }
        let control =
            controllers.iter().filter_map(|c| frame.latest.get(&c.0)).max().map(|&(i, at)| Src::Node((id, i, at, 0))).or(frame.made_by.map(Src::Node));
        for s in &stmts.stmts {
            let exec = (id, index, s.at, 0);
            let n_slots = s.uses.iter().filter(|r| matches!(r, Reg::Slot(_))).count();
            let mut popped = frame.stack.split_off(frame.stack.len() - n_slots).into_iter();
            let values: Vec<(Reg, Src)> = s
                .uses
                .iter()
                .map(|&r| {
                    let v = match r {
                        Reg::Slot(_) => popped.next().unwrap(),
                        Reg::Local(l) => frame.locals.get(&l).copied().unwrap_or(Src::Entry),
                        Reg::Global(g) => self.globals.get(&g).copied().unwrap_or(Src::Init),
                    };
                    (r, v)
                })
                .collect();
            let mut deps: Vec<(DepKind, Src)> = Vec::new();
            let operands = match s.kind {
                Kind::Call { args, .. } => &values[args as usize..],
                _ => &values[..],
            };
            deps.extend(operands.iter().map(|&(r, v)| (DepKind::Data(r), v)));
            if s.kind == Kind::Load && !self.memory {
                deps.push((DepKind::Memory, Src::Memory));
            }
            deps.extend(control.map(|c| (DepKind::Control, c)));
            self.graph.insert(exec, deps);
            let n = self.seq.len() as u64;
            self.seq.insert(exec, n);
            let made = if let Kind::Call { args, tail } = s.kind {
                for (k, &(r, v)) in values[..args as usize].iter().enumerate() {
                    self.graph.insert((id, index, s.at, 2 + k as u32), vec![(DepKind::Data(r), v)]);
                }
                self.graph.insert((id, index, s.at, 1), vec![(DepKind::Call, Src::Node(exec))]);
                frame.pending = Some(Pending { call: exec, args: values[..args as usize].to_vec(), tail, entered: false });
                Src::Node((id, index, s.at, 1))
            } else {
                Src::Node(exec)
            };
            for &d in &s.defs {
                match d {
                    Reg::Slot(_) => frame.stack.push(made),
                    Reg::Local(l) => {
                        frame.locals.insert(l, Src::Node(exec));
                    }
                    Reg::Global(g) => {
                        self.globals.insert(g, Src::Node(exec));
                    }
                }
            }
            frame.last = Some(if matches!(s.kind, Kind::Call { tail: true, .. }) { made } else { Src::Node(exec) });
        }
        if let Some(last) = stmts.stmts.last() {
            frame.latest.insert(block, (index, last.at));
        }
        frame.prev = Some(block);
    }
}

impl BlockSink for Walk {
    fn enter(&mut self, func: u32) {
        if self.blocks_left == 0 {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        let params = self.stmts.get(FuncIdx(func)).unwrap().params;
        let (call, returns_to) = if let Some(mut t) = self.tail.take() {
            let p = t.pending.take().unwrap();
            (Some(p.call), t.returns_to)
        } else if let Some(caller) = self.frames.last_mut() {
            let p = caller.pending.as_mut().expect("a call is pending");
            p.entered = true;
            (Some(p.call), Some(p.call))
        } else {
            (None, None)
        };
        let locals = match call {
            Some(c) => (0..params).map(|p| (p, Src::Node((c.0, c.1, c.2, 2 + p)))).collect(),
            None => HashMap::new(),
        };
        self.funcs.push(func);
        let site = call.map(|c| (self.funcs[c.0 as usize], c.2));
        self.callers.entry(func).or_default().insert(site);
        if let Some(site) = site {
            let e = self.callees.entry(site).or_default();
            e.0.insert(func);
            e.1 += 1;
        }
        self.frames.push(Frame {
            func,
            id,
            blocks: 0,
            locals,
            stack: Vec::new(),
            latest: HashMap::new(),
            prev: None,
            made_by: call,
            returns_to,
            last: None,
            pending: None,
        });
    }

    fn block(&mut self, func: u32, block: u32) {
        if self.blocks_left == 0 {
            return;
        }
        self.blocks_left -= 1;
        self.settle_tail_import();
        self.settle_import();
        self.run_block(func, block);
    }

    fn exit(&mut self, _func: u32) {
        if self.blocks_left == 0 {
            return;
        }
        self.settle_tail_import();
        let f = self.frames.pop().unwrap();
        if f.pending.as_ref().is_some_and(|p| p.tail) {
            self.tail = Some(f);
            return;
        }
        if let Some(to) = f.returns_to {
            self.returned(to, f.last);
        }
    }

    fn leave(&mut self, _func: u32) {}

    fn unwind(&mut self, func: u32) {
        panic!("function {func} unwound: the slicing oracle does not follow exceptions, and its programs throw none");
    }

    fn access(&mut self, at: u32, addr: u64, len: u64, kind: u32) {
        if self.blocks_left == 0 || !self.memory {
            return;
        }
        assert_eq!(kind >> 4, 0, "one memory");
        let frame = self.frames.last().unwrap();
        let node = (frame.id, frame.blocks - 1, at, 0);
        if kind & wpp_wasm::abi::ACCESS_WRITE != 0 {
            self.bytes_written.entry((at, 0)).or_default().extend(addr..addr + len);
            self.writes.push(Src::Node(node));
            self.shadow.write(addr, len, self.writes.len() as u64);
        } else {
            self.bytes_read.entry(at).or_default().extend(addr..addr + len);
            self.reads.push((node, addr, len));
            let mut read: Vec<Src> = (addr..addr + len)
                .map(|b| match self.shadow.writer(b) {
                    INITIAL => Src::InitialMemory,
                    w => self.writes[w as usize - 1],
                })
                .collect();
            read.sort_unstable();
            read.dedup();
            self.graph.get_mut(&node).unwrap().extend(read.into_iter().map(|s| (DepKind::Memory, s)));
        }
    }

    fn host_call(&mut self, _name: &str, writes: Option<&[(u64, u64)]>, _memory: &[u8]) {
        if self.blocks_left == 0 || !self.memory {
            return;
        }
        // The call's result wrote the ranges: the import called last, by the frame on top
        // or by one that left by a tail call.
        let pending = match &self.tail {
            Some(t) => t.pending.as_ref(),
            None => self.frames.last().and_then(|f| f.pending.as_ref()),
        };
        let call = pending.expect("an import call is pending").call;
        self.writes.push(Src::Node((call.0, call.1, call.2, 1)));
        for &(addr, len) in writes.unwrap_or_default() {
            self.shadow.write(addr, len, self.writes.len() as u64);
            self.bytes_written.entry((call.2, 1)).or_default().extend(addr..addr + len);
        }
    }
}

/// The invocations of a call graph in the order they were entered (pre-order): the
/// node of each.
fn entry_order(dcg: &wpp_twpp::Dcg) -> Vec<u32> {
    let mut out = Vec::new();
    let mut work: Vec<Invocation> = dcg.roots.iter().rev().copied().collect();
    while let Some(n) = work.pop() {
        out.push(n.0);
        let node = &dcg.nodes[n];
        work.extend(node.calls.clone().rev().map(|c| dcg.calls[c as usize].node));
    }
    out
}

/// Records `wasm` (with its addresses, when `memory`), builds its TWPP (keeping the
/// memory dependences), walks the first `cap` blocks of the run, and compares `limit`
/// slices from random executions there; how many nodes the slices had.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig, dir: &Path, limit: usize, cap: u64, memory: bool) -> usize {
    let twpp_path = dir.join(format!("{name}-{memory}.twpp"));
    let mode = if memory { RecordMode::Addresses(Builder::Sequitur1) } else { RecordMode::Grammar(Builder::Sequitur1) };
    let profile_path = recordings::recorded(wasm, cfg, mode, u64::MAX);
    let profile = Profile::open(&profile_path).unwrap();
    let table = if memory { Some(wpp_twpp::recover::memory_table(&profile).unwrap().expect("an addresses recording keeps dependences")) } else { None };
    wpp_twpp::build_with(&profile, &twpp_path, table.as_ref(), &mut wpp_model::progress::Quiet).unwrap();
    let twpp = Twpp::open(&twpp_path).unwrap();
    let mem = twpp.memory().unwrap();
    assert_eq!(mem.is_some(), memory, "{name}: the TWPP keeps memory dependences");
    let program = wpp_wasm::decode(wasm).unwrap();
    let stmts = wpp_wasm::statements(wasm, &program).unwrap();
    let controllers = wpp_dataflow::control_dep::program_controllers(&program.functions);
    let mut blocks = 0u64;
    profile.for_each_event(|e: PathEvent| blocks += profile.numberings.get(e.func).unwrap().decode(e.path).unwrap().len() as u64).unwrap();
    let oracle_wasm = if memory { wpp_wasm::instrument_access_log(wasm, &program) } else { wpp_wasm::instrument_block_log(wasm, &program) }.unwrap();
    let rt = wpp_runtime::engine().unwrap();
    let walk = Walk {
        stmts: stmts.clone(),
        controllers: controllers.clone(),
        globals: HashMap::new(),
        frames: Vec::new(),
        graph: HashMap::new(),
        next_id: 0,
        seq: HashMap::new(),
        tail: None,
        blocks_left: blocks.min(cap),
        memory,
        shadow: Shadow::default(),
        writes: Vec::new(),
        funcs: Vec::new(),
        callers: HashMap::new(),
        callees: HashMap::new(),
        ran: HashMap::new(),
        bytes_read: HashMap::new(),
        bytes_written: HashMap::new(),
        reads: Vec::new(),
    };
    let (_, walk) = run_block_log(&rt, &oracle_wasm, cfg, walk).unwrap();

    let mut slicer =
        Slicer::new(&twpp, Program { functions: &twpp.profile.meta.functions, numberings: &twpp.profile.numberings, stmts: &stmts, controllers: &controllers })
            .unwrap();
    if let Some(m) = &mem {
        slicer.follow_memory(m);
    }
    let order = entry_order(slicer.dcg());
    assert!(walk.next_id as usize <= order.len(), "{name}: the walk entered {} invocations, the call graph has {}", walk.next_id, order.len());
    if blocks <= cap {
        assert_eq!(walk.next_id as usize, order.len(), "{name}: invocations");
    }
    let seq = walk.seq.clone();
    let approach1 = (blocks <= cap).then(|| Approach1::new(&walk, &twpp.profile.meta.functions, &walk.graph));
    let order_inv: HashMap<u32, u32> = order.iter().enumerate().map(|(i, &n)| (n, i as u32)).collect();
    let graph: HashMap<Id, Vec<(DepKind, Src)>> = walk
        .graph
        .clone()
        .into_iter()
        .map(|(k, v)| {
            let m = |s: Src| if let Src::Node(n) = s { Src::Node((order[n.0 as usize], n.1, n.2, n.3)) } else { s };
            ((order[k.0 as usize], k.1, k.2, k.3), v.into_iter().map(|(d, s)| (d, m(s))).collect())
        })
        .collect();
    // The graph projected on instructions (and calls' parts): approach 2's, when the walk
    // saw the whole run.
    let projected: Option<Projected> = (blocks <= cap).then(|| {
        let mut m = Projected::new();
        for (k, deps) in &graph {
            let e = m.entry((k.2, k.3)).or_default();
            e.extend(deps.iter().filter_map(|(_, s)| if let Src::Node(n) = s { Some((n.2, n.3)) } else { None }));
        }
        m
    });
    // Criteria: random executions the walk saw.
    let mut execs: Vec<Id> = graph.keys().filter(|k| k.3 == 0).copied().collect();
    execs.sort_unstable();
    let mut rng = Rng::new(0x511ce ^ name.len() as u64);
    let id_of = |slicer: &mut Slicer, n: Node| -> Id { (n.inst.node.0, slicer.block_index(n.inst).unwrap(), n.inst.at, part_code(n.part)) };
    let mut total = 0;
    let mut checked = 0;
    while checked < limit.min(execs.len()) {
        let start = execs[rng.below(execs.len())];
        let inst = slicer.at_block_index(Invocation(start.0), start.1, start.2).unwrap();
        assert_eq!(id_of(&mut slicer, Node::exec(inst)), start);
        let slice = slicer.slice(&[Source::Node(Node::exec(inst))]).unwrap();
        let mut got: BTreeSet<Id> = BTreeSet::new();
        for &n in &slice.nodes {
            let id = id_of(&mut slicer, n);
            got.insert(id);
            let deps: Vec<_> = slicer.deps_of(n).to_vec();
            let mut ds: Vec<(DepKind, Src)> = deps
                .iter()
                .map(|d| {
                    let s = match d.from {
                        Source::Node(m) => Src::Node(id_of(&mut slicer, m)),
                        Source::Entry => Src::Entry,
                        Source::Init => Src::Init,
                        Source::Memory => Src::Memory,
                        Source::InitialMemory => Src::InitialMemory,
                    };
                    (d.kind, s)
                })
                .collect();
            ds.sort();
            let mut want = graph.get(&id).unwrap_or_else(|| panic!("{name}: the walk has no node {id:?}")).clone();
            want.sort();
            assert_eq!(ds, want, "{name}: the dependences of {id:?} (in the slice of {start:?})");
        }
        // The graph's closure.
        let mut want: BTreeSet<Id> = BTreeSet::new();
        let mut work = vec![start];
        while let Some(n) = work.pop() {
            if want.insert(n) {
                work.extend(graph[&n].iter().filter_map(|(_, s)| if let Src::Node(m) = s { Some(*m) } else { None }));
            }
        }
        assert_eq!(got, want, "{name}: the slice of {start:?}");
        // A slicer that keeps nothing visits the same nodes with the same dependences.
        let fresh = || {
            let p = Program { functions: &twpp.profile.meta.functions, numberings: &twpp.profile.numberings, stmts: &stmts, controllers: &controllers };
            let mut s = Slicer::new(&twpp, p).unwrap();
            if let Some(m) = &mem {
                s.follow_memory(m);
            }
            s
        };
        let mut lean = fresh();
        lean.keep(false);
        let mut visited: Vec<(Node, Vec<wpp_twpp::slice::Dep>)> = Vec::new();
        let count = lean.visit(&[Source::Node(Node::exec(inst))], |n, d| visited.push((n, d.to_vec()))).unwrap();
        assert_eq!((count as usize, lean.known()), (slice.nodes.len(), 0), "{name}: the lean slice of {start:?}");
        for (n, d) in &visited {
            assert_eq!(d.as_slice(), slicer.deps_of(*n), "{name}: the lean slice's dependences of {n:?}");
        }
        // A slicer restored from the dependence cache knows every node kept so far, walks
        // the same slice without finding anything, with the same dependences.
        let mut restored = fresh();
        assert_eq!(restored.restore(&slicer.cache()), Ok(slicer.known()), "{name}: the cache of {start:?}");
        let mut walked: Vec<(Node, Vec<wpp_twpp::slice::Dep>)> = Vec::new();
        restored.visit(&[Source::Node(Node::exec(inst))], |n, d| walked.push((n, d.to_vec()))).unwrap();
        assert!(!restored.cache_grew(), "{name}: the restored slice of {start:?} found dependences again");
        walked.sort_by_key(|(n, _)| *n);
        visited.sort_by_key(|(n, _)| *n);
        assert_eq!(walked, visited, "{name}: the restored slice of {start:?}");
        // Approach 2: the closure over instructions of the dependences exercised, a
        // superset of approach 3's instructions.
        if let Some(projected) = &projected {
            let got2: BTreeSet<(u32, u32)> =
                slicer.slice_statements(&[Source::Node(Node::exec(inst))]).unwrap().into_iter().map(|(_, at, p)| (at, part_code(p))).collect();
            let mut want2: BTreeSet<(u32, u32)> = BTreeSet::new();
            let mut work = vec![(start.2, 0)];
            while let Some(st) = work.pop() {
                if want2.insert(st) {
                    work.extend(projected.get(&st).into_iter().flatten().copied());
                }
            }
            assert_eq!(got2, want2, "{name}: approach 2 from {start:?}");
            assert!(got.iter().all(|n| want2.contains(&(n.2, n.3))), "{name}: approach 2 from {start:?} misses approach 3's instructions");
            // Approach 1: each instruction's dependences by the oracle's rules, its
            // closure, a superset of approach 2's.
            let a1 = approach1.as_ref().unwrap();
            let mut got1: BTreeSet<(u32, u32)> = BTreeSet::new();
            let mut failed = None;
            slicer
                .visit_executed(&[Source::Node(Node::exec(inst))], |_, at, part, runs, deps| {
                    got1.insert((at, part_code(part)));
                    let have: BTreeSet<(DepKind, Src)> = deps.iter().map(|d| (d.kind, origin_code(d.from))).collect();
                    let want = a1.deps(at, part_code(part));
                    if failed.is_none() && (have != want || runs != a1.executions[&at]) {
                        failed = Some(format!("{at:#x} part {part:?}: ran {runs} (oracle {}), dependences\n{have:?}\noracle\n{want:?}", a1.executions[&at]));
                    }
                })
                .unwrap();
            assert!(failed.is_none(), "{name}: approach 1 from {start:?}: {}", failed.unwrap());
            let mut want1: BTreeSet<(u32, u32)> = BTreeSet::new();
            let mut work = vec![(start.2, 0)];
            while let Some(st) = work.pop() {
                if want1.insert(st) {
                    work.extend(a1.deps(st.0, st.1).into_iter().filter_map(|(_, s)| if let Src::Node(n) = s { Some((n.2, n.3)) } else { None }));
                }
            }
            assert_eq!(got1, want1, "{name}: approach 1 from {start:?}");
            assert!(want2.is_subset(&got1), "{name}: approach 1 from {start:?} misses approach 2's instructions");
        }
        // Executions come in run order.
        if blocks <= cap {
            let f = slicer.dcg().nodes[inst.node].func;
            let ids: Vec<Id> = slicer.executions(f, inst.at).unwrap().into_iter().map(|i| id_of(&mut slicer, Node::exec(i))).collect();
            let seqs: Vec<u64> = ids.iter().map(|id| seq[&(order_inv[&id.0], id.1, id.2, id.3)]).collect();
            assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{name}: the executions of {:#x} out of run order: {ids:?}", inst.at);
        }
        total += got.len();
        checked += 1;
    }
    // What memory held just before an execution that read it: the writers the shadow
    // memory says that read saw, for the bytes it read.
    if memory {
        let mut rng = Rng::new(0x3e3 ^ name.len() as u64);
        for _ in 0..limit.min(walk.reads.len()) * 4 {
            let (id, addr, len) = walk.reads[rng.below(walk.reads.len())];
            let node = order[id.0 as usize];
            let inst = slicer.at_block_index(Invocation(node), id.1, id.2).unwrap();
            let mut got: Vec<Src> = slicer
                .memory_before(addr, len, inst)
                .unwrap()
                .into_iter()
                .map(|w| match w.from {
                    Source::Node(m) => Src::Node(id_of(&mut slicer, m)),
                    Source::InitialMemory => Src::InitialMemory,
                    other => panic!("{name}: memory held {other:?}"),
                })
                .collect();
            got.sort();
            got.dedup();
            let mut want: Vec<Src> = graph[&(node, id.1, id.2, id.3)].iter().filter(|(k, _)| *k == DepKind::Memory).map(|(_, s)| *s).collect();
            want.sort();
            want.dedup();
            assert_eq!(got, want, "{name}: memory at {addr:#x}+{len} before {id:?}");
        }
    }
    eprintln!("{name}: {checked} slices, {total} nodes, agree with the dependence graph");
    assert!(checked >= limit.min(5), "{name}: only {checked} slices");
    total
}

#[test]
fn wat_programs() {
    let dir = tempfile::tempdir().unwrap();
    for name in corpus::names() {
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        let wasm = corpus::bytes(&name);
        if let Err(e) = wpp_wasm::statements(&wasm, &wpp_wasm::decode(&wasm).unwrap()) {
            // Slicing refuses exception handling, saying so.
            assert!(corpus::EXCEPTIONS.contains(&name.as_str()), "{name}: {e}");
            assert!(e.to_string().contains("exception handling in dynamic slicing"), "{name}: {e}");
            continue;
        }
        for memory in [false, true] {
            check(&name, &corpus::bytes(&name), &cfg, dir.path(), 60, u64::MAX, memory);
        }
    }
}

#[test]
fn random_programs() {
    let dir = tempfile::tempdir().unwrap();
    let seeds: u64 = std::env::var("WPP_SLICE_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    for seed in 0..seeds {
        let text = wpp_test_support::dataflow_programs::random_wat(seed);
        let wasm = wat::parse_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let name = format!("random-{seed}");
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        for memory in [false, true] {
            check(&name, &wasm, &cfg, dir.path(), 40, u64::MAX, memory);
        }
    }
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let dir = tempfile::tempdir().unwrap();
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = workloads::load_run(m, p, run);
    check(&p.name, &wasm, &cfg, dir.path(), 10, 50_000, true);
});

/// Zhang and Gupta's Fig. 10 (the blessed `wpp slice` program): the precise slice of Z at
/// the breakpoint holds every statement of main but 3 and 8 (values overwritten before
/// they were used) and 10 (nothing reads what it writes). Statements are main's
/// instructions by index, as the program's comments number them.
#[test]
fn fig10() {
    let wasm = wat::parse_str(include_str!("../../../wpp-cli/tests/cli/slice.wat")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (profile_path, twpp_path) = (dir.path().join("fig10.wpp"), dir.path().join("fig10.twpp"));
    Recorder::from_bytes("fig10", wasm.clone()).unwrap().mode(RecordMode::Grammar(Builder::Sequitur1)).record(&profile_path).unwrap();
    build(&Profile::open(&profile_path).unwrap(), &twpp_path, &mut wpp_model::progress::Quiet).unwrap();
    let twpp = Twpp::open(&twpp_path).unwrap();
    let program = wpp_wasm::decode(&wasm).unwrap();
    let stmts = wpp_wasm::statements(&wasm, &program).unwrap();
    let controllers = wpp_dataflow::control_dep::program_controllers(&program.functions);
    let main = program.functions.iter().find(|f| f.name == "main").unwrap().index;
    let code: Vec<u32> = stmts.get(main).unwrap().blocks.iter().flat_map(|b| &b.stmts).map(|s| s.at).collect();
    // The first instruction of each statement 1..=14, and where the last one ends; the
    // structure between them (block, loop, else, end, the loop's br) belongs to none.
    let starts = [0, 2, 4, 8, 12, 14, 18, 22, 26, 29, 31, 33, 40, 44, 46];
    let structure = [6, 7, 21, 25, 37, 38, 39];
    let statement = |at: u32| {
        let i = code.iter().position(|&c| c == at).filter(|i| !structure.contains(i))?;
        (1..=14).find(|&s| starts[s - 1] <= i && i < starts[s])
    };
    let mut slicer =
        Slicer::new(&twpp, Program { functions: &twpp.profile.meta.functions, numberings: &twpp.profile.numberings, stmts: &stmts, controllers: &controllers })
            .unwrap();
    let at = code[44];
    let inst = *slicer.executions(main, at).unwrap().last().unwrap();
    let z = slicer.value_before(Reg::Local(5), inst).unwrap();
    let slice = slicer.slice(&[z]).unwrap();
    let mut statements: BTreeSet<usize> = slice.nodes.iter().filter_map(|n| statement(n.inst.at)).collect();
    statements.insert(14);
    assert_eq!(statements, BTreeSet::from([1, 2, 4, 5, 6, 7, 9, 11, 12, 13, 14]), "approach 3");
    // Approach 2 keeps statement 8: an earlier iteration's Y reached an earlier Z.
    let mut statements: BTreeSet<usize> = slicer.slice_statements(&[z]).unwrap().into_iter().filter_map(|(_, at, _)| statement(at)).collect();
    statements.insert(14);
    assert_eq!(statements, BTreeSet::from([1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]), "approach 2");
    // Approach 1 keeps statement 3 too: J = 0 reaches statement 13 when the loop does
    // not run.
    let mut statements: BTreeSet<usize> = BTreeSet::from([14]);
    slicer.visit_executed(&[z], |_, at, _, _, _| statements.extend(statement(at))).unwrap();
    assert_eq!(statements, BTreeSet::from([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]), "approach 1");
}

/// Where a value of approach 1 comes from, as the oracle names it: an instruction's
/// part (offset, part code), or a leaf.
type Origin1 = Src;

/// A definition reaching a point: an instruction's part, or the entry.
const ENTRY_DEF: (u32, u32) = (u32::MAX, 0);

/// Approach 1 by its rules, the reaching definitions computed forward: the iterative
/// fixpoint over each function's executed blocks, a set of definitions per register
/// carried along every executed edge (a branch's values moved to its target's slots),
/// where the engine searches backward from each use on demand.
struct Approach1<'w> {
    stmts: &'w FuncMap<FuncStmts>,
    functions: &'w [wpp_model::Function],
    controllers: &'w FuncMap<Vec<Vec<BlockIdx>>>,
    walk: &'w Walk,
    /// Reaching definitions of the registers each instruction reads.
    before: HashMap<u32, HashMap<Reg, BTreeSet<(u32, u32)>>>,
    /// Executions by instruction, and the writers each read site read (any execution).
    executions: HashMap<u32, u64>,
    read: HashMap<u32, BTreeSet<Src>>,
    memory: bool,
}

impl<'w> Approach1<'w> {
    fn new(walk: &'w Walk, functions: &'w [wpp_model::Function], graph: &HashMap<Id, Vec<(DepKind, Src)>>) -> Approach1<'w> {
        let mut a = Approach1 {
            stmts: &walk.stmts,
            functions,
            controllers: &walk.controllers,
            walk,
            before: HashMap::new(),
            executions: HashMap::new(),
            read: HashMap::new(),
            memory: walk.memory,
        };
        for (k, deps) in graph {
            if k.3 == 0 {
                *a.executions.entry(k.2).or_default() += 1;
                let mem = deps.iter().filter(|(d, _)| *d == DepKind::Memory).map(|(_, s)| match s {
                    Src::Node(n) => Src::Node((0, 0, n.2, n.3)),
                    other => *other,
                });
                let e = a.read.entry(k.2).or_default();
                e.extend(mem);
            }
        }
        for (&f, ran) in &walk.ran {
            a.reaching(f, ran);
        }
        a
    }

    fn reaching(&mut self, f: u32, ran: &BTreeSet<u32>) {
        type State = HashMap<Reg, BTreeSet<(u32, u32)>>;
        let stmts = self.stmts.get(FuncIdx(f)).unwrap();
        let cfg = self.functions[f as usize].cfg.as_ref().unwrap();
        let transfer = |b: u32, state: &mut State, before: Option<&mut HashMap<u32, State>>| {
            let mut before = before;
            for s in &stmts.blocks[b as usize].stmts {
                if let Some(before) = before.as_deref_mut() {
                    before.insert(s.at, s.uses.iter().map(|r| (*r, state.get(r).cloned().unwrap_or_default())).collect());
                }
                for &d in &s.defs {
                    let part = if matches!((d, s.kind), (Reg::Slot(_), Kind::Call { .. })) { 1 } else { 0 };
                    state.insert(d, BTreeSet::from([(s.at, part)]));
                }
            }
        };
        let mut input: HashMap<u32, State> = HashMap::new();
        let mut entry = State::new();
        for st in stmts.blocks.iter().flat_map(|b| &b.stmts) {
            for r in st.uses.iter().chain(&st.defs) {
                if let Reg::Local(_) = r {
                    entry.insert(*r, BTreeSet::from([ENTRY_DEF]));
                }
            }
        }
        input.insert(0, entry);
        let mut work: Vec<u32> = vec![0];
        while let Some(b) = work.pop() {
            let mut state = input.get(&b).cloned().unwrap_or_default();
            transfer(b, &mut state, None);
            let last = stmts.blocks[b as usize].stmts.last();
            for e in cfg.edges.iter().filter(|e| e.from.0 == b) {
                let wpp_model::Target::Block(t) = e.to else { continue };
                if !ran.contains(&t.0) {
                    continue;
                }
                let height = stmts.blocks[t.idx()].entry;
                let mut out = state.clone();
                if let Some(shift) = last.and_then(|l| l.shifts.iter().find(|s| s.entry == height)) {
                    for h in height - shift.n..height {
                        let src = shift.source(h).unwrap();
                        out.insert(Reg::Slot(h), state.get(&Reg::Slot(src)).cloned().unwrap_or_default());
                    }
                }
                let first = !input.contains_key(&t.0);
                let into = input.entry(t.0).or_default();
                let mut changed = false;
                for (r, defs) in out {
                    let e = into.entry(r).or_default();
                    let n = e.len();
                    e.extend(defs);
                    changed |= e.len() != n;
                }
                if changed || first {
                    work.push(t.0);
                }
            }
        }
        // Every executed block reached from the entry has its input now; record each
        // instruction's.
        let mut before = HashMap::new();
        for &b in ran {
            let mut state = input.get(&b).cloned().unwrap_or_default();
            transfer(b, &mut state, Some(&mut before));
        }
        self.before.extend(before);
    }

    fn func_of(&self, at: u32) -> u32 {
        self.stmts.iter().find(|(_, s)| s.find(at).is_some()).unwrap().0 .0
    }

    /// Every executed definition of global `g` in the program, and its initial value.
    fn global_defs(&self, g: u32) -> Vec<Origin1> {
        let mut out = vec![Src::Init];
        for (&f, ran) in &self.walk.ran {
            let stmts = self.stmts.get(FuncIdx(f)).unwrap();
            for &b in ran {
                for s in stmts.blocks[b as usize].stmts.iter().filter(|s| s.defs.contains(&Reg::Global(g))) {
                    out.push(Src::Node((0, 0, s.at, 0)));
                }
            }
        }
        out
    }

    fn data(&self, f: u32, at: u32, regs: &[Reg], out: &mut BTreeSet<(DepKind, Origin1)>) {
        let params = self.stmts.get(FuncIdx(f)).unwrap().params;
        for &r in regs {
            let kind = DepKind::Data(r);
            if let Reg::Global(g) = r {
                out.extend(self.global_defs(g).into_iter().map(|s| (kind, s)));
                continue;
            }
            for &d in &self.before[&at][&r] {
                if d != ENTRY_DEF {
                    out.insert((kind, Src::Node((0, 0, d.0, d.1))));
                    continue;
                }
                match r {
                    Reg::Local(p) if p < params => {
                        for c in &self.walk.callers[&f] {
                            out.insert((kind, c.map_or(Src::Entry, |c| Src::Node((0, 0, c.1, 2 + p)))));
                        }
                    }
                    _ => {
                        out.insert((kind, Src::Entry));
                    }
                }
            }
        }
    }

    fn returns(&self, g: u32, out: &mut BTreeSet<(DepKind, Origin1)>, seen: &mut BTreeSet<u32>) {
        if !seen.insert(g) {
            return;
        }
        let stmts = self.stmts.get(FuncIdx(g)).unwrap();
        let cfg = self.functions[g as usize].cfg.as_ref().unwrap();
        for e in cfg.edges.iter().filter(|e| e.to == wpp_model::Target::Exit && self.walk.ran[&g].contains(&e.from.0)) {
            let Some(s) = stmts.blocks[e.from.idx()].stmts.last() else { continue };
            let tail = matches!(s.kind, Kind::Call { tail: true, .. });
            out.insert((DepKind::Return, Src::Node((0, 0, s.at, u32::from(tail)))));
            if tail {
                for &h in self.walk.callees.get(&(g, s.at)).map(|c| &c.0).into_iter().flatten() {
                    self.returns(h, out, seen);
                }
            }
        }
    }

    /// The dependences of instruction `at`'s part `part`.
    fn deps(&self, at: u32, part: u32) -> BTreeSet<(DepKind, Origin1)> {
        let f = self.func_of(at);
        let stmts = self.stmts.get(FuncIdx(f)).unwrap();
        let (b, i) = stmts.find(at).unwrap();
        let s = &stmts.blocks[b].stmts[i];
        let mut out = BTreeSet::new();
        match part {
            0 => {
                let operands = match s.kind {
                    Kind::Call { args, .. } => &s.uses[args as usize..],
                    _ => &s.uses[..],
                };
                self.data(f, at, operands, &mut out);
                if self.memory {
                    // Every writer of bytes the instruction read at some time, and the
                    // initial memory if an execution read it.
                    if let Some(bytes) = self.walk.bytes_read.get(&at) {
                        for (&(w, part), written) in &self.walk.bytes_written {
                            if !written.is_disjoint(bytes) {
                                out.insert((DepKind::Memory, Src::Node((0, 0, w, part))));
                            }
                        }
                    }
                    if self.read.get(&at).is_some_and(|r| r.contains(&Src::InitialMemory)) {
                        out.insert((DepKind::Memory, Src::InitialMemory));
                    }
                } else if s.kind == Kind::Load {
                    out.insert((DepKind::Memory, Src::Memory));
                }
                for c in &self.controllers.get(FuncIdx(f)).unwrap()[b] {
                    if self.walk.ran[&f].contains(&c.0) {
                        let last = stmts.blocks[c.idx()].stmts.last().unwrap();
                        out.insert((DepKind::Control, Src::Node((0, 0, last.at, 0))));
                    }
                }
                for c in self.walk.callers[&f].iter().flatten() {
                    out.insert((DepKind::Control, Src::Node((0, 0, c.1, 0))));
                }
            }
            1 => {
                out.insert((DepKind::Call, Src::Node((0, 0, at, 0))));
                let (callees, entered) = self.walk.callees.get(&(f, at)).cloned().unwrap_or_default();
                let mut seen = BTreeSet::new();
                for g in callees {
                    self.returns(g, &mut out, &mut seen);
                }
                if entered < self.executions[&at] || matches!(s.kind, Kind::Call { tail: true, .. }) {
                    self.data(f, at, s.args(), &mut out);
                }
            }
            k => self.data(f, at, &[s.args()[k as usize - 2]], &mut out),
        }
        out
    }
}

fn origin_code(o: Origin) -> Src {
    match o {
        Origin::Instr { at, part, .. } => Src::Node((0, 0, at, part_code(part))),
        Origin::Entry => Src::Entry,
        Origin::Init => Src::Init,
        Origin::Memory => Src::Memory,
        Origin::InitialMemory => Src::InitialMemory,
    }
}
