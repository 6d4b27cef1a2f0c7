//! Phrases: a front end that cuts the sequence into content-defined pieces and builds the
//! grammar from two much smaller inputs.
//!
//! Runs of one symbol are collapsed first ([`RunLength`], [`RunTerminals`]). The token
//! stream is then cut into *phrases* at content-defined boundaries, as deduplicating
//! backup tools cut files into chunks: after a token, a rolling hash of the last
//! [`PhraseParams::window`] tokens decides whether a phrase ends there (with probability
//! `1 / divisor`), within a minimum and a maximum phrase length. Equal contexts cut
//! equally, so a repeated stretch of the sequence is mostly cut into the same phrases
//! wherever it occurs. A phrase that reaches the maximum length without a boundary ends
//! where its hash was smallest (the tokens after that begin the next phrase), so a loop
//! whose few contexts never make a boundary is still cut at the same place in every
//! iteration. Identical phrases get one phrase id (hash-consed: a table from the
//! phrase's hash to its id, the content compared on a hash match). Then:
//!
//! 1. the sequence of phrase ids goes to one SEQUITUR(1) builder, the *top level*;
//! 2. the body of each distinct phrase goes, once, to a second SEQUITUR(1) builder, the
//!    *dictionary*, each body followed by a separator terminal used nowhere else, so no
//!    rule spans two phrases;
//! 3. at the end the dictionary's start rule is split at the separators into one body per
//!    phrase; a phrase of one symbol is that symbol, a longer one becomes a rule; the
//!    top-level grammar's phrase ids are replaced by them, the dictionary's rules added,
//!    rules used only once inlined, runs resolved ([`RunTerminals::resolve`]) and the rules
//!    numbered by first use ([`Grammar::renumber_by_first_use`]).
//!
//! The two builders are independent once the phrases are known, so either can run on a
//! thread of its own ([`PhraseThreads`]).
//!
//! With [`PhraseParams::levels`] above 1 the top level is not SEQUITUR(1) but another
//! phrase front end, over phrase ids, with one level less: phrases of phrases. An
//! interpreter's trace cuts into few distinct phrases whose ids still repeat at length;
//! the second level hands SEQUITUR(1) a few times fewer symbols.
//!
//! The grammar derives the sequence exactly and is valid, but it lacks SEQUITUR's
//! properties across phrase boundaries: a digram inside a phrase and the same digram
//! across a boundary are not shared.

use std::sync::mpsc;
use std::thread::JoinHandle;

use rustc_hash::FxHashMap;

use super::cut::Cutter;
use crate::{Grammar, GrammarFull, RuleId, Rules, RunLength, RunTerminals, Sequitur, Sym, Terminal, Token, MAX_TERMINAL};

/// How phrases are cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhraseParams {
    /// Tokens the rolling hash covers (a power of two, at most 64).
    pub window: usize,
    /// No phrase is shorter (in tokens), except the last.
    pub min: usize,
    /// No phrase is longer: a phrase that reaches this length ends.
    pub max: usize,
    /// A phrase of at least `min` tokens ends after a token with probability `1 / divisor`.
    pub divisor: u32,
    /// Which builders run on threads of their own.
    pub threads: PhraseThreads,
    /// Levels of phrases: with more than 1, the sequence of phrase ids goes to another
    /// phrase front end with one level less (phrases of phrases), not straight to a
    /// SEQUITUR(1) builder.
    pub levels: u8,
}

/// Which of the two SEQUITUR(1) builders behind the phrase front end run on a thread of
/// their own: the top level, which reads phrase ids, and the dictionary, which reads the
/// bodies of distinct phrases. The grammar is the same either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PhraseThreads {
    /// Both run in the thread that pushes the symbols.
    #[default]
    Neither,
    /// The top level on a thread of its own.
    Top,
    /// The dictionary on a thread of its own.
    Dictionary,
    /// Each on a thread of its own.
    Both,
}

impl PhraseThreads {
    /// Every choice.
    pub const ALL: [PhraseThreads; 4] = [PhraseThreads::Neither, PhraseThreads::Top, PhraseThreads::Dictionary, PhraseThreads::Both];

    fn top(self) -> bool {
        matches!(self, PhraseThreads::Top | PhraseThreads::Both)
    }

    fn dictionary(self) -> bool {
        matches!(self, PhraseThreads::Dictionary | PhraseThreads::Both)
    }
}

impl PhraseParams {
    /// Phrases of about `average` tokens: at least `average / 4`, at most `4 × average`,
    /// with a window of one token (whether a phrase ends after a token depends on that
    /// token alone, so cuts fall in step again right after any difference).
    pub fn average(average: usize) -> Self {
        let average = average.max(1);
        let min = (average / 4).max(1);
        PhraseParams { window: 1, min, max: 4 * average, divisor: (average - min + 1) as u32, threads: PhraseThreads::Neither, levels: 1 }
    }

    /// With `levels` levels of phrases (at least 1).
    pub fn with_levels(mut self, levels: u8) -> Self {
        self.levels = levels.max(1);
        self
    }

    /// With the builders `threads` names on threads of their own.
    pub fn with_threads(mut self, threads: PhraseThreads) -> Self {
        self.threads = threads;
        self
    }
}

/// What the front end did with its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhraseStats {
    /// Symbols pushed.
    pub symbols: u64,
    /// Tokens after runs were collapsed.
    pub tokens: u64,
    /// Phrases cut: the symbols the top-level builder received.
    pub phrases: u64,
    /// Distinct phrases.
    pub distinct: u64,
    /// Tokens of the distinct phrases: the dictionary builder received these and one
    /// separator per distinct phrase.
    pub dictionary_tokens: u64,
    /// Bytes of heap the front end and both builders held at the end, roughly.
    pub memory_bytes: usize,
}

/// Symbols a threaded builder receives per message.
const BATCH: usize = 1 << 16;

/// The builder behind a stage: SEQUITUR(1), or phrases of phrases.
#[allow(clippy::large_enum_variant, reason = "two per front end; a box would add a load to every symbol pushed")]
enum Builder {
    Sequitur(Sequitur),
    Phrases(Box<Phrases>),
}

impl Builder {
    #[inline]
    fn push(&mut self, t: u32) -> Result<(), GrammarFull> {
        match self {
            Builder::Sequitur(s) => {
                s.push(t);
                Ok(())
            }
            Builder::Phrases(p) => p.push(t),
        }
    }

    /// The grammar and the builder's memory in bytes at the end.
    fn finish(self) -> Result<(Grammar, usize), GrammarFull> {
        match self {
            Builder::Sequitur(s) => {
                let m = s.memory_bytes();
                Ok((s.finish(), m))
            }
            Builder::Phrases(p) => {
                let (g, stats) = p.finish_with_stats()?;
                Ok((g, stats.memory_bytes))
            }
        }
    }
}

/// A builder, in this thread or in a thread of its own fed in batches.
#[allow(clippy::large_enum_variant, reason = "two per front end; a box would add a load to every symbol pushed")]
enum Stage {
    Here(Builder),
    Thread { batch: Vec<u32>, tx: mpsc::SyncSender<Vec<u32>>, worker: JoinHandle<Result<(Grammar, usize), GrammarFull>> },
}

impl Stage {
    fn new(builder: Builder, threaded: bool) -> Self {
        let here = Stage::Here(builder);
        if threaded {
            here.into_thread()
        } else {
            here
        }
    }

    /// The same builder, from now on in a thread of its own (as it is if it already was).
    fn into_thread(self) -> Self {
        let Stage::Here(mut b) = self else { return self };
        let (tx, rx) = mpsc::sync_channel::<Vec<u32>>(4);
        let worker = std::thread::spawn(move || {
            let mut result = Ok(());
            for batch in rx {
                if result.is_ok() {
                    result = batch.into_iter().try_for_each(|t| b.push(t));
                }
            }
            result?;
            b.finish()
        });
        Stage::Thread { batch: Vec::with_capacity(BATCH), tx, worker }
    }

    #[inline]
    fn push(&mut self, t: u32) -> Result<(), GrammarFull> {
        match self {
            Stage::Here(b) => b.push(t),
            Stage::Thread { batch, tx, .. } => {
                batch.push(t);
                if batch.len() == BATCH {
                    let full = std::mem::replace(batch, Vec::with_capacity(BATCH));
                    tx.send(full).expect("the builder thread runs until its input ends");
                }
                Ok(())
            }
        }
    }

    #[inline]
    fn extend(&mut self, ts: &[u32]) -> Result<(), GrammarFull> {
        match self {
            Stage::Here(Builder::Sequitur(s)) => {
                s.extend(ts.iter().copied());
                Ok(())
            }
            _ => ts.iter().try_for_each(|&t| self.push(t)),
        }
    }

    /// The grammar and the builder's memory in bytes at the end.
    fn finish(self) -> Result<(Grammar, usize), GrammarFull> {
        match self {
            Stage::Here(b) => b.finish(),
            Stage::Thread { batch, tx, worker } => {
                if !batch.is_empty() {
                    tx.send(batch).expect("the builder thread runs until its input ends");
                }
                drop(tx);
                match worker.join() {
                    Ok(r) => r,
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
        }
    }
}

/// The multiplier that spreads a token over 64 bits.
const SPREAD: u64 = 0x9e37_79b9_7f4a_7c15;

#[inline]
fn spread(t: u32) -> u64 {
    (t as u64 + 1).wrapping_mul(SPREAD)
}

/// The hash that identifies a phrase's content.
#[inline]
fn phrase_hash(p: &[u32]) -> u64 {
    let mut h = p.len() as u64;
    for &t in p {
        h = (h.rotate_left(5) ^ t as u64).wrapping_mul(SPREAD);
    }
    h ^ h >> 31
}

/// The phrase front end and its two SEQUITUR(1) builders; push symbols, then
/// [`Phrases::finish`].
pub struct Phrases {
    runs: RunLength,
    terminals: RunTerminals,
    /// Where phrases end.
    cutter: Cutter,
    /// The tokens of the phrase being cut.
    current: Vec<u32>,
    /// Phrase hash to phrase id; on a collision the next hash in the probe sequence.
    ids: FxHashMap<u64, u32>,
    /// The tokens of every distinct phrase, one after the other; phrase `i` is
    /// `contents[starts[i]..starts[i + 1]]`.
    contents: Vec<u32>,
    starts: Vec<usize>,
    top: Stage,
    dictionary: Stage,
    stats: PhraseStats,
}

impl Phrases {
    /// # Panics
    /// If the window is not a power of two up to 64, or `min`, `max` or `divisor` is 0 or
    /// `min > max`.
    pub fn new(params: PhraseParams) -> Self {
        Phrases {
            runs: RunLength::default(),
            terminals: RunTerminals::new(),
            cutter: Cutter::new(params.window, params.min, params.max, params.divisor),
            current: Vec::with_capacity(params.max),
            ids: FxHashMap::default(),
            contents: Vec::new(),
            starts: vec![0],
            top: Stage::new(top_builder(params), params.threads.top()),
            dictionary: Stage::new(Builder::Sequitur(Sequitur::with_lookahead()), params.threads.dictionary()),
            stats: PhraseStats::default(),
        }
    }

    /// From now on, runs the builders `threads` names on threads of their own (as
    /// [`PhraseParams::threads`] does from the start): for the rest of a sequence once more
    /// cores are free. A builder already on a thread stays there. The grammar is the same.
    pub fn use_threads(&mut self, threads: PhraseThreads) {
        let placeholder = || Stage::Here(Builder::Sequitur(Sequitur::new()));
        if threads.top() {
            self.top = std::mem::replace(&mut self.top, placeholder()).into_thread();
        }
        if threads.dictionary() {
            self.dictionary = std::mem::replace(&mut self.dictionary, placeholder()).into_thread();
        }
    }

    /// Appends one symbol.
    #[inline]
    pub fn push(&mut self, symbol: u32) -> Result<(), GrammarFull> {
        self.stats.symbols += 1;
        match self.runs.push(symbol) {
            Some(t) => {
                self.stats.tokens += 1;
                self.token(t)
            }
            None => Ok(()),
        }
    }

    /// Appends every symbol of `symbols`.
    pub fn extend(&mut self, symbols: impl IntoIterator<Item = u32>) -> Result<(), GrammarFull> {
        for s in symbols {
            self.push(s)?;
        }
        Ok(())
    }

    /// Appends `t.run` repetitions of `t.symbol`, as a run-length front end already
    /// collapsed them (adjacent tokens must differ in symbol; the grammar is right either
    /// way, but equal neighbours are kept apart).
    #[inline]
    pub fn push_token(&mut self, t: Token) -> Result<(), GrammarFull> {
        if let Some(open) = self.runs.finish() {
            self.stats.tokens += 1;
            self.token(open)?;
        }
        self.stats.symbols += t.run;
        self.stats.tokens += 1;
        self.token(t)
    }

    #[inline]
    fn token(&mut self, t: Token) -> Result<(), GrammarFull> {
        let t = self.terminals.terminal(t)?;
        // Tokens stay below the dictionary's separators.
        if t as u64 + self.stats.distinct > MAX_TERMINAL as u64 {
            return Err(GrammarFull);
        }
        self.current.push(t);
        match self.cutter.push(spread(t)) {
            Some(len) => self.end_phrase(len),
            None => Ok(()),
        }
    }

    /// Ends a phrase with the first `len` tokens of the current one: numbers it and
    /// passes it on. The rest begin the next phrase.
    fn end_phrase(&mut self, len: usize) -> Result<(), GrammarFull> {
        let p = &self.current[..len];
        let mut h = phrase_hash(p);
        let id = loop {
            match self.ids.get(&h) {
                Some(&id) => {
                    let i = id as usize;
                    let old = &self.contents[self.starts[i]..self.starts[i + 1]];
                    // Phrases are short: a loop beats a call to memcmp.
                    if old.len() == p.len() && old.iter().zip(p).all(|(x, y)| x == y) {
                        break id;
                    }
                    // Another phrase with this hash: probe on.
                    h = h.wrapping_mul(SPREAD).wrapping_add(1);
                }
                None => {
                    let id = self.starts.len() as u32 - 1;
                    // Dictionary separators count down from the top terminal; tokens count up.
                    if id as u64 + self.terminals.n_terminals() as u64 > MAX_TERMINAL as u64 {
                        return Err(GrammarFull);
                    }
                    let separator = MAX_TERMINAL - id;
                    self.ids.insert(h, id);
                    self.contents.extend_from_slice(p);
                    self.starts.push(self.contents.len());
                    self.dictionary.extend(p)?;
                    self.dictionary.push(separator)?;
                    self.stats.distinct += 1;
                    self.stats.dictionary_tokens += p.len() as u64;
                    break id;
                }
            }
        };
        self.top.push(id)?;
        self.stats.phrases += 1;
        self.current.drain(..len);
        self.cutter.cut(len);
        Ok(())
    }

    /// Ends the last run and phrase and returns the grammar.
    pub fn finish(self) -> Result<Grammar, GrammarFull> {
        Ok(self.finish_with_stats()?.0)
    }

    /// Ends the last run and phrase and returns the grammar with every rule kept, also
    /// those used once (each phrase's rule and each run's), numbered by first use (for
    /// merging with other grammars, whose rules may be the same), leaving the front end as
    /// new, with its memory kept for the next sequence (its builders must not be on
    /// threads).
    pub(crate) fn take_keeping_rules(&mut self) -> Result<Grammar, GrammarFull> {
        if let Some(t) = self.runs.finish() {
            self.stats.tokens += 1;
            self.token(t)?;
        }
        if !self.current.is_empty() {
            self.end_phrase(self.current.len())?;
        }
        let n_distinct = self.starts.len() - 1;
        let (Stage::Here(Builder::Sequitur(top)), Stage::Here(Builder::Sequitur(dictionary))) = (&mut self.top, &mut self.dictionary) else {
            panic!("take_keeping_rules is for one level of phrases, built in this thread");
        };
        let g = assemble(top.take(), dictionary.take(), n_distinct);
        let g = std::mem::take(&mut self.terminals).resolve(g);
        self.cutter.reset();
        self.current.clear();
        self.ids.clear();
        self.contents.clear();
        self.starts.clear();
        self.starts.push(0);
        self.stats = PhraseStats::default();
        Ok(g)
    }

    /// The grammar, and what the front end did.
    pub fn finish_with_stats(mut self) -> Result<(Grammar, PhraseStats), GrammarFull> {
        if let Some(t) = self.runs.finish() {
            self.stats.tokens += 1;
            self.token(t)?;
        }
        if !self.current.is_empty() {
            self.end_phrase(self.current.len())?;
        }
        let front =
            self.terminals.memory_bytes() + self.ids.capacity() * 13 + self.contents.capacity() * 4 + self.starts.capacity() * 8 + self.current.capacity() * 8;
        let n_distinct = self.starts.len() - 1;
        let ((top, top_bytes), (dictionary, dictionary_bytes)) = (self.top.finish()?, self.dictionary.finish()?);
        let mut stats = self.stats;
        stats.memory_bytes = front + top_bytes + dictionary_bytes;
        let g = inline_single_use(assemble(top, dictionary, n_distinct));
        Ok((self.terminals.resolve(g), stats))
    }
}

/// The builder of the sequence of phrase ids: SEQUITUR(1), or with more levels, phrases of
/// phrases (built in the same thread as the level above).
fn top_builder(params: PhraseParams) -> Builder {
    if params.levels > 1 {
        let inner = PhraseParams { levels: params.levels - 1, threads: PhraseThreads::Neither, ..params };
        Builder::Phrases(Box::new(Phrases::new(inner)))
    } else {
        Builder::Sequitur(Sequitur::with_lookahead())
    }
}

/// The grammar over token terminals from the top-level grammar (over phrase ids) and the
/// dictionary grammar (each phrase's body followed by its separator, in phrase order),
/// every rule kept.
fn assemble(top: Grammar, dictionary: Grammar, n_phrases: usize) -> Grammar {
    if top.rules.is_empty() || top.rules[0].is_empty() {
        return Grammar::from(vec![Vec::new()]);
    }
    let n_top = top.rules.len();
    // Dictionary rule j > 0 becomes rule n_top + j - 1; phrase rules follow.
    let dict_sym = |s: Sym| match s {
        Sym::T(t) => Sym::T(t),
        Sym::N(RuleId(j)) => Sym::N(RuleId(n_top as u32 + j - 1)),
    };
    let mut rules: Rules = top.rules;
    let mut dict = dictionary.rules.iter();
    let start = dict.next().unwrap_or_default();
    for body in dict {
        rules.push(body.iter().copied().map(dict_sym));
    }
    let mut stands_for = Vec::with_capacity(n_phrases);
    let mut body = Vec::new();
    for &s in start {
        match s {
            // Separators are above every token terminal.
            Sym::T(Terminal(t)) if MAX_TERMINAL - t < n_phrases as u32 => {
                debug_assert_eq!((MAX_TERMINAL - t) as usize, stands_for.len(), "separators come in phrase order");
                if body.len() == 1 {
                    stands_for.push(body.pop().expect("one symbol"));
                } else {
                    stands_for.push(Sym::N(RuleId(rules.len() as u32)));
                    rules.push(body.drain(..));
                }
            }
            s => body.push(dict_sym(s)),
        }
    }
    assert_eq!(stands_for.len(), n_phrases, "one separator per phrase");
    for r in 0..n_top {
        for s in rules[r].iter_mut() {
            if let Sym::T(Terminal(p)) = *s {
                *s = stands_for[p as usize];
            }
        }
    }
    Grammar::from(rules)
}

/// `g` with every rule that is used only once (and every rule not used at all) replaced
/// by its body; the rules that stay keep their relative order.
pub(crate) fn inline_single_use(g: Grammar) -> Grammar {
    let n = g.rules.len();
    let mut uses = vec![0u32; n];
    for body in &g.rules {
        for &s in body {
            if let Sym::N(RuleId(r)) = s {
                uses[r as usize] = uses[r as usize].saturating_add(1);
            }
        }
    }
    let mut number = vec![u32::MAX; n];
    let mut kept = 0u32;
    for r in 0..n {
        if r == 0 || uses[r] >= 2 {
            number[r] = kept;
            kept += 1;
        }
    }
    let mut rules = Rules::with_capacity(kept as usize, g.rules.symbols().len());
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for r in 0..n {
        if number[r] == u32::MAX {
            continue;
        }
        rules.open();
        stack.push((r as u32, 0));
        while let Some((rule, pos)) = stack.last_mut() {
            let b = &g.rules[*rule as usize];
            let Some(&s) = b.get(*pos) else {
                stack.pop();
                continue;
            };
            *pos += 1;
            match s {
                Sym::N(RuleId(x)) if number[x as usize] == u32::MAX => stack.push((x, 0)),
                Sym::N(RuleId(x)) => rules.extend_last(Sym::N(RuleId(number[x as usize]))),
                t => rules.extend_last(t),
            }
        }
    }
    Grammar::from(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(input: &[u32], params: PhraseParams) -> (Grammar, PhraseStats) {
        let mut p = Phrases::new(params);
        p.extend(input.iter().copied()).unwrap();
        p.finish_with_stats().unwrap()
    }

    fn check(input: &[u32], params: PhraseParams) -> PhraseStats {
        let (g, stats) = build(input, params);
        assert_eq!(g.expand().collect::<Vec<_>>(), input);
        let n = input.iter().max().map_or(0, |&m| m + 1);
        g.validate(Some(n)).unwrap();
        let mut renumbered = g.clone();
        renumbered.renumber_by_first_use();
        assert_eq!(renumbered, g, "rules numbered by first use");
        assert_eq!(stats.symbols, input.len() as u64);
        stats
    }

    #[test]
    fn empty_and_tiny_inputs() {
        for input in [&[][..], &[5], &[5, 5], &[1, 2], &[1, 2, 1, 2]] {
            check(input, PhraseParams::average(16));
            check(input, PhraseParams { window: 1, min: 1, max: 1, divisor: 1, threads: PhraseThreads::Neither, levels: 1 });
        }
        let (g, _) = build(&[], PhraseParams::average(16));
        assert_eq!(g.rules.to_vecs(), vec![Vec::<Sym>::new()]);
    }

    #[test]
    fn repeated_phrases_are_numbered_once() {
        // Phrases of exactly two tokens: [0 1] [2 3] [0 1] [2 3] [0 1].
        let params = PhraseParams { window: 1, min: 2, max: 2, divisor: u32::MAX, threads: PhraseThreads::Neither, levels: 1 };
        let input = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1];
        let stats = check(&input, params);
        assert_eq!((stats.tokens, stats.phrases, stats.distinct, stats.dictionary_tokens), (10, 5, 2, 4));
    }

    #[test]
    fn phrases_without_boundaries_end_where_the_hash_was_smallest() {
        // A loop of 7 tokens none of whose contexts makes a boundary: every phrase but the
        // first and the last is one iteration, from the same place.
        let params = PhraseParams { window: 2, min: 1, max: 10, divisor: u32::MAX, threads: PhraseThreads::Neither, levels: 1 };
        let input: Vec<u32> = (0..700).map(|i| i % 7).collect();
        let stats = check(&input, params);
        assert!(stats.distinct <= 3, "{stats:?}");
        assert!(stats.phrases >= 99, "{stats:?}");
    }

    #[test]
    fn runs_collapse_before_phrases_are_cut() {
        let input: Vec<u32> = (0..50).flat_map(|i| std::iter::repeat_n(i % 3, 1 + i as usize % 7)).collect();
        let stats = check(&input, PhraseParams::average(4));
        assert_eq!(stats.tokens, 50);
    }

    #[test]
    fn hash_collisions_probe_on() {
        let mut p = Phrases::new(PhraseParams { window: 1, min: 1, max: 1, divisor: 1, threads: PhraseThreads::Neither, levels: 1 });
        let cut = |p: &mut Phrases, symbol: u32| {
            let t = p.terminals.terminal(Token { symbol, run: 1 }).unwrap();
            p.current.push(t);
            p.end_phrase(1).unwrap();
            t
        };
        let a = cut(&mut p, 7);
        // Plant phrase [a] under the hash phrase [b] will look up first.
        let b = p.terminals.terminal(Token { symbol: 8, run: 1 }).unwrap();
        p.ids.insert(phrase_hash(&[b]), 0);
        cut(&mut p, 8);
        assert_eq!(p.stats.distinct, 2);
        assert_eq!(&p.contents[p.starts[1]..p.starts[2]], &[b]);
        // Both phrases are found again, [b] past the planted entry.
        cut(&mut p, 8);
        cut(&mut p, 7);
        assert_eq!(p.stats.distinct, 2);
        assert_eq!(a, 0);
        let (g, _) = p.finish_with_stats().unwrap();
        assert_eq!(g.expand().collect::<Vec<_>>(), [7, 8, 8, 7]);
    }

    #[test]
    fn threads_from_midway_give_the_same_grammar() {
        let input: Vec<u32> = (0..40_000u32).map(|i| (i * 7 + i / 13) % 23 + (i / 1000) % 5).collect();
        let (expected, _) = build(&input, PhraseParams::average(8));
        for threads in [PhraseThreads::Top, PhraseThreads::Dictionary, PhraseThreads::Both] {
            let mut p = Phrases::new(PhraseParams::average(8));
            p.extend(input[..15_000].iter().copied()).unwrap();
            p.use_threads(threads);
            p.extend(input[15_000..].iter().copied()).unwrap();
            assert_eq!(p.finish().unwrap(), expected, "threads from midway: {threads:?}");
        }
    }

    #[test]
    fn threads_give_the_same_grammar() {
        let input: Vec<u32> = (0..200_000u64).map(|i| ((i * i / 7 + i / 13) % 40) as u32).collect();
        let one = build(&input, PhraseParams::average(16));
        for threads in [PhraseThreads::Top, PhraseThreads::Dictionary, PhraseThreads::Both] {
            let other = build(&input, PhraseParams::average(16).with_threads(threads));
            assert_eq!(one.0, other.0);
        }
        check(&input, PhraseParams::average(16));
    }

    /// Phrases of phrases: the grammar derives the input, at every depth, with the
    /// builders in this thread or on threads of their own (the same grammar).
    #[test]
    fn levels_of_phrases_derive_the_input() {
        let input: Vec<u32> = (0..120_000u64).map(|i| ((i * i / 7 + i / 13) % 40) as u32 + (i % 1000 < 3) as u32 * 50).collect();
        for levels in [1u8, 2, 3, 4] {
            let params = PhraseParams::average(4).with_levels(levels);
            let stats = check(&input, params);
            assert_eq!(stats.symbols, input.len() as u64);
            let (one, _) = build(&input, params);
            for threads in [PhraseThreads::Top, PhraseThreads::Both] {
                let (other, _) = build(&input, params.with_threads(threads));
                assert_eq!(one, other, "{levels} levels, {threads:?}");
            }
        }
        for input in [&[][..], &[5], &[5, 5], &[1, 2], &[1, 2, 1, 2]] {
            check(input, PhraseParams::average(2).with_levels(3));
        }
    }

    #[test]
    fn single_use_rules_are_inlined() {
        let g = Grammar::from(vec![
            vec![Sym::N(RuleId(1)), Sym::N(RuleId(2)), Sym::N(RuleId(2))],
            vec![Sym::T(Terminal(0)), Sym::N(RuleId(3))],
            vec![Sym::T(Terminal(1)), Sym::T(Terminal(2))],
            vec![Sym::T(Terminal(3)), Sym::T(Terminal(4))],
        ]);
        let h = inline_single_use(g.clone());
        assert_eq!(
            h.rules.to_vecs(),
            vec![
                vec![Sym::T(Terminal(0)), Sym::T(Terminal(3)), Sym::T(Terminal(4)), Sym::N(RuleId(1)), Sym::N(RuleId(1))],
                vec![Sym::T(Terminal(1)), Sym::T(Terminal(2))]
            ]
        );
        assert!(h.expand().eq(g.expand()));
    }
}
