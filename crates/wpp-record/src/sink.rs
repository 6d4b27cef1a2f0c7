//! The event sinks: what receives the instrumented guest's path events while it runs
//! ([`wpp_runtime::EventSink`] is the seam).
//!
//! * [`TraceStats`] decodes and counts them (and can keep them, for tests);
//! * [`TraceSink`] writes them to a profile's `runs` section as run-length tokens over
//!   dense symbols ([`Tokenizer`]) while counting them;
//! * [`GrammarSink`] takes the same tokens ([`Tokenizer`]), spools them ([`Spool`]) and builds their grammar ([`GrammarBuilder`]) from the
//!   spool whenever the consumer thread has nothing else to do, and after the guest ends.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use wpp_grammar::{Grammar, PhraseStats, Token, Tokens};

use crate::spool::Spool;
use wpp_model::{EventDecoder, FuncIdx, Narrow, NarrowDecoder, NarrowIds, PathEvent, PathId, NARROW_ESCAPE};
use wpp_profile::{section, Builder, GrammarBuilder, Prediction, Writer};
use wpp_runtime::{EventSink, PathCounts, SinkError};

/// Decodes events and counts each path: in a dense array per function when its path count
/// is known and small, in a hash map otherwise. It can also hash the order of the sequence
/// and keep the events (for tests).
#[derive(Default)]
pub struct TraceStats {
    decoder: EventDecoder,
    /// 4-byte events: their decoder, ids, and the ids seen (numbered in `id_slots`) with
    /// their counts.
    narrow: NarrowDecoder,
    ids: NarrowIds,
    id_slots: IdMap,
    by_id: Vec<(u32, u64)>,
    dense: Vec<Vec<u64>>,
    sparse: FxHashMap<(FuncIdx, PathId), u64>,
    pub n_events: u64,
    /// Order-sensitive hash of the sequence ([`wpp_paths::split::hash_event`]), if asked.
    pub sequence_hash: Option<u64>,
    pub events: Option<Vec<PathEvent>>,
}

/// Functions with at most this many paths are counted in a dense array.
const STATS_DENSE_MAX_PATHS: u64 = 1 << 16;
/// A map from 4-byte event ids to numbers (symbols, slots): open addressing with linear
/// probing on a power-of-two table kept at most half full, so that the executed ids of a
/// module (thousands to a few hundred thousand) stay in cache, where a table indexed by
/// id would span the module's hundreds of millions of ids.
struct IdMap {
    /// `(id + 1, value)`; an empty slot's key is 0.
    slots: Vec<(u32, u32)>,
    len: usize,
    /// log2 of the table's size.
    bits: u32,
}

impl Default for IdMap {
    fn default() -> Self {
        IdMap { slots: vec![(0, 0); 1 << 10], len: 0, bits: 10 }
    }
}

impl IdMap {
    #[inline]
    fn home(&self, key: u32) -> usize {
        ((key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, id: u32) -> Option<u32> {
        let key = id + 1;
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = self.slots[i];
            if k == key {
                return Some(v);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Maps `id`, which is not in the map, to `value`.
    fn insert(&mut self, id: u32, value: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            let grown = vec![(0, 0); self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, grown);
            self.bits += 1;
            self.len = 0;
            for (k, v) in old.into_iter().filter(|&(k, _)| k != 0) {
                self.insert(k - 1, v);
            }
        }
        let key = id + 1;
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        while self.slots[i].0 != 0 {
            debug_assert_ne!(self.slots[i].0, key, "inserted twice");
            i = (i + 1) & mask;
        }
        self.slots[i] = (key, value);
        self.len += 1;
    }
}

impl TraceStats {
    /// Counts only, all in a hash map.
    pub fn new() -> Self {
        TraceStats::default()
    }

    /// Counts with dense arrays sized from the functions' numberings.
    pub fn for_numberings(numberings: &wpp_paths::ProgramNumbering) -> Self {
        let dense = dense_arrays(numberings, STATS_DENSE_MAX_PATHS, 0);
        let ids = wpp_wasm::narrow_ids(numberings);
        TraceStats { dense, ids, ..Default::default() }
    }

    /// Also hash the order of events and, if `keep`, keep them all.
    pub fn checking_order(mut self, keep: bool) -> Self {
        self.sequence_hash = Some(wpp_paths::split::HASH_START);
        self.events = keep.then(Vec::new);
        self
    }

    /// Whether the stream ended in the middle of a two-word (or three-word) event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event() || self.narrow.is_mid_event()
    }

    /// Every path's count.
    pub fn counts(&self) -> PathCounts {
        let mut c: PathCounts = self.sparse.iter().map(|(&k, &v)| (k, v)).collect();
        for &(id, n) in &self.by_id {
            let e = self.ids.event(id).expect("counted ids are ids");
            *c.entry((e.func, e.path)).or_default() += n;
        }
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

impl TraceStats {
    /// Counts `e` in its function's array or the map, and hashes or keeps it if asked.
    #[inline]
    fn count(&mut self, e: PathEvent, counted: bool) {
        self.n_events += 1;
        if !counted {
            match self.dense.get_mut(e.func.idx()).and_then(|a| a.get_mut(e.path.0 as usize)) {
                Some(c) => *c += 1,
                None => *self.sparse.entry((e.func, e.path)).or_default() += 1,
            }
        }
        if let Some(h) = self.sequence_hash.as_mut() {
            *h = wpp_paths::split::hash_event(*h, e);
        }
        if let Some(v) = self.events.as_mut() {
            v.push(e);
        }
    }
}

impl EventSink for TraceStats {
    fn events(&mut self, words: &[u64]) -> Result<(), SinkError> {
        let mut decoder = std::mem::take(&mut self.decoder);
        decoder.feed(words, |e| self.count(e, false));
        self.decoder = decoder;
        Ok(())
    }

    fn narrow_events(&mut self, words: &[u32]) -> Result<(), SinkError> {
        let mut decoder = std::mem::take(&mut self.narrow);
        let slow = self.sequence_hash.is_some() || self.events.is_some();
        let mut bad = None;
        let n_ids = self.ids.n_ids();
        decoder.feed(words, |n| match n {
            Narrow::Id(id) => {
                if id >= n_ids {
                    bad = Some(id);
                    return;
                }
                match self.id_slots.get(id) {
                    Some(slot) => self.by_id[slot as usize].1 += 1,
                    None => {
                        self.id_slots.insert(id, self.by_id.len() as u32);
                        self.by_id.push((id, 1));
                    }
                }
                if slow {
                    let e = self.ids.event(id).expect("an id below n_ids");
                    self.count(e, true);
                } else {
                    self.n_events += 1;
                }
            }
            Narrow::Event(e) => self.count(e, false),
        });
        self.narrow = decoder;
        match bad {
            Some(id) => Err(format!("event id {id} is not a path's (the module has {} ids)", self.ids.n_ids()).into()),
            None => Ok(()),
        }
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

    fn flush_if_full(&mut self) -> Result<(), SinkError> {
        if self.bytes.len() >= TRACE_WRITE_BYTES {
            self.flush()?;
        }
        Ok(())
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
        self.flush_if_full()
    }

    fn narrow_events(&mut self, words: &[u32]) -> Result<(), SinkError> {
        let TraceSink { tokens, bytes, counts, .. } = self;
        tokens.feed_narrow(words, |t| {
            Self::push(bytes, counts, t);
            Ok(())
        })?;
        self.flush_if_full()
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
    /// 4-byte events: their decoder and ids, the symbol of each id seen (+ 1, 0 for
    /// none, directly for the first [`DIRECT_IDS`] ids, those of the functions with
    /// fewest paths; in a map for the others), and the id of the open run (`NO_ID` if it
    /// is not an id's).
    narrow: NarrowDecoder,
    ids: NarrowIds,
    direct: Vec<u32>,
    id_symbols: IdMap,
    last_id: u64,
    /// The path of the open run, and the run.
    last: Option<PathEvent>,
    open: Option<Token>,
    pub symbols: SymbolTable,
}

impl Tokenizer {
    pub fn for_numberings(numberings: &wpp_paths::ProgramNumbering) -> Self {
        Tokenizer::new(wpp_wasm::narrow_ids(numberings), SymbolTable::for_numberings(numberings))
    }

    fn new(ids: NarrowIds, symbols: SymbolTable) -> Self {
        Tokenizer {
            decoder: EventDecoder::default(),
            narrow: NarrowDecoder::default(),
            id_symbols: IdMap::default(),
            direct: vec![0; ids.n_ids().min(DIRECT_IDS) as usize],
            ids,
            last_id: NO_ID,
            last: None,
            open: None,
            symbols,
        }
    }

    /// Whether the stream ended in the middle of a two-word (or three-word) event.
    pub fn is_truncated(&self) -> bool {
        self.decoder.is_mid_event() || self.narrow.is_mid_event()
    }

    /// Decodes 4-byte event words, handing every run that ends to `emit`; stops at the
    /// first error.
    #[inline]
    pub fn feed_narrow(&mut self, words: &[u32], mut emit: impl FnMut(Token) -> Result<(), SinkError>) -> Result<(), SinkError> {
        let mut i = 0;
        while i < words.len() {
            if self.narrow.is_mid_event() {
                // The rest of a three-word event.
                let mut done = None;
                self.narrow.feed(&words[i..i + 1], |n| done = Some(n));
                i += 1;
                if let Some(Narrow::Event(e)) = done {
                    self.take(e, &mut emit)?;
                }
                continue;
            }
            let w = words[i];
            i += 1;
            if w as u64 == self.last_id {
                // The open run's path again (the common case in loops): no lookup, and the
                // rest of the run counted in one scan.
                let more = words[i..].iter().position(|&x| x != w).unwrap_or(words.len() - i);
                i += more;
                self.open.as_mut().expect("a run is open after its path").run += 1 + more as u64;
            } else if w & NARROW_ESCAPE != 0 {
                match words.get(i..i + 2) {
                    // The whole three-word event is here.
                    Some(&[lo, hi]) => {
                        i += 2;
                        let e = PathEvent { func: FuncIdx(w & !NARROW_ESCAPE), path: PathId(lo as u64 | (hi as u64) << 32) };
                        self.take(e, &mut emit)?;
                    }
                    _ => self.narrow.feed(&[w], |_| {}),
                }
            } else {
                let known = match self.direct.get(w as usize) {
                    Some(&t) => t.checked_sub(1),
                    None => self.id_symbols.get(w),
                };
                let t = match known {
                    Some(t) => t,
                    None => {
                        let e = self.ids.event(w).ok_or_else(|| format!("event id {w} is not a path's (the module has {} ids)", self.ids.n_ids()))?;
                        let t = self.symbols.symbol(e);
                        match self.direct.get_mut(w as usize) {
                            Some(slot) => *slot = t.wrapping_add(1),
                            None => self.id_symbols.insert(w, t),
                        }
                        t
                    }
                };
                self.start_run(Some(w), None, t, &mut emit)?;
            }
        }
        Ok(())
    }

    /// A path given as an event (8-byte events, and functions without ids): a run of its
    /// own unless it continues the open one.
    #[inline]
    fn take(&mut self, e: PathEvent, emit: &mut impl FnMut(Token) -> Result<(), SinkError>) -> Result<(), SinkError> {
        if self.last == Some(e) {
            self.open.as_mut().expect("a run is open after its path").run += 1;
            return Ok(());
        }
        let t = self.symbols.symbol(e);
        self.start_run(None, Some(e), t, emit)
    }

    /// Ends the open run and opens one of symbol `t` (of id `id`, or of path `e`).
    #[inline(always)]
    fn start_run(&mut self, id: Option<u32>, e: Option<PathEvent>, t: u32, emit: &mut impl FnMut(Token) -> Result<(), SinkError>) -> Result<(), SinkError> {
        if t > wpp_grammar::MAX_TERMINAL {
            return Err(format!("more than {} distinct paths: too many for one trace", wpp_grammar::MAX_TERMINAL).into());
        }
        self.last_id = id.map_or(NO_ID, u64::from);
        self.last = e;
        // A new path always starts a new run: runs are maximal.
        match self.open.replace(Token { symbol: t, run: 1 }) {
            Some(done) => emit(done),
            None => Ok(()),
        }
    }

    /// Decodes `words`, handing every run that ends to `emit`; stops at the first error.
    #[inline]
    pub fn feed(&mut self, words: &[u64], mut emit: impl FnMut(Token) -> Result<(), SinkError>) -> Result<(), SinkError> {
        let mut decoder = std::mem::take(&mut self.decoder);
        let mut result = Ok(());
        decoder.feed(words, |e| {
            if result.is_ok() {
                result = self.take(e, &mut emit);
            }
        });
        self.decoder = decoder;
        result
    }

    /// Ends the open run, if any, and returns it.
    pub fn finish(&mut self) -> Option<Token> {
        self.last = None;
        self.last_id = NO_ID;
        self.open.take()
    }
}

/// Ids with a direct slot in [`Tokenizer`]: 256 KiB of symbols, where the functions with
/// fewest paths, numbered first, keep theirs.
const DIRECT_IDS: u32 = 1 << 16;

/// No id: the open run is not an id's.
const NO_ID: u64 = u64::MAX;

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
    /// Tokens handed to the spool, and the time spent making them from events.
    spooled_tokens: u64,
    tokenize_time: Duration,
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
    /// The builder's peak memory, and what its phrase front end did.
    pub builder_bytes: usize,
    pub phrases: Option<PhraseStats>,
    /// Tokens after runs of one path were collapsed (on the consumer thread, as the events
    /// arrived), and the time that took.
    pub tokens: u64,
    pub tokenize_time: Duration,
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
            spooled_tokens: 0,
            tokenize_time: Duration::ZERO,
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
            self.spooled_tokens += 1;
            self.spool.push(open)?;
        }
        self.spool.seal()?;
        let total = self.spooled_events;
        progress(BuildProgress { built: self.built_events, total });
        while self.build_some(usize::MAX)? {
            progress(BuildProgress { built: self.built_events, total });
        }
        debug_assert_eq!(self.built_events, total);
        let (grammar, stats) = self.builder.finish_measured()?;
        self.counts.resize(self.tokens.symbols.paths.len(), 0);
        Ok(BuiltGrammar {
            grammar,
            paths: self.tokens.symbols.paths,
            counts: self.counts,
            n_events: total,
            builder_bytes: stats.memory_bytes,
            phrases: stats.phrases,
            tokens: self.spooled_tokens,
            tokenize_time: self.tokenize_time,
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
        let started = Instant::now();
        let GrammarSink { tokens, spool, spooled_events, spooled_tokens, .. } = self;
        let r = tokens.feed(words, |t| {
            *spooled_events += t.run;
            *spooled_tokens += 1;
            spool.push(t).map_err(SinkError::from)
        });
        self.tokenize_time += started.elapsed();
        r
    }

    fn narrow_events(&mut self, words: &[u32]) -> Result<(), SinkError> {
        let started = Instant::now();
        let GrammarSink { tokens, spool, spooled_events, spooled_tokens, .. } = self;
        let r = tokens.feed_narrow(words, |t| {
            *spooled_events += t.run;
            *spooled_tokens += 1;
            spool.push(t).map_err(SinkError::from)
        });
        self.tokenize_time += started.elapsed();
        r
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

#[cfg(test)]
mod tests {
    use super::*;
    use wpp_test_support::rng::Rng;

    /// Tokens of a stream of events, fed in pieces split at `cuts`.
    fn tokens<W: Copy>(t: &mut Tokenizer, words: &[W], cuts: &[usize], feed: impl Fn(&mut Tokenizer, &[W], &mut Vec<Token>)) -> Vec<Token> {
        let mut out = Vec::new();
        let mut at = 0;
        for &c in cuts.iter().chain([&words.len()]) {
            let c = c.clamp(at, words.len());
            feed(t, &words[at..c], &mut out);
            at = c;
        }
        out.extend(t.finish());
        out
    }

    /// 4-byte events give the tokens and symbols 8-byte events give, however the stream is
    /// cut into buffers, with functions with and without ids, long and short runs.
    #[test]
    fn narrow_events_tokenize_as_wide_ones() {
        let mut rng = Rng::new(33);
        for round in 0..200 {
            let n_funcs = 1 + rng.below(6);
            let n_paths: Vec<Option<u64>> = (0..n_funcs)
                .map(|_| [Some(1 + rng.below(5) as u64), Some(1 << 40), None, Some(1 << 31), Some(1 + rng.below(100_000) as u64)][rng.below(5)])
                .collect();
            let ids = NarrowIds::new(&n_paths);
            let mut events = Vec::new();
            for _ in 0..rng.below(300) {
                let f = rng.below(n_funcs);
                let Some(n) = n_paths[f] else { continue };
                let e = PathEvent { func: FuncIdx(f as u32), path: PathId(rng.below(n.min(1 << 20) as usize) as u64 * (n / n.min(1 << 20))) };
                for _ in 0..[1, 1, 2, 40][rng.below(4)] {
                    events.push(e);
                }
            }
            let (mut wide, mut narrow) = (Vec::new(), Vec::new());
            for &e in &events {
                e.encode(&mut wide);
                ids.encode(e, &mut narrow);
            }
            let cuts: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(narrow.len() + 1)).collect();
            let mut sorted = cuts.clone();
            sorted.sort();
            let mut w = Tokenizer::new(ids.clone(), SymbolTable { dense: Vec::new(), sparse: FxHashMap::default(), paths: Vec::new() });
            let want = tokens(&mut w, &wide, &[], |t, ws, out| {
                t.feed(ws, |k| {
                    out.push(k);
                    Ok(())
                })
                .unwrap()
            });
            let mut n = Tokenizer::new(ids, SymbolTable { dense: Vec::new(), sparse: FxHashMap::default(), paths: Vec::new() });
            let got = tokens(&mut n, &narrow, &sorted, |t, ws, out| {
                t.feed_narrow(ws, |k| {
                    out.push(k);
                    Ok(())
                })
                .unwrap()
            });
            assert_eq!(got, want, "round {round}");
            assert_eq!(n.symbols.paths, w.symbols.paths, "round {round}");
            assert_eq!(got.iter().map(|t| t.run).sum::<u64>(), events.len() as u64);
            assert!(!n.is_truncated());
        }
    }

    /// The id map holds what was put in, through growth.
    #[test]
    fn id_map_keeps_every_id() {
        let mut m = IdMap::default();
        let ids: Vec<u32> = (0..5000u32).map(|i| i * 400_009).collect();
        for (v, &id) in ids.iter().enumerate() {
            assert_eq!(m.get(id), None);
            m.insert(id, v as u32);
        }
        for (v, &id) in ids.iter().enumerate() {
            assert_eq!(m.get(id), Some(v as u32));
        }
        assert_eq!(m.get(1 << 31), None);
    }
}
