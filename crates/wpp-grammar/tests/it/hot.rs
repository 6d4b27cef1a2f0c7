//! Hot subpaths and sequence counts on the DAG against scans of the expanded sequence.
//!
//! Hot subpaths: the DAG search reports exactly the minimal hot subpaths the brute force
//! finds on the expanded sequence, with the same frequencies and costs.

use proptest::prelude::*;
use wpp_grammar::{
    can_overlap, disjoint_occurrences, disjoint_occurrences_brute, disjoint_occurrences_of, hot_subpaths, hot_subpaths_brute, repair, Grammar, HotParams,
    HotSubpath, PatternCounts, RuleId, Sequitur, Sym, Terminal,
};
use wpp_test_support::strategies::arb_grammar;

fn sequitur(input: &[u32]) -> Grammar {
    let mut s = Sequitur::with_lookahead();
    s.extend(input.iter().copied());
    s.finish()
}

fn terminals(xs: &[u32]) -> Vec<Terminal> {
    xs.iter().map(|&x| Terminal(x)).collect()
}

/// Occurrences of `pat` in `seq`, overlapping ones included.
fn occurrences(seq: &[u32], pat: &[u32]) -> u64 {
    if pat.is_empty() || pat.len() > seq.len() {
        return 0;
    }
    seq.windows(pat.len()).filter(|w| *w == pat).count() as u64
}

/// The DAG search finds exactly what the brute force finds on the expansion: the same
/// minimal hot subpaths, each with the same frequency and cost, in the same order.
fn check_hot(g: &Grammar, costs: &[u64], p: &HotParams) -> Result<usize, TestCaseError> {
    let seq: Vec<u32> = g.expand().collect();
    let dag = hot_subpaths(g, costs, p);
    let brute = hot_subpaths_brute(&seq, costs, p);
    prop_assert_eq!(&dag, &brute, "{:?} in {:?} of {:?}", p, seq, g);
    Ok(dag.len())
}

/// Larus 1999, Fig. 5: `abbcabbcabbc` as S → AAA, A → BC, B → ab, C → bc; cost 1 per
/// path, length 2..3, cost ≥ 6. Larus's scan reports ab and bc; every minimal hot subpath
/// is also bb (spanning B and C) and cab (spanning two A's; ca alone occurs twice: cost 4).
#[test]
fn larus_figure_5() {
    let (a, b, c) = (Sym::T(Terminal(0)), Sym::T(Terminal(1)), Sym::T(Terminal(2)));
    let g =
        Grammar::from(vec![vec![Sym::N(RuleId(1)), Sym::N(RuleId(1)), Sym::N(RuleId(1))], vec![Sym::N(RuleId(2)), Sym::N(RuleId(3))], vec![a, b], vec![b, c]]);
    assert_eq!(g.expand().collect::<Vec<_>>(), [0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2]);
    let p = HotParams { max_len: 3, min_len: 2, min_cost: 6 };
    let hot = hot_subpaths(&g, &[1, 1, 1], &p);
    let got: Vec<(Vec<Terminal>, u64, u64)> = hot.iter().map(|h| (h.symbols.clone(), h.frequency, h.cost)).collect();
    assert_eq!(got, [(terminals(&[0, 1]), 3, 6), (terminals(&[1, 1]), 3, 6), (terminals(&[1, 2]), 3, 6), (terminals(&[2, 0, 1]), 2, 6)]);
    check_hot(&g, &[1, 1, 1], &p).unwrap();
}

/// A subpath whose occurrences are spread over one rule's right side, none frequent on its
/// own (Larus's scan, which weighs a string by one rule's frequency, misses it).
#[test]
fn spread_occurrences_are_found() {
    let input = [0, 1, 0, 2, 0, 3, 0, 4];
    let g = sequitur(&input);
    assert_eq!(g.rules.len(), 1);
    let p = HotParams { max_len: 1, min_len: 1, min_cost: 4 };
    let costs = [1; 5];
    let hot = hot_subpaths(&g, &costs, &p);
    assert_eq!(hot, [HotSubpath { symbols: terminals(&[0]), frequency: 4, cost: 4 }]);
    check_hot(&g, &costs, &p).unwrap();
}

/// Hot windows longer than the ends kept per rule (32 symbols), read by descending the DAG,
/// with a symbol far costlier than the others (a weak bound: most windows stay alive long).
#[test]
fn long_hot_windows() {
    let block: Vec<u32> = (0..80).map(|i| (i * 7919 % 83) as u32).collect();
    let mut input: Vec<u32> = Vec::new();
    for i in 0..40 {
        input.extend(&block);
        input.push(100 + i % 3);
    }
    let g = sequitur(&input);
    let mut costs = vec![1u64; 103];
    costs[5] = 50;
    for (max_len, min_len, min_cost) in [(60, 40, 2_000), (100, 1, 5_000), (45, 45, 100)] {
        let p = HotParams { max_len, min_len, min_cost };
        let n = check_hot(&g, &costs, &p).unwrap();
        assert!(n > 0, "{p:?}");
    }
}

#[test]
fn finds_a_hot_loop() {
    // A loop body of 5 paths run 200 times between two one-off stretches.
    let mut input: Vec<u32> = (10..40).collect();
    for _ in 0..200 {
        input.extend([1, 2, 3, 4, 5]);
    }
    input.extend(40..70);
    let g = sequitur(&input);
    let costs = vec![1u64; 70];
    let p = HotParams { max_len: 10, min_len: 5, min_cost: 500 };
    let hot = hot_subpaths(&g, &costs, &p);
    assert!(!hot.is_empty(), "no hot subpath in a loop of 200 iterations");
    for h in &hot {
        assert!(h.symbols.iter().all(|s| (1..=5).contains(&s.0)), "{h:?} is not in the loop");
        assert!(h.frequency >= 100);
    }
}

/// A grammar large enough that each level's sites are stepped on several threads (from
/// 16,384 sites): the same subpaths as the brute force.
#[test]
fn hot_on_a_large_grammar_matches_the_brute_force() {
    let mut x = 99u64;
    let mut input = Vec::new();
    for _ in 0..60_000 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let r = (x >> 33) as u32;
        // Loop bodies of a few paths, chosen with a skew, and rare paths between them.
        match r % 10 {
            0..=5 => input.extend([0, 1 + r % 3, 4]),
            6..=8 => input.extend([5, 6 + r % 7, 13, 14 + r % 2]),
            _ => input.push(20 + r % 3000),
        }
    }
    let g = sequitur(&input);
    let costs: Vec<u64> = (0..3020u64).map(|t| 1 + t % 5).collect();
    let total: u64 = input.iter().map(|&t| costs[t as usize]).sum();
    for (max_len, min_len, share) in [(4, 1, 100), (12, 2, 1000)] {
        let p = HotParams { max_len, min_len, min_cost: total / share };
        let mut dag = hot_subpaths(&g, &costs, &p);
        let mut brute = hot_subpaths_brute(&input, &costs, &p);
        dag.sort_by(|a, b| a.symbols.cmp(&b.symbols));
        brute.sort_by(|a, b| a.symbols.cmp(&b.symbols));
        assert!(!brute.is_empty());
        assert_eq!(dag, brute, "L = {max_len}");
    }
}

#[test]
fn pattern_counts_on_a_small_grammar() {
    let input = [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 0, 0, 0];
    let g = sequitur(&input);
    let pats = [vec![0, 1], vec![0, 1, 0], vec![1, 2, 0], vec![0, 0], vec![2], vec![3], vec![0, 0, 0, 0]];
    let c = PatternCounts::count(&g, &g.rule_frequencies(), &pats.iter().map(|p| terminals(p)).collect::<Vec<_>>());
    for (i, p) in pats.iter().enumerate() {
        assert_eq!(c.pattern(i), occurrences(&input, p), "{p:?}");
    }
    assert_eq!(c.prefixes(&terminals(&[0, 1, 0])), [8, 4, 2]);
}

/// A match that runs far into a long rule right of a boundary (past the symbols the
/// counter keeps at hand per rule).
#[test]
fn pattern_counts_deep_into_a_long_rule() {
    let block: Vec<u32> = (0..100).map(|i| (i * 7919 % 101) as u32).collect();
    let input: Vec<u32> = std::iter::repeat_n(block.clone(), 4).flatten().collect();
    let g = sequitur(&input);
    let mut pat: Vec<u32> = block[90..].to_vec();
    pat.extend(&block[..60]);
    let pats = [pat.clone(), block.clone(), input[5..205].to_vec()];
    let c = PatternCounts::count(&g, &g.rule_frequencies(), &pats.iter().map(|p| terminals(p)).collect::<Vec<_>>());
    assert_eq!(c.pattern(0), 3);
    assert_eq!(c.pattern(1), 4);
    assert_eq!(c.pattern(2), 2);
    let by_len = c.prefixes(&terminals(&pat));
    for k in 1..=pat.len() {
        assert_eq!(by_len[k - 1], occurrences(&input, &pat[..k]), "prefix of {k}");
    }
}

/// A subpath that overlaps itself: `a a` occurs `n - 1` times in a run of `n` a's, but
/// only `n / 2` of them fit side by side; `a b a` in `(a b)^n a`, `n` and `(n + 1) / 2`.
#[test]
fn disjoint_occurrences_of_self_overlapping_subpaths() {
    for n in [1u32, 2, 3, 10, 1001] {
        let run = vec![0u32; n as usize];
        let g = sequitur(&run);
        assert_eq!(disjoint_occurrences(&g, &terminals(&[0, 0])), n as u64 / 2, "a a in a^{n}");
        assert_eq!(occurrences(&run, &[0, 0]), n as u64 - 1);
        let mut abab: Vec<u32> = (0..n).flat_map(|_| [0, 1]).collect();
        abab.push(0);
        let g = sequitur(&abab);
        assert_eq!(disjoint_occurrences(&g, &terminals(&[0, 1, 0])), (n as u64).div_ceil(2), "a b a in (a b)^{n} a");
        assert_eq!(occurrences(&abab, &[0, 1, 0]), n as u64);
        assert_eq!(disjoint_occurrences(&g, &terminals(&[0, 1])), n as u64);
        assert_eq!(disjoint_occurrences(&g, &terminals(&[2])), 0);
    }
}

fn arb_structured() -> impl Strategy<Value = Vec<u32>> {
    // Repeated blocks with variations, like loops in a path trace.
    proptest::collection::vec((proptest::collection::vec(0u32..6, 1..8), 1usize..12), 1..10)
        .prop_map(|parts| parts.into_iter().flat_map(|(body, k)| std::iter::repeat_n(body, k).flatten()).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn pattern_counts_match_a_scan(g in arb_grammar(), extra in proptest::collection::vec(proptest::collection::vec(0u32..6, 1..6), 0..6), picks in proptest::collection::vec((0usize..1000, 1usize..9), 0..12)) {
        let seq: Vec<u32> = g.expand().collect();
        prop_assume!(seq.len() < 20_000);
        let mut pats = extra;
        for (at, len) in picks {
            if !seq.is_empty() {
                let at = at % seq.len();
                pats.push(seq[at..(at + len).min(seq.len())].to_vec());
            }
        }
        let c = PatternCounts::count(&g, &g.rule_frequencies(), &pats.iter().map(|p| terminals(p)).collect::<Vec<_>>());
        for (i, p) in pats.iter().enumerate() {
            prop_assert_eq!(c.pattern(i), occurrences(&seq, p), "pattern {:?} in {:?} of {:?}", p, seq, g);
            prop_assert_eq!(disjoint_occurrences(&g, &terminals(p)), disjoint_occurrences_brute(&seq, &terminals(p)), "disjoint {:?} in {:?}", p, seq);
            if !can_overlap(&terminals(p)) {
                prop_assert_eq!(disjoint_occurrences(&g, &terminals(p)), c.pattern(i), "{:?} cannot overlap itself", p);
            }
            let by_len = c.prefixes(&terminals(p));
            for k in 1..=p.len() {
                prop_assert_eq!(by_len[k - 1], occurrences(&seq, &p[..k]));
            }
        }
        // All at once, shared out among the cores, in the patterns' order.
        let all: Vec<Vec<Terminal>> = pats.iter().map(|p| terminals(p)).collect();
        let brute: Vec<u64> = all.iter().map(|p| disjoint_occurrences_brute(&seq, p)).collect();
        prop_assert_eq!(disjoint_occurrences_of(&g, &all.iter().map(Vec::as_slice).collect::<Vec<_>>()), brute);
    }

    /// Patterns longer than the rule heads the counter keeps at hand (32 symbols), on
    /// grammars of repetitive input whose rules are long.
    #[test]
    fn long_pattern_counts_match_a_scan(input in arb_structured(), picks in proptest::collection::vec((0usize..1000, 30usize..90), 1..6)) {
        let g = sequitur(&input);
        let pats: Vec<Vec<u32>> = picks.iter().map(|&(at, len)| {
            let at = at % input.len();
            input[at..(at + len).min(input.len())].to_vec()
        }).collect();
        let c = PatternCounts::count(&g, &g.rule_frequencies(), &pats.iter().map(|p| terminals(p)).collect::<Vec<_>>());
        for (i, p) in pats.iter().enumerate() {
            prop_assert_eq!(c.pattern(i), occurrences(&input, p), "pattern {:?}", p);
            prop_assert_eq!(disjoint_occurrences(&g, &terminals(p)), disjoint_occurrences_brute(&input, &terminals(p)), "disjoint {:?}", p);
            let by_len = c.prefixes(&terminals(p));
            for k in [1, 2, p.len() / 2, p.len()] {
                if (1..=p.len()).contains(&k) {
                    prop_assert_eq!(by_len[k - 1], occurrences(&input, &p[..k]));
                }
            }
        }
    }

    /// On random grammars (rules unreachable, used once, of one symbol): exactly the brute
    /// force.
    #[test]
    fn hot_on_random_grammars(g in arb_grammar(), costs in proptest::collection::vec(1u64..5, 6), max_len in 1usize..7, min_len in 1usize..4, min_cost in 1u64..60) {
        prop_assume!(g.expand().take(20_001).count() <= 20_000);
        check_hot(&g, &costs, &HotParams { max_len, min_len, min_cost })?;
    }

    /// The same on the grammars of SEQUITUR(1) and Re-Pair for repetitive input.
    #[test]
    fn hot_on_builder_grammars(input in arb_structured(), costs in proptest::collection::vec(1u64..4, 6), max_len in 2usize..12, min_len in 1usize..4, min_cost in 4u64..80) {
        let p = HotParams { max_len, min_len, min_cost };
        check_hot(&sequitur(&input), &costs, &p)?;
        check_hot(&repair(&input), &costs, &p)?;
    }
}
