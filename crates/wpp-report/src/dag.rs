//! A profile's whole program path as a grammar whose terminals are paths: what the DAG
//! analyses (hot subpaths, queries) run on.

use rustc_hash::FxHashMap;
use wpp_grammar::Grammar;
use wpp_model::PathEvent;
use wpp_profile::Profile;

use crate::{Error, PathRow};

/// A profile's path trace as a grammar over its paths.
pub struct Dag {
    pub profile: Profile,
    pub grammar: Grammar,
    /// The path of each terminal.
    pub paths: Vec<PathEvent>,
    terminal_of: FxHashMap<PathEvent, u32>,
}

impl Dag {
    /// Loads a grammar profile, or compresses a trace profile's events (SEQUITUR(1) behind
    /// its front ends, as `wpp record` does, in memory) into a grammar.
    pub fn open(path: &std::path::Path) -> Result<Dag, Error> {
        Dag::of(Profile::open(path)?)
    }

    /// The grammar of an open profile (see [`Dag::open`]).
    pub fn of(profile: Profile) -> Result<Dag, Error> {
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
        Ok(Dag { profile, grammar, paths, terminal_of })
    }

    /// Instructions executed by one run of each terminal's path.
    pub fn instruction_costs(&self) -> Vec<u64> {
        self.paths.iter().map(|&e| crate::row::path_instructions(&self.profile, e)).collect()
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
