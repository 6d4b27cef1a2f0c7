//! Running WebAssembly programs under an embedded wasmtime, sandboxed, with WASI preview 1.
//!
//! * [`run_plain`] runs a module as it is (the baseline of every comparison).
//! * [`run_paths`] runs a module rewritten by [`wpp_wasm::instrument`], draining its event
//!   buffer into an [`EventSink`] whenever it fills (trace mode), or reading its counters
//!   at the end (count mode). Whatever way the guest ends (normal return, `proc_exit`, a
//!   trap), everything it recorded is collected.
//! * [`run_block_log`] runs the naive oracle rewrite, feeding a [`BlockSink`].
//!
//! The guest sees nothing of the host but what [`RunConfig`] grants: its arguments, the
//! environment variables and directories listed, and stdio.
//!
//! This is the only crate that knows about wasmtime.

mod host;
mod run;

pub use run::{run_block_log, run_paths, run_plain, PathCounts, PathsRun};
pub use wasmtime::Engine;

use std::path::PathBuf;
use std::time::Duration;

/// A wasmtime engine configured for wpp (Cranelift, backtraces, the features wpp accepts).
/// With `WPP_JIT_PROFILE=perfmap` or `jitdump` in the environment, compiled guest code is
/// described to `perf` (a `/tmp/perf-PID.map`, or a jitdump file for `perf inject --jit`).
pub fn engine() -> anyhow::Result<wasmtime::Engine> {
    let mut c = wasmtime::Config::new();
    match std::env::var("WPP_JIT_PROFILE").as_deref() {
        Ok("perfmap") => {
            c.profiler(wasmtime::ProfilingStrategy::PerfMap);
        }
        Ok("jitdump") => {
            c.profiler(wasmtime::ProfilingStrategy::JitDump);
        }
        Ok(other) => anyhow::bail!("WPP_JIT_PROFILE={other}: expected perfmap or jitdump"),
        Err(_) => {}
    }
    c.wasm_multi_memory(true)
        .wasm_tail_call(true)
        .wasm_memory64(true)
        .wasm_relaxed_simd(true)
        .wasm_wide_arithmetic(true)
        .wasm_custom_page_sizes(true)
        .cranelift_opt_level(wasmtime::OptLevel::Speed);
    Ok(wasmtime::Engine::new(&c)?)
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
}

/// How the guest ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Returned from `_start` (status 0) or called `proc_exit(status)`.
    Exited(i32),
    /// Trapped: the trap and the guest's backtrace, with function names.
    Trapped { trap: String, backtrace: Vec<String> },
}

impl Outcome {
    /// The exit status a command should report: the guest's, or 134 for a trap (as
    /// `wasmtime run` does).
    pub fn exit_status(&self) -> i32 {
        match self {
            Outcome::Exited(s) => *s,
            Outcome::Trapped { .. } => 134,
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
/// [`wpp_model::PathEvent`]), each time its buffer fills and once at the end.
pub trait EventSink {
    fn events(&mut self, words: &[u64]) -> anyhow::Result<()>;
}

impl<F: FnMut(&[u64]) -> anyhow::Result<()>> EventSink for F {
    fn events(&mut self, words: &[u64]) -> anyhow::Result<()> {
        self(words)
    }
}

/// For count mode, where no events are expected: receiving any is an error.
impl EventSink for () {
    fn events(&mut self, words: &[u64]) -> anyhow::Result<()> {
        anyhow::ensure!(words.is_empty(), "{} event words arrived but nothing was set to receive them", words.len());
        Ok(())
    }
}

/// An [`EventSink`] that decodes events and counts each path: in a dense array per
/// function when its path count is known and small, in a hash map otherwise. It can also
/// hash the order of the sequence and keep the events (for tests).
#[derive(Default)]
pub struct TraceStats {
    decoder: wpp_model::EventDecoder,
    dense: Vec<Vec<u64>>,
    sparse: rustc_hash::FxHashMap<(wpp_model::FuncIdx, wpp_model::PathId), u64>,
    pub n_events: u64,
    /// Order-sensitive hash of the sequence ([`wpp_paths::split::hash_event`]), if asked.
    pub sequence_hash: Option<u64>,
    pub events: Option<Vec<wpp_model::PathEvent>>,
}

/// Functions with at most this many paths are counted in a dense array.
const DENSE_MAX_PATHS: u64 = 1 << 16;

impl TraceStats {
    /// Counts only, all in a hash map.
    pub fn new() -> Self {
        TraceStats::default()
    }

    /// Counts with dense arrays sized from the functions' numberings.
    pub fn for_numberings(numberings: &[Option<wpp_paths::Numbering>]) -> Self {
        let dense = numberings
            .iter()
            .map(|n| match n {
                Some(n) if n.n_paths() <= DENSE_MAX_PATHS => vec![0; n.n_paths() as usize],
                _ => Vec::new(),
            })
            .collect();
        TraceStats { dense, ..Default::default() }
    }

    /// Also hash the order of events and, if `keep`, keep them all.
    pub fn checking_order(mut self, keep: bool) -> Self {
        self.sequence_hash = Some(wpp_paths::split::HASH_START);
        self.events = keep.then(Vec::new);
        self
    }

    /// Whether the stream ended in the middle of a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event()
    }

    /// Every path's count.
    pub fn counts(&self) -> PathCounts {
        let mut c: PathCounts = self.sparse.iter().map(|(&k, &v)| (k, v)).collect();
        for (f, arr) in self.dense.iter().enumerate() {
            for (p, &n) in arr.iter().enumerate() {
                if n != 0 {
                    c.insert((wpp_model::FuncIdx(f as u32), wpp_model::PathId(p as u64)), n);
                }
            }
        }
        c
    }
}

impl EventSink for TraceStats {
    fn events(&mut self, words: &[u64]) -> anyhow::Result<()> {
        let TraceStats { decoder, dense, sparse, n_events, sequence_hash, events } = self;
        let slow = sequence_hash.is_some() || events.is_some();
        decoder.feed(words, |e| {
            *n_events += 1;
            match dense.get_mut(e.func.idx()).and_then(|a| a.get_mut(e.path.0 as usize)) {
                Some(c) => *c += 1,
                None => *sparse.entry((e.func, e.path)).or_default() += 1,
            }
            if slow {
                if let Some(h) = sequence_hash.as_mut() {
                    *h = wpp_paths::split::hash_event(*h, e);
                }
                if let Some(v) = events.as_mut() {
                    v.push(e);
                }
            }
        });
        Ok(())
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
}

/// Receives the oracle rewrite's log.
pub trait BlockSink {
    fn enter(&mut self, func: u32);
    fn block(&mut self, func: u32, block: u32);
    fn exit(&mut self, func: u32);
    fn leave(&mut self, func: u32);
}
