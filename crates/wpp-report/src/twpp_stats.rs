//! What a TWPP file holds and what each compaction step saved (`wpp twpp stats`), sizes
//! counted in 4-byte numbers as Zhang & Gupta count them.

use std::collections::BTreeMap;

use serde::Serialize;
use wpp_twpp::Twpp;

use crate::Error;

/// The sizes of a TWPP's compaction steps.
#[derive(Clone, Debug, Serialize)]
pub struct TwppStats {
    pub events: u64,
    pub invocations: u64,
    pub functions: u64,
    pub distinct_traces: u64,
    /// Invocations open when the trace ended (ended there).
    pub open_at_end: u64,
    /// Choices between a loop iteration and a return the events could not decide.
    pub ambiguous: u64,
    /// Every invocation's block trace.
    pub wpp_bytes: u64,
    /// Each function's distinct traces.
    pub dedup_bytes: u64,
    /// Those with dynamic basic blocks collapsed, with their dictionaries.
    pub dbb_bytes: u64,
    /// Their timestamped form, with the dictionaries.
    pub twpp_bytes: u64,
    pub dcg_bytes: u64,
    pub dcg_lzw_bytes: u64,
    pub dcg_grammar_bytes: u64,
    /// WPP traces and call graph against TWPP traces, dictionaries and compressed call
    /// graph.
    pub overall_factor: f64,
    pub static_nodes: u64,
    pub static_edges: u64,
    /// Summed over distinct traces.
    pub dynamic_nodes: u64,
    pub dynamic_edges: u64,
    /// Series per dynamic block.
    pub mean_series: f64,
    /// Timestamps per dynamic block.
    pub mean_timestamps: f64,
    /// The file's sections and their sizes.
    pub sections: BTreeMap<String, u64>,
}

/// The statistics of `twpp`, as measured when it was built (its statistics section and
/// index; nothing else is read).
pub fn twpp_stats(twpp: &Twpp) -> Result<TwppStats, Error> {
    let c = twpp.stats()?;
    let p = &twpp.index;
    let per_node = |x: u64| x as f64 / c.dynamic_nodes.max(1) as f64;
    Ok(TwppStats {
        events: c.events,
        invocations: c.invocations,
        functions: c.functions,
        distinct_traces: c.distinct_traces,
        open_at_end: p.open_at_end,
        ambiguous: p.ambiguous,
        wpp_bytes: 4 * c.wpp_blocks,
        dedup_bytes: 4 * c.distinct_blocks,
        dbb_bytes: 4 * (c.dbb_heads + c.dictionary_numbers),
        twpp_bytes: 4 * (c.twpp_numbers + c.dictionary_numbers),
        dcg_bytes: 4 * c.dcg_numbers,
        dcg_lzw_bytes: c.dcg_lzw_bytes,
        dcg_grammar_bytes: c.dcg_grammar_bytes,
        overall_factor: c.wpp_total() as f64 / c.twpp_total().max(1) as f64,
        static_nodes: c.static_nodes,
        static_edges: c.static_edges,
        dynamic_nodes: c.dynamic_nodes,
        dynamic_edges: c.dynamic_edges,
        mean_series: per_node(c.series),
        mean_timestamps: per_node(c.timestamps),
        sections: twpp.profile.toc.iter().map(|e| (e.name.clone(), e.len)).collect(),
    })
}
