//! The builders, which turn a sequence into a [`Grammar`](crate::Grammar), and the front
//! ends that take work off them.
//!
//! * `sequitur`: SEQUITUR and SEQUITUR(1), online, with optional rule prediction;
//! * `repair`: Re-Pair, offline, whole or in bounded blocks;
//! * `runs`: runs of one symbol collapsed into tokens, and tokens as builder terminals;
//! * `cut`: content-defined cuts of a token stream (a rolling hash), for phrases and segments;
//! * `phrases`: content-defined phrases of tokens, built by two SEQUITUR(1) builders (the
//!   sequence of phrase ids, in more levels, by phrases again);
//! * `segments`: content-defined segments of tokens, each built behind phrases on a pool
//!   of threads, merged into one grammar.

mod cut;
mod phrases;
mod repair;
mod runs;
mod segments;
mod sequitur;

pub use phrases::{PhraseParams, PhraseStats, PhraseThreads, Phrases};
pub use repair::{repair, repair_with_stats, RePairBlocks, RePairStats};
pub use runs::{collapse_run_rules, encode_token, GrammarFull, RunLength, RunTerminals, Token, TokenError, Tokens};
pub use segments::{SegmentParams, SegmentStats, Segments};
pub use sequitur::{Sequitur, MAX_TERMINAL};
