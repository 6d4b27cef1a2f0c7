//! Memory dependences end to end: recordings in addresses, filtering and extended WPP
//! mode, and the dependences recovered from each profile (`wpp_twpp::recover`), against
//! the direct log of a shadow memory kept by the host on the access-log oracle rewrite
//! (`wpp_test_support::deps`); the addresses profile's whole program path against a
//! grammar-mode recording's; chains of dependences and their frequencies recovered from
//! both profiles against a count over the direct log's per-execution record. On the
//! `.wat` programs and every real program's test run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use wpp_model::access_event::SiteKind;
use wpp_profile::{Ending, Profile};
use wpp_record::{Builder, RecordMode};
use wpp_runtime::{run_block_log, RunConfig};
use wpp_test_support::deps::{compare_with_direct, import_names, ChainLog, DirectDeps, Writer};
use wpp_test_support::{corpus, recordings, workloads};

use crate::common;

/// How many loads' chains a check follows, `depth` writers deep, of the loads that ran at
/// most `most` times.
struct ChainPlan {
    loads: usize,
    most: u64,
    depth: usize,
}

/// Checks the profiles of `wasm` run as `cfg` says (recorded by [`record`]) against the
/// direct log.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig, rec: &Recorded, plan: ChainPlan) {
    let program = wpp_wasm::decode(wasm).unwrap();
    let logged = wpp_wasm::instrument_access_log(wasm, &program).unwrap();
    let (_, direct) = run_block_log(&wpp_runtime::engine().unwrap(), &logged, cfg, DirectDeps::default()).unwrap();
    let imports = import_names(wasm);

    assert_eq!(common::fingerprint(&rec.addresses), common::fingerprint(&rec.grammar), "{name}: the addresses profile's path trace");
    let addresses = Profile::open(&rec.addresses).unwrap();
    let recovered = wpp_twpp::recover::from_addresses(&addresses, |_| {}).unwrap();
    if let Err(e) = compare_with_direct(&recovered.deps, &recovered.sites, &imports, &direct) {
        panic!("{name}: recovered from the address trace: {e}");
    }
    let filter = Profile::open(&rec.filter).unwrap();
    let exercised = wpp_twpp::recover::exercised(&filter).unwrap().expect("a filtering run's dependences");
    assert_eq!(exercised, recovered.deps, "{name}: the filtering run against the recovery");
    assert_eq!(filter.counts, addresses.counts, "{name}: the filtering run's path counts");
    let ewpp = Profile::open(&rec.ewpp).unwrap();
    let (from_ewpp, checks) = wpp_twpp::recover::from_ewpp(&ewpp, |_| {}).unwrap();
    if let Err(e) = compare_with_direct(&from_ewpp.deps, &from_ewpp.sites, &imports, &direct) {
        panic!("{name}: recovered from the extended WPP: {e}");
    }
    // The filtering run saw this very run: nothing is unforeseen.
    assert_eq!(checks.unforeseen, 0, "{name}: {checks:?}");
    // The module's paths in the extended WPP are the whole program path's.
    let module_paths = |p: &Profile| -> Vec<_> { p.counts.iter().filter(|c| (c.func.idx()) < addresses.meta.functions.len()).cloned().collect() };
    assert_eq!(module_paths(&ewpp), addresses.counts, "{name}: the extended WPP's path counts");
    check_chains(name, wasm, cfg, &direct, [&addresses, &ewpp], plan);
}

/// The chains from some loads, recovered from each profile, against the direct log.
fn check_chains(name: &str, wasm: &[u8], cfg: &RunConfig, direct: &DirectDeps, profiles: [&Profile; 2], plan: ChainPlan) {
    let program = wpp_wasm::decode(wasm).unwrap();
    let sites = wpp_wasm::access_sites(wasm, &program).unwrap();
    let uses = wpp_wasm::statement_uses(wasm, &program).unwrap();
    let imports = import_names(wasm);
    // Each instruction write's uses, by offset.
    let uses_at: BTreeMap<u32, Vec<u32>> = sites
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.kind, SiteKind::Write { .. }))
        .map(|(i, s)| (s.at, uses[i].iter().map(|&u| sites[u.idx()].at).collect()))
        .collect();
    let has_uses = |w: &Writer| matches!(w, Writer::Instruction(at) if !uses_at[at].is_empty());
    // The loads to start from: those whose chains go past one writer first, the most
    // executed first.
    let mut starts: Vec<(bool, u64, u32)> =
        direct.loads.iter().filter(|&(_, &n)| n <= plan.most).map(|(&at, &n)| (direct.deps.keys().any(|(w, l)| *l == at && has_uses(w)), n, at)).collect();
    starts.sort_unstable_by(|a, b| b.cmp(a));
    let starts: Vec<u32> = starts.iter().take(plan.loads).map(|s| s.2).collect();
    // What the chains can reach, by the log's totals: those loads and writes are logged.
    let mut log = ChainLog { loads: starts.iter().copied().collect(), ..Default::default() };
    let mut frontier: BTreeSet<u32> = log.loads.clone();
    for _ in 1..plan.depth {
        let mut next = BTreeSet::new();
        for (w, l) in direct.deps.keys() {
            if let (Writer::Instruction(at), true) = (w, frontier.contains(l)) {
                log.writes.insert(*at, uses_at[at].clone());
                next.extend(uses_at[at].iter().copied().filter(|u| !log.loads.contains(u)));
            }
        }
        log.loads.extend(next.iter().copied());
        frontier = next;
    }
    let logged = wpp_wasm::instrument_access_log(wasm, &program).unwrap();
    let (_, second) = run_block_log(&wpp_runtime::engine().unwrap(), &logged, cfg, DirectDeps::logging(log)).unwrap();
    let log = second.log.unwrap();
    let writer_of = |l: &wpp_report::deps::ChainLink| match l.writer_offset {
        None => Writer::Initial,
        Some(at) => match sites.iter().find(|s| s.at == at && !matches!(s.kind, SiteKind::Read { .. })).map(|s| s.kind) {
            Some(SiteKind::HostCall { import }) => Writer::Host(imports[import.idx()].clone()),
            _ => Writer::Instruction(at),
        },
    };
    for &u0 in &starts {
        let expected = log.chains(u0, direct.loads[&u0], plan.depth);
        assert!(!expected.is_empty(), "{name}: load {u0:#x} read nothing");
        for p in profiles {
            let r = wpp_report::deps::chains(p, &uses, &format!("{u0:#x}"), None, plan.depth, wpp_report::Top::All).unwrap();
            assert_eq!(r.executions, direct.loads[&u0], "{name}: load {u0:#x}'s executions from the {}", r.from);
            // Host writers are named by call site here and by import in the log: chains
            // through several calls of one import are one in the log, counted at least
            // as often as each and at most as all together.
            let mut mine: BTreeMap<Vec<(u32, Writer)>, Vec<u64>> = BTreeMap::new();
            for c in &r.chains {
                mine.entry(c.links.iter().map(|l| (l.use_offset, writer_of(l))).collect()).or_default().push(c.count);
            }
            let theirs: Vec<_> = expected.keys().collect();
            assert_eq!(mine.keys().collect::<Vec<_>>(), theirs, "{name}: the chains from load {u0:#x} recovered from the {}", r.from);
            for (chain, counts) in &mine {
                let want = expected[chain];
                let ok = match counts.as_slice() {
                    [one] => *one == want,
                    many => many.iter().max().is_some_and(|&m| m <= want) && want <= many.iter().sum(),
                };
                assert!(ok, "{name}: chain {chain:?} from load {u0:#x}: {counts:?} from the {}, {want} in the log", r.from);
            }
        }
    }
}

/// The profiles of one run: in grammar, addresses and filtering mode, and the extended
/// WPP recorded with the filter.
struct Recorded {
    grammar: PathBuf,
    addresses: PathBuf,
    filter: PathBuf,
    ewpp: PathBuf,
}

/// Records `wasm` run as `cfg` says in grammar, addresses and filtering mode, and the
/// extended WPP (shared recordings, in-process, with the direct log's run configuration: a
/// program reading an inherited stdin may see its input in other chunks than from a
/// captured one). The four runs end alike.
fn record(wasm: &[u8], cfg: &RunConfig) -> Recorded {
    let grammar = recordings::recorded(wasm, cfg, RecordMode::Grammar(Builder::Sequitur1), u64::MAX);
    let addresses = recordings::recorded(wasm, cfg, RecordMode::Addresses(Builder::Sequitur1), u64::MAX);
    let (filter, ewpp) = recordings::recorded_ewpp(wasm, cfg, Builder::Sequitur1);
    let rec = Recorded { grammar, addresses, filter, ewpp };
    let endings: Vec<Ending> = [&rec.grammar, &rec.addresses, &rec.filter, &rec.ewpp].iter().map(|p| Profile::open(p).unwrap().meta.ending).collect();
    assert!(endings.iter().all(|e| *e == endings[0]), "{}: endings {endings:?}", cfg.program_name);
    rec
}

#[test]
fn wat_programs() {
    // The corpus, and the program of `wpp deps`'s blessed output (a memory.copy, a
    // counter, host writes: chains through each).
    let deps_wat = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/deps.wat");
    let programs = corpus::names().into_iter().map(|n| (n.clone(), corpus::bytes(&n))).chain([("deps.wat".to_string(), wat::parse_file(&deps_wat).unwrap())]);
    for (name, wasm) in programs {
        let cfg = RunConfig {
            program_name: name.clone(),
            args: vec!["one".into(), "two three".into()],
            stdio: wpp_runtime::Stdio::Capture { stdin: b"some input\n".to_vec() },
            ..Default::default()
        };
        let rec = record(&wasm, &cfg);
        check(&name, &wasm, &cfg, &rec, ChainPlan { loads: usize::MAX, most: u64::MAX, depth: 4 });
    }
}

/// Random programs that load and store at constant addresses and through pointers
/// (aliasing, partial overlaps), fill memory in bulk and have the host write it.
#[test]
fn random_programs() {
    for seed in 0..40 {
        let name = format!("random program {seed}");
        let wasm = wat::parse_str(wpp_test_support::dataflow_programs::random_wat(seed)).unwrap();
        let cfg = RunConfig { program_name: name.clone(), stdio: wpp_runtime::Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        let rec = record(&wasm, &cfg);
        check(&name, &wasm, &cfg, &rec, ChainPlan { loads: usize::MAX, most: u64::MAX, depth: 4 });
    }
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = workloads::load_run(m, p, run);
    let rec = record(&wasm, &cfg);
    check(&p.name, &wasm, &cfg, &rec, ChainPlan { loads: 1, most: 100_000, depth: 3 });
});
