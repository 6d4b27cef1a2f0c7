//! `wpp trace`: one function's traces from a TWPP file.

use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use wpp_model::BlockIdx;
use wpp_report::format::group;
use wpp_twpp::timestamps::Series;
use wpp_twpp::Twpp;

/// Print a function's distinct traces from a TWPP file, reading its part only.
///
/// Each distinct trace (most invocations first) with how many invocations followed it,
/// its blocks (with source lines when the module had DWARF), its dynamic basic blocks
/// (chains of blocks always run together), and its timestamped form: each dynamic block
/// with the steps it ran at, as `l`, `l:h` (every step from l to h) or `l:h:s` (every
/// s-th), and who made those invocations. With --call N, only the trace of F's N-th
/// invocation (from 1, in the order the run made them) and its caller. With --json:
/// {"function", "function_index", "invocations", "call": null or {"n", "caller"},
/// "traces": [{"trace", "invocations", "callers": [{"function", "function_index",
/// "invocations"}], "blocks", "source", "dynamic_blocks": [[block, ...]], "timestamps":
/// [{"block", "steps": ["l", "l:h", "l:h:s"]}]}], "truncated", "total_traces"}, every
/// trace; a caller `(host)` (function_index null) is the host calling the program.
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
    /// Show at most N traces as text, 0 for all [default: 10; JSON has all unless given].
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(serde::Serialize)]
struct Stamp {
    block: u32,
    steps: Vec<String>,
}

#[derive(serde::Serialize)]
struct CallerRow {
    function: String,
    function_index: Option<u32>,
    invocations: u64,
}

#[derive(serde::Serialize)]
struct CallInfo {
    n: u64,
    caller: String,
}

#[derive(serde::Serialize)]
struct TraceRow {
    /// The distinct trace's number in the function's part (from 0).
    trace: usize,
    invocations: u64,
    callers: Vec<CallerRow>,
    blocks: Vec<u32>,
    source: Vec<String>,
    dynamic_blocks: Vec<Vec<u32>>,
    timestamps: Vec<Stamp>,
}

#[derive(serde::Serialize)]
struct Report {
    function: String,
    function_index: u32,
    invocations: u64,
    call: Option<CallInfo>,
    traces: Vec<TraceRow>,
    truncated: bool,
    total_traces: usize,
}

fn series(s: &Series) -> String {
    match s.step {
        0 => s.lo.to_string(),
        1 => format!("{}:{}", s.lo, s.hi),
        step => format!("{}:{}:{step}", s.lo, s.hi),
    }
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let twpp = Twpp::open(&o.file)?;
    let f = wpp_report::select_func(&twpp.profile, &o.func)?;
    let name = twpp.profile.meta.functions[f.idx()].name.clone();
    let Some(entry) = twpp.index.functions.iter().find(|e| e.func == f) else {
        anyhow::bail!("{}: function {name} never ran in this run", o.file.display());
    };
    let part = twpp.function(f)?;
    let Some(blocks) = part.block_traces() else {
        anyhow::bail!("{}: damaged TWPP file: function {name}: a trace claims a step twice", o.file.display());
    };
    let cfg = twpp.profile.meta.functions[f.idx()].cfg.as_ref().expect("a function that ran has code");
    let source = |b: BlockIdx| -> String {
        let line = twpp.profile.source.as_ref().and_then(|s| s.blocks.get(f.idx())?.get(b.idx()).copied().flatten().and_then(|r| s.format(r)));
        line.unwrap_or_else(|| {
            let block = &cfg.blocks[b.idx()];
            format!("{}+0x{:x}-0x{:x}", twpp.profile.meta.module, block.start, block.end)
        })
    };
    let dcg = twpp.dcg()?;
    let callers = dcg.callers(f);
    let fname = |c: wpp_twpp::partition::Caller| match c {
        Some(g) => twpp.profile.meta.functions.get(g.idx()).map_or_else(|| g.to_string(), |fun| fun.name.clone()),
        None => "(host)".to_string(),
    };
    let mut rows: Vec<TraceRow> = part
        .pairs
        .iter()
        .zip(&blocks)
        .enumerate()
        .map(|(i, (pair, (bs, calls)))| {
            let t = &part.traces[pair.trace as usize];
            let mut src: Vec<String> = bs.iter().map(|&b| source(b)).collect();
            src.dedup();
            TraceRow {
                trace: i,
                invocations: *calls,
                callers: callers
                    .get(i)
                    .map(|v| v.iter().map(|&(c, n)| CallerRow { function: fname(c), function_index: c.map(|g| g.0), invocations: n }).collect())
                    .unwrap_or_default(),
                blocks: bs.iter().map(|b| b.0).collect(),
                source: src,
                dynamic_blocks: part.dictionaries[pair.dictionary as usize].chains.iter().map(|c| c.iter().map(|b| b.0).collect()).collect(),
                timestamps: t.blocks.iter().map(|(b, s)| Stamp { block: b.0, steps: s.iter().map(series).collect() }).collect(),
            }
        })
        .collect();
    let call = match o.call {
        Some(n) => {
            let Some((node, caller)) = dcg.nth_invocation(f, n) else {
                anyhow::bail!("{}: function {name} was invoked {} times; there is no invocation {n}", o.file.display(), entry.invocations);
            };
            let trace = dcg.nodes[node as usize].trace.0 as usize;
            rows.retain(|r| r.trace == trace);
            Some(CallInfo { n, caller: fname(caller) })
        }
        None => None,
    };
    rows.sort_by_key(|r| std::cmp::Reverse(r.invocations));
    let total = rows.len();
    let limit = match (o.top, o.json) {
        (Some(0), _) | (None, true) => total,
        (Some(n), _) => n,
        (None, false) => 10,
    };
    rows.truncate(limit);
    let report =
        Report { function: name, function_index: f.0, invocations: entry.invocations, call, truncated: rows.len() < total, total_traces: total, traces: rows };
    if o.json {
        return crate::print_json(&report);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{} (function {}): {} invocations, {} distinct traces", report.function, report.function_index, group(report.invocations), part.pairs.len())?;
    if let Some(c) = &report.call {
        writeln!(out, "invocation {} was called by {}", group(c.n), c.caller)?;
    }
    for r in &report.traces {
        writeln!(out, "\ntrace {}: {} invocations, {} blocks", r.trace, group(r.invocations), group(r.blocks.len() as u64))?;
        let by: Vec<String> = r.callers.iter().take(6).map(|c| format!("{} ({})", c.function, group(c.invocations))).collect();
        writeln!(out, "  called by   {}{}", by.join(", "), if r.callers.len() > 6 { format!(", ... {} more", r.callers.len() - 6) } else { String::new() })?;
        let shown: Vec<String> = r.source.iter().take(12).cloned().collect();
        writeln!(out, "  source      {}{}", shown.join(" "), if r.source.len() > 12 { format!(" ... ({} more)", r.source.len() - 12) } else { String::new() })?;
        if !r.dynamic_blocks.is_empty() {
            let chains: Vec<String> = r.dynamic_blocks.iter().take(8).map(|c| c.iter().map(|b| b.to_string()).collect::<Vec<_>>().join("-")).collect();
            writeln!(out, "  dynamic     {}{}", chains.join(" "), if r.dynamic_blocks.len() > 8 { " ..." } else { "" })?;
        }
        for s in r.timestamps.iter().take(12) {
            let steps: Vec<&str> = s.steps.iter().take(8).map(String::as_str).collect();
            writeln!(
                out,
                "  block {:<5} {}{}",
                s.block,
                steps.join(" "),
                if s.steps.len() > 8 { format!(" ... ({} series)", s.steps.len()) } else { String::new() }
            )?;
        }
        if r.timestamps.len() > 12 {
            writeln!(out, "  ... {} more blocks (--json has every one)", r.timestamps.len() - 12)?;
        }
    }
    if report.truncated {
        writeln!(out, "\nshowing {} of {total} traces; --top 0 for all", report.traces.len())?;
    }
    Ok(())
}
