//! Profile-limited, demand-driven data flow over a TWPP (Zhang & Gupta §4).
//!
//! A query ⟨T, n⟩_d asks, for every execution of a program point `n` in the run (its
//! timestamps T in each distinct trace of its function), what the fact `d` was just
//! before it: which definition of a variable reached it ([`Fact::Reaching`]), or whether
//! the bytes a load reads were already loaded or stored at the same address expression
//! with nothing in between that may have changed them ([`Fact::Available`]: the load is
//! redundant). Each execution's answer is the nearest point before it, on the run's path,
//! that generates or kills `d`.
//!
//! The search runs backward on the timestamp-annotated dynamic CFG of each distinct trace
//! of the point's function, for all of the point's timestamps at once: the timestamps of
//! the dynamic blocks that hold a GEN or KILL of `d` (read off the blocks' [`Action`]s)
//! are merged into one ordered list, and each of the point's timestamps is resolved by
//! the latest of them that precedes it, skipping in one step the dynamic blocks between
//! that cannot answer. A call is a dynamic GEN/KILL point whose answer depends on the call
//! instance: it is answered from the callee's traces of exactly that invocation (the
//! dynamic call graph says which), and if the callee leaves `d` alone the search goes on
//! before the call. A timestamp that reaches the start of its invocation is answered by
//! what held at its entry: a local's parameter or zero, or — for facts that outlive a
//! frame (globals, memory at a constant or global address) — what held before the call in
//! the caller, up to the start of the run. Calls to imports leave variables alone and may
//! write any memory.
//!
//! The work is proportional to the point's executions in the distinct traces, the
//! executions of the GEN/KILL blocks there, and the calls of the invocations consulted,
//! never to the length of the run. [`oracle`]-style checks (a forward walk of the whole
//! run with shadow state per frame) live in the tests.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use wpp_model::effects::{Access, Action, Base, FuncEffects, Var};
use wpp_model::{BlockIdx, FuncIdx, FuncMap, Function};
use wpp_paths::ProgramNumbering;

pub use crate::run::Error;
use crate::run::{RunView, TraceView};
use crate::{Invocation, Twpp};

/// A data flow fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fact {
    /// The definition of a variable that holds: reaching definitions.
    Reaching(Var),
    /// The bytes of an access hold a value the program already loaded or stored there.
    Available(Access),
}

impl Fact {
    /// Whether the fact is the same in every frame (it names no local of one frame).
    fn outlives_frame(&self) -> bool {
        match self {
            Fact::Reaching(v) => matches!(v, Var::Global(_)),
            Fact::Available(a) => !matches!(a.base, Base::Var(Var::Local(_))),
        }
    }
}

/// Where a fact was generated or killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Site {
    /// The instruction at this byte offset of the module.
    At(u32),
    /// The invocation's entry: a local's parameter or zero; a local the address depends
    /// on getting its value.
    Entry,
    /// The start of the run: a global's initial value; memory nothing accessed before.
    Init,
    /// A call to an import, which may write any memory.
    Import,
}

/// What held just before one execution of the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resolution {
    /// Generated there: for [`Fact::Reaching`], the definition that reached; for
    /// [`Fact::Available`], the access that made the value available.
    Gen(Site),
    /// Killed there (only [`Fact::Available`]).
    Kill(Site),
}

/// A program point: before the instruction at byte offset `at` in `block` of `func` (an
/// offset past the block's instructions means its end, before any call it ends with).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub func: FuncIdx,
    pub block: BlockIdx,
    pub at: u32,
}

/// A query's answer: how many times the point executed, and what held each time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub executions: u64,
    pub by: BTreeMap<Resolution, u64>,
}

impl Answer {
    /// Executions at which the fact was generated (held).
    pub fn holds(&self) -> u64 {
        self.by.iter().filter(|(r, _)| matches!(r, Resolution::Gen(_))).map(|(_, n)| n).sum()
    }
}

/// The effect of one action on `fact`, in the query's frame or another one.
fn classify(fact: &Fact, action: &Action, same_frame: bool) -> Option<Resolution> {
    let at = Site::At(action.at());
    match (fact, action) {
        (Fact::Reaching(v), Action::Def { var, .. }) if v == var && (same_frame || matches!(v, Var::Global(_))) => Some(Resolution::Gen(at)),
        (Fact::Reaching(_), _) => None,
        (Fact::Available(a), Action::Def { var, .. }) => {
            let depends = a.base == Base::Var(*var) && (same_frame || matches!(var, Var::Global(_)));
            depends.then_some(Resolution::Kill(at))
        }
        (Fact::Available(a), Action::Load { access: b, .. }) => (comparable(a, same_frame) && b.covers(a)).then_some(Resolution::Gen(at)),
        (Fact::Available(a), Action::Store { access: b, .. }) => {
            if comparable(a, same_frame) && b.covers(a) {
                Some(Resolution::Gen(at))
            } else if b.memory == a.memory && (!comparable(a, same_frame) || b.may_overlap(a)) {
                Some(Resolution::Kill(at))
            } else {
                None
            }
        }
        (Fact::Available(a), Action::Clobber { memory, .. }) => (*memory == a.memory).then_some(Resolution::Kill(at)),
    }
}

/// Whether an access of this frame's code names the same address as `a` does: not when
/// `a`'s base is a local of another frame.
fn comparable(a: &Access, same_frame: bool) -> bool {
    same_frame || !matches!(a.base, Base::Var(Var::Local(_)))
}

/// The latest thing before a timestamp that answers a query, in one trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Before {
    Resolved(Resolution),
    /// After call occurrence `k` of the trace (its callee, or an import).
    Call(u32),
    /// Nothing: the invocation's entry.
    Entry,
}

/// What a block of a dynamic block does to one fact: its last GEN or KILL action, and
/// whether it ends in a call (which comes after its actions).
#[derive(Clone, Copy, Debug, Default)]
struct BlockItem {
    res: Option<Resolution>,
    call: bool,
}

/// The GEN/KILL points of one fact in one trace, and its calls: for each dynamic block
/// the items of its blocks; for each timestamp, the latest item of the dynamic block that
/// ran then (its chain position, and whether it is the call), and the latest earlier
/// timestamp that has one. A query is answered inside its own dynamic block or at one
/// step, however far back that is.
struct Points {
    items: FxHashMap<BlockIdx, Vec<BlockItem>>,
    /// By timestamp (index 0 unused): the dynamic block's latest item.
    last: Vec<Option<(u32, bool)>>,
    /// By timestamp (up to one past the last): the latest earlier timestamp with an item,
    /// 0 for none.
    prev: Vec<u32>,
}

impl Points {
    fn of(view: &TraceView, effects: &FuncEffects, fact: &Fact, same_frame: bool) -> Points {
        let mut items = FxHashMap::default();
        let mut last = vec![None; view.len as usize + 1];
        for (h, chain) in &view.chains {
            let its: Vec<BlockItem> = chain
                .iter()
                .map(|&b| BlockItem {
                    res: effects.blocks.get(b.idx()).and_then(|acts| acts.iter().rev().find_map(|a| classify(fact, a, same_frame))),
                    call: view.is_call(b),
                })
                .collect();
            // The chain's latest item: its last block with a call or an action.
            let latest = its.iter().enumerate().rev().find_map(|(pos, it)| match (it.call, it.res) {
                (true, _) => Some((pos as u32, true)),
                (false, Some(_)) => Some((pos as u32, false)),
                _ => None,
            });
            if let Some(l) = latest {
                for &t in &view.steps[h] {
                    last[t as usize] = Some(l);
                }
                items.insert(*h, its);
            }
        }
        let mut prev = vec![0u32; view.len as usize + 2];
        let mut running = 0;
        for (t, p) in prev.iter_mut().enumerate().skip(1) {
            *p = running;
            if last.get(t).is_some_and(Option::is_some) {
                running = t as u32;
            }
        }
        Points { items, last, prev }
    }

    /// The call occurrence at a timestamp and chain position.
    fn call(view: &TraceView, step: u32, pos: u32) -> Before {
        Before::Call(view.calls.partition_point(|c| (c.step, c.pos) < (step, pos)) as u32)
    }

    /// The latest point or call before `pos` of dynamic block `head` at timestamp `step`
    /// (its block at `pos` included when `after_actions`: before that block's call).
    fn before(&self, view: &TraceView, head: BlockIdx, step: u32, pos: u32, after_actions: bool) -> Before {
        if let Some(its) = self.items.get(&head) {
            if after_actions {
                if let Some(r) = its.get(pos as usize).and_then(|it| it.res) {
                    return Before::Resolved(r);
                }
            }
            for p in (0..(pos as usize).min(its.len())).rev() {
                let it = its[p];
                if it.call {
                    return Self::call(view, step, p as u32);
                }
                if let Some(r) = it.res {
                    return Before::Resolved(r);
                }
            }
        }
        self.at_step(view, self.prev[step as usize])
    }

    /// The latest item of timestamp `t` (0: the invocation's entry).
    fn at_step(&self, view: &TraceView, t: u32) -> Before {
        match self.last.get(t as usize).copied().flatten() {
            None => Before::Entry,
            Some((pos, true)) => Self::call(view, t, pos),
            Some((pos, false)) => {
                // Its latest item is an action, in the block at `pos`, of the chain that ran.
                let head = view.head_at(t);
                Before::Resolved(self.items[&head][pos as usize].res.expect("an action there"))
            }
        }
    }

    /// The latest point or call of the whole trace.
    fn last(&self, view: &TraceView) -> Before {
        self.at_step(view, self.prev[view.len as usize + 1])
    }

    /// The latest point or call before call occurrence `k` (its own block's actions
    /// included).
    fn before_call(&self, view: &TraceView, k: u32) -> Before {
        let c = view.calls[k as usize];
        self.before(view, c.head, c.step, c.pos, true)
    }
}

/// The program a TWPP was recorded from: its functions and CFGs, numberings, and the
/// effects of its blocks.
pub struct Program<'a> {
    pub functions: &'a [Function],
    pub numberings: &'a ProgramNumbering,
    pub effects: &'a FuncMap<FuncEffects>,
}

/// Answers queries on one TWPP, reading the function parts it needs once each.
pub struct Engine<'a> {
    run: RunView<'a>,
    effects: &'a FuncMap<FuncEffects>,
}

/// The state of one query: its fact, and the answers found for invocations so far.
struct Query<'q> {
    fact: &'q Fact,
    points: FxHashMap<(FuncIdx, u32, bool), Points>,
    /// Each invocation's effect on the fact, as a callee (`None`: leaves it alone).
    effect: FxHashMap<Invocation, Option<Resolution>>,
    /// What held at each invocation's entry (facts that outlive a frame).
    entry: FxHashMap<Invocation, Resolution>,
    /// What held after a call occurrence of an invocation, in its frame.
    after_call: FxHashMap<(Invocation, u32), Before>,
}

impl<'a> Engine<'a> {
    pub fn new(twpp: &'a Twpp, program: Program<'a>) -> Result<Engine<'a>, Error> {
        Ok(Engine { run: RunView::new(twpp, program.functions, program.numberings)?, effects: program.effects })
    }

    /// How many times each function was invoked.
    pub fn invocations(&self, f: FuncIdx) -> usize {
        self.run.invocations(f).len()
    }

    fn effects_of(&self, f: FuncIdx) -> Result<&'a FuncEffects, Error> {
        self.effects.get(f).ok_or(Error::NoCode(f))
    }

    fn ensure_points(&mut self, q: &mut Query, f: FuncIdx, pair: u32, same_frame: bool) -> Result<(), Error> {
        if !q.points.contains_key(&(f, pair, same_frame)) {
            let effects = self.effects_of(f)?;
            let view = self.run.load(f, pair)?;
            q.points.insert((f, pair, same_frame), Points::of(view, effects, q.fact, same_frame));
        }
        Ok(())
    }

    /// The callee of call occurrence `k` of invocation `node`, `None` for an import.
    fn callee(&self, node: Invocation, k: u32) -> Option<Invocation> {
        let n = &self.run.dcg.nodes[node];
        let path = self.run.trace(n.func, n.trace.0).calls[k as usize].path;
        self.run.callee_after_path(node, path)
    }

    /// The effect on the fact of a call to an import.
    fn import_effect(fact: &Fact) -> Option<Resolution> {
        match fact {
            Fact::Reaching(_) => None,
            Fact::Available(_) => Some(Resolution::Kill(Site::Import)),
        }
    }

    /// What an invocation, as a callee, leaves the fact as (`None`: alone).
    fn effect(&mut self, q: &mut Query, node: Invocation) -> Result<Option<Resolution>, Error> {
        if let Some(&e) = q.effect.get(&node) {
            return Ok(e);
        }
        // A subtree is contiguous in post-order, children first.
        for i in (self.run.subtree_start(node).0..=node.0).map(Invocation) {
            if !q.effect.contains_key(&i) {
                let e = self.effect_from_children(q, i)?;
                q.effect.insert(i, e);
            }
        }
        Ok(q.effect[&node])
    }

    /// [`Engine::effect`] of a node whose callees' effects are known.
    fn effect_from_children(&mut self, q: &mut Query, node: Invocation) -> Result<Option<Resolution>, Error> {
        let n = self.run.dcg.nodes[node].clone();
        if let Some(last) = n.calls.clone().last() {
            let c = self.run.dcg.calls[last as usize];
            if c.tail {
                if let Some(e) = q.effect[&c.node] {
                    return Ok(Some(e));
                }
            }
        }
        self.ensure_points(q, n.func, n.trace.0, false)?;
        let mut before = q.points[&(n.func, n.trace.0, false)].last(self.run.trace(n.func, n.trace.0));
        loop {
            match before {
                Before::Resolved(r) => return Ok(Some(r)),
                Before::Entry => return Ok(None),
                Before::Call(k) => {
                    let e = match self.callee(node, k) {
                        Some(callee) => q.effect[&callee],
                        None => Self::import_effect(q.fact),
                    };
                    if e.is_some() {
                        return Ok(e);
                    }
                    before = q.points[&(n.func, n.trace.0, false)].before_call(self.run.trace(n.func, n.trace.0), k);
                }
            }
        }
    }

    /// What held at `before` in invocation `node`, in its own frame, or `Entry` when the
    /// search reached the invocation's start. Calls that leave the fact alone are passed
    /// once per invocation: what held after each is remembered.
    fn resolve_in(&mut self, q: &mut Query, node: Invocation, before: Before) -> Result<Before, Error> {
        let Before::Call(mut k) = before else { return Ok(before) };
        let n = self.run.dcg.nodes[node].clone();
        let mut passed = Vec::new();
        let answer = loop {
            if let Some(&a) = q.after_call.get(&(node, k)) {
                break a;
            }
            passed.push(k);
            let e = match self.callee(node, k) {
                // A callee cannot touch a local of this frame: no need to look.
                Some(_) if matches!(q.fact, Fact::Reaching(Var::Local(_))) => None,
                Some(callee) => self.effect(q, callee)?,
                None => Self::import_effect(q.fact),
            };
            if let Some(r) = e {
                break Before::Resolved(r);
            }
            match q.points[&(n.func, n.trace.0, true)].before_call(self.run.trace(n.func, n.trace.0), k) {
                Before::Call(earlier) => k = earlier,
                done => break done,
            }
        };
        for k in passed {
            q.after_call.insert((node, k), answer);
        }
        Ok(answer)
    }

    /// What held at the entry of invocation `node`.
    fn entry(&mut self, q: &mut Query, node: Invocation) -> Result<Resolution, Error> {
        if !q.fact.outlives_frame() {
            return Ok(match q.fact {
                Fact::Reaching(_) => Resolution::Gen(Site::Entry),
                Fact::Available(_) => Resolution::Kill(Site::Entry),
            });
        }
        let init = match q.fact {
            Fact::Reaching(_) => Resolution::Gen(Site::Init),
            Fact::Available(_) => Resolution::Kill(Site::Init),
        };
        // Up the callers until one answers; every invocation on the way shares it.
        let mut chain = Vec::new();
        let mut cur = node;
        let answer = loop {
            if let Some(&r) = q.entry.get(&cur) {
                break r;
            }
            chain.push(cur);
            let Some((caller, call)) = self.run.parent(cur) else { break init };
            let c = self.run.dcg.calls[call as usize];
            let p = self.run.dcg.nodes[caller].clone();
            self.ensure_points(q, p.func, p.trace.0, true)?;
            let before = if c.tail {
                q.points[&(p.func, p.trace.0, true)].last(self.run.trace(p.func, p.trace.0))
            } else {
                let view = self.run.trace(p.func, p.trace.0);
                let k = view.calls.partition_point(|s| s.path + 1 < c.at);
                if view.calls.get(k).is_none_or(|s| s.path + 1 != c.at) {
                    return Err(Error::File(crate::file::Error::Damaged {
                        path: self.run.twpp.profile.path.clone(),
                        what: format!("the call graph: a call after path {} of function {}, which makes no call there", c.at, p.func),
                    }));
                }
                q.points[&(p.func, p.trace.0, true)].before_call(view, k as u32)
            };
            match self.resolve_in(q, caller, before)? {
                Before::Resolved(r) => break r,
                _ => cur = caller,
            }
        };
        for n in chain {
            q.entry.insert(n, answer);
        }
        Ok(answer)
    }

    /// Answers ⟨T(n), n⟩_d: for every execution of `point` in the run, what `fact` was
    /// just before it.
    pub fn query(&mut self, point: Point, fact: &Fact) -> Result<Answer, Error> {
        let effects = self.effects_of(point.func)?;
        let block_effects = effects.blocks.get(point.block.idx()).ok_or(Error::NoBlock { func: point.func, block: point.block })?;
        // The point's own block, before it.
        let local = block_effects.iter().filter(|a| a.at() < point.at).rev().find_map(|a| classify(fact, a, true));
        let mut q = Query { fact, points: FxHashMap::default(), effect: FxHashMap::default(), entry: FxHashMap::default(), after_call: FxHashMap::default() };
        let mut answer = Answer::default();
        let n_nodes = self.run.invocations(point.func).len();
        // Each distinct trace's executions of the point, by what precedes them there.
        let mut per_trace: FxHashMap<u32, Vec<(Before, u64)>> = FxHashMap::default();
        for i in 0..n_nodes {
            let node = self.run.invocations(point.func)[i];
            let pair = self.run.dcg.nodes[node].trace.0;
            if let std::collections::hash_map::Entry::Vacant(slot) = per_trace.entry(pair) {
                slot.insert(self.point_counts(&mut q, point, pair, local)?);
            }
            for &(before, n) in &per_trace[&pair] {
                answer.executions += n;
                let r = match self.resolve_in(&mut q, node, before)? {
                    Before::Resolved(r) => r,
                    Before::Entry => self.entry(&mut q, node)?,
                    Before::Call(_) => unreachable!("resolve_in answers calls"),
                };
                *answer.by.entry(r).or_default() += n;
            }
        }
        Ok(answer)
    }

    /// The executions of `point` in one distinct trace, counted by the latest thing before
    /// them there (`local`: what the point's own block does before it, if anything).
    fn point_counts(&mut self, q: &mut Query, point: Point, pair: u32, local: Option<Resolution>) -> Result<Vec<(Before, u64)>, Error> {
        // Only the traces the point ran in need the fact's points.
        let runs_there = self.run.load(point.func, pair)?.place.contains_key(&point.block);
        if runs_there && local.is_none() {
            self.ensure_points(q, point.func, pair, true)?;
        }
        let view = self.run.trace(point.func, pair);
        let mut counts: FxHashMap<Before, u64> = FxHashMap::default();
        if let Some(&(head, pos)) = view.place.get(&point.block) {
            let steps = &view.steps[&head];
            match local {
                Some(r) => *counts.entry(Before::Resolved(r)).or_default() += steps.len() as u64,
                None => {
                    let points = &q.points[&(point.func, pair, true)];
                    for &t in steps {
                        *counts.entry(points.before(view, head, t, pos, false)).or_default() += 1;
                    }
                }
            }
        }
        Ok(counts.into_iter().collect())
    }
}
