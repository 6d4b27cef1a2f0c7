//! Re-Pair against its oracles: expanding the grammar gives back the input exactly, the
//! grammar has SEQUITUR's two properties (the blocked builder: the weaker set it
//! documents), Tallam & Gupta's example gives their grammar, and on small inputs the
//! grammar is exactly the one a brute-force Re-Pair builds by recounting every pair
//! after every replacement ([`brute_repair`]).

use std::collections::HashMap;

use proptest::prelude::*;
use wpp_grammar::{repair, repair_with_stats, Grammar, RePairBlocks, RuleId, Sequitur, Sym, Terminal};
use wpp_test_support::grammar_checks::{build_repair_blocks as build_blocks, check_repair, check_repair_blocks, expansion_matches};

fn check(input: &[u32]) -> Result<Grammar, String> {
    check_repair(input)
}

fn check_blocks(input: &[u32], block_len: usize) -> Result<Grammar, String> {
    check_repair_blocks(input, block_len)
}

type Pair = (Sym, Sym);

/// Pair counts without overlap: every occurrence of `xy` with `x != y`, and `⌊L/2⌋` for
/// `xx` per maximal run `x^L`.
fn pair_counts(seq: &[Sym]) -> HashMap<Pair, usize> {
    let mut counts = HashMap::new();
    let mut i = 0;
    while i + 1 < seq.len() {
        if seq[i] == seq[i + 1] {
            let end = i + seq[i..].iter().take_while(|&&s| s == seq[i]).count();
            *counts.entry((seq[i], seq[i])).or_default() += (end - i) / 2;
            // The run's last symbol starts the next pair.
            i = end - 1;
        } else {
            *counts.entry((seq[i], seq[i + 1])).or_default() += 1;
            i += 1;
        }
    }
    counts
}

/// Re-Pair by brute force: the pair counts are recounted from scratch after every
/// occurrence replaced, and the pair to replace next is the most frequent one (count at
/// least 2), ties broken as the module documentation of `wpp_grammar::repair` says.
///
/// That tie order needs more than a recount per pass. The queue holds one list per
/// count below `b = max(⌈√n⌉, 2)` and one for counts `>= b`; a pair's place is the time
/// it last entered its list, and the choice is the largest count, then the earliest
/// entry. An old pair's count only falls during a pass, and it re-enters a list each
/// time a fall moves it to another one, so its place depends on *which* occurrence of
/// the pass took its last move: a recount after the whole pass cannot tell. Hence the
/// recount after each occurrence, which times every fall; within one occurrence the pair
/// on its left falls before the pair on its right. Pairs with the new symbol enter at
/// the end of the pass, in the order the pass first made them (left before right within
/// an occurrence), if they then occur at least twice.
///
/// Finalisation is reimplemented simply: rules used once (counting uses in the rules the
/// start sequence reaches) are inlined, the others numbered in order of first use,
/// breadth-first from the start rule.
fn brute_repair(input: &[u32]) -> Grammar {
    let high = ((input.len() as f64).sqrt().ceil() as usize).max(2);
    let list_of = |count: usize| count.min(high);
    let mut seq: Vec<Sym> = input.iter().map(|&t| Sym::T(Terminal(t))).collect();
    // Queued pairs: count and entry time.
    let mut queue: HashMap<Pair, (usize, u64)> = HashMap::new();
    let mut clock = 0u64;
    let counts = pair_counts(&seq);
    let mut first_seen: Vec<Pair> = Vec::new();
    for w in seq.windows(2) {
        let pair = (w[0], w[1]);
        if counts[&pair] >= 2 && !first_seen.contains(&pair) {
            first_seen.push(pair);
            queue.insert(pair, (counts[&pair], clock));
            clock += 1;
        }
    }
    let mut rules: Vec<[Sym; 2]> = Vec::new();
    while let Some((&pair, _)) = queue.iter().max_by_key(|(_, &(count, entered))| (count, std::cmp::Reverse(entered))) {
        queue.remove(&pair);
        let new = Sym::N(RuleId(rules.len() as u32));
        rules.push([pair.0, pair.1]);
        // One pass, left to right, an occurrence at a time.
        let mut made: Vec<Pair> = Vec::new();
        let mut before = pair_counts(&seq);
        let mut i = 0;
        while i + 1 < seq.len() {
            if (seq[i], seq[i + 1]) != pair {
                i += 1;
                continue;
            }
            let left = (i > 0).then(|| (seq[i - 1], pair.0));
            let right = (i + 2 < seq.len()).then(|| (pair.1, seq[i + 2]));
            seq.splice(i..i + 2, [new]);
            let after = pair_counts(&seq);
            let mut fallen = [left, right];
            if left == right {
                fallen[0] = None;
            }
            for p in fallen.into_iter().flatten() {
                let Some(&(old, entered)) = queue.get(&p) else { continue };
                let count = after.get(&p).copied().unwrap_or(0);
                if count < 2 {
                    queue.remove(&p);
                } else {
                    let entered = if list_of(count) != list_of(old) { clock } else { entered };
                    clock += 1;
                    queue.insert(p, (count, entered));
                }
            }
            // Only the two neighbouring pairs can have lost an occurrence.
            for (p, &(count, _)) in &queue {
                assert_eq!(after.get(p), Some(&count), "{p:?} changed away from the occurrence replaced");
            }
            let left_new = (i > 0).then(|| (seq[i - 1], new));
            let right_new = (i + 1 < seq.len()).then(|| (new, seq[i + 1]));
            for p in [left_new, right_new].into_iter().flatten() {
                if !made.contains(&p) {
                    made.push(p);
                }
            }
            before = after;
            i += 1;
        }
        for p in made {
            let count = before.get(&p).copied().unwrap_or(0);
            if count >= 2 {
                queue.insert(p, (count, clock));
                clock += 1;
            }
        }
        let active: HashMap<Pair, usize> = before.into_iter().filter(|&(_, c)| c >= 2).collect();
        assert_eq!(active, queue.iter().map(|(&p, &(c, _))| (p, c)).collect(), "the oracle's queue after replacing {pair:?}");
    }
    finalize(&rules, &seq)
}

/// Rule utility and renumbering, simply: inline every rule used at most once among the
/// rules `start` reaches, then number rules by first use, breadth-first from the start.
fn finalize(rules: &[[Sym; 2]], start: &[Sym]) -> Grammar {
    let mut uses = vec![0usize; rules.len()];
    let mut reached = vec![false; rules.len()];
    let mut todo: Vec<Sym> = start.to_vec();
    while let Some(s) = todo.pop() {
        if let Sym::N(RuleId(r)) = s {
            uses[r as usize] += 1;
            if !reached[r as usize] {
                reached[r as usize] = true;
                todo.extend(rules[r as usize]);
            }
        }
    }
    fn inline(body: &[Sym], rules: &[[Sym; 2]], uses: &[usize], out: &mut Vec<Sym>) {
        for &s in body {
            match s {
                Sym::N(RuleId(r)) if uses[r as usize] < 2 => inline(&rules[r as usize], rules, uses, out),
                s => out.push(s),
            }
        }
    }
    let mut old_of_new: Vec<Option<u32>> = vec![None];
    let mut number: HashMap<u32, u32> = HashMap::new();
    let mut out = Vec::new();
    let mut k = 0;
    while k < old_of_new.len() {
        let mut body = Vec::new();
        match old_of_new[k] {
            None => inline(start, rules, &uses, &mut body),
            Some(r) => inline(&rules[r as usize], rules, &uses, &mut body),
        }
        for s in &mut body {
            if let Sym::N(RuleId(r)) = *s {
                let n = *number.entry(r).or_insert_with(|| {
                    old_of_new.push(Some(r));
                    old_of_new.len() as u32 - 1
                });
                *s = Sym::N(RuleId(n));
            }
        }
        out.push(body);
        k += 1;
    }
    Grammar::from(out)
}

/// A path trace with loop and call structure: an outer loop whose body runs an inner
/// loop with a varying trip count and a rare branch, then calls one of two functions.
fn loop_trace(n: usize, seed: u64) -> Vec<u32> {
    let mut state = seed;
    let mut rand = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    let mut out = Vec::with_capacity(n + 64);
    let mut outer = 0u32;
    while out.len() < n {
        outer += 1;
        out.push(0);
        for _ in 0..3 + outer % 5 {
            out.push(1);
            out.push(if rand() % 16 == 0 { 2 } else { 3 });
            out.push(4);
        }
        match outer % 3 {
            0 => out.extend([10, 11, 12]),
            1 => out.extend([10, 13, 12]),
            _ => out.extend([10, 11, 12, 20, 10, 13, 12, 21]),
        }
        out.push(5);
    }
    out.truncate(n);
    out
}

const BLOCK_LENS: [usize; 5] = [1, 2, 3, 7, 64];

fn with_noise(block: &[u32], reps: usize, noise: &[(usize, u32)]) -> Vec<u32> {
    let mut input: Vec<u32> = (0..reps).flat_map(|_| block.iter().copied()).collect();
    for &(i, v) in noise {
        if i < input.len() {
            input[i] = v;
        }
    }
    input
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Small alphabets: many repeats, runs, deep rules.
    #[test]
    fn small_alphabet(input in proptest::collection::vec(0u32..3, 0..400)) {
        check(&input).map_err(TestCaseError::fail)?;
    }

    /// Large alphabets: few repeats.
    #[test]
    fn large_alphabet(input in proptest::collection::vec(0u32..100_000, 0..400)) {
        check(&input).map_err(TestCaseError::fail)?;
    }

    /// Terminals near `u32::MAX` (renumbered densely inside the builder).
    #[test]
    fn huge_terminals(input in proptest::collection::vec(u32::MAX - 3..=u32::MAX, 0..200)) {
        check(&input).map_err(TestCaseError::fail)?;
    }

    /// Repeated blocks with mutations, like loop iterations of a path trace.
    #[test]
    fn repeated_blocks(block in proptest::collection::vec(0u32..6, 1..12), reps in 1usize..60, noise in proptest::collection::vec((0usize..600, 0u32..6), 0..8)) {
        check(&with_noise(&block, reps, &noise)).map_err(TestCaseError::fail)?;
    }

    /// The blocked builder on small alphabets, at every block length.
    #[test]
    fn blocks_small_alphabet(input in proptest::collection::vec(0u32..3, 0..400)) {
        for len in BLOCK_LENS {
            check_blocks(&input, len).map_err(TestCaseError::fail)?;
        }
    }

    /// The blocked builder on large alphabets.
    #[test]
    fn blocks_large_alphabet(input in proptest::collection::vec(0u32..100_000, 0..400)) {
        for len in BLOCK_LENS {
            check_blocks(&input, len).map_err(TestCaseError::fail)?;
        }
    }

    /// The blocked builder on repeated blocks with mutations.
    #[test]
    fn blocks_repeated_blocks(block in proptest::collection::vec(0u32..6, 1..12), reps in 1usize..60, noise in proptest::collection::vec((0usize..600, 0u32..6), 0..8)) {
        let input = with_noise(&block, reps, &noise);
        for len in BLOCK_LENS {
            check_blocks(&input, len).map_err(TestCaseError::fail)?;
        }
    }

    /// With one block, the blocked builder gives exactly [`repair`]'s grammar.
    #[test]
    fn one_block_is_repair(input in proptest::collection::vec(0u32..4, 0..300)) {
        prop_assert_eq!(build_blocks(&input, 300), repair(&input));
    }
}

fn runs(parts: Vec<(u32, usize)>) -> Vec<u32> {
    parts.into_iter().flat_map(|(t, len)| std::iter::repeat_n(t, len)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Exactly the brute force's grammar: small alphabets, many ties.
    #[test]
    fn brute_force_small_alphabet(input in proptest::collection::vec(0u32..3, 0..160)) {
        prop_assert_eq!(repair(&input), brute_repair(&input));
    }

    /// Runs of two symbols: pairs `xx` counted and replaced without overlap, runs that
    /// shrink from either side.
    #[test]
    fn brute_force_runs(parts in proptest::collection::vec((0u32..2, 1usize..7), 0..40)) {
        let input = runs(parts);
        prop_assert_eq!(repair(&input), brute_repair(&input));
    }

    /// Repeated blocks with mutations: deep rules, counts above `⌈√n⌉` (the top list).
    #[test]
    fn brute_force_repeated_blocks(block in proptest::collection::vec(0u32..5, 1..8), reps in 1usize..30, noise in proptest::collection::vec((0usize..200, 0u32..5), 0..6)) {
        let input = with_noise(&block, reps, &noise);
        prop_assert_eq!(repair(&input), brute_repair(&input));
    }

    /// Terminals near `u32::MAX`, which the builder renumbers densely.
    #[test]
    fn brute_force_huge_terminals(input in proptest::collection::vec(u32::MAX - 2..=u32::MAX, 0..100)) {
        prop_assert_eq!(repair(&input), brute_repair(&input));
    }
}

/// Tallam & Gupta's example (§4.2): `bc` is the most frequent digram (8 occurrences, the
/// others at most 2) and is replaced first, giving `S → AABBCCDD`, `A → wE`, `B → xE`,
/// `C → yE`, `D → zE`, `E → bc`. Had `wb` gone first, `w` and `b` would share a rule
/// body and no rule `bc` would cover all eight occurrences.
#[test]
fn tallam_gupta_example() {
    let (b, c, w, x, y, z) = (1, 2, 3, 4, 5, 6);
    let input = [w, b, c, w, b, c, x, b, c, x, b, c, y, b, c, y, b, c, z, b, c, z, b, c];
    let g = check(&input).unwrap();
    let (n, t) = (|r| Sym::N(RuleId(r)), |x| Sym::T(Terminal(x)));
    let expected = Grammar::from(vec![
        vec![n(1), n(1), n(2), n(2), n(3), n(3), n(4), n(4)],
        vec![t(w), n(5)],
        vec![t(x), n(5)],
        vec![t(y), n(5)],
        vec![t(z), n(5)],
        vec![t(b), t(c)],
    ]);
    assert_eq!(g, expected);
}

/// Runs are paired left to right without overlap.
#[test]
fn runs_pair_without_overlap() {
    let (n, t) = (|r| Sym::N(RuleId(r)), |x| Sym::T(Terminal(x)));
    // `aaa` holds one non-overlapping `aa`: nothing to replace.
    assert_eq!(check(&[7, 7, 7]).unwrap(), Grammar::from(vec![vec![t(7), t(7), t(7)]]));
    // `aaaa` → `AA`, then `AA` occurs once.
    assert_eq!(check(&[7; 4]).unwrap(), Grammar::from(vec![vec![n(1), n(1)], vec![t(7), t(7)]]));
    // `aaaaa` → `AAa`.
    assert_eq!(check(&[7; 5]).unwrap(), Grammar::from(vec![vec![n(1), n(1), t(7)], vec![t(7), t(7)]]));
    // `baaab baaab`: `aa` counts once per run of three, so `ba`, `aa`, `ab` tie at two
    // and `ba` (first occurrence first) wins; the run then shrinks from the left and its
    // `aa` must be counted again at its new start.
    let g = check(&[1, 0, 0, 0, 1, 1, 0, 0, 0, 1]).unwrap();
    assert_eq!(g.rules[0], vec![n(1), n(1)]);
    assert_eq!(g.rules.len(), 2);
}

#[test]
fn pathological_inputs() {
    let run: Vec<u32> = std::iter::repeat_n(7, 100_000).collect();
    let g = check(&run).unwrap();
    assert!(g.n_symbols() < 100, "{} symbols for a run of 100,000", g.n_symbols());
    let abab: Vec<u32> = (0..100_000).map(|i| i % 2).collect();
    let g = check(&abab).unwrap();
    assert!(g.n_symbols() < 100, "{} symbols for (ab)^50,000", g.n_symbols());
    let abc: Vec<u32> = (0..99_999).map(|i| i % 3).collect();
    let g = check(&abc).unwrap();
    assert!(g.n_symbols() < 100, "{} symbols for (abc)^33,333", g.n_symbols());
    // Runs of runs: a^1 b a^2 b a^3 b ...
    let mut runs = Vec::new();
    for k in 1..300 {
        runs.extend(std::iter::repeat_n(1, k));
        runs.push(2);
    }
    check(&runs).unwrap();
    // A long run shortened from the left: `xc` (1,001 times) outnumbers `cc` (499), so
    // `xc` goes first and the run's `cc` occurrences must shift to stay non-overlapping.
    let mut shortened: Vec<u32> = [3, 4].repeat(1000);
    shortened.push(3);
    shortened.extend(std::iter::repeat_n(4, 999));
    let g = check(&shortened).unwrap();
    assert!(g.n_symbols() < 200, "{} symbols", g.n_symbols());
    // Nested repetition 2^k deep.
    let mut nested = vec![0u32];
    for k in 1..15 {
        let t = nested.clone();
        nested.push(k);
        nested.extend(t);
    }
    check(&nested).unwrap();
    // All distinct: no rules.
    let distinct: Vec<u32> = (0..10_000).collect();
    let g = check(&distinct).unwrap();
    assert_eq!(g.rules.len(), 1);
    assert_eq!(check(&[]).unwrap(), Grammar::from(vec![vec![]]));
    assert_eq!(check(&[42]).unwrap(), Grammar::from(vec![vec![Sym::T(Terminal(42))]]));

    for input in [&run[..10_000], &abab[..10_000], &abc[..9_999], &runs[..], &shortened[..], &nested[..], &distinct[..], &[], &[42]] {
        for len in [1, 2, 3, 7, 64, 1000] {
            check_blocks(input, len).unwrap();
        }
    }
}

/// On a loop-structured trace, short phrases (one inner-loop iteration, one call) recur
/// inside many different longer contexts. SEQUITUR pairs symbols first come, first served,
/// so a phrase's digrams end up split differently in different rules (Tallam & Gupta's
/// `wbc` / `xbc`); Re-Pair replaces the most frequent digram first, so a common phrase
/// gets one rule that every context shares. On such traces Re-Pair's grammar is
/// consistently about 20–35% smaller; the check is only that it is not larger, and that
/// both compress the trace well.
#[test]
fn size_versus_sequitur() {
    let input = loop_trace(200_000, 1);
    let g = check(&input).unwrap();
    let mut s = Sequitur::new();
    s.extend(input.iter().copied());
    let sg = s.grammar();
    let blocked = check_blocks(&input, 4096).unwrap();
    let (rp, sq, bl) = (g.n_symbols(), sg.n_symbols(), blocked.n_symbols());
    println!("symbols: Re-Pair {rp}, SEQUITUR {sq}, Re-Pair in blocks of 4096 {bl}, input {}", input.len());
    assert!(rp <= sq, "Re-Pair {rp} vs SEQUITUR {sq}");
    assert!(sq * 10 < input.len(), "SEQUITUR {sq} symbols for {}", input.len());
}

/// Blocks are parsed on their own: with blocks of 4, `abab|ab` gives `S → AAab`,
/// `A → ab`, since the second block holds `ab` once and the final pass sees no repeat in
/// `AAab`. The digram `ab` then occurs in `S` and in `A`: the blocked result has exactly
/// the properties `grammar_checks::check_blocked_properties` checks, not full digram uniqueness.
#[test]
fn blocks_keep_a_digram_of_another_block() {
    let (n, t) = (|r| Sym::N(RuleId(r)), |x| Sym::T(Terminal(x)));
    let input = [0, 1, 0, 1, 0, 1];
    let g = check_blocks(&input, 4).unwrap();
    assert_eq!(g, Grammar::from(vec![vec![n(1), n(1), t(0), t(1)], vec![t(0), t(1)]]));
    assert!(g.check_sequitur_properties().is_err());
    assert_eq!(check(&input).unwrap(), Grammar::from(vec![vec![n(1), n(1), n(1)], vec![t(0), t(1)]]));
}

/// Two million symbols of a loop-structured trace, whole and in blocks.
#[test]
fn scale_two_million() {
    let input = loop_trace(2_000_000, 7);
    let (g, stats) = repair_with_stats(&input);
    expansion_matches(&g, &input).unwrap();
    assert_eq!(stats.n_input, 2_000_000);
    let mut b = RePairBlocks::new(1 << 16);
    b.extend(input.iter().copied());
    let (bg, bstats) = b.finish_with_stats();
    expansion_matches(&bg, &input).unwrap();
    assert_eq!(bstats.n_blocks, 31);
    // The whole-trace builder holds 12 bytes a symbol: the symbol and its two occurrence
    // links (see `wpp_grammar::repair`). The rest (records and hash entries of the pairs,
    // the rules, the final sequence) grows with the active pairs and the grammar: a few
    // thousand rules on this trace, well under half a byte a symbol. One more array per
    // symbol, wider links or a copy of the input would break the bound.
    let n = input.len();
    println!("peak bytes: whole {} ({:.2} a symbol), blocks {}", stats.peak_bytes, stats.peak_bytes as f64 / n as f64, bstats.peak_bytes);
    assert!(stats.peak_bytes <= 12 * n + n / 2, "{} bytes for {n} symbols", stats.peak_bytes);
    // Blocks bound the memory: the blocked builder holds a block of 65,536 symbols plus
    // the grammar.
    assert!(bstats.peak_bytes * 4 < stats.peak_bytes, "{} vs {}", bstats.peak_bytes, stats.peak_bytes);
}
