//! `wpp deps stats`: the totals of a run's memory dependences.

use std::path::PathBuf;

use clap::Args;
use wpp_profile::Profile;

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
    wpp_text::deps::stats(&mut std::io::stdout().lock(), &s, wpp_record::MAX_CANDIDATES)?;
    Ok(())
}
