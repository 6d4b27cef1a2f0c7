//! The grammar targets: the decoder of the grammar section, and every builder on a
//! symbol sequence made of the fuzzer's bytes. The checks are
//! `wpp_test_support::grammar_checks`', the ones `wpp-grammar`'s property tests use.

use wpp_grammar::{collapse_run_rules, decode_grammar, encode_grammar, encode_grammar_v1, Grammar, PhraseParams, PhraseThreads, Token};
use wpp_profile::{Builder, GrammarBuilder, Prediction};
use wpp_test_support::grammar_checks::{
    check_blocked_properties, check_decoded, check_phrases, check_repair, check_repair_blocks, check_run_front_end, check_segments, check_sequitur,
    expansion_matches, numbered_by_first_use, tokens,
};

/// Decodes `data`; a grammar it gives re-encodes in both versions to the same grammar.
pub fn decode(data: &[u8]) {
    let Some((g, n_terminals)) = check_decoded(data) else { return };
    if g.rules.is_empty() {
        return;
    }
    for (version, encode) in [(1u8, encode_grammar_v1 as fn(&Grammar, u32) -> Vec<u8>), (2, encode_grammar)] {
        let bytes = encode(&g, n_terminals);
        assert_eq!(bytes[0], version, "the encoding's version byte");
        match check_decoded(&bytes) {
            Some((back, n)) => {
                assert_eq!(n, n_terminals, "version {version}: the number of terminals changed");
                assert!(back == g, "version {version}: the re-encoded grammar decodes to another:\n{g:?}\n{back:?}");
            }
            None => panic!("version {version}: the re-encoded grammar does not decode: {:?}", decode_grammar(&bytes)),
        }
    }
}

/// Longest sequence built: the builders and their checks are linear, but the fuzzer
/// should spend its time on shapes, not length.
const MAX_SYMBOLS: usize = 20_000;

/// Symbols stay below this: the run-length front end keeps a table as large as the
/// largest symbol (recordings number their symbols densely), so symbols near
/// [`wpp_grammar::MAX_TERMINAL`] would cost gigabytes.
const MAX_SYMBOL: u32 = 1 << 20;

/// The symbol sequence of `data`: its first byte chooses how the rest is read.
///
/// * 0: a small alphabet (each byte modulo 2 to 5);
/// * 1: a large alphabet (each pair of bytes a symbol below 65,536);
/// * 2: runs (pairs of a symbol below 8 and a length up to 256);
/// * 3: repeats of pieces (the first 32 bytes give four pieces, each later byte picks one);
/// * otherwise: symbols below [`MAX_SYMBOL`], three bytes each.
pub fn sequence(data: &[u8]) -> Vec<u32> {
    let Some((&how, rest)) = data.split_first() else { return Vec::new() };
    let mut out: Vec<u32> = match how % 5 {
        0 => {
            let k = 2 + u32::from(how / 5) % 4;
            rest.iter().map(|&b| u32::from(b) % k).collect()
        }
        1 => rest.chunks_exact(2).map(|c| u32::from(u16::from_le_bytes([c[0], c[1]]))).collect(),
        2 => rest.chunks_exact(2).flat_map(|c| std::iter::repeat_n(u32::from(c[0] % 8), 1 + c[1] as usize)).take(MAX_SYMBOLS).collect(),
        3 => {
            let (pieces, order) = rest.split_at(rest.len().min(32));
            let pieces: Vec<Vec<u32>> = pieces.chunks(8).map(|p| p.iter().map(|&b| u32::from(b % 6)).collect()).collect();
            if pieces.is_empty() {
                return Vec::new();
            }
            order.iter().flat_map(|&i| pieces[i as usize % pieces.len()].iter().copied()).take(MAX_SYMBOLS).collect()
        }
        _ => rest.chunks_exact(3).map(|c| u32::from_le_bytes([c[0], c[1], c[2], 0]) % MAX_SYMBOL).collect(),
    };
    out.truncate(MAX_SYMBOLS);
    out
}

/// Phrase parameters from a byte: tiny (a boundary after nearly every token), or of an
/// average length, on threads or not.
fn phrase_params(b: u8) -> PhraseParams {
    let params = match b % 2 {
        0 => {
            let min = 1 + (b as usize >> 1) % 3;
            PhraseParams { window: 1 << ((b >> 3) % 4), min, max: min + (b as usize >> 5) % 6, divisor: 1 + u32::from(b >> 4) % 5, ..PhraseParams::average(8) }
        }
        _ => PhraseParams::average([2, 4, 16, 64][(b as usize >> 1) % 4]),
    };
    // Bit 0x40: the top level on a thread; bit 0x80: the dictionary.
    params.with_threads(PhraseThreads::ALL[(b >> 6) as usize])
}

/// Every builder on the sequence of `data` ([`sequence`]); the byte after the first
/// chooses the phrase parameters and whether [`GrammarBuilder`] gets symbols or tokens.
pub fn builders(data: &[u8]) {
    let input = sequence(data);
    let knob = data.get(1).copied().unwrap_or(0);
    let fail = |what: &str, e: String| -> ! { panic!("{what} on {} symbols: {e}", input.len()) };
    for lookahead in [false, true] {
        for predict in [None, Some(1), Some(3), Some(16), Some(4096)] {
            check_sequitur(&input, lookahead, predict).unwrap_or_else(|e| fail("SEQUITUR", e));
        }
    }
    check_repair(&input).unwrap_or_else(|e| fail("Re-Pair", e));
    for block_len in [1, 2, 7, 64] {
        check_repair_blocks(&input, block_len).unwrap_or_else(|e| fail("Re-Pair in blocks", e));
    }
    check_run_front_end(&input).unwrap_or_else(|e| fail("the run-length front end", e));
    check_phrases(&input, phrase_params(knob)).unwrap_or_else(|e| fail("the phrase front end", e));
    let average = [1, 2, 5, 16, 100][knob as usize % 5];
    check_segments(&input, average, 1 + (knob as usize >> 3) % 2).unwrap_or_else(|e| fail("the segment builder", e));
    let as_tokens = knob & 1 == 1;
    for b in Builder::ALL {
        for prediction in [Prediction::Off, Prediction::Rules] {
            let for_paths = if b == Builder::Sequitur1 && prediction == Prediction::Off { Front::Phrases } else { Front::Runs };
            for (gb, front) in [
                (GrammarBuilder::new(b, prediction), Front::Plain),
                (GrammarBuilder::new(b, prediction).collapsing_runs(), Front::Runs),
                (GrammarBuilder::for_paths(b, prediction), for_paths),
            ] {
                check_grammar_builder(&input, gb, b, front, as_tokens)
                    .unwrap_or_else(|e| fail(&format!("{} {front:?} (prediction {prediction:?})", b.name()), e));
            }
        }
    }
}

/// The front end of a [`GrammarBuilder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Front {
    Plain,
    Runs,
    Phrases,
}

/// One [`GrammarBuilder`] of builder `b` behind `front` on `input`, given as symbols or as
/// tokens: the grammar derives the input and validates, and its builder's properties hold:
/// SEQUITUR's two for the online builders and Re-Pair (over the tokens behind the
/// run-length front end, where Re-Pair keeps the blocked set); behind phrases, rules
/// numbered by first use, and over the tokens each of two symbols or more, used twice.
fn check_grammar_builder(input: &[u32], mut gb: GrammarBuilder, b: Builder, front: Front, as_tokens: bool) -> Result<(), String> {
    if as_tokens {
        tokens(input).into_iter().try_for_each(|t: Token| gb.push_token(t)).map_err(|e| e.to_string())?;
    } else {
        input.iter().try_for_each(|&s| gb.push(s)).map_err(|e| e.to_string())?;
    }
    let g = gb.finish().map_err(|e| e.to_string())?;
    expansion_matches(&g, input)?;
    let n_symbols = input.iter().max().map_or(0, |&m| m + 1);
    g.validate(Some(n_symbols)).map_err(|e| e.to_string())?;
    match front {
        Front::Plain => g.check_sequitur_properties(),
        Front::Runs => {
            let (own, _) = collapse_run_rules(&g).map_err(|e| e.to_string())?;
            match b {
                Builder::RePair => check_blocked_properties(&own),
                _ => own.check_sequitur_properties(),
            }
        }
        Front::Phrases => {
            if !numbered_by_first_use(&g) {
                return Err("rules not numbered by first use".into());
            }
            // Runs resolve into rules that may be used once; the builder's own rules are
            // each used twice.
            let (own, _) = collapse_run_rules(&g).map_err(|e| e.to_string())?;
            let mut uses = vec![0usize; own.rules.len()];
            for s in own.rules.iter().flatten() {
                if let wpp_grammar::Sym::N(x) = *s {
                    uses[x.idx()] += 1;
                }
            }
            for (r, body) in own.rules.iter().enumerate().skip(1) {
                if body.len() < 2 || uses[r] < 2 {
                    return Err(format!("rule {r} has {} symbols and is used {} times", body.len(), uses[r]));
                }
            }
            Ok(())
        }
    }
}
