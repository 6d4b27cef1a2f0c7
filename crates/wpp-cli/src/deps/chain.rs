//! `wpp deps --chain`: the chains of dependences back from one load.

use wpp_profile::Profile;

pub(crate) fn run(p: &Profile, o: &super::ShowOpts) -> anyhow::Result<()> {
    let (Some(module), Some(use_)) = (&o.module, &o.use_) else { anyhow::bail!("--chain needs --use and --module") };
    let uses = wpp_dataflow::statement_uses(p, module)?;
    let r = wpp_report::deps::chains(p, &uses, use_, o.instance, o.depth as usize, o.output.top())?;
    if o.output.json {
        return crate::print_json(&r);
    }
    wpp_text::deps::chains(&mut std::io::stdout().lock(), &r)?;
    Ok(())
}
