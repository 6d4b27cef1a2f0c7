//! Laying the drawings out: one run of Graphviz's `dot` for all of them (the one place
//! this crate runs a program).

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// The SVG of each Graphviz graph, laid out by one run of `dot`, or why not.
pub fn layout(dot: &Path, graphs: &[&str]) -> Result<Vec<String>, String> {
    if graphs.is_empty() {
        return Ok(Vec::new());
    }
    let mut child = Command::new(dot).arg("-Tsvg").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("Graphviz's `{}` is not installed (Debian: apt install graphviz)", dot.display())
        } else {
            format!("cannot run {}: {e}", dot.display())
        }
    })?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = graphs.concat();
    // Written from another thread: dot writes while it reads.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| format!("{}: {e}", dot.display()))?;
    let written = writer.join().map_err(|_| "the thread writing to dot panicked".to_string())?;
    if !out.status.success() {
        return Err(format!("{} failed ({}): {}", dot.display(), out.status, String::from_utf8_lossy(&out.stderr).trim()));
    }
    written.map_err(|e| format!("writing to {}: {e}", dot.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let svgs: Vec<String> = text.split("<?xml").filter(|s| !s.trim().is_empty()).map(|s| format!("<?xml{s}")).collect();
    if svgs.len() != graphs.len() {
        return Err(format!("{} laid out {} of {} graphs", dot.display(), svgs.len(), graphs.len()));
    }
    Ok(svgs)
}
