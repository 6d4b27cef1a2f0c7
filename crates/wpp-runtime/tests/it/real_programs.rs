//! The real programs of `workloads/` (built by `workloads/build.sh`), each checked three
//! ways:
//!
//! * numbering: every function with at most 20,000 paths (most of them) has its paths enumerated from
//!   the CFG; their numbers must be exactly `0..N` and decode back;
//! * behaviour: instrumented runs (trace, count, hash-only count, block-log oracle) give
//!   the same stdout, stderr and exit status as the plain run, and the expected stdout;
//! * counts: trace-mode, array and hash counts, and the trace's order, equal the naive
//!   block-log oracle's, which splits the log of every basic block entered into paths
//!   using only the CFG (and checks that the numbering identifies each path); the same
//!   again with every function cut as far as it goes (most get cut points).
//!
//! The programs are the manifest's, run by one test on a pool of threads; see
//! `wpp_test_support::workloads` for how to run some of them and when they are skipped.

use sha2::{Digest, Sha256};
use wpp_runtime::{Outcome, RunConfig, Stdio};
use wpp_test_support::agree::check_all_ways;
use wpp_workloads::Manifest;

wpp_test_support::real_programs!(
    /// Every program of the manifest, checked by [`check`].
    all_programs,
    |m, _, p| check(m, &p.name)
);

fn check(manifest: &Manifest, name: &str) {
    let dir = manifest.dir.clone();
    let (p, run) = manifest.run(name, "test").unwrap();
    let wasm_path = dir.join(&p.wasm);
    let wasm = std::fs::read(&wasm_path).unwrap_or_else(|e| panic!("{}: {e}", wasm_path.display()));

    // Numbering oracle on every function small enough to enumerate.
    let program = wpp_wasm::decode(&wasm).unwrap();
    let mut checked = 0;
    for f in &program.functions {
        let Some(cfg) = &f.cfg else { continue };
        let num = wpp_paths::number(cfg, &wpp_paths::Options::default()).unwrap();
        match wpp_paths::enumerate::check_numbering(cfg, &num, 20_000) {
            Some(Ok(_)) => checked += 1,
            Some(Err(e)) => panic!("{name}: function {}: {e}", f.name),
            None => {}
        }
    }
    let n_defined = program.functions.len() - program.n_imported_funcs as usize;
    // Functions with more paths are skipped; most have few.
    assert!(checked * 2 >= n_defined, "{name}: only {checked} of {n_defined} functions enumerated");

    let stdin = run.stdin.as_ref().map(|s| std::fs::read(dir.join(s)).unwrap()).unwrap_or_default();
    let cfg = RunConfig {
        program_name: name.into(),
        args: run.args.clone(),
        dirs: run.dirs.iter().map(|d| (dir.join(d), d.clone())).collect(),
        stdio: Stdio::Capture { stdin },
        ..Default::default()
    };
    let agreed = check_all_ways(name, &wasm, &cfg, false, false).unwrap();
    assert_eq!(agreed.plain.outcome, Outcome::Exited(0), "{name}: {}", String::from_utf8_lossy(&agreed.plain.stderr));
    if let Some(want) = &run.stdout_sha256 {
        let got: String = Sha256::digest(&agreed.plain.stdout).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(&got, want, "{name}: unexpected output");
    }
    assert!(agreed.n_events > 10_000, "{name}: only {} path events", agreed.n_events);
    assert!(agreed.cut_functions > 0 && agreed.cut_events > agreed.n_events, "{name}: no cut point ran ({} functions with cut points)", agreed.cut_functions);
    eprintln!(
        "{name}: {checked}/{n_defined} functions enumerated; {} events, {} distinct paths agree; \
         cut as far as it goes, {} functions have cut points and {} events agree",
        agreed.n_events,
        agreed.counts.len(),
        agreed.cut_functions,
        agreed.cut_events
    );
}
