//! Compressing path events into a grammar while the guest runs.

use rustc_hash::FxHashMap;
use wpp_grammar::{Grammar, Sequitur};
use wpp_model::{EventDecoder, PathEvent};
use wpp_profile::Builder;

/// Numbers paths as dense terminal symbols in order of first execution.
pub struct SymbolTable {
    /// Per function with few paths, the symbol of each path (`NONE` if not yet seen).
    dense: Vec<Vec<u32>>,
    sparse: FxHashMap<PathEvent, u32>,
    /// The path of each symbol.
    pub paths: Vec<PathEvent>,
}

const NONE: u32 = u32::MAX;
/// Functions with at most this many paths get a direct lookup array.
const DENSE_MAX_PATHS: u64 = 1 << 12;

impl SymbolTable {
    pub fn for_numberings(numberings: &[Option<wpp_paths::Numbering>]) -> Self {
        let dense = numberings
            .iter()
            .map(|n| match n {
                Some(n) if n.n_paths() <= DENSE_MAX_PATHS => vec![NONE; n.n_paths() as usize],
                _ => Vec::new(),
            })
            .collect();
        SymbolTable { dense, sparse: FxHashMap::default(), paths: Vec::new() }
    }

    #[inline]
    pub fn symbol(&mut self, e: PathEvent) -> u32 {
        let next = self.paths.len() as u32;
        let slot = match self.dense.get_mut(e.func.idx()).and_then(|a| a.get_mut(e.path.0 as usize)) {
            Some(s) => s,
            None => self.sparse.entry(e).or_insert(NONE),
        };
        if *slot == NONE {
            *slot = next;
            self.paths.push(e);
        }
        *slot
    }
}

/// A grammar builder of any kind.
pub enum GrammarBuilder {
    Online(Sequitur),
    RePair(wpp_grammar::RePairBlocks),
}

/// Re-Pair works on blocks of this many symbols, so its memory stays bounded.
pub const REPAIR_BLOCK: usize = 1 << 24;

impl GrammarBuilder {
    /// A builder; the online ones with rule prediction if `predict`.
    pub fn new(b: Builder, predict: bool) -> Self {
        let online = |s: Sequitur| GrammarBuilder::Online(if predict { s.predicting() } else { s });
        match b {
            Builder::Sequitur => online(Sequitur::new()),
            Builder::Sequitur1 => online(Sequitur::with_lookahead()),
            Builder::RePair => GrammarBuilder::RePair(wpp_grammar::RePairBlocks::new(REPAIR_BLOCK)),
        }
    }

    #[inline]
    pub fn push(&mut self, t: u32) {
        match self {
            GrammarBuilder::Online(s) => s.push(t),
            GrammarBuilder::RePair(r) => r.push(t),
        }
    }

    pub fn finish(self) -> Grammar {
        self.finish_measured().0
    }

    /// The grammar and the builder's peak memory in bytes.
    pub fn finish_measured(self) -> (Grammar, usize) {
        match self {
            GrammarBuilder::Online(s) => {
                // Its buffers only grow, so their size at the end is the peak.
                let m = s.memory_bytes();
                (s.finish(), m)
            }
            GrammarBuilder::RePair(r) => {
                let (g, stats) = r.finish_with_stats();
                (g, stats.peak_bytes)
            }
        }
    }
}

/// Receives event words, numbers their paths, counts them and feeds the grammar builder.
pub struct GrammarSink {
    decoder: EventDecoder,
    pub symbols: SymbolTable,
    /// Executions per symbol.
    pub counts: Vec<u64>,
    pub builder: GrammarBuilder,
    pub n_events: u64,
    /// Set when more distinct paths ran than a grammar can number.
    overflow: bool,
}

impl GrammarSink {
    pub fn new(numberings: &[Option<wpp_paths::Numbering>], builder: Builder, predict: bool) -> Self {
        GrammarSink {
            decoder: EventDecoder::default(),
            symbols: SymbolTable::for_numberings(numberings),
            counts: Vec::new(),
            builder: GrammarBuilder::new(builder, predict),
            n_events: 0,
            overflow: false,
        }
    }

    /// Whether the stream ended in the middle of a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event()
    }
}

impl wpp_runtime::EventSink for GrammarSink {
    fn events(&mut self, words: &[u64]) -> anyhow::Result<()> {
        let GrammarSink { decoder, symbols, counts, builder, n_events, overflow } = self;
        decoder.feed(words, |e| {
            let t = symbols.symbol(e);
            if t > wpp_grammar::MAX_TERMINAL {
                *overflow = true;
                return;
            }
            if t as usize == counts.len() {
                counts.push(0);
            }
            counts[t as usize] += 1;
            *n_events += 1;
            builder.push(t);
        });
        anyhow::ensure!(!*overflow, "more than {} distinct paths: too many for one grammar", wpp_grammar::MAX_TERMINAL);
        Ok(())
    }
}
