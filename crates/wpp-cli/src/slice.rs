//! `wpp slice`: a dynamic slice on a TWPP file, with the module it was recorded from.

use std::path::PathBuf;

use clap::Args;
use wpp_dataflow::slice::{open, Which};
use wpp_report::slice::SliceReport;

/// Why a variable has its value at one execution of an instruction: the executions of
/// instructions that influenced it in this run, and nothing else (a precise dynamic
/// slice, Agrawal and Horgan's approach 3).
///
/// The slice follows the value back through the locals, globals and operand stack that
/// computed it, across calls (a parameter to the argument passed, a call's result to what
/// the callee returned, a global through the callees that set it), and through control:
/// an execution depends on the branch that decided it ran, or on the call that made its
/// invocation; through memory when the TWPP keeps the run's memory dependences (built from
/// `wpp record --mode addresses` or `--mode ewpp`): a load depends on the writes whose
/// bytes it read (otherwise a load's value ends the slice, and the listing says so). Each
/// dependence is found on demand over the timestamps of the TWPP.
///
/// The listing shows, by source line in code order (by function without DWARF), each
/// instruction of the slice with how many of its executions are in the slice and the
/// dependences that put them there. With --json: {"module", "criterion": {"place",
/// "variable", "execution", "executions", "defined_by", "bytes" (memory: [{"first", "len",
/// "from", "execution"}])}, "algorithm", "follows_memory",
/// "statements", "source_lines", "instances", "lines": [{"function", "function_index",
/// "source", "instructions": [{"at", "text", "instances", "deps": [{"kind", "register",
/// "from": {"kind", "place", "text"}, "count"}]}]}], "truncated", "total_lines"}. With
/// --html OUT.html: the slice as a page (every line unless --top), and a summary line.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  wpp slice prog.twpp --module prog.wasm --at main:0x1a2b --var local:3\n  wpp slice prog.twpp --module prog.wasm --at prog.c:14 --var total --instance 3 --html slice.html"
)]
pub struct Opts {
    /// A file written by `wpp twpp build`.
    file: PathBuf,
    /// The module the profile was recorded from.
    #[arg(long, value_name = "M.wasm")]
    module: PathBuf,
    /// The instruction, a program point: FUNC:0xOFF or 0xOFF (a module byte offset),
    /// FUNC:bN (block N's first instruction), or FILE:LINE (its first instruction, or with
    /// a variable's name, the first of the line's instructions, in any function it is
    /// inlined into, where the variable is in a register, else the first right after the
    /// line's code where it is; the output names the instruction chosen).
    #[arg(long, value_name = "POINT")]
    at: String,
    /// The variable whose value just before the instruction is sliced: a source
    /// variable's name (from DWARF, where it is in a local or global there), local:N
    /// (parameters first), global:N, or mem:ADDR[:LEN] (LEN bytes of linear memory, 4 if
    /// not given: the writes that put them there last).
    #[arg(long, value_name = "VAR")]
    var: String,
    /// Which execution of the instruction, from 1 in run order [default: the last].
    #[arg(long, value_name = "K", conflicts_with = "last")]
    instance: Option<u64>,
    /// The last execution of the instruction (the default).
    #[arg(long)]
    last: bool,
    /// Agrawal and Horgan's approach: 3, the precise slice (the executions that
    /// influenced the value); 2, every execution of each instruction reached (the
    /// dependences exercised, a superset); 1, the static slice over the executed
    /// instructions (any definition that reaches along executed blocks, a superset of 2).
    #[arg(long, value_name = "1|2|3", default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=3))]
    algorithm: u8,
    /// Write the slice as a page: the source, the slice's lines highlighted, each
    /// instruction linked to what it depends on.
    #[arg(long, value_name = "OUT.html")]
    html: Option<PathBuf>,
    /// Neither read nor write the dependence cache (FILE.deps, beside the TWPP: the
    /// dependences precise slices found, which later slices of the run reuse).
    #[arg(long)]
    no_cache: bool,
    /// The most memory the slice may hold (K, M or G suffixes; 0 for no limit): a slice
    /// that outgrows it stops with an error saying how far it got, rather than exhausting
    /// the machine [default: 80% of the memory available when it starts].
    #[arg(long, value_name = "SIZE", value_parser = wpp_record::options::parse_size)]
    max_memory: Option<usize>,
    #[command(flatten)]
    output: crate::Output,
}

#[derive(serde::Serialize)]
struct Out {
    module: String,
    #[serde(flatten)]
    report: SliceReport,
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut s = open(&o.file, &o.module)?;
    let limit = match o.max_memory {
        Some(0) => None,
        Some(n) => Some(n as u64),
        None => wpp_dataflow::slice::memory_available().map(|a| a / 10 * 8),
    };
    if let Some(limit) = limit {
        s.limit_memory(limit, wpp_dataflow::slice::resident_memory);
    }
    o.html.as_deref().map(wpp_profile::check_writable).transpose()?;
    let (func, at, var, named) = s.criterion(&o.at, &o.var)?;
    let which = o.instance.map_or(Which::Last, Which::Nth);
    // A page has every line unless --top says otherwise.
    let top = if o.html.is_some() { wpp_report::Top::of(o.output.top, true) } else { o.output.top() };
    let cache = (!o.no_cache).then(|| wpp_dataflow::slice::cache_path(&o.file));
    let (mut report, used) = s.slice(func, at, var, which, o.algorithm, top, cache.as_deref(), &mut crate::Bar::on_terminal()).map_err(|e| match e {
        wpp_dataflow::Error::Query(wpp_twpp::run::Error::OverMemory { used, limit, nodes }) => {
            use wpp_report::format::group;
            anyhow::anyhow!(
                "{}: the slice outgrew the memory allowed it: {} MiB in use after {} of its executions, over the {} MiB of --max-memory (80% of the memory available at the start unless given); an earlier execution (--instance K) has a smaller slice",
                o.file.display(),
                group(used >> 20),
                group(nodes),
                group(limit >> 20)
            )
        }
        e => anyhow::Error::new(e),
    })?;
    if let Some(said) = used.and_then(|u| u.summary()) {
        wpp_text::slice::cache(&mut std::io::stderr().lock(), &said)?;
    }
    // A variable in the stack frame is named with the bytes it was found at.
    report.criterion.variable = match var {
        wpp_dataflow::slice::Var::Frame { .. } => format!("{named}: {}", report.criterion.variable),
        _ => named,
    };
    if let Some(page) = &o.html {
        wpp_html::slice::write(&report, &o.module.display().to_string(), page)?;
        if !o.output.json {
            wpp_text::slice::wrote(&mut std::io::stdout().lock(), &report, page)?;
            return Ok(());
        }
    }
    if o.output.json {
        return crate::print_json(&Out { module: o.module.display().to_string(), report });
    }
    wpp_text::slice::render(&mut std::io::stdout().lock(), &report)?;
    Ok(())
}
