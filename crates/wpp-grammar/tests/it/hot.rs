//! Hot subpaths and sequence counts on the DAG against scans of the expanded sequence.
//!
//! The relations checked for hot subpaths: every subpath the DAG algorithm reports is a
//! minimal hot subpath of the expansion with exactly the frequency and cost the brute
//! force gives it (the DAG algorithm reports a subset; see `wpp_grammar::hot`), and the
//! subset is as large as `hot_subpaths` promises: for every rule and every subpath of its
//! expansion hot by that rule's frequency alone, a reported subpath occurs in the rule's
//! expansion at most `max_len - 1` symbols before it and no later than its end.

use std::collections::{BTreeSet, HashMap, HashSet};

use proptest::prelude::*;
use wpp_grammar::{
    disjoint_occurrences, disjoint_occurrences_brute, hot_subpaths, hot_subpaths_brute, repair, Grammar, HotParams, HotSubpath, PatternCounts, RuleId,
    Sequitur, Sym, Terminal,
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

/// The expansion of rule `r`.
fn expansion(g: &Grammar, r: u32) -> Vec<Terminal> {
    let mut out = Vec::new();
    let mut stack = vec![Sym::N(RuleId(r))];
    while let Some(s) = stack.pop() {
        match s {
            Sym::T(t) => out.push(t),
            Sym::N(RuleId(q)) => stack.extend(g.rules[q as usize].iter().rev()),
        }
    }
    out
}

/// The promise of `hot_subpaths`: for every reachable rule `r` and every subpath `u` of
/// its expansion with `min_len <= |u| <= max_len` and `freq(r) × cost(u) >= min_cost`,
/// some reported subpath occurs in `r`'s expansion starting at most `max_len - 1` symbols
/// before `u` starts and no later than `u` ends. (For a start position the shortest such
/// `u` is the strictest case, so only it is checked.)
fn check_found_near(g: &Grammar, costs: &[u64], p: &HotParams, dag: &[HotSubpath]) -> Result<(), TestCaseError> {
    let (max_len, min_len) = (p.max_len.max(1), p.min_len.max(1));
    let freq = g.rule_frequencies();
    let reported: HashSet<&[Terminal]> = dag.iter().map(|h| h.symbols.as_slice()).collect();
    let lens: BTreeSet<usize> = dag.iter().map(|h| h.symbols.len()).collect();
    for (r, &f) in freq.iter().enumerate() {
        if f == 0 {
            continue;
        }
        let exp = expansion(g, r as u32);
        // Per start, the end of the shortest window hot by `f`.
        let hot_end = |s: usize| {
            let mut sum = 0u128;
            (s..exp.len().min(s + max_len)).find(|&e| {
                sum += costs[exp[e].idx()] as u128;
                e + 1 - s >= min_len && sum * f as u128 >= p.min_cost as u128
            })
        };
        let windows: Vec<(usize, usize)> = (0..exp.len()).filter_map(|s| hot_end(s).map(|e| (s, e))).collect();
        if windows.is_empty() {
            continue;
        }
        // `before[i]`: reported subpaths starting in `exp[..i]`.
        let mut before = vec![0usize; exp.len() + 1];
        for i in 0..exp.len() {
            let here = lens.iter().any(|&l| i + l <= exp.len() && reported.contains(&exp[i..i + l]));
            before[i + 1] = before[i] + here as usize;
        }
        for (s, e) in windows {
            let from = s.saturating_sub(max_len - 1);
            prop_assert!(
                before[e + 1] > before[from],
                "rule {} (frequency {}): {:?} at {} is hot by the rule alone, but nothing reported starts in {}..={} of its expansion {:?}; reported {:?}; {:?} in {:?}",
                r,
                f,
                &exp[s..=e],
                s,
                from,
                e,
                exp,
                dag,
                p,
                g
            );
        }
    }
    Ok(())
}

fn check_hot(g: &Grammar, costs: &[u64], p: &HotParams) -> Result<usize, TestCaseError> {
    let seq: Vec<u32> = g.expand().collect();
    let dag = hot_subpaths(g, costs, p);
    check_found_near(g, costs, p, &dag)?;
    let brute: HashMap<Vec<Terminal>, HotSubpath> = hot_subpaths_brute(&seq, costs, p).into_iter().map(|h| (h.symbols.clone(), h)).collect();
    for h in &dag {
        let b = brute.get(&h.symbols);
        prop_assert!(b.is_some(), "{:?} reported but is not a minimal hot subpath of {:?} ({:?})", h, seq, p);
        prop_assert_eq!(b.unwrap(), h);
    }
    let mut distinct = dag.clone();
    distinct.dedup_by(|a, b| a.symbols == b.symbols);
    prop_assert_eq!(distinct.len(), dag.len(), "duplicates in {:?}", dag);
    Ok(dag.len())
}

/// Larus 1999, Fig. 5: `abbcabbcabbc` as S → AAA, A → BC, B → ab, C → bc; cost 1 per
/// path, length 2..3, cost ≥ 6: the algorithm reports ab and bc.
#[test]
fn larus_figure_5() {
    let (a, b, c) = (Sym::T(Terminal(0)), Sym::T(Terminal(1)), Sym::T(Terminal(2)));
    let g = Grammar {
        rules: vec![vec![Sym::N(RuleId(1)), Sym::N(RuleId(1)), Sym::N(RuleId(1))], vec![Sym::N(RuleId(2)), Sym::N(RuleId(3))], vec![a, b], vec![b, c]],
    };
    assert_eq!(g.expand().collect::<Vec<_>>(), [0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2]);
    let p = HotParams { max_len: 3, min_len: 2, min_cost: 6 };
    let hot = hot_subpaths(&g, &[1, 1, 1], &p);
    let got: Vec<(Vec<Terminal>, u64, u64)> = hot.iter().map(|h| (h.symbols.clone(), h.frequency, h.cost)).collect();
    assert_eq!(got, [(terminals(&[0, 1]), 3, 6), (terminals(&[1, 2]), 3, 6)]);
    // All minimal hot subpaths: also bb, and cab (ca alone occurs twice: cost 4).
    let seq: Vec<u32> = g.expand().collect();
    let mut all: Vec<Vec<Terminal>> = hot_subpaths_brute(&seq, &[1, 1, 1], &p).into_iter().map(|h| h.symbols).collect();
    all.sort();
    assert_eq!(all, [terminals(&[0, 1]), terminals(&[1, 1]), terminals(&[1, 2]), terminals(&[2, 0, 1])]);
    // bb is hot by A alone (3 × 2), and ab, reported, starts just before it.
    check_hot(&g, &[1, 1, 1], &p).unwrap();
}

/// The first example in `hot_subpaths`'s documentation of what it does not promise: the
/// costliest minimal hot subpath, spread over one rule's right side, is missed (the
/// second is Fig. 5's `bb`, above).
#[test]
fn costliest_can_be_missed() {
    let input = [0, 1, 0, 2, 0, 3, 0, 4];
    let g = sequitur(&input);
    assert_eq!(g.rules.len(), 1);
    let p = HotParams { max_len: 1, min_len: 1, min_cost: 4 };
    let costs = [1; 5];
    let all = hot_subpaths_brute(&input, &costs, &p);
    assert_eq!(all[0].symbols, [Terminal(0)]);
    assert_eq!(hot_subpaths(&g, &costs, &p), []);
    check_hot(&g, &costs, &p).unwrap();
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
            let by_len = c.prefixes(&terminals(p));
            for k in 1..=p.len() {
                prop_assert_eq!(by_len[k - 1], occurrences(&seq, &p[..k]));
            }
        }
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

    /// On random grammars (rules unreachable, used once, of one symbol): a subset of the
    /// brute force, and something reported near every subpath hot by one rule.
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
