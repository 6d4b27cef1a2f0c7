//! Instantiating and running a guest, and collecting what the instrumentation recorded.

use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

use wasmtime::{Caller, Engine, Linker, Memory, Module, Store};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::I32Exit;
use wpp_model::access_event::{AccessEvent, SiteKind};
use wpp_model::{FuncIdx, PathId};
use wpp_wasm::{abi, CounterKind, Instrumented, Mode, Origin, Origins};

use crate::host::{wasi_ctx, Captured};
use crate::stop::{MemoryLimitHit, MemoryLimiter, StopHandle, StoppedAtFlush, Timer};
use crate::{BlockSink, BoxError, Error, EventSink, Frame, Outcome, RunConfig, RunResult, StopReason};

/// Path counts by (function, path).
pub type PathCounts = HashMap<(FuncIdx, PathId), u64>;

/// What a run of an instrumented module gives back.
pub struct PathsRun {
    pub result: RunResult,
    /// Count mode: every path's count. Trace mode: empty (the events went to the sink).
    pub counts: PathCounts,
    /// Count mode: the part of `counts` that the hash table counted (with interesting
    /// paths, the residual paths).
    pub hashed: PathCounts,
    /// Event words delivered to the sink (trace mode): 8-byte words, or 4-byte ones when
    /// the module writes 4-byte events.
    pub n_event_words: u64,
    /// With memory accesses recorded: calls of imported functions whose writes to guest
    /// memory the host does not know (none of them is in the event stream), by name.
    pub unknown_host_calls: BTreeMap<String, u64>,
}

/// What the store carries besides WASI.
struct State<X> {
    wasi: WasiP1Ctx,
    memory: Option<Memory>,
    limiter: MemoryLimiter,
    stop: StopHandle,
    extra: X,
}

/// How a store's run is stopped from outside, and its limits.
struct Control {
    stop: StopHandle,
    limits: crate::Limits,
}

/// State for an instrumented run. Full event buffers go to a consumer thread that owns
/// the sink (and gives it [`EventSink::idle`] time between buffers); the guest blocks only
/// when the consumer is [`QUEUED_BUFFERS`] behind.
struct Paths {
    to_consumer: Option<std::sync::mpsc::SyncSender<Buffer>>,
    recycled: std::sync::mpsc::Receiver<Buffer>,
    /// Whether the module writes 4-byte events ([`wpp_model::NarrowIds`]).
    narrow: bool,
    n_words: u64,
    hash_base: usize,
    hash_entries: usize,
    hash_counts: PathCounts,
    error: Option<BoxError>,
    unknown_host_calls: BTreeMap<String, u64>,
}

fn compile(engine: &Engine, wasm: &[u8]) -> Result<(Module, std::time::Duration), Error> {
    let t = Instant::now();
    let module = Module::new(engine, wasm).map_err(|e| Error::Compile(e.into()))?;
    Ok((module, t.elapsed()))
}

/// Runs `_start` and turns its ending into an [`Outcome`]; other errors pass through.
/// The guest runs under `control`: stoppable, with its time limit.
fn call_start<X: Send + 'static>(
    store: &mut Store<State<X>>,
    control: &Control,
    linker: &Linker<State<X>>,
    module: &Module,
    memory_export: Option<&str>,
    origins: Option<&Origins>,
) -> Result<(Outcome, std::time::Duration, wasmtime::Instance), Error> {
    let instance = linker.instantiate(&mut *store, module).map_err(|e| Error::Instantiate(e.into()))?;
    if let Some(name) = memory_export {
        store.data_mut().memory = instance.get_memory(&mut *store, name);
    }
    let start = instance.get_typed_func::<(), ()>(&mut *store, "_start").map_err(|e| Error::NoStart(e.into()))?;
    let stop_word = instance.get_memory(&mut *store, wpp_wasm::abi::EXPORT_STOP);
    let t = Instant::now();
    let timer = Timer::start(control.limits.timeout, &control.stop).map_err(Error::Thread)?;
    if let Some(m) = stop_word {
        // SAFETY: the memory (one page that never grows) lives as long as the store, which
        // outlives the call; `set_ended` disarms right after it; only the guest's code
        // touches the stop memory.
        unsafe { control.stop.arm(m.data_ptr(&*store).cast::<u32>()) };
    }
    let res = start.call(&mut *store, ());
    let elapsed = t.elapsed();
    drop(timer);
    control.stop.set_ended();
    let outcome = match res {
        Ok(()) => Outcome::Exited(0),
        Err(e) => {
            if let Some(exit) = e.downcast_ref::<I32Exit>() {
                Outcome::Exited(exit.0)
            } else if let Some(hit) = e.downcast_ref::<MemoryLimitHit>() {
                Outcome::Stopped(StopReason::Memory(hit.limit))
            } else if let (true, Some(reason)) = (
                e.downcast_ref::<StoppedAtFlush>().is_some()
                        || e.downcast_ref::<wasmtime::Trap>() == Some(&wasmtime::Trap::Interrupt)
                        // A count-mode guest's counter update past its poisoned stop word.
                        || (stop_word.is_some() && e.downcast_ref::<wasmtime::Trap>() == Some(&wasmtime::Trap::MemoryOutOfBounds)),
                control.stop.reason(),
            ) {
                Outcome::Stopped(reason)
            } else if let (Some(wasmtime::Trap::OutOfFuel), Some(fuel)) = (e.downcast_ref::<wasmtime::Trap>(), control.limits.fuel) {
                Outcome::Stopped(StopReason::Fuel(fuel))
            } else if e.downcast_ref::<wasmtime::Trap>().is_some() || e.downcast_ref::<wasmtime::WasmBacktrace>().is_some() {
                let backtrace = e.downcast_ref::<wasmtime::WasmBacktrace>().map(|bt| backtrace(bt, origins)).unwrap_or_default();
                let trap = match (e.downcast_ref::<wasmtime::Trap>(), e.downcast_ref::<wasmtime::ThrownException>()) {
                    (Some(t), _) => t.to_string(),
                    (None, Some(_)) => UNCAUGHT.to_string(),
                    (None, None) => format!("{e:#}"),
                };
                Outcome::Trapped { trap, backtrace }
            } else {
                return Err(Error::Guest(e.into()));
            }
        }
    };
    Ok((outcome, elapsed, instance))
}

/// A trap's backtrace in the original module: the running module's frames mapped back
/// through `origins` when it was rewritten.
/// What a run that ended with an exception no handler caught says in place of a trap.
pub const UNCAUGHT: &str = "uncaught exception";

fn backtrace(bt: &wasmtime::WasmBacktrace, origins: Option<&Origins>) -> Vec<Frame> {
    bt.frames()
        .iter()
        .map(|f| {
            let offset = f.module_offset().and_then(|o| u32::try_from(o).ok());
            let name = f.func_name().map(str::to_string);
            match origins.map(|o| o.origin(f.func_index(), offset)) {
                None => Frame { func: Some(FuncIdx(f.func_index())), name, offset },
                Some(Origin::Original { func, offset }) => Frame { func: Some(func), name, offset },
                Some(Origin::Added) => Frame { func: None, name, offset: None },
            }
        })
        .collect()
}

fn captured_output(c: Option<Captured>) -> (Vec<u8>, Vec<u8>) {
    match c {
        Some(c) => (c.stdout.contents().to_vec(), c.stderr.contents().to_vec()),
        None => (Vec::new(), Vec::new()),
    }
}

/// A store, where its captured output goes, and how it is stopped.
type NewStore<X> = (Store<State<X>>, Option<Captured>, Control);

/// A store for a run under `cfg`: WASI, the memory limit (letting through once a
/// recording memory of `recording_memory` bytes), fuel, and a stop handle attached to
/// the engine.
fn new_store<X>(engine: &Engine, cfg: &RunConfig, recording_memory: Option<u64>, extra: X) -> Result<NewStore<X>, Error> {
    let (wasi, captured) = wasi_ctx(cfg)?;
    let limiter = MemoryLimiter { limit: cfg.limits.max_memory, exempt: recording_memory };
    let control = Control { stop: cfg.limits.stop.clone().unwrap_or_default(), limits: cfg.limits.clone() };
    let mut store = Store::new(engine, State { wasi, memory: None, limiter, stop: control.stop.clone(), extra });
    store.limiter(|s| &mut s.limiter);
    if let Some(fuel) = cfg.limits.fuel {
        store.set_fuel(fuel).map_err(|e| Error::Engine(e.into()))?;
    }
    let stop = control.stop.clone();
    store.set_epoch_deadline(1);
    store.epoch_deadline_callback(move |_| {
        Ok(if stop.reason().is_some() { wasmtime::UpdateDeadline::Interrupt } else { wasmtime::UpdateDeadline::Continue(1) })
    });
    control.stop.attach(engine);
    Ok((store, captured, control))
}

fn wasi_linker<X: Send + 'static>(engine: &Engine) -> Result<Linker<State<X>>, Error> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |s: &mut State<X>| &mut s.wasi).map_err(|e| Error::Wasi(e.into()))?;
    Ok(linker)
}

/// Runs an uninstrumented module.
pub fn run_plain(engine: &Engine, wasm: &[u8], cfg: &RunConfig) -> Result<RunResult, Error> {
    let (module, compile_time) = compile(engine, wasm)?;
    let (mut store, captured, control) = new_store(engine, cfg, None, ())?;
    let linker = wasi_linker::<()>(engine)?;
    let (outcome, guest_time, _) = call_start(&mut store, &control, &linker, &module, None, None)?;
    drop(store);
    let (stdout, stderr) = captured_output(captured);
    Ok(RunResult { outcome, stdout, stderr, compile_time, guest_time })
}

/// Buffers in flight between the guest and the consumer thread.
const QUEUED_BUFFERS: usize = 4;

/// A buffer of event words on its way to the consumer, in the module's event form.
enum Buffer {
    Wide(Vec<u64>),
    Narrow(Vec<u32>),
}

/// Copies the event words `[0, bytes)` of the added memory to the consumer, and `more`
/// after them (8-byte events only).
fn drain_events(data: &[u8], p: &mut Paths, bytes: usize, more: &[u64]) -> Result<(), BoxError> {
    let bytes = bytes.min(data.len()) & if p.narrow { !3 } else { !7 };
    if bytes == 0 && more.is_empty() {
        return Ok(());
    }
    let recycled = p.recycled.try_recv().ok();
    let buffer = if p.narrow {
        if !more.is_empty() {
            return Err("8-byte events for a module that writes 4-byte ones".into());
        }
        let mut words = match recycled {
            Some(Buffer::Narrow(w)) => w,
            _ => Vec::new(),
        };
        words.clear();
        words.extend(data[..bytes].chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))));
        p.n_words += words.len() as u64;
        Buffer::Narrow(words)
    } else {
        let mut words = match recycled {
            Some(Buffer::Wide(w)) => w,
            _ => Vec::new(),
        };
        words.clear();
        words.extend(data[..bytes].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))));
        words.extend_from_slice(more);
        p.n_words += words.len() as u64;
        Buffer::Wide(words)
    };
    let tx = p.to_consumer.as_ref().ok_or("the event consumer is gone")?;
    tx.send(buffer).map_err(|_| "the event consumer stopped".into())
}

/// Moves the hash table's entries into `p.hash_counts` and empties the table.
fn drain_hash(data: &mut [u8], p: &mut Paths) {
    let e = abi::HASH_ENTRY_BYTES as usize;
    let table = &mut data[p.hash_base..p.hash_base + p.hash_entries * e];
    for entry in table.chunks_exact_mut(e) {
        let word = |i: usize| u64::from_le_bytes(entry[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
        let func1 = word(1);
        if func1 != 0 {
            *p.hash_counts.entry((FuncIdx((func1 - 1) as u32), PathId(word(0)))).or_default() += word(2);
        }
    }
    table.fill(0);
}

/// Runs a module rewritten by [`wpp_wasm::instrument`]. Trace mode delivers events to
/// `sink`, which is handed back; count mode returns the counts.
pub fn run_paths<S: EventSink + Send + 'static>(engine: &Engine, inst: &Instrumented, cfg: &RunConfig, sink: S) -> Result<(PathsRun, S), Error> {
    let (module, compile_time) = compile(engine, &inst.wasm)?;
    let (to_consumer, from_guest) = std::sync::mpsc::sync_channel::<Buffer>(QUEUED_BUFFERS);
    let (recycle, recycled) = std::sync::mpsc::channel::<Buffer>();
    let consumer = std::thread::Builder::new()
        .name("wpp-events".into())
        .spawn(move || -> Result<S, BoxError> {
            use std::sync::mpsc::TryRecvError;
            let mut sink = sink;
            loop {
                let words = match from_guest.try_recv() {
                    Ok(words) => words,
                    Err(TryRecvError::Empty) => {
                        if sink.idle()? {
                            continue;
                        }
                        match from_guest.recv() {
                            Ok(words) => words,
                            Err(_) => break,
                        }
                    }
                    Err(TryRecvError::Disconnected) => break,
                };
                match &words {
                    Buffer::Wide(w) => sink.events(w)?,
                    Buffer::Narrow(w) => sink.narrow_events(w)?,
                }
                let _ = recycle.send(words);
            }
            Ok(sink)
        })
        .map_err(Error::Thread)?;
    let paths = Paths {
        to_consumer: Some(to_consumer),
        recycled,
        narrow: inst.narrow.is_some(),
        n_words: 0,
        hash_base: inst.layout.hash_base as usize,
        hash_entries: inst.layout.hash_entries as usize,
        hash_counts: HashMap::new(),
        error: None,
        unknown_host_calls: BTreeMap::new(),
    };
    let (mut store, captured, control) = new_store(engine, cfg, Some(inst.layout.memory_bytes), paths)?;
    let mut linker = wasi_linker::<Paths>(engine)?;
    linker
        .func_wrap(abi::IMPORT_MODULE, abi::IMPORT_FLUSH, |mut caller: Caller<'_, State<Paths>>, kind: i32, bytes: i32| -> wasmtime::Result<()> {
            let fail = |m: String| Err(wasmtime::Error::msg(m));
            let Some(memory) = caller.data().memory else { return fail("flush before the memory is known".into()) };
            if caller.data().stop.requested() {
                // Stop here; the buffer is collected with whatever else the guest left.
                return Err(wasmtime::Error::new(StoppedAtFlush));
            }
            let (data, state) = memory.data_and_store_mut(&mut caller);
            let p = &mut state.extra;
            match kind {
                abi::FLUSH_EVENTS => {
                    if let Err(e) = drain_events(data, p, bytes as u32 as usize, &[]) {
                        // Stop the guest: the consumer cannot take more.
                        let msg = chain(&*e);
                        p.error = Some(e);
                        return fail(format!("wpp: recording failed: {msg}"));
                    }
                }
                abi::FLUSH_HASH => drain_hash(data, p),
                other => return fail(format!("wpp: unknown flush kind {other}")),
            }
            Ok(())
        })
        .map_err(|e| Error::Wasi(e.into()))?;
    if inst.accesses || inst.ewpp.is_some() {
        host_call_events(&mut linker, &module, cfg, inst)?;
    }
    let started = call_start(&mut store, &control, &linker, &module, Some(abi::EXPORT_MEMORY), Some(&inst.origins));
    // Whatever happened, stop the consumer so that its error (if any) can be reported.
    let finish = |store: &mut Store<State<Paths>>| -> Result<S, Error> {
        store.data_mut().extra.to_consumer = None;
        consumer.join().map_err(|_| Error::ConsumerPanicked)?.map_err(Error::Recording)
    };
    let (outcome, guest_time, instance) = match started {
        Ok(x) => x,
        Err(e) => {
            let _ = finish(&mut store);
            return Err(e);
        }
    };
    if let Some(e) = store.data_mut().extra.error.take() {
        // The consumer stopped taking events: its own error says why.
        return Err(match finish(&mut store) {
            Err(why) => why,
            Ok(_) => Error::Recording(e),
        });
    }
    // Collect what is still in the guest's memory: on every ending, including traps.
    let memory = store.data().memory.ok_or_else(|| Error::Abi("it lacks its memory".into()))?;
    let mut counts = PathCounts::new();
    let mut hashed = PathCounts::new();
    match inst.mode {
        Mode::Trace => {
            let ptr = instance
                .get_global(&mut store, abi::EXPORT_EVENT_PTR)
                .and_then(|g| g.get(&mut store).i32())
                .ok_or_else(|| Error::Abi(format!("it lacks the `{}` global", abi::EXPORT_EVENT_PTR)))?;
            let (data, state) = memory.data_and_store_mut(&mut store);
            if let Err(e) = drain_events(data, &mut state.extra, ptr as u32 as usize, &[]) {
                return Err(match finish(&mut store) {
                    Err(why) => why,
                    Ok(_) => Error::Recording(e),
                });
            }
        }
        Mode::Count => {
            let (data, state) = memory.data_and_store_mut(&mut store);
            if state.extra.hash_entries > 0 {
                drain_hash(data, &mut state.extra);
            }
            hashed = std::mem::take(&mut state.extra.hash_counts);
            counts = hashed.clone();
            let words =
                |base: u64, n: u64| data[base as usize..(base + n * 8) as usize].chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
            for &(func, kind, n) in &inst.layout.counters {
                match kind {
                    CounterKind::Array { base } => {
                        for (path, c) in words(base as u64, n).enumerate() {
                            if c != 0 {
                                counts.insert((func, PathId(path as u64)), c);
                            }
                        }
                    }
                    CounterKind::Ppp { base, slots } => {
                        let slot = words(base as u64, 2 * slots);
                        for (path, c) in slot.clone().step_by(2).zip(slot.skip(1).step_by(2)) {
                            if c != 0 {
                                if path == wpp_wasm::NO_PATH {
                                    return Err(Error::Abi(format!("function {func}: an empty PPP slot was counted")));
                                }
                                *counts.entry((func, PathId(path))).or_default() += c;
                            }
                        }
                    }
                    CounterKind::Hash => {}
                }
            }
        }
    }
    let n_event_words = store.data().extra.n_words;
    let unknown_host_calls = std::mem::take(&mut store.data_mut().extra.unknown_host_calls);
    let sink = finish(&mut store)?;
    let (stdout, stderr) = captured_output(captured);
    Ok((PathsRun { result: RunResult { outcome, stdout, stderr, compile_time, guest_time }, counts, hashed, n_event_words, unknown_host_calls }, sink))
}

/// Runs a module rewritten by [`wpp_wasm::instrument_block_log`] (or
/// [`wpp_wasm::instrument_access_log`]), feeding `sink`.
pub fn run_block_log<S: BlockSink + Send + 'static>(engine: &Engine, wasm: &[u8], cfg: &RunConfig, sink: S) -> Result<(RunResult, S), Error> {
    let (module, compile_time) = compile(engine, wasm)?;
    let (mut store, captured, control) = new_store(engine, cfg, None, sink)?;
    let mut linker = wasi_linker::<S>(engine)?;
    linker
        .func_wrap(abi::ORACLE_MODULE, "enter", |mut c: Caller<'_, State<S>>, f: i32| c.data_mut().extra.enter(f as u32))
        .map_err(|e| Error::Wasi(e.into()))?;
    linker
        .func_wrap(abi::ORACLE_MODULE, "block", |mut c: Caller<'_, State<S>>, f: i32, b: i32| c.data_mut().extra.block(f as u32, b as u32))
        .map_err(|e| Error::Wasi(e.into()))?;
    linker
        .func_wrap(abi::ORACLE_MODULE, "leave", |mut c: Caller<'_, State<S>>, f: i32| c.data_mut().extra.leave(f as u32))
        .map_err(|e| Error::Wasi(e.into()))?;
    linker
        .func_wrap(abi::ORACLE_MODULE, abi::ORACLE_UNWIND, |mut c: Caller<'_, State<S>>, f: i32| c.data_mut().extra.unwind(f as u32))
        .map_err(|e| Error::Wasi(e.into()))?;
    linker.func_wrap(abi::ORACLE_MODULE, "exit", |mut c: Caller<'_, State<S>>, f: i32| c.data_mut().extra.exit(f as u32)).map_err(|e| Error::Wasi(e.into()))?;
    linker
        .func_wrap(abi::ORACLE_MODULE, abi::ORACLE_ACCESS, |mut c: Caller<'_, State<S>>, at: i32, addr: i64, len: i64, kind: i32| {
            c.data_mut().extra.access(at as u32, addr as u64, len as u64, kind as u32)
        })
        .map_err(|e| Error::Wasi(e.into()))?;
    host_calls(&mut linker, &module, cfg)?;
    let (outcome, guest_time, _) = call_start(&mut store, &control, &linker, &module, None, None)?;
    let sink = store.into_data().extra;
    let (stdout, stderr) = captured_output(captured);
    Ok((RunResult { outcome, stdout, stderr, compile_time, guest_time }, sink))
}

/// The access log's `host_begin` and `host_end`: each call of an imported function shown
/// to the sink, with the bytes it wrote when it is a WASI function.
fn host_calls<S: BlockSink + Send + 'static>(linker: &mut Linker<State<S>>, module: &Module, cfg: &RunConfig) -> Result<(), Error> {
    let imports = imported_functions(module);
    let imports = std::sync::Arc::new(imports);
    let ctx = host_context(cfg);
    let named = imports.clone();
    linker
        .func_wrap(abi::ORACLE_MODULE, abi::ORACLE_HOST_BEGIN, move |mut c: Caller<'_, State<S>>, import: i32| {
            let name = named.get(import as usize).map_or("", |i| i.1.as_str());
            if let Some(m) = c.get_export("memory").and_then(|e| e.into_memory()) {
                let (data, state) = m.data_and_store_mut(&mut c);
                state.extra.host_call_begin(name, data);
            }
        })
        .map_err(|e| Error::Wasi(e.into()))?;
    linker
        .func_wrap(
            abi::ORACLE_MODULE,
            abi::ORACLE_HOST_END,
            move |mut c: Caller<'_, State<S>>, import: i32, a0: i64, a1: i64, a2: i64, a3: i64, a4: i64, a5: i64, a6: i64, a7: i64, a8: i64, result: i64| {
                let Some((from, name, n)) = imports.get(import as usize) else { return };
                let args = [a0, a1, a2, a3, a4, a5, a6, a7, a8].map(|a| a as u64);
                if let Some(m) = c.get_export("memory").and_then(|e| e.into_memory()) {
                    let (data, state) = m.data_and_store_mut(&mut c);
                    let writes = match from.as_str() {
                        "wasi_snapshot_preview1" => crate::host_writes::wasi_writes(name, &args[..(*n).min(9)], result as u32, data, &ctx),
                        _ => None,
                    };
                    state.extra.host_call(name, writes.as_deref(), data);
                }
            },
        )
        .map_err(|e| Error::Wasi(e.into()))?;
    Ok(())
}

/// The imported functions in index order: (module, name, parameters).
fn imported_functions(module: &Module) -> Vec<(String, String, usize)> {
    module
        .imports()
        .filter_map(|i| match i.ty() {
            wasmtime::ExternType::Func(ty) => Some((i.module().to_string(), i.name().to_string(), ty.params().len())),
            _ => None,
        })
        .collect()
}

/// What the WASI host-write table needs to know of the guest's arguments and environment.
fn host_context(cfg: &RunConfig) -> crate::host_writes::Context {
    let args = std::iter::once(&cfg.program_name).chain(&cfg.args);
    crate::host_writes::Context {
        args: 1 + cfg.args.len() as u64,
        args_bytes: args.map(|a| a.len() as u64 + 1).sum(),
        environ: cfg.env.len() as u64,
        environ_bytes: cfg.env.iter().map(|(k, v)| (k.len() + v.len() + 2) as u64).sum(),
    }
}

/// The path rewrite's `host_call` (accesses recorded): the event buffer drained, then the
/// call site's event (how many ranges the call wrote) and an event for each range.
fn host_call_events(linker: &mut Linker<State<Paths>>, module: &Module, cfg: &RunConfig, inst: &Instrumented) -> Result<(), Error> {
    let imports = imported_functions(module);
    let ctx = host_context(cfg);
    let sites = inst.sites.clone();
    let host_write = sites.len() as u32 - 1;
    let ewpp_counters = inst.ewpp.as_ref().map(|e| e.layout.counters_base);
    linker
        .func_wrap(
            abi::IMPORT_MODULE,
            abi::IMPORT_HOST_CALL,
            move |mut c: Caller<'_, State<Paths>>,
                  site: i32,
                  a0: i64,
                  a1: i64,
                  a2: i64,
                  a3: i64,
                  a4: i64,
                  a5: i64,
                  a6: i64,
                  a7: i64,
                  a8: i64,
                  result: i64,
                  bytes: i32|
                  -> wasmtime::Result<()> {
                let import = match sites.get(site as usize).map(|s| s.kind) {
                    Some(SiteKind::HostCall { import }) => import,
                    _ => return Err(wasmtime::Error::msg(format!("wpp: host_call of site {site}, not a call's"))),
                };
                let Some((from, name, n)) = imports.get(import.idx()) else { return Err(wasmtime::Error::msg(format!("wpp: no import {}", import.0))) };
                let args = [a0, a1, a2, a3, a4, a5, a6, a7, a8].map(|a| a as u64);
                let writes = match (from.as_str(), c.get_export("memory").and_then(|e| e.into_memory())) {
                    ("wasi_snapshot_preview1", Some(m)) => crate::host_writes::wasi_writes(name, &args[..(*n).min(9)], result as u32, m.data(&c), &ctx),
                    _ => None,
                };
                let mut more = Vec::new();
                if writes.is_none() {
                    *c.data_mut().extra.unknown_host_calls.entry(name.clone()).or_insert(0) += 1;
                }
                let writes = writes.unwrap_or_default();
                if let Some(counters) = ewpp_counters {
                    // The extended WPP: the call's instance into the shadow of what it wrote.
                    if let Err(e) = shadow_host_writes(&mut c, counters, site as u32, &writes) {
                        return Err(wasmtime::Error::msg(format!("wpp: {e}")));
                    }
                    more.clear();
                    let Some(memory) = c.data().memory else { return Err(wasmtime::Error::msg("wpp: host_call before the memory is known")) };
                    let (data, state) = memory.data_and_store_mut(&mut c);
                    let p = &mut state.extra;
                    if let Err(e) = drain_events(data, p, bytes as u32 as usize, &[]) {
                        let msg = chain(&*e);
                        p.error = Some(e);
                        return Err(wasmtime::Error::msg(format!("wpp: recording failed: {msg}")));
                    }
                    return Ok(());
                }
                AccessEvent { site: site as u32, addr: writes.len() as u32, len: None }.encode(&mut more);
                for (addr, len) in writes {
                    AccessEvent { site: host_write, addr: addr as u32, len: Some(len) }.encode(&mut more);
                }
                let Some(memory) = c.data().memory else { return Err(wasmtime::Error::msg("wpp: host_call before the memory is known")) };
                let (data, state) = memory.data_and_store_mut(&mut c);
                let p = &mut state.extra;
                if let Err(e) = drain_events(data, p, bytes as u32 as usize, &more) {
                    let msg = chain(&*e);
                    p.error = Some(e);
                    return Err(wasmtime::Error::msg(format!("wpp: recording failed: {msg}")));
                }
                Ok(())
            },
        )
        .map_err(|e| Error::Wasi(e.into()))?;
    Ok(())
}

/// The extended WPP's bookkeeping of a host call at site `site` that wrote `writes`: the
/// site's counter (at `counters` in the recording memory) counts it, and the shadow
/// (grown as needed) names that instance as the last writer of every byte written.
fn shadow_host_writes(c: &mut Caller<'_, State<Paths>>, counters: u32, site: u32, writes: &[(u64, u64)]) -> Result<(), String> {
    let memory = c.data().memory.ok_or("no recording memory")?;
    let shadow = c.get_export(abi::EXPORT_SHADOW).and_then(|e| e.into_memory()).ok_or("no shadow memory")?;
    let at = counters as usize + 8 * site as usize;
    let data = memory.data_mut(&mut *c);
    let cell = data.get_mut(at..at + 8).ok_or("a counter past the recording memory")?;
    let instance = u64::from_le_bytes(cell.try_into().expect("8 bytes")) + 1;
    cell.copy_from_slice(&instance.to_le_bytes());
    let id = ((site as u64 + 1) << wpp_wasm::INSTANCE_BITS) | instance;
    for &(addr, len) in writes {
        let end = (addr + len) * 8;
        let have = shadow.data_size(&*c) as u64;
        if end > have {
            let pages = (end - have).div_ceil(65536).max(have / 65536);
            shadow.grow(&mut *c, pages).map_err(|e| format!("growing the shadow memory: {e}"))?;
        }
        let bytes = shadow.data_mut(&mut *c);
        for a in addr..addr + len {
            bytes[(a * 8) as usize..(a * 8 + 8) as usize].copy_from_slice(&id.to_le_bytes());
        }
    }
    Ok(())
}

/// An error and its causes on one line, `a: b: c`.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}
