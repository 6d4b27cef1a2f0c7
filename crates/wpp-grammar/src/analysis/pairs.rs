//! Consecutive terminals: every pair of terminals adjacent in the expansion, with how often
//! it occurs, read off the rule boundaries of the DAG.

use crate::{Grammar, RuleId, Sym, Terminal};

impl Grammar {
    /// Every pair of consecutive terminals of the derived sequence with its count: each
    /// adjacent pair lies across exactly one boundary between two symbols of one rule body,
    /// counted as often as the rule occurs.
    pub fn consecutive_pairs(&self) -> rustc_hash::FxHashMap<(Terminal, Terminal), u64> {
        let mut pairs = rustc_hash::FxHashMap::default();
        let Ok(order) = self.topological_order() else { return pairs };
        let freq = self.rule_frequencies_in(&order);
        let n = self.rules.len();
        let (mut first, mut last) = (vec![u32::MAX; n], vec![u32::MAX; n]);
        for &RuleId(r) in order.iter().rev() {
            let body = &self.rules[r as usize];
            let ends = |s: Option<&Sym>, fst: bool| match s {
                Some(Sym::T(Terminal(t))) => *t,
                Some(Sym::N(RuleId(c))) => {
                    if fst {
                        first[*c as usize]
                    } else {
                        last[*c as usize]
                    }
                }
                None => u32::MAX,
            };
            let (f, l) = (ends(body.first(), true), ends(body.last(), false));
            first[r as usize] = f;
            last[r as usize] = l;
        }
        for (r, body) in self.rules.iter().enumerate() {
            if freq[r] == 0 {
                continue;
            }
            for w in body.windows(2) {
                let a = match w[0] {
                    Sym::T(Terminal(t)) => t,
                    Sym::N(RuleId(c)) => last[c as usize],
                };
                let b = match w[1] {
                    Sym::T(Terminal(t)) => t,
                    Sym::N(RuleId(c)) => first[c as usize],
                };
                if a != u32::MAX && b != u32::MAX {
                    *pairs.entry((Terminal(a), Terminal(b))).or_insert(0) += freq[r];
                }
            }
        }
        pairs
    }
}
