//! Running WebAssembly programs under an embedded wasmtime, sandboxed, with WASI preview 1.
//!
//! * [`run_plain`] runs a module as it is (the baseline of every comparison).
//! * [`run_paths`] runs a module rewritten by [`wpp_wasm::instrument`], draining its event
//!   buffer into an [`EventSink`] whenever it fills (trace mode), or reading its counters
//!   at the end (count mode). Whatever way the guest ends (normal return, `proc_exit`, a
//!   trap), everything it recorded is collected.
//! * [`run_block_log`] runs the naive oracle rewrite, feeding a [`BlockSink`] (with the
//!   accesses of every load, store and bulk write when the rewrite logs them).
//!
//! The guest sees nothing of the host but what [`RunConfig`] grants: its arguments, the
//! environment variables and directories listed, and stdio.
//!
//! This is the only crate that knows about wasmtime.
//!
//! ## Code map
//!
//! The only wasmtime user: `run_plain`, `run_paths` (with the consumer thread; in count
//! mode it also returns what the hash table counted, the residual paths of PPP),
//! `run_block_log`; the `EventSink` trait (the seam where recording plugs in what to do
//! with events; `idle` gives a sink the consumer thread's spare time between buffers);
//! `stop`: `StopHandle` (stops a running guest from any thread: at its next event flush in
//! trace mode, at its next path end in count mode (a poisoned stop word), by wasmtime epoch
//! checks otherwise), the timer of `Limits::timeout`, the
//! memory limiter (the recording memory exempt); `engine_for` compiles in only what the
//! limits need (fuel counting, epoch checks); its own `Error`; `WPP_JIT_PROFILE=perfmap`
//! describes guest code to `perf`; `host_writes`: which guest bytes a WASI call wrote
//! (the host writes of memory dependences), from its arguments and the memory after it.

mod error;
mod host;
pub mod host_writes;
mod run;
mod stop;

pub use error::{BoxError, Error, SinkError};
pub use run::{run_block_log, run_paths, run_plain, PathCounts, PathsRun, UNCAUGHT};
pub use stop::StopHandle;
pub use wasmtime::Engine;
pub use wpp_model::StopReason;

use std::path::PathBuf;
use std::time::Duration;
use wpp_model::FuncIdx;

/// The most frames of a trap's backtrace kept ([`Outcome::Trapped`]); a backtrace this
/// long may have been cut.
pub const MAX_FRAMES: usize = 1 << 20;

/// A wasmtime engine configured for wpp (Cranelift, backtraces, the features wpp
/// accepts), for runs without limits. With `WPP_JIT_PROFILE=perfmap` or `jitdump` in the
/// environment, compiled guest code is described to `perf` (a `/tmp/perf-PID.map`, or a
/// jitdump file for `perf inject --jit`).
pub fn engine() -> Result<wasmtime::Engine, Error> {
    engine_for(&Limits::default(), None)
}

/// An [`engine`] for runs with `limits` of modules rewritten for `mode` (`None`: plain
/// modules, and the block-log oracle's). The compiled code pays only for what the limits
/// need: fuel counting with a fuel limit; with a stop handle or a time limit, epoch checks
/// at every function entry and loop header (15–30% of the run time, measured) for plain
/// modules only: in trace mode the guest calls the host at every full event buffer anyway
/// and is stopped there, and in count mode the host poisons the stop word every counter
/// update reads ([`wpp_wasm::abi::EXPORT_STOP`]), at the cost of a load and an add per path.
pub fn engine_for(limits: &Limits, mode: Option<wpp_wasm::Mode>) -> Result<wasmtime::Engine, Error> {
    let mut c = wasmtime::Config::new();
    let stoppable = limits.stop.is_some() || limits.timeout.is_some();
    c.epoch_interruption(stoppable && mode.is_none()).consume_fuel(limits.fuel.is_some());
    match std::env::var("WPP_JIT_PROFILE").as_deref() {
        Ok("perfmap") => {
            c.profiler(wasmtime::ProfilingStrategy::PerfMap);
        }
        Ok("jitdump") => {
            c.profiler(wasmtime::ProfilingStrategy::JitDump);
        }
        Ok(other) => return Err(Error::JitProfile(other.to_string())),
        Err(_) => {}
    }
    // Every frame of a trap's backtrace (the engine keeps 20 by default): a command says
    // how many it leaves out.
    c.wasm_backtrace_max_frames(std::num::NonZeroUsize::new(MAX_FRAMES));
    c.wasm_multi_memory(true)
        .wasm_tail_call(true)
        .wasm_memory64(true)
        .wasm_relaxed_simd(true)
        .wasm_wide_arithmetic(true)
        .wasm_custom_page_sizes(true)
        .cranelift_opt_level(wasmtime::OptLevel::Speed);
    wasmtime::Engine::new(&c).map_err(|e| Error::Engine(e.into()))
}

/// Where the guest's standard streams go.
#[derive(Clone, Debug, Default)]
pub enum Stdio {
    /// The host's own stdin, stdout and stderr.
    #[default]
    Inherit,
    /// Stdin from these bytes; stdout and stderr captured into [`RunResult`].
    Capture { stdin: Vec<u8> },
}

/// What the guest is given.
#[derive(Clone, Debug, Default)]
pub struct RunConfig {
    /// `argv[0]` as the guest sees it.
    pub program_name: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// Host directory and the guest path it appears at.
    pub dirs: Vec<(PathBuf, String)>,
    pub stdio: Stdio,
    pub limits: Limits,
}

/// When to stop a guest before it ends by itself. A guest that reaches a limit is stopped
/// ([`Outcome::Stopped`]); everything it recorded until then is collected, as after a trap.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop the guest this long after `_start` is called.
    ///
    /// The guest stops at its next event flush in trace mode, and otherwise at its next
    /// function entry or loop header, which needs an engine made by [`engine_for`] these
    /// limits.
    pub timeout: Option<Duration>,
    /// Stop the guest when it has used this much fuel: about one unit per WebAssembly
    /// instruction executed, the instrumentation's included. Needs an engine made by
    /// [`engine_for`] these limits.
    pub fuel: Option<u64>,
    /// Largest size, in bytes, of each of the guest's linear memories (the memory the
    /// instrumentation adds for recording is not counted).
    pub max_memory: Option<u64>,
    /// Stops the guest when asked (by a signal handler, say); as `timeout`, it needs an
    /// engine made for these limits.
    pub stop: Option<StopHandle>,
}

/// How the guest ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Returned from `_start` (status 0) or called `proc_exit(status)`.
    Exited(i32),
    /// Trapped: the trap and the guest's backtrace, innermost frame first.
    Trapped { trap: String, backtrace: Vec<Frame> },
    /// Stopped by a request or a limit of [`Limits`].
    Stopped(StopReason),
}

/// A frame of a trap's backtrace, in the module the user gave: for an instrumented run,
/// the running module's frame mapped back to the instruction it was copied from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The function's index in the module; `None` for code the instrumentation added.
    pub func: Option<FuncIdx>,
    /// Its name, from the module's name section.
    pub name: Option<String>,
    /// The module byte offset of the instruction the frame was at: the one that trapped,
    /// or the call of the frame before.
    pub offset: Option<u32>,
}

impl std::fmt::Display for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.func, &self.name) {
            (None, _) => f.write_str("wpp's recording code")?,
            (Some(_), Some(name)) => f.write_str(name)?,
            (Some(func), None) => write!(f, "func[{}]", func.0)?,
        }
        match self.offset {
            Some(off) => write!(f, " (at offset {off:#x})"),
            None => Ok(()),
        }
    }
}

impl Outcome {
    /// The exit status a command should report: the guest's, 134 for a trap (as
    /// `wasmtime run` does), or the stop's ([`StopReason::exit_status`]).
    pub fn exit_status(&self) -> i32 {
        match self {
            Outcome::Exited(s) => *s,
            Outcome::Trapped { .. } => 134,
            Outcome::Stopped(r) => r.exit_status(),
        }
    }
}

/// The result of running a guest.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub outcome: Outcome,
    /// Captured output ([`Stdio::Capture`] only).
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Compilation of the module.
    pub compile_time: Duration,
    /// From the call of `_start` until it returned, trapped or exited.
    pub guest_time: Duration,
}

/// Receives the instrumented guest's path events, as raw event words (see
/// [`wpp_model::PathEvent`]; [`EventSink::narrow_events`] for a module that writes 4-byte
/// events, [`wpp_model::NarrowIds`]), each time its buffer fills and once at the end.
///
/// This is the seam between running a guest and what is done with its events: counting
/// them, writing them to a file, compressing them into a grammar. A sink runs on its own
/// thread while the guest goes on; an error it returns stops the guest.
pub trait EventSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError>;

    /// The events of a module that writes 4-byte events ([`wpp_model::NarrowIds`]): a sink
    /// that reads them says so by overriding this.
    fn narrow_events(&mut self, words: &[u32]) -> Result<(), SinkError> {
        Err(format!("{} 4-byte event words arrived at a sink that reads 8-byte ones", words.len()).into())
    }

    /// Background work, done on the consumer thread whenever no buffer is waiting: one
    /// short slice of it (well under a millisecond, so that buffers never queue up behind
    /// it). Returns whether work remains; `false` lets the thread sleep until the next
    /// buffer.
    fn idle(&mut self) -> Result<bool, SinkError> {
        Ok(false)
    }
}

impl<F, E> EventSink for F
where
    F: FnMut(&[u64]) -> Result<(), E>,
    E: Into<SinkError>,
{
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        self(words).map_err(Into::into)
    }
}

/// For count mode, where no events are expected: receiving any is an error.
impl EventSink for () {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        if words.is_empty() {
            Ok(())
        } else {
            Err(format!("{} event words arrived but nothing was set to receive them", words.len()).into())
        }
    }

    fn narrow_events(&mut self, words: &[u32]) -> Result<(), SinkError> {
        if words.is_empty() {
            Ok(())
        } else {
            Err(format!("{} event words arrived but nothing was set to receive them", words.len()).into())
        }
    }
}

impl BlockSink for wpp_paths::split::PathSplitter {
    fn enter(&mut self, func: u32) {
        wpp_paths::split::PathSplitter::enter(self, func)
    }
    fn block(&mut self, func: u32, block: u32) {
        wpp_paths::split::PathSplitter::block(self, func, block)
    }
    fn exit(&mut self, func: u32) {
        wpp_paths::split::PathSplitter::exit(self, func)
    }
    fn leave(&mut self, func: u32) {
        wpp_paths::split::PathSplitter::leave(self, func)
    }
    fn unwind(&mut self, func: u32) {
        wpp_paths::split::PathSplitter::unwind(self, func)
    }
}

/// Receives the oracle rewrite's log.
pub trait BlockSink {
    fn enter(&mut self, func: u32);
    fn block(&mut self, func: u32, block: u32);
    fn exit(&mut self, func: u32);
    fn leave(&mut self, func: u32);
    /// An exception is leaving the running invocation of `func`, which ends.
    fn unwind(&mut self, func: u32);
    /// The instruction at byte offset `at` is about to read or write (`kind`, see
    /// [`wpp_wasm::abi::ACCESS_READ`]) `len` bytes from `addr` (a module rewritten by
    /// [`wpp_wasm::instrument_access_log`]).
    fn access(&mut self, at: u32, addr: u64, len: u64, kind: u32) {
        let _ = (at, addr, len, kind);
    }
    /// A call of an imported function `name` is about to run (a module rewritten by
    /// [`wpp_wasm::instrument_access_log`]); `memory` is the guest's memory 0 before it.
    fn host_call_begin(&mut self, name: &str, memory: &[u8]) {
        let _ = (name, memory);
    }
    /// The imported function `name` returned, having written `writes` (as
    /// [`host_writes::wasi_writes`] says; `None` for a function it does not know);
    /// `memory` is the guest's memory 0 after it.
    fn host_call(&mut self, name: &str, writes: Option<&[(u64, u64)]>, memory: &[u8]) {
        let _ = (name, writes, memory);
    }
}
