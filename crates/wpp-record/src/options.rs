//! What the recorder is given as text on a command line, read here so that every front end
//! reads it the same way: durations and sizes, `--dir HOST::GUEST` and `--env K=V`, which
//! options go with which mode, and after a failed run, a hint about the sandbox.

use std::path::Path;
use std::time::Duration;

use crate::{Error, RecordMode, Recorder};

/// A duration in seconds, fractions allowed.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s.parse().map_err(|_| format!("`{s}` is not a number of seconds"))?;
    Duration::try_from_secs_f64(secs).map_err(|_| format!("`{s}` is not a duration (a non-negative number of seconds)"))
}

/// A size in bytes, with an optional K, M or G suffix (powers of 1024).
pub fn parse_size(s: &str) -> Result<usize, String> {
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

/// Which options a mode needs and takes: `--mode ewpp` needs a filtering profile and only it
/// takes one; `--mode ppp` needs a set of interesting paths and only it takes one, or
/// `--ppp-everywhere`.
pub fn check_mode(mode: RecordMode, filter: bool, interesting: bool, ppp_everywhere: bool) -> Result<(), Error> {
    let bad = |what: &str| Err(Error::Invalid(what.to_string()));
    match (mode, filter) {
        (RecordMode::Ewpp(_), false) => return bad("--mode ewpp needs --filter FILE (a profile of `wpp record --mode ewpp-filter` of the same program)"),
        (RecordMode::Ewpp(_), true) | (_, false) => {}
        (_, true) => return bad("--filter is for --mode ewpp"),
    }
    match (mode, interesting) {
        (RecordMode::Ppp, false) => bad("--mode ppp needs --interesting SET (a set file from `wpp ppp select`)"),
        (RecordMode::Ppp, true) => Ok(()),
        (_, true) => bad("--interesting is for --mode ppp"),
        (_, false) if ppp_everywhere => bad("--ppp-everywhere is for --mode ppp"),
        (_, false) => Ok(()),
    }
}

/// A directory granted as `--dir` writes it: `HOST::GUEST`, or `DIR` for the same path on
/// both sides; the host's must be a directory.
pub fn dir(recorder: Recorder, spec: &str) -> Result<Recorder, Error> {
    let (host, guest) = match spec.split_once("::") {
        Some((h, g)) => (h, g.to_string()),
        None => (spec, spec.to_string()),
    };
    if !Path::new(host).is_dir() {
        return Err(Error::Invalid(format!("--dir {spec}: {host} is not a directory")));
    }
    Ok(recorder.dir(host, guest))
}

/// The guest path a `--dir` spec grants.
pub fn dir_guest(spec: &str) -> String {
    spec.split_once("::").map_or(spec.to_string(), |(_, g)| g.to_string())
}

/// An environment variable as `--env` writes it: `KEY=VALUE`, or `KEY` for the host's value.
pub fn env(recorder: Recorder, spec: &str) -> Result<Recorder, Error> {
    match spec.split_once('=') {
        Some((k, v)) => Ok(recorder.env(k, v)),
        None => match std::env::var(spec) {
            Ok(v) => Ok(recorder.env(spec, v)),
            Err(_) => Err(Error::Invalid(format!("--env {spec}: the host has no such variable"))),
        },
    }
}

/// For a program that failed: if one of its arguments names a file or directory on this
/// machine that no granted directory (guest paths `granted`) covers, what may have gone
/// wrong and the `--dir` that would grant it. The program runs sandboxed: it sees only
/// what --dir grants, and a refused open looks like any other failure (WASI's
/// "Capabilities insufficient").
pub fn sandbox_hint(args: &[String], granted: &[String]) -> Option<String> {
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

/// A backtrace's frames named as `wasmtime run` would name them for the program `program`:
/// function, module offset, and the source line its DWARF, if any, gives.
pub fn named_frames(program: &Path, backtrace: &[wpp_runtime::Frame]) -> Vec<String> {
    let lines = std::fs::read(program).ok().and_then(|b| wpp_wasm::module_binary(b).ok()).and_then(|b| wpp_wasm::instruction_lines(&b).ok().flatten());
    backtrace.iter().map(|f| frame(f, lines.as_ref())).collect()
}

/// A backtrace frame as `wasmtime run` would name it for the program: function, module
/// offset, and source line.
fn frame(f: &wpp_runtime::Frame, lines: Option<&wpp_wasm::InstructionLines>) -> String {
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
