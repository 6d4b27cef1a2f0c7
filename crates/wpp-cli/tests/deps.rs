//! Memory dependences end to end: recordings in addresses, filtering and extended WPP
//! mode, and the dependences recovered from each profile (`wpp_report::deps`), against
//! the direct log of a shadow memory kept by the host on the access-log oracle rewrite
//! (`wpp_test_support::deps`); the addresses profile's whole program path against a
//! grammar-mode recording's. On the `.wat` programs and every real program's test run.

use std::path::Path;

use wpp_profile::Profile;
use wpp_record::{Builder, RecordMode, Recorder};
use wpp_runtime::{run_block_log, RunConfig};
use wpp_test_support::deps::{compare_with_direct, import_names, DirectDeps};
use wpp_test_support::{corpus, workloads};

mod common;

/// Checks the three profiles in `dir` (`grammar.wpp`, `addresses.wpp`, `filter.wpp`,
/// recorded from `wasm` run as `cfg` says) against the direct log.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig, dir: &Path) {
    let program = wpp_wasm::decode(wasm).unwrap();
    let logged = wpp_wasm::instrument_access_log(wasm, &program).unwrap();
    let (_, direct) = run_block_log(&wpp_runtime::engine().unwrap(), &logged, cfg, DirectDeps::default()).unwrap();
    let imports = import_names(wasm);

    assert_eq!(common::fingerprint(&dir.join("addresses.wpp")), common::fingerprint(&dir.join("grammar.wpp")), "{name}: the addresses profile's path trace");
    let addresses = Profile::open(&dir.join("addresses.wpp")).unwrap();
    let recovered = wpp_report::deps::from_addresses(&addresses, |_| {}).unwrap();
    if let Err(e) = compare_with_direct(&recovered.deps, &recovered.sites, &imports, &direct) {
        panic!("{name}: recovered from the address trace: {e}");
    }
    let filter = Profile::open(&dir.join("filter.wpp")).unwrap();
    let exercised = wpp_report::deps::exercised(&filter).unwrap().expect("a filtering run's dependences");
    assert_eq!(exercised, recovered.deps, "{name}: the filtering run against the recovery");
    assert_eq!(filter.counts, addresses.counts, "{name}: the filtering run's path counts");
    let ewpp = Profile::open(&dir.join("ewpp.wpp")).unwrap();
    let (from_ewpp, checks) = wpp_report::deps::from_ewpp(&ewpp, |_| {}).unwrap();
    if let Err(e) = compare_with_direct(&from_ewpp.deps, &from_ewpp.sites, &imports, &direct) {
        panic!("{name}: recovered from the extended WPP: {e}");
    }
    // The filtering run saw this very run: nothing is unforeseen.
    assert_eq!(checks.unforeseen, 0, "{name}: {checks:?}");
    // The module's paths in the extended WPP are the whole program path's.
    let module_paths = |p: &Profile| -> Vec<_> { p.counts.iter().filter(|c| (c.func.idx()) < addresses.meta.functions.len()).cloned().collect() };
    assert_eq!(module_paths(&ewpp), addresses.counts, "{name}: the extended WPP's path counts");
}

/// Records `wasm` run as `cfg` says in grammar, addresses and filtering mode into `dir`.
/// In-process, with the direct log's run configuration: a program reading an inherited
/// stdin may see its input in other chunks than from a captured one.
fn record(wasm: &[u8], cfg: &RunConfig, dir: &Path) {
    let mut statuses = Vec::new();
    for (file, mode) in [
        ("grammar.wpp", RecordMode::Grammar(Builder::Sequitur1)),
        ("addresses.wpp", RecordMode::Addresses(Builder::Sequitur1)),
        ("filter.wpp", RecordMode::EwppFilter),
    ] {
        let r = Recorder::from_bytes(&cfg.program_name, wasm.to_vec()).unwrap().mode(mode).run_config(cfg.clone()).record(&dir.join(file)).unwrap();
        statuses.push(r.exit_status());
    }
    let r = Recorder::from_bytes(&cfg.program_name, wasm.to_vec())
        .unwrap()
        .mode(RecordMode::Ewpp(Builder::Sequitur1))
        .filter(&dir.join("filter.wpp"))
        .unwrap()
        .run_config(cfg.clone())
        .record(&dir.join("ewpp.wpp"))
        .unwrap();
    statuses.push(r.exit_status());
    assert!(statuses.iter().all(|&s| s == statuses[0]), "{}: exit statuses {statuses:?}", cfg.program_name);
}

#[test]
fn wat_programs() {
    let dir = common::scratch("deps-wat");
    for name in corpus::names() {
        let wasm = corpus::bytes(&name);
        let cfg = RunConfig {
            program_name: name.clone(),
            args: vec!["one".into(), "two three".into()],
            stdio: wpp_runtime::Stdio::Capture { stdin: b"some input\n".to_vec() },
            ..Default::default()
        };
        record(&wasm, &cfg, &dir);
        check(&name, &wasm, &cfg, &dir);
    }
}

#[test]
fn real_programs() {
    workloads::for_each_program("deps", |m, _, p| {
        let (p, run) = m.run(&p.name, "test").unwrap();
        let dir = common::scratch(&format!("deps-{}", p.name));
        let (wasm, cfg) = workloads::load_run(m, p, run);
        record(&wasm, &cfg, &dir);
        check(&p.name, &wasm, &cfg, &dir);
        let _ = std::fs::remove_dir_all(&dir);
    });
}
