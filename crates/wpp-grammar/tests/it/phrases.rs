//! The phrase front end against expansion: whatever the phrase lengths, the grammar
//! derives exactly the input, is valid, and has its rules numbered by first use.

use proptest::prelude::*;
use wpp_grammar::{PhraseParams, PhraseThreads};
use wpp_test_support::grammar_checks::check_phrases;

fn check(input: &[u32], params: PhraseParams) -> Result<(), TestCaseError> {
    check_phrases(input, params).map(drop).map_err(TestCaseError::fail)
}

/// Phrase parameters from tiny (a boundary after nearly every token) to the defaults, with
/// one to three levels of phrases.
fn params() -> impl Strategy<Value = PhraseParams> {
    prop_oneof![
        (0usize..4, 1usize..4, 0usize..6, 1u32..6, prop::sample::select(PhraseThreads::ALL.to_vec()), 1u8..4)
            .prop_map(|(w, min, extra, divisor, threads, levels)| { PhraseParams { window: 1 << w, min, max: min + extra, divisor, threads, levels } }),
        (prop::sample::select(vec![2usize, 4, 16, 32, 64]), 1u8..4).prop_map(|(n, levels)| PhraseParams::average(n).with_levels(levels)),
    ]
}

/// Sequences made of runs: `(symbol, length)` pairs.
fn runs(alphabet: u32, max_run: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec((0..alphabet, 1..=max_run), 0..80).prop_map(|v| v.into_iter().flat_map(|(s, k)| std::iter::repeat_n(s, k)).collect())
}

/// A few short pieces repeated in random order: phrases and rules that recur.
fn repeats(alphabet: u32) -> impl Strategy<Value = Vec<u32>> {
    (proptest::collection::vec(proptest::collection::vec(0..alphabet, 1..12), 1..5), proptest::collection::vec(any::<prop::sample::Index>(), 0..60))
        .prop_map(|(pieces, order)| order.into_iter().flat_map(|i| i.get(&pieces).clone()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn small_alphabet(input in proptest::collection::vec(0u32..3, 0..400), p in params()) {
        check(&input, p)?;
    }

    #[test]
    fn large_alphabet(input in proptest::collection::vec(0u32..100_000, 0..300), p in params()) {
        check(&input, p)?;
    }

    #[test]
    fn with_runs(input in runs(4, 40), p in params()) {
        check(&input, p)?;
    }

    #[test]
    fn with_repeats(input in repeats(6), p in params()) {
        check(&input, p)?;
    }
}

/// Longer inputs: repeats of repeats, with runs, past the threaded builders' batch size.
#[test]
fn long_repetitive_input() {
    let mut x = 1u64;
    let mut rng = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let pieces: Vec<Vec<u32>> = (0..20).map(|_| (0..1 + rng() % 30).map(|_| (rng() % 50) as u32).collect()).collect();
    let mut input = Vec::new();
    while input.len() < 300_000 {
        let p = &pieces[(rng() % 20) as usize];
        for _ in 0..1 + rng() % 3 {
            input.extend_from_slice(p);
        }
        input.extend(std::iter::repeat_n(7, (rng() % 4) as usize));
    }
    for avg in [16, 32, 64] {
        check(&input, PhraseParams::average(avg)).unwrap();
        check(&input, PhraseParams::average(avg).with_threads(PhraseThreads::Both)).unwrap();
    }
}
