//! `wpp dataflow reaching`: which definitions of a variable reached a point.

use std::path::PathBuf;

use clap::Args;
use wpp_dataflow::query::open;
use wpp_model::effects::Var;

use super::Out;

/// Which definitions of a local or global reached a point, and how often each did.
///
/// A local's definitions are in the point's function (or its parameter or zero at entry,
/// `entry`); a global's anywhere in the run, through calls and returns (or its initial
/// value, `init`). With --json: {"module", "point": {"function", "function_index", "at",
/// "source"}, "variable", "executions", "definitions": [{"kind", "place", "count"}]}.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp dataflow reaching prog.twpp --module prog.wasm --at 0x1a2b --global 0")]
pub struct ReachingOpts {
    /// A file written by `wpp twpp build`.
    file: PathBuf,
    /// The module the profile was recorded from.
    #[arg(long, value_name = "M.wasm")]
    module: PathBuf,
    /// The point, before an instruction: FUNC:0xOFF or 0xOFF (a module byte offset),
    /// FUNC:bN or bN (block N of FUNC or of --func), or FILE:LINE (its first instruction
    /// in --func).
    #[arg(long, value_name = "POINT")]
    at: String,
    /// The function, by name or index (needed with a block or FILE:LINE).
    #[arg(long, value_name = "F")]
    func: Option<String>,
    /// The local variable, by index (parameters first).
    #[arg(long, value_name = "N", conflicts_with = "global", required_unless_present = "global")]
    local: Option<u32>,
    /// The global variable, by index.
    #[arg(long, value_name = "N")]
    global: Option<u32>,
    #[command(flatten)]
    output: crate::Json,
}

pub fn reaching(o: ReachingOpts) -> anyhow::Result<()> {
    let a = open(&o.file, &o.module)?;
    let var = match (o.local, o.global) {
        (Some(l), _) => Var::Local(l),
        (None, Some(g)) => Var::Global(g),
        (None, None) => unreachable!("clap requires one"),
    };
    let report = a.reaching(a.point(&o.at, o.func.as_deref())?, var, &mut crate::Bar::on_terminal())?;
    if o.output.json {
        return crate::print_json(&Out { module: o.module.display().to_string(), report });
    }
    wpp_text::dataflow::reaching(&mut std::io::stdout().lock(), &report)?;
    Ok(())
}
