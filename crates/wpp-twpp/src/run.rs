//! One run's view of a TWPP, shared by the analyses that walk it (the demand-driven data
//! flow queries of `dataflow` and the slicer of `slice`): the dynamic
//! call graph with each invocation's caller and subtree, each function's invocations, the
//! function parts read lazily (once each), and each distinct trace in timestamped form
//! ([`TraceView`]) with its call occurrences, and the callee invocation of a call.
//!
//! The work is proportional to what the analyses touch: a function's part is read when one
//! of its traces is first asked for, and a trace is put in timestamped form once.

use rustc_hash::FxHashMap;
use wpp_base::IndexVec;
use wpp_model::{BlockIdx, Cfg, FuncIdx, FuncMap, Function};
use wpp_paths::ProgramNumbering;

use crate::dbb::Dictionary;
use crate::format::FunctionPart;
use crate::timestamps::untimestamp;
use crate::{Dcg, Invocation, Twpp};

/// What a query needs that is wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    #[error(transparent)]
    File(#[from] crate::file::Error),
    #[error("function {0} has no code")]
    NoCode(FuncIdx),
    #[error("function {func} has no block {block}")]
    NoBlock { func: FuncIdx, block: BlockIdx },
    #[error("function {func} has no instruction at {at:#x}")]
    NoInstruction { func: FuncIdx, at: u32 },
    #[error("the instruction at {at:#x} of function {func} did not run there")]
    NotRun { func: FuncIdx, at: u32 },
    /// A slice stopped at its memory limit (`Slicer::limit_memory`).
    #[error("the slice outgrew the memory allowed it: {} MiB in use after {nodes} of its executions, over the limit of {} MiB", .used >> 20, .limit >> 20)]
    OverMemory { used: u64, limit: u64, nodes: u64 },
}

impl Error {
    /// Whether wpp failed rather than its input.
    pub fn is_failure(&self) -> bool {
        matches!(self, Error::File(e) if e.is_failure())
    }
}

/// A call occurrence in a trace: the dynamic block's timestamp, the call block's position
/// in its chain, and the index of the path the call ends.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CallSite {
    pub(crate) step: u32,
    pub(crate) pos: u32,
    pub(crate) path: u32,
    pub(crate) head: BlockIdx,
}

/// One distinct trace of a function in timestamped form, with its call occurrences.
pub(crate) struct TraceView {
    /// Each block that ran: the head of its dynamic block and its position in the chain.
    pub(crate) place: FxHashMap<BlockIdx, (BlockIdx, u32)>,
    /// Each head's timestamps.
    pub(crate) steps: FxHashMap<BlockIdx, Vec<u32>>,
    pub(crate) calls: Vec<CallSite>,
    /// Each dynamic block's blocks.
    pub(crate) chains: FxHashMap<BlockIdx, Vec<BlockIdx>>,
    /// Steps of the trace.
    pub(crate) len: u32,
    /// The dynamic block that ran at each step (from 1, at index `step - 1`).
    pub(crate) heads: Vec<BlockIdx>,
    /// Which blocks of the function end in a call.
    pub(crate) call_blocks: Vec<bool>,
}

impl TraceView {
    pub(crate) fn is_call(&self, b: BlockIdx) -> bool {
        self.call_blocks.get(b.idx()).copied().unwrap_or(false)
    }

    pub(crate) fn head_at(&self, step: u32) -> BlockIdx {
        self.heads[step as usize - 1]
    }

    pub(crate) fn new(part: &FunctionPart, pair: usize, cfg: &Cfg, numbering: &wpp_paths::Numbering) -> Option<TraceView> {
        let pair = part.pairs.get(pair)?;
        let ts = part.traces.get(pair.trace as usize)?;
        let dict: &Dictionary = part.dictionaries.get(pair.dictionary as usize)?;
        let heads = untimestamp(ts)?;
        let mut chains = FxHashMap::default();
        let mut place = FxHashMap::default();
        let mut steps: FxHashMap<BlockIdx, Vec<u32>> = FxHashMap::default();
        for (h, series) in &ts.blocks {
            let chain = dict.chain(*h).map_or_else(|| vec![*h], <[BlockIdx]>::to_vec);
            for (pos, &b) in chain.iter().enumerate() {
                place.insert(b, (*h, pos as u32));
            }
            chains.insert(*h, chain);
            steps.insert(*h, series.iter().flat_map(|s| s.steps()).collect());
        }
        // Walk the trace once to number its paths and find its calls.
        let path_ends = crate::file::PathEnds::new(cfg, numbering);
        let is_call = |b: BlockIdx| path_ends.is_call(b);
        let ends_path = |from: BlockIdx, to: BlockIdx| path_ends.ends(from, to);
        let mut calls = Vec::new();
        let mut path = 0u32;
        let mut prev: Option<BlockIdx> = None;
        for (t, h) in heads.iter().enumerate() {
            for (pos, &b) in chains.get(h)?.iter().enumerate() {
                if let Some(p) = prev {
                    if ends_path(p, b)? {
                        path += 1;
                    }
                }
                if is_call(b) {
                    calls.push(CallSite { step: t as u32 + 1, pos: pos as u32, path, head: *h });
                }
                prev = Some(b);
            }
        }
        let call_blocks = (0..cfg.n_blocks()).map(|b| is_call(BlockIdx(b as u32))).collect();
        Some(TraceView { place, steps, calls, chains, len: heads.len() as u32, heads, call_blocks })
    }
}

/// Where an execution comes in the run ([`RunView::run_key`]): keys compare as the
/// executions ran.
pub(crate) type RunKey = (u32, u32, u32, u32, u32);

/// A TWPP as the analyses walk it: the call graph and its links, and the traces read so far.
pub struct RunView<'a> {
    pub(crate) twpp: &'a Twpp,
    functions: &'a [Function],
    numberings: &'a ProgramNumbering,
    pub(crate) dcg: Dcg,
    /// Each invocation's caller and the call (an index into `dcg.calls`).
    parent: IndexVec<Invocation, Option<(Invocation, u32)>>,
    /// The first node of each node's subtree (post-order keeps a subtree together).
    subtree_start: IndexVec<Invocation, Invocation>,
    /// Each node's depth in the call graph (a root's is 0).
    depth: IndexVec<Invocation, u32>,
    /// Each function's invocations, in post-order.
    invocations: FuncMap<Vec<Invocation>>,
    parts: FxHashMap<FuncIdx, FunctionPart>,
    views: FxHashMap<(FuncIdx, u32), TraceView>,
}

impl<'a> RunView<'a> {
    /// Reads the call graph of `twpp`, recorded from a module with these functions and
    /// numberings; no function part is read yet.
    pub fn new(twpp: &'a Twpp, functions: &'a [Function], numberings: &'a ProgramNumbering) -> Result<RunView<'a>, Error> {
        let dcg = twpp.dcg()?;
        let n = dcg.nodes.len();
        let mut parent: IndexVec<Invocation, Option<(Invocation, u32)>> = IndexVec::from_elem(None, n);
        let mut subtree_start: IndexVec<Invocation, Invocation> = dcg.nodes.indices().collect();
        let mut invocations: FuncMap<Vec<Invocation>> = FuncMap::new(functions.len());
        for (i, node) in dcg.nodes.iter_enumerated() {
            for c in node.calls.clone() {
                let child = dcg.calls[c as usize].node;
                parent[child] = Some((i, c));
            }
            if let Some(first) = node.calls.clone().next() {
                subtree_start[i] = subtree_start[dcg.calls[first as usize].node];
            }
            match invocations.get_mut(node.func) {
                Some(v) => v.push(i),
                None => invocations.insert(node.func, vec![i]),
            }
        }
        // A caller comes after its callees in post-order.
        let mut depth: IndexVec<Invocation, u32> = IndexVec::from_elem(0, n);
        for i in dcg.nodes.indices().rev() {
            if let Some((caller, _)) = parent[i] {
                depth[i] = depth[caller] + 1;
            }
        }
        Ok(RunView { twpp, functions, numberings, dcg, parent, subtree_start, depth, invocations, parts: FxHashMap::default(), views: FxHashMap::default() })
    }

    /// The TWPP read.
    pub fn twpp(&self) -> &'a Twpp {
        self.twpp
    }

    /// The dynamic call graph.
    pub fn dcg(&self) -> &Dcg {
        &self.dcg
    }

    /// The invocations of `f`, in post-order (none for a function never invoked).
    pub fn invocations(&self, f: FuncIdx) -> &[Invocation] {
        self.invocations.get(f).map_or(&[], Vec::as_slice)
    }

    /// The functions invoked at least once, in index order.
    pub fn invoked(&self) -> impl Iterator<Item = FuncIdx> + '_ {
        self.invocations.iter().map(|(f, _)| f)
    }

    /// The caller of invocation `node` and the call that made it (an index into the call
    /// graph's calls); `None` for a root.
    pub fn parent(&self, node: Invocation) -> Option<(Invocation, u32)> {
        self.parent[node]
    }

    /// The first invocation of `node`'s subtree: the subtree is `subtree_start(node)..=node`
    /// in post-order.
    pub fn subtree_start(&self, node: Invocation) -> Invocation {
        self.subtree_start[node]
    }

    /// How many calls lead from a root to invocation `node`.
    pub fn depth(&self, node: Invocation) -> u32 {
        self.depth[node]
    }

    /// The error of a TWPP whose call graph and traces disagree.
    pub(crate) fn damaged(&self, what: String) -> Error {
        Error::File(crate::file::Error::Damaged { path: self.twpp.profile.path.clone(), what })
    }

    /// Distinct trace `pair` of `f` in timestamped form, read once.
    pub(crate) fn load(&mut self, f: FuncIdx, pair: u32) -> Result<&TraceView, Error> {
        if !self.views.contains_key(&(f, pair)) {
            if !self.parts.contains_key(&f) {
                self.parts.insert(f, self.twpp.function(f)?);
            }
            let cfg = self.functions.get(f.idx()).and_then(|fun| fun.cfg.as_ref()).ok_or(Error::NoCode(f))?;
            let numbering = self.numberings.get(f).ok_or(Error::NoCode(f))?;
            let view = TraceView::new(&self.parts[&f], pair as usize, cfg, numbering).ok_or_else(|| self.damaged(format!("function {f}: trace {pair}")))?;
            self.views.insert((f, pair), view);
        }
        Ok(&self.views[&(f, pair)])
    }

    /// Reads the trace of invocation `node`; its function and distinct trace.
    pub(crate) fn load_node(&mut self, node: Invocation) -> Result<(FuncIdx, u32), Error> {
        let n = self.dcg.nodes.get(node).ok_or_else(|| self.damaged(format!("no invocation {node}")))?;
        let (f, pair) = (n.func, n.trace.0);
        self.load(f, pair)?;
        Ok((f, pair))
    }

    /// A trace already read ([`RunView::load`]).
    pub(crate) fn trace(&self, f: FuncIdx, pair: u32) -> &TraceView {
        &self.views[&(f, pair)]
    }

    /// The callee invocation of the call that ends path `path` (counted from 0 in the
    /// invocation's trace) of invocation `node`; `None` for an import or a tail call.
    pub(crate) fn callee_after_path(&self, node: Invocation, path: u32) -> Option<Invocation> {
        let n = &self.dcg.nodes[node];
        let calls = &self.dcg.calls[n.calls.start as usize..n.calls.end as usize];
        let i = calls.partition_point(|c| c.at < path + 1);
        calls.get(i).filter(|c| c.at == path + 1 && !c.tail).map(|c| c.node)
    }

    /// Where the execution of the instruction at `at` in the block at chain position `pos`
    /// of timestamp `step` of invocation `node` (whose trace is `view`) comes in the run.
    ///
    /// The key's first part counts the invocations that returned before it: in post-order
    /// (the call graph's numbering) those are the nodes up to the last callee `node` called
    /// before it, or, when it called none yet, the nodes before its subtree. A later
    /// execution never has fewer. Two executions with the same count ran with no return
    /// between them, so their invocations are one inside the other (or the same): the
    /// deeper one ran later, and within one invocation the timestamp, the chain position
    /// and the offset order them (a call ends its block, so a block's instructions run
    /// before its callee; a tail call comes after everything its caller ran and never
    /// counts as called before).
    pub(crate) fn run_key(&self, view: &TraceView, node: Invocation, step: u32, pos: u32, at: u32) -> RunKey {
        let k = view.calls.partition_point(|s| (s.step, s.pos) < (step, pos));
        let n = &self.dcg.nodes[node];
        let calls = &self.dcg.calls[n.calls.start as usize..n.calls.end as usize];
        let callee = k.checked_sub(1).and_then(|k| {
            let i = calls.partition_point(|c| c.at <= view.calls[k].path + 1);
            calls[..i].iter().rev().find(|c| !c.tail)
        });
        let returned = callee.map_or(self.subtree_start[node].0, |c| c.node.0 + 1);
        (returned, self.depth[node], step, pos, at)
    }

    /// The invocation's tail call, if it ended with one into the module.
    pub(crate) fn tail_callee(&self, node: Invocation) -> Option<Invocation> {
        let n = &self.dcg.nodes[node];
        n.calls.clone().last().map(|c| self.dcg.calls[c as usize]).filter(|c| c.tail).map(|c| c.node)
    }
}
