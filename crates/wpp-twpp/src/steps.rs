//! What each step of the compaction saves (the paper's Tables 2, 3 and 6), measured on a
//! partition. Sizes are counted in numbers, one per block id, path id, timestamp or length,
//! as the paper counts 4-byte words; the on-disk encoding is smaller still.

use rustc_hash::FxHashSet;
use wpp_model::{BlockIdx, Function};
use wpp_paths::ProgramNumbering;

use crate::format::FunctionPart;
use crate::timestamps::untimestamp;
use crate::Partition;

/// The sizes after each step, in numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compaction {
    pub events: u64,
    pub invocations: u64,
    /// Functions that ran.
    pub functions: u64,
    /// Every invocation's block trace: the WPP's traces.
    pub wpp_blocks: u64,
    /// Each function's distinct block traces only (duplicate traces removed).
    pub distinct_traces: u64,
    pub distinct_blocks: u64,
    /// Distinct traces with dynamic basic blocks collapsed, themselves deduplicated, and
    /// their distinct dictionaries (chain blocks plus one length per chain).
    pub dbb_traces: u64,
    pub dbb_heads: u64,
    pub dictionaries: u64,
    pub dictionary_numbers: u64,
    /// The collapsed traces in compacted timestamped form: per block its id and its series
    /// (one, two or three numbers each), plus the trace's length.
    pub twpp_numbers: u64,
    /// The dynamic call graph uncompressed: per invocation its function, trace and number
    /// of calls, and per call where it was made ([`crate::dcg::to_numbers`]).
    pub dcg_numbers: u64,
    /// Bytes of that stream compressed by LZW (growing code width) and by SEQUITUR(1)
    /// (wpp's grammar encoding), each with its alphabet.
    pub dcg_lzw_bytes: u64,
    pub dcg_grammar_bytes: u64,
    /// Static flow graphs of the functions that ran, and the dynamic flow graphs of the
    /// distinct collapsed traces (nodes: dynamic basic blocks; edges: pairs that ran in
    /// sequence), summed.
    pub static_nodes: u64,
    pub static_edges: u64,
    pub dynamic_nodes: u64,
    pub dynamic_edges: u64,
    /// Over all nodes of the dynamic flow graphs: series (compacted timestamp vectors) and
    /// timestamps (uncompacted).
    pub series: u64,
    pub timestamps: u64,
}

impl Compaction {
    /// The call graph compressed the better way, in numbers (bytes / 4).
    pub fn dcg_compressed(&self) -> u64 {
        self.dcg_lzw_bytes.min(self.dcg_grammar_bytes).div_ceil(4)
    }

    /// Numbers of the whole TWPP: traces, dictionaries and the compressed call graph.
    pub fn twpp_total(&self) -> u64 {
        self.twpp_numbers + self.dictionary_numbers + self.dcg_compressed()
    }

    /// Numbers of the uncompacted WPP: every invocation's blocks and the call graph.
    pub fn wpp_total(&self) -> u64 {
        self.wpp_blocks + self.dcg_numbers
    }
}

/// Measures every step on `p`, a partition of a run of `functions` numbered by
/// `numberings`; each function's part is made as [`crate::build`] makes it.
pub fn measure(p: &Partition, functions: &[Function], numberings: &ProgramNumbering) -> Compaction {
    let mut c = Compaction { events: p.events, invocations: p.dcg.nodes.len() as u64, ..Compaction::default() };
    let numbers = crate::dcg::to_numbers(&p.dcg);
    c.dcg_numbers = numbers.len() as u64;
    let (alphabet, codes) = crate::dcg::lzw_encode(&numbers);
    c.dcg_lzw_bytes = crate::dcg::lzw_bytes(alphabet.len(), codes.len());
    c.dcg_grammar_bytes = crate::dcg::grammar_encode(&numbers, &alphabet).len() as u64 + 4 * alphabet.len() as u64;
    for (func, traces) in p.traces.iter() {
        if traces.traces.is_empty() {
            continue;
        }
        c.functions += 1;
        if let Some(cfg) = functions.get(func.idx()).and_then(|f| f.cfg.as_ref()) {
            c.static_nodes += cfg.n_blocks() as u64;
            c.static_edges += cfg.edges.len() as u64;
        }
        let numbering = numberings.get(func).expect("a function that ran has a numbering");
        let (part, lens) = FunctionPart::of(traces, numbering);
        c.distinct_traces += part.pairs.len() as u64;
        c.distinct_blocks += lens.iter().sum::<u64>();
        c.wpp_blocks += lens.iter().zip(&part.pairs).map(|(len, pair)| len * pair.calls).sum::<u64>();
        c.dictionaries += part.dictionaries.len() as u64;
        c.dictionary_numbers += part.dictionaries.iter().flat_map(|d| &d.chains).map(|ch| ch.len() as u64 + 1).sum::<u64>();
        c.dbb_traces += part.traces.len() as u64;
        for t in &part.traces {
            c.dbb_heads += t.len as u64;
            c.twpp_numbers += t.numbers() as u64 + 1;
            c.dynamic_nodes += t.blocks.len() as u64;
            c.series += t.n_series() as u64;
            c.timestamps += t.len as u64;
            let heads = untimestamp(t).expect("a trace just timestamped covers its steps");
            let edges: FxHashSet<(BlockIdx, BlockIdx)> = heads.windows(2).map(|w| (w[0], w[1])).collect();
            c.dynamic_edges += edges.len() as u64;
        }
    }
    c
}
