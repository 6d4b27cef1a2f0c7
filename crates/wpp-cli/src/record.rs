//! `wpp record`: run a program instrumented and write its profile.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use clap::{Args, ValueEnum};
use wpp_profile::{section, Builder, Ending, Meta, PathCount, RecordMode, Writer};

use crate::grammar_sink::GrammarSink;
use wpp_runtime::{EventSink, Outcome, PathCounts, RunConfig, TraceStats};
use wpp_wasm::Mode;

/// Run a WebAssembly program and record the paths it executes.
///
/// The program runs sandboxed under WASI preview 1: it sees its arguments, stdio, and only
/// the directories and environment variables granted with --dir and --env. Its stdout,
/// stderr and exit status are passed through.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp record -o lua.wpp --dir data lua.wasm -- script.lua")]
pub struct Opts {
    /// What to record.
    #[arg(long, value_enum, default_value_t = RecordModeArg::Grammar)]
    mode: RecordModeArg,
    /// How to compress the path trace in grammar mode: online while the program runs
    /// (sequitur, sequitur1) or after it (repair: most frequent digram first).
    #[arg(long, value_enum, default_value_t = BuilderArg::Sequitur1)]
    grammar: BuilderArg,
    /// Speed SEQUITUR up with rule prediction: input that repeats a recent rule's
    /// expansion is appended as that rule (1.5-5x faster on real traces, grammars 10-50%
    /// larger).
    #[arg(long)]
    predict: bool,
    /// With --mode ppp: the interesting paths, a set file written by `wpp ppp select`.
    #[arg(long, value_name = "SET")]
    interesting: Option<PathBuf>,
    /// With --mode ppp: number interesting paths with PPP in every function, also where
    /// Ball-Larus counters fit an array (which is cheaper, and the default there).
    #[arg(long)]
    ppp_everywhere: bool,
    /// Where to write the profile [default: PROGRAM with the extension .wpp].
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Grant the guest a host directory, as HOST or HOST::GUEST.
    #[arg(long = "dir", value_name = "HOST[::GUEST]")]
    dirs: Vec<String>,
    /// Give the guest an environment variable, as NAME=VALUE, or NAME to pass the host's.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    envs: Vec<String>,
    /// Path limit per function; functions with more paths get cut points.
    #[arg(long, default_value_t = u64::MAX, hide = true)]
    max_paths: u64,
    /// The WebAssembly program (a wasm32-wasi command module).
    program: PathBuf,
    /// Arguments for the program (after `--`).
    #[arg(last = true)]
    args: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum RecordModeArg {
    /// The whole program path: every path event in order, compressed into a grammar.
    Grammar,
    /// Count how often each path runs.
    Paths,
    /// Every path event in order, uncompressed (8 bytes per event).
    Trace,
    /// Preferential path profiling: count the interesting paths of --interesting in compact
    /// arrays, and every other (residual) path by its Ball-Larus number.
    Ppp,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum BuilderArg {
    /// SEQUITUR (Nevill-Manning & Witten).
    Sequitur,
    /// SEQUITUR with Larus's one-symbol look-ahead.
    Sequitur1,
    /// Most frequent digram first (Re-Pair), after the run.
    Repair,
}

impl From<BuilderArg> for Builder {
    fn from(b: BuilderArg) -> Builder {
        match b {
            BuilderArg::Sequitur => Builder::Sequitur,
            BuilderArg::Sequitur1 => Builder::Sequitur1,
            BuilderArg::Repair => Builder::RePair,
        }
    }
}

/// Parses `--dir` and `--env` into a run configuration.
fn run_config(o: &Opts) -> anyhow::Result<RunConfig> {
    let mut dirs = Vec::new();
    for d in &o.dirs {
        let (host, guest) = match d.split_once("::") {
            Some((h, g)) => (h, g.to_string()),
            None => (d.as_str(), d.clone()),
        };
        if !Path::new(host).is_dir() {
            bail!("--dir {d}: {host} is not a directory");
        }
        dirs.push((PathBuf::from(host), guest));
    }
    let mut env = Vec::new();
    for e in &o.envs {
        match e.split_once('=') {
            Some((k, v)) => env.push((k.to_string(), v.to_string())),
            None => match std::env::var(e) {
                Ok(v) => env.push((e.clone(), v)),
                Err(_) => bail!("--env {e}: the host has no such variable"),
            },
        }
    }
    let program_name = o.program.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "program.wasm".into());
    Ok(RunConfig { program_name, args: o.args.clone(), env, dirs, stdio: wpp_runtime::Stdio::Inherit })
}

/// Writes event words into the profile's trace section while counting them.
pub struct ProfileSink {
    pub writer: Writer,
    pub stats: TraceStats,
    bytes: Vec<u8>,
}

impl ProfileSink {
    /// Opens the trace section of `writer`.
    pub fn new(mut writer: Writer, stats: TraceStats) -> Self {
        writer.begin(section::TRACE);
        ProfileSink { writer, stats, bytes: Vec::new() }
    }
}

impl EventSink for ProfileSink {
    fn events(&mut self, words: &[u64]) -> anyhow::Result<()> {
        self.stats.events(words)?;
        self.bytes.clear();
        for w in words {
            self.bytes.extend_from_slice(&w.to_le_bytes());
        }
        self.writer.write(&self.bytes)?;
        Ok(())
    }
}

pub fn run(o: Opts) -> anyhow::Result<i32> {
    let cfg = run_config(&o)?;
    let output = o.output.clone().unwrap_or_else(|| o.program.with_extension("wpp"));
    let wasm = std::fs::read(&o.program).with_context(|| format!("cannot read {}", o.program.display()))?;
    let program = wpp_wasm::decode(&wasm).with_context(|| format!("{}", o.program.display()))?;
    let mode = match o.mode {
        RecordModeArg::Paths | RecordModeArg::Ppp => Mode::Count,
        RecordModeArg::Trace | RecordModeArg::Grammar => Mode::Trace,
    };
    let mut opts = wpp_wasm::Options { mode, max_paths: o.max_paths, ..Default::default() };
    let set = match (o.mode, &o.interesting) {
        (RecordModeArg::Ppp, Some(file)) => {
            let set = crate::ppp::PathSet::load(file)?;
            opts.interesting = Some(set.interesting(file, &o.program, &wasm, &program)?);
            opts.max_paths = set.max_paths;
            opts.ppp_everywhere = o.ppp_everywhere;
            Some((file, set))
        }
        (RecordModeArg::Ppp, None) => bail!("--mode ppp needs --interesting SET (a set file from `wpp ppp select`)"),
        (_, Some(_)) => bail!("--interesting is for --mode ppp"),
        (_, None) if o.ppp_everywhere => bail!("--ppp-everywhere is for --mode ppp"),
        (_, None) => None,
    };
    let inst = wpp_wasm::instrument(&wasm, &program, &opts).with_context(|| format!("{}", o.program.display()))?;
    let engine = wpp_runtime::engine()?;

    let mut writer = Writer::create(&output)?;
    let mut mode_note = String::new();
    let mut ppp_record = None;
    let (run, counts, writer) = match (o.mode, mode) {
        (RecordModeArg::Grammar, _) => {
            let sink = GrammarSink::new(&inst.numberings, o.grammar.into(), o.predict);
            let (run, sink) = wpp_runtime::run_paths(&engine, &inst, &cfg, sink)?;
            anyhow::ensure!(!sink.is_truncated(), "the trace ends inside an event");
            let t = std::time::Instant::now();
            let counts: PathCounts = sink.symbols.paths.iter().zip(&sink.counts).map(|(e, &c)| ((e.func, e.path), c)).collect();
            let n_events = sink.n_events;
            let grammar = sink.builder.finish();
            let encoded = wpp_grammar::encode_grammar(&grammar, sink.symbols.paths.len() as u32);
            writer.write_value(section::SYMBOLS, &sink.symbols.paths)?;
            writer.write_section(section::GRAMMAR, &encoded)?;
            mode_note = format!(
                "; grammar {} symbols, {} bytes (ratio {:.0}:1 against 4-byte symbols; finished in {:.2} s)",
                group(grammar.n_symbols() as u64),
                group(encoded.len() as u64),
                (4 * n_events) as f64 / encoded.len().max(1) as f64,
                t.elapsed().as_secs_f64()
            );
            (run, counts, writer)
        }
        (_, Mode::Trace) => {
            let sink = ProfileSink::new(writer, TraceStats::for_numberings(&inst.numberings));
            let (run, mut sink) = wpp_runtime::run_paths(&engine, &inst, &cfg, sink)?;
            sink.writer.end();
            anyhow::ensure!(!sink.stats.is_truncated(), "the trace ends inside an event");
            (run, sink.stats.counts(), sink.writer)
        }
        (_, Mode::Count) => {
            let (run, ()) = wpp_runtime::run_paths(&engine, &inst, &cfg, ())?;
            let counts = run.counts.clone();
            if let Some((file, set)) = &set {
                let r = crate::ppp::record_of(file, set, &inst, &run.hashed)?;
                let interesting: std::collections::HashSet<_> = r.functions.iter().flat_map(|f| f.paths.iter().map(move |p| (f.func, p.path))).collect();
                let residual = counts.keys().filter(|k| !interesting.contains(k)).count();
                mode_note = format!("; {} of them residual (`wpp ppp report` lists them)", group(residual as u64));
                ppp_record = Some(r);
            }
            (run, counts, writer)
        }
    };
    let n_events: u64 = counts.values().sum();
    let ending = match &run.result.outcome {
        Outcome::Exited(s) => Ending::Exited(*s),
        Outcome::Trapped { trap, backtrace } => {
            eprintln!("wpp: the program trapped: {trap}");
            for (i, f) in backtrace.iter().enumerate() {
                eprintln!("  {i:>3}: {f}");
            }
            Ending::Trapped(trap.clone())
        }
    };
    // Source lines are a convenience: unreadable DWARF must not cost the recording.
    let source = wpp_wasm::source_map(&wasm, &program).unwrap_or_else(|e| {
        eprintln!("wpp: warning: {}: {e}; reports will show byte offsets instead of source lines", o.program.display());
        None
    });
    let meta = Meta {
        module: o.program.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        module_bytes: wasm.len() as u64,
        mode: match o.mode {
            RecordModeArg::Grammar => RecordMode::Grammar(o.grammar.into()),
            RecordModeArg::Trace => RecordMode::Trace,
            RecordModeArg::Paths => RecordMode::Paths,
            RecordModeArg::Ppp => RecordMode::Ppp,
        },
        max_paths: opts.max_paths,
        functions: program.functions,
        args: o.args.clone(),
        ending,
        guest_nanos: run.result.guest_time.as_nanos() as u64,
        events: n_events,
    };
    let mut writer = writer;
    writer.write_value(section::META, &meta)?;
    writer.write_value(section::COUNTS, &sorted_counts(&counts))?;
    if let Some(source) = &source {
        writer.write_value(section::SOURCE, source)?;
    }
    if let Some(r) = &ppp_record {
        writer.write_value(section::PPP, r)?;
    }
    writer.finish()?;
    eprintln!(
        "wpp: {} paths in {:.2} s; {} distinct{} -> {}",
        group(n_events),
        run.result.guest_time.as_secs_f64(),
        group(counts.len() as u64),
        mode_note,
        output.display()
    );
    Ok(run.result.outcome.exit_status())
}

pub fn sorted_counts(counts: &PathCounts) -> Vec<PathCount> {
    let mut v: Vec<PathCount> = counts.iter().map(|(&(func, path), &count)| PathCount { func, path, count }).collect();
    v.sort_unstable();
    v
}

/// `1234567` → `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
