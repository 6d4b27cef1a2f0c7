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
    c.add_dcg(&crate::dcg::to_numbers(&p.dcg));
    for (func, traces) in p.traces.iter() {
        if traces.traces.is_empty() {
            continue;
        }
        let numbering = numberings.get(func).expect("a function that ran has a numbering");
        c.add_function(functions.get(func.idx()).and_then(|f| f.cfg.as_ref()), &FunctionPart::of(traces, numbering));
    }
    c
}

impl Compaction {
    /// Counts the call graph's stream ([`crate::dcg::to_numbers`]) and its compressed sizes.
    pub fn add_dcg(&mut self, numbers: &[u32]) {
        let (alphabet, codes) = crate::dcg::lzw_encode(numbers);
        let grammar = crate::dcg::grammar_encode(numbers, &alphabet);
        self.dcg_sizes(numbers.len(), alphabet.len(), codes.len(), grammar.len());
    }

    /// Counts a call graph's stream of `numbers` numbers over an alphabet of `alphabet`:
    /// `lzw_codes` LZW codes, or a grammar of `grammar_bytes` bytes.
    pub fn dcg_sizes(&mut self, numbers: usize, alphabet: usize, lzw_codes: usize, grammar_bytes: usize) {
        self.dcg_numbers = numbers as u64;
        self.dcg_lzw_bytes = crate::dcg::lzw_bytes(alphabet, lzw_codes);
        self.dcg_grammar_bytes = grammar_bytes as u64 + 4 * alphabet as u64;
    }

    /// Counts a function that ran: its CFG and its part.
    pub fn add_function(&mut self, cfg: Option<&wpp_model::Cfg>, part: &FunctionPart) {
        self.functions += 1;
        if let Some(cfg) = cfg {
            self.static_nodes += cfg.n_blocks() as u64;
            self.static_edges += cfg.edges.len() as u64;
        }
        self.distinct_traces += part.pairs.len() as u64;
        self.distinct_blocks += part.pairs.iter().map(|p| p.blocks).sum::<u64>();
        self.wpp_blocks += part.pairs.iter().map(|p| p.blocks * p.calls).sum::<u64>();
        self.dictionaries += part.dictionaries.len() as u64;
        self.dictionary_numbers += part.dictionaries.iter().flat_map(|d| &d.chains).map(|ch| ch.len() as u64 + 1).sum::<u64>();
        self.dbb_traces += part.traces.len() as u64;
        for t in &part.traces {
            self.dbb_heads += t.len as u64;
            self.twpp_numbers += t.numbers() as u64 + 1;
            self.dynamic_nodes += t.blocks.len() as u64;
            self.series += t.n_series() as u64;
            self.timestamps += t.len as u64;
            let heads = untimestamp(t).expect("a trace just timestamped covers its steps");
            let edges: FxHashSet<(BlockIdx, BlockIdx)> = heads.windows(2).map(|w| (w[0], w[1])).collect();
            self.dynamic_edges += edges.len() as u64;
        }
    }

    /// Its numbers in a fixed order (as a TWPP file stores them).
    pub fn to_numbers(&self) -> [u64; 20] {
        [
            self.events,
            self.invocations,
            self.functions,
            self.wpp_blocks,
            self.distinct_traces,
            self.distinct_blocks,
            self.dbb_traces,
            self.dbb_heads,
            self.dictionaries,
            self.dictionary_numbers,
            self.twpp_numbers,
            self.dcg_numbers,
            self.dcg_lzw_bytes,
            self.dcg_grammar_bytes,
            self.static_nodes,
            self.static_edges,
            self.dynamic_nodes,
            self.dynamic_edges,
            self.series,
            self.timestamps,
        ]
    }

    /// The sizes again from [`Compaction::to_numbers`].
    pub fn from_numbers(n: &[u64; 20]) -> Compaction {
        Compaction {
            events: n[0],
            invocations: n[1],
            functions: n[2],
            wpp_blocks: n[3],
            distinct_traces: n[4],
            distinct_blocks: n[5],
            dbb_traces: n[6],
            dbb_heads: n[7],
            dictionaries: n[8],
            dictionary_numbers: n[9],
            twpp_numbers: n[10],
            dcg_numbers: n[11],
            dcg_lzw_bytes: n[12],
            dcg_grammar_bytes: n[13],
            static_nodes: n[14],
            static_edges: n[15],
            dynamic_nodes: n[16],
            dynamic_edges: n[17],
            series: n[18],
            timestamps: n[19],
        }
    }
}
