//! The event sinks: what receives the instrumented guest's path events while it runs
//! ([`wpp_runtime::EventSink`] is the seam).
//!
//! * [`TraceStats`] decodes and counts them (and can keep them, for tests);
//! * [`ProfileSink`] writes them to a profile's trace section while counting them;
//! * [`GrammarSink`] numbers their paths as dense symbols ([`SymbolTable`]) and feeds a
//!   grammar builder ([`GrammarBuilder`]).

use rustc_hash::FxHashMap;
use wpp_grammar::{Grammar, RunLength, RunTerminals, Sequitur, Token};
use wpp_model::{EventDecoder, FuncIdx, PathEvent, PathId};
use wpp_profile::{section, Builder, Writer};
use wpp_runtime::{EventSink, PathCounts, SinkError};

/// Decodes events and counts each path: in a dense array per function when its path count
/// is known and small, in a hash map otherwise. It can also hash the order of the sequence
/// and keep the events (for tests).
#[derive(Default)]
pub struct TraceStats {
    decoder: EventDecoder,
    dense: Vec<Vec<u64>>,
    sparse: FxHashMap<(FuncIdx, PathId), u64>,
    pub n_events: u64,
    /// Order-sensitive hash of the sequence ([`wpp_paths::split::hash_event`]), if asked.
    pub sequence_hash: Option<u64>,
    pub events: Option<Vec<PathEvent>>,
}

/// Functions with at most this many paths are counted in a dense array.
const STATS_DENSE_MAX_PATHS: u64 = 1 << 16;

impl TraceStats {
    /// Counts only, all in a hash map.
    pub fn new() -> Self {
        TraceStats::default()
    }

    /// Counts with dense arrays sized from the functions' numberings.
    pub fn for_numberings(numberings: &wpp_paths::ProgramNumbering) -> Self {
        let dense = dense_arrays(numberings, STATS_DENSE_MAX_PATHS, 0);
        TraceStats { dense, ..Default::default() }
    }

    /// Also hash the order of events and, if `keep`, keep them all.
    pub fn checking_order(mut self, keep: bool) -> Self {
        self.sequence_hash = Some(wpp_paths::split::HASH_START);
        self.events = keep.then(Vec::new);
        self
    }

    /// Whether the stream ended in the middle of a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event()
    }

    /// Every path's count.
    pub fn counts(&self) -> PathCounts {
        let mut c: PathCounts = self.sparse.iter().map(|(&k, &v)| (k, v)).collect();
        for (f, arr) in self.dense.iter().enumerate() {
            for (p, &n) in arr.iter().enumerate() {
                if n != 0 {
                    c.insert((FuncIdx(f as u32), PathId(p as u64)), n);
                }
            }
        }
        c
    }
}

impl EventSink for TraceStats {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        let TraceStats { decoder, dense, sparse, n_events, sequence_hash, events } = self;
        let slow = sequence_hash.is_some() || events.is_some();
        decoder.feed(words, |e| {
            *n_events += 1;
            match dense.get_mut(e.func.idx()).and_then(|a| a.get_mut(e.path.0 as usize)) {
                Some(c) => *c += 1,
                None => *sparse.entry((e.func, e.path)).or_default() += 1,
            }
            if slow {
                if let Some(h) = sequence_hash.as_mut() {
                    *h = wpp_paths::split::hash_event(*h, e);
                }
                if let Some(v) = events.as_mut() {
                    v.push(e);
                }
            }
        });
        Ok(())
    }
}

/// Per function, `fill` for each of its paths if it has at most `max_paths`, else nothing
/// (its paths go to a hash map).
fn dense_arrays<T: Clone>(numberings: &wpp_paths::ProgramNumbering, max_paths: u64, fill: T) -> Vec<Vec<T>> {
    (0..numberings.n_functions() as u32)
        .map(|f| match numberings.get(FuncIdx(f)) {
            Some(n) if n.n_paths() <= max_paths => vec![fill.clone(); n.n_paths() as usize],
            _ => Vec::new(),
        })
        .collect()
}

/// Writes event words into the profile's trace section while counting them.
pub struct ProfileSink {
    pub writer: Writer,
    pub stats: TraceStats,
    bytes: Vec<u8>,
}

impl ProfileSink {
    /// Opens the trace section of `writer`.
    pub fn new(mut writer: Writer, stats: TraceStats) -> Self {
        writer.begin(section::TRACE);
        ProfileSink { writer, stats, bytes: Vec::new() }
    }
}

impl EventSink for ProfileSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        self.stats.events(words)?;
        self.bytes.clear();
        for w in words {
            self.bytes.extend_from_slice(&w.to_le_bytes());
        }
        self.writer.write(&self.bytes)?;
        Ok(())
    }
}

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
const SYMBOLS_DENSE_MAX_PATHS: u64 = 1 << 12;

impl SymbolTable {
    /// A table with direct lookup arrays sized from the functions' numberings.
    pub fn for_numberings(numberings: &wpp_paths::ProgramNumbering) -> Self {
        let dense = dense_arrays(numberings, SYMBOLS_DENSE_MAX_PATHS, NONE);
        SymbolTable { dense, sparse: FxHashMap::default(), paths: Vec::new() }
    }

    /// The symbol of path `e`, a new one if it is new.
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

/// A running grammar builder of the kind a [`Builder`] names, with the run-length front
/// end ([`wpp_grammar::RunTerminals`]) when asked: runs of one symbol reach the builder as
/// one stand-in terminal each, resolved into doubling rules when the grammar is finished.
pub struct GrammarBuilder {
    inner: Inner,
    runs: Option<Runs>,
}

enum Inner {
    Online(Sequitur),
    RePair(wpp_grammar::RePairBlocks),
}

struct Runs {
    collapse: RunLength,
    terminals: RunTerminals,
}

/// More distinct symbols and runs arrived than a grammar can number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrammarFull;

impl std::fmt::Display for GrammarFull {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "more than {} distinct paths and runs: too many for one grammar", wpp_grammar::MAX_TERMINAL)
    }
}

impl std::error::Error for GrammarFull {}

/// Re-Pair works on blocks of this many symbols, so its memory stays bounded.
pub const REPAIR_BLOCK: usize = 1 << 24;

impl GrammarBuilder {
    /// A builder; the online ones with rule prediction if `predict`.
    pub fn new(b: Builder, predict: bool) -> Self {
        let online = |s: Sequitur| Inner::Online(if predict { s.predicting() } else { s });
        let inner = match b {
            Builder::Sequitur => online(Sequitur::new()),
            Builder::Sequitur1 => online(Sequitur::with_lookahead()),
            Builder::RePair => Inner::RePair(wpp_grammar::RePairBlocks::new(REPAIR_BLOCK)),
        };
        GrammarBuilder { inner, runs: None }
    }

    /// With the run-length front end if `yes`.
    pub fn collapsing_runs(mut self, yes: bool) -> Self {
        self.runs = yes.then(|| Runs { collapse: RunLength::default(), terminals: RunTerminals::new() });
        self
    }

    #[inline]
    fn push_inner(&mut self, t: u32) {
        match &mut self.inner {
            Inner::Online(s) => s.push(t),
            Inner::RePair(r) => r.push(t),
        }
    }

    /// Appends one symbol.
    #[inline]
    pub fn push(&mut self, t: u32) -> Result<(), GrammarFull> {
        match &mut self.runs {
            None => {
                self.push_inner(t);
                Ok(())
            }
            Some(r) => match r.collapse.push(t) {
                Some(token) => self.push_token(token),
                None => Ok(()),
            },
        }
    }

    /// Appends `token.run` repetitions of `token.symbol`.
    #[inline]
    pub fn push_token(&mut self, token: Token) -> Result<(), GrammarFull> {
        match &mut self.runs {
            None => {
                for _ in 0..token.run {
                    self.push_inner(token.symbol);
                }
                Ok(())
            }
            Some(r) => {
                let t = r.terminals.terminal(token).ok_or(GrammarFull)?;
                self.push_inner(t);
                Ok(())
            }
        }
    }

    pub fn finish(self) -> Result<Grammar, GrammarFull> {
        Ok(self.finish_measured()?.0)
    }

    /// The grammar and the builder's peak memory in bytes.
    pub fn finish_measured(mut self) -> Result<(Grammar, usize), GrammarFull> {
        if let Some(last) = self.runs.as_mut().and_then(|r| r.collapse.finish()) {
            self.push_token(last)?;
        }
        let (g, mut bytes) = match self.inner {
            Inner::Online(s) => {
                // Its buffers only grow, so their size at the end is the peak.
                let m = s.memory_bytes();
                (s.finish(), m)
            }
            Inner::RePair(r) => {
                let (g, stats) = r.finish_with_stats();
                (g, stats.peak_bytes)
            }
        };
        Ok(match self.runs {
            Some(r) => {
                bytes += r.terminals.memory_bytes();
                (r.terminals.resolve(g), bytes)
            }
            None => (g, bytes),
        })
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
    pub fn new(numberings: &wpp_paths::ProgramNumbering, builder: Builder, predict: bool) -> Self {
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

    /// Every path's count.
    pub fn path_counts(&self) -> PathCounts {
        self.symbols.paths.iter().zip(&self.counts).map(|(e, &c)| ((e.func, e.path), c)).collect()
    }
}

impl EventSink for GrammarSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
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
            if builder.push(t).is_err() {
                *overflow = true;
            }
        });
        if *overflow {
            return Err(format!("more than {} distinct paths: too many for one grammar", wpp_grammar::MAX_TERMINAL).into());
        }
        Ok(())
    }
}
