//! `wpp record`: run a program instrumented and write its profile.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::bail;
use clap::{Args, ValueEnum};
use wpp_record::{Builder, Limits, PathSet, Prediction, RecordMode, Recorder, Recording, StopHandle, StopReason};
use wpp_report::format::{count, group};
use wpp_runtime::{Frame, Outcome};

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
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = parse_size)]
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
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Stop the program when it has used this much fuel, keeping its profile: about one
    /// unit per WebAssembly instruction executed, the instrumentation's included. Counting
    /// fuel slows the program down.
    #[arg(long, value_name = "N")]
    fuel: Option<u64>,
    /// Largest size of each of the program's linear memories (K, M or G suffixes): growing
    /// one past it stops the program, keeping its profile [default: what WebAssembly
    /// allows, 4 GiB for a 32-bit memory].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
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
    match (mode, &o.filter) {
        (RecordMode::Ewpp(_), None) => bail!("--mode ewpp needs --filter FILE (a profile of `wpp record --mode ewpp-filter` of the same program)"),
        (RecordMode::Ewpp(_), Some(_)) => {}
        (_, Some(_)) => bail!("--filter is for --mode ewpp"),
        (_, None) => {}
    }
    match (mode, &o.interesting) {
        (RecordMode::Ppp, None) => bail!("--mode ppp needs --interesting SET (a set file from `wpp ppp select`)"),
        (RecordMode::Ppp, Some(_)) => {}
        (_, Some(_)) => bail!("--interesting is for --mode ppp"),
        (_, None) if o.ppp_everywhere => bail!("--ppp-everywhere is for --mode ppp"),
        (_, None) => {}
    }
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
        recorder = recorder.on_progress(progress_bar());
    }
    for d in &o.dirs {
        let (host, guest) = match d.split_once("::") {
            Some((h, g)) => (h, g.to_string()),
            None => (d.as_str(), d.clone()),
        };
        if !Path::new(host).is_dir() {
            bail!("--dir {d}: {host} is not a directory");
        }
        recorder = recorder.dir(host, guest);
    }
    for e in &o.envs {
        recorder = match e.split_once('=') {
            Some((k, v)) => recorder.env(k, v),
            None => match std::env::var(e) {
                Ok(v) => recorder.env(e, v),
                Err(_) => bail!("--env {e}: the host has no such variable"),
            },
        };
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
    report(&r, &o.program, &output);
    if !matches!(r.outcome, Outcome::Exited(0)) {
        let granted: Vec<String> = o.dirs.iter().map(|d| d.split_once("::").map_or(d.clone(), |(_, g)| g.to_string())).collect();
        if let Some(hint) = sandbox_hint(&o.args, &granted) {
            eprintln!("wpp: hint: {hint}");
        }
    }
    Ok(r.exit_status())
}

/// For a program that failed: if one of its arguments names a file or directory on this
/// machine that no granted directory (guest paths `granted`) covers, what may have gone
/// wrong and the `--dir` that would grant it. The program runs sandboxed: it sees only
/// what --dir grants, and a refused open looks like any other failure (WASI's
/// "Capabilities insufficient").
fn sandbox_hint(args: &[String], granted: &[String]) -> Option<String> {
    let covered = |arg: &Path| {
        granted.iter().any(|g| {
            let g = Path::new(g);
            match arg.is_absolute() {
                true => arg.starts_with(g),
                false => g == Path::new(".") || arg.starts_with(g),
            }
        })
    };
    let arg = args.iter().find(|a| !a.starts_with('-') && Path::new(a.as_str()).exists() && !covered(Path::new(a.as_str())))?;
    let path = Path::new(arg.as_str());
    let what = if path.is_dir() { "a directory" } else { "a file" };
    let dir = match path.is_absolute() {
        true => path.parent().filter(|_| !path.is_dir()).unwrap_or(path).display().to_string(),
        false => ".".to_string(),
    };
    let granted = match granted.len() {
        0 => "none was granted".to_string(),
        _ => format!("only {} {} granted", granted.join(", "), if granted.len() == 1 { "was" } else { "were" }),
    };
    Some(format!(
        "the program's argument `{arg}` is {what} on this machine, but the program runs sandboxed and sees only the directories given with --dir ({granted}); if it could not open it, `--dir {dir}` grants it"
    ))
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
                eprintln!("wpp: {name} again: aborted without a profile");
                std::process::exit(128 + sig);
            }
            if stop.stop(StopReason::Signal(sig)) {
                eprintln!("wpp: {name}: stopping the program; its profile will hold the run until now ({name} again aborts without it)");
            } else {
                eprintln!("wpp: {name}: the program has ended; finishing its profile ({name} again aborts without it)");
            }
        }
    })?;
    Ok(handle)
}

/// A duration in seconds, fractions allowed.
fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|_| format!("`{s}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{s}` is not a duration (a non-negative number of seconds)"))
}

/// A size in bytes, with an optional K, M or G suffix (powers of 1024).
fn parse_size(s: &str) -> Result<usize, String> {
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return Err(format!("`{s}` is not a size (a number with an optional K, M or G suffix)")),
    };
    let n: usize = digits.parse().map_err(|_| format!("`{s}` is not a size (a number with an optional K, M or G suffix)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{s}` is too large"))
}

/// A progress bar for building the grammar after the guest ended, shown once that
/// starts, cleared when it is done.
fn progress_bar() -> impl Fn(wpp_record::BuildProgress) + Send + Sync + 'static {
    let bar = std::sync::OnceLock::<indicatif::ProgressBar>::new();
    move |p| {
        let bar = bar.get_or_init(|| {
            let b = indicatif::ProgressBar::new(p.total);
            b.set_style(
                indicatif::ProgressStyle::with_template("wpp: building the grammar {bar:40} {percent:>3}% ({human_pos}/{human_len} paths, {eta} left)")
                    .expect("a valid template"),
            );
            b
        });
        bar.set_position(p.built);
        if p.built >= p.total {
            bar.finish_and_clear();
        }
    }
}

/// How many frames of a trap's backtrace are printed.
const SHOWN_FRAMES: usize = 20;

/// What happened, on stderr (stdout is the guest's).
fn report(r: &Recording, program: &Path, output: &Path) {
    match &r.outcome {
        Outcome::Trapped { trap, backtrace } => {
            eprintln!("wpp: the program trapped: {trap}");
            // Frames are in the program's own offsets; its DWARF, if any, names their lines.
            let lines = std::fs::read(program).ok().and_then(|b| wpp_wasm::instruction_lines(&b).ok().flatten());
            for (i, f) in backtrace.iter().take(SHOWN_FRAMES).enumerate() {
                eprintln!("  {i:>3}: {}", frame(f, lines.as_ref()));
            }
            if backtrace.len() > SHOWN_FRAMES {
                let left = backtrace.len() - SHOWN_FRAMES;
                let at_least = if backtrace.len() >= wpp_runtime::MAX_FRAMES { "at least " } else { "" };
                eprintln!("       ... {at_least}{} more {} left out", group(left as u64), if left == 1 { "frame" } else { "frames" });
            }
        }
        Outcome::Stopped(reason) => eprintln!("wpp: the program was {reason}; the profile holds the run until then"),
        Outcome::Exited(_) => {}
    }
    for w in &r.warnings {
        eprintln!("wpp: warning: {w}");
    }
    let mut note = String::new();
    if let Some(g) = &r.grammar {
        note = format!(
            "; grammar {} symbols, {} bytes (ratio {:.0}:1 against 4-byte symbols)",
            group(g.symbols),
            group(g.bytes),
            (4 * r.events) as f64 / g.bytes.max(1) as f64,
        );
    }
    if let Some(n) = r.residual {
        note = format!("; {} of them residual (`wpp ppp report` lists them)", group(n));
    }
    if let Some(n) = r.accesses {
        note.push_str(&format!("; {}", count(n, "memory access", "memory accesses")));
    }
    eprintln!(
        "wpp: {} in {:.2} s (after {:.2} s instrumenting and {:.2} s compiling), {:.2} s more to write the profile; {} distinct{note} -> {}",
        count(r.events, "path", "paths"),
        r.guest_time.as_secs_f64(),
        r.instrument_time.as_secs_f64(),
        r.compile_time.as_secs_f64(),
        r.after_guest.as_secs_f64(),
        group(r.distinct),
        output.display()
    );
}

/// A backtrace frame as `wasmtime run` would name it for the program: function, module
/// offset, and source line.
fn frame(f: &Frame, lines: Option<&wpp_wasm::InstructionLines>) -> String {
    let name = match (f.func, &f.name) {
        (None, _) => return "wpp's recording code".to_string(),
        (Some(_), Some(name)) => name.clone(),
        (Some(func), None) => format!("func[{}]", func.0),
    };
    let Some(at) = f.offset else { return name };
    match lines.and_then(|l| l.line_at(at)) {
        Some((file, line)) => format!("{name} (at offset {at:#x}, {file}:{line})"),
        None => format!("{name} (at offset {at:#x})"),
    }
}

#[cfg(test)]
mod tests {
    use super::sandbox_hint;

    /// A hint names an argument that exists on the host and that no grant covers, and the
    /// `--dir` that would.
    #[test]
    fn sandbox_hints() {
        let here = std::env::current_dir().unwrap();
        let file = here.join("Cargo.toml");
        let abs = file.display().to_string();
        assert!(sandbox_hint(&["Cargo.toml".into()], &[]).unwrap().contains("`--dir .`"));
        assert!(sandbox_hint(&["Cargo.toml".into()], &[".".into()]).is_none());
        assert!(sandbox_hint(std::slice::from_ref(&abs), &[]).unwrap().contains(&format!("`--dir {}`", here.display())));
        assert!(sandbox_hint(&[abs], &[here.display().to_string()]).is_none());
        assert!(sandbox_hint(&["no-such-file".into(), "-v".into()], &[]).is_none());
        assert!(sandbox_hint(&["src".into()], &["data".into()]).unwrap().contains("a directory on this machine"));
    }
}
