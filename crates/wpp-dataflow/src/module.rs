//! The module a profile was recorded from, opened for the analyses: checked against the
//! profile's hash and CFGs, its blocks' effects (`wpp_wasm::effects`) and its
//! instructions' source lines read, its blocks indexed by byte offset.

use std::path::{Path, PathBuf};

use wpp_model::effects::{Action, FuncEffects};
use wpp_model::{BlockIdx, FuncIdx, FuncMap};
use wpp_profile::Profile;
use wpp_report::dataflow::Place;
use wpp_wasm::InstructionLines;

use crate::Error;

/// Reads the module at `path` and checks that it is the one `profile` was recorded from
/// (its hash, then each function's CFG): its bytes, decoded.
fn read_checked(profile: &Profile, path: &Path) -> Result<(Vec<u8>, wpp_wasm::Program), Error> {
    let wasm = std::fs::read(path).map_err(|source| Error::Read { path: path.to_owned(), source })?;
    let wasm = wpp_wasm::module_binary(wasm).map_err(|source| Error::Decode { path: path.to_owned(), source })?;
    profile.check_module(path, &wasm)?;
    let program = wpp_wasm::decode(&wasm).map_err(|source| Error::Decode { path: path.to_owned(), source })?;
    for (f, g) in program.functions.iter().zip(&profile.meta.functions) {
        let same = match (&f.cfg, &g.cfg) {
            (Some(a), Some(b)) => a.same_code(b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            return Err(Error::OtherCfg { path: path.to_owned(), function: f.name.clone() });
        }
    }
    Ok((wasm, program))
}

/// The uses at each write of the module at `path` (`wpp_wasm::statement_uses`, by access
/// site), checked to be the module `profile` was recorded from: what chains of memory
/// dependences follow.
pub fn statement_uses(profile: &Profile, path: &Path) -> Result<Vec<Vec<wpp_model::SiteIdx>>, Error> {
    let (wasm, program) = read_checked(profile, path)?;
    wpp_wasm::statement_uses(&wasm, &program).map_err(|source| Error::Decode { path: path.to_owned(), source })
}

/// A module opened for a profile: what every analysis that needs the module's
/// instructions starts from.
pub struct Module {
    pub path: PathBuf,
    pub effects: FuncMap<FuncEffects>,
    /// How many globals the module has, imported ones included.
    pub globals: u32,
    lines: Option<InstructionLines>,
    /// Every block's byte range with its function and index, by start (blocks do not
    /// overlap).
    blocks: Vec<(u32, u32, FuncIdx, BlockIdx)>,
}

impl Module {
    /// Refuses global `g` when the module has no such global, naming the ones it has.
    pub fn check_global(&self, g: u32) -> Result<(), Error> {
        if g < self.globals {
            return Ok(());
        }
        let has = match self.globals {
            0 => "no globals".to_string(),
            1 => "1 global (global:0)".to_string(),
            n => format!("{n} globals (global:0 to global:{})", n - 1),
        };
        Err(Error::Invalid(format!("{}: the module has {has}; there is no global {g}", self.path.display())))
    }

    /// Reads `path` and checks that it is the module `profile` was recorded from.
    pub fn open(profile: &Profile, path: &Path) -> Result<Module, Error> {
        Self::open_decoded(profile, path).map(|(m, _, _)| m)
    }

    /// [`Module::open`], with the module's bytes and decoded program.
    pub(crate) fn open_decoded(profile: &Profile, path: &Path) -> Result<(Module, Vec<u8>, wpp_wasm::Program), Error> {
        let (wasm, program) = read_checked(profile, path)?;
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
        Ok((Module { path: path.to_owned(), effects, globals: program.n_globals(), lines, blocks }, wasm, program))
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

    /// The source file and line of the instruction at `at`, when the module has DWARF.
    pub fn line_of(&self, at: u32) -> Option<(&str, u32)> {
        self.lines.as_ref()?.line_at(at)
    }

    /// Whether the module has source lines.
    pub fn has_lines(&self) -> bool {
        self.lines.is_some()
    }

    /// Whether the instruction at `at` is on `line` of `file` (matched by its ending).
    pub fn on_line(&self, at: u32, file: &str, line: u32) -> bool {
        self.lines.as_ref().and_then(|l| l.line_at(at)).is_some_and(|(f, l)| l == line && wpp_report::point::file_matches(f, file))
    }

    /// The offsets of `func` where a point can be: block starts and instructions with an
    /// action, in order.
    pub fn points_of(&self, profile: &Profile, func: FuncIdx) -> Vec<u32> {
        let Some(cfg) = profile.meta.functions.get(func.idx()).and_then(|f| f.cfg.as_ref()) else { return Vec::new() };
        let actions = self.effects.get(func).into_iter().flat_map(|fx| fx.blocks.iter().flatten().map(Action::at));
        let mut offsets: Vec<u32> = cfg.blocks.iter().map(|b| b.start).chain(actions).collect();
        offsets.sort_unstable();
        offsets.dedup();
        offsets
    }

    /// The first instruction of `func` on a source line: a block start or an instruction
    /// with an action.
    pub fn first_on_line(&self, profile: &Profile, func: FuncIdx, file: &str, line: u32) -> Option<u32> {
        self.points_of(profile, func).into_iter().find(|&at| self.on_line(at, file, line))
    }

    /// Where the instruction at `at` is, in `func` (or in whichever function holds it
    /// when `func` is `None`).
    pub fn place(&self, profile: &Profile, func: Option<FuncIdx>, at: u32) -> Place {
        match func.or_else(|| self.block_at(at).map(|(f, _)| f)) {
            Some(f) => Place { function: profile.meta.func_name(f), function_index: f.0, at: format!("{at:#x}"), source: self.source(at) },
            None => Place { function: String::from("?"), function_index: u32::MAX, at: format!("{at:#x}"), source: self.source(at) },
        }
    }
}
