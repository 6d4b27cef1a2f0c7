//! Grammars that compress a sequence of symbols, and the operations analyses need on them.
//!
//! A [`Grammar`] is a list of rules; rule 0 is the start rule, and expanding it gives back
//! the sequence exactly. Symbols are dense terminals (`u32`) or references to other rules.
//! Builders: [`Sequitur`] (Nevill-Manning & Witten), online and linear time.
//!
//! This crate knows nothing of WebAssembly or paths: terminals are just numbers.

mod grammar;
mod sequitur;

pub use grammar::{Grammar, Sym};
pub use sequitur::Sequitur;
