//! `wpp merge`: many runs of one module in one profile.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;

/// Merge profiles of one module into one: path counts added, every run kept.
///
/// The profiles must have been recorded from the same module (by its SHA-256) and numbered
/// alike; profiles recorded with interesting paths (--mode ppp) merge with others recorded
/// with the same ones, their hash tables' counts added. A merged profile can be merged
/// again: its runs are taken one by one. Every command reads a merged profile as the sum of
/// its runs (`wpp paths all.wpp`), and with --run N its run N alone, as it was recorded,
/// whole program path included (`wpp hot all.wpp --run 2`); `wpp stats` lists the runs.
/// The merged profile replaces OUTPUT only when the merge succeeds.
#[derive(Args)]
#[command(after_help = "Examples:\n  wpp merge tests/*.wpp -o tests.wpp\n  wpp merge --from-list runs.txt -o all.wpp\n  wpp paths all.wpp --run 3")]
pub struct Opts {
    /// Profiles written by `wpp record` (or merged before), in order.
    profiles: Vec<PathBuf>,
    /// Also the profiles listed in FILE, one path a line, after those given (blank lines
    /// and lines starting with `#` are skipped; relative paths are from the current
    /// directory).
    #[arg(long, value_name = "FILE")]
    from_list: Option<PathBuf>,
    /// The merged profile to write.
    #[arg(short, long, value_name = "OUTPUT")]
    output: PathBuf,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut inputs = o.profiles;
    if let Some(list) = &o.from_list {
        let text = std::fs::read_to_string(list).with_context(|| format!("cannot read the list of profiles {}", list.display()))?;
        inputs.extend(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(PathBuf::from));
    }
    if inputs.is_empty() {
        anyhow::bail!(wpp_profile::Error::NothingToMerge { path: o.output });
    }
    wpp_profile::check_writable(&o.output)?;
    let m = wpp_profile::merge(&inputs, &o.output)?;
    wpp_text::merge::merged(&mut std::io::stderr().lock(), &m, inputs.len(), &o.output)?;
    Ok(())
}
