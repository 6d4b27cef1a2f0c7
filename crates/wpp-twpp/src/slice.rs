//! Dynamic slicing on the timestamped whole program path (Zhang & Gupta §4.3, Agrawal and
//! Horgan's precise approach): which executions of which instructions a value depends
//! on, through registers and control, found on demand.
//!
//! An execution of an instruction is an [`Inst`]: the invocation (a node of the dynamic
//! call graph), the timestamp of the dynamic block that ran it, and its byte offset. A
//! call gives three nodes of the dependence graph ([`Part`]): its execution, the result
//! it pushed, and each argument it passed. The dependences of a node ([`Dep`]) are found
//! backward over timestamps, one query ⟨T, n⟩_v at a time:
//!
//! - a register (a local, a global, an operand stack slot by height: `wpp_model::stmts`)
//!   was defined by the latest instruction before that defines it: in the instruction's
//!   own block, or at the latest timestamp of the trace whose dynamic block defines it
//!   (one binary search in the sorted timestamps of the defining blocks), or, at the
//!   invocation's entry, by the caller: a parameter is the call's argument, a global is
//!   what held before the call. A call that ran before defines a global if its callee's
//!   invocation or anything it called did; the result of a call is what the callee's
//!   returning instruction returned; a branch that moved values down the stack passes
//!   them on, on the edge it took.
//! - an execution of a block is control dependent on the latest earlier execution, in
//!   its invocation, of a block whose branch decides whether it runs (the control
//!   dependences come with the program), or else on the call that made the invocation.
//!
//! - an execution of an instruction that reads linear memory depends on the write
//!   instances whose bytes it read, when the TWPP keeps the run's memory dependences
//!   ([`crate::memory`], [`Slicer::follow_memory`]): the `k`-th execution of the load in
//!   run order reads what the dependences say, and the `n`-th instance of a writer is
//!   the `n`-th execution of its instruction in run order. Without them a load's value
//!   is a leaf, [`Source::Memory`].
//!
//! Every dependence found is kept, in a graph whose nodes are numbered densely
//! (`slice/graph`), so a second slice of the same run walks what the first found by index;
//! [`Slicer::cache`] writes it as a file and [`Slicer::restore`] reads it back in another
//! process. The work is proportional to the slice and to the timestamps of the blocks it
//! consults, never to the length of the run (the executions of an instruction that reads
//! or writes memory are put in run order once, when a slice first reaches it).
//!
//! A criterion can also be bytes of memory ([`Slicer::memory_before`]): the writes that
//! put them there last before an execution, from each writer's ranges the TWPP keeps.

use rustc_hash::FxHashMap;
use wpp_model::access_event::SiteKind;
use wpp_model::stmts::{FuncStmts, Kind, Reg, Stmt};
use wpp_model::{BlockIdx, FuncIdx, FuncMap, Function};
use wpp_paths::ProgramNumbering;

use crate::dataflow::{Error, TraceView};
use crate::format::FunctionPart;
use crate::memory::{LoadDeps, Memory, Written};
use crate::{Dcg, Twpp};

mod executed;
mod graph;
pub use executed::{Origin, StaticDep};
pub use graph::CACHE_MAGIC;

/// The program a TWPP was recorded from, as a slice needs it.
pub struct Program<'a> {
    pub functions: &'a [Function],
    pub numberings: &'a ProgramNumbering,
    pub stmts: &'a FuncMap<FuncStmts>,
    /// For each function and block: the blocks whose branches decide whether it runs
    /// (the sources of the edges it is control dependent on).
    pub controllers: &'a FuncMap<Vec<Vec<BlockIdx>>>,
}

/// One execution of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst {
    /// The invocation, an index into the dynamic call graph's nodes.
    pub node: u32,
    /// The timestamp, in the invocation's trace, of the dynamic block that ran it.
    pub step: u32,
    /// The instruction's byte offset in the module.
    pub at: u32,
}

/// Which value of an execution a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// The instruction ran (and, but for a call, what it computed).
    Exec,
    /// What a call returned.
    Result,
    /// An argument a call passed.
    Arg(u32),
}

impl Part {
    /// The part as a number: 0 the execution, 1 the result, 2 + k argument k.
    pub fn code(self) -> u64 {
        match self {
            Part::Exec => 0,
            Part::Result => 1,
            Part::Arg(i) => 2 + i as u64,
        }
    }

    /// The part [`Part::code`] numbered.
    pub fn of_code(code: u64) -> Option<Part> {
        Some(match code {
            0 => Part::Exec,
            1 => Part::Result,
            c => Part::Arg(u32::try_from(c - 2).ok()?),
        })
    }
}

/// A node of the dynamic dependence graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node {
    pub inst: Inst,
    pub part: Part,
}

impl Node {
    pub fn exec(inst: Inst) -> Node {
        Node { inst, part: Part::Exec }
    }
}

/// Where a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    Node(Node),
    /// The invocation's start: a local that is not a parameter (zero), or a parameter of
    /// an invocation the host made.
    Entry,
    /// A global's initial value.
    Init,
    /// Linear memory, which this slice does not follow.
    Memory,
    /// Bytes nothing wrote during the run: the module's initial memory.
    InitialMemory,
}

/// Why a node depends on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DepKind {
    /// It reads the register the source defined.
    Data(Reg),
    /// The source's branch (or call) decided that it ran.
    Control,
    /// A call's result: the call ran.
    Call,
    /// A call's result: what the callee returned.
    Return,
    /// A load's value, from memory.
    Memory,
}

impl DepKind {
    /// The kind as a number, a data dependence's register in it.
    pub fn code(self) -> u64 {
        match self {
            DepKind::Control => 0,
            DepKind::Call => 1,
            DepKind::Return => 2,
            DepKind::Memory => 3,
            DepKind::Data(Reg::Local(n)) => 4 + 3 * n as u64,
            DepKind::Data(Reg::Global(n)) => 5 + 3 * n as u64,
            DepKind::Data(Reg::Slot(n)) => 6 + 3 * n as u64,
        }
    }

    /// The kind [`DepKind::code`] numbered.
    pub fn of_code(code: u64) -> Option<DepKind> {
        Some(match code {
            0 => DepKind::Control,
            1 => DepKind::Call,
            2 => DepKind::Return,
            3 => DepKind::Memory,
            c => {
                let n = u32::try_from((c - 4) / 3).ok()?;
                DepKind::Data(match (c - 4) % 3 {
                    0 => Reg::Local(n),
                    1 => Reg::Global(n),
                    _ => Reg::Slot(n),
                })
            }
        })
    }
}

/// One dependence of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dep {
    pub kind: DepKind,
    pub from: Source,
}

/// A run of bytes of memory and the write that put them there last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastWrite {
    pub start: u64,
    pub end: u64,
    /// The write's node, or [`Source::InitialMemory`].
    pub from: Source,
    /// Which execution of its instruction the write was (from 1, in run order).
    pub execution: Option<u64>,
}

/// A slice: the nodes reached, in the order found (each one's dependences are
/// [`Slicer::deps_of`]).
#[derive(Clone, Debug, Default)]
pub struct Slice {
    pub nodes: Vec<Node>,
}

/// How a distinct trace's nodes are numbered inside each invocation that followed it.
struct Dense {
    /// Nodes before each timestamp (index `step - 1`), then in all.
    before: Vec<u64>,
    /// Each block's first node in its dynamic block (by block index; blocks that did not
    /// run: 0).
    block_off: Vec<u32>,
}

/// Where each instruction's nodes begin in its block: per block, per instruction, then
/// the block's total (an instruction has one node, a call also one for its result and
/// one per argument).
struct Layout {
    off: Vec<Vec<u32>>,
}

/// The nodes of one execution of an instruction: a call's execution, result and
/// arguments; any other instruction's execution.
fn nodes_of(s: &Stmt) -> u32 {
    match s.kind {
        Kind::Call { .. } => 2 + s.args().len() as u32,
        _ => 1,
    }
}

impl Layout {
    fn new(stmts: &FuncStmts) -> Layout {
        let off = stmts
            .blocks
            .iter()
            .map(|b| {
                let mut v = Vec::with_capacity(b.stmts.len() + 1);
                let mut n = 0u32;
                for s in &b.stmts {
                    v.push(n);
                    n += nodes_of(s);
                }
                v.push(n);
                v
            })
            .collect();
        Layout { off }
    }
}

/// What a timestamp list is kept for: the blocks defining a register, or the blocks
/// controlling a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Defines(Reg),
    Controls(BlockIdx),
}

/// Where an execution is, once its trace is known.
#[derive(Clone, Copy, Debug)]
struct Pos {
    func: FuncIdx,
    pair: u32,
    block: BlockIdx,
    /// The block's position in its dynamic block's chain.
    pos: u32,
    /// The instruction's index in its block.
    index: usize,
}

/// Answers slicing queries on one TWPP, keeping the traces read and the dependences found.
pub struct Slicer<'a> {
    twpp: &'a Twpp,
    program: Program<'a>,
    dcg: Dcg,
    /// Each invocation's caller and the call (an index into `dcg.calls`).
    parent: Vec<Option<(u32, u32)>>,
    /// Each function's invocations.
    invocations: FxHashMap<FuncIdx, Vec<u32>>,
    parts: FxHashMap<FuncIdx, FunctionPart>,
    views: FxHashMap<(FuncIdx, u32), TraceView>,
    /// Sorted (timestamp, chain position) of the executions of the blocks a key names.
    lists: FxHashMap<(FuncIdx, u32, Key), Vec<(u32, u32)>>,
    /// The latest definition of a global in an invocation or anything it called.
    defined_below: FxHashMap<(u32, u32), Option<Source>>,
    /// The nodes found so far and their dependences.
    graph: graph::Graph,
    /// Dependences being found (a scratch area).
    arena: Vec<Dep>,
    /// Each invocation's first node id (`u64::MAX`: none yet), and the next free id.
    base: Vec<u64>,
    next_id: u64,
    /// The bases read from a dependence cache, sorted, and which invocations' ranges
    /// have been checked against their traces.
    restored: Vec<(u64, u32)>,
    checked: Vec<bool>,
    /// Nodes and dependences restored from a cache.
    restored_size: (usize, usize),
    dense: FxHashMap<(FuncIdx, u32), Dense>,
    layouts: FxHashMap<FuncIdx, Layout>,
    /// The current slice's mark.
    epoch: u32,
    /// Whether the dependences found are kept for later slices (see [`Slicer::keep`]).
    keep: bool,
    /// For checks: blocks run before each timestamp, by trace.
    blocks_before: FxHashMap<(FuncIdx, u32), Vec<u64>>,
    /// The run's memory dependences, when followed.
    memory: Option<&'a Memory>,
    /// Each load's dependences, decoded when first reached.
    loads: FxHashMap<u32, LoadDeps>,
    /// The executions of instructions that read or write memory, in run order, and for
    /// those that read, each execution's place in it.
    orders: FxHashMap<(FuncIdx, u32), RunOrder>,
    /// Approach 1: each function's executed blocks, the run's calls, each global's
    /// executed definitions.
    executed: FxHashMap<FuncIdx, executed::Executed>,
    calls: Option<executed::Calls>,
    global_defs: FxHashMap<u32, Vec<StaticDep>>,
}

/// Where an execution comes in the run ([`Slicer::run_position`]): keys compare as the
/// executions ran.
type RunKey = Vec<(u32, u32, u32)>;

/// An instruction's executions in run order.
#[derive(Default)]
struct RunOrder {
    list: Vec<Inst>,
    index: Option<FxHashMap<(u32, u32), u64>>,
}

impl<'a> Slicer<'a> {
    pub fn new(twpp: &'a Twpp, program: Program<'a>) -> Result<Slicer<'a>, Error> {
        let dcg = twpp.dcg()?;
        let n = dcg.nodes.len();
        let mut parent = vec![None; dcg.nodes.len()];
        let mut invocations: FxHashMap<FuncIdx, Vec<u32>> = FxHashMap::default();
        for (i, node) in dcg.nodes.iter().enumerate() {
            for c in node.calls.clone() {
                parent[dcg.calls[c as usize].node as usize] = Some((i as u32, c));
            }
            invocations.entry(node.func).or_default().push(i as u32);
        }
        Ok(Slicer {
            twpp,
            program,
            dcg,
            parent,
            invocations,
            parts: FxHashMap::default(),
            views: FxHashMap::default(),
            lists: FxHashMap::default(),
            defined_below: FxHashMap::default(),
            graph: graph::Graph::default(),
            arena: Vec::new(),
            base: vec![u64::MAX; n],
            next_id: 0,
            restored: Vec::new(),
            checked: vec![false; n],
            restored_size: (0, 0),
            dense: FxHashMap::default(),
            layouts: FxHashMap::default(),
            epoch: 0,
            keep: true,
            blocks_before: FxHashMap::default(),
            memory: None,
            loads: FxHashMap::default(),
            orders: FxHashMap::default(),
            executed: FxHashMap::default(),
            calls: None,
            global_defs: FxHashMap::default(),
        })
    }

    /// The fingerprint of a TWPP that a dependence cache names: its sections' names,
    /// places and checksums.
    pub fn fingerprint(twpp: &Twpp) -> u64 {
        let mut toc = Vec::new();
        for e in &twpp.profile.toc {
            toc.extend_from_slice(e.name.as_bytes());
            toc.push(0);
            toc.extend_from_slice(&e.offset.to_le_bytes());
            toc.extend_from_slice(&e.len.to_le_bytes());
            toc.extend_from_slice(&e.crc32.to_le_bytes());
        }
        let end = twpp.profile.toc.iter().map(|e| e.offset + e.len).max().unwrap_or(0);
        (crc32fast::hash(&toc) as u64) | (end << 32)
    }

    /// The dependence cache: the nodes the slices kept and their dependences, with the
    /// ids they were numbered with, as a file's bytes ([`Slicer::restore`] reads them).
    pub fn cache(&self) -> Vec<u8> {
        let bases: Vec<(u32, u64)> = self.base.iter().enumerate().filter(|(_, &b)| b != u64::MAX).map(|(v, &b)| (v as u32, b)).collect();
        graph::encode(&self.graph, Slicer::fingerprint(self.twpp), &bases, self.next_id)
    }

    /// Whether the slices kept something a cache restored (or nothing) does not hold.
    pub fn cache_grew(&self) -> bool {
        (self.graph.len(), self.graph.deps.len()) != self.restored_size
    }

    /// Starts from a dependence cache ([`Slicer::cache`]) written for this TWPP, before
    /// any slice: its nodes and dependences are known at once. The reason when it cannot
    /// be used (written for another TWPP, damaged); the slicer is then unchanged.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<usize, String> {
        if self.graph.len() > 0 || self.next_id > 0 {
            return Err("the slicer has numbered nodes already".into());
        }
        match graph::fingerprint_of(bytes) {
            None => return Err("it is not a dependence cache of this wpp".into()),
            Some(f) if f != Slicer::fingerprint(self.twpp) => return Err("it was written for another TWPP".into()),
            Some(_) => {}
        }
        let d = graph::decode(bytes, self.base.len() as u32)?;
        let mut restored: Vec<(u64, u32)> = d.bases.iter().map(|&(v, b)| (b, v)).collect();
        restored.sort_unstable();
        if restored.windows(2).any(|w| w[0].0 == w[1].0) || restored.last().is_some_and(|&(b, _)| b >= d.next_id.max(1)) {
            return Err("its invocations' ranges of ids overlap".into());
        }
        for &(v, b) in &d.bases {
            self.base[v as usize] = b;
        }
        self.restored = restored;
        self.next_id = d.next_id;
        self.graph = d.graph;
        self.restored_size = (self.graph.len(), self.graph.deps.len());
        Ok(self.graph.len())
    }

    /// Follows the run's memory dependences (from [`Twpp::memory`]): a load's execution
    /// then depends on the write instances it read.
    pub fn follow_memory(&mut self, memory: &'a Memory) {
        self.memory = Some(memory);
    }

    /// Whether loads are followed to their writers.
    pub fn follows_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// The dynamic call graph.
    pub fn dcg(&self) -> &Dcg {
        &self.dcg
    }

    /// How many nodes are known (reached by the queries so far and kept).
    pub fn known(&self) -> usize {
        self.graph.len()
    }

    fn damaged(&self, what: String) -> Error {
        Error::File(crate::file::Error::Damaged { path: self.twpp.profile.path.clone(), what })
    }

    /// Reads the trace of invocation `node` (once per distinct trace).
    fn view_of(&mut self, node: u32) -> Result<(FuncIdx, u32), Error> {
        let n = self.dcg.nodes.get(node as usize).ok_or_else(|| self.damaged(format!("no invocation {node}")))?;
        let (f, pair) = (n.func, n.trace.0);
        if !self.views.contains_key(&(f, pair)) {
            if !self.parts.contains_key(&f) {
                self.parts.insert(f, self.twpp.function(f)?);
            }
            let cfg = self.program.functions.get(f.idx()).and_then(|fun| fun.cfg.as_ref()).ok_or(Error::NoCode(f))?;
            let numbering = self.program.numberings.get(f).ok_or(Error::NoCode(f))?;
            let view = TraceView::new(&self.parts[&f], pair as usize, cfg, numbering).ok_or_else(|| self.damaged(format!("function {f}: trace {pair}")))?;
            if !self.layouts.contains_key(&f) {
                self.layouts.insert(f, Layout::new(self.stmts(f)?));
            }
            let layout = &self.layouts[&f];
            let mut block_off = vec![0u32; layout.off.len()];
            let mut chain_nodes: FxHashMap<BlockIdx, u64> = FxHashMap::default();
            for (head, chain) in &view.chains {
                let mut n = 0u32;
                for b in chain {
                    let off = layout
                        .off
                        .get(b.idx())
                        .ok_or_else(|| self.damaged(format!("function {f}: trace {pair} runs block {b}, which the function does not have")))?;
                    block_off[b.idx()] = n;
                    n += off.last().copied().unwrap_or(0);
                }
                chain_nodes.insert(*head, n as u64);
            }
            let mut before = Vec::with_capacity(view.len as usize + 1);
            let mut n = 0u64;
            before.push(0);
            for h in &view.heads {
                n += chain_nodes[h];
                before.push(n);
            }
            self.dense.insert((f, pair), Dense { before, block_off });
            self.views.insert((f, pair), view);
        }
        Ok((f, pair))
    }

    fn stmts(&self, f: FuncIdx) -> Result<&'a FuncStmts, Error> {
        self.program.stmts.get(f).ok_or(Error::NoCode(f))
    }

    /// Where execution `inst` is.
    fn locate(&mut self, inst: Inst) -> Result<Pos, Error> {
        let (func, pair) = self.view_of(inst.node)?;
        let (b, index) = self.stmts(func)?.find(inst.at).ok_or(Error::NoInstruction { func, at: inst.at })?;
        let block = BlockIdx(b as u32);
        let view = &self.views[&(func, pair)];
        let &(head, pos) = view.place.get(&block).ok_or(Error::NotRun { func, at: inst.at })?;
        if inst.step == 0 || inst.step > view.len || view.head_at(inst.step) != head {
            return Err(Error::NotRun { func, at: inst.at });
        }
        Ok(Pos { func, pair, block, pos, index })
    }

    /// The block at chain position `pos` of the dynamic block that ran at `step`.
    fn block_at(view: &TraceView, step: u32, pos: u32) -> BlockIdx {
        view.chains[&view.head_at(step)][pos as usize]
    }

    /// The sorted executions of the blocks `key` names, in one trace.
    fn list(&mut self, f: FuncIdx, pair: u32, key: Key) -> Result<&Vec<(u32, u32)>, Error> {
        if !self.lists.contains_key(&(f, pair, key)) {
            let stmts = self.stmts(f)?;
            let view = &self.views[&(f, pair)];
            let blocks: Vec<BlockIdx> = match key {
                Key::Defines(reg) => (0..stmts.blocks.len())
                    .filter(|&b| {
                        let ss = &stmts.blocks[b].stmts;
                        let shifted = |s: &Stmt| matches!(reg, Reg::Slot(h) if s.shifts.iter().any(|sh| sh.source(h).is_some()));
                        let calls = |s: &Stmt| matches!((reg, s.kind), (Reg::Global(_), Kind::Call { .. }));
                        ss.iter().any(|s| s.defs.contains(&reg) || shifted(s) || calls(s))
                    })
                    .map(|b| BlockIdx(b as u32))
                    .collect(),
                Key::Controls(b) => self.program.controllers.get(f).and_then(|c| c.get(b.idx())).cloned().unwrap_or_default(),
            };
            let mut list = Vec::new();
            for b in blocks {
                if let Some(&(head, pos)) = view.place.get(&b) {
                    list.extend(view.steps[&head].iter().map(|&t| (t, pos)));
                }
            }
            list.sort_unstable();
            self.lists.insert((f, pair, key), list);
        }
        Ok(&self.lists[&(f, pair, key)])
    }

    /// The callee invocation of the call ending the block at `(step, pos)` of `node`
    /// (`None`: an import, or a tail call).
    fn callee(&self, node: u32, f: FuncIdx, pair: u32, step: u32, pos: u32) -> Option<u32> {
        let view = &self.views[&(f, pair)];
        let k = view.calls.partition_point(|c| (c.step, c.pos) < (step, pos));
        let site = view.calls.get(k).filter(|c| (c.step, c.pos) == (step, pos))?;
        let n = &self.dcg.nodes[node as usize];
        let calls = &self.dcg.calls[n.calls.start as usize..n.calls.end as usize];
        let i = calls.partition_point(|c| c.at < site.path + 1);
        calls.get(i).filter(|c| c.at == site.path + 1 && !c.tail).map(|c| c.node)
    }

    /// The invocation's tail call, if it ended with one into the module.
    fn tail_callee(&self, node: u32) -> Option<u32> {
        let n = &self.dcg.nodes[node as usize];
        n.calls.clone().last().map(|c| self.dcg.calls[c as usize]).filter(|c| c.tail).map(|c| c.node)
    }

    /// The execution of the call `call` (an index into `dcg.calls`) made by `caller`.
    fn call_inst(&mut self, caller: u32, call: u32) -> Result<Inst, Error> {
        let (f, pair) = self.view_of(caller)?;
        let c = self.dcg.calls[call as usize];
        let view = &self.views[&(f, pair)];
        let (step, pos) = if c.tail {
            let step = view.len;
            (step, view.chains[&view.head_at(step)].len() as u32 - 1)
        } else {
            let k = view.calls.partition_point(|s| s.path + 1 < c.at);
            match view.calls.get(k).filter(|s| s.path + 1 == c.at) {
                Some(s) => (s.step, s.pos),
                None => return Err(self.damaged(format!("the call graph: a call after path {} of function {f}, which makes no call there", c.at))),
            }
        };
        let b = Self::block_at(view, step, pos);
        let at = self.stmts(f)?.blocks[b.idx()].stmts.last().ok_or(Error::NoBlock { func: f, block: b })?.at;
        Ok(Inst { node: caller, step, at })
    }

    /// What defined `reg` last among instructions `..index` of the block at `(step, pos)`.
    fn in_block(&mut self, reg: Reg, node: u32, at: (FuncIdx, u32, u32, u32), block: BlockIdx, index: usize) -> Result<Option<Source>, Error> {
        let (f, pair, step, pos) = at;
        let stmts = self.stmts(f)?;
        for s in stmts.blocks[block.idx()].stmts[..index].iter().rev() {
            if let (Reg::Global(g), Kind::Call { tail: false, .. }) = (reg, s.kind) {
                if let Some(callee) = self.callee(node, f, pair, step, pos) {
                    if let Some(src) = self.defined_below(callee, g)? {
                        return Ok(Some(src));
                    }
                }
            }
            if s.defs.contains(&reg) {
                let inst = Inst { node, step, at: s.at };
                let part = if matches!((reg, s.kind), (Reg::Slot(_), Kind::Call { .. })) { Part::Result } else { Part::Exec };
                return Ok(Some(Source::Node(Node { inst, part })));
            }
        }
        Ok(None)
    }

    /// The entry height of the block that ran right after the one at `(step, pos)`.
    fn next_entry(&self, f: FuncIdx, pair: u32, step: u32, pos: u32) -> Option<u32> {
        let view = &self.views[&(f, pair)];
        let chain = &view.chains[&view.head_at(step)];
        let next = if (pos as usize) + 1 < chain.len() {
            chain[pos as usize + 1]
        } else if step < view.len {
            view.chains[&view.head_at(step + 1)][0]
        } else {
            return None;
        };
        self.program.stmts.get(f).and_then(|s| s.blocks.get(next.idx())).map(|b| b.entry)
    }

    /// What defined `reg` last in invocation `node` before `(step, pos)` (exclusive), the
    /// entry aside.
    fn search(&mut self, reg: Reg, node: u32, step: u32, pos: u32) -> Result<Option<Source>, Error> {
        let (f, pair) = self.view_of(node)?;
        let mut k = self.list(f, pair, Key::Defines(reg))?.partition_point(|&x| x < (step, pos));
        while k > 0 {
            k -= 1;
            let (t, p) = self.lists[&(f, pair, Key::Defines(reg))][k];
            let b = Self::block_at(&self.views[&(f, pair)], t, p);
            let stmts = &self.stmts(f)?.blocks[b.idx()].stmts;
            if let (Reg::Slot(h), Some(last)) = (reg, stmts.last()) {
                if !last.shifts.is_empty() {
                    let entry = self.next_entry(f, pair, t, p);
                    if let Some(src) = last.shifts.iter().filter(|s| Some(s.entry) == entry).find_map(|s| s.source(h)) {
                        return self.resolve_at(Reg::Slot(src), node, (f, pair, t, p), b, stmts.len() - 1).map(Some);
                    }
                }
            }
            if let Some(src) = self.in_block(reg, node, (f, pair, t, p), b, stmts.len())? {
                return Ok(Some(src));
            }
        }
        Ok(None)
    }

    /// The value of `reg` just before instruction `index` of `block`, run at `(step,
    /// pos)` of invocation `node`.
    fn resolve_at(&mut self, reg: Reg, node: u32, at: (FuncIdx, u32, u32, u32), block: BlockIdx, index: usize) -> Result<Source, Error> {
        if let Some(src) = self.in_block(reg, node, at, block, index)? {
            return Ok(src);
        }
        if let Some(src) = self.search(reg, node, at.2, at.3)? {
            return Ok(src);
        }
        self.at_entry(reg, node)
    }

    /// The value of `reg` at the start of invocation `node`.
    fn at_entry(&mut self, reg: Reg, node: u32) -> Result<Source, Error> {
        let (f, _) = self.view_of(node)?;
        let params = self.stmts(f)?.params;
        let Some((caller, call)) = self.parent[node as usize] else {
            return Ok(if matches!(reg, Reg::Global(_)) { Source::Init } else { Source::Entry });
        };
        match reg {
            Reg::Local(p) if p < params => Ok(Source::Node(Node { inst: self.call_inst(caller, call)?, part: Part::Arg(p) })),
            Reg::Global(_) => {
                let inst = self.call_inst(caller, call)?;
                self.value_before(reg, inst)
            }
            _ => Ok(Source::Entry),
        }
    }

    /// The latest definition of global `g` in invocation `node` or anything it called.
    fn defined_below(&mut self, node: u32, g: u32) -> Result<Option<Source>, Error> {
        if let Some(&d) = self.defined_below.get(&(node, g)) {
            return Ok(d);
        }
        let mut found = None;
        if let Some(tail) = self.tail_callee(node) {
            found = self.defined_below(tail, g)?;
        }
        if found.is_none() {
            let (f, pair) = self.view_of(node)?;
            let end = self.views[&(f, pair)].len + 1;
            found = self.search(Reg::Global(g), node, end, 0)?;
        }
        self.defined_below.insert((node, g), found);
        Ok(found)
    }

    /// The value of `reg` just before execution `inst`: what a slicing criterion names.
    pub fn value_before(&mut self, reg: Reg, inst: Inst) -> Result<Source, Error> {
        let p = self.locate(inst)?;
        self.resolve_at(reg, inst.node, (p.func, p.pair, inst.step, p.pos), p.block, p.index)
    }

    /// Where execution `inst` comes in the run: keys compare as the executions ran.
    fn run_key(&mut self, inst: Inst) -> Result<RunKey, Error> {
        let mut key = self.run_position(inst.node)?;
        let pos = self.locate(inst)?.pos;
        key.push((inst.step, pos, inst.at));
        Ok(key)
    }

    /// What linear memory held at `[addr, addr + len)` just before execution `inst`: for
    /// each run of bytes, the write that put them there last (a store's execution, a bulk
    /// write's, or the result of a call of an import that wrote them), or the module's
    /// initial memory. Needs the run's writes ([`crate::memory::Memory::has_writes`]).
    pub fn memory_before(&mut self, addr: u64, len: u64, inst: Inst) -> Result<Vec<LastWrite>, Error> {
        let m = self.memory.filter(|m| m.has_writes()).ok_or_else(|| self.damaged("no writes kept with the memory dependences".into()))?;
        let end = addr.saturating_add(len);
        let here = self.run_key(inst)?;
        // Per byte: the latest write before `inst` found so far.
        let mut best: Vec<Option<(RunKey, Source, u64)>> = vec![None; len as usize];
        for site in m.writers_over(addr, end).unwrap_or_default() {
            let writes = m.writes(site).map_err(|e| self.damaged(e))?.unwrap_or_default();
            let over: Vec<(u64, u64, u64)> = writes.into_iter().filter(|w| w.1 < end && addr < w.2).collect();
            let ws = m.sites[site as usize];
            let part = if matches!(ws.kind, SiteKind::HostCall { .. }) { Part::Result } else { Part::Exec };
            // The writes before `inst`: instances run in order.
            let (mut lo, mut hi) = (0usize, over.len());
            while lo < hi {
                let mid = (lo + hi) / 2;
                let w = self.nth_execution(ws.func, ws.at, over[mid].0)?;
                if self.run_key(w)? < here {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            let mut left = len;
            let mut mine = vec![false; len as usize];
            for &(instance, s, e) in over[..lo].iter().rev() {
                let w = self.nth_execution(ws.func, ws.at, instance)?;
                let key = self.run_key(w)?;
                for b in s.max(addr)..e.min(end) {
                    let k = (b - addr) as usize;
                    if !mine[k] {
                        mine[k] = true;
                        left -= 1;
                        if best[k].as_ref().is_none_or(|(kb, _, _)| *kb < key) {
                            best[k] = Some((key.clone(), Source::Node(Node { inst: w, part }), instance));
                        }
                    }
                }
                if left == 0 {
                    break;
                }
            }
        }
        let mut out: Vec<LastWrite> = Vec::new();
        for (k, b) in best.into_iter().enumerate() {
            let (from, execution) = b.map_or((Source::InitialMemory, None), |(_, s, n)| (s, Some(n)));
            let byte = addr + k as u64;
            match out.last_mut() {
                Some(last) if last.from == from && last.end == byte => last.end += 1,
                _ => out.push(LastWrite { start: byte, end: byte + 1, from, execution }),
            }
        }
        Ok(out)
    }

    /// The execution whose branch (or call) decided that `inst` ran, `None` for the
    /// code the host called.
    fn control(&mut self, inst: Inst, p: Pos) -> Result<Option<Source>, Error> {
        let list = self.list(p.func, p.pair, Key::Controls(p.block))?;
        let latest = list.partition_point(|&x| x < (inst.step, p.pos)).checked_sub(1).map(|k| list[k]);
        if let Some((t, q)) = latest {
            let b = Self::block_at(&self.views[&(p.func, p.pair)], t, q);
            let at = self.stmts(p.func)?.blocks[b.idx()].stmts.last().ok_or(Error::NoBlock { func: p.func, block: b })?.at;
            return Ok(Some(Source::Node(Node::exec(Inst { node: inst.node, step: t, at }))));
        }
        match self.parent[inst.node as usize] {
            Some((caller, call)) => Ok(Some(Source::Node(Node::exec(self.call_inst(caller, call)?)))),
            None => Ok(None),
        }
    }

    /// The execution that returned from invocation `node`'s call: its last instruction,
    /// or the returning instruction of the invocation it tail-called.
    fn returning(&mut self, mut node: u32) -> Result<Source, Error> {
        while let Some(tail) = self.tail_callee(node) {
            node = tail;
        }
        let (f, pair) = self.view_of(node)?;
        let view = &self.views[&(f, pair)];
        if view.len == 0 {
            return Err(self.damaged(format!("invocation {node} of function {f} ran nothing")));
        }
        let step = view.len;
        let b = *view.chains[&view.head_at(step)].last().expect("chains are not empty");
        let s = self.stmts(f)?.blocks[b.idx()].stmts.last().ok_or(Error::NoBlock { func: f, block: b })?;
        let part = if matches!(s.kind, Kind::Call { tail: true, .. }) { Part::Result } else { Part::Exec };
        Ok(Source::Node(Node { inst: Inst { node, step, at: s.at }, part }))
    }

    /// The dense id of node `n`, located at `p` (its invocation given ids when first
    /// reached).
    fn id(&mut self, n: Node, p: &Pos) -> Result<u64, Error> {
        let d = &self.dense[&(p.func, p.pair)];
        let off = &self.layouts[&p.func].off[p.block.idx()];
        let part = n.part.code();
        if part >= (off[p.index + 1] - off[p.index]) as u64 {
            return Err(Error::NoInstruction { func: p.func, at: n.inst.at });
        }
        let local = d.before[n.inst.step as usize - 1] + d.block_off[p.block.idx()] as u64 + off[p.index] as u64 + part;
        let total = *d.before.last().expect("one past the last");
        let v = n.inst.node as usize;
        if self.base[v] == u64::MAX {
            self.base[v] = self.next_id;
            self.next_id += total;
            self.checked[v] = true;
        } else if !self.checked[v] {
            // A base read from a dependence cache: its range must hold the invocation.
            let base = self.base[v];
            let k = self.restored.partition_point(|&(b, _)| b <= base);
            let end = self.restored.get(k).map_or(self.next_id, |&(b, _)| b);
            if base + total > end {
                return Err(self.damaged(format!("the dependence cache numbers invocation {v} with {} nodes, its trace has {total}", end - base)));
            }
            self.checked[v] = true;
        }
        Ok(self.base[v] + local)
    }

    /// The index of node `n` in the graph, added if new.
    fn intern(&mut self, n: Node) -> Result<u32, Error> {
        let p = self.locate(n.inst)?;
        let id = self.id(n, &p)?;
        Ok(self.graph.intern(id, n))
    }

    /// The index in the graph of node `n`, if it is there.
    fn index_of(&mut self, n: Node) -> Result<Option<u32>, Error> {
        let p = self.locate(n.inst)?;
        let id = self.id(n, &p)?;
        Ok(self.graph.get(id))
    }

    /// Finds and keeps the dependences of the graph's node `i` (once).
    fn store(&mut self, i: u32) -> Result<(), Error> {
        if self.graph.deps(i).is_some() {
            return Ok(());
        }
        let node = self.graph.entries[i as usize].node;
        let start = self.arena.len();
        self.find_deps(node)?;
        let mut deps = Vec::with_capacity(self.arena.len() - start);
        for k in start..self.arena.len() {
            let d = self.arena[k];
            deps.push(match d.from {
                Source::Node(m) => graph::GDep::new(d.kind, self.intern(m)?),
                leaf => graph::GDep::leaf(d.kind, leaf),
            });
        }
        self.arena.truncate(start);
        self.graph.set_deps(i, &deps).map_err(|e| self.damaged(e.to_string()))
    }

    /// The dependences of a node, found once and kept.
    pub fn deps(&mut self, node: Node) -> Result<Vec<Dep>, Error> {
        let i = self.intern(node)?;
        self.store(i)?;
        let g = &self.graph;
        Ok(g.deps(i).expect("stored above").iter().map(|&d| g.dep(d)).collect())
    }

    /// The dependences of a node a slice reached and kept (empty for any other).
    pub fn deps_of(&mut self, node: Node) -> Vec<Dep> {
        match self.index_of(node) {
            Ok(Some(i)) => self.graph.deps(i).map_or_else(Vec::new, |ds| ds.iter().map(|&d| self.graph.dep(d)).collect()),
            _ => Vec::new(),
        }
    }

    /// Finds the dependences of a node, at the end of the arena.
    fn find_deps(&mut self, node: Node) -> Result<(), Error> {
        let p = self.locate(node.inst)?;
        self.find_deps_at(node, p)
    }

    /// Finds the dependences of a node located at `p`, at the end of the arena.
    fn find_deps_at(&mut self, node: Node, p: Pos) -> Result<(), Error> {
        let inst = node.inst;
        let s: &Stmt = &self.stmts(p.func)?.blocks[p.block.idx()].stmts[p.index];
        let at = (p.func, p.pair, inst.step, p.pos);
        let data = |this: &mut Self, regs: &[Reg]| -> Result<(), Error> {
            for &r in regs {
                let from = this.resolve_at(r, inst.node, at, p.block, p.index)?;
                this.arena.push(Dep { kind: DepKind::Data(r), from });
            }
            Ok(())
        };
        match node.part {
            Part::Exec => {
                let operands = match s.kind {
                    Kind::Call { args, .. } => &s.uses[args as usize..],
                    _ => &s.uses[..],
                };
                data(self, operands)?;
                self.memory_deps(inst, p.func, s.kind == Kind::Load)?;
                if let Some(c) = self.control(inst, p)? {
                    self.arena.push(Dep { kind: DepKind::Control, from: c });
                }
            }
            Part::Result => {
                self.arena.push(Dep { kind: DepKind::Call, from: Source::Node(Node::exec(inst)) });
                let tail = matches!(s.kind, Kind::Call { tail: true, .. });
                match (tail, self.callee(inst.node, p.func, p.pair, inst.step, p.pos)) {
                    (false, Some(callee)) => {
                        let from = self.returning(callee)?;
                        self.arena.push(Dep { kind: DepKind::Return, from });
                    }
                    _ => data(self, s.args())?,
                }
            }
            Part::Arg(i) => {
                let r = *s.args().get(i as usize).ok_or(Error::NoInstruction { func: p.func, at: inst.at })?;
                data(self, &[r])?;
            }
        }
        Ok(())
    }

    /// The memory dependences of execution `inst` of an instruction of `f`: the write
    /// instances it read, or for a load when memory is not followed, a leaf.
    fn memory_deps(&mut self, inst: Inst, f: FuncIdx, load: bool) -> Result<(), Error> {
        let found = self.memory.and_then(|m| Some((m, m.read_site(f, inst.at)?)));
        let Some((m, site)) = found else {
            if load {
                self.arena.push(Dep { kind: DepKind::Memory, from: Source::Memory });
            }
            return Ok(());
        };
        let k = self.ordinal(f, inst)?;
        let runs = self.orders[&(f, inst.at)].list.len() as u64;
        self.decode_load(m, site, runs)?;
        let writers: Vec<Written> = self.loads[&site].of(k).to_vec();
        for w in writers {
            let from = match w {
                Written::Initial => Source::InitialMemory,
                Written::Site { site, instance } => {
                    let ws = m.sites[site as usize];
                    let inst = self.nth_execution(ws.func, ws.at, instance)?;
                    let part = if matches!(ws.kind, SiteKind::HostCall { .. }) { Part::Result } else { Part::Exec };
                    Source::Node(Node { inst, part })
                }
            };
            self.arena.push(Dep { kind: DepKind::Memory, from });
        }
        Ok(())
    }

    /// Decodes the dependences of read site `site` (of an instruction that ran `runs`
    /// times) once.
    fn decode_load(&mut self, m: &Memory, site: u32, runs: u64) -> Result<(), Error> {
        if !self.loads.contains_key(&site) {
            let deps = m.load(site, runs).map_err(|e| self.damaged(e))?;
            self.loads.insert(site, deps);
        }
        Ok(())
    }

    /// The executions of the instruction at `at` of `f`, in run order, put in order once.
    fn run_order(&mut self, f: FuncIdx, at: u32) -> Result<&mut RunOrder, Error> {
        if !self.orders.contains_key(&(f, at)) {
            let list = self.executions(f, at)?;
            self.orders.insert((f, at), RunOrder { list, index: None });
        }
        Ok(self.orders.get_mut(&(f, at)).expect("inserted above"))
    }

    /// Which execution of its instruction, in run order (1-based), `inst` is.
    fn ordinal(&mut self, f: FuncIdx, inst: Inst) -> Result<u64, Error> {
        let order = self.run_order(f, inst.at)?;
        let list = &order.list;
        let index = order.index.get_or_insert_with(|| list.iter().enumerate().map(|(k, i)| ((i.node, i.step), k as u64 + 1)).collect());
        match index.get(&(inst.node, inst.step)) {
            Some(&k) => Ok(k),
            None => Err(Error::NotRun { func: f, at: inst.at }),
        }
    }

    /// Execution `n` (1-based, in run order) of the instruction at `at` of `f`.
    fn nth_execution(&mut self, f: FuncIdx, at: u32, n: u64) -> Result<Inst, Error> {
        let order = self.run_order(f, at)?;
        let found = order.list.get((n as usize).wrapping_sub(1)).copied();
        found.ok_or_else(|| {
            self.damaged(format!("the memory dependences name execution {n} of the instruction at {at:#x} of function {f}, which ran fewer times"))
        })
    }

    /// Whether the dependences found are kept, so that a later slice reuses them (the
    /// default), at about 100 bytes per node (the node, its dependences by index, its
    /// id's slot); or forgotten once the slice has passed them, which leaves a slice a
    /// bit per id of the invocations it reached and its work list.
    pub fn keep(&mut self, keep: bool) {
        self.keep = keep;
    }

    /// Builds the whole dynamic dependence graph of the run, as published slicers do
    /// before their first slice: every execution of every instruction (and every call's
    /// result and arguments) with its dependences, kept; how many nodes. For comparison
    /// with slices found on demand (`wpp-bench slice`).
    pub fn whole_graph(&mut self) -> Result<u64, Error> {
        for node in 0..self.dcg.nodes.len() as u32 {
            let (f, pair) = self.view_of(node)?;
            let stmts = self.stmts(f)?;
            let len = self.views[&(f, pair)].len;
            for step in 1..=len {
                let view = &self.views[&(f, pair)];
                let head = view.head_at(step);
                for pos in 0..view.chains[&head].len() {
                    let b = self.views[&(f, pair)].chains[&head][pos];
                    for s in &stmts.blocks[b.idx()].stmts {
                        for k in 0..nodes_of(s) {
                            let part = Part::of_code(k as u64).expect("a part");
                            let i = self.intern(Node { inst: Inst { node, step, at: s.at }, part })?;
                            self.store(i)?;
                        }
                    }
                }
            }
        }
        Ok(self.graph.len() as u64)
    }

    /// The backward closure of `from` over data and control dependences.
    pub fn slice(&mut self, from: &[Source]) -> Result<Slice, Error> {
        let mut out = Slice::default();
        self.visit(from, |n, _| out.nodes.push(n))?;
        Ok(out)
    }

    /// The backward closure of `from`, each node given to `f` with its dependences once;
    /// how many nodes it has.
    pub fn visit(&mut self, from: &[Source], f: impl FnMut(Node, &[Dep])) -> Result<u64, Error> {
        if self.keep {
            self.visit_kept(from, f)
        } else {
            self.visit_lean(from, f)
        }
    }

    /// The closure over the graph, each node's dependences found once and kept: a node
    /// whose dependences are known costs array reads only.
    fn visit_kept(&mut self, from: &[Source], mut f: impl FnMut(Node, &[Dep])) -> Result<u64, Error> {
        self.epoch += 1;
        let epoch = self.epoch;
        let mut work: Vec<u32> = Vec::new();
        for s in from {
            if let Source::Node(n) = s {
                work.push(self.intern(*n)?);
            }
        }
        let mut count = 0u64;
        let mut deps: Vec<Dep> = Vec::new();
        while let Some(i) = work.pop() {
            let e = &mut self.graph.entries[i as usize];
            if e.mark == epoch {
                continue;
            }
            e.mark = epoch;
            let node = e.node;
            if e.len == graph::UNKNOWN {
                self.store(i)?;
            }
            deps.clear();
            let g = &self.graph;
            for &d in g.deps(i).expect("stored above") {
                if let Ok(j) = d.source() {
                    let m = &g.entries[j as usize];
                    if m.mark != epoch {
                        work.push(j);
                    }
                    deps.push(Dep { kind: d.kind(), from: Source::Node(m.node) });
                } else {
                    deps.push(g.dep(d));
                }
            }
            f(node, &deps);
            count += 1;
        }
        Ok(count)
    }

    /// The closure without keeping what it finds (the graph's known dependences used):
    /// the nodes visited are bits of their ids.
    fn visit_lean(&mut self, from: &[Source], mut f: impl FnMut(Node, &[Dep])) -> Result<u64, Error> {
        let mut work: Vec<Node> = from.iter().filter_map(|s| if let Source::Node(n) = s { Some(*n) } else { None }).collect();
        let mut seen = graph::Bits::default();
        let mut count = 0u64;
        while let Some(n) = work.pop() {
            let p = self.locate(n.inst)?;
            let id = self.id(n, &p)?;
            if !seen.insert(id) {
                continue;
            }
            let start = self.arena.len();
            let g = &self.graph;
            match g.get(id).and_then(|i| g.deps(i)) {
                Some(known) => self.arena.extend(known.iter().map(|&d| g.dep(d))),
                None => self.find_deps_at(n, p)?,
            }
            let deps = &self.arena[start..];
            work.extend(deps.iter().filter_map(|d| if let Source::Node(m) = d.from { Some(m) } else { None }));
            f(n, deps);
            count += 1;
            self.arena.truncate(start);
        }
        Ok(count)
    }

    /// Agrawal and Horgan's approach 2 as Zhang and Gupta implement it: the closure over
    /// instructions (and calls' results and arguments) of the dependences their
    /// executions exercised. From each source's instruction, every execution of each
    /// instruction reached is followed (all its timestamps, in every trace), and each
    /// instruction a dependence comes from is added once. The instructions, in the order
    /// found, with their function. Dependences found here are not kept.
    pub fn slice_statements(&mut self, from: &[Source]) -> Result<Vec<(FuncIdx, u32, Part)>, Error> {
        let mut out = Vec::new();
        self.visit_statements(from, |f, at, part, _, _| {
            if out.last() != Some(&(f, at, part)) {
                out.push((f, at, part));
            }
        })?;
        Ok(out)
    }

    /// Approach 2's closure, each instruction's every execution given to `f` with its
    /// dependences (its function, offset and part, then the node); how many executions
    /// it visited. An instruction's executions come one after another.
    pub fn visit_statements(&mut self, from: &[Source], mut f: impl FnMut(FuncIdx, u32, Part, Node, &[Dep])) -> Result<u64, Error> {
        let mut seen: rustc_hash::FxHashSet<(u32, Part)> = rustc_hash::FxHashSet::default();
        let mut work: Vec<(FuncIdx, u32, Part)> = Vec::new();
        for s in from {
            if let Source::Node(n) = s {
                let (f, _) = self.view_of(n.inst.node)?;
                work.push((f, n.inst.at, n.part));
            }
        }
        let mut count = 0u64;
        while let Some((func, at, part)) = work.pop() {
            if !seen.insert((at, part)) {
                continue;
            }
            for inst in self.executions_unordered(func, at)? {
                let node = Node { inst, part };
                let start = self.arena.len();
                self.find_deps(node)?;
                for i in start..self.arena.len() {
                    if let Source::Node(m) = self.arena[i].from {
                        if !seen.contains(&(m.inst.at, m.part)) {
                            let g = self.dcg.nodes[m.inst.node as usize].func;
                            work.push((g, m.inst.at, m.part));
                        }
                    }
                }
                f(func, at, part, node, &self.arena[start..]);
                count += 1;
                self.arena.truncate(start);
            }
        }
        Ok(count)
    }

    /// Every execution of the instruction at `at` of function `f`, invocation by
    /// invocation.
    fn executions_unordered(&mut self, f: FuncIdx, at: u32) -> Result<Vec<Inst>, Error> {
        let (b, _) = self.stmts(f)?.find(at).ok_or(Error::NoInstruction { func: f, at })?;
        let mut out = Vec::new();
        for node in self.invocations.get(&f).cloned().unwrap_or_default() {
            let key = self.view_of(node)?;
            let view = &self.views[&key];
            if let Some(&(head, _)) = view.place.get(&BlockIdx(b as u32)) {
                out.extend(view.steps[&head].iter().map(|&step| Inst { node, step, at }));
            }
        }
        Ok(out)
    }

    /// How many times the instruction at `at` of function `f` ran (without listing the
    /// executions).
    fn execution_count(&mut self, f: FuncIdx, at: u32) -> Result<u64, Error> {
        let (b, _) = self.stmts(f)?.find(at).ok_or(Error::NoInstruction { func: f, at })?;
        let mut n = 0u64;
        for node in self.invocations.get(&f).cloned().unwrap_or_default() {
            let key = self.view_of(node)?;
            let view = &self.views[&key];
            n += view.place.get(&BlockIdx(b as u32)).map_or(0, |(head, _)| view.steps[head].len() as u64);
        }
        Ok(n)
    }

    /// Every execution of the instruction at `at` of function `f`, in run order.
    pub fn executions(&mut self, f: FuncIdx, at: u32) -> Result<Vec<Inst>, Error> {
        let execs = self.executions_unordered(f, at)?;
        let mut keyed = Vec::with_capacity(execs.len());
        let mut up: Option<(u32, RunKey)> = None;
        for inst in execs {
            if up.as_ref().is_none_or(|(n, _)| *n != inst.node) {
                up = Some((inst.node, self.run_position(inst.node)?));
            }
            let pos = self.locate(inst)?.pos;
            let mut key = up.as_ref().expect("set above").1.clone();
            key.push((inst.step, pos, inst.at));
            keyed.push((key, inst));
        }
        keyed.sort_unstable();
        Ok(keyed.into_iter().map(|(_, i)| i).collect())
    }

    /// Where invocation `node` started in the run, as the positions (timestamp, chain
    /// position, then `u32::MAX`: after the block's instructions) of the calls leading to
    /// it from its root, the root's index first: in run order, an execution's position
    /// followed by its own (timestamp, position, offset) compares as the executions ran
    /// (a block's instructions run in the order of their offsets, and a call ends its
    /// block; a tail call comes after everything its caller ran).
    fn run_position(&mut self, node: u32) -> Result<RunKey, Error> {
        let mut up = Vec::new();
        let mut cur = node;
        while let Some((caller, call)) = self.parent[cur as usize] {
            if self.dcg.calls[call as usize].tail {
                up.push((u32::MAX, u32::MAX, u32::MAX));
            } else {
                let inst = self.call_inst(caller, call)?;
                let p = self.locate(inst)?;
                up.push((inst.step, p.pos, u32::MAX));
            }
            cur = caller;
        }
        let root = self.dcg.roots.iter().position(|&r| r == cur).unwrap_or(usize::MAX) as u32;
        up.push((root, 0, 0));
        up.reverse();
        Ok(up)
    }

    /// Blocks run before each timestamp of a trace (index `step - 1`), and in all.
    fn blocks_before(&mut self, key: (FuncIdx, u32)) -> &Vec<u64> {
        let view = &self.views[&key];
        self.blocks_before.entry(key).or_insert_with(|| {
            let mut v = Vec::with_capacity(view.len as usize + 1);
            let mut n = 0u64;
            for step in 1..=view.len {
                v.push(n);
                n += view.chains[&view.head_at(step)].len() as u64;
            }
            v.push(n);
            v
        })
    }

    /// The execution of the instruction at `at` in the `index`-th block invocation `node`
    /// ran (the inverse of [`Slicer::block_index`], for checks).
    pub fn at_block_index(&mut self, node: u32, index: u64, at: u32) -> Result<Inst, Error> {
        let key = self.view_of(node)?;
        let before = self.blocks_before(key);
        if index >= *before.last().expect("one past the last") {
            return Err(Error::NotRun { func: key.0, at });
        }
        let step = before.partition_point(|&b| b <= index) as u32;
        Ok(Inst { node, step, at })
    }

    /// The index of the execution's block among the blocks its invocation ran (what a
    /// block-by-block walk of the run counts, for checks).
    pub fn block_index(&mut self, inst: Inst) -> Result<u64, Error> {
        let p = self.locate(inst)?;
        Ok(self.blocks_before((p.func, p.pair))[inst.step as usize - 1] + p.pos as u64)
    }
}
