//! Grammars that compress a sequence of symbols, and the operations analyses need on them.
//!
//! A [`Grammar`] is a list of rules; rule 0 is the start rule, and expanding it gives back
//! the sequence exactly. Symbols are dense terminals (`u32`) or references to other rules.
//! Builders: [`Sequitur`] (Nevill-Manning & Witten), online and linear time, with Larus's
//! one-symbol look-ahead as an option (SEQUITUR(1)); [`repair`] (most frequent digram
//! first, Larsson & Moffat), offline and linear time. Front ends in front of a builder:
//! runs of one symbol collapsed ([`RunTerminals`]), and content-defined phrases built by
//! two SEQUITUR(1) builders ([`Phrases`]).
//!
//! This crate knows nothing of WebAssembly or paths: terminals are just numbers.

mod dag;
pub mod dff;
mod encode;
mod encode_v1;
mod encode_v2;
mod format;
mod grammar;
mod hot;
mod occur;
mod phrases;
mod query;
mod rans;
mod repair;
mod runs;
mod sequitur;

pub use dag::*;
pub use encode::*;
pub use format::{GrammarDecodeError, GRAMMAR_FORMAT_VERSION, MAX_SYMBOLS_PER_BYTE};
pub use grammar::{Grammar, Sym};
pub use hot::{hot_subpaths, hot_subpaths_brute, HotParams, HotSubpath};
pub use occur::PatternCounts;
pub use phrases::{PhraseParams, PhraseStats, Phrases};
pub use query::{contexts, contexts_brute, first_and_last, runs_before, Context};
pub use repair::*;
pub use runs::{collapse_run_rules, encode_token, GrammarFull, RunLength, RunTerminals, Token, TokenError, Tokens};
pub use sequitur::{Sequitur, MAX_TERMINAL};
