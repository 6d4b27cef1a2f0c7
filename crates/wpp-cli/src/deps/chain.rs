//! `wpp deps --chain`: the chains of dependences back from one load.

use std::io::Write as _;

use wpp_profile::Profile;
use wpp_report::format::{group, percent};

pub(crate) fn run(p: &Profile, o: &super::ShowOpts) -> anyhow::Result<()> {
    let (Some(module), Some(use_)) = (&o.module, &o.use_) else { anyhow::bail!("--chain needs --use and --module") };
    let uses = wpp_dataflow::statement_uses(p, module)?;
    let r = wpp_report::deps::chains(p, &uses, use_, o.instance, o.depth as usize, o.output.top())?;
    if o.output.json {
        return crate::print_json(&r);
    }
    let mut out = std::io::stdout().lock();
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
