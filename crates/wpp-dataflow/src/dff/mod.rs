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
//! with its count ([`Grammar::consecutive_pairs`](wpp_grammar::Grammar::consecutive_pairs)), each pair is classified once (module `pairs`), and the problem
//! gets a `Junction` for every pair where a frame of `F` closes or opens or an import is
//! called. A pair no run could produce is an error naming both paths. The same pairs give
//! the edges between paths — back edges and calls — for the edge profile.
//!
//! ## The estimate (module `estimate`)
//!
//! The usual independence assumption: at each block, the facts that hold are mixed from
//! its predecessors in proportion to the edge counts, whatever path led there. For each
//! variable (all of its definitions at once) a linear system over `F`'s executed blocks
//! is solved exactly by sparse elimination. Locals start at `F`'s entry with their entry
//! definitions; program-wide facts are taken from the exact result at `F`'s entry and
//! after each call (an edge profile of `F` says nothing about the callers and callees), so
//! the estimate differs from the exact count only by what `F`'s own paths correlate.
//!
//! The code follows those parts: `pairs` reads the run off the grammar, `problem` builds
//! a problem from the module's instructions, `estimate` computes the edge profile's
//! estimate, `rows` makes the report.

mod estimate;
mod pairs;
mod problem;
mod rows;

use std::path::Path;

use rustc_hash::FxHashMap;
use wpp_grammar::dff::{Frequencies, Problem, Solver};
use wpp_grammar::Grammar;
use wpp_model::effects::Access;
use wpp_model::{BlockIdx, FuncIdx};
use wpp_report::dataflow::DffReport;
use wpp_report::{select_func, Dag, Top};
use wpp_twpp::dataflow::Site;

use crate::place::resolve_point;
use crate::{Error, Module};
use pairs::Run;

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

/// A grammar profile's run with its module, ready for problems.
pub struct Dff<'a> {
    pub dag: &'a Dag,
    pub module: &'a Module,
    run: Run,
}

/// Opens a grammar profile (or a trace profile, compressed on the way) and the module it
/// was recorded from (checked by its hash), for [`Dff::new`].
pub fn open(profile: &Path, module: &Path) -> Result<(Dag, Module), Error> {
    let dag = Dag::open(profile)?;
    let module = Module::open(&dag.profile, module)?;
    Ok((dag, module))
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
pub(super) struct PointAt {
    pub block: BlockIdx,
    /// Before the action with this offset; `None` at the block's entry.
    pub at: Option<u32>,
    /// For available loads, the load's fact.
    pub fact: Option<u32>,
}

impl<'a> Dff<'a> {
    /// Reads the run off `dag` (its paths, their counts and consecutive pairs) for
    /// problems on `module`'s instructions.
    pub fn new(dag: &'a Dag, module: &'a Module) -> Result<Dff<'a>, Error> {
        dag.one_run("data flow frequencies")?;
        Ok(Dff { dag, module, run: Run::of(dag)? })
    }

    /// Data flow frequencies of `kind` at the points `scope` names (the points of one
    /// function), with the edge profile's estimate beside each.
    pub fn analyse(&self, kind: ProblemKind, scope: Scope) -> Result<DffReport, Error> {
        let (func, at) = match scope {
            Scope::Func(f) => (f, None),
            Scope::At(at) => {
                let (f, _) = self
                    .module
                    .block_at(at)
                    .ok_or_else(|| Error::Place(format!("{}: byte offset {at:#x} is in no function's code", self.module.path.display())))?;
                (f, Some(at))
            }
        };
        let built = self.build(kind, func, at)?;
        let solver = Solver::new(&self.dag.grammar, &built.problem).map_err(|e| Error::Invalid(format!("{}: {e}", self.dag.profile.path.display())))?;
        let freq = solver.solve(chunk_for(&built.problem, &self.dag.grammar));
        let estimate = self.estimate(func, &built, &freq);
        Ok(self.report(kind, func, at, &built, &freq, &estimate))
    }

    /// `kind` at the points a user names (`wpp dff`, the HTML report): every block of
    /// function `func` (name or index), or the one point `at` (a block of `func`, a byte
    /// offset, or a source line in `func`); as many points and differences as `top` keeps.
    pub fn answer(&self, kind: ProblemKind, func: Option<&str>, at: Option<&str>, top: Top) -> Result<DffReport, Error> {
        let profile = &self.dag.profile;
        let func = func.map(|f| select_func(profile, f)).transpose()?;
        let scope = match (at, func) {
            (Some(at), f) => Scope::At(resolve_point(self.module, profile, at, f)?),
            (None, Some(f)) => Scope::Func(f),
            (None, None) => return Err(Error::Place("say where: a function (--func F, every block of F) or a point (--at POINT)".into())),
        };
        let mut report = self.analyse(kind, scope)?;
        report.truncation.cut("points", &mut report.points, top);
        report.truncation.cut("differences", &mut report.differences, top);
        Ok(report)
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
            *by.entry(e.func).or_default() += self.run.counts[t] * self.run.path_blocks[t].len() as u64;
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
}

/// How many facts one pass takes: as many as keep its count vectors near 512 MiB.
fn chunk_for(problem: &Problem, grammar: &Grammar) -> u32 {
    let budget = 512u64 << 20;
    let rules = grammar.rules.len().max(1) as u64 + problem.terminals.len() as u64;
    ((budget / 8 / rules) as u32).clamp(64, problem.facts.max(64))
}
