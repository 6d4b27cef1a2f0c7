//! DAG queries against scans of the expanded sequence.

use proptest::prelude::*;
use wpp_grammar::{contexts, contexts_brute, first_and_last, runs_before, Grammar, Sequitur, Terminal};
use wpp_test_support::strategies::arb_grammar;

fn check(g: &Grammar, k: usize) -> Result<(), TestCaseError> {
    let seq: Vec<u32> = g.expand().collect();
    for t in 0..6u32 {
        let first = seq.iter().position(|&x| x == t).map(|p| p as u64);
        let last = seq.iter().rposition(|&x| x == t).map(|p| p as u64);
        prop_assert_eq!(first_and_last(g, Terminal(t)), first.zip(last), "terminal {} in {:?}", t, seq);
        prop_assert_eq!(contexts(g, Terminal(t), k), contexts_brute(&seq, Terminal(t), k), "contexts of {} (k = {}) in {:?} of {:?}", t, k, seq, g);
        for q in 0..6u32 {
            let brute = (0..seq.len()).any(|i| seq[i] == t && seq[i + 1..].contains(&q));
            prop_assert_eq!(runs_before(g, Terminal(t), Terminal(q)), brute);
        }
    }
    Ok(())
}

#[test]
fn contexts_of_a_loop() {
    // `a b c` repeated, then `a d`: b is always between a and c.
    let mut s = Sequitur::with_lookahead();
    for _ in 0..50 {
        s.extend([0, 1, 2]);
    }
    s.extend([0, 3]);
    let g = s.finish();
    let [a, b, c, d] = [0, 1, 2, 3].map(Terminal);
    assert_eq!(contexts(&g, b, 1), [((vec![a], vec![c]), 50)]);
    assert_eq!(contexts(&g, a, 1), [((vec![c], vec![b]), 49), ((vec![], vec![b]), 1), ((vec![c], vec![d]), 1)]);
    assert!(runs_before(&g, b, d) && !runs_before(&g, d, b));
    assert_eq!(first_and_last(&g, d), Some((151, 151)));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn queries_match_a_scan(g in arb_grammar(), k in 0usize..5) {
        prop_assume!(g.expand().take(20_001).count() <= 20_000);
        check(&g, k)?;
    }

    #[test]
    fn queries_on_sequitur_grammars(input in proptest::collection::vec(0u32..4, 0..300), k in 0usize..6) {
        let mut s = Sequitur::with_lookahead();
        s.extend(input.iter().copied());
        check(&s.finish(), k)?;
    }
}
