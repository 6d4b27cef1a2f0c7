//! SEQUITUR against its oracle: expanding the grammar gives back the input exactly, and
//! after every build the grammar has SEQUITUR's two properties.

use proptest::prelude::*;
use wpp_grammar::{Grammar, Sequitur, Sym};

fn build(input: &[u32]) -> Grammar {
    let mut s = Sequitur::new();
    s.extend(input.iter().copied());
    s.grammar()
}

fn check(input: &[u32]) -> Result<Grammar, String> {
    let g = build(input);
    let out: Vec<u32> = g.expand().collect();
    if out != input {
        return Err(format!("expansion differs: {} symbols in, {} out", input.len(), out.len()));
    }
    g.check_sequitur_properties()?;
    Ok(g)
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
    assert_eq!(g.rules[0], vec![Sym::N(1), Sym::N(1)]);
    assert_eq!(g.rules[1], vec![Sym::N(2), Sym::T(c), Sym::N(2), Sym::T(d)]);
    assert_eq!(g.rules[2], vec![Sym::T(a), Sym::T(b)]);
    assert_eq!(g.rules.len(), 3);
}

/// A deep grammar (a long run doubles its rule depth with every doubling of length)
/// builds and expands without recursion.
#[test]
fn deep_grammar_does_not_overflow() {
    let input: Vec<u32> = (0..200_000u32).map(|i| (i.trailing_zeros()) % 5).collect();
    let g = check(&input).unwrap();
    assert!(g.rules.len() > 10);
}
