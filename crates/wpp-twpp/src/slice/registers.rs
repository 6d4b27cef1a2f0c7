//! Dependences through registers and control: the latest definition of a local, global
//! or stack slot before an execution (in its block, over the timestamps of the blocks
//! that define it, at the invocation's entry from the caller, through the calls that ran
//! before), and the latest execution of a controlling block.

use super::*;

impl<'a> Slicer<'a> {
    /// The sorted executions of the blocks `key` names, in one trace.
    pub(super) fn list(&mut self, f: FuncIdx, pair: u32, key: Key) -> Result<&Vec<(u32, u32)>, Error> {
        if !self.lists.contains_key(&(f, pair, key)) {
            let stmts = self.stmts(f)?;
            let view = self.run.trace(f, pair);
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
    pub(super) fn callee(&self, node: Invocation, f: FuncIdx, pair: u32, step: u32, pos: u32) -> Option<Invocation> {
        let view = self.run.trace(f, pair);
        let k = view.calls.partition_point(|c| (c.step, c.pos) < (step, pos));
        let site = view.calls.get(k).filter(|c| (c.step, c.pos) == (step, pos))?;
        self.run.callee_after_path(node, site.path)
    }

    /// The invocation's tail call, if it ended with one into the module.
    pub(super) fn tail_callee(&self, node: Invocation) -> Option<Invocation> {
        self.run.tail_callee(node)
    }

    /// The execution of the call `call` (an index into `dcg.calls`) made by `caller`.
    pub(super) fn call_inst(&mut self, caller: Invocation, call: u32) -> Result<Inst, Error> {
        let (f, pair) = self.view_of(caller)?;
        let c = self.run.dcg.calls[call as usize];
        let view = self.run.trace(f, pair);
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
    pub(super) fn in_block(
        &mut self,
        reg: Reg,
        node: Invocation,
        at: (FuncIdx, u32, u32, u32),
        block: BlockIdx,
        index: usize,
    ) -> Result<Option<Source>, Error> {
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
    pub(super) fn next_entry(&self, f: FuncIdx, pair: u32, step: u32, pos: u32) -> Option<u32> {
        let view = self.run.trace(f, pair);
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
    pub(super) fn search(&mut self, reg: Reg, node: Invocation, step: u32, pos: u32) -> Result<Option<Source>, Error> {
        let (f, pair) = self.view_of(node)?;
        let mut k = self.list(f, pair, Key::Defines(reg))?.partition_point(|&x| x < (step, pos));
        while k > 0 {
            k -= 1;
            let (t, p) = self.lists[&(f, pair, Key::Defines(reg))][k];
            let b = Self::block_at(self.run.trace(f, pair), t, p);
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
    pub(super) fn resolve_at(&mut self, reg: Reg, node: Invocation, at: (FuncIdx, u32, u32, u32), block: BlockIdx, index: usize) -> Result<Source, Error> {
        if let Some(src) = self.in_block(reg, node, at, block, index)? {
            return Ok(src);
        }
        if let Some(src) = self.search(reg, node, at.2, at.3)? {
            return Ok(src);
        }
        self.at_entry(reg, node)
    }

    /// The value of `reg` at the start of invocation `node`.
    pub(super) fn at_entry(&mut self, reg: Reg, node: Invocation) -> Result<Source, Error> {
        let (f, _) = self.view_of(node)?;
        let params = self.stmts(f)?.params;
        let Some((caller, call)) = self.run.parent(node) else {
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
    pub(super) fn defined_below(&mut self, node: Invocation, g: u32) -> Result<Option<Source>, Error> {
        if let Some(&d) = self.defined_below.get(&(node, g)) {
            return Ok(d);
        }
        let mut found = None;
        if let Some(tail) = self.tail_callee(node) {
            found = self.defined_below(tail, g)?;
        }
        if found.is_none() {
            let (f, pair) = self.view_of(node)?;
            let end = self.run.trace(f, pair).len + 1;
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

    /// The execution whose branch (or call) decided that `inst` ran, `None` for the
    /// code the host called.
    pub(super) fn control(&mut self, inst: Inst, p: Pos) -> Result<Option<Source>, Error> {
        let list = self.list(p.func, p.pair, Key::Controls(p.block))?;
        let latest = list.partition_point(|&x| x < (inst.step, p.pos)).checked_sub(1).map(|k| list[k]);
        if let Some((t, q)) = latest {
            let b = Self::block_at(self.run.trace(p.func, p.pair), t, q);
            let at = self.stmts(p.func)?.blocks[b.idx()].stmts.last().ok_or(Error::NoBlock { func: p.func, block: b })?.at;
            return Ok(Some(Source::Node(Node::exec(Inst { node: inst.node, step: t, at }))));
        }
        match self.run.parent(inst.node) {
            Some((caller, call)) => Ok(Some(Source::Node(Node::exec(self.call_inst(caller, call)?)))),
            None => Ok(None),
        }
    }

    /// The execution that returned from invocation `node`'s call: its last instruction,
    /// or the returning instruction of the invocation it tail-called.
    pub(super) fn returning(&mut self, mut node: Invocation) -> Result<Source, Error> {
        while let Some(tail) = self.tail_callee(node) {
            node = tail;
        }
        let (f, pair) = self.view_of(node)?;
        let view = self.run.trace(f, pair);
        if view.len == 0 {
            return Err(self.damaged(format!("invocation {node} of function {f} ran nothing")));
        }
        let step = view.len;
        let b = *view.chains[&view.head_at(step)].last().expect("chains are not empty");
        let s = self.stmts(f)?.blocks[b.idx()].stmts.last().ok_or(Error::NoBlock { func: f, block: b })?;
        let part = if matches!(s.kind, Kind::Call { tail: true, .. }) { Part::Result } else { Part::Exec };
        Ok(Source::Node(Node { inst: Inst { node, step, at: s.at }, part }))
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
    pub(super) fn find_deps(&mut self, node: Node) -> Result<(), Error> {
        let p = self.locate(node.inst)?;
        self.find_deps_at(node, p)
    }

    /// Finds the dependences of a node located at `p`, at the end of the arena.
    pub(super) fn find_deps_at(&mut self, node: Node, p: Pos) -> Result<(), Error> {
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
}
