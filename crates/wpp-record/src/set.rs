//! Sets of interesting paths for preferential path profiling: choosing them from a
//! profile, the set file that carries them (JSON), checking a set against the module it is
//! used with, and what a run recorded with them.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};
use wpp_model::{FuncIdx, PathEvent, PathId};
use wpp_profile::{PppFunction, PppPath, PppRecord, Profile};

use crate::Error;

/// A set of interesting paths; its JSON form is the set file.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct PathSet {
    pub module: String,
    pub module_bytes: u64,
    pub max_paths: u64,
    /// How the set was chosen.
    pub selection: String,
    pub paths: Vec<SetPath>,
    /// Per function with interesting paths, how compactly PPP numbers them.
    pub functions: Vec<SetFunction>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct SetFunction {
    pub function: String,
    pub function_index: u32,
    pub n_interesting: usize,
    /// (max id − min id + 1) / n_interesting under the PPP numbering.
    pub rho: f64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct SetPath {
    pub function: String,
    pub function_index: u32,
    pub path_id: u64,
    /// Executions in the profile the set was chosen from.
    pub count: u64,
}

/// How to choose interesting paths from a profile.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// Every path the profiled run executed (e.g. what a test suite covered).
    AllExecuted,
    /// The fewest hottest paths that account for this percentage of all executions (ties
    /// broken by function and path).
    Hot(f64),
    /// The paths listed in a file, one `FUNCTION:PATH_ID` per line (`#` starts a comment).
    Listed(std::path::PathBuf),
}

impl PathSet {
    /// Chooses the interesting paths of `p`'s program.
    pub fn select(p: &Profile, how: &Selection) -> Result<PathSet, Error> {
        let counts: HashMap<PathEvent, u64> = p.counts.iter().map(|c| (PathEvent { func: c.func, path: c.path }, c.count)).collect();
        let (chosen, selection): (BTreeSet<PathEvent>, String) = match how {
            Selection::AllExecuted => (p.counts.iter().map(|c| PathEvent { func: c.func, path: c.path }).collect(), "all executed".into()),
            Selection::Hot(percent) => {
                if !(0.0..=100.0).contains(percent) {
                    return Err(Error::Invalid(format!("--hot {percent}: a percentage is between 0 and 100")));
                }
                (hottest(p, *percent), format!("hot {percent}%"))
            }
            Selection::Listed(file) => (listed(p, file)?, format!("listed in {}", file.display())),
        };
        let mut by_func: BTreeMap<FuncIdx, Vec<PathId>> = BTreeMap::new();
        for e in &chosen {
            by_func.entry(e.func).or_default().push(e.path);
        }
        let mut functions = Vec::new();
        for (f, paths) in &by_func {
            let name = p.meta.func_name(*f);
            let numbering = p.numberings.get(*f).expect("validated: chosen paths decode");
            let ppp = wpp_paths::ppp_number(numbering, paths).map_err(|e| Error::Invalid(format!("function {name}: {e}")))?;
            functions.push(SetFunction { function: name, function_index: f.0, n_interesting: paths.len(), rho: ppp.rho().unwrap_or(1.0) });
        }
        Ok(PathSet {
            module: p.meta.module.clone(),
            module_bytes: p.meta.module_bytes,
            max_paths: p.meta.max_paths,
            selection,
            paths: chosen
                .iter()
                .map(|&e| SetPath {
                    function: p.meta.func_name(e.func),
                    function_index: e.func.0,
                    path_id: e.path.0,
                    count: counts.get(&e).copied().unwrap_or(0),
                })
                .collect(),
            functions,
        })
    }

    /// Reads a set file.
    pub fn load(file: &Path) -> Result<PathSet, Error> {
        let text = std::fs::read(file).map_err(|source| Error::Read { path: file.to_owned(), source })?;
        serde_json::from_slice(&text).map_err(|source| match wpp_model::sniff::FileKind::of(&text) {
            wpp_model::sniff::FileKind::Json => Error::NotASet { path: file.to_owned(), found: None, source: Some(source) },
            kind => Error::NotASet { path: file.to_owned(), found: Some(kind.to_string()), source: None },
        })
    }

    /// Writes the set file.
    pub fn save(&self, file: &Path) -> Result<(), Error> {
        wpp_profile::write_atomically(file, |out| {
            serde_json::to_writer_pretty(&mut *out, self)?;
            writeln!(out)
        })
        .map_err(|source| Error::Write { path: file.to_owned(), source })
    }

    /// The set's paths by function, checked against the module it is used with (numbered
    /// `numberings`, with the set's `max_paths`): the same size, and every function at its
    /// index with its name and the path among its paths. `file` and `module` name the set and
    /// the module in errors.
    pub fn interesting(
        &self,
        file: &Path,
        module: &Path,
        wasm: &[u8],
        program: &wpp_wasm::Program,
        numberings: &wpp_paths::ProgramNumbering,
    ) -> Result<wpp_wasm::Interesting, Error> {
        let bad = |m: String| Err(Error::Invalid(format!("{}: {m}", file.display())));
        if self.module_bytes != wasm.len() as u64 {
            return bad(format!(
                "chosen for {} ({} bytes), but {} has {} bytes; select the paths from a profile of this module",
                self.module,
                self.module_bytes,
                module.display(),
                wasm.len()
            ));
        }
        let mut out = wpp_wasm::Interesting::new();
        for p in &self.paths {
            let f = program.functions.get(p.function_index as usize);
            let Some(f) = f.filter(|f| f.name == p.function) else {
                return bad(format!("{} has no function {} at index {}", module.display(), p.function, p.function_index));
            };
            let Some(n) = numberings.get(f.index).map(|n| n.n_paths()) else {
                return bad(format!("function {} of {} has no code", p.function, module.display()));
            };
            if p.path_id >= n {
                return bad(format!("function {} has {n} paths, so no path {}", p.function, p.path_id));
            }
            out.entry(f.index).or_default().push(PathId(p.path_id));
        }
        Ok(out)
    }
}

/// What a PPP run recorded besides its counts, for the profile's `ppp` section: the set's
/// name and selection, each function's interesting paths with their PPP ids and counters,
/// and what the hash table counted.
pub fn ppp_record(set_name: &str, set: &PathSet, inst: &wpp_wasm::Instrumented, hashed: &wpp_runtime::PathCounts) -> Result<PppRecord, Error> {
    let mut functions = Vec::new();
    for (func, ppp) in inst.ppp.iter() {
        let kind = inst.layout.counters.iter().find(|c| c.0 == func).map(|c| c.1);
        let slots = if let Some(wpp_wasm::CounterKind::Ppp { slots, .. }) = kind { slots } else { 0 };
        let ball_larus_array = matches!(kind, Some(wpp_wasm::CounterKind::Array { .. }));
        let paths = ppp
            .ids()
            .iter()
            .map(|&(path, id)| Ok(PppPath { path, ppp_id: u64::try_from(id).map_err(|_| Error::Invalid(format!("PPP id {id} out of range")))? }))
            .collect::<Result<_, Error>>()?;
        functions.push(PppFunction { func, slots, ball_larus_array, paths });
    }
    Ok(PppRecord { set: set_name.to_string(), selection: set.selection.clone(), functions, hashed: crate::sorted_counts(hashed) })
}

/// The fewest hottest paths whose executions reach `percent` of all (ties broken by
/// function and path).
fn hottest(p: &Profile, percent: f64) -> BTreeSet<PathEvent> {
    let mut counts: Vec<_> = p.counts.iter().collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.func.cmp(&b.func)).then(a.path.cmp(&b.path)));
    let total: u128 = counts.iter().map(|c| c.count as u128).sum();
    let goal = (total as f64 * percent / 100.0).ceil() as u128;
    let mut sum = 0u128;
    let mut out = BTreeSet::new();
    for c in counts {
        if sum >= goal {
            break;
        }
        sum += c.count as u128;
        out.insert(PathEvent { func: c.func, path: c.path });
    }
    out
}

/// The paths of a list file.
fn listed(p: &Profile, file: &Path) -> Result<BTreeSet<PathEvent>, Error> {
    let text = std::fs::read_to_string(file).map_err(|source| Error::Read { path: file.to_owned(), source })?;
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        match wpp_profile::naming::parse_path(p, line) {
            Ok(e) => {
                out.insert(e);
            }
            Err(e) => return Err(Error::Invalid(format!("{}:{}: {e}", file.display(), i + 1))),
        }
    }
    Ok(out)
}
