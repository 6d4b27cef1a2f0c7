//! Splitting a whole program path into per-call path traces and a dynamic call graph
//! (Zhang & Gupta §2, "Partitioning WPP into path traces" and "Eliminating redundant path
//! traces").
//!
//! Calls and returns are not events; they are read off the paths. A path ends at a block
//! whose way out ended it: a call, a loop back edge, a return (or tail call) or a trap.
//! What the next event's first block is tells which one was taken:
//!
//! - the last block ends in a call (its one edge is a [`EdgeKind::Call`] to the block after
//!   the call): a next path that starts at a function's entry block (block 0) is the
//!   callee's first path, so a new invocation begins; one that starts at the block after
//!   the call, in the same function, means the callee was an import (it records nothing).
//!   `call_indirect` needs nothing more: the callee is whoever's entry comes next.
//! - the last block has a back edge to the next path's first block, in the same function:
//!   another iteration of that loop (or a forward edge to it, cut there by the numbering).
//! - the last block can return: the invocation ends, and the next path is its caller's,
//!   starting at the block after the call; a path that starts at an entry block instead is
//!   a tail call (`return_call`), recorded as a call at the end of the returning
//!   invocation, whose own caller the callee returns to.
//! - the last block has a catch edge to the next path's first block, in the same function:
//!   the invocation goes on in a handler (a `throw` caught in the function, or after a call
//!   of an import that threw).
//! - the last block ends in `throw` or `throw_ref` that may leave the function: the
//!   exception unwinds invocations, innermost first, until one whose pending call has a
//!   catch edge to the next path's first block (the handler), or one that resumes there
//!   after its call (its callee caught the exception and returned). An unwound invocation
//!   ends as at a return. Of several frames of one function that could catch, the
//!   innermost is chosen, as an exception is caught by the innermost handler; two catch
//!   clauses of different tags that land on one label in frames of one function cannot be
//!   told apart, and the innermost is then wrong.
//! - nothing follows: the run ended (an exit, a trap, an uncaught exception, a stop);
//!   every open invocation ends.
//!
//! One case cannot be told apart from the next event alone: a block with both a back edge
//! to a loop header H and a return (a `br_table` to a loop and out of the function), in a
//! recursive function whose caller continues at H after the call. The loop is chosen, and
//! [`Partition::ambiguous`] counts such choices; a wrong one shows later as an event that
//! cannot follow. Deciding it needs both readings carried until one fails.

use std::ops::Range;

use rustc_hash::FxHashMap;
use wpp_base::IndexVec;
use wpp_model::{BlockIdx, EdgeKind, FuncIdx, FuncMap, Function, PathEvent, PathId, Target};
use wpp_paths::ProgramNumbering;

/// A distinct path trace of one function: an index into its [`FuncTraces::traces`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TraceIdx(pub u32);

/// One function's distinct path traces, in order of first appearance, and how many
/// invocations followed each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncTraces {
    pub traces: Vec<Vec<PathId>>,
    pub calls: Vec<u64>,
}

wpp_base::index! {
    /// An invocation of the run: an index into [`Dcg::nodes`], which lists them in
    /// post-order (callees before their caller).
    pub struct Invocation(u32); bare_debug
}

/// A call from one invocation to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call {
    /// How many of the caller's paths ran before the call: the callee's events come right
    /// after path `at - 1` of the caller's trace (for a tail call, after the last).
    pub at: u32,
    /// The callee's invocation.
    pub node: Invocation,
    /// A tail call: the callee returns to the caller's caller.
    pub tail: bool,
}

/// One invocation: its function, its path trace, and the calls it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DcgNode {
    pub func: FuncIdx,
    pub trace: TraceIdx,
    /// Its calls, in order, as a range of [`Dcg::calls`].
    pub calls: Range<u32>,
}

/// The dynamic call graph: every invocation of the run, in post-order (callees before
/// their caller), and the invocations the host made (normally one, `_start`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dcg {
    pub nodes: IndexVec<Invocation, DcgNode>,
    pub calls: Vec<Call>,
    pub roots: Vec<Invocation>,
}

/// A whole program path reorganised by call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Partition {
    pub traces: FuncMap<FuncTraces>,
    pub dcg: Dcg,
    /// Path events read.
    pub events: u64,
    /// Invocations open when the trace ended, ended there: at least the outermost one (a
    /// return shows only in the event after it), and every one the run was inside of when
    /// it exited, trapped or was stopped.
    pub open_at_end: u64,
    /// Choices between a loop iteration and a return the events could not decide (see the
    /// module documentation).
    pub ambiguous: u64,
}

/// Events that no run of the program could produce.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PartitionError {
    #[error("event {event}: function {func} has no paths (an import, or no such function)")]
    NoFunction { event: u64, func: FuncIdx },
    #[error("event {event}: function {func} has no path {path}")]
    NoPath { event: u64, func: FuncIdx, path: PathId },
    #[error("event {event}: path {path} of function {func} cannot follow the path before it (which ended at block {after} of function {after_func})")]
    CannotFollow { event: u64, func: FuncIdx, path: PathId, after_func: FuncIdx, after: BlockIdx },
    #[error("event {event}: the run starts with path {path} of function {func}, which does not start at the function's entry")]
    StartsMidFunction { event: u64, func: FuncIdx, path: PathId },
}

/// How each block of a function can end a path.
#[derive(Clone, Debug, Default)]
pub struct BlockEnd {
    /// The block after the call, for a block ending in a call.
    pub call: Option<BlockIdx>,
    /// Where the function goes on after a path ends here: the headers its back edges go
    /// to, and the blocks its forward edges go to when those are cut points.
    pub back: Vec<BlockIdx>,
    /// Whether it can return (or tail call).
    pub ret: bool,
    /// The handlers its catch edges go to (after a call or a `throw`).
    pub catch: Vec<BlockIdx>,
    /// Whether an exception can leave the function from it (a `throw` no clause of the
    /// function is sure to catch, or one caught by a clause that leaves the function).
    pub unwinds: bool,
}

/// Every block's [`BlockEnd`], by block index, read off the CFG's edge kinds and the
/// numbering's cut points.
pub fn block_ends(cfg: &wpp_model::Cfg, numbering: &wpp_paths::Numbering) -> Vec<BlockEnd> {
    let mut ends = vec![BlockEnd::default(); cfg.n_blocks()];
    let cut = numbering.cut_points();
    for e in &cfg.edges {
        let end = &mut ends[e.from.idx()];
        match (e.kind, e.to) {
            (EdgeKind::Call, Target::Block(t)) => end.call = Some(t),
            (EdgeKind::Back, Target::Block(t)) => end.back.push(t),
            (EdgeKind::Forward, Target::Block(t)) if cut.contains(&t) => end.back.push(t),
            (EdgeKind::Return, _) => end.ret = true,
            (EdgeKind::Catch, Target::Block(t)) => end.catch.push(t),
            (EdgeKind::Catch | EdgeKind::Throw, Target::Exit) => end.unwinds = true,
            _ => {}
        }
    }
    ends
}

/// How a run goes on from one path to the next, as far as the two paths tell: the one
/// classification of calls and returns between consecutive paths, which [`Calls`] (and
/// with it the partition and the calling context tree) and the data flow frequencies on
/// the grammar build on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Link {
    /// The first path ended in a call and the second begins the callee (`call`,
    /// `call_indirect`).
    Call,
    /// The first path ended in a call of an import, and the second goes on after it.
    Import,
    /// The same invocation goes on: another iteration of a loop, or past a cut point.
    Loop,
    /// The first path's invocation returned; the second is its caller's, resuming after
    /// its call (which only the stack of open invocations can check).
    Return,
    /// The first path's invocation returned by calling the second's function
    /// (`return_call`).
    TailCall,
    /// The first path ended where an exception was thrown (or a call of an import that
    /// threw) and the same invocation goes on in a handler.
    Catch,
    /// The first path ended in a `throw` that left its invocation: the second is the
    /// handler (or resumption) of some invocation below, which only the stack of open
    /// invocations can tell.
    Unwind,
}

/// How a path ending at a block with ways out `end`, in function `from`, goes on to a
/// path of function `to` that starts at block `first`; `None` if no run goes on so. A
/// block with both a back edge to `first` and a return reads as [`Link::Loop`] (see the
/// module documentation).
pub fn link(end: &BlockEnd, from: FuncIdx, to: FuncIdx, first: BlockIdx) -> Option<Link> {
    let entry = first == BlockIdx(0);
    if let Some(after_call) = end.call {
        if entry {
            Some(Link::Call)
        } else if to == from && first == after_call {
            Some(Link::Import)
        } else if to == from && end.catch.contains(&first) {
            Some(Link::Catch)
        } else {
            None
        }
    } else if to == from && end.back.contains(&first) {
        Some(Link::Loop)
    } else if to == from && end.catch.contains(&first) {
        Some(Link::Catch)
    } else if end.ret {
        Some(if entry { Link::TailCall } else { Link::Return })
    } else if end.unwinds {
        // Nothing is called after a throw: a path at an entry block is a handler there.
        Some(Link::Unwind)
    } else {
        None
    }
}

/// One function's block ends and its paths' first and last blocks (decoded once each).
struct Shape<'a> {
    ends: Vec<BlockEnd>,
    numbering: &'a wpp_paths::Numbering,
    paths: FxHashMap<u64, (BlockIdx, BlockIdx)>,
}

/// What one event did to the stack of open invocations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// The run's first invocation began (the host called it).
    Root,
    /// The top invocation called the event's function, which began; a tail call when the
    /// caller returned by calling it.
    Call { tail: bool },
    /// The top invocation went on (a loop iteration, or after calling an import).
    Continue,
    /// The top invocation returned, and with it the `ended - 1` invocations below it that
    /// were waiting on it after tail calls; the event is the next caller's. An exception
    /// that unwinds invocations ends them so too: `ended` counts them all.
    Return { ended: u32 },
}

/// An invocation not yet ended, as [`Calls`] tracks it.
struct Open {
    func: FuncIdx,
    /// The last block of its last path.
    last: BlockIdx,
    /// It returned by a tail call and ends when its callee does.
    tail_called: bool,
}

/// Reads calls and returns off a stream of path events, one at a time, in the memory of
/// the open invocations: the classification the module documentation describes, which
/// [`Partitioner`] and the calling context tree (module `stacks`) build on.
pub struct Calls<'a> {
    shapes: FuncMap<Shape<'a>>,
    stack: Vec<Open>,
    events: u64,
    ambiguous: u64,
}

impl<'a> Calls<'a> {
    /// A tracker for runs of the program whose functions are `functions` (by index),
    /// numbered by `numberings`.
    pub fn new(functions: &[Function], numberings: &'a ProgramNumbering) -> Calls<'a> {
        let mut shapes = FuncMap::new(functions.len());
        for f in functions {
            let (Some(cfg), Some(numbering)) = (&f.cfg, numberings.get(f.index)) else { continue };
            let ends = block_ends(cfg, numbering);
            shapes.insert(f.index, Shape { ends, numbering, paths: FxHashMap::default() });
        }
        Calls { shapes, stack: Vec::new(), events: 0, ambiguous: 0 }
    }

    /// Events read.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Choices between a loop iteration and a return the events could not decide.
    pub fn ambiguous(&self) -> u64 {
        self.ambiguous
    }

    /// Invocations open now, innermost last.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// The first and last block of a path.
    fn ends_of(&mut self, e: PathEvent) -> Result<(BlockIdx, BlockIdx), PartitionError> {
        let event = self.events;
        let shape = self.shapes.get_mut(e.func).ok_or(PartitionError::NoFunction { event, func: e.func })?;
        if let Some(&fl) = shape.paths.get(&e.path.0) {
            return Ok(fl);
        }
        let blocks = shape.numbering.decode(e.path).map_err(|_| PartitionError::NoPath { event, func: e.func, path: e.path })?;
        let fl = (blocks[0], *blocks.last().expect("a path has a block"));
        shape.paths.insert(e.path.0, fl);
        Ok(fl)
    }

    /// Reads the next event: what it did, or why no run could produce it.
    pub fn push(&mut self, e: PathEvent) -> Result<Move, PartitionError> {
        let (first, last) = self.ends_of(e)?;
        let event = self.events;
        let cannot_follow = |f: &Open| PartitionError::CannotFollow { event, func: e.func, path: e.path, after_func: f.func, after: f.last };
        let starts_mid_function = PartitionError::StartsMidFunction { event, func: e.func, path: e.path };
        let entry = first == BlockIdx(0);
        let step = match self.stack.last() {
            None if entry => Move::Root,
            None => return Err(starts_mid_function),
            Some(top) => {
                let end = &self.shapes.get(top.func).expect("a frame's function has a shape").ends[top.last.idx()];
                match link(end, top.func, e.func, first) {
                    Some(Link::Call) => Move::Call { tail: false },
                    Some(Link::Import | Link::Catch) => Move::Continue,
                    Some(Link::Unwind) => return self.unwind(e, first, last),
                    Some(Link::Loop) => {
                        // Returning to a caller of the same function that continues at
                        // this very header would look the same.
                        if end.ret && self.resumes_caller_at(e.func, first) {
                            self.ambiguous += 1;
                        }
                        Move::Continue
                    }
                    Some(Link::TailCall) => Move::Call { tail: true },
                    Some(Link::Return) => Move::Return { ended: 0 },
                    None => return Err(cannot_follow(top)),
                }
            }
        };
        let step = match step {
            Move::Root => {
                self.stack.push(Open { func: e.func, last, tail_called: false });
                step
            }
            Move::Call { tail } => {
                self.stack.last_mut().expect("a caller").tail_called = tail;
                self.stack.push(Open { func: e.func, last, tail_called: false });
                step
            }
            Move::Continue => step,
            Move::Return { .. } => {
                let ended = self.leave();
                let Some(caller) = self.stack.last() else { return Err(starts_mid_function) };
                let resumes = self.shapes.get(caller.func).expect("a frame's function has a shape").ends[caller.last.idx()].call;
                if caller.func != e.func || resumes != Some(first) {
                    return Err(cannot_follow(caller));
                }
                Move::Return { ended }
            }
        };
        self.stack.last_mut().expect("a frame is open").last = last;
        self.events += 1;
        Ok(step)
    }

    /// An exception left the top invocation: ends invocations until one of `e`'s function
    /// has a catch edge to `first` from its pending call or resumes there after it.
    fn unwind(&mut self, e: PathEvent, first: BlockIdx, last: BlockIdx) -> Result<Move, PartitionError> {
        let event = self.events;
        let thrower = self.stack.last().map(|f| (f.func, f.last)).expect("a frame threw");
        let mut ended = 0;
        loop {
            ended += self.leave();
            let Some(frame) = self.stack.last() else {
                return Err(PartitionError::CannotFollow { event, func: e.func, path: e.path, after_func: thrower.0, after: thrower.1 });
            };
            let end = &self.shapes.get(frame.func).expect("a frame's function has a shape").ends[frame.last.idx()];
            if frame.func == e.func && (end.catch.contains(&first) || end.call == Some(first)) {
                break;
            }
        }
        self.stack.last_mut().expect("the catching frame").last = last;
        self.events += 1;
        Ok(Move::Return { ended })
    }

    /// Whether the frame below the top is of `func` and resumes at `block` after its call.
    fn resumes_caller_at(&self, func: FuncIdx, block: BlockIdx) -> bool {
        let mut frames = self.stack.iter().rev().skip(1).skip_while(|f| f.tail_called);
        match frames.next() {
            Some(caller) => caller.func == func && self.shapes.get(func).is_some_and(|s| s.ends[caller.last.idx()].call == Some(block)),
            None => false,
        }
    }

    /// Ends the top invocation and the tail-calling invocations waiting on it; how many.
    fn leave(&mut self) -> u32 {
        let mut ended = 0;
        while self.stack.pop().is_some() {
            ended += 1;
            if !self.stack.last().is_some_and(|f| f.tail_called) {
                break;
            }
        }
        ended
    }

    /// At the end of the run: ends the top invocation and those waiting on it, and says
    /// how many ended (`None` once none is open).
    pub fn end_one(&mut self) -> Option<u32> {
        (!self.stack.is_empty()).then(|| self.leave())
    }
}

/// An invocation not yet ended: what the partition keeps of it.
struct Frame {
    func: FuncIdx,
    trace: Vec<PathId>,
    calls: Vec<Call>,
}

/// Splits a stream of path events, one at a time, in the memory of the open invocations
/// and the distinct traces.
pub struct Partitioner<'a> {
    calls: Calls<'a>,
    stack: Vec<Frame>,
    /// Each function's distinct traces by their hash (a trace is kept once, in `out`).
    interned: FuncMap<FxHashMap<u64, Vec<TraceIdx>>>,
    out: Partition,
}

impl<'a> Partitioner<'a> {
    /// A partitioner for runs of the program whose functions are `functions` (by index),
    /// numbered by `numberings`.
    pub fn new(functions: &[Function], numberings: &'a ProgramNumbering) -> Partitioner<'a> {
        let n = functions.len();
        let mut traces = FuncMap::new(n);
        let mut interned = FuncMap::new(n);
        for f in functions {
            if f.cfg.is_some() && numberings.get(f.index).is_some() {
                traces.insert(f.index, FuncTraces::default());
                interned.insert(f.index, FxHashMap::default());
            }
        }
        Partitioner { calls: Calls::new(functions, numberings), stack: Vec::new(), interned, out: Partition { traces, ..Partition::default() } }
    }

    /// Reads the next event.
    pub fn push(&mut self, e: PathEvent) -> Result<(), PartitionError> {
        match self.calls.push(e)? {
            Move::Root => self.enter(e.func, None),
            Move::Call { tail } => self.enter(e.func, Some(tail)),
            Move::Continue => {}
            Move::Return { ended } => self.leave(ended),
        }
        let top = self.stack.last_mut().expect("a frame is open");
        top.trace.push(e.path);
        self.out.events += 1;
        Ok(())
    }

    /// Opens an invocation of `func`, called by the top frame (`Some(tail)`) or the host.
    fn enter(&mut self, func: FuncIdx, called: Option<bool>) {
        if let (Some(tail), Some(caller)) = (called, self.stack.last_mut()) {
            // Its node index is fixed when it ends; `node` is filled in then.
            caller.calls.push(Call { at: caller.trace.len() as u32, node: Invocation(u32::MAX), tail });
        }
        self.stack.push(Frame { func, trace: Vec::new(), calls: Vec::new() });
    }

    /// Ends the `ended` top invocations (one, and those waiting on it after tail calls).
    fn leave(&mut self, ended: u32) {
        for _ in 0..ended {
            let frame = self.stack.pop().expect("a frame to leave");
            let node = self.finish_frame(frame);
            match self.stack.last_mut() {
                Some(caller) => caller.calls.last_mut().expect("the caller recorded the call").node = node,
                None => self.out.dcg.roots.push(node),
            }
        }
    }

    /// Interns a finished invocation's trace and appends its node.
    fn finish_frame(&mut self, frame: Frame) -> Invocation {
        let interned = self.interned.get_mut(frame.func).expect("a frame's function has traces");
        let traces = self.out.traces.get_mut(frame.func).expect("a frame's function has traces");
        let hash = {
            use std::hash::{Hash, Hasher};
            let mut h = rustc_hash::FxHasher::default();
            frame.trace.hash(&mut h);
            h.finish()
        };
        let candidates = interned.entry(hash).or_default();
        let trace = match candidates.iter().find(|t| traces.traces[t.0 as usize] == frame.trace) {
            Some(&t) => t,
            None => {
                traces.traces.push(frame.trace);
                traces.calls.push(0);
                let t = TraceIdx(traces.traces.len() as u32 - 1);
                candidates.push(t);
                t
            }
        };
        traces.calls[trace.0 as usize] += 1;
        let dcg = &mut self.out.dcg;
        let start = dcg.calls.len() as u32;
        debug_assert!(frame.calls.iter().all(|c| c.node != Invocation(u32::MAX)), "every callee ended before its caller");
        dcg.calls.extend(frame.calls);
        dcg.nodes.push(DcgNode { func: frame.func, trace, calls: start..dcg.calls.len() as u32 })
    }

    /// Ends the run: invocations still open end here.
    pub fn finish(mut self) -> Partition {
        while let Some(ended) = self.calls.end_one() {
            self.out.open_at_end += u64::from(ended);
            self.leave(ended);
        }
        self.out.ambiguous = self.calls.ambiguous();
        self.out
    }
}

/// Partitions a whole run's events.
pub fn partition(functions: &[Function], numberings: &ProgramNumbering, events: impl IntoIterator<Item = PathEvent>) -> Result<Partition, PartitionError> {
    let mut p = Partitioner::new(functions, numberings);
    for e in events {
        p.push(e)?;
    }
    Ok(p.finish())
}

impl Partition {
    /// The whole program path again: every invocation's paths, each call's events
    /// inserted where it was made.
    pub fn for_each_event(&self, mut f: impl FnMut(PathEvent)) {
        // (node, next path of its trace, next call of its calls)
        let mut stack: Vec<(Invocation, u32, u32)> = Vec::new();
        for &root in &self.dcg.roots {
            stack.push((root, 0, self.dcg.nodes[root].calls.start));
            while let Some(&mut (node, ref mut pos, ref mut call)) = stack.last_mut() {
                let n = &self.dcg.nodes[node];
                let trace = &self.traces.get(n.func).expect("a node's function has traces").traces[n.trace.0 as usize];
                if *call < n.calls.end && self.dcg.calls[*call as usize].at == *pos {
                    let callee = self.dcg.calls[*call as usize].node;
                    *call += 1;
                    stack.push((callee, 0, self.dcg.nodes[callee].calls.start));
                } else if (*pos as usize) < trace.len() {
                    f(PathEvent { func: n.func, path: trace[*pos as usize] });
                    *pos += 1;
                } else {
                    stack.pop();
                }
            }
        }
    }

    /// [`Partition::for_each_event`] into a vector.
    pub fn events(&self) -> Vec<PathEvent> {
        let mut v = Vec::new();
        self.for_each_event(|e| v.push(e));
        v
    }
}

/// Who called a function's invocations: a caller function, or the host (`None`).
pub type Caller = Option<FuncIdx>;

impl Dcg {
    /// For each distinct trace of `f` (by index), how many of the invocations that
    /// followed it each caller made, most first.
    pub fn callers(&self, f: FuncIdx) -> Vec<Vec<(Caller, u64)>> {
        let mut by_trace: Vec<rustc_hash::FxHashMap<Caller, u64>> = Vec::new();
        let mut note = |node: Invocation, caller: Caller| {
            let n = &self.nodes[node];
            if n.func == f {
                let t = n.trace.0 as usize;
                if by_trace.len() <= t {
                    by_trace.resize_with(t + 1, Default::default);
                }
                *by_trace[t].entry(caller).or_default() += 1;
            }
        };
        for &root in &self.roots {
            note(root, None);
        }
        for n in &self.nodes {
            for c in &self.calls[n.calls.start as usize..n.calls.end as usize] {
                note(c.node, Some(n.func));
            }
        }
        by_trace
            .into_iter()
            .map(|m| {
                let mut v: Vec<(Caller, u64)> = m.into_iter().collect();
                v.sort_by_key(|&(c, n)| (std::cmp::Reverse(n), c));
                v
            })
            .collect()
    }

    /// Calls `f` with every invocation (its node and its caller) in the order the run made
    /// them: pre-order, an invocation before its callees.
    pub fn in_order(&self, mut f: impl FnMut(Invocation, Caller)) {
        let mut stack: Vec<(Invocation, Caller)> = self.roots.iter().rev().map(|&r| (r, None)).collect();
        while let Some((node, caller)) = stack.pop() {
            f(node, caller);
            let d = &self.nodes[node];
            for c in self.calls[d.calls.start as usize..d.calls.end as usize].iter().rev() {
                stack.push((c.node, Some(d.func)));
            }
        }
    }

    /// Every invocation in the order the run made them, with its caller's function
    /// (`None` for a root): one pre-order walk of the graph.
    pub fn in_run_order(&self) -> Vec<(Invocation, Caller)> {
        let mut out = Vec::with_capacity(self.nodes.len());
        // Pre-order: an invocation starts before its callees.
        let mut stack: Vec<(Invocation, Caller)> = self.roots.iter().rev().map(|&r| (r, None)).collect();
        while let Some((node, caller)) = stack.pop() {
            out.push((node, caller));
            let d = &self.nodes[node];
            for c in self.calls[d.calls.start as usize..d.calls.end as usize].iter().rev() {
                stack.push((c.node, Some(d.func)));
            }
        }
        out
    }
}
