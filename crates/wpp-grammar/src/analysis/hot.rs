//! Hot subpaths (Larus 1999, §4.2), found on the DAG without expanding the sequence.
//!
//! A *subpath* is a run of consecutive symbols of the expansion. Its *frequency* is the
//! number of places it occurs (overlapping ones included), its *cost* the frequency times
//! the sum of its symbols' costs. It is *hot* if it is between `min_len` and `max_len`
//! symbols long and costs at least `min_cost`; a hot subpath is *minimal* if no shorter
//! prefix of it (of at least `min_len` symbols) is hot.
//!
//! [`hot_subpaths`] works in two passes:
//!
//! 1. Larus's Fig. 7, once per rule in post-order: the rule's right side is scanned as a
//!    string of at most `max_len` symbols — terminals, and for a rule reference that
//!    rule's *prefix* (and then its *suffix*, if the prefix is not the whole expansion).
//!    Whenever the scanned string, weighted by the rule's frequency, is hot, it is a
//!    candidate and the string starts again empty. A rule's prefix is its first `max_len`
//!    symbols, cut before its first candidate; its suffix is what is left scanned at the
//!    end. So each rule is visited once, each edge costs at most `max_len` steps: O(E·L).
//!    A candidate occurs at least once per occurrence of the rule where it was found, so
//!    it is hot by its true frequency too.
//! 2. The exact frequency of every prefix of every candidate, counted on the DAG
//!    ([`PatternCounts`]); each candidate is replaced by its shortest hot prefix.
//!
//! What comes out are minimal hot subpaths with their exact frequency and cost. It is a
//! subset of all of them: Larus's scan weighs a string by the frequency of one rule, and a
//! string whose occurrences are spread over many rules, or that overlaps one already
//! reported, may not be found. What is found is stated in [`hot_subpaths`]: near every
//! subpath hot by the frequency of one rule, something is reported.
//! [`hot_subpaths_brute`] is the oracle: every minimal hot subpath, by counting every
//! substring of the expanded sequence.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::{Grammar, PatternCounts, RuleId, Sym, Terminal};

/// What makes a subpath hot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HotParams {
    /// Longest subpath, in symbols (at least 1).
    pub max_len: usize,
    /// Shortest subpath, in symbols.
    pub min_len: usize,
    /// Least cost: frequency × the sum of the symbols' costs.
    pub min_cost: u64,
}

/// A minimal hot subpath.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HotSubpath {
    pub symbols: Vec<Terminal>,
    /// Occurrences in the expansion.
    pub frequency: u64,
    /// `frequency` × the sum of the symbols' costs, saturating.
    pub cost: u64,
}

fn cost_of(costs: &[u64], symbols: &[u32], frequency: u64) -> u64 {
    let sum: u128 = symbols.iter().map(|&s| costs[s as usize] as u128).sum();
    u64::try_from(sum * frequency as u128).unwrap_or(u64::MAX)
}

/// Largest cost first, then most frequent, then by symbols.
fn sort(out: &mut [HotSubpath]) {
    out.sort_by(|a, b| b.cost.cmp(&a.cost).then(b.frequency.cmp(&a.frequency)).then(a.symbols.cmp(&b.symbols)));
}

/// Minimal hot subpaths of `g`'s expansion found on the DAG (see the module doc), largest
/// cost first. `costs[t]` is the cost of terminal `t`; `g` must be valid over
/// `costs.len()` terminals.
///
/// Each subpath returned is a minimal hot subpath, with its exact frequency and cost. Not
/// every one is returned; what is guaranteed is this. Call a subpath `u` of the expansion
/// of a rule `r` (reached from the start rule) *hot by `r`* if `min_len <= |u| <= max_len`
/// and `r`'s frequency × `u`'s cost is at least `min_cost`. Then a returned subpath occurs
/// in `r`'s expansion starting at most `max_len - 1` symbols before `u` and no later than
/// `u`'s last symbol. So the result is empty exactly when no rule holds a subpath hot by
/// it — for the start rule, of frequency 1, when no stretch of at most `max_len` symbols
/// costs `min_cost` on its own.
///
/// Why: take the lowest rule `q` below `r` whose expansion holds this `u` (its frequency
/// is at least `r`'s). Its scan sees every symbol of `u` in one stretch of its window,
/// unless some candidate ends inside `u` (in a rule below, cutting the suffix `q` sees,
/// or in `q` itself, clearing the window) or starts inside it (cutting a prefix `q`
/// sees). If none does, the window at `u`'s last symbol holds `u` and is hot. A candidate
/// of at most `max_len` symbols that ends inside `u` starts at most `max_len - 1` before
/// it, and its shortest hot prefix, which is what is returned for it, starts there too.
///
/// Nothing stronger holds in general. The costliest minimal hot subpath is missed when
/// its occurrences are spread over rules none of which is frequent enough: in
/// `0 1 0 2 0 3 0 4` (one rule, no digram repeats) with cost 1 per symbol, `max_len = 1`
/// and `min_cost = 4`, `0` is hot and nothing is returned. A subpath hot by one rule can
/// be missed when it overlaps what is reported: in Larus's Fig. 5, `bb` is hot by
/// `A → BC` (`ab·bc`, 3 times), but the scans of `B` and `C` report `ab` and `bc`, which
/// overlap it, and leave `A`'s scan nothing of them to join.
pub fn hot_subpaths(g: &Grammar, costs: &[u64], p: &HotParams) -> Vec<HotSubpath> {
    let max_len = p.max_len.max(1);
    let min_len = p.min_len.max(1);
    if g.rules.is_empty() || min_len > max_len {
        return Vec::new();
    }
    let Ok(order) = g.topological_order() else { return Vec::new() };
    let freq = g.rule_frequencies_in(&order);
    let candidates = larus_candidates(g, costs, &freq, max_len, min_len, p.min_cost, true);
    let counts = PatternCounts::count_in(g, &order, &freq, &candidates);
    let mut seen: FxHashSet<&[Terminal]> = FxHashSet::default();
    let mut out = Vec::new();
    for c in &candidates {
        let by_len = counts.prefixes(c);
        let mut sum: u128 = 0;
        for (j, &s) in c.iter().enumerate() {
            sum += costs[s.idx()] as u128;
            let len = j + 1;
            let cost = u64::try_from(sum * by_len[j] as u128).unwrap_or(u64::MAX);
            if len >= min_len && cost >= p.min_cost {
                if seen.insert(&c[..len]) {
                    out.push(HotSubpath { symbols: c[..len].to_vec(), frequency: by_len[j], cost });
                }
                break;
            }
        }
    }
    sort(&mut out);
    out
}

/// Per rule, what its parents need from the scan (Larus's prefix and suffix strings).
struct Scanned {
    prefix: Vec<Terminal>,
    /// Whether `prefix` is the rule's whole expansion.
    covers: bool,
    suffix: Vec<Terminal>,
}

/// Pass 1: Larus's post-order scan; returns the distinct candidate strings.
/// With `shortcut`, rules where no window can be hot are skipped (same result, checked by
/// a test).
fn larus_candidates(g: &Grammar, costs: &[u64], freq: &[u64], max_len: usize, min_len: usize, min_cost: u64, shortcut: bool) -> Vec<Vec<Terminal>> {
    let n = g.rules.len();
    // Post-order from the start rule, with an explicit stack; a rule's strings are dropped
    // once every reference to it has been scanned.
    let mut refs = vec![0u32; n];
    for body in &g.rules {
        for s in body {
            if let Sym::N(RuleId(r)) = *s {
                refs[r as usize] += 1;
            }
        }
    }
    let mut done: Vec<Option<Scanned>> = (0..n).map(|_| None).collect();
    let mut visited = vec![false; n];
    let mut found: FxHashSet<Vec<Terminal>> = FxHashSet::default();
    let mut candidates = Vec::new();
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    visited[0] = true;
    let mut window = Window::default();
    let max_window_cost = max_len as u128 * costs.iter().copied().max().unwrap_or(0) as u128;
    while let Some(&mut (r, ref mut pos)) = stack.last_mut() {
        let body = &g.rules[r as usize];
        // Descend into the next unvisited child first.
        if *pos < body.len() {
            let s = body[*pos];
            *pos += 1;
            if let Sym::N(RuleId(q)) = s {
                if !visited[q as usize] {
                    visited[q as usize] = true;
                    stack.push((q, 0));
                }
            }
            continue;
        }
        stack.pop();
        // All children are scanned: scan this rule.
        let f = freq[r as usize];
        if shortcut && f as u128 * max_window_cost < min_cost as u128 {
            // No window here can be hot. Nor in any rule that uses this one: a rule is at
            // most as frequent as the rules it uses. So nothing here is needed later.
            for s in body {
                if let Sym::N(RuleId(q)) = *s {
                    refs[q as usize] -= 1;
                    if refs[q as usize] == 0 {
                        done[q as usize] = None;
                    }
                }
            }
            continue;
        }
        let mut prefix = Vec::new();
        let mut open = true;
        window.clear();
        let mut append = |x: Terminal, prefix: &mut Vec<Terminal>, open: &mut bool, window: &mut Window| {
            if *open {
                if prefix.len() < max_len {
                    prefix.push(x);
                } else {
                    *open = false;
                }
            }
            window.push(x, costs[x.idx()], max_len);
            if window.len() >= min_len && window.cost_times(f) >= min_cost {
                let hot: Vec<Terminal> = window.symbols.iter().copied().collect();
                if *open {
                    prefix.truncate(prefix.len() - hot.len());
                    *open = false;
                }
                if found.insert(hot.clone()) {
                    candidates.push(hot);
                }
                window.clear();
            }
        };
        for &s in body {
            match s {
                Sym::T(x) => append(x, &mut prefix, &mut open, &mut window),
                Sym::N(RuleId(q)) => {
                    let child = done[q as usize].as_ref().expect("post-order: children are scanned first");
                    for &x in &child.prefix {
                        append(x, &mut prefix, &mut open, &mut window);
                    }
                    if !child.covers {
                        open = false;
                        window.clear();
                        for &x in &child.suffix {
                            window.push(x, costs[x.idx()], max_len);
                        }
                    }
                    refs[q as usize] -= 1;
                    if refs[q as usize] == 0 {
                        done[q as usize] = None;
                    }
                }
            }
        }
        done[r as usize] = Some(Scanned { prefix, covers: open, suffix: window.symbols.iter().copied().collect() });
    }
    candidates
}

/// The string being scanned: its last `max_len` symbols and their cost sum.
#[derive(Default)]
struct Window {
    symbols: VecDeque<Terminal>,
    costs: VecDeque<u64>,
    sum: u128,
}

impl Window {
    fn clear(&mut self) {
        self.symbols.clear();
        self.costs.clear();
        self.sum = 0;
    }

    fn len(&self) -> usize {
        self.symbols.len()
    }

    fn push(&mut self, x: Terminal, cost: u64, max_len: usize) {
        if self.symbols.len() == max_len {
            self.symbols.pop_front();
            self.sum -= self.costs.pop_front().unwrap_or(0) as u128;
        }
        self.symbols.push_back(x);
        self.costs.push_back(cost);
        self.sum += cost as u128;
    }

    fn cost_times(&self, f: u64) -> u64 {
        u64::try_from(self.sum * f as u128).unwrap_or(u64::MAX)
    }
}

/// The oracle: every minimal hot subpath of `seq`, by counting each of its substrings of
/// at most `max_len` symbols. Time and memory O(n · max_len).
pub fn hot_subpaths_brute(seq: &[u32], costs: &[u64], p: &HotParams) -> Vec<HotSubpath> {
    let max_len = p.max_len.max(1);
    let min_len = p.min_len.max(1);
    let mut counts: FxHashMap<&[u32], u64> = FxHashMap::default();
    for i in 0..seq.len() {
        for len in 1..=max_len.min(seq.len() - i) {
            *counts.entry(&seq[i..i + len]).or_insert(0) += 1;
        }
    }
    let hot = |s: &[u32]| s.len() >= min_len && cost_of(costs, s, counts[s]) >= p.min_cost;
    let mut out: Vec<HotSubpath> = counts
        .iter()
        .filter(|(s, _)| hot(s) && !(min_len..s.len()).any(|k| hot(&s[..k])))
        .map(|(s, &frequency)| HotSubpath { symbols: s.iter().map(|&x| Terminal(x)).collect(), frequency, cost: cost_of(costs, s, frequency) })
        .collect();
    sort(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn arb_input() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::vec((proptest::collection::vec(0u32..6, 1..8), 1usize..12), 1..10)
            .prop_map(|parts| parts.into_iter().flat_map(|(body, k)| std::iter::repeat_n(body, k).flatten()).collect())
    }

    proptest! {
        /// Skipping the rules that cannot report changes nothing: the scan finds the same
        /// candidates, in the same order, as when every rule is scanned.
        #[test]
        fn shortcut_finds_the_same_candidates(input in arb_input(), costs in proptest::collection::vec(1u64..5, 6), max_len in 1usize..12, min_len in 1usize..4, min_cost in 1u64..200) {
            let mut s = crate::Sequitur::with_lookahead();
            s.extend(input.iter().copied());
            let g = s.finish();
            let freq = g.rule_frequencies();
            let slow = larus_candidates(&g, &costs, &freq, max_len, min_len, min_cost, false);
            let fast = larus_candidates(&g, &costs, &freq, max_len, min_len, min_cost, true);
            prop_assert_eq!(fast, slow);
        }
    }
}
