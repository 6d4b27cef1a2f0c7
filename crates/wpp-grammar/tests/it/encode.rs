//! The grammar encoding, in both format versions (version 2 written by `encode_grammar`,
//! version 1 by `encode_grammar_v1`, both read by `decode_grammar`): exact round trips
//! (SEQUITUR grammars, hand-made and random DAG grammars in any numbering), and a decoder
//! that turns damaged or random bytes into an error or a valid grammar of bounded size,
//! never a panic, holding heap memory linear in its input whatever the input declares;
//! each kind of damage gives its own error.

use proptest::prelude::*;
use wpp_grammar::{
    decode_grammar, encode_grammar, encode_grammar_v1, Grammar, GrammarDecodeError, RuleId, Sequitur, Sym, Terminal, GRAMMAR_FORMAT_VERSION,
    MAX_SYMBOLS_PER_BYTE,
};
use wpp_test_support::alloc::Counting;
use wpp_test_support::grammar_checks::{check_decoded, decode_within_bounds, header, put_varint, validate, varint};

/// An encoder of one format version.
type Encoder = fn(&Grammar, u32) -> Vec<u8>;

/// Each format version with its encoder.
const VERSIONS: [(u8, Encoder); 2] = [(1, encode_grammar_v1), (2, encode_grammar)];

fn build(input: &[u32]) -> Grammar {
    let mut s = Sequitur::new();
    s.extend(input.iter().copied());
    s.grammar()
}

fn n_terminals(input: &[u32]) -> u32 {
    input.iter().max().map_or(0, |&m| m + 1)
}

/// Encodes in format version `version`, decodes, and checks the grammar came back exactly.
fn round_trip_in(version: u8, encode: Encoder, g: &Grammar, n_terminals: u32) -> Result<Vec<u8>, String> {
    let bytes = encode(g, n_terminals);
    if bytes[0] != version {
        return Err(format!("version byte {}, not {version}", bytes[0]));
    }
    let back = decode_within_bounds(&bytes).map_err(|e| format!("decoding version {version} failed: {e}"))?;
    if &back != g {
        return Err(format!("decoded grammar differs (version {version}):\n{g:?}\n{back:?}"));
    }
    validate(&back, n_terminals)?;
    if bytes.len() as u64 * MAX_SYMBOLS_PER_BYTE < g.n_symbols() as u64 {
        return Err(format!("{} bytes for {} symbols", bytes.len(), g.n_symbols()));
    }
    Ok(bytes)
}

/// [`round_trip_in`] in every version; returns the encoding in the version written.
fn round_trip(g: &Grammar, n_terminals: u32) -> Result<Vec<u8>, String> {
    let mut written = Vec::new();
    for (version, encode) in VERSIONS {
        written = round_trip_in(version, encode, g, n_terminals)?;
    }
    Ok(written)
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Decodes anything: an error, or a valid grammar within the size bound
/// ([`check_decoded`]).
fn decode_anything(bytes: &[u8]) {
    check_decoded(bytes);
}

/// A random grammar whose rules form a DAG under a random numbering: rule 0 comes first in
/// a random topological order, and each rule refers only to rules after it in that order.
fn dag_grammar(max_terminals: u32) -> impl Strategy<Value = (Grammar, u32)> {
    (1usize..24, 1u32..=max_terminals)
        .prop_flat_map(|(n, nt)| {
            let order = Just((1..n as u32).collect::<Vec<u32>>()).prop_shuffle();
            let body = || proptest::collection::vec((any::<bool>(), any::<u32>()), 1..6);
            let bodies = proptest::collection::vec(body(), n);
            let start = proptest::collection::vec((any::<bool>(), any::<u32>()), 0..12);
            (Just(n), Just(nt), order, bodies, start)
        })
        .prop_map(|(n, nt, order, bodies, start)| {
            let at: Vec<u32> = std::iter::once(0).chain(order).collect();
            let mut rules = vec![Vec::new(); n];
            for pos in 0..n {
                let body = if pos == 0 { &start } else { &bodies[pos] };
                let later = n - pos - 1;
                rules[at[pos] as usize] = body
                    .iter()
                    .map(|&(is_rule, v)| if is_rule && later > 0 { Sym::N(RuleId(at[pos + 1 + v as usize % later])) } else { Sym::T(Terminal(v % nt)) })
                    .collect();
            }
            (Grammar::from(rules), nt)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Small alphabets: deep rules, many references.
    #[test]
    fn sequitur_small_alphabet(input in proptest::collection::vec(0u32..3, 0..400)) {
        round_trip(&build(&input), n_terminals(&input)).map_err(TestCaseError::fail)?;
    }

    /// Large alphabets, terminals not numbered in order of appearance, and a declared
    /// terminal count above the largest terminal.
    #[test]
    fn sequitur_large_alphabet(input in proptest::collection::vec(0u32..100_000, 0..400), extra in 0u32..1000) {
        round_trip(&build(&input), n_terminals(&input) + extra).map_err(TestCaseError::fail)?;
    }

    /// Repeated blocks with mutations, like loop iterations in a path trace, over terminals
    /// numbered densely in order of first appearance.
    #[test]
    fn sequitur_repeated_blocks(block in proptest::collection::vec(0u32..8, 1..12), reps in 1usize..80, noise in proptest::collection::vec((0usize..900, 0u32..8), 0..8)) {
        let mut input: Vec<u32> = (0..reps).flat_map(|_| block.iter().copied()).collect();
        for (i, v) in noise {
            if i < input.len() {
                input[i] = v;
            }
        }
        let mut dense = std::collections::HashMap::new();
        let input: Vec<u32> = input.iter().map(|&t| { let n = dense.len() as u32; *dense.entry(t).or_insert(n) }).collect();
        round_trip(&build(&input), n_terminals(&input)).map_err(TestCaseError::fail)?;
    }

    /// Any DAG grammar, in any numbering, with rules nothing reaches.
    #[test]
    fn dag_grammars_any_numbering((g, nt) in dag_grammar(40)) {
        round_trip(&g, nt).map_err(TestCaseError::fail)?;
    }

    /// The same with terminals anywhere below 2^32 - 1.
    #[test]
    fn dag_grammars_huge_terminals((g, nt) in dag_grammar(u32::MAX)) {
        round_trip(&g, nt).map_err(TestCaseError::fail)?;
    }

    /// Random bytes after a valid version byte and a header of small counts (and, in
    /// version 1, the range-coded stream's leading 0).
    #[test]
    fn random_bytes_decode_or_fail(version in 1u8..=2, t in 0u64..100, r in 0u64..40, s in 0u64..200, numbering in 0u8..3, tail in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut bytes = vec![version];
        put_varint(&mut bytes, t);
        put_varint(&mut bytes, r);
        put_varint(&mut bytes, s);
        bytes.push(numbering);
        if version == 1 {
            bytes.push(0);
        }
        bytes.extend(&tail);
        decode_anything(&bytes);
        decode_anything(&tail);
    }

    /// Version 2 whose control stream begins as a valid one (so its tables are valid) and
    /// goes on with random bytes, as does the class stream: the decoder gets past the
    /// tables into the rules.
    #[test]
    fn random_streams_after_valid_tables(keep in 8usize..200, r in 1u64..40, s in 0u64..200, control_tail in proptest::collection::vec(any::<u8>(), 0..200), class in proptest::collection::vec(any::<u8>(), 0..200)) {
        let valid = encode_grammar(&build(&loops()), 12);
        let (len, at, _) = v2_streams(&valid);
        let mut bytes = vec![2];
        put_varint(&mut bytes, 12);
        put_varint(&mut bytes, r);
        put_varint(&mut bytes, s.max(r - 1));
        bytes.push(0);
        let mut control = valid[at..at + keep.min(len)].to_vec();
        control.extend(&control_tail);
        put_varint(&mut bytes, control.len() as u64);
        bytes.extend(&control);
        bytes.extend(&class);
        decode_anything(&bytes);
    }
}

#[test]
fn no_rules() {
    let bytes = round_trip(&Grammar::default(), 0).unwrap();
    assert_eq!(bytes.len(), 4);
    round_trip(&Grammar::default(), 17).unwrap();
}

#[test]
fn empty_start_rule() {
    round_trip(&build(&[]), 0).unwrap();
    round_trip(&Grammar::from(vec![vec![]]), 5).unwrap();
    // An empty start rule and rules nothing reaches.
    let g = Grammar::from(vec![vec![], vec![Sym::T(Terminal(1)), Sym::N(RuleId(2))], vec![Sym::T(Terminal(0))]]);
    round_trip(&g, 2).unwrap();
}

#[test]
fn single_symbols_and_unit_rules() {
    round_trip(&build(&[7]), 8).unwrap();
    round_trip(&Grammar::from(vec![vec![Sym::N(RuleId(1))], vec![Sym::N(RuleId(2))], vec![Sym::T(Terminal(0))]]), 1).unwrap();
    round_trip(&Grammar::from(vec![vec![Sym::N(RuleId(1)); 50], vec![Sym::T(Terminal(3))]]), 4).unwrap();
}

/// Chains of 20,000 rules, each using the next: the encoder and decoder hold no recursion.
#[test]
fn deep_chains() {
    let n = 20_000u32;
    let chain: Vec<Vec<Sym>> =
        (0..n).map(|i| if i + 1 < n { vec![Sym::N(RuleId(i + 1)), Sym::T(Terminal(i % 3))] } else { vec![Sym::T(Terminal(0)), Sym::T(Terminal(1))] }).collect();
    let g = Grammar::from(chain.clone());
    round_trip(&g, 3).unwrap();
    // The same chain numbered against the canonical order (rule i uses rule i - 1).
    let renumber = |i: u32| if i == 0 { 0 } else { n - i };
    let mut rules = vec![Vec::new(); n as usize];
    for (i, body) in chain.into_iter().enumerate() {
        rules[renumber(i as u32) as usize] = body
            .into_iter()
            .map(|s| match s {
                Sym::N(RuleId(x)) => Sym::N(RuleId(renumber(x))),
                t => t,
            })
            .collect();
    }
    round_trip(&Grammar::from(rules), 3).unwrap();
    // A run: SEQUITUR's doubling rules.
    let run = vec![5u32; 1 << 16];
    round_trip(&build(&run), 6).unwrap();
}

/// A grammar that costs the decoder much heap per symbol: every terminal new, each with
/// its successor and class trees (about 300 bytes a symbol). It stays within
/// `grammar_checks::DECODER_HEAP_PER_BYTE`.
#[test]
fn distinct_terminals() {
    let n = 20_000;
    round_trip(&Grammar::from(vec![(0..n).map(|t| Sym::T(Terminal(t))).collect()]), n).unwrap();
}

/// Terminals up to 2^32 - 2, the largest below a declared count of 2^32 - 1.
fn huge_terminals() -> Grammar {
    let big = u32::MAX - 1;
    Grammar::from(vec![
        vec![Sym::T(Terminal(big)), Sym::N(RuleId(1)), Sym::T(Terminal(0)), Sym::N(RuleId(1)), Sym::T(Terminal(big - 1)), Sym::T(Terminal(1 << 31))],
        vec![Sym::T(Terminal(big)), Sym::T(Terminal(12345)), Sym::T(Terminal(big))],
    ])
}

#[test]
fn large_terminal_ids() {
    round_trip(&huge_terminals(), u32::MAX).unwrap();
    // SEQUITUR takes terminals below 2^31; the declared count may be larger still.
    let input: Vec<u32> = (0..2000u32).map(|i| (1 << 31) - 1 - (i * 7919 % 300) * 1_000_003).collect();
    round_trip(&build(&input), u32::MAX).unwrap();
}

/// SEQUITUR grammars come back in SEQUITUR's numbering without spelling it out: the encoding
/// is no longer than one that must carry an explicit numbering.
#[test]
fn sequitur_numbering_is_implicit() {
    let input: Vec<u32> = (0..5000u32).map(|i| (i * i / 7 + i / 13) % 11).collect();
    let g = build(&input);
    let bytes = round_trip(&g, 11).unwrap();
    let (_, _, _, pos) = header(&bytes);
    assert_eq!(bytes[pos], 0, "the numbering flag");
    // Swapping two rules' numbers makes the numbering explicit.
    let (a, b) = (1u32, g.rules.len() as u32 - 1);
    let swap = |x: u32| {
        if x == a {
            b
        } else if x == b {
            a
        } else {
            x
        }
    };
    let mut rules = g.rules.to_vecs();
    rules.swap(a as usize, b as usize);
    for body in &mut rules {
        for s in body {
            if let Sym::N(RuleId(x)) = s {
                *x = swap(*x);
            }
        }
    }
    let swapped = round_trip(&Grammar::from(rules), 11).unwrap();
    assert_eq!(swapped[pos], 1, "the numbering flag");
    assert!(swapped.len() > bytes.len());
}

/// The encodings of Larus's example grammar (`S → DD`, `D → AcAd`, `A → ab`) are fixed:
/// a change to a format must change its version.
#[test]
fn format_is_stable() {
    let (a, b, c, d) = (0, 1, 2, 3);
    let g = build(&[a, b, c, a, b, d, a, b, c, a, b, d]);
    assert_eq!(
        g.rules.to_vecs(),
        vec![
            vec![Sym::N(RuleId(1)), Sym::N(RuleId(1))],
            vec![Sym::N(RuleId(2)), Sym::T(Terminal(c)), Sym::N(RuleId(2)), Sym::T(Terminal(d))],
            vec![Sym::T(Terminal(a)), Sym::T(Terminal(b))]
        ]
    );
    let v1 = encode_grammar_v1(&g, 4);
    assert_eq!(v1, [1, 4, 3, 8, 0, 0, 100, 81, 169, 98, 242, 31, 202, 0]);
    assert_eq!(decode_grammar(&v1).unwrap(), g);
    let v2 = encode_grammar(&g, 4);
    assert_eq!(GRAMMAR_FORMAT_VERSION, 2);
    assert_eq!(v2, V2_LARUS);
    assert_eq!(decode_grammar(&v2).unwrap(), g);
}

/// The version-2 encoding of Larus's example grammar.
const V2_LARUS: [u8; 86] = [
    2, 4, 3, 8, 0, 72, 7, 6, 7, 64, 17, 64, 182, 0, 131, 130, 129, 35, 0, 0, 0, 128, 193, 2, 0, 0, 0, 80, 4, 0, 0, 0, 48, 1, 138, 0, 0, 0, 0, 6, 0, 0, 0, 40,
    2, 0, 0, 0, 24, 0, 0, 0, 64, 17, 0, 0, 0, 192, 69, 6, 0, 128, 0, 0, 88, 28, 12, 192, 96, 50, 131, 193, 0, 48, 0, 0, 0, 208, 0, 0, 0, 128, 0, 0, 0, 0,
];

/// A loop-heavy trace compresses far below its 4 bytes per symbol.
#[test]
fn loop_traces_compress() {
    let mut input = Vec::new();
    for outer in 0..300u32 {
        for inner in 0..(5 + outer % 17) {
            input.extend([0, 1 + inner % 3, 4]);
        }
        input.extend([5 + outer % 4, 9]);
    }
    let g = build(&input);
    let bytes = round_trip(&g, 10).unwrap();
    assert!(bytes.len() * 40 < input.len() * 4, "{} bytes for {} symbols", bytes.len(), input.len());
}

/// A grammar that codes in almost no bits is padded to the size bound, and the decoder
/// holds encodings to that bound.
#[test]
fn symbols_per_byte_bound() {
    let n = 200_000u32;
    let g = Grammar::from(vec![vec![Sym::N(RuleId(1)); n as usize - 1], vec![Sym::T(Terminal(0))]]);
    for (version, encode) in VERSIONS {
        let bytes = round_trip_in(version, encode, &g, 1).unwrap();
        assert_eq!(bytes.len() as u64, n as u64 / MAX_SYMBOLS_PER_BYTE);
        // Dropping a byte of padding breaks the bound.
        assert_eq!(decode_grammar(&bytes[..bytes.len() - 1]), Err(GrammarDecodeError::TooLarge { symbols: n as u64, bytes: bytes.len() - 1 }));
        // Padding must be zeros.
        let mut dirty = bytes.clone();
        *dirty.last_mut().unwrap() = 1;
        assert_eq!(decode_grammar(&dirty), Err(GrammarDecodeError::Corrupt("bytes after the grammar")));
    }
}

/// `bytes` with the counts of its header replaced.
fn with_header(bytes: &[u8], n_terminals: u64, n_rules: u64, n_symbols: u64) -> Vec<u8> {
    let (_, _, _, pos) = header(bytes);
    let mut out = vec![bytes[0]];
    put_varint(&mut out, n_terminals);
    put_varint(&mut out, n_rules);
    put_varint(&mut out, n_symbols);
    out.extend(&bytes[pos..]);
    out
}

/// Damage to the header, shared by the versions, gives the error that says what is wrong.
#[test]
fn header_errors() {
    use GrammarDecodeError::{Corrupt, TooLarge, Truncated, UnsupportedVersion};
    let decode = |bytes: &[u8]| decode_within_bounds(bytes);
    assert_eq!(decode(&[]), Err(Truncated));
    assert_eq!(decode(&[0, 0, 0, 0]), Err(UnsupportedVersion(0)));
    assert_eq!(decode(&[3, 0, 0, 0]), Err(UnsupportedVersion(3)));
    for (v, _) in VERSIONS {
        assert_eq!(decode(&[v, 0x80]), Err(Truncated));
        assert_eq!(decode(&[v, 4, 2]), Err(Truncated));
        assert_eq!(decode(&[v, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0]), Err(Corrupt("a number overflows 64 bits")));
        assert_eq!(decode(&[v, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 0]), Err(Corrupt("a number overflows 64 bits")));
        let mut h = vec![v];
        put_varint(&mut h, 1 << 32);
        h.extend([0, 0]);
        assert_eq!(decode(&h), Err(Corrupt("more than 2^32 - 1 terminals")));
        // 65 symbols in 4 bytes, 16 a byte at most.
        assert_eq!(decode(&[v, 0, 1, 65]), Err(TooLarge { symbols: 65, bytes: 4 }));
        assert_eq!(decode(&[v, 0, 0, 1]), Err(Corrupt("a grammar without rules holds something")));
        assert_eq!(decode(&[v, 0, 0, 0, 0]), Err(Corrupt("a grammar without rules holds something")));
        assert_eq!(decode(&[v, 0, 3, 1, 0, 0, 0, 0, 0, 0]), Err(Corrupt("more rules than symbols allow")));
        // The numbering flag.
        assert_eq!(decode(&[v, 0, 1, 0]), Err(Truncated));
        assert_eq!(decode(&[v, 0, 1, 0, 2, 0, 0, 0, 0, 0]), Err(Corrupt("unknown numbering")));
    }

    // Messages name what is wrong and where.
    let message = UnsupportedVersion(9).to_string();
    assert!(message.contains("version 9") && message.contains(&format!("versions 1 to {GRAMMAR_FORMAT_VERSION}")), "{message}");
    let message = TooLarge { symbols: 1000, bytes: 7 }.to_string();
    assert!(message.contains("1000 symbols in 7 bytes") && message.contains(&MAX_SYMBOLS_PER_BYTE.to_string()), "{message}");
    let message = Corrupt("unknown numbering").to_string();
    assert!(message.ends_with(": unknown numbering"), "{message}");
    assert!(Truncated.to_string().contains("truncated"));
}

/// S → CC3, C → AA2, A → 01 over 4 terminals, 8 symbols.
fn small_grammar() -> Grammar {
    let g = build(&[0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3]);
    assert_eq!((g.rules.len(), g.n_symbols()), (3, 8));
    g
}

/// Damage to the coded grammar that any version detects the same way.
#[test]
fn damage_errors() {
    use GrammarDecodeError::{Corrupt, Truncated};
    let decode = |bytes: &[u8]| decode_within_bounds(bytes);
    let g = small_grammar();
    for (_, encode) in VERSIONS {
        let bytes = encode(&g, 4);
        assert_eq!(decode(&bytes), Ok(g.clone()));
        // The terminal 3 beyond a declared 3 terminals.
        assert_eq!(decode(&with_header(&bytes, 3, 3, 8)), Err(Corrupt("terminal out of range")));
        // Counts that do not match the stream.
        assert_eq!(decode(&with_header(&bytes, 4, 3, 9)), Err(Corrupt("fewer symbols than declared")));
        assert_eq!(decode(&with_header(&bytes, 4, 3, 7)), Err(Corrupt("more symbols than declared")));
        assert_eq!(decode(&with_header(&bytes, 4, 2, 8)), Err(Corrupt("more rules than declared")));
        // The stream cut short, or followed by something other than zeros.
        assert_eq!(decode(&bytes[..bytes.len() - 1]), Err(Truncated));
        let mut longer = bytes.clone();
        longer.extend([0, 0, 1]);
        assert_eq!(decode(&longer), Err(Corrupt("bytes after the grammar")));
        longer.pop();
        assert!(decode(&longer).is_ok(), "zeros after the stream are padding");
    }
}

/// Damage to the start of version 1's range-coded stream.
#[test]
fn v1_errors() {
    use GrammarDecodeError::{Corrupt, Truncated};
    let decode = |bytes: &[u8]| decode_within_bounds(bytes);
    assert_eq!(decode(&[1, 0, 1, 0, 0, 0, 0, 0, 0]), Err(Truncated));
    assert_eq!(decode(&[1, 0, 1, 0, 0, 1, 0, 0, 0, 0]), Err(Corrupt("the range-coded stream does not start with 0")));
}

/// A version-2 encoding with its two streams: the header, the control stream's length and
/// offset, and the class stream's offset.
fn v2_streams(bytes: &[u8]) -> (usize, usize, usize) {
    let (_, _, _, pos) = header(bytes);
    let mut at = pos + 1;
    let len = varint(bytes, &mut at) as usize;
    (len, at, at + len)
}

/// `bytes` (version 2) with its control stream replaced by `control`.
fn with_control(bytes: &[u8], control: &[u8]) -> Vec<u8> {
    let (_, _, _, pos) = header(bytes);
    let (_, _, class) = v2_streams(bytes);
    let mut out = bytes[..pos + 1].to_vec();
    put_varint(&mut out, control.len() as u64);
    out.extend(control);
    out.extend(&bytes[class..]);
    out
}

/// A grammar of 250,000 symbols or so: large enough that version 2 decodes it with its
/// class pass on a thread of its own (from 65,536 symbols).
fn large_grammar() -> (Grammar, u32) {
    let mut x = 12345u64;
    let mut input = Vec::new();
    for _ in 0..200_000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        // Mostly short loops of a few paths, some rare paths.
        let r = (x >> 33) as u32;
        if r.is_multiple_of(7) {
            input.extend([r % 2000, 1 + r % 5, 2]);
        } else {
            input.push(r % 13);
        }
    }
    let g = build(&input);
    assert!(g.n_symbols() >= 1 << 16, "{} symbols", g.n_symbols());
    (g, 2000)
}

/// A large grammar round-trips exactly, and damage to it gives the errors a small one gives:
/// the class pass running beside the control pass reports what the two would in turn.
#[test]
fn large_grammars_decode_in_two_passes_at_once() {
    use GrammarDecodeError::{Corrupt, Truncated};
    let decode = |bytes: &[u8]| decode_within_bounds(bytes);
    let (g, nt) = large_grammar();
    let bytes = round_trip(&g, nt).unwrap();
    let (r, s) = (g.rules.len() as u64, g.n_symbols() as u64);
    assert_eq!(decode(&with_header(&bytes, nt as u64, r, s + 1)), Err(Corrupt("fewer symbols than declared")));
    assert_eq!(decode(&with_header(&bytes, nt as u64, r, s - 1)), Err(Corrupt("more symbols than declared")));
    assert_eq!(decode(&with_header(&bytes, nt as u64, r - 1, s)), Err(Corrupt("more rules than declared")));
    // The class stream cut short: the class pass fails, not the control pass.
    assert_eq!(decode(&bytes[..bytes.len() - 1]), Err(Truncated));
    let (_, _, class) = v2_streams(&bytes);
    assert_eq!(decode(&bytes[..class + (bytes.len() - class) / 2]), Err(Truncated));
    // Bytes flipped anywhere in the streams: an error or a valid grammar, never a panic.
    let (_, at, _) = v2_streams(&bytes);
    for i in (at..bytes.len()).step_by((bytes.len() - at) / 40 + 1) {
        let mut damaged = bytes.clone();
        damaged[i] ^= 0x5a;
        decode_anything(&damaged);
    }
}

/// Damage to version 2's streams gives the error that says what is wrong.
#[test]
fn v2_errors() {
    use GrammarDecodeError::{Corrupt, Truncated};
    let decode = |bytes: &[u8]| decode_within_bounds(bytes);
    // No control stream, or a control stream longer than the input.
    assert_eq!(decode(&[2, 0, 1, 0, 0, 0, 0, 0, 0]), Err(Truncated));
    assert_eq!(decode(&[2, 0, 1, 0, 0, 9, 0, 0, 0]), Err(Truncated));
    let bytes = encode_grammar(&small_grammar(), 4);
    let (len, at, _) = v2_streams(&bytes);
    let control = &bytes[at..at + len];
    // A block's initial state out of range.
    let mut low = control.to_vec();
    low[..8].fill(0);
    assert_eq!(decode(&with_control(&bytes, &low)), Err(Corrupt("a rANS block starts with a state out of range")));
    // A control stream that ends before its declared length.
    let mut padded = control.to_vec();
    padded.extend([0; 4]);
    assert_eq!(decode(&with_control(&bytes, &padded)), Err(Corrupt("the control stream ends before its length")));
    // The first table longer than its alphabet: present (the low bit of the initial state
    // 2^31 + 1), then 63 symbols (the low 6 bits of the word the state takes in next).
    let mut long_table = vec![1, 0, 0, 0x80, 0, 0, 0, 0, 63, 0, 0, 0];
    long_table.extend([0; 64]);
    assert_eq!(decode(&with_control(&bytes, &long_table)), Err(Corrupt("a frequency table is longer than its alphabet")));
    // All tables empty: the first length has no table to be coded in.
    let mut empty_tables = vec![0, 0, 0, 0x80, 0, 0, 0, 0];
    empty_tables.extend([0; 200]);
    assert_eq!(decode(&with_control(&bytes, &empty_tables)), Err(Corrupt("a symbol is coded in a context whose frequency table is empty")));
    // A class stream that does not end in the coder's initial state: this grammar codes
    // nothing in it, so its state must stay as it began.
    let g = Grammar::from(vec![vec![Sym::T(Terminal(0)), Sym::T(Terminal(1)), Sym::T(Terminal(2))]]);
    let mut bytes = encode_grammar(&g, 3);
    let (_, _, class) = v2_streams(&bytes);
    assert_eq!(bytes.len(), class + 8, "an empty class stream is its initial state");
    bytes[class] ^= 1;
    assert_eq!(decode(&bytes), Err(Corrupt("the last rANS block does not end in the initial state")));
}

#[test]
#[should_panic(expected = "reaches itself")]
fn encoding_a_cycle_panics() {
    encode_grammar(&Grammar::from(vec![vec![Sym::N(RuleId(1))], vec![Sym::T(Terminal(0)), Sym::N(RuleId(2))], vec![Sym::N(RuleId(1))]]), 1);
}

#[test]
#[should_panic(expected = "reaches itself")]
fn encoding_a_reference_to_the_start_rule_panics() {
    encode_grammar(&Grammar::from(vec![vec![Sym::T(Terminal(0)), Sym::N(RuleId(1))], vec![Sym::N(RuleId(0))]]), 1);
}

#[test]
#[should_panic(expected = "is empty")]
fn encoding_an_empty_rule_panics() {
    encode_grammar(&Grammar::from(vec![vec![Sym::N(RuleId(1))], vec![]]), 1);
}

#[test]
#[should_panic(expected = "not below")]
fn encoding_a_terminal_out_of_range_panics() {
    encode_grammar(&Grammar::from(vec![vec![Sym::T(Terminal(3))]]), 3);
}

/// A loop-like input over 12 terminals.
fn loops() -> Vec<u32> {
    let mut loops = Vec::new();
    for i in 0..60u32 {
        for _ in 0..(3 + i % 5) {
            loops.extend([0, 1, 2 + i % 3]);
        }
        loops.push(5 + i % 7);
    }
    loops
}

/// Encodings of a few kinds of grammar, to damage.
fn samples() -> Vec<Vec<u8>> {
    let loops = loops();
    let sparse: Vec<u32> = (0..300u32).map(|i| (i % 23) * 0x0ABC_DEF1 % 0x7FFF_FF00).collect();
    let reversed = Grammar::from(vec![
        vec![Sym::N(RuleId(3)), Sym::N(RuleId(2)), Sym::N(RuleId(3))],
        vec![Sym::T(Terminal(0)), Sym::T(Terminal(1))],
        vec![Sym::N(RuleId(1)), Sym::T(Terminal(2))],
        vec![Sym::N(RuleId(2)), Sym::N(RuleId(1))],
        vec![Sym::T(Terminal(4))],
    ]);
    VERSIONS
        .iter()
        .flat_map(|&(_, encode)| {
            [
                encode(&build(&loops), 12),
                encode(&build(&sparse), u32::MAX),
                encode(&reversed, 5),
                encode(&huge_terminals(), u32::MAX),
                encode(&build(&[]), 3),
                encode(&build(&(0..64).map(|i| i % 3).collect::<Vec<u32>>()), 3),
            ]
        })
        .collect()
}

/// Every truncation and every single-bit flip of several encodings decodes to an error or
/// to a valid grammar within the size bound.
#[test]
fn damaged_encodings_fail_cleanly() {
    let mut flips = 0;
    for bytes in samples() {
        assert!(decode_grammar(&bytes).is_ok());
        for n in 0..bytes.len() {
            decode_anything(&bytes[..n]);
        }
        for i in 0..bytes.len() * 8 {
            let mut damaged = bytes.clone();
            damaged[i / 8] ^= 1 << (i % 8);
            decode_anything(&damaged);
            flips += 1;
        }
        // Bytes appended.
        let mut longer = bytes.clone();
        longer.extend([0x5a; 7]);
        decode_anything(&longer);
    }
    assert!(flips > 1000);
}

/// Headers declaring huge counts fail fast, before allocating for them: the decoder's heap
/// use stays linear in the input's length ([`decode_within_bounds`]), far below what the
/// counts declared would need.
#[test]
fn huge_declared_counts_fail_fast() {
    for bytes in samples() {
        let (t, r, s, pos) = header(&bytes);
        let body = &bytes[pos..];
        for (t2, r2, s2) in [
            (t, r, u64::MAX),
            (t, u64::MAX, u64::MAX),
            (t, u64::MAX, s),
            (u64::MAX, r, s),
            (1 << 32, r, s),
            (t, r, s * 1000 + 1000),
            (t, r * 1000 + 1000, s * 1000 + 1000),
            (t, r * 1_000_000 + 1_000_000, s * 1_000_000 + 1_000_000),
            (t, r, MAX_SYMBOLS_PER_BYTE * bytes.len() as u64),
            (0, r, s),
        ] {
            let mut h = vec![bytes[0]];
            put_varint(&mut h, t2);
            put_varint(&mut h, r2);
            put_varint(&mut h, s2);
            h.extend(body);
            decode_anything(&h);
            // With padding that lets the declared symbols through the size check.
            if s2 <= 1 << 20 {
                h.resize((s2 / MAX_SYMBOLS_PER_BYTE + 1) as usize + h.len(), 0);
                decode_anything(&h);
            }
        }
    }
    // Varints longer than 64 bits.
    for (v, _) in VERSIONS {
        decode_anything(&[v, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 1, 0]);
        decode_anything(&[v, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0]);
    }
}

/// Streams of several rANS blocks (version 2 cuts a stream every 65,536 items) round-trip,
/// and damage anywhere in them, a block boundary included, fails cleanly.
#[test]
fn multi_block_streams() {
    // A pseudo-random walk over 5,000 terminals: few repeats, so many items per symbol.
    let mut x = 12345u64;
    let input: Vec<u32> = (0..80_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 5000) as u32
        })
        .collect();
    let g = build(&input);
    // At least one step per symbol: more items than a block holds.
    assert!(g.n_symbols() > 65_536);
    let bytes = round_trip(&g, 5000).unwrap();
    let (len, at, class) = v2_streams(&bytes);
    // Cut where the size bound still lets the header through.
    let min_len = g.n_symbols().div_ceil(MAX_SYMBOLS_PER_BYTE as usize);
    for cut in [at + len / 4, at + len / 2, class - 1, bytes.len() - 1] {
        assert!(cut >= min_len);
        assert_eq!(decode_grammar(&bytes[..cut]), Err(GrammarDecodeError::Truncated), "cut at {cut}");
    }
    for i in (0..bytes.len() * 8).step_by(bytes.len() * 8 / 150) {
        let mut damaged = bytes.clone();
        damaged[i / 8] ^= 1 << (i % 8);
        decode_anything(&damaged);
    }
}
