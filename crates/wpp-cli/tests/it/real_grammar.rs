//! Whole program paths of the real programs of `workloads/` (built by
//! `workloads/build.sh`): for each test run, the grammar profile expands to exactly the
//! event sequence a trace-mode recording of the same run holds. Every program is recorded
//! with the default builder and one more (SEQUITUR with rule prediction or Re-Pair,
//! alternating), and each grammar must satisfy its builder's invariants: SEQUITUR's two
//! properties, or Re-Pair's (no pair occurs twice, counted without overlap, and every rule
//! is used twice). The default builder also builds in small segments, merged, on one
//! thread and on three: the same grammar, expanding to the trace. On the default builder's
//! grammar, `wpp hot` reports every minimal hot subpath of the expanded trace, with the
//! frequency and cost a scan gives.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use wpp_grammar::{Grammar, Sym};
use wpp_profile::Profile;
use wpp_profile::REPAIR_BLOCK;
use wpp_workloads::Manifest;

use crate::common;

/// A reported subpath: its paths (function, path id), frequency and cost.
type Subpath = (Vec<(u32, u64)>, u64, u64);

wpp_test_support::real_programs!(
    /// Every program of the manifest; the second builder alternates between SEQUITUR with
    /// rule prediction and Re-Pair in manifest order.
    all_programs,
    |m, i, p| check(m, &p.name, if i % 2 == 0 { "sequitur+p" } else { "repair" })
);

/// Records the test run in trace mode, then as grammars: with SEQUITUR(1) (spool in
/// memory) and with `second` (spool on disk); each must expand to the trace.
fn check(m: &Manifest, name: &str, second: &str) {
    let (p, run) = m.run(name, "test").unwrap();
    let d = std::env::temp_dir().join(format!("wpp-real-grammar-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let trace = d.join("trace.wpp");
    common::record_run(m, p, run, &trace, &["--mode", "trace"]);
    let expected = common::fingerprint(&trace);
    assert!(expected.0 > 10_000, "{name}: only {} events", expected.0);
    for builder in ["sequitur1", second] {
        let g = d.join(format!("{builder}.wpp"));
        let mut args = vec!["--grammar", builder.trim_end_matches("+p")];
        if builder.ends_with("+p") {
            args.push("--predict");
        }
        if builder != "sequitur1" {
            // Every spool block goes to the temporary file.
            args.extend(["--spool-memory", "0"]);
        }
        common::record_run(m, p, run, &g, &args);
        let left: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).filter(|n| !n.to_string_lossy().ends_with(".wpp")).collect();
        assert!(left.is_empty(), "{name}/{builder}: left beside the profile: {left:?}");
        assert_eq!(common::fingerprint(&g), expected, "{name}/{builder}: the grammar does not expand to the trace");
        let profile = Profile::open(&g).unwrap();
        let grammar = profile.grammar().unwrap();
        // Recording builds behind the run-length front end: the builder's properties hold
        // over its tokens.
        let (tokens, _) = wpp_grammar::collapse_run_rules(&grammar).unwrap();
        if builder == "repair" {
            check_repair(&tokens, expected.0).unwrap_or_else(|e| panic!("{name}/{builder}: {e}"));
        } else if builder == "sequitur1" {
            // Behind the phrase front end digrams may repeat across phrases; every rule is
            // still used twice.
            check_rule_utility(&tokens).unwrap_or_else(|e| panic!("{name}/{builder}: {e}"));
        } else {
            tokens.check_sequitur_properties().unwrap_or_else(|e| panic!("{name}/{builder}: {e}"));
        }
        eprintln!("{name}/{builder}: {} events, {} rules, {} grammar symbols", expected.0, grammar.rules.len(), grammar.n_symbols());
        if builder == "sequitur1" {
            check_hot(name, &g);
        }
    }
    // Small segments, so that many are built apart and merged: on one builder thread and
    // on three, the same grammar, expanding to the trace.
    let mut merged = Vec::new();
    for threads in ["1", "3"] {
        let g = d.join(format!("segments-{threads}.wpp"));
        common::record_run(m, p, run, &g, &["--segment-tokens", "4096", "--build-threads", threads]);
        assert_eq!(common::fingerprint(&g), expected, "{name}/segments on {threads} threads: the grammar does not expand to the trace");
        let grammar = Profile::open(&g).unwrap().grammar().unwrap();
        let (tokens, _) = wpp_grammar::collapse_run_rules(&grammar).unwrap();
        check_rule_utility(&tokens).unwrap_or_else(|e| panic!("{name}/segments: {e}"));
        merged.push(grammar);
    }
    assert!(merged[0] == merged[1], "{name}: segments on 1 and 3 threads give other grammars");
    eprintln!("{name}/segments of 4096 tokens: {} rules, {} grammar symbols", merged[0].rules.len(), merged[0].n_symbols());
    std::fs::remove_dir_all(&d).unwrap();
}

/// Every rule but the start rule is used at least twice.
fn check_rule_utility(g: &Grammar) -> Result<(), String> {
    let mut uses = vec![0u32; g.rules.len()];
    for s in g.rules.iter().flatten() {
        if let Sym::N(r) = *s {
            uses[r.idx()] += 1;
        }
    }
    match uses.iter().enumerate().skip(1).find(|&(_, &u)| u < 2) {
        Some((r, u)) => Err(format!("rule {r} is used {u} times")),
        None => Ok(()),
    }
}

/// Re-Pair's invariants on the grammar of a trace of `n_events`. A trace within one block
/// of the recorder's Re-Pair is Re-Paired whole: no pair occurs twice, counted without
/// overlap (`⌊L/2⌋` per run `x^L`), in the start rule and the rule bodies together, and
/// every rule but the start rule is used at least twice, which is what
/// `check_sequitur_properties` checks (its overlapping occurrences inside a run are the
/// ones a count without overlap leaves out). A longer trace is Re-Paired block by block;
/// then only the start rule is free of repeated pairs.
fn check_repair(g: &Grammar, n_events: u64) -> Result<(), String> {
    if n_events <= REPAIR_BLOCK as u64 {
        return g.check_sequitur_properties();
    }
    let start = &g.rules[0];
    let mut counts: HashMap<(Sym, Sym), u64> = HashMap::new();
    let mut i = 0;
    while i + 1 < start.len() {
        let run = start[i..].iter().take_while(|&&s| s == start[i]).count();
        let (pair, step, n) = if run >= 2 { ((start[i], start[i]), run - 1, run as u64 / 2) } else { ((start[i], start[i + 1]), 1, 1) };
        *counts.entry(pair).or_default() += n;
        i += step;
    }
    match counts.into_iter().find(|&(_, n)| n >= 2) {
        Some((pair, n)) => Err(format!("the pair {pair:?} occurs {n} times in the start rule of a grammar Re-Paired in blocks")),
        None => Ok(()),
    }
}

/// `wpp hot` (cost 1 per path, 2 to 10 paths, cost at least 1/50 of the events) against
/// a scan of the expanded trace: the same minimal hot subpaths, frequencies and costs.
fn check_hot(name: &str, profile: &Path) {
    let p = Profile::open(profile).unwrap();
    let mut events: Vec<(u32, u64)> = Vec::new();
    p.for_each_event(|e| events.push((e.func.0, e.path.0))).unwrap();
    let (max_len, min_len, min_cost) = (10usize, 2usize, events.len() as u64 / 50);
    let out = Command::new(env!("CARGO_BIN_EXE_wpp"))
        .arg("hot")
        .arg(profile)
        .args(["--json", "--top", "0", "--cost", "paths", "--max-len", "10", "--min-len", "2", "--min-cost", &min_cost.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reported: Vec<Subpath> = v["subpaths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let seq = s["paths"].as_array().unwrap().iter().map(|p| (p["function_index"].as_u64().unwrap() as u32, p["path_id"].as_u64().unwrap())).collect();
            (seq, s["frequency"].as_u64().unwrap(), s["cost"].as_u64().unwrap())
        })
        .collect();
    assert!(!reported.is_empty(), "{name}: no hot subpath");
    // Every minimal hot subpath, by a scan of the trace level by level: the windows of
    // k paths are counted wherever their first k - 1 paths can still begin a hot subpath
    // (occur at least min_cost / max_len times: a window of at most max_len paths of cost
    // 1 costs at most its frequency × max_len).
    let can_be_hot = |n: u64| n * max_len as u64 >= min_cost;
    let mut all: Vec<Subpath> = Vec::new();
    let mut live: HashMap<&[(u32, u64)], u64> = HashMap::new();
    for k in 1..=max_len.min(events.len()) {
        let mut counts: HashMap<&[(u32, u64)], u64> = HashMap::new();
        for w in events.windows(k) {
            if k == 1 || live.contains_key(&w[..k - 1]) {
                *counts.entry(w).or_insert(0) += 1;
            }
        }
        for (w, &n) in &counts {
            let hot = |seq: &[(u32, u64)]| seq.len() >= min_len && counts_of(&live, &counts, seq) * seq.len() as u64 >= min_cost;
            if hot(w) && !(min_len..k).any(|j| hot(&w[..j])) {
                all.push((w.to_vec(), n, n * k as u64));
            }
        }
        counts.retain(|_, n| can_be_hot(*n));
        live.extend(counts);
    }
    let mut want = all;
    let mut got = reported.clone();
    want.sort();
    got.sort();
    assert_eq!(got.len(), want.len(), "{name}: {} minimal hot subpaths reported of {}", got.len(), want.len());
    assert_eq!(got, want, "{name}");
    eprintln!("{name}: {} hot subpaths checked", reported.len());
}

/// The frequency of `seq`, from the windows of its length being counted (`counts`) or of
/// a shorter length (`live`; a prefix that is not there cannot be hot).
fn counts_of(live: &HashMap<&[(u32, u64)], u64>, counts: &HashMap<&[(u32, u64)], u64>, seq: &[(u32, u64)]) -> u64 {
    counts.get(seq).or_else(|| live.get(seq)).copied().unwrap_or(0)
}
