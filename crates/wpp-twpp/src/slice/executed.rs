//! Agrawal and Horgan's approach 1: the static slice over the executed nodes. Each
//! instruction reached depends on every executed instruction that could have given it a
//! value along a path of the flow graph through executed blocks only (the blocks with a
//! timestamp in some trace), whichever execution it was; the run says only which nodes
//! exist.
//!
//! - a local or an operand stack slot: the executed definitions that reach the
//!   instruction over the executed blocks (a backward search from it, each block's
//!   instructions last to first, a slot renamed across the branch that moved it); at
//!   the function's entry, a parameter comes from the argument of every call the run made
//!   of the function (the call graph of the run), any other local from the entry;
//! - a global: every executed definition of it in the program, and its initial value
//!   (globals are followed without regard to order, as a static slicer without
//!   interprocedural flow would);
//! - a call's result: the call, and the returning instructions executed in the functions
//!   the run called from it (through their tail calls); the arguments, when some of its
//!   executions went to an import;
//! - control: the branch ending each executed block the instruction's block is control
//!   dependent on, and every call the run made of the function;
//! - memory: every writer (store, bulk write, call of an import) of bytes the load read
//!   at some time of the run, the addresses the run touched standing for an alias
//!   analysis; the initial memory if some execution read it. Without the addresses (a
//!   TWPP of an extended WPP) the writers the load's executions read.
//!
//! Everything approach 2 or 3 finds is found here too: each of their dependences is an
//! executed definition reaching its use along the path the run took.

use rustc_hash::{FxHashMap, FxHashSet};
use wpp_model::access_event::SiteKind;
use wpp_model::stmts::{Kind, Reg};
use wpp_model::{BlockIdx, FuncIdx, SiteIdx, Target};

use super::{DepKind, Part, Slicer, Source};
use crate::memory::Written;
use crate::run::Error;

/// Where a value of approach 1 comes from: an instruction (any execution), or a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    Instr {
        func: FuncIdx,
        at: u32,
        part: Part,
    },
    /// See [`Source`]'s leaves.
    Entry,
    Init,
    Memory,
    InitialMemory,
}

/// One dependence of an instruction in approach 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StaticDep {
    pub kind: DepKind,
    pub from: Origin,
}

/// What approach 1 knows of a function: its executed blocks and their executed
/// predecessors.
pub(super) struct Executed {
    blocks: Vec<bool>,
    preds: Vec<Vec<BlockIdx>>,
}

/// What approach 1 knows of the run's calls.
#[derive(Default)]
pub(super) struct Calls {
    /// Per call instruction: the functions the run called from it, and how many of its
    /// executions entered one.
    callees: FxHashMap<(FuncIdx, u32), (FxHashSet<FuncIdx>, u64)>,
    /// Per function: the call instructions the run called it from (`None`: the host).
    callers: FxHashMap<FuncIdx, FxHashSet<Option<(FuncIdx, u32)>>>,
}

impl<'a> Slicer<'a> {
    /// The executed blocks of `f` (any trace), and their executed predecessors.
    fn executed(&mut self, f: FuncIdx) -> Result<&Executed, Error> {
        if !self.executed.contains_key(&f) {
            let cfg = self.program.functions.get(f.idx()).and_then(|fun| fun.cfg.as_ref()).ok_or(Error::NoCode(f))?;
            let mut blocks = vec![false; cfg.n_blocks()];
            let mut pairs = FxHashSet::default();
            for node in self.run.invocations(f).to_vec() {
                let (_, pair) = self.view_of(node)?;
                if pairs.insert(pair) {
                    for b in self.run.trace(f, pair).place.keys() {
                        blocks[b.idx()] = true;
                    }
                }
            }
            let mut preds = vec![Vec::new(); cfg.n_blocks()];
            for e in &cfg.edges {
                if let Target::Block(t) = e.to {
                    if blocks[e.from.idx()] && blocks[t.idx()] && !preds[t.idx()].contains(&e.from) {
                        preds[t.idx()].push(e.from);
                    }
                }
            }
            self.executed.insert(f, Executed { blocks, preds });
        }
        Ok(&self.executed[&f])
    }

    /// The run's calls: who called whom from where (once).
    fn calls(&mut self) -> Result<(), Error> {
        if self.calls.is_some() {
            return Ok(());
        }
        let mut calls = Calls::default();
        for node in self.run.dcg.nodes.indices() {
            let callee = self.run.dcg.nodes[node].func;
            let from = match self.run.parent(node) {
                Some((caller, call)) => {
                    let inst = self.call_inst(caller, call)?;
                    let f = self.run.dcg.nodes[caller].func;
                    let e = calls.callees.entry((f, inst.at)).or_default();
                    e.0.insert(callee);
                    e.1 += 1;
                    Some((f, inst.at))
                }
                None => None,
            };
            calls.callers.entry(callee).or_default().insert(from);
        }
        self.calls = Some(calls);
        Ok(())
    }

    /// The call instructions the run called `f` from (`None`: the host), sorted.
    fn callers_of(&mut self, f: FuncIdx) -> Result<Vec<Option<(FuncIdx, u32)>>, Error> {
        self.calls()?;
        let mut v: Vec<_> = self.calls.as_ref().and_then(|c| c.callers.get(&f)).map(|s| s.iter().copied().collect()).unwrap_or_default();
        v.sort_unstable();
        Ok(v)
    }

    /// The executed definitions of `reg` that reach instruction `index` of block `b` of
    /// `f` over its executed blocks, and whether the entry does.
    fn reaching(&mut self, f: FuncIdx, b: BlockIdx, index: usize, reg: Reg, out: &mut Vec<StaticDep>) -> Result<(), Error> {
        let stmts = self.stmts(f)?;
        self.executed(f)?;
        let ex = &self.executed[&f];
        let mut seen: FxHashSet<(BlockIdx, usize, Reg)> = FxHashSet::default();
        let mut work = vec![(b, index, reg)];
        let mut entry = false;
        let mut found: Vec<(u32, Part)> = Vec::new();
        while let Some((b, index, r)) = work.pop() {
            let ss = &stmts.blocks[b.idx()].stmts;
            if let Some(s) = ss[..index].iter().rev().find(|s| s.defs.contains(&r)) {
                let part = if matches!((r, s.kind), (Reg::Slot(_), Kind::Call { .. })) { Part::Result } else { Part::Exec };
                found.push((s.at, part));
                continue;
            }
            if b.idx() == 0 {
                entry = true;
            }
            let entry_height = stmts.blocks[b.idx()].entry;
            for &p in &ex.preds[b.idx()] {
                let pss = &stmts.blocks[p.idx()].stmts;
                let moved = match (r, pss.last()) {
                    (Reg::Slot(h), Some(last)) => last.shifts.iter().filter(|s| s.entry == entry_height).find_map(|s| s.source(h)),
                    _ => None,
                };
                let (at, r2) = match moved {
                    Some(src) => (pss.len() - 1, Reg::Slot(src)),
                    None => (pss.len(), r),
                };
                if seen.insert((p, at, r2)) {
                    work.push((p, at, r2));
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        out.extend(found.into_iter().map(|(at, part)| StaticDep { kind: DepKind::Data(reg), from: Origin::Instr { func: f, at, part } }));
        if entry {
            match reg {
                Reg::Local(p) if p < stmts.params => {
                    for c in self.callers_of(f)? {
                        let from = match c {
                            Some((g, at)) => Origin::Instr { func: g, at, part: Part::Arg(p) },
                            None => Origin::Entry,
                        };
                        out.push(StaticDep { kind: DepKind::Data(reg), from });
                    }
                }
                _ => out.push(StaticDep { kind: DepKind::Data(reg), from: Origin::Entry }),
            }
        }
        Ok(())
    }

    /// Every executed definition of global `g` in the program, and its initial value.
    fn global_defs(&mut self, g: u32) -> Result<Vec<StaticDep>, Error> {
        if let Some(v) = self.global_defs.get(&g) {
            return Ok(v.clone());
        }
        let reg = Reg::Global(g);
        let mut out = vec![StaticDep { kind: DepKind::Data(reg), from: Origin::Init }];
        let funcs: Vec<FuncIdx> = self.run.invoked().collect();
        for f in funcs {
            let stmts = self.stmts(f)?;
            self.executed(f)?;
            let ex = &self.executed[&f];
            for (_, block) in stmts.blocks.iter().enumerate().filter(|(b, _)| ex.blocks[*b]) {
                for s in block.stmts.iter().filter(|s| s.defs.contains(&reg)) {
                    out.push(StaticDep { kind: DepKind::Data(reg), from: Origin::Instr { func: f, at: s.at, part: Part::Exec } });
                }
            }
        }
        out.sort_unstable();
        self.global_defs.insert(g, out.clone());
        Ok(out)
    }

    /// The data dependences of `regs` read by instruction `index` of block `b` of `f`.
    fn data_static(&mut self, f: FuncIdx, b: BlockIdx, index: usize, regs: &[Reg], out: &mut Vec<StaticDep>) -> Result<(), Error> {
        for &r in regs {
            match r {
                Reg::Global(g) => {
                    let defs = self.global_defs(g)?;
                    out.extend(defs);
                }
                _ => self.reaching(f, b, index, r, out)?,
            }
        }
        Ok(())
    }

    /// The instructions that return from an invocation of `g`: its executed exits' last
    /// instructions, through its tail calls.
    fn returns_of(&mut self, g: FuncIdx, out: &mut Vec<StaticDep>, seen: &mut FxHashSet<FuncIdx>) -> Result<(), Error> {
        if !seen.insert(g) {
            return Ok(());
        }
        let cfg = self.program.functions.get(g.idx()).and_then(|fun| fun.cfg.as_ref()).ok_or(Error::NoCode(g))?;
        let stmts = self.stmts(g)?;
        self.executed(g)?;
        let exits: Vec<BlockIdx> = cfg.edges.iter().filter(|e| e.to == Target::Exit && self.executed[&g].blocks[e.from.idx()]).map(|e| e.from).collect();
        for b in exits {
            let Some(s) = stmts.blocks[b.idx()].stmts.last() else { continue };
            let tail = matches!(s.kind, Kind::Call { tail: true, .. });
            let part = if tail { Part::Result } else { Part::Exec };
            out.push(StaticDep { kind: DepKind::Return, from: Origin::Instr { func: g, at: s.at, part } });
            if tail {
                self.calls()?;
                let callees: Vec<FuncIdx> =
                    self.calls.as_ref().and_then(|c| c.callees.get(&(g, s.at))).map(|c| c.0.iter().copied().collect()).unwrap_or_default();
                for h in callees {
                    self.returns_of(h, out, seen)?;
                }
            }
        }
        Ok(())
    }

    /// The dependences of the instruction at `at` of `f` (its `part`) in approach 1.
    pub fn static_deps(&mut self, f: FuncIdx, at: u32, part: Part) -> Result<Vec<StaticDep>, Error> {
        let stmts = self.stmts(f)?;
        let (bi, index) = stmts.find(at).ok_or(Error::NoInstruction { func: f, at })?;
        let b = BlockIdx(bi as u32);
        let s = &stmts.blocks[bi].stmts[index];
        let mut out = Vec::new();
        match part {
            Part::Exec => {
                let operands = match s.kind {
                    Kind::Call { args, .. } => &s.uses[args as usize..],
                    _ => &s.uses[..],
                };
                self.data_static(f, b, index, operands, &mut out)?;
                self.memory_static(f, at, s.kind == Kind::Load, &mut out)?;
                let controllers: Vec<BlockIdx> = self.program.controllers.get(f).and_then(|c| c.get(bi)).cloned().unwrap_or_default();
                self.executed(f)?;
                for c in controllers.into_iter().filter(|c| self.executed[&f].blocks[c.idx()]) {
                    if let Some(last) = stmts.blocks[c.idx()].stmts.last() {
                        out.push(StaticDep { kind: DepKind::Control, from: Origin::Instr { func: f, at: last.at, part: Part::Exec } });
                    }
                }
                for c in self.callers_of(f)?.into_iter().flatten() {
                    out.push(StaticDep { kind: DepKind::Control, from: Origin::Instr { func: c.0, at: c.1, part: Part::Exec } });
                }
            }
            Part::Result => {
                out.push(StaticDep { kind: DepKind::Call, from: Origin::Instr { func: f, at, part: Part::Exec } });
                self.calls()?;
                let (callees, entered) = match self.calls.as_ref().and_then(|c| c.callees.get(&(f, at))) {
                    Some((c, n)) => (c.iter().copied().collect::<Vec<_>>(), *n),
                    None => (Vec::new(), 0),
                };
                let mut seen = FxHashSet::default();
                for g in callees {
                    self.returns_of(g, &mut out, &mut seen)?;
                }
                // Executions that entered no function of the module called an import.
                if entered < self.execution_count(f, at)? || matches!(s.kind, Kind::Call { tail: true, .. }) {
                    self.data_static(f, b, index, s.args(), &mut out)?;
                }
            }
            Part::Arg(k) => {
                let r = *s.args().get(k as usize).ok_or(Error::NoInstruction { func: f, at })?;
                self.data_static(f, b, index, &[r], &mut out)?;
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The writers any execution of the instruction at `at` of `f` read, or for a load
    /// when memory is not followed, a leaf.
    fn memory_static(&mut self, f: FuncIdx, at: u32, load: bool, out: &mut Vec<StaticDep>) -> Result<(), Error> {
        let found = self.memory.and_then(|m| Some((m, m.read_site(f, at)?)));
        let Some((m, site)) = found else {
            if load {
                out.push(StaticDep { kind: DepKind::Memory, from: Origin::Memory });
            }
            return Ok(());
        };
        let runs = self.execution_count(f, at)?;
        self.decode_load(m, site, runs)?;
        let writer = |w: SiteIdx| {
            let ws = m.sites[w.idx()];
            let part = if matches!(ws.kind, SiteKind::HostCall { .. }) { Part::Result } else { Part::Exec };
            Origin::Instr { func: ws.func, at: ws.at, part }
        };
        let read = self.loads[&site].all();
        let mut writers: Vec<Origin> = match m.overlapping_writers(site) {
            // Every writer of bytes the load read at some time, and the initial memory if
            // some execution read it.
            Some(sites) => sites.into_iter().map(writer).chain(read.contains(&Written::Initial).then_some(Origin::InitialMemory)).collect(),
            None => read
                .iter()
                .map(|w| match *w {
                    Written::Initial => Origin::InitialMemory,
                    Written::Site { site, .. } => writer(site),
                })
                .collect(),
        };
        writers.sort_unstable();
        writers.dedup();
        out.extend(writers.into_iter().map(|from| StaticDep { kind: DepKind::Memory, from }));
        Ok(())
    }

    /// Approach 1's closure from `from`: each instruction (and call part) reached given
    /// to `f` once, with how many times it ran and its dependences; how many instructions.
    pub fn visit_executed(&mut self, from: &[Source], mut f: impl FnMut(FuncIdx, u32, Part, u64, &[StaticDep])) -> Result<u64, Error> {
        let mut seen: FxHashSet<(u32, Part)> = FxHashSet::default();
        let mut work: Vec<(FuncIdx, u32, Part)> = Vec::new();
        for s in from {
            if let Source::Node(n) = s {
                let (g, _) = self.view_of(n.inst.node)?;
                work.push((g, n.inst.at, n.part));
            }
        }
        let mut count = 0u64;
        while let Some((func, at, part)) = work.pop() {
            if !seen.insert((at, part)) {
                continue;
            }
            let deps = self.static_deps(func, at, part)?;
            for d in &deps {
                if let Origin::Instr { func, at, part } = d.from {
                    if !seen.contains(&(at, part)) {
                        work.push((func, at, part));
                    }
                }
            }
            let runs = self.execution_count(func, at)?;
            f(func, at, part, runs, &deps);
            count += 1;
        }
        Ok(count)
    }
}
