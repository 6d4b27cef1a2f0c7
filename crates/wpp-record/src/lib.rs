//! Recording the paths a WebAssembly program runs, as a library.
//!
//! A [`Recorder`] holds a decoded module and how to record it; [`Recorder::record`] runs
//! the whole pipeline and writes a profile:
//!
//! ```text
//! decode (wpp-wasm) → number (wpp-paths) → instrument (wpp-wasm) → run (wpp-runtime)
//!   → event sink (this crate) → profile (wpp-profile)
//! ```
//!
//! The roles:
//! * [`Recorder`]: the module, the recording mode ([`RecordMode`]), the guest's arguments,
//!   environment and directories; [`Recording`] says how the run went.
//! * The event sinks ([`sink`]): [`TraceStats`] counts path events, [`TraceSink`] writes
//!   them to a `runs` section, [`GrammarSink`] compresses them into a grammar while the
//!   guest runs. They implement [`wpp_runtime::EventSink`], the seam between running a
//!   guest and what is done with its events.
//! * [`PathSet`]: the interesting paths of preferential path profiling and their set file.
//! * [`compress()`]: grammar profiles of symbol traces recorded elsewhere.
//!
//! ```
//! use wpp_record::{Recorder, RecordMode};
//!
//! // A loop that runs ten times.
//! let wasm = wat::parse_str(r#"
//!     (module (func (export "_start") (local i32)
//!       (loop
//!         (local.set 0 (i32.add (local.get 0) (i32.const 1)))
//!         (br_if 0 (i32.lt_u (local.get 0) (i32.const 10))))))"#)?;
//! let out = std::env::temp_dir().join(format!("wpp-record-doc-{}.wpp", std::process::id()));
//! let run = Recorder::from_bytes("loop.wasm", wasm.clone())?.mode(RecordMode::Paths).record(&out)?;
//! assert_eq!(run.exit_status(), 0);
//! // The loop's header is the function's entry: nine paths run around it to the back
//! // edge, one runs out of it.
//! assert_eq!((run.events, run.distinct), (10, 2));
//!
//! let profile = wpp_profile::Profile::open(&out)?;
//! let mut counts: Vec<u64> = profile.counts.iter().map(|c| c.count).collect();
//! counts.sort();
//! assert_eq!(counts, [1, 9]);
//! // The profile knows its module by SHA-256, and refuses another.
//! profile.check_module("loop.wasm".as_ref(), &wasm)?;
//! assert!(profile.check_module("other.wasm".as_ref(), b"\0asm\x01\0\0\0").is_err());
//! # std::fs::remove_file(&out)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Code map
//!
//! Recording as a library: `Recorder` (module → decode → number → instrument → run → sink →
//! profile; a doc-test records a loop), `Recording`; `sink`: every event sink
//! (`TraceStats`; `Tokenizer`, the cheap lossless part both recording modes share: events →
//! dense symbols (`SymbolTable`) → maximal runs; `TraceSink` writes its tokens to the
//! `runs` section; `GrammarSink` spools them on the consumer thread, builds in its idle
//! time and in `finish`, on every core once the guest has ended); `access_sink`: the sinks
//! of runs that record memory accesses (`AddressesSink`: the whole program path and the
//! address trace, each built into a grammar; `FilterSink`: the dependences exercised, by
//! a `Tracker`); `spool`: the first-in first-out store of token blocks, in memory up to a bound, then in a nameless temporary
//! file in the output's directory (`tempfile`); `set`: the PPP set file (`PathSet`: select
//! from a profile, load, save, check against a module; `ppp_record`); `compress`: grammar
//! profiles of foreign symbol traces; `options`: what a command line gives a recorder (durations,
//! sizes, `--dir`/`--env`, the mode options' checks, a trap's frames named from DWARF, the
//! sandbox hint); `signals`: stopping a recording on SIGINT or SIGTERM.

pub mod access_sink;
mod compress;
mod error;
pub mod options;
mod set;
pub mod signals;
pub mod sink;
pub mod spool;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use wpp_profile::{section, Ending, Meta, ModuleId, PathCount, Writer};
pub use wpp_runtime::{Limits, StopHandle, StopReason};
use wpp_runtime::{Outcome, PathCounts, RunConfig, Stdio};

pub use compress::{compress, Compressed, SymbolFormat};
pub use error::Error;
pub use set::{ppp_record, PathSet, Selection, SetFunction, SetPath};
pub use sink::{BuildProgress, BuiltGrammar, GrammarSink, SymbolTable, Tokenizer, TraceSink, TraceStats, WrittenTrace};
pub use spool::Spool;
pub use wpp_profile::{Builder, GrammarBuilder, GrammarFull, Prediction, RecordMode};
pub use wpp_wasm::MAX_CANDIDATES;

/// A module and how to record it.
pub struct Recorder {
    /// The module's file, for messages and the profile.
    path: PathBuf,
    wasm: Vec<u8>,
    program: wpp_wasm::Program,
    mode: RecordMode,
    prediction: Prediction,
    set: Option<(PathBuf, PathSet)>,
    ppp_everywhere: bool,
    max_paths: u64,
    config: RunConfig,
    spool_memory: usize,
    build_threads: usize,
    segment_tokens: Option<usize>,
    progress: Option<Box<dyn Fn(BuildProgress) + Send + Sync>>,
    /// The extended WPP's filtering run: its file, and the candidate writers of each load.
    filter: Option<(PathBuf, wpp_wasm::EwppPlan)>,
}

/// How a recorded run went.
#[derive(Debug)]
pub struct Recording {
    /// How the guest ended.
    pub outcome: Outcome,
    /// Path events recorded, and distinct paths among them.
    pub events: u64,
    pub distinct: u64,
    /// Instrumenting the module (numbering its paths and rewriting it).
    pub instrument_time: Duration,
    /// Compiling the instrumented module and starting the guest.
    pub compile_time: Duration,
    /// The guest's run time (compilation excluded).
    pub guest_time: Duration,
    /// From the guest's end until the profile was written (finishing the grammar, encoding
    /// it, writing every section).
    pub after_guest: Duration,
    /// Grammar mode: the grammar built.
    pub grammar: Option<GrammarSummary>,
    /// PPP mode: the distinct paths that ran and were not interesting.
    pub residual: Option<u64>,
    /// Addresses and filtering runs: the memory accesses recorded (host calls and each
    /// range they wrote included).
    pub accesses: Option<u64>,
    /// What the user should know but did not stop the recording.
    pub warnings: Vec<String>,
}

/// The grammar of a recording.
#[derive(Debug)]
pub struct GrammarSummary {
    /// Symbols on the right sides of its rules.
    pub symbols: u64,
    /// Bytes of the encoded grammar section.
    pub bytes: u64,
    /// Finishing the grammar after the guest returned, and encoding it.
    pub finish_time: Duration,
    /// The spool's peak memory, and the peak size of its temporary file (0 if it needed
    /// none).
    pub spool_memory: u64,
    pub spool_file: u64,
    /// What the front ends left for the builders: tokens after runs of one path were
    /// collapsed (and the time the consumer thread spent making them from events), and
    /// what the phrase front end did with them (the default builder only).
    pub tokens: u64,
    pub tokenize_time: Duration,
    pub phrases: Option<wpp_grammar::PhraseStats>,
}

impl Recording {
    /// The exit status a command should report: the guest's, or 134 for a trap.
    pub fn exit_status(&self) -> i32 {
        self.outcome.exit_status()
    }
}

impl Recorder {
    /// Reads and decodes the module at `path`.
    pub fn open(path: &Path) -> Result<Recorder, Error> {
        let wasm = std::fs::read(path).map_err(|source| Error::Read { path: path.to_owned(), source })?;
        let wasm = wpp_wasm::module_binary(wasm).map_err(|source| Error::Decode { path: path.to_owned(), source })?;
        Recorder::from_bytes(path, wasm)
    }

    /// Decodes module bytes; `path` names the module in messages and in the profile.
    pub fn from_bytes(path: impl AsRef<Path>, wasm: Vec<u8>) -> Result<Recorder, Error> {
        let path = path.as_ref().to_owned();
        let program = wpp_wasm::decode(&wasm).map_err(|source| Error::Decode { path: path.clone(), source })?;
        let program_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "program.wasm".into());
        Ok(Recorder {
            path,
            wasm,
            program,
            mode: RecordMode::Grammar(Builder::Sequitur1),
            prediction: Prediction::Off,
            set: None,
            ppp_everywhere: false,
            max_paths: u64::MAX,
            config: RunConfig { program_name, ..RunConfig::default() },
            spool_memory: spool::DEFAULT_MEMORY,
            build_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            segment_tokens: None,
            progress: None,
            filter: None,
        })
    }

    /// What to record [default: the whole program path as a SEQUITUR(1) grammar]. With
    /// [`RecordMode::Ppp`], [`Recorder::interesting`] is required.
    pub fn mode(mut self, mode: RecordMode) -> Self {
        self.mode = mode;
        self
    }

    /// Grammar mode with SEQUITUR: whether to append input that repeats a recent rule as
    /// that rule (faster, larger grammars) [default: off].
    pub fn predict(mut self, prediction: Prediction) -> Self {
        self.prediction = prediction;
        self
    }

    /// PPP mode: the interesting paths, and the set file's name for the profile.
    pub fn interesting(mut self, set_file: impl Into<PathBuf>, set: PathSet) -> Self {
        self.set = Some((set_file.into(), set));
        self
    }

    /// PPP mode: number interesting paths with PPP in every function, also where Ball-Larus
    /// counters fit an array.
    pub fn ppp_everywhere(mut self, yes: bool) -> Self {
        self.ppp_everywhere = yes;
        self
    }

    /// Path limit per function; functions with more paths get cut points.
    pub fn max_paths(mut self, max_paths: u64) -> Self {
        self.max_paths = max_paths;
        self
    }

    /// The guest's arguments after its name.
    pub fn args<S: Into<String>>(mut self, args: impl IntoIterator<Item = S>) -> Self {
        self.config.args = args.into_iter().map(Into::into).collect();
        self
    }

    /// Gives the guest an environment variable.
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.config.env.push((name.into(), value.into()));
        self
    }

    /// Grants the guest host directory `host`, seen at `guest`.
    pub fn dir(mut self, host: impl Into<PathBuf>, guest: impl Into<String>) -> Self {
        self.config.dirs.push((host.into(), guest.into()));
        self
    }

    /// Where the guest's standard streams go [default: the host's].
    pub fn stdio(mut self, stdio: Stdio) -> Self {
        self.config.stdio = stdio;
        self
    }

    /// When to stop the guest before it ends by itself (a time limit, fuel, a memory
    /// limit, a stop handle for signals). A stopped guest still gets its profile, marked
    /// [`Ending::Stopped`], holding every path it completed.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.config.limits = limits;
        self
    }

    /// Grammar mode: threads that build the grammar [default: the cores available]. In
    /// segments ([`Recorder::segment_tokens`]) they build segments while the guest runs
    /// and after it ended, besides the thread that takes the guest's events and merges;
    /// otherwise they build after the guest ended (two or more: the two builders behind
    /// phrases on threads of their own). The grammar is the same for any number.
    pub fn build_threads(mut self, threads: usize) -> Self {
        self.build_threads = threads.max(1);
        self
    }

    /// Grammar mode: build in content-defined segments of about this many tokens, each on
    /// any build thread (while the guest runs too), merged in order
    /// ([`wpp_profile::GrammarBuilder::for_paths_in_segments`]; [`wpp_profile::SEGMENT_TOKENS`]
    /// is a good size); the grammar depends on the size, not on the threads. Without it,
    /// the builder behind phrases runs on at most three threads.
    pub fn segment_tokens(mut self, tokens: usize) -> Self {
        self.segment_tokens = Some(tokens.max(1));
        self
    }

    /// Grammar mode: memory for the spool of events waiting for the grammar builder;
    /// beyond it they go to a temporary file beside the output.
    pub fn spool_memory(mut self, bytes: usize) -> Self {
        self.spool_memory = bytes;
        self
    }

    /// Grammar mode: called as building the grammar after the guest ended goes on.
    pub fn on_progress(mut self, f: impl Fn(BuildProgress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Box::new(f));
        self
    }

    /// Everything the guest is given at once: its name, arguments, environment,
    /// directories and standard streams.
    pub fn run_config(mut self, config: RunConfig) -> Self {
        self.config = config;
        self
    }

    /// The extended WPP ([`RecordMode::Ewpp`]): the filtering run (`--mode ewpp-filter`)
    /// whose dependences name each load's candidate writers. Refused, naming the file,
    /// when it is not a filtering run of this module or is damaged.
    pub fn filter(mut self, file: &Path) -> Result<Self, Error> {
        let bad = |what: String| Error::Options(format!("{}: {what}", file.display()));
        let p = wpp_profile::Profile::open(file)?;
        p.check_module(&self.path, &self.wasm)?;
        let Some(deps) = p.optional_value::<wpp_model::exercised::ExercisedDeps>(section::EXERCISED)? else {
            return Err(bad("not a filtering run (record one with `wpp record --mode ewpp-filter`)".into()));
        };
        let sites = p.access_sites()?.ok_or_else(|| bad(format!("no section `{}`", section::ACCESS_SITES)))?;
        let ours = wpp_wasm::access_sites(&self.wasm, &self.program).map_err(|source| Error::Decode { path: self.path.clone(), source })?;
        if sites != ours {
            return Err(bad(format!("its access sites are not {}'s", self.path.display())));
        }
        let mut by_load: std::collections::BTreeMap<wpp_model::SiteIdx, Vec<(u64, wpp_model::SiteIdx)>> = std::collections::BTreeMap::new();
        for (&(w, load), e) in &deps.deps {
            if let wpp_model::exercised::Writer::Site(w) = w {
                if w.idx() >= sites.len() || load.idx() >= sites.len() {
                    return Err(bad("a dependence names a site past the module's".into()));
                }
                by_load.entry(load).or_default().push((e.count, w));
            }
        }
        let candidates = by_load
            .into_iter()
            .map(|(load, mut ws)| {
                ws.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                (load, ws.into_iter().map(|(_, w)| w).collect())
            })
            .collect();
        self.filter = Some((file.to_owned(), wpp_wasm::EwppPlan { candidates }));
        Ok(self)
    }

    /// The decoded module.
    pub fn program(&self) -> &wpp_wasm::Program {
        &self.program
    }

    /// Runs the guest instrumented and writes its profile to `output`.
    pub fn record(&self, output: &Path) -> Result<Recording, Error> {
        let start = Instant::now();
        let wasm_mode = match self.mode {
            RecordMode::Paths | RecordMode::Ppp => wpp_wasm::Mode::Count,
            RecordMode::Trace | RecordMode::Grammar(_) | RecordMode::Addresses(_) | RecordMode::EwppFilter | RecordMode::Ewpp(_) => wpp_wasm::Mode::Trace,
        };
        let accesses = matches!(self.mode, RecordMode::Addresses(_) | RecordMode::EwppFilter);
        let max_paths = match &self.set {
            Some((_, set)) => set.max_paths,
            None => self.max_paths,
        };
        let instrument_error = |source| Error::Instrument { path: self.path.clone(), source };
        let run_error = |source| Error::Run { path: self.path.clone(), source };
        // Numbered once: for checking the set and for the rewrite.
        let numberings = wpp_wasm::number_program(&self.program, max_paths).map_err(instrument_error)?;
        // A path trace alone is written in 4-byte events.
        let narrow_events = matches!(self.mode, RecordMode::Trace | RecordMode::Grammar(_));
        let mut opts = wpp_wasm::Options { mode: wasm_mode, max_paths, accesses, narrow_events, ..Default::default() };
        match (self.mode, &self.filter) {
            (RecordMode::Ewpp(_), Some((_, plan))) => opts.ewpp = Some(plan.clone()),
            (RecordMode::Ewpp(_), None) => return Err(Error::Options("the extended WPP needs a filtering run (--filter FILE)".into())),
            (_, Some(_)) => return Err(Error::Options("a filtering run is for the extended WPP (--mode ewpp)".into())),
            (_, None) => {}
        }
        let set = match (self.mode, &self.set) {
            (RecordMode::Ppp, Some((file, set))) => {
                opts.interesting = Some(set.interesting(file, &self.path, &self.wasm, &self.program, &numberings)?);
                opts.ppp_everywhere = self.ppp_everywhere;
                Some((file, set))
            }
            (RecordMode::Ppp, None) => return Err(Error::Options("preferential path profiling needs a set of interesting paths".into())),
            (_, Some(_)) => return Err(Error::Options("a set of interesting paths is for preferential path profiling".into())),
            (_, None) => None,
        };
        let inst = wpp_wasm::instrument_numbered(&self.wasm, &self.program, numberings, &opts).map_err(instrument_error)?;
        let instrument_time = start.elapsed();
        let engine = wpp_runtime::engine_for(&self.config.limits, Some(wasm_mode)).map_err(run_error)?;

        let mut writer = Writer::create(output)?;
        let mut grammar = None;
        let mut ppp = None;
        let mut n_accesses = None;
        let guest_end;
        let progress = |p: BuildProgress| {
            if let Some(f) = &self.progress {
                f(p)
            }
        };
        let (run, counts, mut writer) = match self.mode {
            RecordMode::Addresses(builder) => {
                let paths = GrammarSink::new(&inst.numberings, builder, self.prediction, Spool::new(output, self.spool_memory / 2));
                let values = GrammarSink::new(&wpp_model::FuncMap::new(0), builder, self.prediction, Spool::new(output, self.spool_memory / 2));
                let sink = access_sink::AddressesSink::new(inst.sites.clone(), paths, values);
                let (run, sink) = wpp_runtime::run_paths(&engine, &inst, &self.config, sink).map_err(run_error)?;
                guest_end = Instant::now();
                if sink.is_truncated() {
                    return Err(Error::TruncatedTrace);
                }
                let t = Instant::now();
                let built = sink.finish(self.build_threads, progress).map_err(Error::Build)?;
                let counts = built.paths.path_counts();
                grammar = Some(write_grammar(&mut writer, &built.paths, self.prediction, t)?);
                let values: Vec<u32> = built.addresses.paths.iter().map(|p| p.path.0 as u32).collect();
                writer.write_value(section::ADDRESS_VALUES, &values)?;
                writer.write_section(section::ADDRESS_GRAMMAR, &wpp_grammar::encode_grammar(&built.addresses.grammar, values.len() as u32))?;
                writer.write_value(section::ACCESS_SITES, &inst.sites)?;
                n_accesses = Some(built.n_accesses);
                (run, counts, writer)
            }
            // The extended WPP is a whole program path whose check routines' paths are
            // events too, with its own record beside.
            RecordMode::Grammar(builder) | RecordMode::Ewpp(builder) => {
                let spool = Spool::new(output, self.spool_memory);
                let mut sink = GrammarSink::new(&inst.numberings, builder, self.prediction, spool);
                if let Some(tokens) = self.segment_tokens {
                    sink = sink.in_segments(tokens);
                    sink.build_on(self.build_threads).map_err(Error::Build)?;
                }
                let (run, sink) = wpp_runtime::run_paths(&engine, &inst, &self.config, sink).map_err(run_error)?;
                guest_end = Instant::now();
                if sink.is_truncated() {
                    return Err(Error::TruncatedTrace);
                }
                let t = Instant::now();
                let built = sink.finish(self.build_threads, progress).map_err(Error::Build)?;
                let counts = built.path_counts();
                grammar = Some(write_grammar(&mut writer, &built, self.prediction, t)?);
                if let (Some(routines), Some((filter, plan))) = (&inst.ewpp, &self.filter) {
                    let record = wpp_model::ewpp::EwppRecord {
                        check: routines.functions[0].index,
                        roles: routines.roles.clone(),
                        candidates: plan.candidates.iter().map(|(&l, c)| (l, c.clone())).collect(),
                        max_candidates: wpp_wasm::MAX_CANDIDATES as u32,
                        filter: filter.display().to_string(),
                    };
                    writer.write_value(section::EWPP, &record)?;
                    writer.write_value(section::ACCESS_SITES, &inst.sites)?;
                }
                (run, counts, writer)
            }
            RecordMode::EwppFilter => {
                let sink = access_sink::FilterSink::new(inst.sites.clone(), TraceStats::for_numberings(&inst.numberings)).map_err(Error::Build)?;
                let (run, sink) = wpp_runtime::run_paths(&engine, &inst, &self.config, sink).map_err(run_error)?;
                guest_end = Instant::now();
                if sink.is_truncated() {
                    return Err(Error::TruncatedTrace);
                }
                n_accesses = Some(sink.n_accesses);
                let (stats, exercised) = sink.finish();
                writer.write_value(section::EXERCISED, &exercised)?;
                writer.write_value(section::ACCESS_SITES, &inst.sites)?;
                (run, stats.counts(), writer)
            }
            RecordMode::Trace => {
                let sink = TraceSink::new(writer, &inst.numberings);
                let (run, sink) = wpp_runtime::run_paths(&engine, &inst, &self.config, sink).map_err(run_error)?;
                guest_end = Instant::now();
                if sink.is_truncated() {
                    return Err(Error::TruncatedTrace);
                }
                let written = sink.finish()?;
                (run, written.path_counts(), written.writer)
            }
            RecordMode::Paths | RecordMode::Ppp => {
                let (run, ()) = wpp_runtime::run_paths(&engine, &inst, &self.config, ()).map_err(run_error)?;
                guest_end = Instant::now();
                let counts = run.counts.clone();
                if let Some((file, set)) = set {
                    ppp = Some(ppp_record(&file.display().to_string(), set, &inst, &run.hashed)?);
                }
                (run, counts, writer)
            }
        };
        let residual = ppp.as_ref().map(|r| {
            let interesting: std::collections::HashSet<_> = r.functions.iter().flat_map(|f| f.paths.iter().map(move |p| (f.func, p.path))).collect();
            counts.keys().filter(|k| !interesting.contains(k)).count() as u64
        });
        let events: u64 = counts.values().sum();
        let ending = match &run.result.outcome {
            Outcome::Exited(s) => Ending::Exited(*s),
            Outcome::Trapped { trap, .. } => Ending::Trapped(trap.clone()),
            Outcome::Stopped(reason) => Ending::Stopped(*reason),
        };
        // Source lines are a convenience: unreadable DWARF must not cost the recording.
        let mut warnings = Vec::new();
        if !run.unknown_host_calls.is_empty() {
            let calls: Vec<String> = run.unknown_host_calls.iter().map(|(name, n)| format!("{name} ({n}×)")).collect();
            warnings.push(format!(
                "{}: which bytes these imports wrote is not known, so dependences on them are missing: {}",
                self.path.display(),
                calls.join(", ")
            ));
            writer.write_value(section::UNKNOWN_HOST_CALLS, &run.unknown_host_calls)?;
        }
        let mut source = wpp_wasm::source_map(&self.wasm, &self.program).unwrap_or_else(|e| {
            warnings.push(format!("{}: {e}; reports will show byte offsets instead of source lines", self.path.display()));
            None
        });
        // The extended WPP's check routines are functions of the profile too.
        let mut functions = self.program.functions.clone();
        if let Some(r) = &inst.ewpp {
            functions.extend(r.functions.iter().cloned());
            if let Some(s) = &mut source {
                s.blocks.extend(r.functions.iter().map(|f| vec![None; f.cfg.as_ref().map_or(0, |c| c.n_blocks())]));
            }
        }
        let meta = Meta {
            module: self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            module_bytes: self.wasm.len() as u64,
            mode: self.mode,
            max_paths: opts.max_paths,
            functions,
            args: self.config.args.clone(),
            ending,
            guest_nanos: run.result.guest_time.as_nanos() as u64,
            events,
        };
        writer.write_value(section::META, &meta)?;
        writer.write_value(section::COUNTS, &sorted_counts(&counts))?;
        writer.write_value(section::MODULE, &ModuleId::of(&self.wasm))?;
        if let Some(source) = &source {
            writer.write_value(section::SOURCE, source)?;
        }
        if let Some(r) = &ppp {
            writer.write_value(section::PPP, r)?;
        }
        writer.finish()?;
        Ok(Recording {
            outcome: run.result.outcome,
            events,
            distinct: counts.len() as u64,
            instrument_time,
            compile_time: guest_end.duration_since(start).saturating_sub(instrument_time + run.result.guest_time),
            guest_time: run.result.guest_time,
            after_guest: guest_end.elapsed(),
            grammar,
            residual,
            accesses: n_accesses,
            warnings,
        })
    }
}

/// Writes a grammar's sections (`symbols`, `grammar`, `grammar-options`); `started` is
/// when finishing it began.
fn write_grammar(writer: &mut Writer, built: &BuiltGrammar, prediction: Prediction, started: Instant) -> Result<GrammarSummary, Error> {
    let encoded = wpp_grammar::encode_grammar(&built.grammar, built.paths.len() as u32);
    writer.write_value(section::SYMBOLS, &built.paths)?;
    writer.write_section(section::GRAMMAR, &encoded)?;
    writer.write_value(section::GRAMMAR_OPTIONS, &wpp_profile::GrammarOptions { prediction })?;
    Ok(GrammarSummary {
        symbols: built.grammar.n_symbols() as u64,
        bytes: encoded.len() as u64,
        finish_time: started.elapsed(),
        spool_memory: built.spool_memory as u64,
        spool_file: built.spool_file,
        tokens: built.tokens,
        tokenize_time: built.tokenize_time,
        phrases: built.phrases,
    })
}

/// Path counts as a profile's `counts` section holds them: sorted by function and path.
pub fn sorted_counts(counts: &PathCounts) -> Vec<PathCount> {
    let mut v: Vec<PathCount> = counts.iter().map(|(&(func, path), &count)| PathCount { func, path, count }).collect();
    v.sort_unstable();
    v
}
