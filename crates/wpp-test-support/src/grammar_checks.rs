//! The grammar builders' and the grammar decoder's property checks, said once for the
//! property tests of `wpp-grammar` and the fuzz targets of `wpp-fuzz` (feature `grammar`).
//!
//! Each check returns what is wrong as a message, so that a proptest can fail with it and
//! a fuzz target can panic with it:
//!
//! * [`check_sequitur`], [`check_repair`], [`check_repair_blocks`]: one builder on one
//!   input; the expansion equals the input and the builder's own properties hold
//!   (SEQUITUR's two, or the weaker set Re-Pair in blocks keeps: [`check_blocked_properties`]);
//! * [`check_run_front_end`]: the run-length front end ([`RunTerminals`]) before each
//!   builder; the tokens' byte form decodes to the tokens, and behind the front end
//!   ([`collapse_run_rules`]) the builder's properties hold over the tokens;
//! * [`check_phrases`]: the phrase front end; the grammar validates, is numbered by first
//!   use, and no rule but the start rule is shorter than two symbols;
//! * [`check_decoded`]: what [`decode_grammar`] makes of any bytes: an error, or a grammar
//!   that an independent validator ([`validate`]) accepts, of the size its header
//!   declares, decoded in heap memory linear in the input ([`decode_within_bounds`]).

use wpp_grammar::{
    collapse_run_rules, decode_grammar, encode_token, Grammar, GrammarDecodeError, PhraseParams, Phrases, RePairBlocks, RuleId, RunLength, RunTerminals,
    Sequitur, Sym, Terminal, Token, Tokens, MAX_SYMBOLS_PER_BYTE,
};

use crate::alloc::{measure, AllocStats};

/// Whether the expansion of `g` is `input`.
pub fn expansion_matches(g: &Grammar, input: &[u32]) -> Result<(), String> {
    let out: Vec<u32> = g.expand().collect();
    if out != input {
        return Err(format!("expansion differs: {} symbols in, {} out", input.len(), out.len()));
    }
    Ok(())
}

/// SEQUITUR (SEQUITUR(1) if `lookahead`; with rule prediction in chunks of `predict`
/// symbols if given) on `input`: the expansion equals the input, and the grammar has
/// SEQUITUR's two properties.
pub fn check_sequitur(input: &[u32], lookahead: bool, predict: Option<usize>) -> Result<Grammar, String> {
    let mut s = if lookahead { Sequitur::with_lookahead() } else { Sequitur::new() };
    if let Some(chunk) = predict {
        s = s.predicting_in_chunks(chunk);
    }
    s.extend(input.iter().copied());
    if s.len() != input.len() as u64 {
        return Err(format!("the builder holds {} symbols of {}", s.len(), input.len()));
    }
    let g = s.finish();
    expansion_matches(&g, input).map_err(|e| format!("look-ahead {lookahead}, prediction {predict:?}: {e}"))?;
    g.check_sequitur_properties().map_err(|e| format!("look-ahead {lookahead}, prediction {predict:?}: {e}"))?;
    Ok(g)
}

/// Re-Pair on the whole of `input`: the expansion equals the input, and the grammar has
/// SEQUITUR's two properties.
pub fn check_repair(input: &[u32]) -> Result<Grammar, String> {
    let g = wpp_grammar::repair(input);
    expansion_matches(&g, input)?;
    g.check_sequitur_properties()?;
    Ok(g)
}

/// Re-Pair in blocks of `block_len` symbols.
pub fn build_repair_blocks(input: &[u32], block_len: usize) -> Grammar {
    let mut b = RePairBlocks::new(block_len);
    b.extend(input.iter().copied());
    b.finish()
}

/// Re-Pair in blocks of `block_len` symbols on `input`: the expansion equals the input,
/// and [`check_blocked_properties`] holds.
pub fn check_repair_blocks(input: &[u32], block_len: usize) -> Result<Grammar, String> {
    let g = build_repair_blocks(input, block_len);
    expansion_matches(&g, input)?;
    check_blocked_properties(&g).map_err(|e| format!("block length {block_len}: {e}"))?;
    Ok(g)
}

/// What [`RePairBlocks`] guarantees: every rule but the start rule has at least two
/// symbols and is used at least twice, references are in range, and the start rule holds
/// no digram twice (overlapping occurrences inside a run `xxx` excepted).
pub fn check_blocked_properties(g: &Grammar) -> Result<(), String> {
    let mut uses = vec![0usize; g.rules.len()];
    for (r, body) in g.rules.iter().enumerate() {
        if r > 0 && body.len() < 2 {
            return Err(format!("rule {r} has {} symbols", body.len()));
        }
        for &s in body {
            if let Sym::N(RuleId(x)) = s {
                if x == 0 || x as usize >= g.rules.len() {
                    return Err(format!("rule {r} refers to rule {x}"));
                }
                uses[x as usize] += 1;
            }
        }
    }
    if let Some((r, u)) = uses.iter().enumerate().skip(1).find(|&(_, &u)| u < 2) {
        return Err(format!("rule {r} is used {u} times"));
    }
    let mut seen = std::collections::HashMap::new();
    for (i, d) in g.rules.first().unwrap_or(&[]).windows(2).enumerate() {
        if let Some(&i0) = seen.get(&(d[0], d[1])) {
            if !(i0 + 1 == i && d[0] == d[1]) {
                return Err(format!("digram {d:?} occurs in the start rule at {i0} and {i}"));
            }
        } else {
            seen.insert((d[0], d[1]), i);
        }
    }
    Ok(())
}

/// Whether the rules are numbered breadth-first by first use from rule 0.
pub fn numbered_by_first_use(g: &Grammar) -> bool {
    let mut renumbered = g.clone();
    renumbered.renumber_by_first_use();
    renumbered == *g
}

/// The run-length tokens of `input`.
pub fn tokens(input: &[u32]) -> Vec<Token> {
    let mut rl = RunLength::default();
    let mut out: Vec<Token> = input.iter().filter_map(|&s| rl.push(s)).collect();
    out.extend(rl.finish());
    out
}

/// The builders behind the run-length front end, by name.
pub const RUN_BUILDERS: [&str; 3] = ["sequitur", "sequitur1", "repair"];

/// The grammar of `input` built by the builder `name` of [`RUN_BUILDERS`] (Re-Pair in
/// tiny blocks, so that blocks end often).
fn build_named(name: &str, input: Vec<u32>) -> Grammar {
    match name {
        "sequitur" | "sequitur1" => {
            let mut s = if name == "sequitur" { Sequitur::new() } else { Sequitur::with_lookahead() };
            s.extend(input);
            s.finish()
        }
        _ => build_repair_blocks(&input, 7),
    }
}

/// The run-length front end on `input`, before each of [`RUN_BUILDERS`]: the tokens cover
/// the input with no two adjacent of one symbol, their byte form decodes to them, the
/// resolved grammar derives the input, validates and is numbered by first use, and
/// [`collapse_run_rules`] gives back the tokens, over which SEQUITUR's properties hold (for
/// the SEQUITUR builders).
pub fn check_run_front_end(input: &[u32]) -> Result<(), String> {
    let toks = tokens(input);
    if toks.iter().map(|t| t.run).sum::<u64>() != input.len() as u64 {
        return Err("the tokens do not cover the input".into());
    }
    if toks.windows(2).any(|w| w[0].symbol == w[1].symbol) {
        return Err("adjacent tokens of one symbol".into());
    }
    let mut bytes = Vec::new();
    for &t in &toks {
        encode_token(&mut bytes, t);
    }
    let decoded: Vec<Token> = Tokens::new(&bytes).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    if decoded != toks {
        return Err("the tokens' byte form decodes to other tokens".into());
    }
    let n_symbols = input.iter().max().map_or(0, |&m| m + 1);
    for name in RUN_BUILDERS {
        let mut rt = RunTerminals::new();
        let terminals: Vec<u32> = decoded.iter().map(|&t| rt.terminal(t)).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
        let g = rt.resolve(build_named(name, terminals));
        expansion_matches(&g, input).map_err(|e| format!("{name}: {e}"))?;
        if g.rules.len() > 1 && !numbered_by_first_use(&g) {
            return Err(format!("{name}: rules not numbered by first use"));
        }
        let (c, meaning) = collapse_run_rules(&g).map_err(|e| format!("{name}: {e}"))?;
        let tokens_back: Vec<Token> = c.expand().map(|t| meaning[t as usize]).collect();
        if tokens_back != toks {
            return Err(format!("{name}: the collapsed grammar derives other tokens"));
        }
        if name != "repair" {
            c.check_sequitur_properties().map_err(|e| format!("{name} over tokens: {e}"))?;
        }
        g.validate(Some(n_symbols)).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// The phrase front end on `input` with `params`: the grammar derives the input, its
/// statistics add up, it validates, is numbered by first use, and every rule but the
/// start rule has at least two symbols.
pub fn check_phrases(input: &[u32], params: PhraseParams) -> Result<Grammar, String> {
    let mut p = Phrases::new(params);
    p.extend(input.iter().copied()).map_err(|e| e.to_string())?;
    let (g, stats) = p.finish_with_stats().map_err(|e| e.to_string())?;
    expansion_matches(&g, input).map_err(|e| format!("{params:?}: {e}"))?;
    if stats.symbols != input.len() as u64 {
        return Err(format!("{params:?}: {} symbols counted of {}", stats.symbols, input.len()));
    }
    if !(stats.tokens <= stats.symbols && stats.phrases <= stats.tokens && stats.distinct <= stats.phrases && stats.dictionary_tokens <= stats.tokens) {
        return Err(format!("{params:?}: statistics do not add up: {stats:?}"));
    }
    well_formed(&g, input).map_err(|e| format!("{params:?}: {e}"))?;
    Ok(g)
}

/// What the phrase and segment builders' grammars share: valid over the input's
/// terminals, rules numbered by first use, none shorter than two symbols.
fn well_formed(g: &Grammar, input: &[u32]) -> Result<(), String> {
    let n_symbols = input.iter().max().map_or(0, |&m| m + 1);
    g.validate(Some(n_symbols)).map_err(|e| e.to_string())?;
    if !numbered_by_first_use(g) {
        return Err("rules not numbered by first use".into());
    }
    if let Some((r, body)) = g.rules.iter().enumerate().skip(1).find(|(_, b)| b.len() < 2) {
        return Err(format!("rule {r} has {} symbols", body.len()));
    }
    Ok(())
}

/// The segment builder on `input`, with segments of about `average` tokens: the grammar
/// derives the input, validates, is numbered by first use, has no rule shorter than two
/// symbols, and is the same with no worker thread and with `threads`.
pub fn check_segments(input: &[u32], average: usize, threads: usize) -> Result<Grammar, String> {
    let build = |threads: usize| -> Result<(Grammar, wpp_grammar::SegmentStats), String> {
        let mut s = wpp_grammar::Segments::new(wpp_grammar::SegmentParams::average(average), PhraseParams::average(8));
        s.use_threads(threads).map_err(|e| e.to_string())?;
        input.iter().try_for_each(|&x| s.push(x)).map_err(|e| e.to_string())?;
        s.finish_with_stats().map_err(|e| e.to_string())
    };
    let (g, stats) = build(0)?;
    expansion_matches(&g, input).map_err(|e| format!("segments of {average}: {e}"))?;
    if stats.symbols != input.len() as u64 || stats.segments > stats.tokens {
        return Err(format!("segments of {average}: statistics do not add up: {stats:?}"));
    }
    well_formed(&g, input).map_err(|e| format!("segments of {average}: {e}"))?;
    if threads > 0 && build(threads)?.0 != g {
        return Err(format!("segments of {average}: {threads} threads give another grammar"));
    }
    Ok(g)
}

// ---------------------------------------------------------------------------------------
// The decoder

/// The LEB128 number at `pos` (the input is known to hold one).
pub fn varint(bytes: &[u8], pos: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = bytes[*pos];
        *pos += 1;
        v |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// The header of an encoded grammar: (n_terminals, n_rules, n_symbols, offset of what
/// follows).
pub fn header(bytes: &[u8]) -> (u64, u64, u64, usize) {
    let mut pos = 1;
    let t = varint(bytes, &mut pos);
    let r = varint(bytes, &mut pos);
    let s = varint(bytes, &mut pos);
    (t, r, s, pos)
}

/// Appends `v` as a LEB128 number.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Rules each before the rules they use, or an error naming what makes the grammar invalid:
/// a reference out of range or to rule 0, an empty rule other than rule 0, a terminal not
/// below `n_terminals`, or a cycle. Independent of `Grammar::validate`.
pub fn validate(g: &Grammar, n_terminals: u32) -> Result<Vec<usize>, String> {
    let n = g.rules.len();
    let mut indegree = vec![0usize; n];
    for (r, body) in g.rules.iter().enumerate() {
        if r > 0 && body.is_empty() {
            return Err(format!("rule {r} is empty"));
        }
        for &s in body {
            match s {
                Sym::T(Terminal(t)) if t >= n_terminals => return Err(format!("rule {r} holds terminal {t} >= {n_terminals}")),
                Sym::N(RuleId(x)) if x == 0 || x as usize >= n => return Err(format!("rule {r} refers to rule {x}")),
                Sym::N(RuleId(x)) => indegree[x as usize] += 1,
                Sym::T(_) => {}
            }
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&r| indegree[r] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(r) = ready.pop() {
        order.push(r);
        for &s in &g.rules[r] {
            if let Sym::N(RuleId(x)) = s {
                indegree[x as usize] -= 1;
                if indegree[x as usize] == 0 {
                    ready.push(x as usize);
                }
            }
        }
    }
    if order.len() != n {
        return Err("the grammar has a cycle".into());
    }
    Ok(order)
}

/// Length of the expansion of rule 0, saturating; `order` as [`validate`] gives it.
pub fn expansion_len(g: &Grammar, order: &[usize]) -> u64 {
    let mut len = vec![0u64; g.rules.len()];
    for &r in order.iter().rev() {
        len[r] = g.rules[r]
            .iter()
            .map(|&s| match s {
                Sym::T(_) => 1,
                Sym::N(RuleId(x)) => len[x as usize],
            })
            .fold(0u64, u64::saturating_add);
    }
    len.first().copied().unwrap_or(0)
}

/// Heap bytes the decoder may hold, and allocate in all, per input byte. An input byte
/// carries at most [`MAX_SYMBOLS_PER_BYTE`] symbols, and per symbol the decoder keeps at
/// most its slot in a rule body, the model of one new terminal (a successor and a class
/// tree with their leaf lists, a hash entry), a leaf in a successor tree and one in a
/// class tree, and a few words per rule: under 1 KiB, each vector at most doubled.
pub const DECODER_HEAP_PER_BYTE: usize = MAX_SYMBOLS_PER_BYTE as usize * 1024;

/// Heap bytes of the decoder's fixed state (the model's first trees and tables).
pub const DECODER_HEAP_BASE: usize = 64 << 10;

/// Decodes `bytes`, checking that the decoder's heap use is linear in the input's length
/// however large the counts its header declares. Measures only where
/// [`crate::alloc::Counting`] is the global allocator.
pub fn decode_within_bounds(bytes: &[u8]) -> Result<Grammar, GrammarDecodeError> {
    let (out, AllocStats { peak_live: peak, total, .. }) = measure(|| decode_grammar(bytes));
    let bound = DECODER_HEAP_BASE + DECODER_HEAP_PER_BYTE * bytes.len();
    assert!(peak <= bound, "decoding {} bytes held {peak} heap bytes, more than {bound} ({out:?})", bytes.len());
    assert!(total <= 2 * bound, "decoding {} bytes allocated {total} heap bytes, more than {} ({out:?})", bytes.len(), 2 * bound);
    out
}

/// Decodes anything: an error, or a valid grammar within the size bound, with as many
/// rules and symbols as its header declares, whose expansion (when short enough to run)
/// has the length its rules say; either in heap memory linear in the input. Returns the
/// grammar and its number of terminals.
pub fn check_decoded(bytes: &[u8]) -> Option<(Grammar, u32)> {
    let g = decode_within_bounds(bytes).ok()?;
    let (n_terminals, n_rules, n_symbols, _) = header(bytes);
    let order = validate(&g, n_terminals as u32).unwrap_or_else(|e| panic!("decoded an invalid grammar from {bytes:?}: {e}"));
    assert_eq!(g.rules.len() as u64, n_rules);
    assert_eq!(g.n_symbols() as u64, n_symbols);
    assert!(g.n_symbols() as u64 <= MAX_SYMBOLS_PER_BYTE * bytes.len() as u64, "{} symbols from {} bytes", g.n_symbols(), bytes.len());
    let len = expansion_len(&g, &order);
    if len <= 100_000 {
        assert_eq!(g.expand().count() as u64, len);
    }
    Some((g, n_terminals as u32))
}
