//! What the DAG analyses (`wpp hot`, `wpp query`) share: a profile's path trace as a
//! grammar whose terminals are paths, path costs, and naming paths on the command line
//! and in reports.

use anyhow::{bail, Context as _};
use rustc_hash::FxHashMap;
use serde::Serialize;
use wpp_grammar::Grammar;
use wpp_model::{FuncIdx, PathEvent, PathId};
use wpp_profile::Profile;

/// A profile's path trace as a grammar over its paths.
pub struct Dag {
    pub profile: Profile,
    pub grammar: Grammar,
    /// The path of each terminal.
    pub paths: Vec<PathEvent>,
    terminal_of: FxHashMap<PathEvent, u32>,
}

impl Dag {
    /// Loads a grammar profile, or compresses a trace profile's events (SEQUITUR(1), in
    /// memory) into a grammar.
    pub fn open(path: &std::path::Path) -> anyhow::Result<Dag> {
        let profile = Profile::open(path)?;
        let (grammar, paths) = if profile.has_grammar() {
            if profile.symbols.is_empty() && profile.meta.events > 0 {
                bail!("{}: the grammar's terminals are not paths (a trace compressed by `wpp compress`)", path.display());
            }
            (profile.grammar()?, profile.symbols.clone())
        } else {
            let mut paths = Vec::new();
            let mut index: FxHashMap<PathEvent, u32> = FxHashMap::default();
            let mut s = wpp_grammar::Sequitur::with_lookahead();
            profile.for_each_event(|e| {
                let t = *index.entry(e).or_insert_with(|| {
                    paths.push(e);
                    paths.len() as u32 - 1
                });
                s.push(t);
            })?;
            (s.finish(), paths)
        };
        let terminal_of = paths.iter().enumerate().map(|(t, &e)| (e, t as u32)).collect();
        Ok(Dag { profile, grammar, paths, terminal_of })
    }

    /// Instructions executed by one run of each terminal's path.
    pub fn instruction_costs(&self) -> Vec<u64> {
        self.paths
            .iter()
            .map(|e| {
                let cfg = self.profile.meta.functions[e.func.idx()].cfg.as_ref();
                let blocks = self.profile.path_blocks(e.func, e.path).unwrap_or_default();
                cfg.map_or(0, |cfg| blocks.iter().map(|b| cfg.blocks[b.idx()].n_instrs as u64).sum())
            })
            .collect()
    }

    /// A path given as `FUNCTION:PATH_ID` (function name or index), and its terminal, or
    /// `None` if the path never ran.
    pub fn parse_path(&self, spec: &str) -> anyhow::Result<(PathEvent, Option<u32>)> {
        let e = parse_path(&self.profile, spec)?;
        Ok((e, self.terminal_of.get(&e).copied()))
    }

    /// A path as reports show it.
    pub fn describe(&self, t: u32) -> PathRef {
        self.describe_path(self.paths[t as usize])
    }

    pub fn describe_path(&self, e: PathEvent) -> PathRef {
        PathRef {
            function: self.profile.meta.functions[e.func.idx()].name.clone(),
            function_index: e.func.0,
            path_id: e.path.0,
            blocks: self.profile.path_blocks(e.func, e.path).unwrap_or_default().iter().map(|b| b.0).collect(),
            source: self.source_of(e.func, e.path),
        }
    }

    /// Source locations of a path (see [`source_of`]).
    pub fn source_of(&self, func: FuncIdx, path: PathId) -> Vec<String> {
        source_of(&self.profile, func, path)
    }
}

/// A path of `p`'s program given as `FUNCTION:PATH_ID` (function name or index).
pub fn parse_path(p: &Profile, spec: &str) -> anyhow::Result<PathEvent> {
    let (func, path) = spec.rsplit_once(':').with_context(|| format!("`{spec}`: a path is FUNCTION:PATH_ID, e.g. main:3"))?;
    let func = crate::paths::select_func(p, func)?;
    let path: u64 = path.parse().with_context(|| format!("`{spec}`: `{path}` is not a path number"))?;
    if p.path_blocks(func, PathId(path)).is_none() {
        bail!("`{spec}`: function {} has no path {path}", p.meta.functions[func.idx()].name);
    }
    Ok(PathEvent { func, path: PathId(path) })
}

/// Source locations of a path's blocks, `FILE:LINE` or `FILE:FIRST-LAST`, in block
/// order, without repeats. Without source lines in the profile, the byte range of the
/// path's blocks in the module: `MODULE+0xSTART-0xEND`.
pub fn source_of(p: &Profile, func: FuncIdx, path: PathId) -> Vec<String> {
    let blocks = p.path_blocks(func, path).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    if let Some(map) = &p.source {
        // Consecutive blocks in one file make one range.
        let mut run: Option<wpp_model::LineRange> = None;
        let lines = map.blocks.get(func.idx());
        for r in blocks.iter().filter_map(|b| *lines?.get(b.idx())?) {
            match &mut run {
                Some(x) if x.file == r.file => {
                    x.first = x.first.min(r.first);
                    x.last = x.last.max(r.last);
                }
                _ => {
                    out.extend(run.and_then(|x| map.format(x)));
                    run = Some(r);
                }
            }
        }
        out.extend(run.and_then(|x| map.format(x)));
    }
    if out.is_empty() {
        let cfg = p.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref());
        if let (Some(cfg), Some(first), Some(last)) = (cfg, blocks.first(), blocks.last()) {
            out.push(format!("{}+{:#x}-{:#x}", p.meta.module, cfg.blocks[first.idx()].start, cfg.blocks[last.idx()].end));
        }
    }
    out
}

/// A path in a report; its JSON form is part of the reports' contract.
#[derive(Clone, Serialize)]
pub struct PathRef {
    pub function: String,
    pub function_index: u32,
    pub path_id: u64,
    /// The path's basic blocks (indices in the function's CFG).
    pub blocks: Vec<u32>,
    pub source: Vec<String>,
}

impl std::fmt::Display for PathRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.function, self.path_id)?;
        if !self.source.is_empty() {
            write!(f, "  {}", self.source.join(" "))?;
        }
        Ok(())
    }
}
