//! `wpp deps`: the loads of a run with the writers of the bytes they read, one load
//! execution's writers, the totals (`wpp deps stats`), and the chains back from a load
//! (`wpp deps --chain`).

use std::io::{self, Write};

use wpp_report::deps::{Chains, ClassRow, DepStats, DepsReport};
use wpp_report::format::{group, percent};

/// The loads and their writers, as `wpp deps` prints them.
pub fn report(out: &mut dyn Write, r: &DepsReport) -> io::Result<()> {
    writeln!(out, "{} load executions, {} dependences (writer, load), from the {}", group(r.load_executions), group(r.dependences as u64), r.from)?;
    for l in &r.loads {
        writeln!(out, "\nload {}:{:#x}  {}  ran {}", l.function, l.offset, l.source, group(l.executions))?;
        if l.writers.is_empty() {
            writeln!(out, "  (nothing: it read no byte)")?;
        }
        let all: u64 = l.writers.iter().map(|w| w.count).sum();
        for w in &l.writers {
            let earlier = match w.earlier_instance {
                0 => String::new(),
                n => format!(", {} from an earlier instance", group(n)),
            };
            let source = w.source.as_deref().map(|s| format!("  {s}")).unwrap_or_default();
            writeln!(out, "  {:>12} {:>5.1}%  {}{source}{earlier}", group(w.count), percent(w.count, all), w.writer)?;
        }
    }
    if let Some((k, rows)) = &r.instance {
        writeln!(out, "\nexecution {k} of the load read:")?;
        for d in rows {
            let source = d.source.as_deref().map(|s| format!("  {s}")).unwrap_or_default();
            match d.writer_instance {
                0 => writeln!(out, "  {}", d.writer)?,
                i => writeln!(out, "  {}, its execution {}{}{source}", d.writer, group(i), if d.latest { " (its latest)" } else { "" })?,
            }
        }
    }
    if let Some(note) = r.truncation.note("loads", "loads") {
        writeln!(out, "\n{note}")?;
    }
    if r.never_ran > 0 {
        let (n, s) = (group(r.never_ran), if r.never_ran == 1 { "" } else { "s" });
        writeln!(out, "\n{n} load{s} selected never ran")?;
    }
    Ok(())
}

/// The totals of `wpp deps stats`; `max_candidates` is how many writers of a load an
/// extended WPP's check names directly.
pub fn stats(out: &mut dyn Write, s: &DepStats, max_candidates: usize) -> io::Result<()> {
    writeln!(out, "from the {}", s.from)?;
    writeln!(out, "loads: {} sites, {} executions", group(s.load_sites), group(s.load_executions))?;
    writeln!(out, "dependences: {} (writer, load) pairs, {} in all", group(s.dependences), group(s.dynamic_dependences))?;
    writeln!(out, "\n{:<16} {:>10} {:>7} {:>14} {:>7}", "", "pairs", "%", "dependences", "%")?;
    let row = |out: &mut dyn Write, r: &ClassRow| {
        writeln!(
            out,
            "{:<16} {:>10} {:>6.1}% {:>14} {:>6.1}%",
            r.class,
            group(r.dependences),
            percent(r.dependences, s.dependences),
            group(r.executions),
            percent(r.executions, s.dynamic_dependences)
        )
    };
    for r in [&s.last_instance, &s.any_instance, &s.initial, &s.host, &s.instructions] {
        row(out, r)?;
    }
    if let Some(classes) = &s.classes {
        writeln!(out, "\nstatic classes of the instruction pairs:")?;
        for r in classes {
            row(out, r)?;
        }
    }
    if let Some(e) = &s.ewpp {
        writeln!(
            out,
            "\nthe extended WPP's checks: {} writers reported, {} of them unforeseen by the filtering run and {} past a load's first {} candidates (their sites spelled out in {} base-256 digits); {} checks naming instances (the comparison with the latest, and each digit of a distance back from it)",
            group(e.reports),
            group(e.unforeseen),
            group(e.beyond_candidates),
            max_candidates,
            group(e.site_checks),
            group(e.instance_checks)
        )?;
    }
    if let Some(c) = &s.checks {
        writeln!(
            out,
            "\nchecks per dependence to name the writer's instance: {:.2} (latest, then binary search; at most {}), {:.2} searching linearly (at most {})",
            c.binary,
            group(c.binary_max),
            c.linear,
            group(c.linear_max)
        )?;
    }
    if !s.unknown_host_calls.is_empty() {
        let calls: Vec<String> = s.unknown_host_calls.iter().map(|(n, c)| format!("{n} ({}×)", group(*c))).collect();
        writeln!(out, "\nwrites not known (dependences on them are missing): {}", calls.join(", "))?;
    }
    Ok(())
}

/// The chains back from one load, as `wpp deps --chain` prints them.
pub fn chains(out: &mut dyn Write, r: &Chains) -> io::Result<()> {
    let which = match r.instance {
        Some(k) => format!("its execution {}", group(k)),
        None if r.executions == 1 => "its one execution".to_string(),
        None => format!("{} executions", group(r.executions)),
    };
    writeln!(out, "chains back from load {}  {}: {which}, up to {} writers, from the {}", r.load, r.source, r.depth, r.from)?;
    for c in &r.chains {
        writeln!(out, "\n{:>12} {:>5.1}%", group(c.count), percent(c.count, r.executions))?;
        for (i, l) in c.links.iter().enumerate() {
            let source = l.source.as_deref().map(|s| format!("  {s}")).unwrap_or_default();
            writeln!(out, "  {:indent$}load {} read {}{source}", "", l.use_, l.writer, indent = 2 * i)?;
        }
    }
    if r.chains.is_empty() {
        writeln!(out, "\n(no chain: the load read no byte, or never ran)")?;
    }
    if let Some(note) = r.truncation.note("chains", "chains") {
        writeln!(out, "\n{note}")?;
    }
    Ok(())
}
