//! `wpp man`: the man pages, generated from the command line's definition.

use anyhow::Context as _;

/// Write the man pages (wpp.1, wpp-record.1, ...) into a directory.
///
/// `scripts/install.sh` installs them under ~/.local/share/man/man1, where `man wpp` finds
/// them.
#[derive(clap::Args)]
pub struct Opts {
    /// The directory to write them into (created if missing).
    dir: std::path::PathBuf,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    std::fs::create_dir_all(&o.dir).with_context(|| format!("cannot create {}", o.dir.display()))?;
    clap_mangen::generate_to(crate::command(), &o.dir).with_context(|| format!("cannot write the man pages into {}", o.dir.display()))?;
    Ok(())
}
