//! `wpp record`: run a program instrumented and write its profile.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::bail;
use clap::{Args, ValueEnum};
use wpp_record::{Builder, Limits, PathSet, Prediction, RecordMode, Recorder, StopHandle, StopReason};
use wpp_runtime::Outcome;

use crate::builder_arg;

/// Run a WebAssembly program and record the paths it executes.
///
/// The program runs sandboxed under WASI preview 1: it sees its arguments, stdio, and only
/// the directories and environment variables granted with --dir and --env. Its stdout,
/// stderr and exit status are passed through.
///
/// Ctrl-C (SIGINT) or SIGTERM stops the program and writes what it recorded until then,
/// marked as partial (`wpp stats` says so), and wpp exits 130 or 143; a second one aborts
/// at once without a profile. A program stopped by --timeout, --fuel or --max-memory also
/// keeps its profile, and wpp exits 124. A trap exits 134, with the profile.
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp record -o lua.wpp --dir data lua.wasm script.lua\n  wpp record --mode paths lua.wasm -e 'print(1)'   (-e is lua's)")]
pub struct Opts {
    /// What to record.
    #[arg(long, value_enum, default_value_t = ModeArg::Grammar)]
    mode: ModeArg,
    /// How to compress the path trace in grammar mode: online while the program runs
    /// (sequitur, sequitur1) or after it (repair: most frequent digram first).
    #[arg(long, value_parser = builder_arg(), default_value = "sequitur1")]
    grammar: Builder,
    /// SEQUITUR with rule prediction: input that repeats a recent rule's expansion is
    /// appended as that rule. Measured on real programs it is not faster (the Lua
    /// benchmark: the same time, a grammar 10% larger; a JSON processor: slower, 62%
    /// larger); `wpp-bench grammar` compares it on your traces.
    #[arg(long)]
    predict: bool,
    /// With --mode ppp: the interesting paths, a set file written by `wpp ppp select`.
    #[arg(long, value_name = "SET")]
    interesting: Option<PathBuf>,
    /// With --mode ppp: number interesting paths with PPP in every function, also where
    /// Ball-Larus counters fit an array (which is cheaper, and the default there).
    #[arg(long)]
    ppp_everywhere: bool,
    /// With --mode ewpp: the filtering run of the same program (`--mode ewpp-filter`),
    /// whose dependences name each load's candidate writers.
    #[arg(long, value_name = "FILTER.wpp")]
    filter: Option<PathBuf>,
    /// Where to write the profile [default: PROGRAM's name with the extension .wpp, in the
    /// current directory].
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Grant the guest a host directory, as HOST or HOST::GUEST.
    #[arg(long = "dir", value_name = "HOST[::GUEST]")]
    dirs: Vec<String>,
    /// Give the guest an environment variable, as NAME=VALUE, or NAME to pass the host's.
    #[arg(long = "env", value_name = "NAME[=VALUE]")]
    envs: Vec<String>,
    /// Grammar mode: memory for events waiting for the grammar builder (K, M or G
    /// suffixes); beyond it they wait in a temporary file beside the output, which is
    /// removed at once and never outlives the recording.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = wpp_record::options::parse_size)]
    spool_memory: usize,
    /// Grammar mode: threads that build the grammar [default: the cores available]. The
    /// grammar is the same for any number.
    #[arg(long, value_name = "N")]
    build_threads: Option<usize>,
    /// Grammar mode: build in content-defined segments of about N run-length tokens (2^20
    /// is a good size), each on any build thread, also while the program runs, merged in
    /// order. Scales with cores (on two, measured: faster than the default in
    /// `wpp-bench`, slower on zlib and Lua as `wpp record`), and the grammar is up to 1.3×
    /// larger (`wpp-bench record --threads-sweep`).
    #[arg(long, value_name = "N")]
    segment_tokens: Option<usize>,
    /// Stop the program after this many seconds (fractions allowed), keeping its profile.
    #[arg(long, value_name = "SECONDS", value_parser = wpp_record::options::parse_seconds)]
    timeout: Option<Duration>,
    /// Stop the program when it has used this much fuel, keeping its profile: about one
    /// unit per WebAssembly instruction executed, the instrumentation's included. Counting
    /// fuel slows the program down.
    #[arg(long, value_name = "N")]
    fuel: Option<u64>,
    /// Largest size of each of the program's linear memories (K, M or G suffixes): growing
    /// one past it stops the program, keeping its profile [default: what WebAssembly
    /// allows, 4 GiB for a 32-bit memory].
    #[arg(long, value_name = "SIZE", value_parser = wpp_record::options::parse_size)]
    max_memory: Option<usize>,
    /// Path limit per function; functions with more paths get cut points.
    #[arg(long, default_value_t = u64::MAX, hide = true)]
    max_paths: u64,
    /// The WebAssembly program (a wasm32-wasi command module). wpp's own options come
    /// before it: everything after it is the program's.
    program: PathBuf,
    /// Arguments for the program, passed as they are, even those that look like wpp's
    /// options (`--` before them is accepted too).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
    args: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    /// The whole program path: every path event in order, compressed into a grammar.
    Grammar,
    /// Count how often each path runs.
    Paths,
    /// Every path event in order without a grammar: runs of one path collapsed, 1–3 bytes
    /// per run.
    Trace,
    /// Preferential path profiling: count the interesting paths of --interesting in compact
    /// arrays, and every other (residual) path by its Ball-Larus number.
    Ppp,
    /// The whole program path as in grammar mode, and beside it the address trace: every
    /// load and store address, bulk write and write by a WASI call, compressed by the same
    /// builder (the baseline the extended WPP is measured against; `wpp deps` reads the
    /// dependences from it).
    Addresses,
    /// The filtering run of the extended WPP: which memory dependences the program
    /// exercises (store or host write → load), how often, and whether always on the
    /// writer's latest instance, from a shadow of the last writer of every byte; with path
    /// counts.
    EwppFilter,
    /// The extended whole program path (needs --filter): the path trace and, before each
    /// load, the paths of checks that say which store, bulk write or host call (and which
    /// of its executions) wrote the bytes it read, compressed as one grammar; `wpp deps`
    /// recovers the dependences from the control flow alone.
    Ewpp,
}

pub fn run(o: Opts) -> anyhow::Result<i32> {
    let mode = match o.mode {
        ModeArg::Grammar => RecordMode::Grammar(o.grammar),
        ModeArg::Paths => RecordMode::Paths,
        ModeArg::Trace => RecordMode::Trace,
        ModeArg::Ppp => RecordMode::Ppp,
        ModeArg::Addresses => RecordMode::Addresses(o.grammar),
        ModeArg::EwppFilter => RecordMode::EwppFilter,
        ModeArg::Ewpp => RecordMode::Ewpp(o.grammar),
    };
    wpp_record::options::check_mode(mode, o.filter.is_some(), o.interesting.is_some(), o.ppp_everywhere)?;
    let output = match &o.output {
        Some(o) => o.clone(),
        None => default_output(&o.program)?,
    };
    let mut recorder = Recorder::open(&o.program)?
        .mode(mode)
        .predict(if o.predict { Prediction::Rules } else { Prediction::Off })
        .max_paths(o.max_paths)
        .ppp_everywhere(o.ppp_everywhere)
        .spool_memory(o.spool_memory)
        .args(&o.args);
    if let Some(n) = o.build_threads {
        recorder = recorder.build_threads(n);
    }
    if let Some(n) = o.segment_tokens {
        recorder = recorder.segment_tokens(n);
    }
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        recorder = recorder.on_progress(crate::grammar_bar());
    }
    for d in &o.dirs {
        recorder = wpp_record::options::dir(recorder, d)?;
    }
    for e in &o.envs {
        recorder = wpp_record::options::env(recorder, e)?;
    }
    if let Some(file) = &o.interesting {
        recorder = recorder.interesting(file, PathSet::load(file)?);
    }
    if let Some(file) = &o.filter {
        recorder = recorder.filter(file)?;
    }
    let stop = StopHandle::new();
    recorder = recorder.limits(Limits { timeout: o.timeout, fuel: o.fuel, max_memory: o.max_memory.map(|m| m as u64), stop: Some(stop.clone()) });
    let signals = watch_signals(stop)?;
    let recorded = recorder.record(&output);
    signals.close();
    let r = recorded?;
    let frames = match &r.outcome {
        Outcome::Trapped { backtrace, .. } => wpp_record::options::named_frames(&o.program, backtrace),
        _ => Vec::new(),
    };
    wpp_text::record::recorded(&mut std::io::stderr().lock(), &r, &frames, &output)?;
    if !matches!(r.outcome, Outcome::Exited(0)) {
        let granted: Vec<String> = o.dirs.iter().map(|d| wpp_record::options::dir_guest(d)).collect();
        if let Some(hint) = wpp_record::options::sandbox_hint(&o.args, &granted) {
            wpp_text::record::hint(&mut std::io::stderr().lock(), &hint)?;
        }
    }
    Ok(r.exit_status())
}

/// `STEM.wpp` in the current directory, as `perf record` writes `perf.data` there: the
/// program's directory may be read-only or shared.
fn default_output(program: &Path) -> anyhow::Result<PathBuf> {
    match program.file_stem() {
        Some(stem) => Ok(Path::new(stem).with_extension("wpp")),
        None => bail!("{}: not a file name; give the profile's with -o", program.display()),
    }
}

/// Stops the recording on SIGINT or SIGTERM: the first stops the program (or, once it has
/// ended, lets the profile be finished), the second exits at once, removing the unfinished
/// profile. The returned handle ends the watch.
fn watch_signals(stop: StopHandle) -> anyhow::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let handle = signals.handle();
    std::thread::Builder::new().name("wpp-signals".into()).spawn(move || {
        let mut seen = 0;
        for sig in signals.forever() {
            seen += 1;
            let name = StopReason::signal_name(sig);
            if seen > 1 {
                wpp_profile::remove_unfinished();
                let _ = wpp_text::record::signal(&mut std::io::stderr().lock(), &name, wpp_text::record::Signalled::Again);
                std::process::exit(128 + sig);
            }
            if stop.stop(StopReason::Signal(sig)) {
                let _ = wpp_text::record::signal(&mut std::io::stderr().lock(), &name, wpp_text::record::Signalled::Stopping);
            } else {
                let _ = wpp_text::record::signal(&mut std::io::stderr().lock(), &name, wpp_text::record::Signalled::Finishing);
            }
        }
    })?;
    Ok(handle)
}
