//! One function's distinct traces from a TWPP file (`wpp trace`): each with how many
//! invocations followed it and who made them, its blocks and source lines, its dynamic
//! basic blocks and its timestamped form; or the trace of one invocation.

use rustc_hash::FxHashSet;
use serde::{Serialize, Serializer};
use wpp_model::{BlockIdx, FuncIdx};
use wpp_twpp::dbb::{expand, DbbTrace, Dictionary};
use wpp_twpp::timestamps::{untimestamp, Series, Timestamped};
use wpp_twpp::Twpp;

use crate::source::block_source;
use crate::{Error, Top, Truncation};

/// A dynamic block with the steps it ran at.
#[derive(Clone, Debug, Serialize)]
pub struct Stamp {
    pub block: u32,
    /// Each series, written as `l`, `l:h` (every step from l to h) or `l:h:s` (every s-th).
    #[serde(serialize_with = "series_strings")]
    pub steps: Vec<Series>,
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
    /// Blocks one invocation following it ran.
    pub length: u64,
    /// Those blocks in order, when asked for ([`traces`]' `blocks`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<u32>>,
    /// Each source line the trace ran (or its block's byte range), once, in the order the
    /// trace first ran it.
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

/// A series as `l`, `l:h` or `l:h:s`.
pub fn series(s: &Series) -> String {
    match s.step {
        0 => s.lo.to_string(),
        1 => format!("{}:{}", s.lo, s.hi),
        step => format!("{}:{}:{step}", s.lo, s.hi),
    }
}

fn series_strings<S: Serializer>(steps: &[Series], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(steps.iter().map(series))
}

/// The blocks of `t` under `dictionary` in the order the trace first ran them, each once.
fn first_run(t: &Timestamped, dictionary: &Dictionary) -> Vec<BlockIdx> {
    let mut heads: Vec<(u32, BlockIdx)> = t.blocks.iter().filter_map(|(b, s)| Some((s.first()?.lo, *b))).collect();
    heads.sort_unstable();
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    for (_, h) in heads {
        for &b in dictionary.chain(h).unwrap_or(std::slice::from_ref(&h)) {
            if seen.insert(b) {
                out.push(b);
            }
        }
    }
    out
}

/// The traces of `f` in `twpp`, reading its part and its callers only (a trace's body
/// only when its row is shown); with `call`, only the trace of its `call`-th invocation
/// (from 1, in the order the run made them). With `blocks`, each row holds its trace's
/// blocks in order (expanded: as long as the trace).
pub fn traces(twpp: &Twpp, f: FuncIdx, call: Option<u64>, top: Top, blocks: bool) -> Result<TraceReport, Error> {
    let p = &twpp.profile;
    let name = p.meta.func_name(f);
    let unsuitable = |what: String| Error::Unsuitable { profile: p.path.clone(), what };
    let Some(entry) = twpp.index.functions.iter().find(|e| e.func == f) else {
        return Err(unsuitable(format!("function {name} never ran in this run")));
    };
    let part = twpp.part(f)?;
    let callers = twpp.callers(&part)?;
    let fname = |c: wpp_twpp::partition::Caller| match c {
        Some(g) => p.meta.func_name(g),
        None => "(host)".to_string(),
    };
    let mut shown: Vec<usize> = (0..part.head.pairs.len()).collect();
    let call = match call {
        Some(n) => {
            let Some((pair, caller)) = twpp.nth_invocation(&part, n)? else {
                return Err(unsuitable(format!("function {name} was invoked {} times; there is no invocation {n}", entry.invocations)));
            };
            shown.retain(|&i| i == pair as usize);
            Some(CallInfo { n, caller: fname(caller) })
        }
        None => None,
    };
    shown.sort_by_key(|&i| (std::cmp::Reverse(part.head.pairs[i].calls), i));
    let mut truncation = Truncation::default();
    truncation.cut("traces", &mut shown, top);
    let mut rows = Vec::with_capacity(shown.len());
    for i in shown {
        let pair = part.head.pairs[i];
        let t = twpp.trace(&part, pair.trace as usize)?;
        let dictionary = &part.head.dictionaries[pair.dictionary as usize];
        let blocks = match blocks {
            true => {
                let Some(heads) = untimestamp(&t) else {
                    return Err(unsuitable(format!("damaged TWPP file: function {name}: a trace claims a step twice")));
                };
                Some(expand(&DbbTrace { heads, dictionary: dictionary.clone() }).iter().map(|b| b.0).collect())
            }
            false => None,
        };
        let mut source: Vec<String> = Vec::new();
        let mut lines = FxHashSet::default();
        for b in first_run(&t, dictionary) {
            let line = block_source(p, f, b);
            if lines.insert(line.clone()) {
                source.push(line);
            }
        }
        rows.push(TraceRow {
            trace: i,
            invocations: pair.calls,
            callers: callers
                .get(i)
                .map(|v| v.iter().map(|&(c, n)| CallerRow { function: fname(c), function_index: c.map(|g| g.0), invocations: n }).collect())
                .unwrap_or_default(),
            length: pair.blocks,
            blocks,
            source,
            dynamic_blocks: dictionary.chains.iter().map(|c| c.iter().map(|b| b.0).collect()).collect(),
            timestamps: t.blocks.into_iter().map(|(b, steps)| Stamp { block: b.0, steps }).collect(),
        });
    }
    Ok(TraceReport {
        function: name,
        function_index: f.0,
        invocations: entry.invocations,
        call,
        traces: rows,
        truncation,
        distinct_traces: part.head.pairs.len(),
    })
}
