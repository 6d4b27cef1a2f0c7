//! Data flow queries on a TWPP with the module it was recorded from: the module's blocks'
//! definitions, loads and stores (`wpp_wasm::effects`) are the facts, `wpp_twpp::dataflow`
//! answers demand-driven, and the answers become report rows naming instructions by byte
//! offset, function and source line.

use std::path::Path;

use wpp_model::effects::{Access, Action, Base, Var};
use wpp_model::progress::Progress;
use wpp_model::{BlockIdx, FuncIdx};
use wpp_report::dataflow::{LoadRow, Place, ReachingReport, RedundancyReport, SiteCount};
use wpp_report::{select_func, Top, Truncation};
use wpp_twpp::dataflow::{Answer, Engine, Fact, Point, Program, Resolution, Site};
use wpp_twpp::Twpp;

use wpp_report::point::{file_matches, nearest, Point as WrittenPoint};

use crate::place::{self, resolve_point};
use crate::{Error, Module};

/// A TWPP opened with its module.
pub struct Analysis {
    pub twpp: Twpp,
    pub module: Module,
}

/// Opens `twpp` and checks that `module` is the module it was recorded from.
pub fn open(twpp: &Path, module: &Path) -> Result<Analysis, Error> {
    let t = Twpp::open(twpp).map_err(Error::Twpp)?;
    let module = Module::open(&t.profile, module)?;
    Ok(Analysis { twpp: t, module })
}

/// Which loads to analyse.
#[derive(Clone, Copy, Debug)]
pub enum LoadSelect<'a> {
    /// Every load of a function.
    Func(FuncIdx),
    /// The load at a byte offset.
    At(u32),
    /// The loads of a block of a function.
    Block(FuncIdx, BlockIdx),
    /// The loads of a source line (`FILE:LINE`, the file matched by its ending), in one
    /// function or any.
    Line { func: Option<FuncIdx>, file: &'a str, line: u32 },
}

impl Analysis {
    /// The loads a user names: every load of function `func` (name or index), or the
    /// loads `load` names, a point in any form of [`wpp_report::point`] (a function's or
    /// block's loads, the load at a byte offset, or a source line's, in `func` if given).
    pub fn select_loads<'s>(&self, func: Option<&str>, load: Option<&'s str>) -> Result<LoadSelect<'s>, Error> {
        let profile = &self.twpp.profile;
        let func = func.map(|f| select_func(profile, f)).transpose()?;
        let Some(spec) = load else {
            return func
                .map(LoadSelect::Func)
                .ok_or_else(|| Error::Place("say which loads: a function (--func F, every load of F) or a place (--load POINT)".into()));
        };
        Ok(match WrittenPoint::parse(spec)? {
            WrittenPoint::Offset { func: named, at } => {
                place::in_func(&self.module, profile, place::func_of(profile, named, None)?, at)?;
                LoadSelect::At(at)
            }
            WrittenPoint::Block { func: named, block } => {
                let f = place::func_of(profile, named, func)?
                    .ok_or_else(|| Error::Place(format!("`{spec}`: a block needs a function: write FUNC:{spec} or give --func")))?;
                place::block_start(&self.module, profile, f, block)?;
                LoadSelect::Block(f, BlockIdx(block))
            }
            WrittenPoint::Line { file, line } => LoadSelect::Line { func, file, line },
            WrittenPoint::Func(name) => LoadSelect::Func(select_func(profile, name)?),
        })
    }

    /// The instruction a user names (a block of `func`, a byte offset, or a source line in
    /// `func`), by its byte offset.
    pub fn point(&self, at: &str, func: Option<&str>) -> Result<u32, Error> {
        let func = func.map(|f| select_func(&self.twpp.profile, f)).transpose()?;
        resolve_point(&self.module, &self.twpp.profile, at, func)
    }

    /// The query engine over this TWPP (reads the call graph once; function parts as
    /// queries need them).
    pub fn engine(&self) -> Result<Engine<'_>, Error> {
        let p = Program { functions: &self.twpp.profile.meta.functions, numberings: &self.twpp.profile.numberings, effects: &self.module.effects };
        Engine::new(&self.twpp, p).map_err(Error::Query)
    }

    fn place(&self, at: u32) -> Place {
        self.module.place(&self.twpp.profile, None, at)
    }

    fn site_counts(&self, answer: &Answer, gen: bool) -> Vec<SiteCount> {
        let mut v: Vec<SiteCount> = answer
            .by
            .iter()
            .filter(|(r, _)| matches!(r, Resolution::Gen(_)) == gen)
            .map(|(r, &count)| {
                let (Resolution::Gen(site) | Resolution::Kill(site)) = *r;
                let (kind, place) = match site {
                    Site::At(at) => ("instruction", Some(self.place(at))),
                    Site::Entry => ("entry", None),
                    Site::Init => ("init", None),
                    Site::Import => ("import", None),
                };
                SiteCount { kind, place, count }
            })
            .collect();
        v.sort_by_key(|s| std::cmp::Reverse(s.count));
        v
    }

    /// The loads selected, executed at least once, with how often each was redundant:
    /// most redundant executions first, as many as `top` keeps; and how many loads were
    /// left out because their address is not an expression the analysis follows.
    pub fn redundancy(&self, select: LoadSelect, top: Top, progress: &mut dyn Progress) -> Result<RedundancyReport, Error> {
        let mut loads: Vec<(Point, Access)> = Vec::new();
        for (func, fx) in self.module.effects.iter() {
            for (b, actions) in fx.blocks.iter().enumerate() {
                for a in actions {
                    let Action::Load { access, at } = *a else { continue };
                    let wanted = match select {
                        LoadSelect::Func(f) => f == func,
                        LoadSelect::At(x) => x == at,
                        LoadSelect::Block(f, block) => f == func && block.idx() == b,
                        LoadSelect::Line { func: f, file, line } => f.is_none_or(|f| f == func) && self.module.on_line(at, file, line),
                    };
                    if wanted {
                        loads.push((Point { func, block: BlockIdx(b as u32), at }, access));
                    }
                }
            }
        }
        if loads.is_empty() {
            if let Some(e) = self.names_no_load(select) {
                return Err(e);
            }
        }
        // A load whose block no counted path holds never ran: the counts say so without
        // the call graph (which a query of a big run takes seconds and gigabytes to read).
        let selected = loads.len();
        let ran = self.executed_blocks(loads.iter().map(|(p, _)| p.func));
        loads.retain(|(p, _)| ran.contains(&(p.func, p.block)));
        let never_ran = selected - loads.len();
        let untracked = loads.iter().filter(|(_, a)| a.base == Base::Unknown).count();
        if loads.len() == untracked {
            return Ok(RedundancyReport { loads: Vec::new(), untracked_loads: untracked, never_ran_loads: never_ran, truncation: Truncation::default() });
        }
        progress.stage("reading the call graph", None);
        let mut engine = self.engine()?;
        let mut rows = Vec::new();
        progress.stage("following each load back through the run", Some((loads.len() - untracked) as u64));
        for (point, access) in loads.into_iter().filter(|(_, a)| a.base != Base::Unknown) {
            let answer = engine.query(point, &Fact::Available(access)).map_err(Error::Query)?;
            progress.advance(1);
            if answer.executions == 0 {
                continue;
            }
            rows.push(LoadRow {
                load: self.place(point.at),
                address: access.to_string(),
                executions: answer.executions,
                redundant: answer.holds(),
                available_from: self.site_counts(&answer, true),
                killed_by: self.site_counts(&answer, false),
            });
        }
        rows.sort_by_key(|r| std::cmp::Reverse((r.redundant, r.executions)));
        let mut truncation = Truncation::default();
        truncation.cut("loads", &mut rows, top);
        Ok(RedundancyReport { loads: rows, untracked_loads: untracked, never_ran_loads: never_ran, truncation })
    }

    /// The blocks of `funcs` that some path the run counted went through.
    fn executed_blocks(&self, funcs: impl Iterator<Item = FuncIdx>) -> std::collections::HashSet<(FuncIdx, BlockIdx)> {
        let profile = &self.twpp.profile;
        let funcs: std::collections::HashSet<FuncIdx> = funcs.collect();
        let mut ran = std::collections::HashSet::new();
        for c in profile.counts.iter().filter(|c| c.count > 0 && funcs.contains(&c.func)) {
            for b in profile.path_blocks(c.func, c.path).unwrap_or_default() {
                ran.insert((c.func, b));
            }
        }
        ran
    }

    /// Why a place that selected no load names nothing, with what the module has instead:
    /// the loads nearest a byte offset, or the lines with loads of the file named (or the
    /// files with loads). `None` for a function, which may simply have no loads.
    fn names_no_load(&self, select: LoadSelect) -> Option<Error> {
        let module = self.module.path.display();
        let profile = &self.twpp.profile;
        let loads: Vec<(FuncIdx, u32)> = (self.module.effects.iter())
            .flat_map(|(f, fx)| fx.blocks.iter().flatten().filter(|a| matches!(a, Action::Load { .. })).map(move |a| (f, a.at())))
            .collect();
        match select {
            LoadSelect::Func(_) | LoadSelect::Block(..) => None,
            LoadSelect::At(x) => {
                let below = loads.iter().filter(|l| l.1 < x).max_by_key(|l| l.1);
                let above = loads.iter().filter(|l| l.1 > x).min_by_key(|l| l.1);
                let near: Vec<String> = below.into_iter().chain(above).map(|&(f, at)| format!("{at:#x} in {}", profile.meta.func_name(f))).collect();
                let hint = if near.is_empty() { "the module has no loads".to_string() } else { format!("the nearest loads are at {}", near.join(" and ")) };
                Some(Error::Place(format!("{module}: no load at byte offset {x:#x}; {hint}")))
            }
            LoadSelect::Line { func, file, line } => {
                if !self.module.has_lines() {
                    return Some(Error::Place(format!("{module}: no source lines (the module has no DWARF); name a load by its byte offset")));
                }
                let in_func = |f: FuncIdx| func.is_none_or(|g| g == f);
                let same_file = |name: &str| file_matches(name, file);
                let mut lines: Vec<u32> = Vec::new();
                let mut files: Vec<&str> = Vec::new();
                for &(_, at) in loads.iter().filter(|l| in_func(l.0)) {
                    if let Some((name, l)) = self.module.line_of(at) {
                        if same_file(name) {
                            lines.push(l);
                        } else {
                            files.push(name);
                        }
                    }
                }
                let scope = func.map(|f| format!(" in function {}", profile.meta.func_name(f))).unwrap_or_default();
                if lines.is_empty() {
                    files.sort_unstable();
                    files.dedup();
                    let shown: Vec<&str> = files.iter().take(12).copied().collect();
                    let more = if files.len() > shown.len() { format!(" and {} more", files.len() - shown.len()) } else { String::new() };
                    let hint = if files.is_empty() { "no load has a source line".to_string() } else { format!("files with loads: {}{more}", shown.join(", ")) };
                    return Some(Error::Place(format!("{module}: no load{scope} is in a file named {file}; {hint}")));
                }
                Some(Error::Place(format!(
                    "{module}: no load{scope} is on line {line} of {file}; its lines with loads: {}",
                    nearest(&lines, line, 12, |l| l.to_string())
                )))
            }
        }
    }

    /// Which definitions of `var` reached the point before the instruction at `at` (in
    /// the function holding it), and how often each did.
    pub fn reaching(&self, at: u32, var: Var, progress: &mut dyn Progress) -> Result<ReachingReport, Error> {
        let (func, block) =
            self.module.block_at(at).ok_or_else(|| Error::Place(format!("{}: byte offset {at:#x} is in no function's code", self.module.path.display())))?;
        if let Var::Global(g) = var {
            self.module.check_global(g)?;
        }
        if let Var::Local(l) = var {
            let n = self.module.effects.get(func).map_or(0, |fx| fx.locals);
            if l >= n {
                let name = self.twpp.profile.meta.func_name(func);
                return Err(Error::Invalid(format!("{}: function {name} has {n} locals; there is no local {l}", self.module.path.display())));
            }
        }
        progress.stage("reading the call graph", None);
        let mut engine = self.engine()?;
        progress.stage(&format!("following {var} back through the run"), None);
        let answer = engine.query(Point { func, block, at }, &Fact::Reaching(var)).map_err(Error::Query)?;
        Ok(ReachingReport { point: self.place(at), variable: var.to_string(), executions: answer.executions, definitions: self.site_counts(&answer, true) })
    }
}
