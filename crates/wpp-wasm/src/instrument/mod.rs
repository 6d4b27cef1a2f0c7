//! The path-profiling rewrite.
//!
//! Every function gets a path register (an `i64` local). Each CFG edge's action
//! ([`EdgeAction`]) is placed at the one code position that runs exactly when the edge is
//! taken, so no block is split:
//!
//! * fall-through: after the block's last instruction, or before it when that is an `end`;
//! * `br`, `return`, `unreachable`, calls, `else`: before the instruction;
//! * `br_if`: the taken edge's action before it (a `select` for an increment, an `if` for a
//!   path end), the fall-through edge's action after it;
//! * `br_table`: a dispatch of nested blocks, one per distinct target, each running its
//!   edge's action and branching on to the original label;
//! * `if`: at the start of the then arm, and at the start of the else arm (an `else` is
//!   added when the `if` has none);
//! * `throw`, `throw_ref`: before the instruction (every way out of it ends the path); a
//!   catch clause's restart in a landing pad of its own around the `try_table` (`pads`).
//!
//! At a path end the path number (register plus the edge's constant) is recorded: appended
//! to an event buffer in a memory the rewrite adds ([`Mode::Trace`]), or counted in a
//! per-function counter array or a hash table in that memory ([`Mode::Count`]).
//!
//! With a set of interesting paths ([`Options::interesting`], preferential path profiling),
//! a function with interesting paths gets a second register, the PPP register, updated on
//! the same edges with the weights of [`wpp_paths::ppp_number`]. At a path end the PPP id
//! indexes a compact array of slots, each holding the Ball-Larus number of the interesting
//! path it belongs to (written by a data segment) next to its counter. The array's length
//! is a power of two and the id is masked to it, which is the bounds check: an id past
//! the array lands in a slot whose Ball-Larus number is another's. The path is counted in
//! the slot when the Ball-Larus numbers agree; otherwise it is a residual path and is
//! counted by its Ball-Larus number in the hash table. Every path of a function without
//! interesting paths is residual. A function whose Ball-Larus numbers fit a counter array
//! is cheaper to count that way (one register, no check), and is, unless
//! [`Options::ppp_everywhere`] asks for PPP in every function: which of its paths are
//! interesting is then told apart after the run.
//!
//! The rewrite runs in phases: numbering every function (here), `layout` (the counter
//! policy and the added memory, a pure function of the numberings and the options),
//! `additions` (what the module gains and at which indices), `emit` (each function's
//! code, with `pads` for catch clauses) with `hash_fn` (the generated hash function); `crate::rewrite` copies the rest
//! of the module.

mod additions;
mod checks;
mod emit;
mod env;
mod ewpp;
mod hash_fn;
mod layout;
mod pads;

use std::collections::BTreeMap;

use wpp_model::access_event::{AccessSite, SiteKind, MAX_SITE};
use wpp_model::{FuncIdx, FuncMap, PathId};
use wpp_paths::{ppp_number, PppNumbering, ProgramNumbering};

pub use ewpp::{EwppLayout, EwppPlan, INSTANCE_BITS, MAX_CANDIDATES};
pub use layout::{CounterKind, Layout, NO_PATH};

use crate::decode::Program;
use crate::origin::Origins;
use crate::rewrite::rewrite;
use crate::Error;

/// What the instrumented program does with a finished path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Append a path event to the event buffer.
    Trace,
    /// Increment the path's counter.
    Count,
}

/// Knobs of the rewrite.
#[derive(Clone, Debug)]
pub struct Options {
    pub mode: Mode,
    /// Largest number of paths per function before cut points are added.
    pub max_paths: u64,
    /// Capacity of the event buffer in bytes (a multiple of 8).
    pub buffer_bytes: u32,
    /// Functions with more paths than this count in the hash table.
    pub max_array_paths: u64,
    /// Total bytes of counter arrays; functions past the budget use the hash table.
    pub array_budget_bytes: u64,
    /// Hash table entries (a power of two); the host drains it when half full.
    pub hash_entries: u32,
    /// Count every function in the hash table (the classic hashing path profiler).
    pub force_hash: bool,
    /// Count mode only: preferential path profiling of these interesting paths (Ball-Larus
    /// numbers under `max_paths`, by function).
    pub interesting: Option<Interesting>,
    /// A function's PPP slot array covers at most this many ids per interesting path, or
    /// `ppp_min_slots` ids if more (then rounded up to a power of two); interesting paths
    /// with larger PPP ids are counted in the hash table like residual paths.
    pub ppp_slots_per_path: u64,
    pub ppp_min_slots: u64,
    /// With interesting paths: use PPP slots in every function with interesting paths, also
    /// where a Ball-Larus counter array would fit.
    pub ppp_everywhere: bool,
    /// Trace mode only: before every instruction that touches linear memory, an access
    /// event naming its site ([`access_sites`](crate::access_sites)) and address; after
    /// every call of an imported function, a `host_call` that lets the host add the
    /// call's writes ([`abi::IMPORT_HOST_CALL`](crate::abi::IMPORT_HOST_CALL)).
    pub accesses: bool,
    /// Trace mode only: the extended WPP's collection run, with these candidate writers
    /// for the loads (see `ewpp`): every store and bulk write notes its instance in a
    /// shadow of memory 0, every load and bulk read calls the check routines, whose paths
    /// say which write instances it read.
    pub ewpp: Option<EwppPlan>,
    /// Trace mode without accesses or checks: write 4-byte events (see
    /// [`wpp_model::NarrowIds`]) instead of 8-byte ones.
    pub narrow_events: bool,
}

/// Interesting paths by function.
pub type Interesting = BTreeMap<FuncIdx, Vec<PathId>>;

impl Default for Options {
    fn default() -> Self {
        Options {
            mode: Mode::Trace,
            max_paths: u64::MAX,
            buffer_bytes: 1 << 20,
            max_array_paths: 1 << 16,
            array_budget_bytes: 256 << 20,
            hash_entries: 1 << 16,
            force_hash: false,
            interesting: None,
            ppp_slots_per_path: 4,
            ppp_min_slots: 1 << 16,
            ppp_everywhere: false,
            accesses: false,
            ewpp: None,
            narrow_events: false,
        }
    }
}

/// A rewritten module with what the host needs to read its results.
pub struct Instrumented {
    pub wasm: Vec<u8>,
    pub mode: Mode,
    pub layout: Layout,
    /// Path numbering of every function with code.
    pub numberings: ProgramNumbering,
    /// PPP numbering of every function with interesting paths.
    pub ppp: FuncMap<PppNumbering>,
    /// Where each instruction of `wasm` came from in the original module.
    pub origins: Origins,
    /// [`Options::accesses`]: whether memory accesses are recorded.
    pub accesses: bool,
    /// With accesses or the extended WPP: the module's access sites, which access events
    /// and the check routines number.
    pub sites: Vec<AccessSite>,
    /// The extended WPP's collection run: its check routines.
    pub ewpp: Option<EwppRoutines>,
    /// [`Options::narrow_events`]: the events are 4 bytes, with these dense ids.
    pub narrow: Option<wpp_model::NarrowIds>,
}

/// The check routines an extended WPP's trace holds paths of, as functions of the
/// profile (numbered after the module's), and what their blocks mean.
#[derive(Clone, Debug)]
pub struct EwppRoutines {
    /// `check`, with its CFG.
    pub functions: Vec<wpp_model::Function>,
    pub numberings: ProgramNumbering,
    pub roles: wpp_model::ewpp::Roles,
    pub layout: EwppLayout,
}

/// Rewrites `bytes` (decoded as `program`) to record Ball-Larus paths.
pub fn instrument(bytes: &[u8], program: &Program, opts: &Options) -> Result<Instrumented, Error> {
    instrument_numbered(bytes, program, number_program(program, opts.max_paths)?, opts)
}

/// [`instrument`] with the program's numbering already made: `numberings` must be
/// [`number_program`]'s for `program` and `opts.max_paths`.
pub fn instrument_numbered(bytes: &[u8], program: &Program, numberings: ProgramNumbering, opts: &Options) -> Result<Instrumented, Error> {
    if (opts.accesses || opts.ewpp.is_some()) && program.memory64 {
        // Access events and the shadow hold 32-bit addresses.
        return Err(Error::Unsupported { feature: "memory accesses of a 64-bit memory (memory64)".into(), place: "the module's memories".into() });
    }
    if numberings.n_functions() != program.functions.len() || program.functions.iter().any(|f| f.cfg.is_some() != numberings.contains(f.index)) {
        return Err(Error::Rewrite { place: "numbering".into(), message: "the numbering is not of this module".into() });
    }
    let ppp = ppp_number_functions(program, opts, &numberings)?;
    if (opts.accesses || opts.ewpp.is_some()) && opts.mode != Mode::Trace {
        return Err(Error::Rewrite { place: "options".into(), message: "memory accesses are recorded in trace mode only".into() });
    }
    if opts.accesses && opts.ewpp.is_some() {
        return Err(Error::Rewrite { place: "options".into(), message: "access events and the extended WPP's checks are two recordings".into() });
    }
    if opts.narrow_events && (opts.mode != Mode::Trace || opts.accesses || opts.ewpp.is_some()) {
        return Err(Error::Rewrite { place: "options".into(), message: "4-byte events are for path traces alone".into() });
    }
    let narrow = opts.narrow_events.then(|| narrow_ids(&numberings));
    let sites = if opts.accesses || opts.ewpp.is_some() { crate::access_sites(bytes, program)? } else { Vec::new() };
    if sites.len() as u64 > MAX_SITE as u64 + 1 || (opts.ewpp.is_some() && sites.len() >= 1 << (63 - INSTANCE_BITS)) {
        return Err(Error::Unsupported { feature: format!("{} memory access sites", sites.len()), place: "code section".into() });
    }
    // The first site of each defined function.
    let mut first_site = vec![0u32; program.functions.len() - program.n_imported_funcs as usize + 1];
    for s in sites.iter().filter(|s| s.kind != SiteKind::HostWrite) {
        first_site[(s.func.0 - program.n_imported_funcs) as usize + 1] += 1;
    }
    for i in 1..first_site.len() {
        first_site[i] += first_site[i - 1];
    }
    let layout::Placement { layout, needs_hash, slot_data } = layout::place(&numberings, &ppp, opts, sites.len())?;
    let (mut add, env, carry) = additions::additions(program, &layout, needs_hash, slot_data, opts.accesses, opts.ewpp.is_some(), opts.mode == Mode::Count)?;
    let ewpp = match (env.ewpp, layout.ewpp) {
        (Some(funcs), Some(ewpp_layout)) => Some(add_ewpp_functions(&mut add, (&env, &carry), funcs, ewpp_layout, program)?),
        _ => None,
    };
    let shared = emit::Shared {
        program,
        mode: opts.mode,
        env: &env,
        layout: &layout,
        carry: &carry,
        numberings: &numberings,
        ppp: &ppp,
        first_site: (opts.accesses || opts.ewpp.is_some()).then_some(first_site.as_slice()),
        narrow: narrow.as_ref(),
    };
    let (wasm, origins) = rewrite(bytes, program, add, |shift, i, body| emit::function(shift, &shared, FuncIdx(program.n_imported_funcs + i), body))?;
    Ok(Instrumented { wasm, mode: opts.mode, layout, numberings, ppp, origins, accesses: opts.accesses, sites, ewpp, narrow })
}

/// Appends the extended WPP's functions: the helpers as they are, the check routine
/// instrumented like the module's functions, its paths numbered as function
/// `program.functions.len()`.
fn add_ewpp_functions(
    add: &mut crate::rewrite::Additions,
    (env, carry): (&env::Env, &additions::CarryTypes),
    funcs: env::EwppFuncs,
    layout: EwppLayout,
    program: &Program,
) -> Result<EwppRoutines, Error> {
    let helpers = ewpp::HelperEnv { mem: env.mem, shadow: funcs.shadow, layout, report: funcs.report, check: funcs.check };
    add.functions.push((funcs.types[0], ewpp::note_write(&helpers)));
    add.functions.push((funcs.types[1], ewpp::check_load(&helpers)));
    add.functions.push((funcs.types[2], ewpp::report(&helpers)));
    let r = checks::routines(layout.max_candidates)?;
    let numberings = number_program(&r.program, u64::MAX)?;
    let first = program.functions.len() as u32;
    let mut functions = Vec::new();
    let mut bodies = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(&r.wasm) {
        if let wasmparser::Payload::CodeSectionEntry(body) = payload? {
            bodies.push(body);
        }
    }
    for (i, body) in bodies.into_iter().enumerate() {
        let func = FuncIdx(first + i as u32);
        let mut shift = crate::rewrite::Shift::new(0, funcs.check.0);
        let f = emit::routine(&mut shift, (env, carry), &r.program, i, &numberings[FuncIdx(i as u32)], func, body)?;
        add.functions.push((funcs.types[3 + i], f));
        let mut model = r.program.functions[i].clone();
        model.index = func;
        model.name = "wpp:check".into();
        functions.push(model);
    }
    // Numbered as the profile numbers them: by their index there.
    let mut profile_numberings = FuncMap::new(first as usize + functions.len());
    for i in 0..functions.len() {
        profile_numberings.insert(FuncIdx(first + i as u32), numberings[FuncIdx(i as u32)].clone());
    }
    Ok(EwppRoutines { functions, numberings: profile_numberings, roles: r.roles, layout })
}

/// The 4-byte form's dense ids for functions numbered `numberings`.
pub fn narrow_ids(numberings: &ProgramNumbering) -> wpp_model::NarrowIds {
    let n_paths: Vec<Option<u64>> = (0..numberings.n_functions() as u32).map(|f| numberings.get(FuncIdx(f)).map(|n| n.n_paths())).collect();
    wpp_model::NarrowIds::new(&n_paths)
}

/// The Ball-Larus numbering of every function of `program` with code, functions with more
/// than `max_paths` paths cut.
pub fn number_program(program: &Program, max_paths: u64) -> Result<ProgramNumbering, Error> {
    wpp_paths::number_program(&program.functions, &wpp_paths::Options { max_paths })
        .map_err(|e| Error::Rewrite { place: format!("function {}", e.name), message: e.source.to_string() })
}

/// The PPP numbering of every function with interesting paths (by function index).
fn ppp_number_functions(program: &Program, opts: &Options, numberings: &ProgramNumbering) -> Result<FuncMap<PppNumbering>, Error> {
    let mut ppp = FuncMap::new(numberings.n_functions());
    let Some(interesting) = &opts.interesting else { return Ok(ppp) };
    if opts.mode != Mode::Count {
        return Err(Error::Rewrite { place: "options".into(), message: "interesting paths need count mode".into() });
    }
    for (&func, paths) in interesting.iter().filter(|(_, paths)| !paths.is_empty()) {
        let Some(num) = numberings.get(func) else {
            return Err(Error::Rewrite { place: format!("function {}", func.0), message: "interesting paths of a function without code".into() });
        };
        let p = ppp_number(num, paths).map_err(|e| Error::Rewrite { place: format!("function {}", program.name(func)), message: e.to_string() })?;
        ppp.insert(func, p);
    }
    Ok(ppp)
}
