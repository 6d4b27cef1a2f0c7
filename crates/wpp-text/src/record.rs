//! `wpp record`: what happened in a recording.

use std::io::{self, Write};
use std::path::Path;

use wpp_record::Recording;
use wpp_report::format::{count, group};
use wpp_runtime::Outcome;

/// How many frames of a trap's backtrace are printed.
const SHOWN_FRAMES: usize = 20;

/// What happened in the recording `r` written to `output`, as `wpp record` says it on
/// stderr (stdout is the guest's); `frames` names a trap's backtrace (as
/// `wpp_record::options::named_frames` does).
pub fn recorded(out: &mut dyn Write, r: &Recording, frames: &[String], output: &Path) -> io::Result<()> {
    match &r.outcome {
        Outcome::Trapped { trap, backtrace } => {
            writeln!(out, "wpp: the program trapped: {trap}")?;
            for (i, f) in frames.iter().take(SHOWN_FRAMES).enumerate() {
                writeln!(out, "  {i:>3}: {f}")?;
            }
            if backtrace.len() > SHOWN_FRAMES {
                let left = backtrace.len() - SHOWN_FRAMES;
                let at_least = if backtrace.len() >= wpp_runtime::MAX_FRAMES { "at least " } else { "" };
                writeln!(out, "       ... {at_least}{} more {} left out", group(left as u64), if left == 1 { "frame" } else { "frames" })?;
            }
        }
        Outcome::Stopped(reason) => writeln!(out, "wpp: the program was {reason}; the profile holds the run until then")?,
        Outcome::Exited(_) => {}
    }
    for w in &r.warnings {
        writeln!(out, "wpp: warning: {w}")?;
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
    writeln!(
        out,
        "wpp: {} in {:.2} s (after {:.2} s instrumenting and {:.2} s compiling), {:.2} s more to write the profile; {} distinct{note} -> {}",
        count(r.events, "path", "paths"),
        r.guest_time.as_secs_f64(),
        r.instrument_time.as_secs_f64(),
        r.compile_time.as_secs_f64(),
        r.after_guest.as_secs_f64(),
        group(r.distinct),
        output.display()
    )
}

/// The hint after a failed run (`wpp_record::options::sandbox_hint`).
pub fn hint(out: &mut dyn Write, hint: &str) -> io::Result<()> {
    writeln!(out, "wpp: hint: {hint}")
}

pub use wpp_record::signals::Signalled;

/// What `wpp record` says on signal `name` (`SIGINT`).
pub fn signal(out: &mut dyn Write, name: &str, what: Signalled) -> io::Result<()> {
    match what {
        Signalled::Again => writeln!(out, "wpp: {name} again: aborted without a profile"),
        Signalled::Stopping => writeln!(out, "wpp: {name}: stopping the program; its profile will hold the run until now ({name} again aborts without it)"),
        Signalled::Finishing => writeln!(out, "wpp: {name}: the program has ended; finishing its profile ({name} again aborts without it)"),
    }
}
