//! Dynamic slices on a TWPP with the module it was recorded from: the module's
//! instructions (`wpp_wasm::statements`) and its control dependences
//! ([`crate::control_dep`]) are the static half, `wpp_twpp::slice` finds the dependences
//! of the run on demand, and the slice becomes report rows naming instructions by byte
//! offset, text, function and source line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use wpp_model::effects::{Action, Base};
use wpp_model::progress::Progress;
use wpp_model::stmts::{FuncStmts, Reg};
use wpp_model::{BlockIdx, FuncIdx, FuncMap};
use wpp_report::point::{file_matches, nearest, Point as WrittenPoint};
use wpp_report::slice::{BytesFrom, Criterion, DepRow, DepSource, SliceInstr, SliceLine, SliceReport};
use wpp_report::{select_func, Top, Truncation};
use wpp_twpp::slice::{DepKind, Inst, Part, Program, Slicer, Source};
use wpp_twpp::Twpp;

use crate::{place, Error, Module};

/// A TWPP opened with its module, for slicing.
pub struct Slicing {
    pub twpp: Twpp,
    pub module: Module,
    wasm: Vec<u8>,
    stmts: FuncMap<FuncStmts>,
    controllers: FuncMap<Vec<Vec<BlockIdx>>>,
    /// The run's memory dependences, if the TWPP keeps them.
    memory: Option<wpp_twpp::memory::Memory>,
    /// The most memory a slice may hold the process at, and its measure
    /// ([`wpp_twpp::slice::Slicer::limit_memory`]).
    memory_limit: Option<(u64, wpp_twpp::slice::MemoryMeter)>,
}

/// What the dependence cache did for one slice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheUse {
    pub path: PathBuf,
    /// Nodes read from it (their dependences known at once).
    pub read: usize,
    /// Why it was not read (it was written for another TWPP, or is damaged).
    pub ignored: Option<String>,
    /// Nodes and bytes written to it (when the slice found dependences it did not hold).
    pub written: Option<(usize, u64)>,
    /// Why it could not be written.
    pub not_written: Option<String>,
}

impl CacheUse {
    /// What happened, in words (nothing when the cache was neither read nor written).
    pub fn summary(&self) -> Option<String> {
        let path = self.path.display();
        let nodes = |n: usize| wpp_report::format::group(n as u64);
        let read = (self.read > 0).then(|| format!("{} nodes read from {path}", nodes(self.read)));
        let why = |w: &Option<String>| w.as_ref().map(|w| format!("{path} not used: {w}"));
        let wrote = self.written.map(|(n, b)| format!("{} nodes kept in {path} ({})", nodes(n), wpp_report::format::bytes(b)));
        let said: Vec<String> = [read, why(&self.ignored), wrote, why(&self.not_written)].into_iter().flatten().collect();
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// The dependence cache beside a TWPP: `prog.twpp` keeps its cache in `prog.twpp.deps`.
pub fn cache_path(twpp: &Path) -> PathBuf {
    let mut name = twpp.as_os_str().to_owned();
    name.push(".deps");
    PathBuf::from(name)
}

/// A cache larger than this is not written.
pub const CACHE_LIMIT: usize = 1 << 30;

/// Which execution of the criterion's instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The K-th, from 1, in run order.
    Nth(u64),
    Last,
}

/// Opens `twpp` and checks that `module` is the module it was recorded from.
pub fn open(twpp: &Path, module: &Path) -> Result<Slicing, Error> {
    let t = Twpp::open(twpp).map_err(Error::Twpp)?;
    let (m, wasm, program) = Module::open_decoded(&t.profile, module)?;
    let stmts = wpp_wasm::statements(&wasm, &program).map_err(|source| Error::Decode { path: module.to_owned(), source })?;
    let controllers = crate::control_dep::program_controllers(&t.profile.meta.functions);
    let memory = t.memory().map_err(Error::Twpp)?;
    Ok(Slicing { twpp: t, module: m, wasm, stmts, controllers, memory, memory_limit: None })
}

/// What a criterion asks about: a register, or bytes of linear memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Reg(Reg),
    Mem {
        addr: u64,
        len: u64,
    },
    /// `len` bytes of the stack frame, `offset` from the frame base that local `base`
    /// holds: a source variable in memory, its address known at the criterion's
    /// invocation ([`Slicing::slice`] finds it from a store there through the frame base).
    Frame {
        base: u32,
        offset: i64,
        len: u64,
    },
}

impl std::fmt::Display for Var {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Var::Reg(r) => r.fmt(f),
            Var::Mem { addr, len: 1 } => write!(f, "the byte at {addr:#x}"),
            Var::Mem { addr, len } => write!(f, "the {len} bytes at {addr:#x}"),
            Var::Frame { base, offset, len } => write!(f, "the {len} bytes at local {base} {} {}", if *offset < 0 { '-' } else { '+' }, offset.unsigned_abs()),
        }
    }
}

/// Bytes of memory available for new work (`MemAvailable` in `/proc/meminfo`), for a
/// default limit of what a slice holds.
pub fn memory_available() -> Option<u64> {
    kib_of(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemAvailable:")
}

/// Bytes this process holds in memory now (its resident set, `VmRSS` in
/// `/proc/self/status`): the measure [`Slicing::limit_memory`] takes.
pub fn resident_memory() -> Option<u64> {
    kib_of(&std::fs::read_to_string("/proc/self/status").ok()?, "VmRSS:")
}

/// The bytes of the `NAME: N kB` line of a `/proc` file.
fn kib_of(text: &str, name: &str) -> Option<u64> {
    let kib: u64 = text.lines().find(|l| l.starts_with(name))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The most bytes a memory criterion names.
pub const MEM_LIMIT: u64 = 4096;

/// A variable as users name it: `local:N`, `global:N` or `mem:ADDR[:LEN]` (a source
/// variable's name is resolved by [`Slicing::var`]).
pub fn parse_var(s: &str) -> Result<Var, Error> {
    let bad = || Error::Invalid(format!("`{s}` names no variable: write local:N (parameters first), global:N or mem:ADDR[:LEN]"));
    let number = |t: &str| t.strip_prefix("0x").map_or_else(|| t.parse::<u64>().ok(), |h| u64::from_str_radix(h, 16).ok());
    if let Some(m) = s.strip_prefix("mem:") {
        let (a, l) = m.split_once(':').map_or((m, None), |(a, l)| (a, Some(l)));
        let addr =
            number(a).filter(|&a| a < 1 << 32).ok_or_else(|| Error::Invalid(format!("`{s}`: the address must be a number below 2^32 (0x... or decimal)")))?;
        let len = l.map_or(Some(4), number).filter(|&n| (1..=MEM_LIMIT).contains(&n));
        let len = len.ok_or_else(|| Error::Invalid(format!("`{s}`: the length must be 1 to {MEM_LIMIT} bytes (4 if not given)")))?;
        return Ok(Var::Mem { addr, len });
    }
    let (kind, n) = s.split_once(':').ok_or_else(bad)?;
    let n: u32 = n.parse().map_err(|_| bad())?;
    match kind {
        "local" => Ok(Var::Reg(Reg::Local(n))),
        "global" => Ok(Var::Reg(Reg::Global(n))),
        _ => Err(bad()),
    }
}

impl Slicing {
    /// Stops each slice once the process holds more than `limit` bytes as `used` measures
    /// them (the resident set), with an error saying so.
    pub fn limit_memory(&mut self, limit: u64, used: wpp_twpp::slice::MemoryMeter) {
        self.memory_limit = Some((limit, used));
    }

    /// The register a criterion's variable names just before the instruction at `at` of
    /// `func`: `local:N`, `global:N`, or a source variable's name (from DWARF), in a local
    /// or global there; with its name for the listing.
    pub fn var(&self, spec: &str, func: FuncIdx, at: u32) -> Result<(Var, String), Error> {
        let register = spec.contains(':') || spec.is_empty();
        if register {
            let r = parse_var(spec)?;
            return Ok((r, r.to_string()));
        }
        self.named_var(&self.dwarf_variables(spec)?, spec, func, at)
    }

    /// The module's DWARF variables, or the error for `spec`, a name, when it has none.
    fn dwarf_variables(&self, spec: &str) -> Result<Vec<wpp_wasm::Variable>, Error> {
        let module = self.module.path.display();
        wpp_wasm::variables(&self.wasm).map_err(|source| Error::Decode { path: self.module.path.clone(), source })?.ok_or_else(|| {
            Error::Invalid(format!("{module}: no DWARF variables (compile with -g), so `{spec}` names nothing; name a register: local:N or global:N"))
        })
    }

    /// The register that holds the variable named `spec` (one of `vars`) at the
    /// instruction at `at` of `func`.
    fn named_var(&self, vars: &[wpp_wasm::Variable], spec: &str, func: FuncIdx, at: u32) -> Result<(Var, String), Error> {
        let module = self.module.path.display();
        let in_scope: Vec<&wpp_wasm::Variable> = vars.iter().filter(|v| v.in_scope(at)).collect();
        let live = || {
            let mut v: Vec<String> = in_scope
                .iter()
                .map(|v| match v.at(at) {
                    Some(wpp_wasm::VarLocation::Local(l)) => format!("{} (local {l})", v.name),
                    Some(wpp_wasm::VarLocation::Global(g)) => format!("{} (global {g})", v.name),
                    Some(wpp_wasm::VarLocation::Memory) => format!("{} (in memory)", v.name),
                    Some(wpp_wasm::VarLocation::Frame { base, offset }) => format!("{} (in the stack frame, local {base} + {offset})", v.name),
                    None => format!("{} (no location here)", v.name),
                })
                .collect();
            v.sort();
            v.dedup();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        let name = self.twpp.profile.meta.func_name(func);
        let matches: Vec<&&wpp_wasm::Variable> = in_scope.iter().filter(|v| v.name == spec).collect();
        if matches.is_empty() {
            return Err(Error::Invalid(format!("{module}: no variable `{spec}` is in scope at {at:#x} in {name}; the variables in scope there: {}", live())));
        }
        let mut memory = false;
        for v in &matches {
            match v.at(at) {
                Some(wpp_wasm::VarLocation::Local(l)) => return Ok((Var::Reg(Reg::Local(l)), format!("{spec} (local {l})"))),
                Some(wpp_wasm::VarLocation::Global(g)) => return Ok((Var::Reg(Reg::Global(g)), format!("{spec} (global {g})"))),
                Some(wpp_wasm::VarLocation::Frame { base, offset }) => {
                    let len = u64::from(v.size.unwrap_or(4)).clamp(1, MEM_LIMIT);
                    return Ok((Var::Frame { base, offset, len }, format!("{spec} (in the stack frame, {len} bytes at local {base} + {offset})")));
                }
                Some(wpp_wasm::VarLocation::Memory) => memory = true,
                None => {}
            }
        }
        let why = if memory {
            "lives in linear memory there at an address its location does not give; name its bytes as mem:ADDR:LEN (the address a load of it reads)"
        } else {
            "has no location there (the compiler did not keep it at this instruction)"
        };
        Err(Error::Invalid(format!("{module}: `{spec}` {why}; the variables in scope at {at:#x} in {name}: {}", live())))
    }

    /// The instruction a criterion names, a point in any form of [`wpp_report::point`]:
    /// `FUNC:0xOFF` or a byte offset (an instruction must start there), `FUNC:bN` (the
    /// block's first instruction), or the first instruction of a source line
    /// (`FILE:LINE`, in any function).
    pub fn point(&self, at: &str) -> Result<(FuncIdx, u32), Error> {
        let module = self.module.path.display();
        let profile = &self.twpp.profile;
        let (func, off) = match WrittenPoint::parse(at)? {
            WrittenPoint::Offset { func, at } => (place::func_of(profile, func, None)?, at),
            WrittenPoint::Block { func: Some(name), block } => {
                let f = select_func(profile, name)?;
                (Some(f), place::block_start(&self.module, profile, f, block)?)
            }
            WrittenPoint::Block { func: None, .. } => {
                return Err(Error::Place(format!("`{at}`: a block needs its function: write FUNC:{at}")));
            }
            WrittenPoint::Line { file, line } => return self.line_point(file, line),
            WrittenPoint::Func(_) => return Err(Error::Place(format!("`{at}` names no instruction; write one of FUNC:0xOFF, 0xOFF, FUNC:bN or FILE:LINE"))),
        };
        let found = self.module.block_at(off).map(|(f, _)| f).filter(|f| self.stmts.get(*f).and_then(|s| s.find(off)).is_some());
        match (found, func) {
            (Some(f), None) => Ok((f, off)),
            (Some(f), Some(g)) if f == g => Ok((f, off)),
            _ => {
                let near = self.nearest(func.or(self.module.block_at(off).map(|(f, _)| f)), off);
                let scope = func.map(|f| format!(" of {}", profile.meta.func_name(f))).unwrap_or_default();
                Err(Error::Place(format!("{module}: no instruction{scope} starts at byte offset {off:#x}; the nearest are {near}")))
            }
        }
    }

    /// The instructions nearest `off` (in `func`, or anywhere), as text.
    fn nearest(&self, func: Option<FuncIdx>, off: u32) -> String {
        let all: Vec<(FuncIdx, u32)> = self
            .stmts
            .iter()
            .filter(|(f, _)| func.is_none_or(|g| g == *f))
            .flat_map(|(f, s)| s.blocks.iter().flat_map(|b| &b.stmts).map(move |s| (f, s.at)))
            .collect();
        let below = all.iter().filter(|x| x.1 < off).max_by_key(|x| x.1);
        let above = all.iter().filter(|x| x.1 > off).min_by_key(|x| x.1);
        let v: Vec<String> = below.into_iter().chain(above).map(|&(f, at)| format!("{at:#x} in {}", self.twpp.profile.meta.func_name(f))).collect();
        if v.is_empty() {
            "none: the module has no code there".into()
        } else {
            v.join(" and ")
        }
    }

    /// The criterion's instruction and register: [`Slicing::point`] and [`Slicing::var`],
    /// except that for a line and a source variable's name, the first instruction of the
    /// line where the variable is in a local or global (optimised code keeps a variable
    /// in a register over part of a line only).
    pub fn criterion(&self, at: &str, var: &str) -> Result<(FuncIdx, u32, Var, String), Error> {
        let (func, off) = self.point(at)?;
        if var.contains(':') || var.is_empty() {
            return self.var(var, func, off).map(|(r, name)| (func, off, r, name));
        }
        let vars = self.dwarf_variables(var)?;
        let first = self.named_var(&vars, var, func, off);
        let Ok(WrittenPoint::Line { file, line }) = WrittenPoint::parse(at) else { return first.map(|(r, name)| (func, off, r, name)) };
        if let Ok((r, name)) = first {
            return Ok((func, off, r, name));
        }
        // A line's code may be in several functions (inlined), and a variable the line
        // sets often has its location only from the instruction after the line's code: the
        // first instruction of the line where the variable is in a register, else the
        // first one right after a run of the line's code where it is.
        let on = |st: u32| self.module.on_line(st, file, line);
        let mut on_line: Vec<u32> = Vec::new();
        for after in [false, true] {
            for (f, s) in self.stmts.iter() {
                let sts: Vec<u32> = s.blocks.iter().flat_map(|b| &b.stmts).map(|st| st.at).collect();
                for (i, &st) in sts.iter().enumerate() {
                    if !after && on(st) {
                        on_line.push(st);
                    }
                    let wanted = if after { !on(st) && i > 0 && on(sts[i - 1]) } else { on(st) };
                    if wanted {
                        if let Ok((r, name)) = self.named_var(&vars, var, f, st) {
                            return Ok((f, st, r, name));
                        }
                    }
                }
            }
        }
        // Nowhere on the line: say where in the file the variables of that name in scope on
        // the line are in a register.
        let mut lines: BTreeSet<u32> = BTreeSet::new();
        for v in vars.iter().filter(|v| v.name == var && on_line.iter().any(|&st| v.in_scope(st))) {
            for &(s, _, loc) in &v.locations {
                if matches!(loc, wpp_wasm::VarLocation::Local(_) | wpp_wasm::VarLocation::Global(_)) {
                    if let Some((name, l)) = self.module.line_of(s) {
                        if file_matches(name, file) {
                            lines.insert(l);
                        }
                    }
                }
            }
        }
        let Err(Error::Invalid(why)) = first else { return first.map(|(r, name)| (func, off, r, name)) };
        let lines: Vec<u32> = lines.into_iter().collect();
        Err(Error::Invalid(match lines.is_empty() {
            true => format!("{why}; nor on or right after any other instruction of line {line} of {file}"),
            false => format!(
                "{why}; nor on or right after any other instruction of line {line}; `{var}` is in a register from lines {} of {file}",
                nearest(&lines, line, 8, |l| l.to_string())
            ),
        }))
    }

    /// The first instruction, in code order, on line `line` of `file`.
    fn line_point(&self, file: &str, line: u32) -> Result<(FuncIdx, u32), Error> {
        let module = self.module.path.display();
        if !self.module.has_lines() {
            return Err(Error::Place(format!("{module}: no source lines (the module has no DWARF); name the instruction as FUNC:0xOFF")));
        }
        let mut lines: BTreeSet<u32> = BTreeSet::new();
        for (f, s) in self.stmts.iter() {
            for st in s.blocks.iter().flat_map(|b| &b.stmts) {
                if self.module.on_line(st.at, file, line) {
                    return Ok((f, st.at));
                }
                if let Some((name, l)) = self.module.line_of(st.at) {
                    if file_matches(name, file) {
                        lines.insert(l);
                    }
                }
            }
        }
        if lines.is_empty() {
            return Err(Error::Place(format!("{module}: no code is in a file named {file}")));
        }
        let lines: Vec<u32> = lines.into_iter().collect();
        Err(Error::Place(format!(
            "{module}: no code is on line {line} of {file}; the nearest lines with code: {}",
            nearest(&lines, line, 8, |l| l.to_string())
        )))
    }

    fn slicer(&self) -> Result<Slicer<'_>, Error> {
        let p = Program {
            functions: &self.twpp.profile.meta.functions,
            numberings: &self.twpp.profile.numberings,
            stmts: &self.stmts,
            controllers: &self.controllers,
        };
        let mut slicer = Slicer::new(&self.twpp, p).map_err(Error::Query)?;
        if let Some(m) = &self.memory {
            slicer.follow_memory(m);
        }
        if let Some((limit, used)) = self.memory_limit {
            slicer.limit_memory(limit, used);
        }
        Ok(slicer)
    }

    /// The frame base, the value of local `base` of `func`, in the invocation of `inst`:
    /// the address a store through it wrote there, less the store's offset (the frame
    /// base is set once, on entry, in code that keeps variables in the frame).
    fn frame_address(&self, slicer: &mut Slicer<'_>, func: FuncIdx, base: u32, inst: Inst) -> Result<u64, Error> {
        let how = "record the run with `wpp record --mode addresses` and build the TWPP from that profile";
        let profile = self.twpp.profile.path.display();
        match &self.memory {
            Some(m) if m.has_writes() => {}
            _ => return Err(Error::Invalid(format!("{profile}: the variable lives in the stack frame, whose address this TWPP does not keep; {how}"))),
        }
        let stores = self.module.effects.get(func).into_iter().flat_map(|fx| fx.blocks.iter().flatten()).filter_map(|a| match *a {
            Action::Store { access, at } if access.base == Base::Var(wpp_model::effects::Var::Local(base)) => Some((access.offset, at)),
            _ => None,
        });
        for (offset, at) in stores.collect::<Vec<_>>() {
            if let Some((first, _)) = slicer.written_in(inst.node, func, at).map_err(Error::Query)? {
                return Ok(first.wrapping_sub(offset) & 0xffff_ffff);
            }
        }
        Err(Error::Invalid(format!(
            "{profile}: the variable lives in the stack frame, and no store through its frame base (local {base}) ran in this invocation, so its address is not known; name its bytes as mem:ADDR:LEN"
        )))
    }

    /// Whether the TWPP keeps the run's memory dependences (slices follow loads).
    pub fn follows_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// The slice of `var` just before execution `which` of the instruction at `at` of
    /// `func`, by Agrawal and Horgan's approach `algorithm` (1: the executed instructions
    /// whose definitions reach along executed blocks; 2: every execution of each
    /// instruction reached; 3: the precise slice, the executions themselves). A precise
    /// slice starts from the dependence cache `cache` when it holds this TWPP's, and
    /// writes what it found there (atomically); without one, it keeps nothing.
    #[allow(clippy::too_many_arguments)]
    pub fn slice(
        &self,
        func: FuncIdx,
        at: u32,
        var: Var,
        which: Which,
        algorithm: u8,
        top: Top,
        cache: Option<&Path>,
        progress: &mut dyn Progress,
    ) -> Result<(SliceReport, Option<CacheUse>), Error> {
        let module = self.module.path.display();
        let name = self.twpp.profile.meta.func_name(func);
        if let Var::Reg(Reg::Global(g)) = var {
            self.module.check_global(g)?;
        }
        if let Var::Reg(Reg::Local(l)) = var {
            let n = self.module.effects.get(func).map_or(0, |fx| fx.locals);
            if l >= n {
                let params = self.stmts.get(func).map_or(0, |s| s.params);
                return Err(Error::Invalid(format!(
                    "{module}: function {name} has {n} locals ({params} parameters, local:0 to local:{}); there is no local {l}",
                    n.max(1) - 1
                )));
            }
        }
        progress.stage("reading the call graph", None);
        let mut slicer = self.slicer()?;
        let cache = cache.filter(|_| algorithm == 3);
        let mut used = cache.map(|path| CacheUse { path: path.to_owned(), ..CacheUse::default() });
        if let Some(u) = &mut used {
            match std::fs::read(&u.path) {
                Ok(bytes) => {
                    progress.stage("reading the dependence cache", None);
                    match slicer.restore(&bytes) {
                        Ok(n) => u.read = n,
                        Err(why) => u.ignored = Some(why),
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => u.ignored = Some(e.to_string()),
            }
        }
        let execs = slicer.executions(func, at).map_err(Error::Query)?;
        let total = execs.len() as u64;
        let index = match which {
            Which::Last if total > 0 => total - 1,
            Which::Nth(k) if k >= 1 && k <= total => k - 1,
            _ if total == 0 => return Err(Error::Invalid(format!("{module}: the instruction at {at:#x} in {name} never ran in this run"))),
            _ => {
                let which = match which {
                    Which::Last => "last execution".to_string(),
                    Which::Nth(k) => format!("execution {k}"),
                };
                return Err(Error::Invalid(format!("{module}: the instruction at {at:#x} in {name} ran {total} times in this run; there is no {which}")));
            }
        };
        let inst = execs[index as usize];
        let var = match var {
            Var::Frame { base, offset, len } => {
                Var::Mem { addr: self.frame_address(&mut slicer, func, base, inst)?.wrapping_add(offset as u64) & 0xffff_ffff, len }
            }
            v => v,
        };
        progress.stage(&format!("following {var} back through the run"), None);
        let (from, bytes) = match var {
            Var::Reg(r) => (vec![slicer.value_before(r, inst).map_err(Error::Query)?], Vec::new()),
            Var::Frame { .. } => unreachable!("a variable in the stack frame is resolved to its bytes above"),
            Var::Mem { addr, len } => {
                let how = "record the run with `wpp record --mode addresses` and build the TWPP from that profile";
                match &self.memory {
                    None => return Err(Error::Invalid(format!("{}: the TWPP keeps no memory dependences, so memory is not followed; {how}", self.twpp.profile.path.display()))),
                    Some(m) if !m.has_writes() => {
                        return Err(Error::Invalid(format!(
                            "{}: the TWPP keeps the loads' dependences but not the addresses each write wrote (it was built from an extended WPP, or by an older wpp); {how}",
                            self.twpp.profile.path.display()
                        )))
                    }
                    Some(_) => {}
                }
                let ranges = slicer.memory_before(addr, len, inst).map_err(Error::Query)?;
                (ranges.iter().map(|r| r.from).collect(), ranges)
            }
        };
        let defined = from[0];
        // Per instruction: its executions in the slice (and its calls' other parts), and
        // its dependences counted by kind and source instruction. The dependences are
        // not kept: a slice can reach most of a run.
        // (The dependence's kind and whether it is an argument's, its source: packed.)
        type Counts = rustc_hash::FxHashMap<(u64, u64), u64>;
        let mut per: rustc_hash::FxHashMap<u32, (u64, u64, Counts)> = rustc_hash::FxHashMap::default();
        slicer.keep(used.is_some());
        let mut instances = 0u64;
        // `weight` executions of node `n`'s instruction, with the dependences of one.
        let mut add = |n: wpp_twpp::slice::Node, weight: u64, deps: &[wpp_twpp::slice::Dep]| {
            instances += weight;
            let e = per.entry(n.inst.at).or_default();
            match n.part {
                Part::Exec => e.0 += weight,
                _ => e.1 += weight,
            }
            let arg = matches!(n.part, Part::Arg(_)) as u64;
            for d in deps {
                *e.2.entry((d.kind.code() << 1 | arg, pack(d.from))).or_default() += 1;
            }
        };
        match algorithm {
            1 => slicer.visit_executed(&from, |_, at, part, runs, deps| {
                let deps: Vec<wpp_twpp::slice::Dep> = deps.iter().map(|d| wpp_twpp::slice::Dep { kind: d.kind, from: origin_source(d.from) }).collect();
                add(wpp_twpp::slice::Node { inst: Inst { node: wpp_twpp::Invocation(0), step: 0, at }, part }, runs, &deps)
            }),
            2 => slicer.visit_statements(&from, |_, _, _, n, deps| add(n, 1, deps)),
            _ => slicer.visit(&from, |n, deps| add(n, 1, deps)),
        }
        .map_err(Error::Query)?;
        if let Some(u) = &mut used {
            if slicer.cache_grew() {
                progress.stage("writing the dependence cache", None);
                let bytes = slicer.cache();
                if bytes.len() > CACHE_LIMIT {
                    u.not_written = Some(format!("it would take {} MiB, more than the limit of {} MiB", bytes.len() >> 20, CACHE_LIMIT >> 20));
                } else {
                    match wpp_profile::write_atomically(&u.path, |w| w.write_all(&bytes)) {
                        Ok(()) => u.written = Some((slicer.known(), bytes.len() as u64)),
                        Err(e) => u.not_written = Some(e.to_string()),
                    }
                }
            }
        }
        drop(slicer);
        let mut offsets: BTreeSet<u32> = BTreeSet::from([at]);
        offsets.extend(per.keys().copied());
        for (_, _, deps) in per.values() {
            offsets.extend(deps.keys().filter_map(|&(_, s)| if let Source::Node(n) = unpack(s) { Some(n.inst.at) } else { None }));
        }
        offsets.extend(from.iter().filter_map(|s| if let Source::Node(n) = s { Some(n.inst.at) } else { None }));
        let texts = wpp_wasm::instruction_texts(&self.wasm, &offsets).map_err(|source| Error::Decode { path: self.module.path.clone(), source })?;
        let source = |s: Source| self.source(s, &texts);
        let statements = per.len() as u64;
        // Instructions grouped by function and source line, the groups in code order.
        let mut groups: BTreeMap<(u32, Option<String>), (u32, Vec<SliceInstr>)> = BTreeMap::new();
        let mut per: Vec<_> = per.into_iter().collect();
        per.sort_unstable_by_key(|(at, _)| *at);
        for (at, (execs, parts, deps)) in per {
            // A call's result and arguments come with its execution; count executions.
            let executions = if execs > 0 { execs } else { parts };
            let f = self.module.block_at(at).map_or(u32::MAX, |(f, _)| f.0);
            // Most frequent first, ties in the order of kind, register and source.
            let mut deps: Vec<_> = deps
                .into_iter()
                .map(|((kind, from), n)| {
                    let (arg, from) = (kind & 1 == 1, unpack(from));
                    let kind = DepKind::of_code(kind >> 1).expect("packed above");
                    let (kind, reg) = match (kind, arg) {
                        (DepKind::Data(_), true) => ("argument", None),
                        (DepKind::Data(r), _) => ("data", Some(r)),
                        (DepKind::Control, _) => ("control", None),
                        (DepKind::Call, _) => ("call", None),
                        (DepKind::Return, _) => ("return", None),
                        (DepKind::Memory, _) => ("memory", None),
                    };
                    ((kind, reg, from), n)
                })
                .collect();
            deps.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            let deps: Vec<DepRow> = deps
                .into_iter()
                .map(|((kind, register, from), count)| DepRow { kind, register: register.map(|r| r.to_string()), from: source(from), count })
                .collect();
            let text = texts.get(&at).cloned().unwrap_or_default();
            let g = groups.entry((f, self.module.source(at))).or_insert((at, Vec::new()));
            g.1.push(SliceInstr { at: format!("{at:#x}"), text, instances: executions, deps });
        }
        let source_lines = groups.keys().filter(|k| k.1.is_some()).count() as u64;
        let mut groups: Vec<_> = groups.into_iter().collect();
        groups.sort_by_key(|(_, (first, _))| *first);
        let mut lines: Vec<SliceLine> = groups
            .into_iter()
            .map(|((f, source), (_, instructions))| SliceLine {
                function: self.twpp.profile.meta.func_name(FuncIdx(f)),
                function_index: f,
                source,
                instructions,
            })
            .collect();
        let mut truncation = Truncation::default();
        truncation.cut("lines", &mut lines, top);
        let report = SliceReport {
            criterion: Criterion {
                place: self.module.place(&self.twpp.profile, Some(func), at),
                variable: var.to_string(),
                execution: index + 1,
                executions: total,
                defined_by: source(defined),
                bytes: bytes
                    .into_iter()
                    .map(|w| BytesFrom { first: format!("{:#x}", w.start), len: w.end - w.start, from: source(w.from), execution: w.execution })
                    .collect(),
            },
            algorithm,
            follows_memory: self.memory.is_some(),
            statements,
            source_lines,
            instances,
            lines,
            truncation,
        };
        Ok((report, used))
    }

    fn source(&self, s: Source, texts: &BTreeMap<u32, String>) -> DepSource {
        match s {
            Source::Node(n) => {
                let text = texts.get(&n.inst.at).map(|t| match n.part {
                    Part::Exec => t.clone(),
                    Part::Result => format!("the result of {t}"),
                    Part::Arg(k) => format!("argument {k} of {t}"),
                });
                DepSource { kind: "instruction", place: Some(self.inst_place(n.inst)), text }
            }
            Source::Entry => DepSource { kind: "entry", place: None, text: None },
            Source::Init => DepSource { kind: "init", place: None, text: None },
            Source::Memory => DepSource { kind: "memory", place: None, text: None },
            Source::InitialMemory => DepSource { kind: "initial memory", place: None, text: None },
        }
    }

    fn inst_place(&self, inst: Inst) -> wpp_report::dataflow::Place {
        self.module.place(&self.twpp.profile, None, inst.at)
    }
}

/// A source as one number: an instruction's offset and part (any execution of it), or a
/// leaf.
fn pack(s: Source) -> u64 {
    match s {
        Source::Node(m) => (m.inst.at as u64) << 32 | m.part.code(),
        Source::Entry => u64::MAX,
        Source::Init => u64::MAX - 1,
        Source::Memory => u64::MAX - 2,
        Source::InitialMemory => u64::MAX - 3,
    }
}

fn unpack(v: u64) -> Source {
    match u64::MAX - v {
        0 => Source::Entry,
        1 => Source::Init,
        2 => Source::Memory,
        3 => Source::InitialMemory,
        _ => Source::Node(wpp_twpp::slice::Node {
            inst: Inst { node: wpp_twpp::Invocation(0), step: 0, at: (v >> 32) as u32 },
            part: Part::of_code(v & 0xffff_ffff).expect("packed"),
        }),
    }
}

/// An origin of approach 1 as a source of the listing (an instruction, any execution).
fn origin_source(o: wpp_twpp::slice::Origin) -> Source {
    use wpp_twpp::slice::Origin;
    match o {
        Origin::Instr { at, part, .. } => Source::Node(wpp_twpp::slice::Node { inst: Inst { node: wpp_twpp::Invocation(0), step: 0, at }, part }),
        Origin::Entry => Source::Entry,
        Origin::Init => Source::Init,
        Origin::Memory => Source::Memory,
        Origin::InitialMemory => Source::InitialMemory,
    }
}
