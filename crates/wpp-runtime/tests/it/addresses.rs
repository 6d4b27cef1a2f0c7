//! The path rewrite with memory accesses (`Options::accesses`, the addresses recording)
//! against the access log of the oracle rewrite: the access events, read through the
//! module's site table, are the accesses the log reports, in order, with the host's
//! writes after each WASI call; the path events are those of a plain trace recording; the
//! program behaves as it does uninstrumented; and the dependences a `Tracker` follows
//! from the events are those of the direct log (`wpp_test_support::deps`); and the
//! extended WPP's collection run behaves as the program does.

use wpp_model::access_event::{Event, EventDecoder, SiteKind};

use wpp_model::exercised::{ExercisedDeps, Tracker};
use wpp_model::{PathEvent, SiteIdx};
use wpp_runtime::{run_block_log, run_paths, run_plain, BlockSink, RunConfig, Stdio};
use wpp_test_support::corpus;
use wpp_test_support::deps::{compare_with_direct, import_names, DirectDeps};
use wpp_wasm::abi::ACCESS_WRITE;
use wpp_wasm::{Mode, Options};

/// One access as both sides can name it: the instruction's offset (0 for the host), the
/// import's name for a host write, the memory, first byte, length, and whether it writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Seen {
    at: u32,
    host: Option<String>,
    memory: u32,
    addr: u64,
    len: u64,
    write: bool,
}

/// A sequence of accesses, kept whole when short and as a count and an order-sensitive
/// hash beyond that.
#[derive(Default)]
struct Sequence {
    kept: Vec<Seen>,
    n: u64,
    hash: u64,
}

const KEPT: usize = 200_000;

impl Sequence {
    fn push(&mut self, s: Seen) {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        (self.hash, &s).hash(&mut h);
        self.hash = h.finish();
        self.n += 1;
        if self.kept.len() < KEPT {
            self.kept.push(s);
        }
    }
}

/// The oracle's side: the accesses, and how many import calls it saw end.
#[derive(Default)]
struct Logged(Sequence, u64);

impl BlockSink for Logged {
    fn enter(&mut self, _: u32) {}
    fn block(&mut self, _: u32, _: u32) {}
    fn exit(&mut self, _: u32) {}
    fn leave(&mut self, _: u32) {}
    fn unwind(&mut self, _: u32) {}
    fn access(&mut self, at: u32, addr: u64, len: u64, kind: u32) {
        // The rewrite records a 32-bit address; an access past 4 GiB traps anyway.
        self.0.push(Seen { at, host: None, memory: kind >> 4, addr: addr & 0xffff_ffff, len, write: kind & 15 == ACCESS_WRITE });
    }
    fn host_call(&mut self, name: &str, writes: Option<&[(u64, u64)]>, _: &[u8]) {
        self.1 += 1;
        for &(addr, len) in writes.unwrap_or_default() {
            self.0.push(Seen { at: 0, host: Some(name.to_string()), memory: 0, addr, len, write: true });
        }
    }
}

/// Every event word the guest recorded.
#[derive(Default)]
struct Words(Vec<u64>);

impl wpp_runtime::EventSink for Words {
    fn events(&mut self, words: &[u64]) -> Result<(), wpp_runtime::SinkError> {
        self.0.extend_from_slice(words);
        Ok(())
    }
}

fn path_hash(paths: &[PathEvent]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    paths.hash(&mut h);
    h.finish()
}

/// Records `wasm` with accesses (an event buffer of `buffer_bytes`) and checks it against
/// the access log and a trace recording; returns the number of accesses.
fn check(name: &str, wasm: &[u8], cfg: &RunConfig, buffer_bytes: u32) -> u64 {
    let program = wpp_wasm::decode(wasm).unwrap();
    let engine = wpp_runtime::engine().unwrap();
    let plain = run_plain(&engine, wasm, cfg).unwrap();

    let logged = wpp_wasm::instrument_access_log(wasm, &program).unwrap();
    let (_, oracle) = run_block_log(&engine, &logged, cfg, Logged::default()).unwrap();
    let (_, direct) = run_block_log(&engine, &logged, cfg, DirectDeps::default()).unwrap();

    let trace = wpp_wasm::instrument(wasm, &program, &Options::default()).unwrap();
    let (_, trace_words) = run_paths(&engine, &trace, cfg, Words::default()).unwrap();
    let mut trace_paths: Vec<PathEvent> = Vec::new();
    wpp_model::EventDecoder::default().feed(&trace_words.0, |e| trace_paths.push(e));

    let inst = wpp_wasm::instrument(wasm, &program, &Options { mode: Mode::Trace, accesses: true, buffer_bytes, ..Default::default() }).unwrap();
    let sites = wpp_wasm::access_sites(wasm, &program).unwrap();
    assert_eq!(inst.sites, sites, "{name}");
    let (run, Words(words)) = run_paths(&engine, &inst, cfg, Words::default()).unwrap();
    assert_eq!(
        (run.result.outcome.exit_status(), &run.result.stdout, &run.result.stderr),
        (plain.outcome.exit_status(), &plain.stdout, &plain.stderr),
        "{name}: recording accesses changed the run"
    );
    assert!(run.unknown_host_calls.is_empty(), "{name}: {:?}", run.unknown_host_calls);

    let imports = import_names(wasm);
    let mut tracker = Tracker::new(sites.clone()).unwrap();
    let mut exercised = ExercisedDeps::default();
    let mut got = Sequence::default();
    let mut paths = Vec::new();
    let mut d = EventDecoder::default();
    // The import of the last host call, and how many of its ranges are still to come.
    let mut call: Option<(String, u32)> = None;
    let mut calls = 0u64;
    d.feed(
        &words,
        |s| sites[s as usize].is_bulk(),
        |e| match e {
            Event::Path(p) => paths.push(p),
            Event::Access(a) => {
                tracker.access(SiteIdx(a.site), a.addr, a.len, |d| exercised.add(&d)).unwrap();
                let s = &sites[a.site as usize];
                match s.kind {
                    SiteKind::Read { width } | SiteKind::Write { width } => {
                        assert!(call.as_ref().is_none_or(|c| c.1 == 0), "{name}: an access among a host call's ranges");
                        let len = a.len.unwrap_or_else(|| width.expect("a sized site") as u64);
                        got.push(Seen { at: s.at, host: None, memory: s.memory, addr: a.addr as u64, len, write: s.is_write() });
                    }
                    SiteKind::HostCall { import } => {
                        calls += 1;
                        call = Some((imports[import.idx()].clone(), a.addr))
                    }
                    SiteKind::HostWrite => {
                        let c = call.as_mut().expect("a host write after its call");
                        assert!(c.1 > 0, "{name}: more host writes than the call said");
                        c.1 -= 1;
                        got.push(Seen { at: 0, host: Some(c.0.clone()), memory: 0, addr: a.addr as u64, len: a.len.unwrap(), write: true });
                    }
                }
            }
        },
    );
    assert!(!d.is_mid_event(), "{name}: the stream ends inside an event");
    assert_eq!(got.n, oracle.0.n, "{name}: accesses");
    assert_eq!(calls, oracle.1, "{name}: import calls");
    if let Some(i) = got.kept.iter().zip(&oracle.0.kept).position(|(a, b)| a != b) {
        panic!("{name}: access {i}: recorded {:?}, the log has {:?}", got.kept[i], oracle.0.kept[i]);
    }
    assert_eq!(got.hash, oracle.0.hash, "{name}: the accesses past the first {KEPT} differ");
    assert_eq!((paths.len(), path_hash(&paths)), (trace_paths.len(), path_hash(&trace_paths)), "{name}: path events");

    // The dependences followed from the events are the direct log's.
    for (i, s) in sites.iter().enumerate() {
        let i = SiteIdx(i as u32);
        if matches!(s.kind, SiteKind::Read { .. }) && tracker.instances(i) > 0 {
            exercised.loads.insert(i, tracker.instances(i));
        }
    }
    if let Err(e) = compare_with_direct(&exercised, &sites, &imports, &direct) {
        panic!("{name}: {e}");
    }

    // The extended WPP's collection run, its candidates these dependences, behaves as the
    // program does.
    let mut plan = wpp_wasm::EwppPlan::default();
    for &(w, load) in exercised.deps.keys() {
        if let wpp_model::exercised::Writer::Site(w) = w {
            plan.candidates.entry(load).or_default().push(w);
        }
    }
    let ewpp = wpp_wasm::instrument(wasm, &program, &Options { mode: Mode::Trace, ewpp: Some(plan), buffer_bytes, ..Default::default() }).unwrap();
    let (run, _) = run_paths(&engine, &ewpp, cfg, Words::default()).unwrap();
    assert_eq!(
        (run.result.outcome.exit_status(), &run.result.stdout, &run.result.stderr),
        (plain.outcome.exit_status(), &plain.stdout, &plain.stderr),
        "{name}: the extended WPP's checks changed the run"
    );
    got.n
}

#[test]
fn access_events_are_the_access_log_on_wat_programs() {
    let mut total = 0;
    for name in corpus::names() {
        let cfg = RunConfig {
            program_name: name.clone(),
            args: vec!["one".into(), "two three".into()],
            stdio: Stdio::Capture { stdin: b"some input\n".to_vec() },
            ..Default::default()
        };
        // Small buffers split two-word events across flushes.
        for buffer_bytes in [256, 1 << 20] {
            total += check(&name, &corpus::bytes(&name), &cfg, buffer_bytes);
        }
    }
    assert!(total > 600, "only {total} accesses");
}

wpp_test_support::real_programs!(access_events_are_the_access_log_on_real_programs, |m, _, p| {
    let (p, run) = m.run(&p.name, "test").unwrap();
    let (wasm, cfg) = wpp_test_support::workloads::load_run(m, p, run);
    let n = check(&p.name, &wasm, &cfg, 1 << 20);
    assert!(n > 0, "{}: no access", p.name);
});
