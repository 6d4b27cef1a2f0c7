//! Data flow queries on a TWPP with the module it was recorded from: the module is
//! checked against the profile's hash, its blocks' definitions, loads and stores read
//! (`wpp_wasm::effects`), and `wpp_twpp::dataflow` answers; this module names what the
//! answers point at (instructions by byte offset, function and source line) as report
//! rows for any front end.

use std::path::{Path, PathBuf};

use wpp_model::effects::{Access, Action, Base, FuncEffects, Var};
use wpp_model::{BlockIdx, FuncIdx, FuncMap};
use wpp_twpp::dataflow::{Answer, Engine, Fact, Point, Program, Resolution, Site};
use wpp_twpp::Twpp;
use wpp_wasm::InstructionLines;

use crate::Error;

/// A module opened for a profile: checked against the profile's hash and CFGs, its
/// blocks' effects and its instructions' source lines read, its blocks indexed by byte
/// offset. What every analysis that needs the module's instructions starts from.
pub struct Module {
    pub path: PathBuf,
    pub effects: FuncMap<FuncEffects>,
    lines: Option<InstructionLines>,
    /// Every block's byte range with its function and index, by start (blocks do not
    /// overlap).
    blocks: Vec<(u32, u32, FuncIdx, BlockIdx)>,
}

impl Module {
    /// Reads `path` and checks that it is the module `profile` was recorded from.
    pub fn open(profile: &wpp_profile::Profile, path: &Path) -> Result<Module, Error> {
        let wasm = std::fs::read(path).map_err(|source| Error::Read { path: path.to_owned(), source })?;
        profile.check_module(path, &wasm)?;
        let program = wpp_wasm::decode(&wasm).map_err(|source| Error::Decode { path: path.to_owned(), source })?;
        for (f, g) in program.functions.iter().zip(&profile.meta.functions) {
            if f.cfg != g.cfg {
                return Err(Error::Invalid(format!("{}: function {} has another CFG than the profile's, though the hashes agree", path.display(), f.name)));
            }
        }
        let effects = wpp_wasm::effects(&wasm, &program).map_err(|source| Error::Decode { path: path.to_owned(), source })?;
        let lines = wpp_wasm::instruction_lines(&wasm).ok().flatten();
        let mut blocks: Vec<(u32, u32, FuncIdx, BlockIdx)> = profile
            .meta
            .functions
            .iter()
            .filter_map(|f| Some((f.index, f.cfg.as_ref()?)))
            .flat_map(|(f, cfg)| cfg.blocks.iter().enumerate().map(move |(i, b)| (b.start, b.end, f, BlockIdx(i as u32))))
            .collect();
        blocks.sort_unstable_by_key(|b| b.0);
        Ok(Module { path: path.to_owned(), effects, lines, blocks })
    }

    /// The function and block holding byte offset `at`.
    pub fn block_at(&self, at: u32) -> Option<(FuncIdx, BlockIdx)> {
        let i = self.blocks.partition_point(|b| b.0 <= at).checked_sub(1)?;
        let (start, end, f, b) = self.blocks[i];
        (start <= at && at < end).then_some((f, b))
    }

    /// `FILE:LINE` of the instruction at `at`, when the module has DWARF.
    pub fn source(&self, at: u32) -> Option<String> {
        self.lines.as_ref().and_then(|l| l.line_at(at)).map(|(file, line)| format!("{file}:{line}"))
    }

    /// Whether the instruction at `at` is on `line` of `file` (matched by its ending).
    pub fn on_line(&self, at: u32, file: &str, line: u32) -> bool {
        self.lines.as_ref().and_then(|l| l.line_at(at)).is_some_and(|(f, l)| l == line && (f == file || f.ends_with(&format!("/{file}"))))
    }

    /// The first instruction of `func` (whose CFG is `cfg`) on a source line: a block
    /// start or an instruction with an action.
    pub fn first_on_line(&self, cfg: &wpp_model::Cfg, func: FuncIdx, file: &str, line: u32) -> Option<u32> {
        let fx = self.effects.get(func)?;
        let mut offsets: Vec<u32> = cfg.blocks.iter().map(|b| b.start).chain(fx.blocks.iter().flatten().map(Action::at)).collect();
        offsets.sort_unstable();
        offsets.into_iter().find(|&at| self.on_line(at, file, line))
    }
}

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

/// Where a program point or a site is: the function, the byte offset and the source line.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Place {
    pub function: String,
    pub function_index: u32,
    /// Module byte offset of the instruction, `0x…`.
    pub at: String,
    /// `FILE:LINE` when the module has DWARF.
    pub source: Option<String>,
}

/// How often one site generated or killed the fact.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SiteCount {
    /// `instruction`, `entry`, `init` or `import`.
    pub kind: &'static str,
    /// The instruction, for `instruction`.
    pub place: Option<Place>,
    pub count: u64,
}

/// A load and how often it was redundant.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LoadRow {
    pub load: Place,
    /// The address expression, e.g. `[local 3 + 8] (4 bytes)`.
    pub address: String,
    pub executions: u64,
    /// Executions at which the bytes were already loaded or stored there.
    pub redundant: u64,
    /// The accesses that made them available, most often first.
    pub available_from: Vec<SiteCount>,
    /// What made them unavailable the other times.
    pub killed_by: Vec<SiteCount>,
}

/// Which loads to analyse.
pub enum LoadSelect<'a> {
    /// Every load of a function.
    Func(FuncIdx),
    /// The load at a byte offset.
    At(u32),
    /// The loads of a source line (`FILE:LINE`, the file matched by its ending).
    Line { func: Option<FuncIdx>, file: &'a str, line: u32 },
}

/// The definitions of a variable that reached a point.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReachingReport {
    pub point: Place,
    pub variable: String,
    pub executions: u64,
    pub definitions: Vec<SiteCount>,
}

/// Parses `0x1A2B`, `6699` (a byte offset) or `FILE:LINE`.
pub enum Location<'a> {
    Offset(u32),
    Line(&'a str, u32),
}

impl<'a> Location<'a> {
    pub fn parse(s: &'a str) -> Option<Location<'a>> {
        if let Some(hex) = s.strip_prefix("0x") {
            return u32::from_str_radix(hex, 16).ok().map(Location::Offset);
        }
        if let Ok(n) = s.parse::<u32>() {
            return Some(Location::Offset(n));
        }
        let (file, line) = s.rsplit_once(':')?;
        Some(Location::Line(file, line.parse().ok()?))
    }
}

impl Analysis {
    /// The query engine over this TWPP (reads the call graph once; function parts as
    /// queries need them).
    pub fn engine(&self) -> Result<Engine<'_>, Error> {
        let p = Program { functions: &self.twpp.profile.meta.functions, numberings: &self.twpp.profile.numberings, effects: &self.module.effects };
        Engine::new(&self.twpp, p).map_err(Error::Dataflow)
    }

    /// The function and block holding byte offset `at`.
    pub fn block_at(&self, at: u32) -> Option<(FuncIdx, BlockIdx)> {
        self.module.block_at(at)
    }

    fn place(&self, at: u32) -> Place {
        let func = self.block_at(at).map(|(f, _)| f);
        let (function, function_index) = match func {
            Some(f) => (self.twpp.profile.meta.functions[f.idx()].name.clone(), f.0),
            None => (String::from("?"), u32::MAX),
        };
        Place { function, function_index, at: format!("{at:#x}"), source: self.module.source(at) }
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
    /// most redundant executions first; and how many loads were left out because their
    /// address is not an expression the analysis follows.
    pub fn redundancy(&self, select: LoadSelect) -> Result<(Vec<LoadRow>, usize), Error> {
        let mut loads: Vec<(Point, Access)> = Vec::new();
        for (func, fx) in self.module.effects.iter() {
            for (b, actions) in fx.blocks.iter().enumerate() {
                for a in actions {
                    let Action::Load { access, at } = *a else { continue };
                    let wanted = match select {
                        LoadSelect::Func(f) => f == func,
                        LoadSelect::At(x) => x == at,
                        LoadSelect::Line { func: f, file, line } => f.is_none_or(|f| f == func) && self.module.on_line(at, file, line),
                    };
                    if wanted {
                        loads.push((Point { func, block: BlockIdx(b as u32), at }, access));
                    }
                }
            }
        }
        let untracked = loads.iter().filter(|(_, a)| a.base == Base::Unknown).count();
        let mut engine = self.engine()?;
        let mut rows = Vec::new();
        for (point, access) in loads.into_iter().filter(|(_, a)| a.base != Base::Unknown) {
            let answer = engine.query(point, &Fact::Available(access)).map_err(Error::Dataflow)?;
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
        Ok((rows, untracked))
    }

    /// Which definitions of `var` reached the point before the instruction at `at` (in
    /// the function holding it), and how often each did.
    pub fn reaching(&self, at: u32, var: Var) -> Result<ReachingReport, Error> {
        let (func, block) =
            self.block_at(at).ok_or_else(|| Error::Invalid(format!("{}: byte offset {at:#x} is in no function's code", self.module.path.display())))?;
        if let Var::Local(l) = var {
            let n = self.module.effects.get(func).map_or(0, |fx| fx.locals);
            if l >= n {
                let name = &self.twpp.profile.meta.functions[func.idx()].name;
                return Err(Error::Invalid(format!("{}: function {name} has {n} locals; there is no local {l}", self.module.path.display())));
            }
        }
        let mut engine = self.engine()?;
        let answer = engine.query(Point { func, block, at }, &Fact::Reaching(var)).map_err(Error::Dataflow)?;
        Ok(ReachingReport { point: self.place(at), variable: var.to_string(), executions: answer.executions, definitions: self.site_counts(&answer, true) })
    }

    /// The first instruction of `func` on a source line, if any.
    pub fn first_on_line(&self, func: FuncIdx, file: &str, line: u32) -> Option<u32> {
        let cfg = self.twpp.profile.meta.functions.get(func.idx())?.cfg.as_ref()?;
        self.module.first_on_line(cfg, func, file, line)
    }
}
