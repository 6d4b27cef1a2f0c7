//! Property tests on random modules from `wasm-smith`: instrumentation must not change
//! what a module does, and the paths it records must be consistent.
//!
//! Every module is generated deterministically from a seed (a xorshift PRNG fills the
//! bytes `wasm-smith` reads) and made to terminate with `ensure_termination`: its fuel
//! counter is part of the module, so every version of the module runs out of fuel at the
//! same point. The harness exports that counter and refills it before each call, so one
//! export that loops until the fuel is gone does not starve the others. Each module runs
//! ten ways in a small wasmtime harness of its own (the modules are not WASI commands;
//! the harness and the check are `wpp_test_support::smith`'s, which the `instrument` fuzz target
//! runs on modules from the fuzzer's bytes):
//! as it is; instrumented in trace mode (with a tiny event buffer, so that it flushes
//! often); in count mode with per-function counter arrays; in count mode with a tiny hash
//! table only (so that it flushes too); with preferential path profiling; in trace and
//! count modes with a small `max_paths`, so that many functions get cut points; with
//! memory accesses in the events (the addresses and filtering runs' rewrite) and as the
//! extended WPP's collection run (a shadow of memory, checks before each load), whose
//! behaviour only is compared; and rewritten by the naive block-log oracle, whose log of every block entered is split into
//! paths under each numbering using only the CFG. Every recording must equal the oracle's
//! paths of its numbering: counts, and for trace mode the order of events.
//!
//! Environment knobs for investigating a failure:
//! * `WPP_SMITH_SEED=N` runs only seed `N` (and prints its module);
//! * `WPP_SMITH_SEEDS=N` runs seeds `0..N` instead of the default number.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Instant;

use wpp_test_support::smith::{smith_config, Harness, Stats, Verdict, CUT_MAX_PATHS};
use wpp_test_support::Rng;

/// Seeds run by default: enough for variety, few enough for well under a minute.
const DEFAULT_SEEDS: u64 = 500;

/// The module of `seed`, or why there is none: wasm-smith reads bytes from a PRNG seeded
/// with `seed`, its configuration's knobs come from one seeded with `!seed`.
fn generate(seed: u64) -> Result<Vec<u8>, String> {
    let mut rng = Rng::new(seed);
    let len = 1024 + (rng.next() % (15 * 1024 + 1)) as usize;
    let data = rng.bytes(len);
    wpp_test_support::smith::module(smith_config(seed, &mut Rng::new(!seed)), &data)
}

/// The module as text, for a failure report.
fn print_module(wasm: &[u8]) -> String {
    let mut out = String::new();
    match wasmprinter::print_bytes(wasm) {
        Ok(s) => out.push_str(&s),
        Err(e) => {
            let _ = write!(out, "(cannot print: {e})");
        }
    }
    out
}

/// For a few hundred random modules (every feature wpp handles, no imports, everything
/// exported, made to terminate): the original module and its rewrites (trace mode, count
/// mode with arrays, count mode with the hash table, preferential path profiling of a few
/// paths per function, and trace and count modes with cut points) instantiate alike (or their start functions trap alike); every
/// exported function, called in export order with default arguments, returns
/// bit-identical results or traps with the same code in all of them; afterwards every
/// exported global, memory and table is the same (the block-log oracle's rewrite included).
/// Every path recorded in any mode is one of its function's numbered paths, and the
/// per-path counts of every mode equal the oracle's split of the block log under the same
/// numbering, in trace mode with the same order of events.
/// At least 60% of the seeds must be exercised that way.
#[test]
fn instrumentation_preserves_behaviour_of_random_modules() {
    let t0 = Instant::now();
    let only: Option<u64> = std::env::var("WPP_SMITH_SEED").ok().map(|s| s.parse().expect("WPP_SMITH_SEED"));
    let n_seeds: u64 = std::env::var("WPP_SMITH_SEEDS").ok().map(|s| s.parse().expect("WPP_SMITH_SEEDS")).unwrap_or(DEFAULT_SEEDS);
    let seeds: Vec<u64> = match only {
        Some(s) => vec![s],
        None => (0..n_seeds).collect(),
    };
    let harness = Harness::new();

    let (mut exercised, mut start_trapped, mut overflowed) = (0u64, 0u64, 0u64);
    let mut stats = Stats::default();
    let mut skipped: HashMap<String, u64> = HashMap::new();
    let mut failures = Vec::new();
    for &seed in &seeds {
        let wasm = match generate(seed) {
            Ok(w) => w,
            Err(why) => {
                *skipped.entry(why).or_default() += 1;
                continue;
            }
        };
        if only.is_some() {
            println!("{}", print_module(&wasm));
        }
        match harness.check(&wasm, &mut stats) {
            Ok(Verdict::Exercised) => exercised += 1,
            Ok(Verdict::StartTrapped) => start_trapped += 1,
            Ok(Verdict::StackOverflow) => overflowed += 1,
            Ok(Verdict::Skipped(why)) => {
                let why = why.split(" (").next().unwrap_or(&why).to_string();
                *skipped.entry(why).or_default() += 1;
            }
            Err(msg) => {
                let path = std::env::temp_dir().join(format!("wpp-smith-{seed}.wasm"));
                let _ = std::fs::write(&path, &wasm);
                let _ = std::fs::write(path.with_extension("wat"), print_module(&wasm));
                eprintln!("seed {seed}: {msg}\n  (module written to {} and .wat)", path.display());
                failures.push((seed, msg));
            }
        }
    }
    let total = seeds.len() as u64;
    let Stats {
        calls,
        returned,
        traps,
        functions,
        max_paths,
        wide_functions,
        hashed_functions,
        cut_functions,
        cut_dropped,
        events,
        distinct_paths,
        event_flushes,
        hash_flushes,
        accesses_compared,
        accesses_refused,
        catch_edges,
        throw_edges,
    } = &stats;
    println!(
        "{total} seeds in {:.1?}: {exercised} exercised, {start_trapped} with a trapping start function, \
         {overflowed} stopped at a stack overflow, {} failed, skipped: {skipped:?}\n\
         {functions} functions (at most {max_paths} paths, {wide_functions} with more than 2^32, \
         {hashed_functions} counted in the hash table, {cut_functions} with cut points at max_paths {CUT_MAX_PATHS}, \
         {cut_dropped} modules too large for it); {calls} calls: {returned} returned, traps {traps:?}\n\
         {events} path events ({distinct_paths} distinct paths), {event_flushes} event buffer flushes, \
         {hash_flushes} hash table flushes; with memory accesses or the extended WPP's checks, \
         {accesses_compared} versions compared, {accesses_refused} refused (64-bit memories); \
         exception handling: {catch_edges} catch edges, {throw_edges} throw edges",
        t0.elapsed(),
        failures.len()
    );
    if !failures.is_empty() {
        let mut report = String::new();
        for (seed, msg) in &failures {
            let _ = writeln!(report, "seed {seed}: {msg}");
        }
        panic!("{} of {total} seeds failed (rerun one with WPP_SMITH_SEED=N):\n{report}", failures.len());
    }
    assert!(*accesses_compared >= exercised, "only {accesses_compared} versions with memory accesses or checks compared");
    // Every other seed enables exceptions: some of those modules catch and throw.
    assert!(total < 20 || (*catch_edges > 0 && *throw_edges > 0), "no module caught or threw ({catch_edges} catch edges, {throw_edges} throw edges)");
    assert!(
        exercised * 100 >= total * 60,
        "only {exercised} of {total} modules were exercised (start trapped: {start_trapped}, \
         stack overflows: {overflowed}, skipped: {skipped:?})"
    );
}

/// The random modules rarely have a function with more than 2³² paths, so one is built
/// here and run through the same checks: 34 diamonds in a row (2³⁴ paths, so trace mode
/// writes two-word events, or three-word ones with 4-byte events, and count mode counts
/// in the hash table), called from a loop
/// with varied arguments.
#[test]
fn wide_path_numbers_pass_the_same_checks() {
    let mut diamonds = String::new();
    for k in 0..34 {
        diamonds.push_str(&format!(
            "local.get 0 i64.const {k} i64.shr_u i64.const 1 i64.and i32.wrap_i64
             if global.get 0 i64.const {k} i64.add global.set 0
             else global.get 0 i64.const 3 i64.mul global.set 0 end\n"
        ));
    }
    let wat = format!(
        r#"(module
             (global (export "acc") (mut i64) (i64.const 0))
             (memory (export "mem") 1)
             (func $diamonds (param i64) {diamonds})
             (func (export "run") (result i64) (local i64)
               loop
                 local.get 0 i64.const 0x9E3779B97F4A7C15 i64.mul call $diamonds
                 local.get 0 i64.const 1 i64.add local.tee 0
                 i64.const 300 i64.lt_u br_if 0
               end
               i32.const 8 global.get 0 i64.store
               global.get 0))"#
    );
    let wasm = wat::parse_str(&wat).unwrap();
    let mut stats = Stats::default();
    match Harness::new().check(&wasm, &mut stats) {
        Ok(Verdict::Exercised) => {}
        Ok(_) => panic!("not exercised"),
        Err(e) => panic!("{e}"),
    }
    assert_eq!(stats.wide_functions, 1);
    assert_eq!(stats.calls, 1);
    assert_eq!(stats.returned, 1);
    // One path per call of $diamonds and per loop iteration, and the last ones.
    assert!(stats.events >= 600, "{} events", stats.events);
    assert!(stats.distinct_paths >= 300, "{} distinct paths", stats.distinct_paths);
}
