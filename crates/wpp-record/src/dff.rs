//! Data flow frequencies of a recorded run (Scholz & Mehofer), computed exactly on the
//! profile's grammar by `wpp_grammar::dff`, for problems whose facts come from the
//! module's instructions (`wpp_wasm::effects`); beside each exact count, the estimate an
//! edge profile alone gives.
//!
//! ## Problems
//!
//! - **Reaching definitions** at the points of one function `F`: a definition is a
//!   `local.set`/`local.tee` of one of `F`'s locals (or the local's value at entry: its
//!   argument or zero), a `global.set` anywhere (or the global's initial value), or a
//!   store to a constant address anywhere (how C globals are written; or the initial
//!   contents). A definition of a variable kills the variable's other definitions; a store
//!   kills the definitions of every constant location whose bytes it all rewrites.
//!   Stores through pointers, bulk writes and imports may write a location but do not
//!   kill its definitions (the classic may-reach problem). `F`'s locals are per
//!   invocation: a callee never touches them, and a recursive invocation has its own
//!   (the grammar's frames, see `wpp_grammar::dff`). Globals and memory are program-wide.
//! - **Available loads**, an intersection problem: at each load of `F` whose address is a
//!   constant or a global plus a constant, whether its bytes were already loaded or
//!   stored at that address with nothing in between that may have changed them (any
//!   store that may overlap, a bulk write, a new value of the global, a call to an
//!   import): the load was redundant. It is solved through its dual, "not available", a
//!   union problem that holds everywhere at the start of the run; the available count is
//!   the executions minus the dual's.
//!
//! ## Calls and returns on the grammar
//!
//! A terminal is a path; whether the path after it starts an invocation (a call), goes
//! on in the same one (a loop, a call of an import) or in a caller (a return, a tail
//! call) is read off the pair, as the TWPP partition does: the same path can be followed
//! one way here and another way there. The grammar gives every pair of consecutive paths
//! with its count ([`Grammar::consecutive_pairs`](wpp_grammar::Grammar::consecutive_pairs)), each pair is classified once, and the problem
//! gets a `Junction` for every pair where a frame of `F` closes or opens or an import is
//! called. A pair no run could produce is an error naming both paths. The same pairs give
//! the edges between paths — back edges and calls — for the edge profile.
//!
//! ## The estimate
//!
//! The usual independence assumption: at each block, the facts that hold are mixed from
//! its predecessors in proportion to the edge counts, whatever path led there. For each
//! variable (all of its definitions at once) a linear system over `F`'s executed blocks
//! is solved exactly by sparse elimination. Locals start at `F`'s entry with their entry
//! definitions; program-wide facts are taken from the exact result at `F`'s entry and
//! after each call (an edge profile of `F` says nothing about the callers and callees), so
//! the estimate differs from the exact count only by what `F`'s own paths correlate.

use std::path::Path;

use rustc_hash::{FxHashMap, FxHashSet};
use wpp_grammar::dff::{Frequencies, Problem, Solver, Step, Terminal, Transfer};
use wpp_grammar::{Grammar, Sym};
use wpp_model::effects::{Access, Action, Base, Var};
use wpp_model::{BlockIdx, EdgeKind, FuncIdx, FuncMap, Target};
use wpp_report::Dag;
use wpp_twpp::dataflow::Site;
use wpp_twpp::partition::{block_ends, BlockEnd};

use crate::dataflow::{Module, Place};
use crate::Error;

/// A data flow problem `wpp dff` solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    ReachingDefinitions,
    AvailableLoads,
}

impl ProblemKind {
    pub const ALL: [ProblemKind; 2] = [ProblemKind::ReachingDefinitions, ProblemKind::AvailableLoads];

    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::ReachingDefinitions => "reaching-definitions",
            ProblemKind::AvailableLoads => "available-loads",
        }
    }
}

/// One fact of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FactDesc {
    /// A definition of a local of the analysed function, a global, or a constant
    /// location of memory (the store's access).
    Local {
        var: u32,
        site: Site,
    },
    Global {
        var: u32,
        site: Site,
    },
    Memory {
        location: Access,
        site: Site,
    },
    /// The bytes of an access are available.
    Available {
        access: Access,
    },
}

/// What a pair of consecutive paths says happened between them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Between {
    /// The first path's invocation ended (a return, or a tail call).
    returns: bool,
    /// The second path begins an invocation (a call, or a tail call).
    calls: bool,
    /// The first path ended in a call of an import.
    import: bool,
}

/// A grammar profile opened with its module.
pub struct Dff {
    pub dag: Dag,
    pub module: Module,
    /// Per terminal: its blocks and its count in the run.
    path_blocks: Vec<Vec<BlockIdx>>,
    counts: Vec<u64>,
    /// Consecutive terminals, how often each pair occurs, and what happened between.
    junctions: Vec<(u32, u32, u64, Between)>,
    /// The first terminal of the run.
    first: Option<u32>,
}

/// Opens a grammar profile (or a trace profile, compressed on the way) and checks that
/// `module` is the module it was recorded from.
pub fn open(profile: &Path, module: &Path) -> Result<Dff, Error> {
    let dag = Dag::open(profile)?;
    let module = Module::open(&dag.profile, module)?;
    let bad = |what: String| Error::Invalid(format!("{}: {what}", dag.profile.path.display()));
    let mut path_blocks = Vec::with_capacity(dag.paths.len());
    for e in &dag.paths {
        let numbering = dag.profile.numberings.get(e.func).ok_or_else(|| bad(format!("function {} has no paths", e.func)))?;
        path_blocks.push(numbering.decode(e.path).map_err(|_| bad(format!("function {} has no path {}", e.func, e.path)))?);
    }
    let counts = dag.grammar.terminal_counts(dag.paths.len() as u32);
    let pairs = dag.grammar.consecutive_pairs();
    let mut ends: FuncMap<Vec<BlockEnd>> = FuncMap::new(dag.profile.meta.functions.len());
    for f in &dag.profile.meta.functions {
        let (Some(cfg), Some(numbering)) = (&f.cfg, dag.profile.numberings.get(f.index)) else { continue };
        ends.insert(f.index, block_ends(cfg, numbering));
    }
    let mut junctions = Vec::with_capacity(pairs.len());
    for (&(wpp_grammar::Terminal(t1), wpp_grammar::Terminal(t2)), &count) in &pairs {
        let (e1, e2) = (dag.paths[t1 as usize], dag.paths[t2 as usize]);
        let last = *path_blocks[t1 as usize].last().expect("a path has a block");
        let first = path_blocks[t2 as usize][0];
        let end = ends.get(e1.func).and_then(|v| v.get(last.idx())).cloned().unwrap_or_default();
        let entry = first == BlockIdx(0);
        let cannot = || bad(format!("path {} of function {} cannot follow path {} of function {}", e2.path, e2.func, e1.path, e1.func));
        // As the TWPP partition reads them (`wpp_twpp::partition`).
        let j = if let Some(after) = end.call {
            if entry {
                Between { calls: true, ..Between::default() }
            } else if e2.func == e1.func && first == after {
                Between { import: true, ..Between::default() }
            } else {
                return Err(cannot());
            }
        } else if e2.func == e1.func && end.back.contains(&first) {
            Between::default()
        } else if end.ret {
            Between { returns: true, calls: entry, ..Between::default() }
        } else {
            return Err(cannot());
        };
        junctions.push((t1, t2, count, j));
    }
    junctions.sort_unstable_by_key(|j| (j.0, j.1));
    let first = first_terminal(&dag.grammar);
    Ok(Dff { dag, module, path_blocks, counts, junctions, first })
}

/// The first terminal the grammar derives.
fn first_terminal(g: &Grammar) -> Option<u32> {
    let mut r = 0usize;
    loop {
        match *g.rules.get(r)?.first()? {
            Sym::T(t) => return Some(t.0),
            Sym::N(c) => r = c.idx(),
        }
    }
}

/// Where to look.
#[derive(Clone, Copy, Debug)]
pub enum Scope {
    /// Every block of the function (at its entry).
    Func(FuncIdx),
    /// Before the instruction at this byte offset (reaching definitions), or the load
    /// there (available loads).
    At(u32),
}

/// A point of interest of the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PointAt {
    block: BlockIdx,
    /// Before the action with this offset; `None` at the block's entry.
    at: Option<u32>,
    /// For available loads, the load's fact.
    fact: Option<u32>,
}

/// One fact at one point.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FactRow {
    /// `local`, `global`, `memory` or `available`.
    pub kind: &'static str,
    /// The variable, the location or the access, e.g. `local 3`, `[0x1040] (4 bytes)`.
    pub variable: String,
    /// The definition: `instruction` (with its place), `entry` or `init`; for available
    /// loads, the load itself.
    pub site: &'static str,
    pub place: Option<Place>,
    /// Executions of the point at which the fact held.
    pub exact: u64,
    /// What the edge profile's independence assumption gives (`null` when its system is
    /// singular).
    pub estimate: Option<f64>,
}

/// One point and the facts that held there.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PointRow {
    pub point: Place,
    pub block: u32,
    pub executions: u64,
    pub facts: Vec<FactRow>,
}

/// A fact at a point where exact and estimate differ.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Difference {
    pub point: Place,
    pub block: u32,
    pub executions: u64,
    pub fact: FactRow,
    /// `estimate - exact`.
    pub error: f64,
}

/// How much of the function and of the grammar the computation touched (the paper's
/// Fig. 5 categories for the function's blocks).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Coverage {
    pub blocks: usize,
    pub executed_and_analysed: usize,
    pub executed_not_analysed: usize,
    pub not_executed: usize,
    pub facts: usize,
    pub grammar_rules: usize,
    pub rules_with_points: usize,
    pub rules_with_effect: usize,
    pub terminals_run: usize,
    pub terminals_with_points: usize,
    pub passes: usize,
}

/// The frequencies of one problem at the points of one function.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    pub problem: &'static str,
    pub function: String,
    pub function_index: u32,
    pub points: Vec<PointRow>,
    /// Facts at points whose estimate, rounded, is not the exact count; largest
    /// `|estimate - exact|` first.
    pub differences: Vec<Difference>,
    pub coverage: Coverage,
}

/// A problem built for one function: its facts and the grammar problem.
struct Built {
    facts: Vec<FactDesc>,
    problem: Problem,
    points: Vec<PointAt>,
    /// Per block of the function: the transfers between its points (first from the
    /// block's entry), with the point each starts at.
    block_steps: Vec<Vec<Step>>,
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

impl Dff {
    fn name(&self, f: FuncIdx) -> String {
        self.dag.profile.meta.functions.get(f.idx()).map_or_else(|| format!("func[{}]", f.0), |x| x.name.clone())
    }

    /// The function and block holding byte offset `at`.
    pub fn block_at(&self, at: u32) -> Option<(FuncIdx, BlockIdx)> {
        self.module.block_at(at)
    }

    fn place(&self, f: FuncIdx, at: u32) -> Place {
        Place { function: self.name(f), function_index: f.0, at: format!("{at:#x}"), source: self.module.source(at) }
    }

    /// The first instruction of `func` on a source line (`FILE:LINE`, the file matched by
    /// its ending): a block start or an instruction with an action.
    pub fn first_on_line(&self, func: FuncIdx, file: &str, line: u32) -> Option<u32> {
        let cfg = self.dag.profile.meta.functions.get(func.idx())?.cfg.as_ref()?;
        self.module.first_on_line(cfg, func, file, line)
    }

    /// Builds the problem for `func`'s points.
    fn build(&self, kind: ProblemKind, func: FuncIdx, at: Option<u32>) -> Result<Built, Error> {
        let fx =
            self.module.effects.get(func).ok_or_else(|| Error::Invalid(format!("{}: function {} has no code", self.module.path.display(), self.name(func))))?;
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
                    let (f, b) = self.block_at(at).expect("checked by the caller");
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
            if self.counts[t] == 0 {
                terminals.push(Terminal::default());
                continue;
            }
            let blocks = block_cache.entry(e.func).or_insert_with(|| steps_of(e.func, &cat));
            let mut steps: Vec<Step> = Vec::new();
            for b in &self.path_blocks[t] {
                steps.extend(blocks.get(b.idx()).into_iter().flatten().cloned());
            }
            terminals.push(Terminal { framed: e.func == func, steps });
        }
        let block_steps = block_cache.remove(&func).unwrap_or_else(|| steps_of(func, &cat));
        // Calls and returns of `func`, and calls of imports (which may write any memory).
        let mut junctions = FxHashMap::default();
        for &(t1, t2, _, j) in &self.junctions {
            let closes = j.returns && self.dag.paths[t1 as usize].func == func;
            let opens = j.calls && self.dag.paths[t2 as usize].func == func;
            let import = j.import && kind == ProblemKind::AvailableLoads;
            if closes || opens || import {
                let transfer = if import { import_kill.clone() } else { Transfer::IDENTITY };
                junctions.insert((t1, t2), wpp_grammar::dff::Junction { closes, transfer, opens });
            }
        }
        let open_at_start = self.first.is_some_and(|t| self.dag.paths[t as usize].func == func);
        let problem = Problem { facts: n_facts, frame_facts, initial, frame_entry, open_at_start, terminals, junctions, points: points.len() as u32 };
        Ok(Built { facts: cat.facts, problem, points, block_steps })
    }

    /// Data flow frequencies of `kind` at the points `scope` names (the points of one
    /// function), with the edge profile's estimate beside each.
    pub fn analyse(&self, kind: ProblemKind, scope: Scope) -> Result<Report, Error> {
        let (func, at) = match scope {
            Scope::Func(f) => (f, None),
            Scope::At(at) => {
                let (f, _) =
                    self.block_at(at).ok_or_else(|| Error::Invalid(format!("{}: byte offset {at:#x} is in no function's code", self.module.path.display())))?;
                (f, Some(at))
            }
        };
        let built = self.build(kind, func, at)?;
        let solver = Solver::new(&self.dag.grammar, &built.problem).map_err(|e| Error::Invalid(format!("{}: {e}", self.dag.profile.path.display())))?;
        let freq = solver.solve(chunk_for(&built.problem, &self.dag.grammar));
        let estimate = self.estimate(func, &built, &freq);
        Ok(self.report(kind, func, at, &built, &freq, &estimate))
    }

    /// The grammar problem of `kind` at every block of `func` (for benchmarks and
    /// checks: [`wpp_grammar::dff::abstract_run`] takes it too).
    pub fn problem(&self, kind: ProblemKind, func: FuncIdx) -> Result<Problem, Error> {
        Ok(self.build(kind, func, None)?.problem)
    }

    /// The most executed function: the one with the most block executions.
    pub fn hottest_function(&self) -> Option<FuncIdx> {
        let mut by: FxHashMap<FuncIdx, u64> = FxHashMap::default();
        for (t, e) in self.dag.paths.iter().enumerate() {
            *by.entry(e.func).or_default() += self.counts[t] * self.path_blocks[t].len() as u64;
        }
        by.into_iter().max_by_key(|&(f, n)| (n, std::cmp::Reverse(f))).map(|x| x.0)
    }

    /// Facts that held at each point (for the dual, the original problem's facts), and
    /// how often: exact, in the same order as the problem's facts.
    pub fn exact(&self, kind: ProblemKind, func: FuncIdx) -> Result<(Vec<FactDesc>, Frequencies), Error> {
        let built = self.build(kind, func, None)?;
        let solver = Solver::new(&self.dag.grammar, &built.problem).map_err(|e| Error::Invalid(e.to_string()))?;
        Ok((built.facts, solver.solve(chunk_for(&built.problem, &self.dag.grammar))))
    }

    /// The edge counts of `func` between its blocks, and its invocations.
    fn edge_profile(&self, func: FuncIdx, n_blocks: usize) -> (FxHashMap<(u32, u32), u64>, Vec<u64>, u64) {
        let mut edges: FxHashMap<(u32, u32), u64> = FxHashMap::default();
        let mut node = vec![0u64; n_blocks];
        let mut invocations = 0u64;
        let ends: Vec<Option<BlockIdx>> = match self.dag.profile.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref()) {
            Some(cfg) => {
                let mut v = vec![None; cfg.n_blocks()];
                for e in &cfg.edges {
                    if let (EdgeKind::Call, Target::Block(t)) = (e.kind, e.to) {
                        v[e.from.idx()] = Some(t);
                    }
                }
                v
            }
            None => Vec::new(),
        };
        for (t, e) in self.dag.paths.iter().enumerate() {
            let c = self.counts[t];
            if e.func != func || c == 0 {
                continue;
            }
            let blocks = &self.path_blocks[t];
            for b in blocks {
                node[b.idx()] += c;
            }
            for w in blocks.windows(2) {
                *edges.entry((w[0].0, w[1].0)).or_insert(0) += c;
            }
        }
        if self.first.is_some_and(|t| self.dag.paths[t as usize].func == func) {
            invocations += 1;
        }
        for &(t1, t2, c, j) in &self.junctions {
            let (e1, e2) = (self.dag.paths[t1 as usize], self.dag.paths[t2 as usize]);
            if j.calls && e2.func == func {
                invocations += c;
            }
            if e1.func != func {
                continue;
            }
            let last = *self.path_blocks[t1 as usize].last().expect("a path has a block");
            if let Some(after) = ends.get(last.idx()).copied().flatten() {
                // The call returns (or the import does) to the block after it.
                *edges.entry((last.0, after.0)).or_insert(0) += c;
            } else if !j.returns && !j.calls {
                *edges.entry((last.0, self.path_blocks[t2 as usize][0].0)).or_insert(0) += c;
            }
        }
        (edges, node, invocations)
    }

    /// The estimate at every point: `estimate[point][fact]` for the facts of the problem
    /// as solved (the dual's, for an intersection problem).
    fn estimate(&self, func: FuncIdx, built: &Built, exact: &Frequencies) -> Vec<FxHashMap<u32, f64>> {
        let n_blocks = built.block_steps.len();
        let (edges, node, invocations) = self.edge_profile(func, n_blocks);
        let cfg = self.dag.profile.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref());
        // Blocks after a call: where program-wide facts come back from callees.
        let mut after_call = vec![false; n_blocks];
        if let Some(cfg) = cfg {
            for e in &cfg.edges {
                if let (EdgeKind::Call, Target::Block(t)) = (e.kind, e.to) {
                    after_call[t.idx()] = true;
                }
            }
        }
        let p = &built.problem;
        // Each block's whole transfer.
        let whole: Vec<Transfer> = built.block_steps.iter().map(|s| s.iter().fold(Transfer::IDENTITY, |a, s| a.then(&s.transfer))).collect();
        // Groups of facts killed together.
        let mut groups: FxHashMap<(u8, u64), Vec<u32>> = FxHashMap::default();
        for (i, d) in built.facts.iter().enumerate() {
            let key = match *d {
                FactDesc::Local { var, .. } => (0, var as u64),
                FactDesc::Global { var, .. } => (1, var as u64),
                FactDesc::Memory { location, .. } => (2, ((location.memory as u64) << 48) ^ (location.offset << 8) ^ location.width as u64),
                FactDesc::Available { .. } => (3, i as u64),
            };
            groups.entry(key).or_default().push(i as u32);
        }
        let executed: Vec<usize> = (0..n_blocks).filter(|&b| node[b] > 0).collect();
        let mut preds: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n_blocks];
        for (&(u, v), &c) in &edges {
            let (u, v) = (u as usize, v as usize);
            if u < n_blocks && v < n_blocks && node[u] > 0 {
                preds[v].push((u, c as f64 / node[u] as f64));
            }
        }
        for p in &mut preds {
            p.sort_by_key(|x| x.0);
        }
        let mut at_block: Vec<FxHashMap<u32, f64>> = vec![FxHashMap::default(); n_blocks];
        let exact_at = |b: usize, d: u32| -> f64 { exact.holds[b].binary_search_by_key(&d, |x| x.0).map_or(0.0, |i| exact.holds[b][i].1 as f64) };
        for facts in groups.values() {
            let framed = facts[0] < p.frame_facts;
            let pinned = |b: usize| !framed && (b == 0 || after_call[b]);
            // Unknowns: executed blocks not pinned.
            let unknowns: Vec<usize> = executed.iter().copied().filter(|&b| !pinned(b)).collect();
            let mut slot = vec![usize::MAX; n_blocks];
            for (i, &b) in unknowns.iter().enumerate() {
                slot[b] = i;
            }
            let k = facts.len();
            // What block `u` passes on for the group: its own constant, or what held at
            // its entry.
            let constant = |u: usize| -> Option<Vec<f64>> {
                let t = &whole[u];
                let touches = facts.iter().any(|d| t.gen().binary_search(d).is_ok() || t.kill().binary_search(d).is_ok());
                touches.then(|| facts.iter().map(|d| if t.gen().binary_search(d).is_ok() { node[u] as f64 } else { 0.0 }).collect())
            };
            let mut rows: Vec<FxHashMap<usize, f64>> = vec![FxHashMap::default(); unknowns.len()];
            let mut rhs: Vec<Vec<f64>> = vec![vec![0.0; k]; unknowns.len()];
            for (i, &v) in unknowns.iter().enumerate() {
                if v == 0 && framed {
                    for (j, d) in facts.iter().enumerate() {
                        if p.frame_entry.binary_search(d).is_ok() {
                            rhs[i][j] += invocations as f64;
                        }
                    }
                }
                for &(u, w) in &preds[v] {
                    match constant(u) {
                        Some(c) => rhs[i].iter_mut().zip(&c).for_each(|(r, x)| *r += w * x),
                        None if pinned(u) => rhs[i].iter_mut().zip(facts).for_each(|(r, &d)| *r += w * exact_at(u, d)),
                        None => *rows[i].entry(slot[u]).or_insert(0.0) += w,
                    }
                }
            }
            let solved = eliminate(rows, rhs);
            for &b in &executed {
                let vals: Vec<Option<f64>> = if pinned(b) {
                    facts.iter().map(|&d| Some(exact_at(b, d))).collect()
                } else {
                    solved[slot[b]].iter().map(|&x| x.is_finite().then_some(x)).collect()
                };
                for (&d, v) in facts.iter().zip(vals) {
                    at_block[b].insert(d, v.unwrap_or(f64::NAN));
                }
            }
        }
        // Points: a block's entry, or inside it after the stretches before.
        let mut out = vec![FxHashMap::default(); built.points.len()];
        for (pi, pt) in built.points.iter().enumerate() {
            let b = pt.block.idx();
            let mut state = at_block[b].clone();
            let n = node[b] as f64;
            for s in &built.block_steps[b] {
                if s.point == Some(pi as u32) {
                    break;
                }
                for &d in s.transfer.kill() {
                    state.insert(d, 0.0);
                }
                for &d in s.transfer.gen() {
                    state.insert(d, n);
                }
            }
            out[pi] = state;
        }
        out
    }

    fn report(&self, kind: ProblemKind, func: FuncIdx, at: Option<u32>, built: &Built, freq: &Frequencies, estimate: &[FxHashMap<u32, f64>]) -> Report {
        let n_blocks = built.block_steps.len();
        let cfg = self.dag.profile.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref());
        let fact_row = |d: u32, exact: u64, est: Option<f64>| -> FactRow {
            let (kind, variable, site) = match built.facts[d as usize] {
                FactDesc::Local { var, site } => ("local", format!("local {var}"), site),
                FactDesc::Global { var, site } => ("global", format!("global {var}"), site),
                FactDesc::Memory { location, site } => ("memory", location.to_string(), site),
                FactDesc::Available { access } => ("available", access.to_string(), Site::Init),
            };
            let (site_kind, place) = match (kind, site) {
                ("available", _) => ("load", None),
                (_, Site::At(at)) => ("instruction", Some(self.place(self.block_at(at).map_or(func, |x| x.0), at))),
                (_, Site::Entry) => ("entry", None),
                (_, Site::Init) => ("init", None),
                (_, Site::Import) => ("import", None),
            };
            FactRow { kind, variable, site: site_kind, place, exact, estimate: est.filter(|x| x.is_finite()) }
        };
        let mut points = Vec::new();
        let mut differences = Vec::new();
        for (pi, pt) in built.points.iter().enumerate() {
            let executions = freq.executions[pi];
            if executions == 0 {
                continue;
            }
            // Reaching definitions: a named instruction shows only its own point.
            if at.is_some() && kind == ProblemKind::ReachingDefinitions && pt.at.is_none() {
                continue;
            }
            if kind == ProblemKind::AvailableLoads && pt.fact.is_none() {
                continue;
            }
            let offset = pt.at.unwrap_or_else(|| cfg.map_or(0, |c| c.blocks[pt.block.idx()].start));
            let place = self.place(func, offset);
            let exact_of = |d: u32| freq.holds[pi].binary_search_by_key(&d, |x| x.0).map_or(0, |i| freq.holds[pi][i].1);
            let est_of = |d: u32| estimate[pi].get(&d).copied();
            let mut facts = Vec::new();
            match pt.fact {
                Some(d) => {
                    // The dual's count is how often the load's bytes were not available.
                    let exact = executions - exact_of(d);
                    let est = est_of(d).map(|x| executions as f64 - x);
                    facts.push(fact_row(d, exact, est));
                }
                None => {
                    let mut ds: Vec<u32> = freq.holds[pi].iter().map(|x| x.0).collect();
                    ds.extend(estimate[pi].iter().filter(|(_, &v)| v >= 0.5).map(|(&d, _)| d));
                    ds.sort_unstable();
                    ds.dedup();
                    for d in ds {
                        facts.push(fact_row(d, exact_of(d), est_of(d)));
                    }
                    facts.sort_by_key(|f| std::cmp::Reverse(f.exact));
                }
            }
            for f in &facts {
                if let Some(e) = f.estimate {
                    let error = e - f.exact as f64;
                    if error.abs() >= 0.5 {
                        differences.push(Difference { point: place.clone(), block: pt.block.0, executions, fact: f.clone(), error });
                    }
                }
            }
            points.push(PointRow { point: place, block: pt.block.0, executions, facts });
        }
        differences.sort_by(|a, b| b.error.abs().total_cmp(&a.error.abs()));
        let mut coverage = Coverage { blocks: n_blocks, facts: built.facts.len(), ..Coverage::default() };
        for b in 0..n_blocks {
            let run = freq.executions.get(b).copied().unwrap_or(0) > 0;
            let analysed = built.block_steps[b].iter().any(|s| !s.transfer.is_identity());
            match (run, analysed) {
                (true, true) => coverage.executed_and_analysed += 1,
                (true, false) => coverage.executed_not_analysed += 1,
                (false, _) => coverage.not_executed += 1,
            }
        }
        let s = freq.stats;
        coverage.grammar_rules = s.rules;
        coverage.rules_with_points = s.rules_with_points;
        coverage.rules_with_effect = s.rules_with_effect;
        coverage.terminals_run = s.terminals_run;
        coverage.terminals_with_points = s.terminals_with_points;
        coverage.passes = s.passes;
        Report { problem: kind.name(), function: self.name(func), function_index: func.0, points, differences, coverage }
    }
}

/// How many facts one pass takes: as many as keep its count vectors near 512 MiB.
fn chunk_for(problem: &Problem, grammar: &Grammar) -> u32 {
    let budget = 512u64 << 20;
    let rules = grammar.rules.len().max(1) as u64 + problem.terminals.len() as u64;
    ((budget / 8 / rules) as u32).clamp(64, problem.facts.max(64))
}

/// Solves `y = A y + b` (rows of `A` sparse over the unknowns, `b` one vector per
/// unknown) by Gaussian elimination in index order and back substitution. An unknown
/// whose equation is singular gets NaN.
fn eliminate(mut rows: Vec<FxHashMap<usize, f64>>, mut rhs: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = rows.len();
    // Rows after `i` that mention `i`.
    let mut refs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (j, r) in rows.iter().enumerate() {
        for &i in r.keys() {
            if i < j {
                refs[i].push(j);
            }
        }
    }
    for i in 0..n {
        let self_coef = rows[i].remove(&i).unwrap_or(0.0);
        let denom = 1.0 - self_coef;
        if denom.abs() < 1e-12 {
            rows[i].clear();
            rhs[i].iter_mut().for_each(|x| *x = f64::NAN);
        } else if self_coef != 0.0 {
            rows[i].values_mut().for_each(|x| *x /= denom);
            rhs[i].iter_mut().for_each(|x| *x /= denom);
        }
        let row_i: Vec<(usize, f64)> = rows[i].iter().map(|(&k, &v)| (k, v)).collect();
        let rhs_i = rhs[i].clone();
        let mut users = std::mem::take(&mut refs[i]);
        users.sort_unstable();
        users.dedup();
        for j in users {
            let Some(c) = rows[j].remove(&i) else { continue };
            for &(k, v) in &row_i {
                let e = rows[j].entry(k).or_insert(0.0);
                if *e == 0.0 && k > i && k != j {
                    if k < j {
                        refs[k].push(j);
                    } else {
                        // j < k: `j` is eliminated before `k`, which `j` now mentions.
                    }
                }
                *e += c * v;
            }
            for (x, y) in rhs[j].iter_mut().zip(&rhs_i) {
                *x += c * y;
            }
        }
    }
    let mut y: Vec<Vec<f64>> = vec![Vec::new(); n];
    for i in (0..n).rev() {
        let mut v = rhs[i].clone();
        for (&k, &c) in &rows[i] {
            debug_assert!(k > i, "eliminated rows mention later unknowns only");
            for (x, z) in v.iter_mut().zip(&y[k]) {
                *x += c * z;
            }
        }
        y[i] = v;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sparse elimination against plain fixed-point iteration `y ← A y + b`, on random
    /// systems whose rows sum to at most 0.9 (so the iteration converges quickly).
    #[test]
    fn elimination_solves_the_system() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..200 {
            let n = 1 + (next() % 30) as usize;
            let k = 1 + (next() % 3) as usize;
            let mut rows: Vec<FxHashMap<usize, f64>> = vec![FxHashMap::default(); n];
            for row in rows.iter_mut() {
                let m = next() % 4;
                let mut left = 0.9;
                for _ in 0..m {
                    let j = (next() % n as u64) as usize;
                    let w = left * (next() % 1000) as f64 / 1000.0;
                    left -= w;
                    *row.entry(j).or_insert(0.0) += w;
                }
            }
            let rhs: Vec<Vec<f64>> = (0..n).map(|_| (0..k).map(|_| (next() % 100) as f64).collect()).collect();
            let mut y = vec![vec![0.0; k]; n];
            for _ in 0..2000 {
                y = (0..n).map(|i| (0..k).map(|c| rhs[i][c] + rows[i].iter().map(|(&j, &w)| w * y[j][c]).sum::<f64>()).collect()).collect();
            }
            let got = eliminate(rows.clone(), rhs.clone());
            for i in 0..n {
                for c in 0..k {
                    assert!((got[i][c] - y[i][c]).abs() < 1e-6 * (1.0 + y[i][c].abs()), "case {case}: y[{i}][{c}] {} vs {}", got[i][c], y[i][c]);
                }
            }
        }
    }
}
