//! The event sinks: what receives the instrumented guest's path events while it runs
//! ([`wpp_runtime::EventSink`] is the seam).
//!
//! * [`TraceStats`] decodes and counts them (and can keep them, for tests);
//! * [`TraceSink`] writes them to a profile's `runs` section as run-length tokens over
//!   dense symbols ([`Tokenizer`]) while counting them;
//! * [`GrammarSink`] takes the same tokens ([`Tokenizer`]), spools them ([`Spool`]) and builds their grammar ([`GrammarBuilder`]) from the
//!   spool whenever the consumer thread has nothing else to do, and after the guest ends.

use rustc_hash::FxHashMap;
use wpp_grammar::{Grammar, Token, Tokens};

use crate::spool::Spool;
use wpp_model::{EventDecoder, FuncIdx, PathEvent, PathId};
use wpp_profile::{section, Builder, GrammarBuilder, Prediction, Writer};
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

/// Writes the path trace into a profile's `runs` section as run-length tokens over dense
/// symbols ([`Tokenizer`]), counting each symbol's executions on the way.
pub struct TraceSink {
    tokens: Tokenizer,
    writer: Writer,
    bytes: Vec<u8>,
    counts: Vec<u64>,
}

/// Token bytes collected before they are written.
const TRACE_WRITE_BYTES: usize = 1 << 20;

/// What [`TraceSink::finish`] gives back: the writer (the `runs` and `symbols` sections
/// written), the path of each symbol and its executions.
pub struct WrittenTrace {
    pub writer: Writer,
    pub paths: Vec<PathEvent>,
    pub counts: Vec<u64>,
}

impl WrittenTrace {
    /// Every path's count.
    pub fn path_counts(&self) -> PathCounts {
        path_counts(&self.paths, &self.counts)
    }
}

/// Counts per path from the path of each symbol and the symbol's count.
fn path_counts(paths: &[PathEvent], counts: &[u64]) -> PathCounts {
    paths.iter().zip(counts).map(|(e, &c)| ((e.func, e.path), c)).collect()
}

impl TraceSink {
    /// Opens the `runs` section of `writer`.
    pub fn new(mut writer: Writer, numberings: &wpp_paths::ProgramNumbering) -> Self {
        writer.begin(section::RUNS);
        TraceSink { tokens: Tokenizer::for_numberings(numberings), writer, bytes: Vec::with_capacity(TRACE_WRITE_BYTES + 32), counts: Vec::new() }
    }

    /// Whether the stream ended in the middle of a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.tokens.is_truncated()
    }

    fn push(bytes: &mut Vec<u8>, counts: &mut Vec<u64>, t: Token) {
        let i = t.symbol as usize;
        if i >= counts.len() {
            counts.resize(i + 1, 0);
        }
        counts[i] += t.run;
        wpp_grammar::encode_token(bytes, t);
    }

    fn flush(&mut self) -> Result<(), wpp_profile::Error> {
        let r = self.writer.write(&self.bytes);
        self.bytes.clear();
        r
    }

    /// Ends the `runs` section and writes `symbols`.
    pub fn finish(mut self) -> Result<WrittenTrace, wpp_profile::Error> {
        if let Some(t) = self.tokens.finish() {
            Self::push(&mut self.bytes, &mut self.counts, t);
        }
        self.flush()?;
        self.writer.end();
        let paths = std::mem::take(&mut self.tokens.symbols.paths);
        self.counts.resize(paths.len(), 0);
        self.writer.write_value(section::SYMBOLS, &paths)?;
        Ok(WrittenTrace { writer: self.writer, paths, counts: self.counts })
    }
}

impl EventSink for TraceSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        let TraceSink { tokens, bytes, counts, .. } = self;
        tokens.feed(words, |t| {
            Self::push(bytes, counts, t);
            Ok(())
        })?;
        if self.bytes.len() >= TRACE_WRITE_BYTES {
            self.flush()?;
        }
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

/// The cheap, lossless part of taking a path trace in: event words decoded, their paths
/// numbered as dense symbols ([`SymbolTable`]), runs of one path collapsed into maximal
/// run-length tokens.
pub struct Tokenizer {
    decoder: EventDecoder,
    /// The path of the open run, and the run.
    last: Option<PathEvent>,
    open: Option<Token>,
    pub symbols: SymbolTable,
}

impl Tokenizer {
    pub fn for_numberings(numberings: &wpp_paths::ProgramNumbering) -> Self {
        Tokenizer { decoder: EventDecoder::default(), last: None, open: None, symbols: SymbolTable::for_numberings(numberings) }
    }

    /// Whether the stream ended in the middle of a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event()
    }

    /// Decodes `words`, handing every run that ends to `emit`; stops at the first error.
    #[inline]
    pub fn feed(&mut self, words: &[u64], mut emit: impl FnMut(Token) -> Result<(), SinkError>) -> Result<(), SinkError> {
        let Tokenizer { decoder, last, open, symbols } = self;
        let mut error: Option<SinkError> = None;
        decoder.feed(words, |e| {
            if *last == Some(e) {
                // The open run's path again (the common case in loops): no lookup.
                open.as_mut().expect("a run is open after its path").run += 1;
                return;
            }
            if error.is_some() {
                return;
            }
            let t = symbols.symbol(e);
            if t > wpp_grammar::MAX_TERMINAL {
                error = Some(format!("more than {} distinct paths: too many for one trace", wpp_grammar::MAX_TERMINAL).into());
                return;
            }
            *last = Some(e);
            // A new path always starts a new run: runs are maximal.
            if let Some(done) = open.replace(Token { symbol: t, run: 1 }) {
                if let Err(e) = emit(done) {
                    error = Some(e);
                }
            }
        });
        error.map_or(Ok(()), Err)
    }

    /// Ends the open run, if any, and returns it.
    pub fn finish(&mut self) -> Option<Token> {
        self.last = None;
        self.open.take()
    }
}

/// Receives event words and builds their grammar without making the guest wait for it.
///
/// On the consumer thread, as buffers arrive ([`EventSink::events`]): the cheap, lossless
/// part — events decoded, their paths numbered as dense symbols, runs of one symbol
/// collapsed into tokens — appended to a [`Spool`]. Between buffers ([`EventSink::idle`])
/// and after the guest ended ([`GrammarSink::finish`]): tokens taken from the spool,
/// counted, and fed to the grammar builder.
pub struct GrammarSink {
    tokens: Tokenizer,
    spool: Spool,
    /// Events in tokens handed to the spool.
    spooled_events: u64,
    builder: GrammarBuilder,
    kind: (Builder, Prediction),
    /// The spool block being built from, and how far.
    block: Vec<u8>,
    block_pos: usize,
    /// Executions per symbol, of the events built so far.
    counts: Vec<u64>,
    built_events: u64,
}

/// Tokens built per [`EventSink::idle`] slice: a fraction of a millisecond.
const IDLE_TOKENS: usize = 2048;

/// A spool block shorter than this is not sealed early for an idle builder.
const EARLY_SEAL_BYTES: usize = 1 << 16;

/// What [`GrammarSink::finish`] gives back.
pub struct BuiltGrammar {
    pub grammar: Grammar,
    /// The path of each terminal.
    pub paths: Vec<PathEvent>,
    /// Executions per terminal.
    pub counts: Vec<u64>,
    pub n_events: u64,
    /// The builder's peak memory.
    pub builder_bytes: usize,
    /// The spool's peak memory and peak file size.
    pub spool_memory: usize,
    pub spool_file: u64,
}

/// How far building the grammar after the guest ended has come: events built, of all.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    pub built: u64,
    pub total: u64,
}

impl GrammarSink {
    /// A sink numbering paths of `numberings`, building with `builder` (predicting rules as
    /// `prediction` says) behind its front ends ([`GrammarBuilder::for_paths`]), spooling through `spool`.
    pub fn new(numberings: &wpp_paths::ProgramNumbering, builder: Builder, prediction: Prediction, spool: Spool) -> Self {
        GrammarSink {
            tokens: Tokenizer::for_numberings(numberings),
            spool,
            spooled_events: 0,
            builder: GrammarBuilder::for_paths(builder, prediction),
            kind: (builder, prediction),
            block: Vec::new(),
            block_pos: 0,
            counts: Vec::new(),
            built_events: 0,
        }
    }

    /// Whether the stream ended in the middle of a two-word event.
    pub fn is_truncated(&self) -> bool {
        self.tokens.is_truncated()
    }

    /// With the default builder, segments of about `tokens` tokens (before anything was
    /// pushed; the grammar depends on it).
    pub fn in_segments(mut self, tokens: usize) -> Self {
        debug_assert_eq!(self.spooled_events, 0, "segments are chosen before the first event");
        self.builder = GrammarBuilder::for_paths_in_segments(self.kind.0, self.kind.1, tokens);
        self
    }

    /// From now on, builds on `threads` threads besides the consumer's, as far as the
    /// builder can share its work ([`GrammarBuilder::use_threads`]).
    pub fn build_on(&mut self, threads: usize) -> Result<(), SinkError> {
        Ok(self.builder.use_threads(threads)?)
    }

    /// Builds from up to `max_tokens` spooled tokens; returns whether any were built.
    fn build_some(&mut self, max_tokens: usize) -> Result<bool, SinkError> {
        if self.block_pos == self.block.len() {
            self.block_pos = 0;
            if !self.spool.pop(&mut self.block)? {
                self.block.clear();
                return Ok(false);
            }
        }
        let mut tokens = Tokens::new(&self.block[self.block_pos..]);
        for _ in 0..max_tokens {
            let Some(t) = tokens.next() else { break };
            let t = t?;
            let i = t.symbol as usize;
            if i >= self.counts.len() {
                self.counts.resize(i + 1, 0);
            }
            self.counts[i] += t.run;
            self.built_events += t.run;
            self.builder.push_token(t)?;
        }
        self.block_pos += tokens.offset();
        Ok(true)
    }

    /// Everything received, built on `threads` threads besides this one: the grammar with
    /// its terminals and their counts. `progress` hears how far building has come after
    /// each spool block.
    pub fn finish(mut self, threads: usize, mut progress: impl FnMut(BuildProgress)) -> Result<BuiltGrammar, SinkError> {
        self.build_on(threads)?;
        if let Some(open) = self.tokens.finish() {
            self.spooled_events += open.run;
            self.spool.push(open)?;
        }
        self.spool.seal()?;
        let total = self.spooled_events;
        progress(BuildProgress { built: self.built_events, total });
        while self.build_some(usize::MAX)? {
            progress(BuildProgress { built: self.built_events, total });
        }
        debug_assert_eq!(self.built_events, total);
        let (grammar, builder_bytes) = self.builder.finish_measured()?;
        self.counts.resize(self.tokens.symbols.paths.len(), 0);
        Ok(BuiltGrammar {
            grammar,
            paths: self.tokens.symbols.paths,
            counts: self.counts,
            n_events: total,
            builder_bytes,
            spool_memory: self.spool.peak_memory,
            spool_file: self.spool.peak_file,
        })
    }
}

impl BuiltGrammar {
    /// Every path's count.
    pub fn path_counts(&self) -> PathCounts {
        path_counts(&self.paths, &self.counts)
    }
}

impl EventSink for GrammarSink {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        let GrammarSink { tokens, spool, spooled_events, .. } = self;
        tokens.feed(words, |t| {
            *spooled_events += t.run;
            spool.push(t).map_err(SinkError::from)
        })
    }

    fn idle(&mut self) -> Result<bool, SinkError> {
        if !self.builder.ready()? {
            // Every builder thread is busy: events first.
            return Ok(false);
        }
        if !self.spool.has_blocks() && self.block_pos == self.block.len() && self.spool.current_len() >= EARLY_SEAL_BYTES {
            self.spool.seal()?;
        }
        self.build_some(IDLE_TOKENS)
    }
}
