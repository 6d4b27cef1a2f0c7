//! A running grammar builder: the builder a [`Builder`] names, behind the front ends that
//! take work off it. Recording, `wpp compress` and the reports that compress a trace
//! profile all build through [`GrammarBuilder::for_paths`], so that one run always gives
//! one grammar.

use wpp_grammar::{Grammar, GrammarFull, PhraseParams, PhraseStats, PhraseThreads, Phrases, RunLength, RunTerminals, SegmentParams, Segments, Sequitur, Token};

use crate::Builder;

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
    /// SEQUITUR(1) behind the run-length and phrase front ends ([`wpp_grammar::Phrases`]).
    Phrases(Box<Phrases>),
    /// The same in segments built apart and merged ([`wpp_grammar::Segments`]).
    Segments(Box<Segments>),
}

/// Phrases of about this many tokens: the fastest on the real programs' traces at no cost
/// in size (`wpp-bench grammar`, builders `sequitur1+cN`).
pub const PHRASE_TOKENS: usize = 8;

/// Levels of phrases: the phrase ids are cut into phrases once more before SEQUITUR(1)
/// sees them, which halves the builders' work on an interpreter's trace, whose phrase ids
/// repeat (`wpp-bench grammar`, builders `sequitur1+c8l2`; `wpp-bench record`).
pub const PHRASE_LEVELS: u8 = 2;

/// A good size for segments built apart and merged
/// ([`GrammarBuilder::for_paths_in_segments`]): about this many tokens.
pub const SEGMENT_TOKENS: usize = 1 << 20;

/// What building a grammar took: the builder's peak memory, and what the phrase front end
/// did (SEQUITUR(1) behind phrases, [`GrammarBuilder::for_paths`]; `None` for the other
/// builders and for segments).
#[derive(Clone, Copy, Debug, Default)]
pub struct BuildStats {
    pub memory_bytes: usize,
    pub phrases: Option<PhraseStats>,
}

struct Runs {
    collapse: RunLength,
    terminals: RunTerminals,
}

/// Re-Pair works on blocks of this many symbols, so its memory stays bounded.
pub const REPAIR_BLOCK: usize = 1 << 24;

/// Whether the online builders (SEQUITUR, SEQUITUR(1)) predict rules: input that repeats
/// the expansion of a rule that recently ended the start rule is appended as that rule
/// ([`Sequitur::predicting`]): faster, larger grammars. Re-Pair ignores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Prediction {
    /// Every symbol is appended on its own.
    #[default]
    Off,
    /// Repeats of recent rules are appended as the rule.
    Rules,
}

impl Prediction {
    /// The name machine output uses: `off` or `rules`.
    pub fn name(self) -> &'static str {
        match self {
            Prediction::Off => "off",
            Prediction::Rules => "rules",
        }
    }
}

/// How a profile's grammar was built, beside the builder its mode names (section
/// `grammar-options`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GrammarOptions {
    pub prediction: Prediction,
}

impl GrammarBuilder {
    /// A builder; the online ones predicting rules as `prediction` says.
    pub fn new(b: Builder, prediction: Prediction) -> Self {
        let online = |s: Sequitur| {
            Inner::Online(match prediction {
                Prediction::Off => s,
                Prediction::Rules => s.predicting(),
            })
        };
        let inner = match b {
            Builder::Sequitur => online(Sequitur::new()),
            Builder::Sequitur1 => online(Sequitur::with_lookahead()),
            Builder::RePair => Inner::RePair(wpp_grammar::RePairBlocks::new(REPAIR_BLOCK)),
        };
        GrammarBuilder { inner, runs: None }
    }

    /// The builder for path traces: SEQUITUR(1) without prediction behind the run-length
    /// front end and [`PHRASE_LEVELS`] levels of phrases; the others behind the run-length
    /// front end.
    pub fn for_paths(b: Builder, prediction: Prediction) -> Self {
        match (b, prediction) {
            (Builder::Sequitur1, Prediction::Off) => {
                let params = PhraseParams::average(PHRASE_TOKENS).with_levels(PHRASE_LEVELS);
                GrammarBuilder { inner: Inner::Phrases(Box::new(Phrases::new(params))), runs: None }
            }
            _ => GrammarBuilder::new(b, prediction).collapsing_runs(),
        }
    }

    /// The same, but SEQUITUR(1) behind phrases builds content-defined segments of about
    /// `segment_tokens` tokens apart, each on any of the threads [`GrammarBuilder::use_threads`]
    /// gives, and merges them (the grammar depends on the segment size, not on the threads).
    pub fn for_paths_in_segments(b: Builder, prediction: Prediction, segment_tokens: usize) -> Self {
        match (b, prediction) {
            (Builder::Sequitur1, Prediction::Off) => {
                let segments = Segments::new(SegmentParams::average(segment_tokens), PhraseParams::average(PHRASE_TOKENS));
                GrammarBuilder { inner: Inner::Segments(Box::new(segments)), runs: None }
            }
            _ => GrammarBuilder::new(b, prediction).collapsing_runs(),
        }
    }

    /// With the run-length front end (phrases have their own).
    pub fn collapsing_runs(mut self) -> Self {
        self.runs = Some(Runs { collapse: RunLength::default(), terminals: RunTerminals::new() });
        self
    }

    #[inline]
    fn push_inner(&mut self, t: u32) -> Result<(), GrammarFull> {
        match &mut self.inner {
            Inner::Online(s) => s.push(t),
            Inner::RePair(r) => r.push(t),
            Inner::Phrases(p) => p.push(t)?,
            Inner::Segments(p) => p.push(t)?,
        }
        Ok(())
    }

    /// Appends one symbol.
    #[inline]
    pub fn push(&mut self, t: u32) -> Result<(), GrammarFull> {
        match &mut self.runs {
            None => self.push_inner(t),
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
            None => match &mut self.inner {
                Inner::Phrases(p) => p.push_token(token),
                Inner::Segments(p) => p.push_token(token),
                _ => (0..token.run).try_for_each(|_| self.push_inner(token.symbol)),
            },
            Some(r) => {
                let t = r.terminals.terminal(token)?;
                self.push_inner(t)
            }
        }
    }

    /// Builds the rest of the sequence on up to `threads` threads, as far as the builder
    /// can share its work: SEQUITUR(1) behind phrases runs its two builders on threads of
    /// their own when `threads >= 2`; in segments, it builds them on `threads` threads
    /// besides this one (0: here). The grammar is the same.
    pub fn use_threads(&mut self, threads: usize) -> Result<(), GrammarFull> {
        match &mut self.inner {
            Inner::Phrases(p) if threads >= 2 => {
                p.use_threads(PhraseThreads::Both);
                Ok(())
            }
            Inner::Segments(s) => s.use_threads(threads),
            _ => Ok(()),
        }
    }

    /// Whether more symbols can be pushed now without waiting for a thread (builders
    /// without threads are always ready).
    pub fn ready(&mut self) -> Result<bool, GrammarFull> {
        match &mut self.inner {
            Inner::Segments(s) => s.ready(),
            _ => Ok(true),
        }
    }

    pub fn finish(self) -> Result<Grammar, GrammarFull> {
        Ok(self.finish_measured()?.0)
    }

    /// The grammar, the builder's peak memory and what its front ends did.
    pub fn finish_measured(mut self) -> Result<(Grammar, BuildStats), GrammarFull> {
        if let Some(last) = self.runs.as_mut().and_then(|r| r.collapse.finish()) {
            self.push_token(last)?;
        }
        let mut phrases = None;
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
            Inner::Phrases(p) => {
                let (g, stats) = p.finish_with_stats()?;
                phrases = Some(stats);
                (g, stats.memory_bytes)
            }
            Inner::Segments(p) => {
                let (g, stats) = p.finish_with_stats()?;
                (g, stats.memory_bytes)
            }
        };
        let g = match self.runs {
            Some(r) => {
                bytes += r.terminals.memory_bytes();
                r.terminals.resolve(g)
            }
            None => g,
        };
        Ok((g, BuildStats { memory_bytes: bytes, phrases }))
    }
}
