//! A profile's whole program path as a grammar whose terminals are paths: what the DAG
//! analyses (hot subpaths, queries) run on.
//!
//! A merged profile's runs make one grammar: their start rules one after the other, each
//! followed by a run boundary, a terminal of its own that costs nothing and is no path,
//! so that no subpath found spans two runs ([`Dag::boundary`]).

use rustc_hash::FxHashMap;
use wpp_grammar::{Grammar, RuleId, Sym, Terminal};
use wpp_model::{FuncIdx, PathEvent, PathId};
use wpp_profile::Profile;

use crate::{Error, PathRow};

/// A profile's path trace as a grammar over its paths.
pub struct Dag {
    pub profile: Profile,
    pub grammar: Grammar,
    /// The path of each terminal (the run boundary's is [`BOUNDARY`]).
    pub paths: Vec<PathEvent>,
    /// Of a merged profile's runs together, the run boundary's terminal.
    pub boundary: Option<u32>,
    terminal_of: FxHashMap<PathEvent, u32>,
}

/// The event that stands for the boundary between two runs: no function has its index.
pub const BOUNDARY: PathEvent = PathEvent { func: FuncIdx(u32::MAX), path: PathId(u64::MAX) };

impl Dag {
    /// Loads a grammar profile, or compresses a trace profile's events (SEQUITUR(1) behind
    /// its front ends, as `wpp record` does, in memory) into a grammar.
    pub fn open(path: &std::path::Path) -> Result<Dag, Error> {
        Dag::of(Profile::open(path)?)
    }

    /// The grammar of an open profile (see [`Dag::open`]); of a merged profile, of all its
    /// runs (see the module documentation).
    pub fn of(profile: Profile) -> Result<Dag, Error> {
        if !profile.has_grammar() && !profile.has_trace() {
            if let Some(runs) = profile.merged_runs()? {
                return Dag::of_runs(profile, runs.len());
            }
        }
        let (grammar, paths) = if profile.has_grammar() {
            if profile.symbols.is_empty() && profile.meta.events > 0 {
                return Err(Error::Unsuitable {
                    profile: profile.path.clone(),
                    what: "a trace from elsewhere (written by `wpp compress`, no program recorded): `stats`, `expand` and `export` read it; this command needs a profile `wpp record` wrote".into(),
                });
            }
            (profile.grammar()?, profile.symbols.clone())
        } else {
            let mut paths = Vec::new();
            let mut index: FxHashMap<PathEvent, u32> = FxHashMap::default();
            // As `wpp record` builds by default, so that both give one run one grammar.
            let mut s = wpp_profile::GrammarBuilder::for_paths(wpp_profile::Builder::Sequitur1, wpp_profile::Prediction::Off);
            let mut full = None;
            profile.for_each_event(|e| {
                let t = *index.entry(e).or_insert_with(|| {
                    paths.push(e);
                    paths.len() as u32 - 1
                });
                if let Err(e) = s.push(t) {
                    full = Some(e);
                }
            })?;
            let full_error = |e: wpp_profile::GrammarFull| Error::Unsuitable { profile: profile.path.clone(), what: e.to_string() };
            if let Some(e) = full {
                return Err(full_error(e));
            }
            (s.finish().map_err(full_error)?, paths)
        };
        let terminal_of = paths.iter().enumerate().map(|(t, &e)| (e, t as u32)).collect();
        Ok(Dag { profile, grammar, paths, boundary: None, terminal_of })
    }

    /// The `n` runs of merged profile `profile` as one grammar: each run's terminals mapped
    /// to one table of paths, its rules to one set of rules (a rule of the same body in
    /// several runs is one rule), and a start rule holding each run's start rule's body
    /// and then the run boundary.
    fn of_runs(profile: Profile, n: usize) -> Result<Dag, Error> {
        let mut paths: Vec<PathEvent> = vec![BOUNDARY];
        let mut index: FxHashMap<PathEvent, u32> = FxHashMap::default();
        let mut rules: Vec<Vec<Sym>> = vec![Vec::new()];
        let mut bodies: FxHashMap<Vec<Sym>, u32> = FxHashMap::default();
        for r in 1..=n {
            let run = Dag::of(Profile::open_run(&profile.path, r)?).map_err(|e| match e {
                Error::Profile(wpp_profile::Error::NoWholePath { .. }) => Error::Unsuitable {
                    profile: profile.path.clone(),
                    what: format!("run {r} holds path counts only: the whole program path of all runs needs every run's; choose a run with --run N"),
                },
                e => e,
            })?;
            let terms: Vec<u32> = run
                .paths
                .iter()
                .map(|&e| {
                    *index.entry(e).or_insert_with(|| {
                        paths.push(e);
                        paths.len() as u32 - 1
                    })
                })
                .collect();
            // Rules renumbered children first, a body met before reusing its rule: the
            // same stretch in several runs is one rule, used as often as in all of them.
            let g = &run.grammar.rules;
            let mut id = vec![u32::MAX; g.len()];
            let map = |s: &Sym, id: &[u32]| match *s {
                Sym::T(t) => Sym::T(Terminal(terms[t.idx()])),
                Sym::N(r) => Sym::N(RuleId(id[r.idx()])),
            };
            let mut stack: Vec<(usize, bool)> = (1..g.len()).rev().map(|r| (r, false)).collect();
            while let Some((r, children_done)) = stack.pop() {
                if id[r] != u32::MAX {
                    continue;
                }
                if children_done {
                    let body: Vec<Sym> = g[r].iter().map(|s| map(s, &id)).collect();
                    id[r] = *bodies.entry(body).or_insert_with_key(|body| {
                        rules.push(body.clone());
                        rules.len() as u32 - 1
                    });
                } else {
                    stack.push((r, true));
                    stack.extend(g[r].iter().filter_map(|s| match *s {
                        Sym::N(c) if id[c.idx()] == u32::MAX => Some((c.idx(), false)),
                        _ => None,
                    }));
                }
            }
            if let Some(start) = g.first() {
                let body: Vec<Sym> = start.iter().map(|s| map(s, &id)).collect();
                rules[0].extend(body);
            }
            rules[0].push(Sym::T(Terminal(0)));
        }
        let grammar = Grammar::from(rules);
        let terminal_of = paths.iter().enumerate().skip(1).map(|(t, &e)| (e, t as u32)).collect();
        Ok(Dag { profile, grammar, paths, boundary: Some(0), terminal_of })
    }

    /// Refuses the runs of a merged profile together, for `what`, which reads one run.
    pub fn one_run(&self, what: &str) -> Result<(), Error> {
        match self.boundary {
            Some(_) => Err(Error::Unsuitable {
                profile: self.profile.path.clone(),
                what: format!("is a merged profile: {what} reads one run's whole program path; choose one with --run N"),
            }),
            None => Ok(()),
        }
    }

    /// Instructions executed by one run of each terminal's path (0 for the run boundary).
    pub fn instruction_costs(&self) -> Vec<u64> {
        self.paths.iter().map(|&e| if e == BOUNDARY { 0 } else { crate::row::path_instructions(&self.profile, e) }).collect()
    }

    /// A path given as `FUNCTION:PATH_ID` (function name or index), and its terminal, or
    /// `None` if the path never ran.
    pub fn parse_path(&self, spec: &str) -> Result<(PathEvent, Option<u32>), Error> {
        let e = crate::parse_path(&self.profile, spec)?;
        Ok((e, self.terminal_of.get(&e).copied()))
    }

    /// Terminal `t`'s path as reports show it.
    pub fn describe(&self, t: u32) -> PathRow {
        self.describe_path(self.paths[t as usize])
    }

    /// A path as reports show it.
    pub fn describe_path(&self, e: PathEvent) -> PathRow {
        PathRow::new(&self.profile, e, None)
    }
}
