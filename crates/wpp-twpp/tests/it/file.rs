//! The TWPP file against the profile it was built from: the whole program path rebuilt
//! from it equals the profile's, event for event, and each function read alone holds
//! exactly that function's distinct block traces with their invocations. On the `.wat`
//! programs and every real program's test run, with the default numbering and with one
//! cut to 16 (`.wat`) or 65,536 (real programs) paths per function, so that cut points end
//! paths inside traces.

use std::path::Path;

use wpp_model::progress::{Quiet, Recorded};
use wpp_model::{BlockIdx, PathEvent};
use wpp_profile::Profile;
use wpp_record::{Builder, RecordMode, Recorder};
use wpp_runtime::{RunConfig, Stdio};
use wpp_test_support::{corpus, recordings, workloads};
use wpp_twpp::{build, partition, Twpp};

fn check(name: &str, wasm: &[u8], cfg: &RunConfig, dir: &Path, cut_to: u64) {
    for max_paths in [u64::MAX, cut_to] {
        let what = format!("{name}, at most {max_paths} paths");
        let profile_path = recordings::recorded(wasm, cfg, RecordMode::Grammar(Builder::Sequitur1), max_paths);
        let twpp_path = dir.join(format!("{name}-{max_paths}.twpp"));
        let profile = Profile::open(&profile_path).unwrap();
        let mut events: Vec<PathEvent> = Vec::new();
        profile.for_each_event(|e| events.push(e)).unwrap();
        let mut progress = Recorded::default();
        let built = build(&profile, &twpp_path, &mut progress).unwrap_or_else(|e| panic!("{what}: {e}"));
        // Every step with a known amount of work reports all of it, the events first.
        assert_eq!(progress.stages.first().and_then(|s| s.1), Some(events.len() as u64), "{what}: {progress:?}");
        assert!(progress.stages.iter().all(|(_, total, done)| total.is_none_or(|t| t == *done)), "{what}: {progress:?}");
        let twpp = Twpp::open(&twpp_path).unwrap();
        assert_eq!(twpp.index, built.index);
        assert_eq!(twpp.index.events, events.len() as u64, "{what}");
        let mut rebuilt = Vec::new();
        twpp.for_each_event(|e| rebuilt.push(e)).unwrap();
        assert!(rebuilt == events, "{what}: the rebuilt trace differs ({} events, {} recorded)", rebuilt.len(), events.len());
        // Each function alone: its distinct block traces, as the partition has them.
        let p = partition(&profile.meta.functions, &profile.numberings, events.iter().copied()).unwrap();
        let invocations: Vec<u64> = twpp.index.functions.iter().map(|e| e.invocations).collect();
        assert!(invocations.windows(2).all(|w| w[0] >= w[1]), "{what}: the index is not ordered by invocations");
        for e in &twpp.index.functions {
            let want = p.traces.get(e.func).unwrap();
            let numbering = profile.numberings.get(e.func).unwrap();
            let got = twpp.block_traces(e.func).unwrap();
            assert_eq!(got.len(), want.traces.len(), "{what}: function {}", e.func);
            for ((blocks, calls), (trace, want_calls)) in got.iter().zip(want.traces.iter().zip(&want.calls)) {
                let want_blocks: Vec<BlockIdx> = trace.iter().flat_map(|&path| numbering.decode(path).unwrap()).collect();
                assert!(blocks == &want_blocks && calls == want_calls, "{what}: function {}: a trace differs", e.func);
            }
        }
        assert_eq!(twpp.index.functions.len(), p.traces.values().filter(|t| !t.traces.is_empty()).count());
        // Callers and the order of invocations, read from each function's own sections,
        // against the call graph's answers.
        let mut in_order: std::collections::HashMap<_, Vec<_>> = std::collections::HashMap::new();
        for (node, caller) in p.dcg.in_run_order() {
            let want = (p.dcg.nodes[node].trace.0, caller);
            in_order.entry(p.dcg.nodes[node].func).or_default().push(want);
        }
        for e in &twpp.index.functions {
            let part = twpp.part(e.func).unwrap();
            let sorted = |v: Vec<Vec<(wpp_twpp::Caller, u64)>>| -> Vec<std::collections::BTreeMap<wpp_twpp::Caller, u64>> {
                let mut v: Vec<_> = v.into_iter().map(|m| m.into_iter().collect()).collect();
                while v.last().is_some_and(|m: &std::collections::BTreeMap<_, _>| m.is_empty()) {
                    v.pop();
                }
                v
            };
            assert_eq!(sorted(twpp.callers(&part).unwrap()), sorted(p.dcg.callers(e.func)), "{what}: function {}: callers", e.func);
            // Every invocation of a small run; the first, the last and a spread of a large one.
            let n = e.invocations;
            let picks: Vec<u64> = if n <= 200 { (1..=n).collect() } else { (0..100).map(|i| 1 + i * (n - 1) / 99).collect() };
            assert_eq!(in_order[&e.func].len() as u64, n, "{what}: function {}: invocations", e.func);
            for k in picks {
                let want = in_order[&e.func][k as usize - 1];
                assert_eq!(twpp.nth_invocation(&part, k).unwrap(), Some(want), "{what}: function {}: invocation {k}", e.func);
            }
            assert_eq!(twpp.nth_invocation(&part, n + 1).unwrap(), None);
            assert_eq!(twpp.nth_invocation(&part, 0).unwrap(), None);
        }
        // The statistics stored while building, against measuring the partition again.
        assert_eq!(twpp.stats().unwrap(), wpp_twpp::steps::measure(&p, &profile.meta.functions, &profile.numberings), "{what}: statistics");
        let cut = profile.numberings.values().filter(|n| !n.cut_points().is_empty()).count();
        eprintln!(
            "{what}: {} events, {} functions ({cut} with cut points), {} bytes of function parts, call graph {} bytes",
            events.len(),
            twpp.index.functions.len(),
            built.part_bytes,
            built.dcg_bytes
        );
    }
}

#[test]
fn wat_programs() {
    let dir = std::env::temp_dir().join(format!("wpp-twpp-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in corpus::names() {
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        check(&name, &corpus::bytes(&name), &cfg, &dir, 16);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let dir = tempfile::tempdir().unwrap();
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = workloads::load_run(m, p, run);
    // Real functions have too many blocks for 16 paths even with every block cut.
    check(&p.name, &wasm, &cfg, dir.path(), 65536);
});

/// A TWPP file of the earlier layout (no layout section, function parts without their
/// heads) is refused with what to do, not read as damaged.
#[test]
fn an_earlier_layout_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let name = corpus::names().into_iter().next().unwrap();
    let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    let (profile_path, twpp_path, old_path) = (dir.path().join("p.wpp"), dir.path().join("p.twpp"), dir.path().join("old.twpp"));
    Recorder::from_bytes(&name, corpus::bytes(&name)).unwrap().run_config(cfg).record(&profile_path).unwrap();
    build(&Profile::open(&profile_path).unwrap(), &twpp_path, &mut Quiet).unwrap();
    let twpp = Profile::open(&twpp_path).unwrap();
    let mut w = wpp_profile::Writer::create(&old_path).unwrap();
    for e in twpp.toc.iter().filter(|e| e.name != wpp_twpp::file::section::LAYOUT) {
        w.write_section(&e.name, &twpp.section_bytes(&e.name).unwrap()).unwrap();
    }
    w.finish().unwrap();
    let err = Twpp::open(&old_path).err().expect("an earlier layout is refused");
    assert!(matches!(err, wpp_twpp::file::Error::Layout { found: 1, .. }), "{err}");
    assert!(err.to_string().contains("wpp twpp build"), "{err}");
}
