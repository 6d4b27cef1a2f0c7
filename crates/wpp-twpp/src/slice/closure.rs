//! The backward closure of the dependences from a criterion: a precise dynamic slice, by
//! nodes or by statements, walked over the kept graph or leanly (found and forgotten).

use super::*;

impl<'a> Slicer<'a> {
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
        for node in self.run.dcg.nodes.indices() {
            let (f, pair) = self.view_of(node)?;
            let stmts = self.stmts(f)?;
            let len = self.run.trace(f, pair).len;
            for step in 1..=len {
                let view = self.run.trace(f, pair);
                let head = view.head_at(step);
                for pos in 0..view.chains[&head].len() {
                    let b = self.run.trace(f, pair).chains[&head][pos];
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
    pub(super) fn visit_kept(&mut self, from: &[Source], mut f: impl FnMut(Node, &[Dep])) -> Result<u64, Error> {
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
            self.check_memory(count)?;
        }
        Ok(count)
    }

    /// The closure without keeping what it finds (the graph's known dependences used):
    /// the nodes visited are bits of their ids.
    pub(super) fn visit_lean(&mut self, from: &[Source], mut f: impl FnMut(Node, &[Dep])) -> Result<u64, Error> {
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
            self.check_memory(count)?;
        }
        Ok(count)
    }

    /// Agrawal and Horgan's approach 2 as Zhang and Gupta implement it: the closure over
    /// instructions (and calls' results and arguments) of the dependences their
    /// executions exercised. From each source's instruction, every execution of each
    /// instruction reached is followed (all its timestamps, in every trace), and each
    /// instruction a dependence comes from is added once. The instructions, in the order
    /// found, with their function. Dependences found here are not kept as nodes; while
    /// the slicer keeps what it finds ([`Slicer::keep`]), each instruction's exercised
    /// dependences are kept (a few per instruction of the module), so a later slice
    /// reaching the instruction does not walk its executions again.
    pub fn slice_statements(&mut self, from: &[Source]) -> Result<Vec<Statement>, Error> {
        let mut seen: rustc_hash::FxHashSet<(u32, Part)> = rustc_hash::FxHashSet::default();
        let mut work: Vec<Statement> = Vec::new();
        for s in from {
            if let Source::Node(n) = s {
                let (f, _) = self.view_of(n.inst.node)?;
                work.push((f, n.inst.at, n.part));
            }
        }
        let mut out = Vec::new();
        while let Some((func, at, part)) = work.pop() {
            if !seen.insert((at, part)) {
                continue;
            }
            out.push((func, at, part));
            let exercised = self.exercised(func, at, part)?;
            work.extend(exercised.iter().filter(|&&(_, a, p)| !seen.contains(&(a, p))));
            if !self.keep {
                self.exercised.clear();
            }
        }
        Ok(out)
    }

    /// The instructions (and parts) the executions of `(at, part)` of `func` depend on,
    /// sorted, found once.
    fn exercised(&mut self, func: FuncIdx, at: u32, part: Part) -> Result<&[Statement], Error> {
        if !self.exercised.contains_key(&(at, part)) {
            let mut found: rustc_hash::FxHashSet<Statement> = rustc_hash::FxHashSet::default();
            for inst in self.executions_unordered(func, at)? {
                let start = self.arena.len();
                self.find_deps(Node { inst, part })?;
                for d in &self.arena[start..] {
                    if let Source::Node(m) = d.from {
                        found.insert((self.run.dcg.nodes[m.inst.node].func, m.inst.at, m.part));
                    }
                }
                self.arena.truncate(start);
            }
            let mut from: Vec<Statement> = found.into_iter().collect();
            from.sort_unstable();
            self.exercised.insert((at, part), from);
        }
        Ok(&self.exercised[&(at, part)])
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
                            let g = self.run.dcg.nodes[m.inst.node].func;
                            work.push((g, m.inst.at, m.part));
                        }
                    }
                }
                f(func, at, part, node, &self.arena[start..]);
                count += 1;
                self.arena.truncate(start);
                self.check_memory(count)?;
            }
        }
        Ok(count)
    }
}
