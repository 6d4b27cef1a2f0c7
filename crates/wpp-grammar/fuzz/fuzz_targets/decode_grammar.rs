//! Any bytes decode to an error or to a valid grammar within the size bound, and a decoded
//! grammar encodes and decodes to itself.
//!
//! Run with `cargo +nightly fuzz run decode_grammar` from `crates/wpp-grammar`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wpp_grammar::{decode_grammar, encode_grammar, Grammar, RuleId, Sym, Terminal, MAX_SYMBOLS_PER_BYTE};

/// The declared number of terminals: the LEB128 number after the version byte.
fn declared_terminals(bytes: &[u8]) -> u64 {
    let mut v = 0u64;
    for (i, &b) in bytes[1..].iter().enumerate() {
        v |= ((b & 0x7f) as u64) << (7 * i);
        if b < 0x80 {
            break;
        }
    }
    v
}

/// Checks validity: references in range and never to rule 0, only rule 0 may be empty,
/// terminals below `n_terminals`, and no cycle (Kahn's algorithm visits every rule).
fn check_valid(g: &Grammar, n_terminals: u64) {
    let n = g.rules.len();
    let mut indegree = vec![0usize; n];
    for (r, body) in g.rules.iter().enumerate() {
        assert!(r == 0 || !body.is_empty(), "rule {r} is empty");
        for &s in body {
            match s {
                Sym::T(Terminal(t)) => assert!((t as u64) < n_terminals, "terminal {t} out of range"),
                Sym::N(RuleId(x)) => {
                    assert!(x != 0 && (x as usize) < n, "reference to rule {x}");
                    indegree[x as usize] += 1;
                }
            }
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&r| indegree[r] == 0).collect();
    let mut seen = 0;
    while let Some(r) = ready.pop() {
        seen += 1;
        for &s in &g.rules[r] {
            if let Sym::N(RuleId(x)) = s {
                indegree[x as usize] -= 1;
                if indegree[x as usize] == 0 {
                    ready.push(x as usize);
                }
            }
        }
    }
    assert_eq!(seen, n, "the grammar has a cycle");
}

fuzz_target!(|data: &[u8]| {
    let Ok(g) = decode_grammar(data) else { return };
    assert!(g.n_symbols() as u64 <= MAX_SYMBOLS_PER_BYTE * data.len() as u64);
    let n_terminals = declared_terminals(data);
    check_valid(&g, n_terminals);
    let again = encode_grammar(&g, n_terminals as u32);
    assert_eq!(decode_grammar(&again).as_ref(), Ok(&g));
});
