//! `wpp deps stats`: the totals of a run's memory dependences.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_profile::Profile;
use wpp_report::format::{group, percent};

/// Statistics of the run's memory dependences.
///
/// Loads and their executions; dependences, as distinct (writer, load) pairs and as load
/// executions; how many are always on the writer's latest instance (last-instance) and how
/// many are not (any-instance); by writer: the initial memory, host calls, instructions;
/// with --module, the static classes of the instruction pairs (fully free, partially free,
/// fixed cost, variable cost, as Tallam and Gupta sort them); for an addresses recording,
/// the checks a dependence needs to name the writer's instance: the latest first and then
/// a binary search, against a linear search back from the latest. With --json the same
/// fields.
#[derive(Args)]
pub struct StatsOpts {
    /// A profile of `wpp record --mode addresses` or `--mode ewpp-filter`.
    profile: PathBuf,
    /// The module the profile was recorded from, for the static classes.
    #[arg(long, value_name = "MODULE.wasm")]
    module: Option<PathBuf>,
    #[command(flatten)]
    json: crate::Json,
}

pub fn run(o: StatsOpts) -> anyhow::Result<()> {
    let p = Profile::open(&o.profile)?;
    p.require_program("deps stats")?;
    let (deps, sites, mut s) = wpp_report::deps::stats(&p)?;
    if let Some(m) = &o.module {
        let module = wpp_dataflow::Module::open(&p, m)?;
        s.classes = Some(wpp_dataflow::dep_stats::classes(&p, &module, &deps, &sites));
    }
    if o.json.json {
        return crate::print_json(&s);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "from the {}", s.from)?;
    writeln!(out, "loads: {} sites, {} executions", group(s.load_sites), group(s.load_executions))?;
    writeln!(out, "dependences: {} (writer, load) pairs, {} in all", group(s.dependences), group(s.dynamic_dependences))?;
    writeln!(out, "\n{:<16} {:>10} {:>7} {:>14} {:>7}", "", "pairs", "%", "dependences", "%")?;
    let row = |out: &mut std::io::StdoutLock, r: &wpp_report::deps::ClassRow| {
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
        row(&mut out, r)?;
    }
    if let Some(classes) = &s.classes {
        writeln!(out, "\nstatic classes of the instruction pairs:")?;
        for r in classes {
            row(&mut out, r)?;
        }
    }
    if let Some(e) = &s.ewpp {
        writeln!(
            out,
            "\nthe extended WPP's checks: {} writers reported, {} of them unforeseen by the filtering run and {} past a load's first {} candidates (their sites spelled out in {} base-256 digits); {} checks naming instances (the comparison with the latest, and each digit of a distance back from it)",
            group(e.reports),
            group(e.unforeseen),
            group(e.beyond_candidates),
            wpp_record::MAX_CANDIDATES,
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
