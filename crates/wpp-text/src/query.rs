//! `wpp query`: questions about the whole program path (how often, which first, in which
//! contexts).

use std::io::{self, Write};

use wpp_report::format::{count, group};
use wpp_report::query::{Before, Contexts, Freq};
use wpp_report::PathRow;

/// How often the paths ran in sequence (and side by side, when they overlap).
pub fn freq(out: &mut dyn Write, r: &Freq) -> io::Result<()> {
    if r.disjoint == r.frequency {
        writeln!(out, "{}", r.frequency)
    } else {
        writeln!(out, "{} ({} side by side)", r.frequency, r.disjoint)
    }
}

/// Whether path `p` ran before path `q`, and where each did.
pub fn before(out: &mut dyn Write, r: &Before, p: &str, q: &str) -> io::Result<()> {
    let pos = |x: Option<u64>| x.map_or("never ran".to_string(), |v| format!("event {v}"));
    writeln!(out, "{}", if r.before { "yes" } else { "no" })?;
    writeln!(out, "first {p}: {}; last {q}: {}", pos(r.first_p), pos(r.last_q))
}

/// The contexts of `k` paths each side in which path `p` ran.
pub fn contexts(out: &mut dyn Write, r: &Contexts, p: &str, k: usize) -> io::Result<()> {
    let total = r.truncation.total("contexts");
    writeln!(
        out,
        "{p} ran {} in {} of {} each side",
        count(r.executions, "time", "times"),
        count(total as u64, "distinct context", "distinct contexts"),
        count(k as u64, "path", "paths")
    )?;
    for c in &r.contexts {
        let names = |v: &[PathRow]| v.iter().map(PathRow::name).collect::<Vec<_>>().join(" ");
        writeln!(out, "{:>14}  {} [{p}] {}", group(c.count), names(&c.before), names(&c.after))?;
    }
    if let Some(note) = r.truncation.note("contexts", "contexts") {
        writeln!(out, "{note}")?;
    }
    Ok(())
}
