//! Grammars that compress a sequence of symbols, and the operations analyses need on them.
//!
//! A [`Grammar`] is a list of rules; rule 0 is the start rule, and expanding it gives back
//! the sequence exactly. Its symbols ([`Sym`]) are terminals ([`Terminal`]) or references
//! to other rules ([`RuleId`]), and the analyses take and return those types. The sequence
//! itself is plain `u32`s, whatever they stand for: what a builder reads and what
//! [`Grammar::expand`] gives back.
//!
//! Builders: [`Sequitur`] (Nevill-Manning & Witten), online and linear time, with Larus's
//! one-symbol look-ahead as an option (SEQUITUR(1)); [`repair`] (most frequent digram
//! first, Larsson & Moffat), offline and linear time. Front ends in front of a builder:
//! runs of one symbol collapsed ([`RunTerminals`]), and content-defined phrases built by
//! two SEQUITUR(1) builders ([`Phrases`]).
//!
//! The crate has three parts, one folder each, around the grammar type (`grammar`):
//!
//! * `build`: the builders and their front ends, from a sequence to a grammar;
//! * `codec`: the grammar's binary format ([`encode_grammar`], [`decode_grammar`]);
//! * `analysis`: questions answered on the rule DAG without expanding it ([`dff`] among
//!   them).
//!
//! This crate knows nothing of WebAssembly or paths: terminals are just numbers.

mod analysis;
mod build;
mod codec;
mod grammar;

pub use analysis::dff;
pub use analysis::{
    contexts, contexts_brute, first_and_last, hot_subpaths, hot_subpaths_brute, runs_before, Context, GrammarError, GrammarStats, HotParams, HotSubpath,
    PatternCounts,
};
pub use build::{
    collapse_run_rules, encode_token, repair, repair_with_stats, GrammarFull, PhraseParams, PhraseStats, PhraseThreads, Phrases, RePairBlocks, RePairStats,
    RunLength, RunTerminals, Sequitur, Token, TokenError, Tokens, MAX_TERMINAL,
};
pub use codec::format::{GrammarDecodeError, GRAMMAR_FORMAT_VERSION, MAX_SYMBOLS_PER_BYTE};
pub use codec::{decode_grammar, encode_grammar, encode_grammar_v1};
pub use grammar::{Grammar, RuleId, Sym, Terminal};
