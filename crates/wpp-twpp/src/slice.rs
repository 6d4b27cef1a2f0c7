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

use crate::memory::{LoadDeps, Memory, Written};
use crate::run::{Error, RunKey, RunView, TraceView};
use crate::{Dcg, Invocation, Twpp};

mod cache;
mod closure;
mod executed;
mod graph;
mod memory_step;
mod registers;
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
    pub node: Invocation,
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
/// How a slice measures the memory the process holds, in bytes (`None`: unknown).
pub type MemoryMeter = fn() -> Option<u64>;

/// How many executions a slice finds between two checks of its memory.
pub const MEMORY_CHECK_EVERY: u64 = 1 << 16;

pub struct Slicer<'a> {
    run: RunView<'a>,
    program: Program<'a>,
    /// Sorted (timestamp, chain position) of the executions of the blocks a key names.
    lists: FxHashMap<(FuncIdx, u32, Key), Vec<(u32, u32)>>,
    /// The latest definition of a global in an invocation or anything it called.
    defined_below: FxHashMap<(Invocation, u32), Option<Source>>,
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
    /// How many times each block of a function ran, counted when first asked.
    block_runs: FxHashMap<FuncIdx, Vec<u64>>,
    /// The run's memory dependences, when followed.
    memory: Option<&'a Memory>,
    /// The most memory a slice may hold the process at, and how to measure what it does.
    memory_limit: Option<(u64, MemoryMeter)>,
    /// Each load's dependences, decoded when first reached.
    loads: FxHashMap<wpp_model::SiteIdx, LoadDeps>,
    /// The executions of instructions that read or write memory, in run order, and for
    /// those that read, each execution's place in it.
    orders: FxHashMap<(FuncIdx, u32), RunOrder>,
    /// Approach 1: each function's executed blocks, the run's calls, each global's
    /// executed definitions.
    executed: FxHashMap<FuncIdx, executed::Executed>,
    calls: Option<executed::Calls>,
    global_defs: FxHashMap<u32, Vec<StaticDep>>,
    /// Approach 2: the instructions each instruction's executions depended on.
    exercised: FxHashMap<(u32, Part), Vec<Statement>>,
}

/// An instruction (or a call's part) of a function, as approach 2 slices: the function,
/// the instruction's offset and the part.
pub type Statement = (FuncIdx, u32, Part);

/// An instruction's executions in run order.
#[derive(Default)]
struct RunOrder {
    list: Vec<Inst>,
    index: Option<FxHashMap<(Invocation, u32), u64>>,
}

impl<'a> Slicer<'a> {
    pub fn new(twpp: &'a Twpp, program: Program<'a>) -> Result<Slicer<'a>, Error> {
        let run = RunView::new(twpp, program.functions, program.numberings)?;
        let n = run.dcg().nodes.len();
        Ok(Slicer {
            run,
            program,
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
            block_runs: FxHashMap::default(),
            memory: None,
            memory_limit: None,
            loads: FxHashMap::default(),
            orders: FxHashMap::default(),
            executed: FxHashMap::default(),
            calls: None,
            global_defs: FxHashMap::default(),
            exercised: FxHashMap::default(),
        })
    }

    /// The dynamic call graph.
    pub fn dcg(&self) -> &Dcg {
        self.run.dcg()
    }

    /// How many nodes are known (reached by the queries so far and kept).
    pub fn known(&self) -> usize {
        self.graph.len()
    }

    /// Stops a slice with [`Error::OverMemory`] once the process holds more than `limit`
    /// bytes, as `used` measures them (the resident set, say): checked every
    /// [`MEMORY_CHECK_EVERY`] executions the slice finds, so that a slice too big for the
    /// machine ends with a clear error rather than in the kernel's out-of-memory killer.
    pub fn limit_memory(&mut self, limit: u64, used: MemoryMeter) {
        self.memory_limit = Some((limit, used));
    }

    /// The memory check after `nodes` executions found.
    #[inline]
    pub(crate) fn check_memory(&self, nodes: u64) -> Result<(), Error> {
        if nodes != 1 && !nodes.is_multiple_of(MEMORY_CHECK_EVERY) {
            return Ok(());
        }
        match self.memory_limit {
            Some((limit, used)) => match used() {
                Some(used) if used > limit => Err(Error::OverMemory { used, limit, nodes }),
                _ => Ok(()),
            },
            None => Ok(()),
        }
    }

    fn damaged(&self, what: String) -> Error {
        self.run.damaged(what)
    }

    /// Reads the trace of invocation `node` (once per distinct trace).
    fn view_of(&mut self, node: Invocation) -> Result<(FuncIdx, u32), Error> {
        let (f, pair) = self.run.load_node(node)?;
        if !self.dense.contains_key(&(f, pair)) {
            let view = self.run.trace(f, pair);
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
        let view = self.run.trace(func, pair);
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
}
