//! The every-way check of one wasm-smith module: the module as it is, instrumented in
//! every recording mode, and rewritten by the block-log oracle, each run in a small
//! wasmtime harness of its own (the modules are not WASI commands). Shared by
//! `wpp-runtime`'s `smith.rs` (modules from seeds) and `wpp-fuzz`'s `instrument` fuzz
//! target (modules from the fuzzer's bytes); feature `runtime`.
//!
//! A module is made to terminate with `ensure_termination`: its fuel counter is part of
//! the module, so every version of the module runs out of fuel at the same point. The
//! harness exports that counter and refills it before each call, so one export that loops
//! until the fuel is gone does not starve the others. The versions: as it is; trace mode
//! (with a tiny event buffer, so that it flushes often); count mode with per-function
//! counter arrays; count mode with a tiny hash table only (so that it flushes too);
//! preferential path profiling; trace and count modes with a small `max_paths`, so that
//! many functions get cut points; and the naive block-log oracle, whose log of every
//! block entered is split into paths under each numbering using only the CFG. Every
//! recording must equal the oracle's paths of its numbering: counts, and for trace mode
//! the order of events.

use std::collections::HashMap;

use crate::agree::splitter;
use crate::Rng;
use arbitrary::Unstructured;
use wasmtime::{Caller, Engine, Extern, ExternType, Instance, Linker, Module, Store, Trap, Val};
use wpp_model::{EventDecoder, FuncIdx, Narrow, NarrowDecoder, NarrowIds, PathId};
use wpp_paths::split::{hash_event, PathSplitter, HASH_START};
use wpp_wasm::{abi, CounterKind, Instrumented, Mode, Options};

/// Fuel of `ensure_termination`: loop iterations plus calls allowed per export call.
pub const FUEL: u32 = 2_000;
/// `max_paths` of the variants with cut points: small, so that most functions get some.
pub const CUT_MAX_PATHS: u64 = 64;
/// Name under which the harness exports the fuel counter.
const FUEL_EXPORT: &str = "__smith_fuel";

/// Path counts by (function, path).
type Counts = HashMap<(FuncIdx, PathId), u64>;

/// Features wpp handles, everything it refuses turned off, every module self-contained
/// (no imports), bounded (small memories and tables with maxima) and fully exported. The
/// shape varies with the seed (`knobs` is a PRNG of its own, so the shape and the module
/// bytes are independent):
/// * reference types (`externref` included) for one module in three;
/// * half the modules avoid traps (wasm-smith guards loads, stores, divisions, ...), so
///   that calls run deeper and take more branches;
/// * function bodies of up to 50 to 3000 instructions;
/// * one module in four uses only control, integer, local/global and parametric
///   instructions: branchier code, with more paths per function (some past 2³², which
///   trace mode records as two-word events).
#[allow(clippy::field_reassign_with_default)] // One knob a line reads best.
pub fn smith_config(seed: u64, knobs: &mut Rng) -> wasm_smith::Config {
    use wasm_smith::{InstructionKind as K, InstructionKinds};
    let mut c = wasm_smith::Config::default();
    c.reference_types_enabled = seed.is_multiple_of(3);
    c.disallow_traps = knobs.next().is_multiple_of(2);
    c.max_instructions = [50, 200, 1000, 3000][(knobs.next() % 4) as usize];
    if knobs.next().is_multiple_of(4) {
        c.allowed_instructions = InstructionKinds::new(&[K::Control, K::NumericInt, K::Variable, K::Parametric]);
    }
    // wasm-smith adds each function past the minimum with probability 1/2: ask for a few.
    c.min_types = 1;
    c.min_funcs = 1 + (knobs.next() % 6) as usize;
    c.max_funcs = 20;
    c.exceptions_enabled = seed % 2 == 1;
    c.gc_enabled = false;
    c.threads_enabled = false;
    c.shared_everything_threads_enabled = false;
    c.custom_descriptors_enabled = false;
    c.wide_arithmetic_enabled = true;
    c.custom_page_sizes_enabled = true;
    c.tail_call_enabled = true;
    c.memory64_enabled = true;
    c.relaxed_simd_enabled = true;
    c.simd_enabled = true;
    c.max_imports = 0;
    c.export_everything = true;
    c.max_memories = 2;
    c.max_tables = 2;
    c.max_memory32_bytes = 4 << 20;
    c.max_memory64_bytes = 4 << 20;
    c.memory_max_size_required = true;
    c.max_table_elements = 10_000;
    c.table_max_size_required = true;
    c.canonicalize_nans = false;
    c
}

/// The module wasm-smith makes of `data` under `config`, made to terminate and with its
/// fuel counter exported for the harness, or why there is none.
pub fn module(config: wasm_smith::Config, data: &[u8]) -> Result<Vec<u8>, String> {
    let mut u = Unstructured::new(data);
    let mut m = wasm_smith::Module::new(config, &mut u).map_err(|e| format!("wasm-smith: {e}"))?;
    let fuel_global = m.ensure_termination(FUEL).map_err(|e| format!("ensure_termination: {e}"))?;
    adjust(&m.to_bytes(), fuel_global)
}

/// Re-encodes a wasm-smith module for the harness: exports the fuel counter
/// `fuel_global` as [`FUEL_EXPORT`].
fn adjust(wasm: &[u8], fuel_global: u32) -> Result<Vec<u8>, String> {
    use wasm_encoder::reencode::{self, Reencode};
    struct Adjust {
        fuel_global: u32,
    }
    impl Reencode for Adjust {
        type Error = std::convert::Infallible;
        fn parse_export_section(
            &mut self,
            exports: &mut wasm_encoder::ExportSection,
            section: wasmparser::ExportSectionReader<'_>,
        ) -> Result<(), reencode::Error<Self::Error>> {
            reencode::utils::parse_export_section(self, exports, section)?;
            exports.export(FUEL_EXPORT, wasm_encoder::ExportKind::Global, self.fuel_global);
            Ok(())
        }
    }
    let mut module = wasm_encoder::Module::new();
    Adjust { fuel_global }.parse_core_module(&mut module, wasmparser::Parser::new(0), wasm).map_err(|e| format!("re-encoding: {e}"))?;
    let out = module.finish();
    wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all()).validate_all(&out).map_err(|e| format!("re-encoding: invalid result: {e}"))?;
    Ok(out)
}

/// A value reduced to what must be identical between the runs: bits for numbers,
/// null-ness for references.
#[derive(Clone, Debug, PartialEq, Eq)]
enum V {
    I32(i32),
    I64(i64),
    F32(u32),
    F64(u64),
    V128(u128),
    Ref { null: bool },
}

fn norm(v: &Val) -> V {
    match v {
        Val::I32(x) => V::I32(*x),
        Val::I64(x) => V::I64(*x),
        Val::F32(x) => V::F32(*x),
        Val::F64(x) => V::F64(*x),
        Val::V128(x) => V::V128(x.as_u128()),
        Val::FuncRef(r) => V::Ref { null: r.is_none() },
        Val::ExternRef(r) => V::Ref { null: r.is_none() },
        Val::AnyRef(r) => V::Ref { null: r.is_none() },
        Val::ExnRef(r) => V::Ref { null: r.is_none() },
        Val::ContRef(r) => V::Ref { null: r.is_none() },
    }
}

/// How an instantiation or a call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Ok(Vec<V>),
    Trap(Trap),
    /// An exception no handler caught (its backtrace is the engine's, in each version's
    /// own offsets, so it is not compared).
    Uncaught,
    /// Anything else: an error of the harness or of the host function.
    Error(String),
}

impl Outcome {
    fn of_error(e: wasmtime::Error) -> Outcome {
        match (e.downcast_ref::<Trap>(), e.downcast_ref::<wasmtime::ThrownException>()) {
            (Some(t), _) => Outcome::Trap(*t),
            (None, Some(_)) => Outcome::Uncaught,
            (None, None) => Outcome::Error(format!("{e:?}")),
        }
    }
    fn is_stack_overflow(&self) -> bool {
        matches!(self, Outcome::Trap(Trap::StackOverflow))
    }
}

/// What the host side of an instrumented instance collects.
#[derive(Default)]
struct Rec {
    decoder: EventDecoder,
    /// 4-byte events: their ids and decoder.
    narrow: Option<(NarrowIds, NarrowDecoder)>,
    /// Trace mode: events by (function, path); count mode: what hash flushes drained.
    counts: Counts,
    n_events: u64,
    /// Trace mode: [`hash_event`] over the events in order.
    sequence_hash: u64,
    /// The block-log oracle: one splitter per numbering.
    splitters: Vec<PathSplitter>,
    event_flushes: u64,
    hash_flushes: u64,
    hash_base: usize,
    hash_entries: usize,
    /// Events with memory accesses or checks in them: drained, not decoded (only the
    /// behaviour of such runs is compared).
    raw: bool,
}

impl Rec {
    fn drain_events(&mut self, data: &[u8], bytes: usize) -> anyhow::Result<()> {
        let word = if self.narrow.is_some() { 4 } else { 8 };
        anyhow::ensure!(bytes.is_multiple_of(word) && bytes <= data.len(), "event flush of {bytes} bytes");
        if self.raw {
            return Ok(());
        }
        if let Some((ids, decoder)) = &mut self.narrow {
            let words: Vec<u32> = data[..bytes].chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
            let (counts, n, h) = (&mut self.counts, &mut self.n_events, &mut self.sequence_hash);
            let mut bad = None;
            decoder.feed(&words, |w| {
                let e = match w {
                    Narrow::Id(id) => match ids.event(id) {
                        Some(e) => e,
                        None => {
                            bad = Some(id);
                            return;
                        }
                    },
                    Narrow::Event(e) => e,
                };
                *counts.entry((e.func, e.path)).or_default() += 1;
                *n += 1;
                *h = hash_event(*h, e);
            });
            anyhow::ensure!(bad.is_none(), "event id {bad:?} is no path's");
            return Ok(());
        }
        let words: Vec<u64> = data[..bytes].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
        let (counts, n, h) = (&mut self.counts, &mut self.n_events, &mut self.sequence_hash);
        self.decoder.feed(&words, |e| {
            *counts.entry((e.func, e.path)).or_default() += 1;
            *n += 1;
            *h = hash_event(*h, e);
        });
        Ok(())
    }

    fn drain_hash(&mut self, data: &mut [u8]) {
        let e = abi::HASH_ENTRY_BYTES as usize;
        let table = &mut data[self.hash_base..self.hash_base + self.hash_entries * e];
        for entry in table.chunks_exact_mut(e) {
            let word = |i: usize| u64::from_le_bytes(entry[i * 8..i * 8 + 8].try_into().unwrap());
            if word(1) != 0 {
                *self.counts.entry((FuncIdx((word(1) - 1) as u32), PathId(word(0)))).or_default() += word(2);
            }
        }
        table.fill(0);
    }
}

fn linker(engine: &Engine) -> Linker<Rec> {
    let mut l = Linker::new(engine);
    l.func_wrap(abi::IMPORT_MODULE, abi::IMPORT_FLUSH, |mut caller: Caller<'_, Rec>, kind: i32, bytes: i32| -> wasmtime::Result<()> {
        let fail = |m: String| Err(wasmtime::Error::from_anyhow(anyhow::anyhow!(m)));
        let Some(mem) = caller.get_export(abi::EXPORT_MEMORY).and_then(Extern::into_memory) else {
            return fail("flush: no exported memory".into());
        };
        let (data, rec) = mem.data_and_store_mut(&mut caller);
        match kind {
            abi::FLUSH_EVENTS => {
                rec.event_flushes += 1;
                if let Err(e) = rec.drain_events(data, bytes as u32 as usize) {
                    return fail(format!("flush: {e}"));
                }
            }
            abi::FLUSH_HASH => {
                rec.hash_flushes += 1;
                if rec.hash_entries == 0 {
                    return fail("flush: hash flush without a hash table".into());
                }
                rec.drain_hash(data);
            }
            k => return fail(format!("flush: unknown kind {k}")),
        }
        Ok(())
    })
    .expect("define flush");
    // The accesses rewrite brackets every call of an import; the modules here import
    // nothing, so it is never called.
    l.func_wrap(
        abi::IMPORT_MODULE,
        abi::IMPORT_HOST_CALL,
        |_: i32, _: i64, _: i64, _: i64, _: i64, _: i64, _: i64, _: i64, _: i64, _: i64, _: i64, _: i32| -> wasmtime::Result<()> {
            Err(wasmtime::Error::from_anyhow(anyhow::anyhow!("host_call: the module imports nothing")))
        },
    )
    .expect("define host_call");
    let oracle = abi::ORACLE_MODULE;
    l.func_wrap(oracle, "enter", |mut c: Caller<'_, Rec>, f: i32| c.data_mut().splitters.iter_mut().for_each(|s| s.enter(f as u32))).expect("define enter");
    l.func_wrap(oracle, "block", |mut c: Caller<'_, Rec>, f: i32, b: i32| c.data_mut().splitters.iter_mut().for_each(|s| s.block(f as u32, b as u32)))
        .expect("define block");
    l.func_wrap(oracle, "leave", |mut c: Caller<'_, Rec>, f: i32| c.data_mut().splitters.iter_mut().for_each(|s| s.leave(f as u32))).expect("define leave");
    l.func_wrap(oracle, "exit", |mut c: Caller<'_, Rec>, f: i32| c.data_mut().splitters.iter_mut().for_each(|s| s.exit(f as u32))).expect("define exit");
    l.func_wrap(oracle, wpp_wasm::abi::ORACLE_UNWIND, |mut c: Caller<'_, Rec>, f: i32| c.data_mut().splitters.iter_mut().for_each(|s| s.unwind(f as u32)))
        .expect("define unwind");
    l
}

/// One instance of one version of the module.
struct Run {
    what: String,
    store: Store<Rec>,
    instance: Option<Instance>,
    inst: Option<Instrumented>,
}

impl Run {
    /// `splitters` are the oracle's, for the block-log rewrite (empty otherwise).
    fn new(engine: &Engine, linker: &Linker<Rec>, what: &str, module: &Module, inst: Option<Instrumented>, splitters: Vec<PathSplitter>) -> (Run, Outcome) {
        let rec = Rec {
            hash_base: inst.as_ref().map_or(0, |i| i.layout.hash_base as usize),
            hash_entries: inst.as_ref().map_or(0, |i| i.layout.hash_entries as usize),
            sequence_hash: HASH_START,
            splitters,
            raw: inst.as_ref().is_some_and(|i| i.accesses || i.ewpp.is_some()),
            narrow: inst.as_ref().and_then(|i| i.narrow.clone()).map(|ids| (ids, NarrowDecoder::default())),
            ..Rec::default()
        };
        let mut store = Store::new(engine, rec);
        let (instance, outcome) = match linker.instantiate(&mut store, module) {
            Ok(i) => (Some(i), Outcome::Ok(vec![])),
            Err(e) => (None, Outcome::of_error(e)),
        };
        (Run { what: what.into(), store, instance, inst }, outcome)
    }

    fn call(&mut self, name: &str) -> Outcome {
        let instance = self.instance.expect("instantiated");
        let Some(f) = instance.get_func(&mut self.store, name) else {
            return Outcome::Error(format!("no exported function `{name}`"));
        };
        if let Some(g) = instance.get_global(&mut self.store, FUEL_EXPORT) {
            if let Err(e) = g.set(&mut self.store, Val::I32(FUEL as i32)) {
                return Outcome::Error(format!("cannot refill the fuel: {e}"));
            }
        }
        let ty = f.ty(&self.store);
        let args: Option<Vec<Val>> = ty.params().map(|p| Val::default_for_ty(&p)).collect();
        let Some(args) = args else { return Outcome::Error("a parameter has no default value".into()) };
        let mut results = vec![Val::I32(0); ty.results().len()];
        match f.call(&mut self.store, &args, &mut results) {
            Ok(()) => Outcome::Ok(results.iter().map(norm).collect()),
            Err(e) => Outcome::of_error(e),
        }
    }

    /// Collects what is left in the instrumented module's memory: the rest of the event
    /// buffer (trace mode) or every counter (count mode).
    fn finish(&mut self) -> anyhow::Result<Recorded> {
        let inst = self.inst.as_ref().expect("instrumented");
        let instance = self.instance.expect("instantiated");
        let mem = instance.get_memory(&mut self.store, abi::EXPORT_MEMORY).ok_or_else(|| anyhow::anyhow!("no {}", abi::EXPORT_MEMORY))?;
        match inst.mode {
            Mode::Trace => {
                let ptr = instance
                    .get_global(&mut self.store, abi::EXPORT_EVENT_PTR)
                    .and_then(|g| g.get(&mut self.store).i32())
                    .ok_or_else(|| anyhow::anyhow!("no {}", abi::EXPORT_EVENT_PTR))?;
                let (data, rec) = mem.data_and_store_mut(&mut self.store);
                rec.drain_events(data, ptr as u32 as usize)?;
                anyhow::ensure!(!rec.decoder.is_mid_event(), "the trace ends inside a two-word event");
                anyhow::ensure!(!rec.narrow.as_ref().is_some_and(|(_, d)| d.is_mid_event()), "the trace ends inside a three-word event");
                anyhow::ensure!(rec.hash_flushes == 0, "trace mode flushed a hash table");
                Ok(Recorded { counts: std::mem::take(&mut rec.counts), events: rec.n_events, sequence_hash: Some(rec.sequence_hash) })
            }
            Mode::Count => {
                let (data, rec) = mem.data_and_store_mut(&mut self.store);
                anyhow::ensure!(rec.event_flushes == 0, "count mode flushed an event buffer");
                if rec.hash_entries > 0 {
                    rec.drain_hash(data);
                }
                let mut counts = std::mem::take(&mut rec.counts);
                let words = |base: u64, n: u64| data[base as usize..(base + n * 8) as usize].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap()));
                for &(func, kind, n) in &inst.layout.counters {
                    match kind {
                        CounterKind::Array { base } => {
                            for (path, c) in words(base as u64, n).enumerate() {
                                if c != 0 {
                                    *counts.entry((func, PathId(path as u64))).or_default() += c;
                                }
                            }
                        }
                        CounterKind::Ppp { base, slots } => {
                            // What the hash table counted so far is residual: no path with a slot.
                            let ppp = inst.ppp.get(func).expect("functions with slots have PPP numbers");
                            for &(path, id) in ppp.ids() {
                                anyhow::ensure!(
                                    id >= slots as i128 || !counts.contains_key(&(func, path)),
                                    "function {func}: interesting path {path} (PPP id {id} of {slots} slots) was counted in the hash table"
                                );
                            }
                            let slot = words(base as u64, 2 * slots);
                            for (path, c) in slot.clone().step_by(2).zip(slot.skip(1).step_by(2)) {
                                if c != 0 {
                                    anyhow::ensure!(path != wpp_wasm::NO_PATH, "function {func}: an empty PPP slot was counted");
                                    *counts.entry((func, PathId(path))).or_default() += c;
                                }
                            }
                        }
                        CounterKind::Hash => {}
                    }
                }
                let events = counts.values().sum();
                Ok(Recorded { counts, events, sequence_hash: None })
            }
        }
    }
}

/// What one instrumented run recorded.
struct Recorded {
    counts: Counts,
    /// Events (trace mode) or the sum of the counts (count mode).
    events: u64,
    /// Trace mode: [`hash_event`] over the events in order.
    sequence_hash: Option<u64>,
}

/// What happened to one module.
pub enum Verdict {
    /// Instantiated and every exported function called: every check ran.
    Exercised,
    /// The start function trapped in every version alike: only that was compared.
    StartTrapped,
    /// Checked until a stack overflow (the instrumented frames are larger, so the
    /// overflow may come at a different depth; nothing after it is comparable).
    StackOverflow,
    /// Not run: wasm-smith produced nothing, or wpp refuses a feature.
    Skipped(String),
}

/// Totals over all modules checked, to show what a test exercised.
#[derive(Default)]
pub struct Stats {
    pub calls: u64,
    pub returned: u64,
    pub traps: std::collections::BTreeMap<String, u64>,
    pub functions: u64,
    /// Largest number of paths of a function, without cut points.
    pub max_paths: u64,
    /// Functions with more than 2³² paths (two-word events).
    pub wide_functions: u64,
    /// Functions whose paths count in the hash table by default.
    pub hashed_functions: u64,
    /// Functions with cut points when `max_paths` is [`CUT_MAX_PATHS`].
    pub cut_functions: u64,
    /// Modules with a function too large for [`CUT_MAX_PATHS`], run without cut points.
    pub cut_dropped: u64,
    pub events: u64,
    pub distinct_paths: u64,
    pub event_flushes: u64,
    pub hash_flushes: u64,
    /// Versions with memory accesses or the extended WPP's checks whose behaviour was
    /// compared, and those refused (memory64).
    pub accesses_compared: u64,
    pub accesses_refused: u64,
    /// Catch edges (from a call or throw inside a `try_table` to a handler) and throw
    /// edges (a `throw` leaving its function) in the modules' CFGs.
    pub catch_edges: u64,
    pub throw_edges: u64,
}

/// Compares the exported state of two instances: globals by value, memories byte for
/// byte, tables by size and null-ness of each element.
fn compare_state(exports: &[(String, ExternType)], a: &mut Run, b: &mut Run) -> Result<(), String> {
    let (ia, ib) = (a.instance.unwrap(), b.instance.unwrap());
    for (name, ty) in exports {
        match ty {
            ExternType::Global(_) => {
                let va = ia.get_global(&mut a.store, name).map(|g| norm(&g.get(&mut a.store)));
                let vb = ib.get_global(&mut b.store, name).map(|g| norm(&g.get(&mut b.store)));
                if va != vb {
                    return Err(format!("global `{name}`: {} has {va:?}, {} has {vb:?}", a.what, b.what));
                }
            }
            ExternType::Memory(_) => {
                let (Some(ma), Some(mb)) = (ia.get_memory(&mut a.store, name), ib.get_memory(&mut b.store, name)) else {
                    return Err(format!("memory `{name}` missing from {}", b.what));
                };
                let (da, db) = (ma.data(&a.store), mb.data(&b.store));
                if da != db {
                    let at = da.iter().zip(db).position(|(x, y)| x != y);
                    return Err(format!("memory `{name}`: {} has {} bytes, {} has {} bytes, first difference at {at:?}", a.what, da.len(), b.what, db.len()));
                }
            }
            ExternType::Table(_) => {
                let (Some(ta), Some(tb)) = (ia.get_table(&mut a.store, name), ib.get_table(&mut b.store, name)) else {
                    return Err(format!("table `{name}` missing from {}", b.what));
                };
                let (na, nb) = (ta.size(&a.store), tb.size(&b.store));
                if na != nb {
                    return Err(format!("table `{name}`: {} has {na} elements, {} has {nb}", a.what, b.what));
                }
                for i in 0..na {
                    let xa = ta.get(&mut a.store, i).map(|r| r.is_null());
                    let xb = tb.get(&mut b.store, i).map(|r| r.is_null());
                    if xa != xb {
                        return Err(format!("table `{name}`[{i}]: null {xa:?} in {}, {xb:?} in {}", a.what, b.what));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every recorded path must exist in its function's numbering and decode to blocks.
fn check_paths(what: &str, counts: &Counts, inst: &Instrumented) -> Result<(), String> {
    for &(f, p) in counts.keys() {
        let Some(num) = inst.numberings.get(f) else {
            return Err(format!("{what} recorded path {p} of function {f}, which has no numbering"));
        };
        if p.0 >= num.n_paths() {
            return Err(format!("{what} recorded path {p} of function {f}, which has {} paths", num.n_paths()));
        }
        num.decode(p).map_err(|e| format!("{what}: function {f}: {e}"))?;
    }
    Ok(())
}

/// Per-path differences between two count maps, for a failure message.
fn diff_counts(a_what: &str, a: &Counts, b_what: &str, b: &Counts) -> String {
    let mut keys: Vec<_> = a.keys().chain(b.keys()).copied().collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for k in keys {
        let (x, y) = (a.get(&k).copied().unwrap_or(0), b.get(&k).copied().unwrap_or(0));
        if x != y {
            out.push(format!("func {} path {}: {a_what} {x}, {b_what} {y}", k.0, k.1));
        }
    }
    let n = out.len();
    out.truncate(8);
    format!("{n} paths differ:\n    {}", out.join("\n    "))
}

/// Runs every check on one module.
/// An instance of a rewritten module, which must instantiate as the original did
/// (`orig_out`; a stack overflow on either side aside).
fn instantiate_alike(engine: &Engine, linker: &Linker<Rec>, what: &str, module: &Module, inst: Instrumented, orig_out: &Outcome) -> Result<Run, String> {
    let (run, out) = Run::new(engine, linker, what, module, Some(inst), Vec::new());
    if out != *orig_out && !(out.is_stack_overflow() || orig_out.is_stack_overflow()) {
        return Err(format!("instantiation: original {orig_out:?}, {what} {out:?}"));
    }
    Ok(run)
}

fn check_module(engine: &Engine, linker: &Linker<Rec>, wasm: &[u8], stats: &mut Stats) -> Result<Verdict, String> {
    let program = match wpp_wasm::decode(wasm) {
        Ok(p) => p,
        Err(wpp_wasm::Error::Unsupported { feature, place }) => return Ok(Verdict::Skipped(format!("unsupported: {feature} ({place})"))),
        Err(e) => return Err(format!("decode: {e}")),
    };
    let orig_module = match Module::new(engine, wasm) {
        Ok(m) => m,
        Err(e) => {
            let chain: Vec<String> = e.chain().map(|c| c.to_string()).collect();
            return Err(format!("wasmtime rejects the original module: {}", chain.join(": ")));
        }
    };
    // Tiny buffers and tables, so that the flushes run often. Each count mode is checked
    // against the trace mode of the same numbering (same `max_paths`).
    let mut variants = vec![
        ("trace mode", Options { mode: Mode::Trace, buffer_bytes: 256, ..Options::default() }),
        ("count mode", Options { mode: Mode::Count, ..Options::default() }),
        ("trace mode (4-byte events)", Options { mode: Mode::Trace, buffer_bytes: 256, narrow_events: true, ..Options::default() }),
        ("count mode (hash table)", Options { mode: Mode::Count, force_hash: true, hash_entries: 16, ..Options::default() }),
        ("trace mode (cut points)", Options { mode: Mode::Trace, buffer_bytes: 256, max_paths: CUT_MAX_PATHS, ..Options::default() }),
        ("count mode (cut points)", Options { mode: Mode::Count, max_paths: CUT_MAX_PATHS, ..Options::default() }),
    ];
    // Preferential path profiling of a few paths per function, with one slot per
    // interesting path so that wide id ranges overflow into the hash table. It goes before
    // the cut-point variants, which are dropped when a module cannot be cut.
    let mut interesting = wpp_wasm::Interesting::new();
    for f in &program.functions {
        let Some(cfg) = &f.cfg else { continue };
        let Ok(num) = wpp_paths::number(cfg, &wpp_paths::Options::default()) else { continue };
        let n = num.n_paths();
        interesting.insert(f.index, [0, n - 1, n / 2, n / 3, (f.index.0 as u64 * 7919) % n].map(PathId).to_vec());
    }
    let ppp = Options {
        mode: Mode::Count,
        interesting: Some(interesting),
        ppp_slots_per_path: 1,
        ppp_min_slots: 1,
        ppp_everywhere: true,
        hash_entries: 16,
        ..Options::default()
    };
    variants.insert(3, ("preferential path profiling", ppp));
    // Recordings whose events carry memory accesses or whose checks keep a shadow of
    // memory: their behaviour is compared, not their paths. The extended WPP's candidates:
    // for each load, the first few stores of the module, so that both the candidates' and
    // the generic checks run.
    let mut behaviour_only = vec![("trace mode with memory accesses", Options { mode: Mode::Trace, accesses: true, buffer_bytes: 256, ..Options::default() })];
    if let Ok(sites) = wpp_wasm::access_sites(wasm, &program) {
        let writes: Vec<wpp_model::SiteIdx> = sites
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.kind, wpp_model::access_event::SiteKind::Write { .. }))
            .map(|(i, _)| wpp_model::SiteIdx(i as u32))
            .take(3)
            .collect();
        let mut plan = wpp_wasm::EwppPlan::default();
        for (i, s) in sites.iter().enumerate() {
            if matches!(s.kind, wpp_model::access_event::SiteKind::Read { .. }) && !writes.is_empty() {
                plan.candidates.insert(wpp_model::SiteIdx(i as u32), writes[..1 + i % writes.len()].to_vec());
            }
        }
        behaviour_only.push(("the extended WPP's collection run", Options { mode: Mode::Trace, ewpp: Some(plan), buffer_bytes: 256, ..Options::default() }));
    }

    // 1. Every version validates, compiles and instantiates alike.
    let (mut orig, orig_out) = Run::new(engine, linker, "original", &orig_module, None, Vec::new());
    let mut runs = Vec::new();
    for i in 0.. {
        let Some((what, opts)) = variants.get(i) else { break };
        let inst = match wpp_wasm::instrument(wasm, &program, opts) {
            Ok(i) => i,
            // Paths from all starts together count against `max_paths`, so a large
            // function cannot get under a small limit however it is cut.
            Err(wpp_wasm::Error::Rewrite { message, .. }) if opts.max_paths == CUT_MAX_PATHS && message.contains("even with every block cut") => {
                stats.cut_dropped += 1;
                variants.truncate(i);
                break;
            }
            Err(wpp_wasm::Error::Unsupported { feature, place }) => return Ok(Verdict::Skipped(format!("unsupported: {feature} ({place})"))),
            Err(e) => return Err(format!("{what}: instrument: {e}")),
        };
        let module = Module::new(engine, &inst.wasm).map_err(|e| format!("{what}: wasmtime rejects the rewritten module: {e:?}"))?;
        for num in inst.numberings.values() {
            match opts.max_paths {
                u64::MAX if opts.mode == Mode::Trace && !opts.narrow_events => {
                    stats.max_paths = stats.max_paths.max(num.n_paths());
                    stats.wide_functions += (num.n_paths() > 1 << 32) as u64;
                }
                CUT_MAX_PATHS if opts.mode == Mode::Trace => stats.cut_functions += !num.cut_points().is_empty() as u64,
                _ => {}
            }
        }
        if opts.mode == Mode::Count && opts.max_paths == u64::MAX && !opts.force_hash && opts.interesting.is_none() {
            stats.hashed_functions += inst.layout.counters.iter().filter(|c| c.1 == CounterKind::Hash).count() as u64;
        }
        runs.push(instantiate_alike(engine, linker, what, &module, inst, &orig_out)?);
    }
    let mut others = Vec::new();
    for (what, opts) in &behaviour_only {
        let inst = match wpp_wasm::instrument(wasm, &program, opts) {
            Ok(i) => i,
            // Refused alone (memory64): the other versions are still compared.
            Err(wpp_wasm::Error::Unsupported { .. }) => {
                stats.accesses_refused += 1;
                continue;
            }
            Err(e) => return Err(format!("{what}: instrument: {e}")),
        };
        let module = Module::new(engine, &inst.wasm).map_err(|e| format!("{what}: wasmtime rejects the rewritten module: {e:?}"))?;
        others.push(instantiate_alike(engine, linker, what, &module, inst, &orig_out)?);
    }
    stats.accesses_compared += others.len() as u64;
    // The oracle: one block log, split under the numbering of each trace-mode variant
    // (`numbered[k]` is the variant whose numbering splitter `k` uses).
    let numbered: Vec<usize> = (0..runs.len()).filter(|&i| variants[i].1.mode == Mode::Trace).collect();
    let splitters = numbered.iter().map(|&i| splitter(&program, runs[i].inst.as_ref().expect("instrumented"), false)).collect();
    let oracle_wasm = wpp_wasm::instrument_block_log(wasm, &program).map_err(|e| format!("block-log oracle: instrument: {e}"))?;
    let oracle_module = Module::new(engine, &oracle_wasm).map_err(|e| format!("wasmtime rejects the block-log oracle: {e:?}"))?;
    let (mut oracle, out) = Run::new(engine, linker, "the block-log oracle", &oracle_module, None, splitters);
    if out != orig_out && !(out.is_stack_overflow() || orig_out.is_stack_overflow()) {
        return Err(format!("instantiation: original {orig_out:?}, the block-log oracle {out:?}"));
    }
    stats.functions += program.functions.len() as u64;
    for e in program.functions.iter().filter_map(|f| f.cfg.as_ref()).flat_map(|c| &c.edges) {
        stats.catch_edges += (e.kind == wpp_model::EdgeKind::Catch) as u64;
        stats.throw_edges += (e.kind == wpp_model::EdgeKind::Throw) as u64;
    }
    match orig_out {
        Outcome::Ok(_) => {}
        Outcome::Trap(Trap::StackOverflow) => return Ok(Verdict::StackOverflow),
        Outcome::Trap(_) | Outcome::Uncaught => return Ok(Verdict::StartTrapped),
        Outcome::Error(e) => return Err(format!("instantiation of the original failed: {e}")),
    }
    if runs.iter().chain(&others).chain([&oracle]).any(|r| r.instance.is_none()) {
        // The original instantiated; only a stack overflow may differ.
        return Ok(Verdict::StackOverflow);
    }

    // 2. Every exported function, in export order, behaves alike; then so does the state.
    let exports: Vec<(String, ExternType)> = orig_module.exports().map(|e| (e.name().to_string(), e.ty())).collect();
    let mut overflowed = false;
    for (name, ty) in &exports {
        let ExternType::Func(fty) = ty else { continue };
        if fty.params().any(|p| Val::default_for_ty(&p).is_none()) {
            continue;
        }
        let want = orig.call(name);
        let got: Vec<Outcome> = runs.iter_mut().chain(others.iter_mut()).chain([&mut oracle]).map(|r| r.call(name)).collect();
        stats.calls += 1;
        if want.is_stack_overflow() || got.iter().any(Outcome::is_stack_overflow) {
            overflowed = true;
            break;
        }
        for (r, g) in runs.iter().chain(&others).chain([&oracle]).zip(&got) {
            if *g != want {
                return Err(format!("call of export `{name}`: original {want:?}, {} {g:?}", r.what));
            }
        }
        match &want {
            Outcome::Ok(_) => stats.returned += 1,
            Outcome::Trap(t) => *stats.traps.entry(format!("{t:?}")).or_default() += 1,
            Outcome::Uncaught => *stats.traps.entry("UncaughtException".into()).or_default() += 1,
            Outcome::Error(e) => return Err(format!("call of export `{name}` failed in the original: {e}")),
        }
    }
    if !overflowed {
        for r in runs.iter_mut().chain(others.iter_mut()).chain([&mut oracle]) {
            compare_state(&exports, &mut orig, r)?;
        }
    }

    // 3. The recorded paths exist, and each recording equals the oracle's paths under its
    // numbering: the counts, and in trace mode the number and order of events.
    let mut collected = Vec::new();
    for r in runs.iter_mut() {
        let rec = r.finish().map_err(|e| format!("{}: {e:#}", r.what))?;
        check_paths(&r.what, &rec.counts, r.inst.as_ref().unwrap())?;
        stats.event_flushes += r.store.data().event_flushes;
        stats.hash_flushes += r.store.data().hash_flushes;
        collected.push(rec);
    }
    if overflowed {
        return Ok(Verdict::StackOverflow);
    }
    let splitters = std::mem::take(&mut oracle.store.data_mut().splitters);
    for (i, rec) in collected.iter().enumerate() {
        let (w, opts) = &variants[i];
        let k = numbered.iter().position(|&t| variants[t].1.max_paths == opts.max_paths).expect("a trace of each numbering");
        let o = &splitters[k];
        if let Some(e) = &o.error {
            return Err(format!("the block-log oracle, split for {}: {e}", variants[numbered[k]].0));
        }
        if opts.mode == Mode::Trace {
            stats.events += rec.events;
            stats.distinct_paths += rec.counts.len() as u64;
        }
        if rec.events != o.n_events {
            return Err(format!("{w} recorded {} paths in all, the oracle {}; {}", rec.events, o.n_events, diff_counts("oracle", &o.counts, w, &rec.counts)));
        }
        if rec.counts != o.counts {
            return Err(format!("{w} counts differ from the oracle's: {}", diff_counts("oracle", &o.counts, w, &rec.counts)));
        }
        if rec.sequence_hash.is_some_and(|h| h != o.sequence_hash) {
            return Err(format!("{w}: the order of events differs from the oracle's"));
        }
    }
    Ok(Verdict::Exercised)
}

/// A wasmtime engine and the linker of the harness's host functions, made once and used
/// for any number of modules.
pub struct Harness {
    engine: Engine,
    linker: Linker<Rec>,
}

impl Harness {
    pub fn new() -> Harness {
        let engine = wpp_runtime::engine().expect("a wasmtime engine");
        let linker = linker(&engine);
        Harness { engine, linker }
    }

    /// Runs every check on `wasm` (a module from [`module`]), adding to `stats`; an error
    /// says which check failed and how.
    pub fn check(&self, wasm: &[u8], stats: &mut Stats) -> Result<Verdict, String> {
        check_module(&self.engine, &self.linker, wasm, stats)
    }
}

impl Default for Harness {
    fn default() -> Self {
        Harness::new()
    }
}
