//! `wpp dataflow`: demand-driven data flow queries on a TWPP file, with the module it was
//! recorded from.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use wpp_dataflow::query::open;

mod reaching;

/// Data flow over the run, from a TWPP file: every execution of a point answered
/// exactly, by the site that generated or killed the fact.
///
/// Needs the module the profile was recorded from (its SHA-256 is checked), for the
/// instructions' definitions, loads and stores. Points and sites are instructions by
/// module byte offset (`0x1a2b`, as `wasm-objdump -d` shows them) or `FILE:LINE` when the
/// module has DWARF.
#[derive(Args)]
pub struct Opts {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Redundancy(RedundancyOpts),
    Reaching(reaching::ReachingOpts),
}

/// How often each load was redundant: its bytes already loaded or stored at the same
/// address expression with nothing in between that may have changed them.
///
/// An address expression is a constant, or a local or global plus a constant; a store
/// through any other pointer, a store in a callee that may alias, a bulk write, a call to
/// an import, or a new value of the variable the address depends on ends the
/// availability. Loads whose address is computed otherwise are not followed (the report
/// says how many). Most redundant executions first. With --json: {"module", "loads":
/// [{"load": {"function", "function_index", "at", "source"}, "address", "executions",
/// "redundant", "available_from": [{"kind", "place", "count"}], "killed_by": [...]}],
/// "untracked_loads", "never_ran_loads", "truncated", "total_loads"}; `kind` is `instruction` (with its
/// `place`), `entry` (the variable the address depends on got its value at entry),
/// `init` (nothing before in the run) or `import` (a call to an import).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  wpp dataflow redundancy lua.twpp --module lua.wasm --func luaH_getshortstr\n  wpp dataflow redundancy fig9.twpp --module fig9.wasm --load fig9.c:21"
)]
struct RedundancyOpts {
    /// A file written by `wpp twpp build`.
    file: PathBuf,
    /// The module the profile was recorded from.
    #[arg(long, value_name = "M.wasm")]
    module: PathBuf,
    /// Every load of this function (name or index).
    #[arg(long, value_name = "F", required_unless_present = "load")]
    func: Option<String>,
    /// The loads of a program point: FUNC:0xOFF or 0xOFF (the load at a module byte
    /// offset), FUNC:bN or bN (a block's loads, of FUNC or of --func), FILE:LINE (a source
    /// line's, in --func if given) or FUNC (a function's).
    #[arg(long, value_name = "POINT")]
    load: Option<String>,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(serde::Serialize)]
struct Out<R> {
    pub module: String,
    #[serde(flatten)]
    pub report: R,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    match o.command {
        Command::Redundancy(o) => redundancy(o),
        Command::Reaching(o) => reaching::reaching(o),
    }
}

fn redundancy(o: RedundancyOpts) -> anyhow::Result<()> {
    let a = open(&o.file, &o.module)?;
    let report = a.redundancy(a.select_loads(o.func.as_deref(), o.load.as_deref())?, o.output.top(), &mut crate::Bar::on_terminal())?;
    if o.output.json {
        return crate::print_json(&Out { module: o.module.display().to_string(), report });
    }
    wpp_text::dataflow::redundancy(&mut std::io::stdout().lock(), &report)?;
    Ok(())
}
