//! `wpp completions`: a shell completion script, generated from the command line's
//! definition.

/// Print a shell completion script for wpp.
///
/// bash: `wpp completions bash > ~/.local/share/bash-completion/completions/wpp`;
/// zsh: write `_wpp` into a directory of $fpath; fish: `wpp completions fish >
/// ~/.config/fish/completions/wpp.fish`. `scripts/install.sh` installs them.
#[derive(clap::Args)]
pub struct Opts {
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    // Generated into memory first: clap_complete panics on a failed write, and a closed
    // pipe (`wpp completions bash | head`) is to end wpp quietly.
    let mut script = Vec::new();
    clap_complete::generate(o.shell, &mut crate::command(), "wpp", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(())
}
