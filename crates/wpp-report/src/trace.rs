//! One function's distinct traces from a TWPP file (`wpp trace`): each with how many
//! invocations followed it and who made them, its blocks and source lines, its dynamic
//! basic blocks and its timestamped form; or the trace of one invocation.

use serde::Serialize;
use wpp_model::{BlockIdx, FuncIdx};
use wpp_twpp::timestamps::Series;
use wpp_twpp::Twpp;

use crate::source::block_source;
use crate::{Error, Top, Truncation};

/// A dynamic block with the steps it ran at.
#[derive(Clone, Debug, Serialize)]
pub struct Stamp {
    pub block: u32,
    /// Each series as `l`, `l:h` (every step from l to h) or `l:h:s` (every s-th).
    pub steps: Vec<String>,
}

/// A caller of the function and how many of its invocations it made.
#[derive(Clone, Debug, Serialize)]
pub struct CallerRow {
    /// `(host)` for the host calling the program.
    pub function: String,
    /// `None` for the host.
    pub function_index: Option<u32>,
    pub invocations: u64,
}

/// The invocation asked for and who made it.
#[derive(Clone, Debug, Serialize)]
pub struct CallInfo {
    pub n: u64,
    pub caller: String,
}

/// One distinct trace of the function.
#[derive(Clone, Debug, Serialize)]
pub struct TraceRow {
    /// The distinct trace's number in the function's part (from 0).
    pub trace: usize,
    pub invocations: u64,
    pub callers: Vec<CallerRow>,
    pub blocks: Vec<u32>,
    /// The blocks' source lines in order without repeats (or their byte ranges).
    pub source: Vec<String>,
    pub dynamic_blocks: Vec<Vec<u32>>,
    pub timestamps: Vec<Stamp>,
}

/// A function's traces, most invocations first.
#[derive(Clone, Debug, Serialize)]
pub struct TraceReport {
    pub function: String,
    pub function_index: u32,
    pub invocations: u64,
    pub call: Option<CallInfo>,
    pub traces: Vec<TraceRow>,
    #[serde(flatten)]
    pub truncation: Truncation,
    /// The function's distinct traces in all (also with `call`).
    #[serde(skip)]
    pub distinct_traces: usize,
}

fn series(s: &Series) -> String {
    match s.step {
        0 => s.lo.to_string(),
        1 => format!("{}:{}", s.lo, s.hi),
        step => format!("{}:{}:{step}", s.lo, s.hi),
    }
}

/// The traces of `f` in `twpp`, reading its part only (and the call graph); with `call`,
/// only the trace of its `call`-th invocation (from 1, in the order the run made them).
pub fn traces(twpp: &Twpp, f: FuncIdx, call: Option<u64>, top: Top) -> Result<TraceReport, Error> {
    let p = &twpp.profile;
    let name = p.meta.func_name(f);
    let unsuitable = |what: String| Error::Unsuitable { profile: p.path.clone(), what };
    let Some(entry) = twpp.index.functions.iter().find(|e| e.func == f) else {
        return Err(unsuitable(format!("function {name} never ran in this run")));
    };
    let part = twpp.function(f)?;
    let Some(blocks) = part.block_traces() else {
        return Err(unsuitable(format!("damaged TWPP file: function {name}: a trace claims a step twice")));
    };
    let dcg = twpp.dcg()?;
    let callers = dcg.callers(f);
    let fname = |c: wpp_twpp::partition::Caller| match c {
        Some(g) => p.meta.func_name(g),
        None => "(host)".to_string(),
    };
    let mut rows: Vec<TraceRow> = part
        .pairs
        .iter()
        .zip(&blocks)
        .enumerate()
        .map(|(i, (pair, (bs, calls)))| {
            let t = &part.traces[pair.trace as usize];
            let mut src: Vec<String> = bs.iter().map(|&b: &BlockIdx| block_source(p, f, b)).collect();
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
    let call = match call {
        Some(n) => {
            let Some((node, caller)) = dcg.nth_invocation(f, n) else {
                return Err(unsuitable(format!("function {name} was invoked {} times; there is no invocation {n}", entry.invocations)));
            };
            let trace = dcg.nodes[node as usize].trace.0 as usize;
            rows.retain(|r| r.trace == trace);
            Some(CallInfo { n, caller: fname(caller) })
        }
        None => None,
    };
    rows.sort_by_key(|r| std::cmp::Reverse(r.invocations));
    let mut truncation = Truncation::default();
    truncation.cut("traces", &mut rows, top);
    Ok(TraceReport { function: name, function_index: f.0, invocations: entry.invocations, call, traces: rows, truncation, distinct_traces: part.pairs.len() })
}
