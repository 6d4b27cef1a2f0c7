//! `wpp trace`: one function's traces from a TWPP file.

use std::path::PathBuf;

use clap::Args;
use wpp_twpp::Twpp;

/// Print a function's distinct traces from a TWPP file, reading its part only.
///
/// Each distinct trace (most invocations first) with how many invocations followed it and
/// who made them, how many blocks it ran, the source lines it ran (when the module had
/// DWARF; each once, in the order first run), its dynamic basic blocks (chains of blocks
/// always run together), and its timestamped form: each dynamic block with the steps it
/// ran at, as `l`, `l:h` (every step from l to h) or `l:h:s` (every s-th). With --call N,
/// only the trace of F's N-th invocation (from 1, in the order the run made them) and its
/// caller. Reads F's part of the file and its callers, nothing else. With --json:
/// {"function", "function_index", "invocations", "call": null or {"n", "caller"},
/// "traces": [{"trace", "invocations", "callers": [{"function", "function_index",
/// "invocations"}], "length", "blocks": [every block in order], "source",
/// "dynamic_blocks": [[block, ...]], "timestamps": [{"block", "steps": ["l", "l:h",
/// "l:h:s"]}]}], "truncated", "total_traces"}, every trace; a caller `(host)`
/// (function_index null) is the host calling the program.
#[derive(Args)]
#[command(after_help = "Example:\n  wpp trace lua.twpp --func luaH_get --json")]
pub struct Opts {
    /// A file written by `wpp twpp build`.
    file: PathBuf,
    /// The function, by name or index.
    #[arg(long, value_name = "F")]
    func: String,
    /// Only the trace of F's N-th invocation (from 1, in the order the run made them).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    call: Option<u64>,
    #[command(flatten)]
    output: crate::Output,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let twpp = Twpp::open(&o.file)?;
    let f = wpp_report::select_func(&twpp.profile, &o.func)?;
    let report = wpp_report::traces(&twpp, f, o.call, o.output.top(), o.output.json)?;
    if o.output.json {
        return crate::print_json(&report);
    }
    wpp_text::trace::render(&mut std::io::stdout().lock(), &report)?;
    Ok(())
}
