//! The bodies of wpp's fuzz targets, one public function each, `fn(data: &[u8])`: the
//! cargo-fuzz project in `fuzz/` calls them on the fuzzer's bytes, and
//! `tests/corpus.rs` calls them on every file of the checked-in corpus
//! (`fuzz/corpus/<target>/`) under plain `cargo test`. A target panics only on a bug: a
//! panic inside wpp, or an oracle that disagrees.
//!
//! * [`profile_reader`]: the profile reader on any file, on valid profiles with damage
//!   behind recomputed checksums, and on sections the fuzzer writes ([`profile`]);
//! * [`grammar_decoder`]: the grammar section's decoder, both format versions
//!   ([`grammar`]);
//! * [`spool_decoder`]: the run-length tokens' byte form, and the spool that keeps it
//!   ([`spool`]);
//! * [`grammar_builders`]: every grammar builder and front end on a symbol sequence made
//!   of the bytes ([`grammar`]);
//! * [`instrument`]: a wasm-smith module made of the bytes, run every way wpp runs it
//!   against the original and the block-log oracle (`wpp_test_support::smith`).
//!
//! Allocation is bounded where the reader and the decoders promise it: the targets measure
//! with [`wpp_test_support::alloc::measure`], which counts only where
//! [`wpp_test_support::alloc::Counting`] is the global allocator; the fuzz binaries and the
//! corpus test install it.
//!
//! ## Code map
//!
//! Dev/fuzz only: the bodies of the fuzz targets, `fn(&[u8])` each (`profile_reader`,
//! `grammar_decoder`, `spool_decoder`, `grammar_builders`, `instrument`), called by the
//! cargo-fuzz project `fuzz/` on the fuzzer's bytes and by `tests/corpus.rs` on every file
//! of the checked-in corpus `fuzz/corpus/<target>/` under plain `cargo test`; allocation
//! bounded where the reader and decoders promise it.

pub mod grammar;
pub mod profile;
pub mod spool;

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, as `fuzz/fuzz_targets/` and `fuzz/corpus/` name them.
pub const TARGETS: [(&str, Target); 5] = [
    ("profile_reader", profile_reader),
    ("grammar_decoder", grammar_decoder),
    ("spool_decoder", spool_decoder),
    ("grammar_builders", grammar_builders),
    ("instrument", instrument),
];

/// The profile reader on a file made of `data`: a value or an error naming the file,
/// never a panic, within an allocation budget per file byte; whatever opens is consistent
/// (see [`profile::examine`]).
pub fn profile_reader(data: &[u8]) {
    profile::fuzz(data);
}

/// The grammar decoder on `data`: an error, or a valid grammar of the declared size in
/// heap memory linear in the input, which re-encodes in both format versions to bytes
/// that decode to the same grammar.
pub fn grammar_decoder(data: &[u8]) {
    grammar::decode(data);
}

/// Run-length tokens in their byte form: decoding `data` never panics, errors point into
/// it, valid tokens re-encode to bytes that decode to the same tokens, and a spool gives
/// them back in order whether it keeps them in memory or in its file.
pub fn spool_decoder(data: &[u8]) {
    spool::fuzz(data);
}

/// A symbol sequence made of `data`, given to every builder and front end: the
/// expansion equals the sequence and each builder's own properties hold.
pub fn grammar_builders(data: &[u8]) {
    grammar::builders(data);
}

/// A wasm-smith module made of `data` (the first 16 bytes choose its shape): instrumented
/// in every mode it validates and behaves as the original, and its recorded paths equal
/// the block-log oracle's.
pub fn instrument(data: &[u8]) {
    instrument_verdict(data);
}

/// [`instrument`], saying how far the checks went: `None` if wasm-smith made no module
/// of `data`.
pub fn instrument_verdict(data: &[u8]) -> Option<wpp_test_support::smith::Verdict> {
    use std::sync::OnceLock;
    use wpp_test_support::smith::{module, smith_config, Harness, Stats};
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    let (shape, bytes) = data.split_first_chunk::<16>()?;
    let seed = u64::from_le_bytes(shape[..8].try_into().expect("8 bytes"));
    let knobs = u64::from_le_bytes(shape[8..].try_into().expect("8 bytes"));
    let wasm = module(smith_config(seed, &mut wpp_test_support::Rng::new(knobs)), bytes).ok()?;
    let harness = HARNESS.get_or_init(Harness::new);
    match harness.check(&wasm, &mut Stats::default()) {
        Ok(v) => Some(v),
        Err(e) => panic!("{e}"),
    }
}

/// The seeds of the corpus, as (target, name, bytes): valid inputs of every kind each
/// target reads. `tests/corpus.rs` writes them into `fuzz/corpus/` under `WPP_FUZZ_BLESS=1`.
pub fn seeds() -> Vec<(&'static str, String, Vec<u8>)> {
    use wpp_grammar::{encode_grammar, encode_grammar_v1, encode_token, Grammar};
    let mut out = Vec::new();
    for (i, fx) in profile::fixtures().iter().enumerate() {
        let file = profile::assemble(fx.version, &fx.sections);
        out.push(("profile_reader", format!("{}-raw", fx.name), [&[0u8][..], &file].concat()));
        out.push(("profile_reader", format!("{}-repaired", fx.name), [&[1u8][..], &file].concat()));
        for (s, (name, _)) in fx.sections.iter().enumerate() {
            out.push(("profile_reader", format!("{}-{name}-edit", fx.name), vec![2, i as u8, s as u8, 1]));
        }
        if let Some((_, g)) = fx.sections.iter().find(|s| s.0 == wpp_profile::section::GRAMMAR) {
            out.push(("grammar_decoder", fx.name.to_string(), g.clone()));
        }
        if let Some((_, runs)) = fx.sections.iter().find(|s| s.0 == wpp_profile::section::RUNS) {
            out.push(("spool_decoder", fx.name.to_string(), runs.clone()));
        }
    }
    // Grammars: a loop trace by SEQUITUR (canonical numbering), by Re-Pair (explicit
    // numbering), long enough for several rANS blocks, and the empty grammar.
    let mut rng = wpp_test_support::Rng::new(7);
    let mut trace = Vec::new();
    while trace.len() < 3000 {
        let body: Vec<u32> = (0..1 + rng.below(6)).map(|_| rng.below(40) as u32).collect();
        for _ in 0..1 + rng.below(20) {
            trace.extend_from_slice(&body);
        }
    }
    let n = trace.iter().max().map_or(0, |&m| m + 1);
    let mut s = wpp_grammar::Sequitur::new();
    s.extend(trace.iter().copied());
    let grammars = [("sequitur", s.finish()), ("repair", wpp_grammar::repair(&trace)), ("empty", Grammar::default())];
    for (name, g) in &grammars {
        out.push(("grammar_decoder", format!("{name}-v2"), encode_grammar(g, n)));
        out.push(("grammar_decoder", format!("{name}-v1"), encode_grammar_v1(g, n)));
    }
    let long: Vec<u32> = (0..200_000u32).map(|i| i.wrapping_mul(2_654_435_761) >> 20).collect();
    out.push(("grammar_decoder", "long-v2".into(), encode_grammar(&wpp_grammar::repair(&long), 4096)));
    // Tokens: short and long runs, large symbols.
    let mut tokens = Vec::new();
    for (symbol, run) in [(0, 1), (1, 2), (0, 3), (300, 1), (1 << 20, 100_000), (7, 1 << 40), (wpp_grammar::MAX_TERMINAL, 1)] {
        encode_token(&mut tokens, wpp_grammar::Token { symbol, run });
    }
    out.push(("spool_decoder", "varied".into(), tokens));
    // Symbol sequences, one of each shape `grammar::sequence` reads.
    let bytes: Vec<u8> = (0..600).map(|_| rng.next() as u8).collect();
    for (how, name) in [(0u8, "small"), (1, "large"), (2, "runs"), (3, "repeats"), (4, "any")] {
        out.push(("grammar_builders", name.into(), [&[how, how.wrapping_mul(37)][..], &bytes[..]].concat()));
    }
    out.push(("grammar_builders", "loops".into(), [&[5u8 * 3][..], &trace.iter().map(|&t| t as u8 % 4).collect::<Vec<u8>>()[..2000]].concat()));
    // Modules: the shapes and bytes of `smith.rs`'s first seeds.
    for seed in 0..12u64 {
        let mut r = wpp_test_support::Rng::new(seed);
        let len = 1024 + (r.next() % (15 * 1024 + 1)) as usize;
        let data = r.bytes(len.min(4096));
        out.push(("instrument", format!("smith-{seed}"), [&seed.to_le_bytes()[..], &(!seed).to_le_bytes()[..], &data[..]].concat()));
    }
    out
}
