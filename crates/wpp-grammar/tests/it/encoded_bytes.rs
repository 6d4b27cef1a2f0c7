//! The exact bytes of the grammar encoding, in both format versions, pinned: profiles on
//! disk hold these bytes, so a change to the coders that changes one of them breaks the
//! files already written. Small grammars are pinned byte for byte, larger ones by the
//! SHA-256 of their encoding. The grammars are made here from a fixed generator, not by a
//! builder, so that only the coders decide these bytes.
//!
//! The grammars cover: no rules, an empty start rule, a canonical and an explicit
//! numbering, rules nothing reaches, terminals introduced in order and out of order,
//! terminals up to 2^32 - 2, and streams long enough for several rANS blocks.

use sha2::{Digest, Sha256};
use wpp_grammar::{decode_grammar, encode_grammar, encode_grammar_v1, Grammar, RuleId, Sym, Terminal};

fn t(x: u32) -> Sym {
    Sym::T(Terminal(x))
}

fn n(x: u32) -> Sym {
    Sym::N(RuleId(x))
}

/// xorshift64*: a fixed sequence, whatever other generators in the workspace become.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A grammar of `n_rules` rules over `n_terminals` terminals shaped like a path trace's:
/// rule `r > 0` holds 2 to 5 symbols, each a reference to a later rule or a terminal, the
/// terminals skewed towards small numbers and often following the same terminal; rule 0
/// holds `start_len` references and terminals. Rule `r` refers only to rules after it, so
/// the grammar is acyclic; its numbering is not the canonical one.
fn trace_like(seed: u64, n_rules: u32, n_terminals: u32, start_len: usize) -> Grammar {
    let mut g = Gen(seed);
    let mut rules = Vec::with_capacity(n_rules as usize);
    let mut last = 0u32;
    for r in 0..n_rules {
        let len = if r == 0 { start_len } else { 2 + g.below(4) as usize };
        let mut body = Vec::with_capacity(len);
        for _ in 0..len {
            let later = n_rules - 1 - r;
            if later > 0 && g.below(3) == 0 {
                // Nearby rules more often than far ones.
                let d = 1 + (g.below(later as u64) * g.below(later as u64) / later as u64) as u32;
                body.push(n(r + d.min(later)));
            } else {
                let x = match g.below(4) {
                    // The terminal after the last one, as in a loop.
                    0 | 1 => (last + 1) % n_terminals,
                    // Small terminals more often than large ones.
                    _ => (g.below(n_terminals as u64) * g.below(n_terminals as u64) / n_terminals as u64) as u32,
                };
                last = x;
                body.push(t(x));
            }
        }
        rules.push(body);
    }
    Grammar::from(rules)
}

/// The grammars pinned by hash, each with the number of terminals it is over.
fn hashed_grammars() -> Vec<(&'static str, Grammar, u32)> {
    let explicit = trace_like(1, 300, 40, 500);
    let mut canonical = explicit.clone();
    canonical.renumber_by_first_use();
    let sparse = Grammar::from(
        trace_like(2, 60, 30, 120)
            .rules
            .iter()
            .map(|body| {
                body.iter().map(|&s| match s {
                    Sym::T(Terminal(x)) => t(u32::MAX - 1 - x.wrapping_mul(0x9e37_79b9) % 1_000_000),
                    s => s,
                })
            })
            .collect::<wpp_grammar::Rules>(),
    );
    let large = trace_like(3, 40_000, 3_000, 100_000);
    let mut large_canonical = large.clone();
    large_canonical.renumber_by_first_use();
    vec![
        ("explicit numbering", explicit, 40),
        ("canonical numbering", canonical, 40),
        ("sparse large terminals", sparse, u32::MAX),
        ("several rANS blocks, explicit", large, 3_000),
        ("several rANS blocks, canonical", large_canonical, 3_000),
    ]
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Each grammar's encodings decode back to it: the pins are of real encodings.
fn check_round_trip(g: &Grammar, v1: &[u8], v2: &[u8]) {
    assert_eq!(&decode_grammar(v1).unwrap(), g);
    assert_eq!(&decode_grammar(v2).unwrap(), g);
}

#[test]
fn small_grammars_encode_to_these_bytes() {
    let cases: [(&str, Grammar, u32, &str, &str); 4] = [
        ("no rules", Grammar::default(), 0, "01000000", "02000000"),
        ("an empty start rule", Grammar::from(vec![vec![]]), 5, "0105010000007ffff800", "0205010000188301000000000002000000000000000000000000000000000000008000000000"),
        (
            "rules nothing reaches",
            Grammar::from(vec![vec![n(1), t(2), n(1), t(0)], vec![t(1), n(2)], vec![t(0), t(3)], vec![t(3), t(2), t(1)]]),
            4,
            "0104040b00003ffff8001400000000000000002e8b6000016344a3b53ae900",
            "0204040b005009063d01800d000083824181068e00000000160360300000003802000000780c401100000080050a06000080e20000000060000000004500000000832200000080c58105289814060b00000000e6ad800000008000000000",
        ),
        (
            "huge terminals",
            Grammar::from(vec![vec![t(u32::MAX - 1), n(1), t(0), n(1), t(1 << 31)], vec![t(12345), t(u32::MAX - 1)]]),
            u32::MAX,
            "01ffffffff0f020700001ffff7ffcbff006c6e7cd455750064e6c1930073bcbd00",
            "02ffffffff0f02070060090c0af706c00600061401c00000c00200000070000000e0b0180045000000000314010000000c00000045000000000314010000000c0000008a0000000006458301000000b0000a268301000000a0fffeffda373930d04100007d24000000000000008000000000",
        ),
    ];
    let mut wrong = Vec::new();
    for (name, g, n_terminals, want_v1, want_v2) in cases {
        let (v1, v2) = (encode_grammar_v1(&g, n_terminals), encode_grammar(&g, n_terminals));
        check_round_trip(&g, &v1, &v2);
        if hex(&v1) != want_v1 || hex(&v2) != want_v2 {
            wrong.push(format!("{name}: version 1 {}, version 2 {}", hex(&v1), hex(&v2)));
        }
    }
    assert!(wrong.is_empty(), "encodings changed:\n{}", wrong.join("\n"));
}

#[test]
fn larger_grammars_encode_to_these_hashes() {
    let want: [(&str, &str); 5] = [
        ("9db2358d3cf2de16a00b0e925ad97853766832dda1e1949530f08cd5b60c648f", "abe5b398e99fdab1a10cf09548f737b0a1fd751bf718f35f5031ce13c6e0886d"),
        ("165b0b9d194df2ae803d9a0542b9a474c4d7ccee92e10a39abde83f0ee2ef537", "cd11507380e5d7b2487f0d5566930e835ecd3a7d6fad8fbc113d5de8c1c80313"),
        ("5a28c5f0bf6d97ed8b64fa26094e3819a678a7b032976e03f8abb1a91f3377eb", "dbb689c4b6e04080890d9d4aaba829eb5f9535191342cd909b37edcb6e12b1a1"),
        ("e571e6e71daad14b800ab40c89e19c15af1a6246087ed33af4503e7cdcd8b921", "9940b978d71d13d9cb05dc07ab76f2b0043ce8829c4b910d8c7bae8530aeb4d3"),
        ("13b116a27280d26dd95652e501afa7c9c453c57eb9f0c51d4bd35424081913cf", "2f5b0847837261487cc3afde848895df774197bc926f501fb05da212f863c236"),
    ];
    let mut wrong = Vec::new();
    for ((name, g, n_terminals), (want_v1, want_v2)) in hashed_grammars().into_iter().zip(want) {
        g.validate(Some(n_terminals)).unwrap();
        let (v1, v2) = (encode_grammar_v1(&g, n_terminals), encode_grammar(&g, n_terminals));
        check_round_trip(&g, &v1, &v2);
        let (h1, h2) = (sha256_hex(&v1), sha256_hex(&v2));
        if h1 != want_v1 || h2 != want_v2 {
            wrong.push(format!("{name} ({} and {} bytes): (\"{h1}\", \"{h2}\")", v1.len(), v2.len()));
        }
    }
    assert!(wrong.is_empty(), "encodings changed:\n{}", wrong.join("\n"));
}
