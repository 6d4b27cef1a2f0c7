//! Every fuzz target over every file of its checked-in corpus (`fuzz/corpus/<target>/`):
//! the seeds and what the fuzzers found, minimized. Plain `cargo test` runs it, so a bug
//! a fuzzer once found stays fixed. `instrument` runs every `WPP_FUZZ_INSTRUMENT_EVERY`-th
//! file of its corpus (default 1: all of them).
//!
//! `WPP_FUZZ_BLESS=1` writes the seeds ([`wpp_fuzz::seeds`]) into the corpus first.

use std::path::{Path, PathBuf};

use wpp_test_support::alloc::Counting;

#[global_allocator]
static ALLOC: Counting = Counting;

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(target)
}

#[test]
fn every_target_passes_its_corpus() {
    if std::env::var_os("WPP_FUZZ_BLESS").is_some() {
        for (target, name, bytes) in wpp_fuzz::seeds() {
            let dir = corpus_dir(target);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("seed-{name}")), bytes).unwrap();
        }
    }
    let every: usize = std::env::var("WPP_FUZZ_INSTRUMENT_EVERY").ok().map_or(1, |s| s.parse().expect("WPP_FUZZ_INSTRUMENT_EVERY"));
    for (target, run) in wpp_fuzz::TARGETS {
        let dir = corpus_dir(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
        files.sort();
        assert!(!files.is_empty(), "{} is empty", dir.display());
        let step = if target == "instrument" { every } else { 1 };
        let t0 = std::time::Instant::now();
        for f in files.iter().step_by(step) {
            let data = std::fs::read(f).unwrap();
            if let Err(e) = std::panic::catch_unwind(|| run(&data)) {
                let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
                panic!("{target} fails on {}: {msg}", f.display());
            }
        }
        eprintln!("{target}: {} files in {:.1?}", files.len().div_ceil(step), t0.elapsed());
    }
}

/// The seeds are what they say: each profile fixture reads, every seed passes its target.
#[test]
fn seeds_pass() {
    for (target, name, bytes) in wpp_fuzz::seeds() {
        let run = wpp_fuzz::TARGETS.iter().find(|t| t.0 == target).expect("a target").1;
        if target != "instrument" {
            run(&bytes);
        }
        assert!(!name.is_empty());
    }
    for fx in wpp_fuzz::profile::fixtures() {
        let dir = std::env::temp_dir().join(format!("wpp-fuzz-seeds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.wpp", fx.name));
        let file = wpp_fuzz::profile::assemble(fx.version, &fx.sections);
        std::fs::write(&path, &file).unwrap();
        wpp_fuzz::profile::examine(&path, file.len()).unwrap_or_else(|e| panic!("fixture {}: {e}", fx.name));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The instrument target's corpus is not vacuous: wasm-smith makes a module of most
/// files, and most modules get every check (instantiated, every export called).
#[test]
fn instrument_corpus_is_exercised() {
    use wpp_test_support::smith::Verdict;
    let dir = corpus_dir("instrument");
    let (mut files, mut modules, mut exercised) = (0, 0, 0);
    for f in std::fs::read_dir(&dir).unwrap() {
        files += 1;
        match wpp_fuzz::instrument_verdict(&std::fs::read(f.unwrap().path()).unwrap()) {
            Some(Verdict::Exercised) => (modules, exercised) = (modules + 1, exercised + 1),
            Some(_) => modules += 1,
            None => {}
        }
    }
    eprintln!("instrument: {files} files, {modules} modules, {exercised} exercised");
    assert!(modules * 4 >= files * 3 && exercised * 2 >= modules, "{files} files, {modules} modules, {exercised} exercised");
}
