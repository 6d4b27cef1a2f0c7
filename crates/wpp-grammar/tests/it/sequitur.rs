//! SEQUITUR and SEQUITUR(1) against their oracle: expanding the grammar gives back the
//! input exactly, and after every build the grammar has SEQUITUR's two properties.

use proptest::prelude::*;
use wpp_grammar::{Grammar, RuleId, Sequitur, Sym, Terminal};
use wpp_test_support::grammar_checks::check_sequitur;

/// Rule prediction off, or on with this chunk size.
type Predict = Option<usize>;

fn check_with(input: &[u32], lookahead: bool, predict: Predict) -> Result<Grammar, String> {
    check_sequitur(input, lookahead, predict)
}

fn check_one(input: &[u32], lookahead: bool) -> Result<Grammar, String> {
    check_with(input, lookahead, None)
}

/// Checks every builder variant (prediction with tiny and default chunks); returns plain
/// SEQUITUR's grammar.
fn check(input: &[u32]) -> Result<Grammar, String> {
    for lookahead in [false, true] {
        for chunk in [1, 3, 16, 4096] {
            check_with(input, lookahead, Some(chunk))?;
        }
    }
    check_one(input, true)?;
    check_one(input, false)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Small alphabets: many repeats, deep rules.
    #[test]
    fn small_alphabet(input in proptest::collection::vec(0u32..3, 0..400)) {
        check(&input).map_err(TestCaseError::fail)?;
    }

    /// Large alphabets: few repeats.
    #[test]
    fn large_alphabet(input in proptest::collection::vec(0u32..100_000, 0..400)) {
        check(&input).map_err(TestCaseError::fail)?;
    }

    /// Repeated blocks with mutations, like loop iterations of a path trace.
    #[test]
    fn repeated_blocks(block in proptest::collection::vec(0u32..6, 1..12), reps in 1usize..60, noise in proptest::collection::vec((0usize..600, 0u32..6), 0..8)) {
        let mut input: Vec<u32> = (0..reps).flat_map(|_| block.iter().copied()).collect();
        for (i, v) in noise {
            if i < input.len() {
                input[i] = v;
            }
        }
        check(&input).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn pathological_inputs() {
    let runs: Vec<u32> = std::iter::repeat_n(7, 10_000).collect();
    let g = check(&runs).unwrap();
    assert!(g.n_symbols() < 100, "{} symbols for a run of 10,000", g.n_symbols());
    let abab: Vec<u32> = (0..10_000).map(|i| i % 2).collect();
    check(&abab).unwrap();
    let abc: Vec<u32> = (0..30_000).map(|i| i % 3).collect();
    check(&abc).unwrap();
    // Runs of runs: a^1 b a^2 b a^3 b ...
    let mut v = Vec::new();
    for k in 1..200 {
        v.extend(std::iter::repeat_n(1, k));
        v.push(2);
    }
    check(&v).unwrap();
    // Nested repetition 2^k deep.
    let mut s = vec![0u32];
    for k in 1..14 {
        let t = s.clone();
        s.push(k);
        s.extend(t);
    }
    check(&s).unwrap();
    assert!(check(&[]).unwrap().rules[0].is_empty());
}

/// Larus's example (§3.1): `abcabdabcabd` gives `S → DD`, `D → AcAd`, `A → ab`.
#[test]
fn larus_example() {
    let (a, b, c, d) = (0, 1, 2, 3);
    let g = check(&[a, b, c, a, b, d, a, b, c, a, b, d]).unwrap();
    // Rules are numbered in order of first use: 1 is D, 2 is A.
    assert_eq!(g.rules[0], vec![Sym::N(RuleId(1)), Sym::N(RuleId(1))]);
    assert_eq!(g.rules[1], vec![Sym::N(RuleId(2)), Sym::T(Terminal(c)), Sym::N(RuleId(2)), Sym::T(Terminal(d))]);
    assert_eq!(g.rules[2], vec![Sym::T(Terminal(a)), Sym::T(Terminal(b))]);
    assert_eq!(g.rules.len(), 3);
}

/// Larus's SEQUITUR(1) example (§3.2): on `11111211111` SEQUITUR represents the two runs
/// of five differently (`S → AB2BA`, `A → 11`, `B → A1`), SEQUITUR(1) alike
/// (`S → C2C`, `A → 11`, `C → AA1`).
#[test]
fn larus_lookahead_example() {
    let input = [1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1];
    let plain = check_one(&input, false).unwrap();
    // First use: 1 is A, 2 is B.
    assert_eq!(plain.rules[0], vec![Sym::N(RuleId(1)), Sym::N(RuleId(2)), Sym::T(Terminal(2)), Sym::N(RuleId(2)), Sym::N(RuleId(1))]);
    assert_eq!(plain.rules[1], vec![Sym::T(Terminal(1)), Sym::T(Terminal(1))]);
    assert_eq!(plain.rules[2], vec![Sym::N(RuleId(1)), Sym::T(Terminal(1))]);
    assert_eq!(plain.rules.len(), 3);
    let one = check_one(&input, true).unwrap();
    // First use: 1 is C, 2 is A.
    assert_eq!(one.rules[0], vec![Sym::N(RuleId(1)), Sym::T(Terminal(2)), Sym::N(RuleId(1))]);
    assert_eq!(one.rules[1], vec![Sym::N(RuleId(2)), Sym::N(RuleId(2)), Sym::T(Terminal(1))]);
    assert_eq!(one.rules[2], vec![Sym::T(Terminal(1)), Sym::T(Terminal(1))]);
    assert_eq!(one.rules.len(), 3);
}

/// A symbol held for look-ahead is part of the grammar only after `finish`.
#[test]
fn lookahead_holds_one_symbol() {
    let mut s = Sequitur::with_lookahead();
    s.extend([5, 6, 7]);
    assert_eq!(s.len(), 3);
    assert_eq!(s.grammar().expand().collect::<Vec<_>>(), vec![5, 6]);
    assert_eq!(s.finish().expand().collect::<Vec<_>>(), vec![5, 6, 7]);
}

/// Rule prediction on long loop-structured input: the grammar is exact, keeps both
/// properties, and stays close in size to symbol-by-symbol SEQUITUR's.
#[test]
fn prediction_on_long_loops() {
    let mut input = Vec::new();
    let mut x = 12345u64;
    let mut rnd = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let bodies: Vec<Vec<u32>> = (0..8).map(|b| (0..3 + b).map(|i| (b * 10 + i) as u32).collect()).collect();
    while input.len() < 300_000 {
        let b = &bodies[rnd(8) as usize];
        for _ in 0..1 + rnd(50) {
            input.extend(b);
            if rnd(20) == 0 {
                input.push(100 + rnd(30) as u32);
            }
        }
    }
    let plain = check_with(&input, true, None).unwrap().n_symbols();
    for chunk in [7, 4096] {
        let predicted = check_with(&input, true, Some(chunk)).unwrap().n_symbols();
        println!("chunk {chunk}: {predicted} grammar symbols with prediction, {plain} without");
        assert!(predicted <= plain * 3 / 2, "prediction made the grammar {predicted} symbols against {plain}");
    }
}

/// A deep grammar (a long run doubles its rule depth with every doubling of length)
/// builds and expands without recursion.
#[test]
fn deep_grammar_does_not_overflow() {
    let input: Vec<u32> = (0..200_000u32).map(|i| (i.trailing_zeros()) % 5).collect();
    let g = check(&input).unwrap();
    assert!(g.rules.len() > 10);
}
