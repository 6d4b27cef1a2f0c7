//! A problem built from the module's instructions: the facts (definitions of locals,
//! globals and constant memory; available accesses) catalogued by what kills them
//! together, each block's transfers between its points, each path's steps, and the
//! junctions between consecutive paths where a frame of the analysed function closes or
//! opens or an import is called.

use rustc_hash::{FxHashMap, FxHashSet};
use wpp_grammar::dff::{Problem, Step, Terminal, Transfer};
use wpp_model::effects::{Access, Action, Base, Var};
use wpp_model::{BlockIdx, FuncIdx};
use wpp_twpp::dataflow::Site;

use super::{Dff, FactDesc, PointAt, ProblemKind};
use crate::Error;

/// A problem built for one function: its facts and the grammar problem.
pub(super) struct Built {
    pub facts: Vec<FactDesc>,
    pub problem: Problem,
    pub points: Vec<PointAt>,
    /// Per block of the function: the transfers between its points (first from the
    /// block's entry), with the point each starts at.
    pub block_steps: Vec<Vec<Step>>,
}

/// Facts by what kills them together.
#[derive(Default)]
struct Catalogue {
    facts: Vec<FactDesc>,
    index: FxHashMap<FactDesc, u32>,
    /// Per variable or location, its facts.
    local: FxHashMap<u32, Vec<u32>>,
    global: FxHashMap<u32, Vec<u32>>,
    memory: FxHashMap<Access, Vec<u32>>,
    /// Constant locations sorted by (memory, offset), for the stores that cover them.
    locations: Vec<Access>,
    available: Vec<(Access, u32)>,
}

impl Catalogue {
    fn add(&mut self, d: FactDesc) -> u32 {
        if let Some(&i) = self.index.get(&d) {
            return i;
        }
        let i = self.facts.len() as u32;
        self.facts.push(d);
        self.index.insert(d, i);
        match d {
            FactDesc::Local { var, .. } => self.local.entry(var).or_default().push(i),
            FactDesc::Global { var, .. } => self.global.entry(var).or_default().push(i),
            FactDesc::Memory { location, .. } => self.memory.entry(location).or_default().push(i),
            FactDesc::Available { access } => self.available.push((access, i)),
        }
        i
    }

    /// The constant locations whose bytes all lie in `b`.
    fn covered(&self, b: &Access) -> impl Iterator<Item = &Access> + '_ {
        let b = *b;
        let lo = self.locations.partition_point(|a| (a.memory, a.offset) < (b.memory, b.offset));
        self.locations[lo..].iter().take_while(move |a| a.memory == b.memory && a.offset < b.offset.saturating_add(b.width as u64)).filter(move |a| b.covers(a))
    }

    /// The transfer of one action.
    fn action(&self, a: &Action, in_f: bool, kind: ProblemKind) -> Transfer {
        match kind {
            ProblemKind::ReachingDefinitions => match *a {
                Action::Def { var: Var::Local(x), at } if in_f => {
                    let site = self.index.get(&FactDesc::Local { var: x, site: Site::At(at) }).copied();
                    Transfer::new(site, self.local.get(&x).into_iter().flatten().copied())
                }
                Action::Def { var: Var::Global(g), at } => {
                    let site = self.index.get(&FactDesc::Global { var: g, site: Site::At(at) }).copied();
                    Transfer::new(site, self.global.get(&g).into_iter().flatten().copied())
                }
                Action::Store { access, at } if access.base == Base::Const => {
                    let site = self.index.get(&FactDesc::Memory { location: access, site: Site::At(at) }).copied();
                    let kill = self.covered(&access).flat_map(|l| self.memory.get(l).into_iter().flatten().copied());
                    Transfer::new(site, kill.collect::<Vec<_>>())
                }
                _ => Transfer::IDENTITY,
            },
            ProblemKind::AvailableLoads => {
                let (mut gen, mut kill) = (Vec::new(), Vec::new());
                for &(x, i) in &self.available {
                    match *a {
                        Action::Load { access: b, .. } if b.covers(&x) => gen.push(i),
                        Action::Store { access: b, .. } if b.covers(&x) => gen.push(i),
                        Action::Store { access: b, .. } if b.memory == x.memory && b.may_overlap(&x) => kill.push(i),
                        Action::Def { var: v @ Var::Global(_), .. } if x.base == Base::Var(v) => kill.push(i),
                        Action::Clobber { memory, .. } if memory == x.memory => kill.push(i),
                        _ => {}
                    }
                }
                Transfer::new(gen, kill)
            }
        }
    }
}

impl Dff<'_> {
    /// Builds the problem for `func`'s points.
    pub(super) fn build(&self, kind: ProblemKind, func: FuncIdx, at: Option<u32>) -> Result<Built, Error> {
        let fx = self
            .module
            .effects
            .get(func)
            .ok_or_else(|| Error::Invalid(format!("{}: function {} has no code", self.module.path.display(), self.dag.profile.meta.func_name(func))))?;
        let mut cat = Catalogue::default();
        let mut points: Vec<PointAt> = (0..fx.blocks.len()).map(|b| PointAt { block: BlockIdx(b as u32), at: None, fact: None }).collect();
        let frame_facts;
        let mut frame_entry = Vec::new();
        let mut initial = Vec::new();
        match kind {
            ProblemKind::ReachingDefinitions => {
                // Every local starts with its entry value: the argument or zero.
                for x in 0..fx.locals {
                    frame_entry.push(cat.add(FactDesc::Local { var: x, site: Site::Entry }));
                }
                for a in fx.blocks.iter().flatten() {
                    if let Action::Def { var: Var::Local(x), at } = *a {
                        cat.add(FactDesc::Local { var: x, site: Site::At(at) });
                    }
                }
                frame_facts = cat.facts.len() as u32;
                let mut locations = FxHashSet::default();
                for (_, fx) in self.module.effects.iter() {
                    for a in fx.blocks.iter().flatten() {
                        match *a {
                            Action::Def { var: Var::Global(g), at } => {
                                initial.push(cat.add(FactDesc::Global { var: g, site: Site::Init }));
                                cat.add(FactDesc::Global { var: g, site: Site::At(at) });
                            }
                            Action::Store { access, at } if access.base == Base::Const => {
                                initial.push(cat.add(FactDesc::Memory { location: access, site: Site::Init }));
                                cat.add(FactDesc::Memory { location: access, site: Site::At(at) });
                                locations.insert(access);
                            }
                            _ => {}
                        }
                    }
                }
                cat.locations = locations.into_iter().collect();
                cat.locations.sort_unstable_by_key(|a| (a.memory, a.offset, a.width));
                if let Some(at) = at {
                    let (f, b) = self.module.block_at(at).expect("checked by the caller");
                    debug_assert_eq!(f, func);
                    points.push(PointAt { block: b, at: Some(at), fact: None });
                }
            }
            ProblemKind::AvailableLoads => {
                frame_facts = 0;
                for (b, actions) in fx.blocks.iter().enumerate() {
                    for a in actions {
                        let Action::Load { access, at: off } = *a else { continue };
                        let tracked = matches!(access.base, Base::Const | Base::Var(Var::Global(_)));
                        if tracked && at.is_none_or(|x| x == off) {
                            let i = cat.add(FactDesc::Available { access });
                            points.push(PointAt { block: BlockIdx(b as u32), at: Some(off), fact: Some(i) });
                        }
                    }
                }
                // The dual holds everywhere at the start: nothing is available.
                initial = (0..cat.facts.len() as u32).collect();
            }
        }
        initial.sort_unstable();
        initial.dedup();
        let dual = kind == ProblemKind::AvailableLoads;
        let n_facts = cat.facts.len() as u32;
        let mut inner_points: FxHashMap<u32, Vec<(u32, u32)>> = FxHashMap::default();
        for (pi, p) in points.iter().enumerate() {
            if let Some(at) = p.at {
                inner_points.entry(p.block.0).or_default().push((at, pi as u32));
            }
        }
        // Per function and block: the transfer of each stretch between points.
        let mut block_cache: FxHashMap<FuncIdx, Vec<Vec<Step>>> = FxHashMap::default();
        let steps_of = |g: FuncIdx, cat: &Catalogue| -> Vec<Vec<Step>> {
            let Some(gx) = self.module.effects.get(g) else { return Vec::new() };
            let in_f = g == func;
            gx.blocks
                .iter()
                .enumerate()
                .map(|(b, actions)| {
                    let mut steps = vec![Step { point: in_f.then_some(b as u32), transfer: Transfer::IDENTITY }];
                    // Points inside the block, by offset: each goes before the first action
                    // at or after it (at the end if there is none).
                    let mut inner: Vec<(u32, u32)> = if in_f { inner_points.get(&(b as u32)).cloned().unwrap_or_default() } else { Vec::new() };
                    inner.sort_unstable();
                    let mut next = 0;
                    for a in actions {
                        while next < inner.len() && inner[next].0 <= a.at() {
                            steps.push(Step { point: Some(inner[next].1), transfer: Transfer::IDENTITY });
                            next += 1;
                        }
                        let t = cat.action(a, in_f, kind);
                        let t = if dual { t.dual() } else { t };
                        let last = steps.last_mut().expect("a step");
                        last.transfer = last.transfer.then(&t);
                    }
                    for &(_, pi) in &inner[next..] {
                        steps.push(Step { point: Some(pi), transfer: Transfer::IDENTITY });
                    }
                    steps
                })
                .collect()
        };
        let import_kill = {
            let t = Transfer::new([], 0..n_facts);
            if dual {
                t.dual()
            } else {
                t
            }
        };
        let mut terminals = Vec::with_capacity(self.dag.paths.len());
        for (t, e) in self.dag.paths.iter().enumerate() {
            if self.run.counts[t] == 0 {
                terminals.push(Terminal::default());
                continue;
            }
            let blocks = block_cache.entry(e.func).or_insert_with(|| steps_of(e.func, &cat));
            let mut steps: Vec<Step> = Vec::new();
            for b in &self.run.path_blocks[t] {
                steps.extend(blocks.get(b.idx()).into_iter().flatten().cloned());
            }
            terminals.push(Terminal { framed: e.func == func, steps });
        }
        let block_steps = block_cache.remove(&func).unwrap_or_else(|| steps_of(func, &cat));
        // Calls and returns of `func`, and calls of imports (which may write any memory).
        let mut junctions = FxHashMap::default();
        for &(t1, t2, _, j) in &self.run.junctions {
            let closes = j.returns && self.dag.paths[t1 as usize].func == func;
            let opens = j.calls && self.dag.paths[t2 as usize].func == func;
            let import = j.import && kind == ProblemKind::AvailableLoads;
            if closes || opens || import {
                let transfer = if import { import_kill.clone() } else { Transfer::IDENTITY };
                junctions.insert((t1, t2), wpp_grammar::dff::Junction { closes, transfer, opens });
            }
        }
        let open_at_start = self.run.first.is_some_and(|t| self.dag.paths[t as usize].func == func);
        let problem = Problem { facts: n_facts, frame_facts, initial, frame_entry, open_at_start, terminals, junctions, points: points.len() as u32 };
        Ok(Built { facts: cat.facts, problem, points, block_steps })
    }
}
