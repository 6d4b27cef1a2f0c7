//! The run-length front end against expansion: tokens of any sequence, given to any
//! builder through stand-in terminals and resolved, derive exactly the sequence.

use proptest::prelude::*;
use wpp_test_support::grammar_checks::check_run_front_end;

/// Builds through the front end with each builder and checks the expansion.
fn check(input: &[u32]) -> Result<(), TestCaseError> {
    check_run_front_end(input).map_err(TestCaseError::fail)
}

/// Sequences made of runs: `(symbol, length)` pairs, lengths up to `max_run`.
fn runs(alphabet: u32, max_run: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec((0..alphabet, 1..=max_run), 0..60).prop_map(|v| v.into_iter().flat_map(|(s, k)| std::iter::repeat_n(s, k)).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn short_runs(input in runs(4, 5)) {
        check(&input)?;
    }

    #[test]
    fn long_runs(input in runs(3, 300)) {
        check(&input)?;
    }

    #[test]
    fn no_runs_to_speak_of(input in proptest::collection::vec(0u32..1000, 0..300)) {
        check(&input)?;
    }
}
