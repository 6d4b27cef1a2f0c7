//! Segments: one grammar built on many cores, from content-defined pieces of the sequence
//! built apart and merged.
//!
//! The token stream (runs already collapsed, [`Token`]) is cut into *segments* of about
//! [`SegmentParams`]' length at content-defined places: after a token where a rolling
//! hash of the last few tokens falls below a threshold, once the segment is long enough;
//! a segment that reaches the maximum length ends where that hash was smallest. Equal
//! stretches of the sequence are cut at the same tokens wherever they occur, so their
//! segments' grammars repeat too. Each segment's grammar is built on its own, behind the
//! phrase front end ([`Phrases`]), on a pool of worker threads (or in the pushing thread
//! when there are none), and comes back in segment order to the merge, which runs in the
//! pushing thread as results arrive:
//!
//! 1. every rule of a segment's grammar is *hash-consed* into one table of rules, children
//!    before parents: a rule whose body (with its children's merged ids) was seen in an
//!    earlier segment is that rule, so what repeats across segments is kept once;
//! 2. each segment's start rule, over terminals and merged rules, is appended to one more
//!    [`Phrases`] builder, the *top*: what repeats across segments at the level of whole
//!    rules becomes rules of the top;
//! 3. at the end the top's grammar and the merged rules make one grammar; rules used only
//!    once are inlined and the rules numbered by first use.
//!
//! A sequence of one segment gives the grammar [`Phrases`] builds, except that rules used
//! once are inlined after runs are resolved (so also single-use doubling rules); the
//! grammar is the same for any number of threads (segments are cut by content, merged in
//! order). Memory is the merged grammar, the top builder, and the segments in flight (a
//! few per worker: the queue holds one per worker, and the consumer of a recording hands
//! out more only while fewer than two per worker are unmerged, [`Segments::ready`]).

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rustc_hash::FxHashMap;

use super::cut::Cutter;
use super::phrases::inline_single_use;
use crate::{Grammar, GrammarFull, PhraseParams, Phrases, RuleId, RunLength, Sym, Terminal, Token, MAX_TERMINAL};

/// How the token stream is cut into segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentParams {
    /// No segment is shorter (in tokens), except the last.
    pub min: usize,
    /// No segment is longer.
    pub max: usize,
    /// A segment of at least `min` tokens ends after a token with probability `1 / divisor`.
    pub divisor: u32,
}

impl SegmentParams {
    /// Segments of about `average` tokens: at least `average / 4`, at most `4 × average`.
    pub fn average(average: usize) -> Self {
        let average = average.max(1);
        let min = (average / 4).max(1);
        SegmentParams { min, max: 4 * average, divisor: (average - min + 1) as u32 }
    }
}

/// What the segment builder did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentStats {
    /// Tokens pushed, and the symbols they stand for.
    pub tokens: u64,
    pub symbols: u64,
    pub segments: u64,
    /// Rules of the segments' grammars (start rules excepted), and how many of them were
    /// new to the merged table.
    pub segment_rules: u64,
    pub merged_rules: u64,
    /// Symbols of the segments' start rules: what the top builder received.
    pub top_symbols: u64,
    /// Bytes of heap at the end, roughly: the merged rules and the top builder.
    pub memory_bytes: usize,
}

/// A token spread over 64 bits, for the rolling hash.
#[inline]
fn spread(t: Token) -> u64 {
    let h = (t.symbol as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ t.run.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ h >> 29
}

type Job = (u64, Vec<Token>);
type Done = (u64, std::thread::Result<Result<Grammar, GrammarFull>>);

/// The worker threads and their queues; emptied token buffers come back for reuse.
struct Pool {
    jobs: Option<mpsc::SyncSender<Job>>,
    done: mpsc::Receiver<Done>,
    spare: mpsc::Receiver<Vec<Token>>,
    workers: Vec<JoinHandle<()>>,
    threads: usize,
}

impl Pool {
    fn new(threads: usize, phrases: PhraseParams) -> Pool {
        let (jobs, job_rx) = mpsc::sync_channel::<Job>(threads);
        let (done_tx, done) = mpsc::channel::<Done>();
        let (spare_tx, spare) = mpsc::channel::<Vec<Token>>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let workers = (0..threads)
            .map(|_| {
                let (rx, tx, spare_tx) = (Arc::clone(&job_rx), done_tx.clone(), spare_tx.clone());
                std::thread::spawn(move || {
                    // One builder per worker, its memory reused segment after segment.
                    let mut builder = SegmentBuilder::new(phrases);
                    loop {
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok((i, mut tokens)) = job else { return };
                        // A panic goes back as the segment's result, to be resumed where it
                        // is merged.
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| builder.build(&tokens)));
                        tokens.clear();
                        let _ = spare_tx.send(tokens);
                        if tx.send((i, r)).is_err() {
                            return;
                        }
                    }
                })
            })
            .collect();
        Pool { jobs: Some(jobs), done, spare, workers, threads }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// Builds segments one after the other behind phrases, reusing one front end's memory.
struct SegmentBuilder {
    params: PhraseParams,
    phrases: Option<Phrases>,
}

impl SegmentBuilder {
    fn new(params: PhraseParams) -> Self {
        SegmentBuilder { params, phrases: None }
    }

    /// One segment's grammar, every rule kept.
    fn build(&mut self, tokens: &[Token]) -> Result<Grammar, GrammarFull> {
        // Taken out while in use: after an error the next segment starts afresh.
        let mut p = self.phrases.take().unwrap_or_else(|| Phrases::new(self.params));
        for &t in tokens {
            p.push_token(t)?;
        }
        let g = p.take_keeping_rules()?;
        self.phrases = Some(p);
        Ok(g)
    }
}

/// Tokens the rolling hash that cuts segments covers.
const WINDOW: usize = 8;

/// The segment builder: push symbols or tokens, then [`Segments::finish`].
pub struct Segments {
    phrases: PhraseParams,
    runs: RunLength,
    /// Where segments end, and the tokens of the segment being cut.
    cutter: Cutter,
    current: Vec<Token>,
    pool: Option<Pool>,
    /// Builds segments in this thread when there is no pool.
    here: SegmentBuilder,
    /// Segments handed out, and results that came back out of order.
    sent: u64,
    next: u64,
    early: FxHashMap<u64, Result<Grammar, GrammarFull>>,
    merge: Merge,
    stats: SegmentStats,
}

impl Segments {
    /// A builder cutting segments as `params` says, each built behind phrases of
    /// `phrases`, in the pushing thread until [`Segments::use_threads`].
    pub fn new(params: SegmentParams, phrases: PhraseParams) -> Self {
        assert!(params.min >= 1 && params.min <= params.max && params.divisor >= 1, "bad segment lengths");
        Segments {
            phrases,
            runs: RunLength::default(),
            cutter: Cutter::new(WINDOW, params.min, params.max, params.divisor),
            current: Vec::new(),
            pool: None,
            here: SegmentBuilder::new(phrases),
            sent: 0,
            next: 0,
            early: FxHashMap::default(),
            merge: Merge::new(phrases),
            stats: SegmentStats::default(),
        }
    }

    /// From now on, builds segments on `threads` worker threads (none: in the pushing
    /// thread, each when it ends). The grammar is the same.
    pub fn use_threads(&mut self, threads: usize) -> Result<(), GrammarFull> {
        if self.pool.as_ref().map_or(0, |p| p.threads) == threads {
            return Ok(());
        }
        // Results of the old pool first, so that its workers can be let go.
        self.drain(true)?;
        self.pool = (threads > 0).then(|| Pool::new(threads, self.phrases));
        Ok(())
    }

    /// Whether a segment ending now would be taken without waiting for a worker (the
    /// results that are in merged first).
    pub fn ready(&mut self) -> Result<bool, GrammarFull> {
        self.drain(false)?;
        Ok(match &self.pool {
            None => true,
            Some(p) => self.sent - self.next < 2 * p.threads as u64,
        })
    }

    /// Appends one symbol.
    #[inline]
    pub fn push(&mut self, symbol: u32) -> Result<(), GrammarFull> {
        match self.runs.push(symbol) {
            Some(t) => self.token(t),
            None => Ok(()),
        }
    }

    /// Appends `t.run` repetitions of `t.symbol`.
    #[inline]
    pub fn push_token(&mut self, t: Token) -> Result<(), GrammarFull> {
        if let Some(open) = self.runs.finish() {
            self.token(open)?;
        }
        self.token(t)
    }

    #[inline]
    fn token(&mut self, t: Token) -> Result<(), GrammarFull> {
        self.stats.tokens += 1;
        self.stats.symbols += t.run;
        self.current.push(t);
        match self.cutter.push(spread(t)) {
            Some(len) => self.end_segment(len),
            None => Ok(()),
        }
    }

    /// Ends a segment with the first `len` tokens of the current one and hands it out;
    /// the rest begin the next segment.
    fn end_segment(&mut self, len: usize) -> Result<(), GrammarFull> {
        if len == 0 {
            return Ok(());
        }
        self.stats.segments += 1;
        let i = self.sent;
        self.sent += 1;
        // The rest goes to a buffer a worker gave back, if there is one.
        let mut next = self.pool.as_ref().and_then(|p| p.spare.try_recv().ok()).unwrap_or_default();
        next.extend_from_slice(&self.current[len..]);
        self.current.truncate(len);
        let tokens = std::mem::replace(&mut self.current, next);
        self.cutter.cut(len);
        match &self.pool {
            None => {
                let g = self.here.build(&tokens);
                self.early.insert(i, g);
                let mut tokens = tokens;
                tokens.clear();
                // Reused for the next segment's rest.
                if self.current.capacity() < tokens.capacity() {
                    tokens.extend_from_slice(&self.current);
                    self.current = tokens;
                }
            }
            Some(pool) => {
                let jobs = pool.jobs.as_ref().expect("the pool takes jobs until dropped");
                if let Err(mpsc::SendError((_, tokens))) = jobs.send((i, tokens)) {
                    // No worker is left: build it here.
                    let g = self.here.build(&tokens);
                    self.early.insert(i, g);
                }
            }
        }
        self.drain(false)
    }

    /// Merges the results that are in, in order; with `wait`, waits for every segment.
    fn drain(&mut self, wait: bool) -> Result<(), GrammarFull> {
        while self.next < self.sent {
            let r = match self.early.remove(&self.next) {
                Some(r) => r,
                None => {
                    let Some(pool) = &self.pool else { unreachable!("a segment not built here went to the pool") };
                    let got = if wait { pool.done.recv().ok() } else { pool.done.try_recv().ok() };
                    match got {
                        Some((_, Err(panic))) => std::panic::resume_unwind(panic),
                        Some((i, Ok(r))) if i == self.next => r,
                        Some((i, Ok(r))) => {
                            self.early.insert(i, r);
                            continue;
                        }
                        None if wait => unreachable!("every worker gone with a segment unanswered: a panic is sent back"),
                        None => return Ok(()),
                    }
                }
            };
            self.next += 1;
            let g = r?;
            self.stats.segment_rules += g.rules.len().saturating_sub(1) as u64;
            self.merge.add(g)?;
        }
        Ok(())
    }

    /// Ends the last run and segment and returns the grammar.
    pub fn finish(self) -> Result<Grammar, GrammarFull> {
        Ok(self.finish_with_stats()?.0)
    }

    /// The grammar, and what the builder did.
    pub fn finish_with_stats(mut self) -> Result<(Grammar, SegmentStats), GrammarFull> {
        if let Some(t) = self.runs.finish() {
            self.token(t)?;
        }
        self.end_segment(self.current.len())?;
        self.drain(true)?;
        self.pool = None;
        let mut stats = self.stats;
        stats.merged_rules = self.merge.bodies.len() as u64;
        stats.top_symbols = self.merge.top_symbols;
        stats.memory_bytes = self.merge.memory_bytes();
        Ok((self.merge.finish()?, stats))
    }
}

/// The merge: segment grammars hash-consed into one table of rules, their start rules
/// built into one more grammar.
struct Merge {
    /// The merged rules' bodies (children are merged rules) and their ids by body.
    bodies: Vec<Box<[Sym]>>,
    ids: FxHashMap<Box<[Sym]>, u32>,
    /// The top builder's terminals: what each stands for (a terminal, or a merged rule).
    top_terminals: FxHashMap<Sym, u32>,
    meaning: Vec<Sym>,
    top: Option<Phrases>,
    phrases: PhraseParams,
    /// The only segment's grammar, kept as it is until a second one arrives.
    first: Option<Grammar>,
    top_symbols: u64,
}

impl Merge {
    fn new(phrases: PhraseParams) -> Self {
        Merge {
            bodies: Vec::new(),
            ids: FxHashMap::default(),
            top_terminals: FxHashMap::default(),
            meaning: Vec::new(),
            top: None,
            phrases,
            first: None,
            top_symbols: 0,
        }
    }

    fn add(&mut self, g: Grammar) -> Result<(), GrammarFull> {
        if self.top.is_none() && self.first.is_none() {
            self.first = Some(g);
            return Ok(());
        }
        if let Some(first) = self.first.take() {
            self.top = Some(Phrases::new(self.phrases));
            self.add_rules(first)?;
        }
        self.add_rules(g)
    }

    fn add_rules(&mut self, g: Grammar) -> Result<(), GrammarFull> {
        let Some(start) = g.rules.first() else { return Ok(()) };
        // Children before parents: a post-order of the rules reachable from the start.
        let n = g.rules.len();
        let mut merged = vec![u32::MAX; n];
        let mut stack: Vec<(u32, usize)> = Vec::new();
        let mut body: Vec<Sym> = Vec::new();
        for &s in start {
            let Sym::N(RuleId(root)) = s else { continue };
            if merged[root as usize] != u32::MAX {
                continue;
            }
            stack.push((root, 0));
            while let Some((r, pos)) = stack.last_mut() {
                let rule = &g.rules[*r as usize];
                if let Some(&s) = rule.get(*pos) {
                    *pos += 1;
                    if let Sym::N(RuleId(c)) = s {
                        if merged[c as usize] == u32::MAX {
                            stack.push((c, 0));
                        }
                    }
                    continue;
                }
                let r = *r as usize;
                stack.pop();
                body.clear();
                body.extend(g.rules[r].iter().map(|&s| match s {
                    Sym::N(RuleId(c)) => Sym::N(RuleId(merged[c as usize])),
                    t => t,
                }));
                merged[r] = match self.ids.get(&body[..]) {
                    Some(&id) => id,
                    None => {
                        let id = self.bodies.len() as u32;
                        let b: Box<[Sym]> = body.as_slice().into();
                        self.ids.insert(b.clone(), id);
                        self.bodies.push(b);
                        id
                    }
                };
            }
        }
        let top = self.top.as_mut().expect("a top builder once there are two segments");
        self.top_symbols += start.len() as u64;
        for &s in start {
            let s = match s {
                Sym::N(RuleId(r)) => Sym::N(RuleId(merged[r as usize])),
                t => t,
            };
            let next = self.meaning.len() as u32;
            let t = *self.top_terminals.entry(s).or_insert(next);
            if t == next {
                if next >= MAX_TERMINAL / 2 {
                    return Err(GrammarFull);
                }
                self.meaning.push(s);
            }
            top.push(t)?;
        }
        Ok(())
    }

    fn memory_bytes(&self) -> usize {
        let rules: usize = self.bodies.iter().map(|b| b.len() * 8 * 2 + 48).sum();
        rules + self.top_terminals.capacity() * 13 + self.meaning.capacity() * 8
    }

    fn finish(mut self) -> Result<Grammar, GrammarFull> {
        if let Some(g) = self.first.take() {
            let mut g = inline_single_use(g);
            g.renumber_by_first_use();
            return Ok(g);
        }
        let Some(top) = self.top.take() else { return Ok(Grammar::from(vec![Vec::new()])) };
        let mut g = top.finish()?;
        // Merged rule j becomes rule offset + j.
        let offset = g.rules.len() as u32;
        let merged = |s: Sym| match s {
            Sym::N(RuleId(j)) => Sym::N(RuleId(offset + j)),
            t => t,
        };
        for r in 0..g.rules.len() {
            for s in g.rules[r].iter_mut() {
                if let Sym::T(Terminal(t)) = *s {
                    *s = merged(self.meaning[t as usize]);
                }
            }
        }
        for b in &self.bodies {
            g.rules.push(b.iter().map(|&s| merged(s)));
        }
        let mut g = inline_single_use(g);
        g.renumber_by_first_use();
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(input: &[u32], params: SegmentParams, threads: usize) -> (Grammar, SegmentStats) {
        let mut s = Segments::new(params, PhraseParams::average(8));
        s.use_threads(threads).unwrap();
        for &x in input {
            s.push(x).unwrap();
        }
        s.finish_with_stats().unwrap()
    }

    fn phrases(input: &[u32]) -> Grammar {
        let mut p = Phrases::new(PhraseParams::average(8));
        p.extend(input.iter().copied()).unwrap();
        p.finish().unwrap()
    }

    /// A loop-heavy sequence with a few phases, as path traces are.
    fn trace(n: usize, seed: u64) -> Vec<u32> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let phase = (out.len() / 5000) as u32 % 3;
            let body = 3 + (x % 5) as u32;
            for _ in 0..1 + x % 40 {
                for k in 0..body {
                    out.push(phase * 10 + k + (x >> 60) as u32 % 2);
                }
            }
            out.push(100 + (x >> 50) as u32 % 7);
        }
        out.truncate(n);
        out
    }

    #[test]
    fn one_segment_is_about_the_phrase_grammar() {
        for input in [vec![], vec![5], vec![1, 2, 1, 2], trace(3000, 1)] {
            let (g, stats) = build(&input, SegmentParams::average(1 << 20), 0);
            assert!(stats.segments <= 1);
            // The phrase grammar, with rules used once inlined also where runs resolved.
            let p = phrases(&input);
            assert!(g.expand().eq(p.expand()));
            assert!(g.n_symbols() <= p.n_symbols() && g.rules.len() <= p.rules.len());
        }
    }

    #[test]
    fn segments_expand_to_the_input_with_any_threads() {
        for (seed, average) in [(1, 1), (2, 7), (3, 64), (4, 500), (5, 4096)] {
            let input = trace(40_000, seed);
            let (expected, stats) = build(&input, SegmentParams::average(average), 0);
            assert!(expected.expand().eq(input.iter().copied()), "average {average}");
            expected.validate(Some(200)).unwrap();
            let mut renumbered = expected.clone();
            renumbered.renumber_by_first_use();
            assert_eq!(renumbered, expected, "rules numbered by first use");
            assert!(stats.segments > 1, "average {average}: {stats:?}");
            assert_eq!(stats.symbols, input.len() as u64);
            for threads in [1, 2, 3] {
                assert_eq!(build(&input, SegmentParams::average(average), threads).0, expected, "average {average}, {threads} threads");
            }
        }
    }

    #[test]
    fn a_reused_builder_builds_as_a_new_one() {
        let mut reused = SegmentBuilder::new(PhraseParams::average(8));
        for seed in 1..6 {
            let mut runs = RunLength::default();
            let mut tokens: Vec<Token> = trace(5000 * seed as usize, seed).into_iter().filter_map(|x| runs.push(x)).collect();
            tokens.extend(runs.finish());
            let fresh = SegmentBuilder::new(PhraseParams::average(8)).build(&tokens).unwrap();
            assert_eq!(reused.build(&tokens).unwrap(), fresh, "seed {seed}");
        }
    }

    #[test]
    fn threads_from_midway_give_the_same_grammar() {
        let input = trace(60_000, 9);
        let params = SegmentParams::average(300);
        let (expected, _) = build(&input, params, 0);
        let mut s = Segments::new(params, PhraseParams::average(8));
        for &x in &input[..20_000] {
            s.push(x).unwrap();
        }
        s.use_threads(2).unwrap();
        for &x in &input[20_000..40_000] {
            s.push(x).unwrap();
        }
        s.use_threads(0).unwrap();
        for &x in &input[40_000..] {
            s.push(x).unwrap();
        }
        assert_eq!(s.finish().unwrap(), expected);
    }

    #[test]
    fn repetition_across_segments_is_kept_once() {
        // The same stretch ten times: the merged grammar is barely larger than one copy's
        // built the same way.
        let once = trace(20_000, 3);
        let input: Vec<u32> = (0..10).flat_map(|_| once.iter().copied()).collect();
        let (g, stats) = build(&input, SegmentParams::average(2000), 2);
        assert!(g.expand().eq(input.iter().copied()));
        assert!(stats.segments >= 20, "{stats:?}");
        let single = build(&once, SegmentParams::average(2000), 2).0.n_symbols();
        assert!(g.n_symbols() < single * 3 / 2, "{} symbols against {single} for one copy", g.n_symbols());
    }
}
