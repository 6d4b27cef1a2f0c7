//! DAG analyses against a walk of the fully expanded derivation tree.

use proptest::prelude::*;
use wpp_grammar::{Grammar, GrammarError, RuleId, Sequitur, Sym, Terminal};

/// The oracle: walks the derivation tree node by node (exponential in general, fine on
/// small inputs) and counts rule visits, per-rule expansion lengths and depths.
struct Walk {
    visits: Vec<u64>,
    lengths: Vec<u64>,
    depths: Vec<usize>,
}

fn walk(g: &Grammar) -> Walk {
    let n = g.rules.len();
    let mut w = Walk { visits: vec![0; n], lengths: vec![0; n], depths: vec![0; n] };
    // Length and depth of each rule by expanding it on its own.
    for r in 0..n {
        let mut stack = vec![(r as u32, 0usize, 0usize)];
        let mut len = 0u64;
        let mut depth = 0usize;
        while let Some((rule, pos, d)) = stack.pop() {
            let body = &g.rules[rule as usize];
            if pos == body.len() {
                continue;
            }
            stack.push((rule, pos + 1, d));
            match body[pos] {
                Sym::T(_) => len += 1,
                Sym::N(RuleId(c)) => {
                    depth = depth.max(d + 1);
                    stack.push((c, 0, d + 1));
                }
            }
        }
        w.lengths[r] = len;
        w.depths[r] = depth;
    }
    let mut stack = vec![0u32];
    while let Some(r) = stack.pop() {
        w.visits[r as usize] += 1;
        for &s in &g.rules[r as usize] {
            if let Sym::N(RuleId(c)) = s {
                stack.push(c);
            }
        }
    }
    w
}

fn grammar_of(input: &[u32]) -> Grammar {
    let mut s = Sequitur::new();
    s.extend(input.iter().copied());
    s.finish()
}

fn check(input: &[u32]) -> Result<(), TestCaseError> {
    let g = grammar_of(input);
    g.validate(Some(16)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let w = walk(&g);
    prop_assert_eq!(g.rule_lengths(), w.lengths.clone());
    prop_assert_eq!(g.validated_lengths(Some(16)), Ok(w.lengths.clone()));
    prop_assert_eq!(g.rule_frequencies(), w.visits);
    prop_assert_eq!(g.rule_depths(), w.depths.clone());
    let mut hist = vec![0u64; 16];
    for &t in input {
        hist[t as usize] += 1;
    }
    prop_assert_eq!(g.terminal_counts(16), hist);
    let mut pairs = std::collections::HashMap::new();
    for w in input.windows(2) {
        *pairs.entry((w[0], w[1])).or_insert(0u64) += 1;
    }
    let mut walked = Vec::new();
    g.for_each_terminal(|t| walked.push(t));
    prop_assert_eq!(&walked, &input.to_vec());
    prop_assert_eq!(g.consecutive_pairs().into_iter().map(|((a, b), c)| ((a.0, b.0), c)).collect::<std::collections::HashMap<_, _>>(), pairs);
    let cost = |t: u32| 3 * t as u64 + 1;
    let costs = g.rule_costs(|t| cost(t.0));
    prop_assert_eq!(costs[0], input.iter().map(|&t| cost(t)).sum::<u64>());
    for (r, _) in g.rules.iter().enumerate() {
        let mut rules = g.rules.to_vecs();
        rules.swap(0, r);
        // Expanding rule r on its own: make it the start rule of a copy.
        for body in &mut rules {
            for s in body.iter_mut() {
                if let Sym::N(RuleId(c)) = s {
                    if *c == 0 {
                        *c = r as u32;
                    } else if *c == r as u32 {
                        *c = 0;
                    }
                }
            }
        }
        let sub = Grammar::from(rules);
        prop_assert_eq!(costs[r], sub.expand().map(cost).sum::<u64>());
    }
    let order = g.topological_order().map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(order.len(), g.rules.len());
    prop_assert_eq!(order.first().copied(), Some(RuleId(0)));
    let mut pos = vec![0usize; g.rules.len()];
    for (i, &r) in order.iter().enumerate() {
        pos[r.idx()] = i;
    }
    for (r, body) in g.rules.iter().enumerate() {
        for &s in body {
            if let Sym::N(RuleId(c)) = s {
                prop_assert!(pos[r] < pos[c as usize], "rule {} used by {} comes first", c, r);
            }
        }
    }
    let st = g.stats();
    prop_assert_eq!(st.length, input.len() as u64);
    prop_assert_eq!(st.depth, w.depths[0]);
    prop_assert_eq!(st.distinct_terminals, hist_distinct(input));
    Ok(())
}

fn hist_distinct(input: &[u32]) -> usize {
    let mut v = input.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn analyses_match_the_derivation_tree(input in proptest::collection::vec(0u32..4, 0..300)) {
        check(&input)?;
    }

    /// Leaving terminals out of the grammar leaves them out of its expansion, and nothing
    /// else: the oracle filters the expanded sequence.
    #[test]
    fn without_terminals_filters_the_expansion(input in proptest::collection::vec(0u32..6, 0..300), dropped in proptest::collection::vec(0u32..6, 0..4)) {
        let g = grammar_of(&input);
        let h = g.without_terminals(|t| dropped.contains(&t.0)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        h.validate(Some(6)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let want: Vec<u32> = input.iter().copied().filter(|t| !dropped.contains(t)).collect();
        prop_assert_eq!(h.expand().collect::<Vec<_>>(), want);
        prop_assert!(h.rules.len() <= g.rules.len());
    }

    #[test]
    fn analyses_match_on_loops(block in proptest::collection::vec(0u32..16, 1..10), reps in 1usize..40) {
        let input: Vec<u32> = (0..reps).flat_map(|_| block.iter().copied()).collect();
        check(&input)?;
    }
}

#[test]
fn validate_rejects_what_is_not_a_dag() {
    let g = |rules: Vec<Vec<Sym>>| Grammar::from(rules);
    let (n, t) = (|r| Sym::N(RuleId(r)), |x| Sym::T(Terminal(x)));
    assert_eq!(g(vec![vec![n(1)], vec![n(2), t(0)], vec![n(1), t(1)]]).validate(None), Err(GrammarError::Cycle { rule: RuleId(1) }));
    assert_eq!(g(vec![vec![n(1)], vec![n(1), t(0)]]).validate(None), Err(GrammarError::Cycle { rule: RuleId(1) }));
    assert_eq!(g(vec![vec![n(0)]]).validate(None), Err(GrammarError::BadReference { rule: RuleId(0), target: RuleId(0) }));
    assert_eq!(g(vec![vec![n(2)], vec![t(0), t(0)]]).validate(None), Err(GrammarError::BadReference { rule: RuleId(0), target: RuleId(2) }));
    assert_eq!(g(vec![vec![n(1), n(1)], vec![]]).validate(None), Err(GrammarError::EmptyRule { rule: RuleId(1) }));
    assert_eq!(g(vec![vec![t(7)]]).validate(Some(7)), Err(GrammarError::BadTerminal { rule: RuleId(0), terminal: Terminal(7) }));
    assert_eq!(g(vec![vec![t(7)]]).validate(Some(8)), Ok(()));
    assert_eq!(g(vec![vec![]]).validate(Some(0)), Ok(()));
    // Lengths only of a valid grammar, with the same error otherwise.
    assert_eq!(g(vec![vec![n(1)], vec![n(1), t(0)]]).validated_lengths(None), Err(GrammarError::Cycle { rule: RuleId(1) }));
    assert_eq!(g(vec![vec![t(7)]]).validated_lengths(Some(7)), Err(GrammarError::BadTerminal { rule: RuleId(0), terminal: Terminal(7) }));
    assert_eq!(g(vec![vec![n(1), t(2)], vec![t(0), t(1)]]).validated_lengths(Some(3)), Ok(vec![3, 2]));
}

/// Lengths and frequencies saturate instead of overflowing on a grammar deriving 2^80
/// symbols.
#[test]
fn huge_expansions_saturate() {
    let mut rules = vec![vec![Sym::N(RuleId(1)), Sym::N(RuleId(1))]];
    for r in 1..80u32 {
        rules.push(vec![Sym::N(RuleId(r + 1)), Sym::N(RuleId(r + 1))]);
    }
    rules.push(vec![Sym::T(Terminal(0)), Sym::T(Terminal(1))]);
    let g = Grammar::from(rules);
    g.validate(Some(2)).unwrap();
    assert_eq!(g.rule_lengths()[0], u64::MAX);
    assert_eq!(g.rule_lengths()[70], 1 << 11);
    assert_eq!(g.rule_frequencies()[80], u64::MAX);
    assert_eq!(g.rule_frequencies()[10], 1 << 10);
    assert_eq!(g.rule_depths()[0], 80);
}
