//! `wpp record`: run a program instrumented and write its profile.

use std::path::{Path, PathBuf};

use anyhow::bail;
use clap::Args;
use wpp_record::{Recorder, StopHandle};
use wpp_runtime::Outcome;

use crate::{BuildOpts, LimitOpts, ModeOpts};

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
    #[command(flatten)]
    mode: ModeOpts,
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
    #[command(flatten)]
    build: BuildOpts,
    #[command(flatten)]
    limits: LimitOpts,
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

pub fn run(o: Opts) -> anyhow::Result<i32> {
    let output = match &o.output {
        Some(o) => o.clone(),
        None => default_output(&o.program)?,
    };
    let mut recorder = o.mode.apply(Recorder::open(&o.program)?)?;
    recorder = o.build.apply(recorder).max_paths(o.max_paths).args(&o.args);
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        recorder = recorder.on_progress(crate::grammar_bar());
    }
    for d in &o.dirs {
        recorder = wpp_record::options::dir(recorder, d)?;
    }
    for e in &o.envs {
        recorder = wpp_record::options::env(recorder, e)?;
    }
    let stop = StopHandle::new();
    recorder = recorder.limits(o.limits.limits(stop.clone()));
    let signals = wpp_record::signals::watch(stop, |name, what| {
        let _ = wpp_text::record::signal(&mut std::io::stderr().lock(), name, what);
    })?;
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
