//! Generators shared by the grammar tests.

use proptest::prelude::*;
use wpp_grammar::{Grammar, Sym};

/// A random valid grammar: rule i refers only to rules above i, so it is acyclic.
pub fn arb_grammar() -> impl Strategy<Value = Grammar> {
    (2usize..8, 1u32..6).prop_flat_map(|(n_rules, n_terms)| {
        proptest::collection::vec(proptest::collection::vec((0u32..100, 0u32..100), 1..6), n_rules).prop_map(move |raw| {
            let n = raw.len() as u32;
            let rules = raw
                .iter()
                .enumerate()
                .map(|(i, body)| {
                    body.iter()
                        .map(|&(kind, v)| {
                            let i = i as u32;
                            if kind < 40 && i + 1 < n {
                                Sym::N(i + 1 + v % (n - i - 1))
                            } else {
                                Sym::T(v % n_terms)
                            }
                        })
                        .collect()
                })
                .collect();
            Grammar { rules }
        })
    })
}
