//! The run-length front end against expansion: tokens of any sequence, given to any
//! builder through stand-in terminals and resolved, derive exactly the sequence.

use proptest::prelude::*;
use wpp_grammar::{collapse_run_rules, encode_token, Grammar, RePairBlocks, RunLength, RunTerminals, Sequitur, Token, Tokens};

fn tokens(input: &[u32]) -> Vec<Token> {
    let mut rl = RunLength::default();
    let mut out: Vec<Token> = input.iter().filter_map(|&s| rl.push(s)).collect();
    out.extend(rl.finish());
    out
}

/// Builds through the front end with each builder and checks the expansion.
fn check(input: &[u32]) -> Result<(), TestCaseError> {
    let toks = tokens(input);
    prop_assert_eq!(toks.iter().map(|t| t.run).sum::<u64>(), input.len() as u64);
    prop_assert!(toks.windows(2).all(|w| w[0].symbol != w[1].symbol), "adjacent tokens of one symbol");
    let mut bytes = Vec::new();
    for &t in &toks {
        encode_token(&mut bytes, t);
    }
    let decoded: Vec<Token> = Tokens::new(&bytes).collect::<Result<_, _>>().map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&decoded, &toks);
    let n_symbols = input.iter().max().map_or(0, |&m| m + 1);
    for name in ["sequitur", "sequitur1", "repair"] {
        let mut rt = RunTerminals::new();
        let terminals: Vec<u32> = decoded.iter().map(|&t| rt.terminal(t).expect("few symbols")).collect();
        let g = rt.resolve(build(name, terminals));
        let out: Vec<u32> = g.expand().collect();
        prop_assert_eq!(&out, &input.to_vec(), "{}", name);
        prop_assert!(g.rules.len() <= 1 || encode_is_canonical(&g), "{}: rules not numbered by first use", name);
        // Behind the front end, the builder's own properties hold over the tokens.
        let (c, meaning) = collapse_run_rules(&g).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let tokens_back: Vec<Token> = c.expand().map(|t| meaning[t as usize]).collect();
        prop_assert_eq!(&tokens_back, &toks, "{}", name);
        if name != "repair" {
            c.check_sequitur_properties().map_err(|e| TestCaseError::fail(format!("{name} over tokens: {e}")))?;
        }
        g.validate(Some(n_symbols)).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    }
    Ok(())
}

/// The grammar of `input` built by the builder `name`.
fn build(name: &str, input: Vec<u32>) -> Grammar {
    match name {
        "sequitur" | "sequitur1" => {
            let mut s = if name == "sequitur" { Sequitur::new() } else { Sequitur::with_lookahead() };
            s.extend(input);
            s.finish()
        }
        _ => {
            let mut r = RePairBlocks::new(7);
            r.extend(input);
            r.finish()
        }
    }
}

/// Sequences made of runs: `(symbol, length)` pairs, lengths up to `max_run`.
fn runs(alphabet: u32, max_run: usize) -> impl Strategy<Value = Vec<u32>> {
    proptest::collection::vec((0..alphabet, 1..=max_run), 0..60).prop_map(|v| v.into_iter().flat_map(|(s, k)| std::iter::repeat_n(s, k)).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn short_runs(input in runs(4, 5)) {
        check(&input)?;
    }

    #[test]
    fn long_runs(input in runs(3, 300)) {
        check(&input)?;
    }

    #[test]
    fn no_runs_to_speak_of(input in proptest::collection::vec(0u32..1000, 0..300)) {
        check(&input)?;
    }
}

/// Whether the rules are numbered breadth-first by first use from rule 0.
fn encode_is_canonical(g: &Grammar) -> bool {
    let mut renumbered = g.clone();
    renumbered.renumber_by_first_use();
    renumbered == *g
}
