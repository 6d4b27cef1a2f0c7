//! Results of other analyses the page can show beside the profile's own: a timestamped
//! whole program path (read here from its file) and data flow frequencies (made by the
//! caller, from an analysis this crate does not know, in the neutral form below).

use std::path::PathBuf;

use wpp_model::{BlockIdx, FuncIdx};
use wpp_profile::Profile;
use wpp_twpp::Twpp;

use crate::Error;

/// One function of a TWPP: how many invocations its distinct traces stand for.
pub struct TwppFunction {
    pub func: FuncIdx,
    pub invocations: u64,
    pub distinct_traces: u32,
    /// Bytes of its section of the file.
    pub bytes: u64,
    /// Its most frequent block traces with their invocations (for the first functions
    /// only), each cut to its first blocks; the length before the cut.
    pub top_traces: Vec<(Vec<BlockIdx>, usize, u64)>,
}

/// The TWPP view: the whole program path reorganised by call.
pub struct TwppView {
    pub file: PathBuf,
    pub file_bytes: u64,
    pub events: u64,
    pub invocations: u64,
    pub functions: Vec<TwppFunction>,
    pub functions_total: usize,
}

/// Functions listed, functions whose traces are shown, traces each, blocks per trace.
const FUNCTIONS: usize = 40;
const WITH_TRACES: usize = 5;
const TRACES: usize = 3;
const TRACE_BLOCKS: usize = 48;

/// The view of the TWPP file `t`, which must be of the same run as `p`.
pub fn twpp_view(t: &Twpp, p: &Profile) -> Result<TwppView, Error> {
    let file = t.profile.path.clone();
    let same = t.profile.module_id()? == p.module_id()? && t.profile.meta.events == p.meta.events;
    if !same {
        return Err(Error::OtherRun { twpp: file, profile: p.path.clone() });
    }
    let twpp_error = |e: wpp_twpp::file::Error| Error::Twpp(Box::new(e));
    let mut functions = Vec::new();
    for (i, e) in t.index.functions.iter().take(FUNCTIONS).enumerate() {
        let name = wpp_twpp::file::section::function(e.func);
        let bytes = t.profile.toc.iter().find(|s| s.name == name).map_or(0, |s| s.len);
        let mut top_traces = Vec::new();
        if i < WITH_TRACES {
            let mut traces = t.block_traces(e.func).map_err(twpp_error)?;
            traces.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            for (blocks, n) in traces.into_iter().take(TRACES) {
                let len = blocks.len();
                top_traces.push((blocks.into_iter().take(TRACE_BLOCKS).collect(), len, n));
            }
        }
        functions.push(TwppFunction { func: e.func, invocations: e.invocations, distinct_traces: e.pairs, bytes, top_traces });
    }
    let file_bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    Ok(TwppView { file, file_bytes, events: t.index.events, invocations: t.index.invocations(), functions, functions_total: t.index.functions.len() })
}

/// What the page shows besides the profile's own analyses.
#[derive(Default)]
pub struct Extras {
    pub twpp: Option<TwppView>,
    /// Exact data flow frequencies at the points of one function (`wpp-dataflow`).
    pub dataflow: Option<wpp_report::dataflow::DffReport>,
}
