//! Dependences through linear memory: the executions of an instruction in run order, a
//! load execution's writers from the TWPP's memory dependences, and the last writes of
//! bytes of memory before an execution.

use super::*;
use wpp_model::SiteIdx;

impl<'a> Slicer<'a> {
    /// Follows the run's memory dependences (from [`Twpp::memory`]): a load's execution
    /// then depends on the write instances it read.
    pub fn follow_memory(&mut self, memory: &'a Memory) {
        self.memory = Some(memory);
    }

    /// Whether loads are followed to their writers.
    pub fn follows_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// Where execution `inst` comes in the run ([`RunView::run_key`]).
    pub(super) fn run_key(&mut self, inst: Inst) -> Result<RunKey, Error> {
        let p = self.locate(inst)?;
        Ok(self.run.run_key(self.run.trace(p.func, p.pair), inst.node, inst.step, p.pos, inst.at))
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
            let ws = m.sites[site.idx()];
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
                            best[k] = Some((key, Source::Node(Node { inst: w, part }), instance));
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

    /// The memory dependences of execution `inst` of an instruction of `f`: the write
    /// instances it read, or for a load when memory is not followed, a leaf.
    pub(super) fn memory_deps(&mut self, inst: Inst, f: FuncIdx, load: bool) -> Result<(), Error> {
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
                    let ws = m.sites[site.idx()];
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
    pub(super) fn decode_load(&mut self, m: &Memory, site: SiteIdx, runs: u64) -> Result<(), Error> {
        if !self.loads.contains_key(&site) {
            let deps = m.load(site, runs).map_err(|e| self.damaged(e))?;
            self.loads.insert(site, deps);
        }
        Ok(())
    }

    /// The executions of the instruction at `at` of `f`, in run order, put in order once.
    pub(super) fn run_order(&mut self, f: FuncIdx, at: u32) -> Result<&mut RunOrder, Error> {
        if !self.orders.contains_key(&(f, at)) {
            let list = self.executions(f, at)?;
            self.orders.insert((f, at), RunOrder { list, index: None });
        }
        Ok(self.orders.get_mut(&(f, at)).expect("inserted above"))
    }

    /// Which execution of its instruction, in run order (1-based), `inst` is.
    pub(super) fn ordinal(&mut self, f: FuncIdx, inst: Inst) -> Result<u64, Error> {
        let order = self.run_order(f, inst.at)?;
        let list = &order.list;
        let index = order.index.get_or_insert_with(|| list.iter().enumerate().map(|(k, i)| ((i.node, i.step), k as u64 + 1)).collect());
        match index.get(&(inst.node, inst.step)) {
            Some(&k) => Ok(k),
            None => Err(Error::NotRun { func: f, at: inst.at }),
        }
    }

    /// Execution `n` (1-based, in run order) of the instruction at `at` of `f`.
    pub(super) fn nth_execution(&mut self, f: FuncIdx, at: u32, n: u64) -> Result<Inst, Error> {
        let order = self.run_order(f, at)?;
        let found = order.list.get((n as usize).wrapping_sub(1)).copied();
        found.ok_or_else(|| {
            self.damaged(format!("the memory dependences name execution {n} of the instruction at {at:#x} of function {f}, which ran fewer times"))
        })
    }

    /// Calls `visit(run, trace, invocation, timestamp, chain position)` for every
    /// execution of the instruction at `at` of function `f`, invocation by invocation.
    fn for_each_execution(&mut self, f: FuncIdx, at: u32, mut visit: impl FnMut(&RunView<'a>, &TraceView, Invocation, u32, u32)) -> Result<(), Error> {
        let (b, _) = self.stmts(f)?.find(at).ok_or(Error::NoInstruction { func: f, at })?;
        for node in self.run.invocations(f).to_vec() {
            let key = self.view_of(node)?;
            let view = self.run.trace(key.0, key.1);
            if let Some(&(head, pos)) = view.place.get(&BlockIdx(b as u32)) {
                for &step in &view.steps[&head] {
                    visit(&self.run, view, node, step, pos);
                }
            }
        }
        Ok(())
    }

    /// Every execution of the instruction at `at` of function `f`, invocation by
    /// invocation.
    pub(super) fn executions_unordered(&mut self, f: FuncIdx, at: u32) -> Result<Vec<Inst>, Error> {
        let mut out = Vec::new();
        self.for_each_execution(f, at, |_, _, node, step, _| out.push(Inst { node, step, at }))?;
        Ok(out)
    }

    /// How many times the instruction at `at` of function `f` ran (without listing the
    /// executions): its block's count, from each block's count in the function counted once
    /// (each distinct trace's counts times how many invocations ran it).
    pub(super) fn execution_count(&mut self, f: FuncIdx, at: u32) -> Result<u64, Error> {
        let (b, _) = self.stmts(f)?.find(at).ok_or(Error::NoInstruction { func: f, at })?;
        if !self.block_runs.contains_key(&f) {
            let mut times: FxHashMap<u32, u64> = FxHashMap::default();
            for node in self.run.invocations(f).to_vec() {
                *times.entry(self.view_of(node)?.1).or_default() += 1;
            }
            let mut runs = vec![0u64; self.stmts(f)?.blocks.len()];
            for (pair, times) in times {
                let view = self.run.trace(f, pair);
                for (block, (head, _)) in &view.place {
                    if let Some(r) = runs.get_mut(block.idx()) {
                        *r += view.steps[head].len() as u64 * times;
                    }
                }
            }
            self.block_runs.insert(f, runs);
        }
        Ok(self.block_runs[&f][b])
    }

    /// Which execution of the instruction at `at` of `f`, in run order (from 1), is its
    /// first in invocation `node`.
    pub fn executions_in(&mut self, node: Invocation, f: FuncIdx, at: u32) -> Result<Option<u64>, Error> {
        Ok(self.executions(f, at)?.iter().position(|i| i.node == node).map(|k| k as u64 + 1))
    }

    /// The bytes the store at `at` of `f` wrote in its first execution in invocation
    /// `node`, `(first, one past the last)`; `None` when it did not run there, or the TWPP
    /// keeps no addresses of writes.
    pub fn written_in(&mut self, node: Invocation, f: FuncIdx, at: u32) -> Result<Option<(u64, u64)>, Error> {
        let Some(m) = self.memory.filter(|m| m.has_writes()) else { return Ok(None) };
        let Some(site) = m.sites.iter().position(|s| s.func == f && s.at == at && matches!(s.kind, SiteKind::Write { .. })) else { return Ok(None) };
        let Some(instance) = self.executions_in(node, f, at)? else { return Ok(None) };
        let writes = m.writes(wpp_model::SiteIdx(site as u32)).map_err(|e| self.damaged(e))?.unwrap_or_default();
        Ok(writes.iter().find(|w| w.0 == instance).map(|w| (w.1, w.2)))
    }

    /// Every execution of the instruction at `at` of `f`, in run order.
    pub fn executions(&mut self, f: FuncIdx, at: u32) -> Result<Vec<Inst>, Error> {
        let mut keyed = Vec::new();
        self.for_each_execution(f, at, |run, view, node, step, pos| keyed.push((run.run_key(view, node, step, pos, at), Inst { node, step, at })))?;
        keyed.sort_unstable_by_key(|&(key, _)| key);
        Ok(keyed.into_iter().map(|(_, i)| i).collect())
    }

    /// Blocks run before each timestamp of a trace (index `step - 1`), and in all.
    pub(super) fn blocks_before(&mut self, key: (FuncIdx, u32)) -> &Vec<u64> {
        let view = self.run.trace(key.0, key.1);
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
    pub fn at_block_index(&mut self, node: Invocation, index: u64, at: u32) -> Result<Inst, Error> {
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
