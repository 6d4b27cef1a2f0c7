//! The `wpp` command as a user types it, timed end to end: its wall time and its peak
//! resident memory (the kernel's account of the process, `wait4`), so that a table
//! measures what the user waits for, not only the library call inside it.
//!
//! The kernel counts a child's peak from the moment it is forked, and a child forked by
//! a benchmark holding gigabytes starts with the benchmark's pages. So the command is
//! started by a fresh, small `wpp-bench` process ([`MEASURE`]), which reports what its
//! own child cost.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;

/// The hidden first argument that makes `wpp-bench` run and measure one command.
pub const MEASURE: &str = "__measure-command";

/// What one run of the command cost.
#[derive(Clone, Copy, Debug)]
pub struct Cost {
    pub seconds: f64,
    /// Peak resident memory, bytes.
    pub peak_bytes: u64,
}

/// The binary `name` built beside this one.
fn sibling(name: &str) -> anyhow::Result<PathBuf> {
    let path = std::env::current_exe()?.with_file_name(name);
    anyhow::ensure!(path.exists(), "{} not found: build it with `cargo build --release --workspace`", path.display());
    Ok(path)
}

/// Runs `program ARGS` with its output discarded, and measures it.
fn spawn_measured(program: &OsStr, args: &[OsString]) -> anyhow::Result<(Cost, i32)> {
    let t = Instant::now();
    let child = std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("cannot run {}", program.to_string_lossy()))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data the kernel fills; the child is ours and waited for
    // once, here (std's `Child` is dropped without waiting).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = t.elapsed().as_secs_f64();
    drop(child);
    anyhow::ensure!(r == pid, "waiting for {}: {}", program.to_string_lossy(), std::io::Error::last_os_error());
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    // Linux counts ru_maxrss in kilobytes.
    Ok((Cost { seconds, peak_bytes: usage.ru_maxrss as u64 * 1024 }, code))
}

/// The measuring process: runs `args` (a program and its arguments), prints its seconds
/// and peak bytes, and exits with its status.
pub fn measure(args: Vec<OsString>) -> anyhow::Result<()> {
    let (program, rest) = args.split_first().context("no command to measure")?;
    let (cost, code) = spawn_measured(program, rest)?;
    println!("{} {}", cost.seconds, cost.peak_bytes);
    std::process::exit(code);
}

/// Runs `wpp ARGS` (its output discarded) and measures it; fails if it fails.
pub fn run_wpp<S: AsRef<OsStr>>(args: &[S]) -> anyhow::Result<Cost> {
    run_wpp_with_stdin(args, None)
}

/// [`run_wpp`], with stdin read from `stdin` (nothing when `None`).
pub fn run_wpp_with_stdin<S: AsRef<OsStr>>(args: &[S], stdin: Option<&std::path::Path>) -> anyhow::Result<Cost> {
    let shown = || args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect::<Vec<_>>().join(" ");
    let input = match stdin {
        Some(f) => std::process::Stdio::from(std::fs::File::open(f).with_context(|| format!("{}", f.display()))?),
        None => std::process::Stdio::null(),
    };
    let out = std::process::Command::new(std::env::current_exe()?)
        .arg(MEASURE)
        .arg(sibling("wpp")?)
        .args(args)
        .stdin(input)
        .output()
        .context("cannot start the measuring process")?;
    anyhow::ensure!(out.status.success(), "`wpp {}` failed", shown());
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    let (Some(seconds), Some(peak)) = (it.next().and_then(|s| s.parse().ok()), it.next().and_then(|s| s.parse().ok())) else {
        anyhow::bail!("the measuring process printed {text:?}");
    };
    Ok(Cost { seconds, peak_bytes: peak })
}

/// `wpp record ARGS -o OUT PROGRAM -- RUN ARGS` with the run's directories and stdin.
pub fn record(dir: &std::path::Path, p: &wpp_workloads::Program, run: &wpp_workloads::Run, out: &std::path::Path, args: &[String]) -> anyhow::Result<Cost> {
    let mut a: Vec<String> = vec!["record".into()];
    a.extend(args.iter().cloned());
    a.push("-o".into());
    a.push(out.display().to_string());
    for d in &run.dirs {
        a.push("--dir".into());
        a.push(format!("{}::{d}", dir.join(d).display()));
    }
    a.push(dir.join(&p.wasm).display().to_string());
    a.push("--".into());
    a.extend(run.args.iter().cloned());
    let stdin = run.stdin.as_ref().map(|s| dir.join(s));
    run_wpp_with_stdin(&a, stdin.as_deref())
}
