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
//! runs of one symbol collapsed ([`RunTerminals`]), content-defined phrases built by
//! two SEQUITUR(1) builders ([`Phrases`]), and content-defined segments built so on a
//! pool of threads and merged ([`Segments`]).
//!
//! The crate has three parts, one folder each, around the grammar type (`grammar`):
//!
//! * `build`: the builders and their front ends, from a sequence to a grammar;
//! * `codec`: the grammar's binary format ([`encode_grammar`], [`decode_grammar`]);
//! * `analysis`: questions answered on the rule DAG without expanding it ([`dff`] among
//!   them).
//!
//! This crate knows nothing of WebAssembly or paths: terminals are just numbers.
//!
//! ## Code map
//!
//! `grammar`: `Grammar` (rules of terminals and rule references, laid out flat in `Rules`:
//! one array of symbols and where each body starts, so that a walk of the DAG touches one
//! array and a grammar is built or decoded in two allocations; lazy `expand`, and
//! `for_each_terminal`, the same walk with less bookkeeping, for long walks; the SEQUITUR
//! property checker); `analysis/dag`: analyses on the rule DAG without
//! expansion (validation, topological order, rule lengths, frequencies, costs, depths,
//! stats); `build/sequitur`: SEQUITUR and SEQUITUR(1) (arena of 12-byte nodes, one-word
//! digram keys, explicit work stack instead of recursion) with optional rule prediction;
//! `build/repair`: Re-Pair (Larsson & Moffat pair queue), whole or in bounded blocks;
//! `codec/`: the grammar section's binary format, written in version 2 and read in both
//! (`format`: the header, definition order and numbering both versions share; `v1`: the
//! adaptive binary range coder; `v2`: rank lists coded by `rans`, rANS with static tables,
//! decoded without divisions or tree walks, its model written once (`model`) for `write`
//! and `read`; `read` runs the control and class streams' passes on two threads for
//! grammars of 65,536 symbols or more); `analysis/hot`: every minimal hot subpath (the windows crossing
//! each rule's boundaries counted level by level, while they can still be hot) and its
//! brute-force oracle; `analysis/occur`: occurrences
//! of many sequences at once on the DAG (a trie run as Aho-Corasick across each rule
//! boundary); `analysis/query`: first/last positions, runs-before, aggregated contexts,
//! with scan oracles; `build/runs`: the run-length front end (`RunLength` tokens, their
//! varint byte form `Tokens`, `RunTerminals` dense builder terminals resolved into shared
//! doubling rules, `collapse_run_rules` the builder's view back for property checks);
//! `build/cut`: content-defined cuts of a token stream (a rolling hash over a window of
//! tokens; a piece at its maximum length ends where the hash was smallest), shared by
//! phrases and segments; `build/phrases`: the phrase front end (content-defined phrases of run tokens,
//! hash-consed; phrase ids to one SEQUITUR(1), distinct phrase bodies to another, assembled
//! with single-use rules inlined); `build/segments`: content-defined segments of run
//! tokens (a rolling hash over eight tokens), each built behind phrases on a pool of
//! worker threads that reuse their builders' memory, merged in order (rules hash-consed
//! across segments, start rules built by one more phrase builder); `analysis/pairs`: consecutive pairs of terminals with
//! their counts; `analysis/dff`: data flow frequencies (Scholz & Mehofer) of GEN/KILL
//! problems over terminals — `Transfer` (a representation function kept sparse: the facts
//! generated and killed; its 0/1 matrix and dual on demand), `Problem` (per terminal its
//! steps, each a point of interest and a transfer; `Junction`s between consecutive
//! terminals: a frame of the one framed function closing or opening, a transfer), `Solver`
//! (per rule its `Summary` — frames left, the transfer of the frame it ends in, frames it
//! opens, the program-wide transfer — composed bottom-up; then the summed states each rule
//! is entered with, top-down over the rules holding a point, in passes over chunks of
//! facts; then along each terminal's path), `abstract_run` (the oracle: the facts simulated
//! along the expanded trace).

mod analysis;
mod build;
mod codec;
mod grammar;

pub use analysis::dff;
pub use analysis::{
    can_overlap, contexts, contexts_brute, disjoint_occurrences, disjoint_occurrences_brute, disjoint_occurrences_of, first_and_last, hot_subpaths,
    hot_subpaths_brute, runs_before, Context, GrammarError, GrammarStats, HotParams, HotSubpath, PatternCounts,
};
pub use build::{
    collapse_run_rules, encode_token, repair, repair_with_stats, GrammarFull, PhraseParams, PhraseStats, PhraseThreads, Phrases, RePairBlocks, RePairStats,
    RunLength, RunTerminals, SegmentParams, SegmentStats, Segments, Sequitur, Token, TokenError, Tokens, MAX_TERMINAL,
};
pub use codec::format::{GrammarDecodeError, GRAMMAR_FORMAT_VERSION, MAX_SYMBOLS_PER_BYTE};
pub use codec::{decode_grammar, encode_grammar, encode_grammar_v1};
pub use grammar::{Grammar, RuleId, Rules, RulesIter, Sym, Terminal};
