//! The access log (`wpp_wasm::instrument_access_log`), the direct record the memory
//! dependence oracles start from: the program behaves as uninstrumented; every block
//! reports exactly the loads, stores and bulk writes its effects list, in order, with
//! their widths (and, for constant addresses, the address); and the last writer of every
//! byte read, kept by `wpp_model::deps::Shadow`, is the one a backward scan of the log
//! finds.

use wpp_model::deps::{Shadow, WriteId, INITIAL};
use wpp_model::effects::{Action, Base, FuncEffects};
use wpp_model::{FuncIdx, FuncMap};
use wpp_runtime::{run_block_log, run_plain, BlockSink, RunConfig, Stdio};
use wpp_test_support::corpus;
use wpp_wasm::abi::{ACCESS_READ, ACCESS_WRITE};

/// One logged access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Access {
    at: u32,
    addr: u64,
    len: u64,
    kind: u32,
}

/// Records the log, checking each block's accesses against its effects as it goes.
struct Checker {
    effects: FuncMap<FuncEffects>,
    /// The block running and the accesses its effects still expect.
    expected: Vec<(u32, u64, u32)>,
    log: Vec<Access>,
    errors: Vec<String>,
}

impl Checker {
    fn finish_block(&mut self) {
        if !self.expected.is_empty() && self.errors.len() < 10 {
            // A block left early (a trap, an exit) may leave some unlogged; the run's end
            // is checked separately.
            self.errors.push(format!("accesses expected and not logged: {:?}", self.expected));
        }
        self.expected.clear();
    }
}

impl BlockSink for Checker {
    fn enter(&mut self, _: u32) {}
    fn block(&mut self, func: u32, block: u32) {
        self.finish_block();
        let Some(fx) = self.effects.get(FuncIdx(func)) else { return };
        for a in &fx.blocks[block as usize] {
            match *a {
                Action::Load { access, at } => self.expected.push((at, access.width as u64, ACCESS_READ | (access.memory << 4))),
                Action::Store { access, at } => self.expected.push((at, access.width as u64, ACCESS_WRITE | (access.memory << 4))),
                Action::Clobber { memory, at } => self.expected.push((at, u64::MAX, ACCESS_WRITE | (memory << 4))),
                Action::Def { .. } => {}
            }
        }
        // Effects list accesses in execution order; pop from the front.
        self.expected.reverse();
    }
    fn exit(&mut self, _: u32) {}
    fn leave(&mut self, _: u32) {}
    fn unwind(&mut self, _: u32) {}
    fn access(&mut self, at: u32, addr: u64, len: u64, kind: u32) {
        self.log.push(Access { at, addr, len, kind });
        // A copy's read comes first and is not an effect of its own.
        if kind & 15 == ACCESS_READ && self.expected.last().is_some_and(|e| e.0 == at && e.1 == u64::MAX) {
            return;
        }
        match self.expected.pop() {
            Some((e_at, e_len, e_kind)) if e_at == at && (e_len == len || e_len == u64::MAX) && e_kind == kind => {}
            other => {
                if self.errors.len() < 10 {
                    self.errors.push(format!("logged {at:#x} ({len} bytes, kind {kind}), effects expected {other:?}"));
                }
            }
        }
    }
}

/// The writer of every byte of every load, by scanning the log backwards: the slow,
/// obviously correct statement of the dependence semantics.
fn scan_back(log: &[Access], i: usize, byte: u64) -> WriteId {
    let mem = log[i].kind >> 4;
    for j in (0..i).rev() {
        let w = log[j];
        if w.kind & 15 == ACCESS_WRITE && w.kind >> 4 == mem && w.addr <= byte && byte < w.addr + w.len {
            return j as WriteId + 1;
        }
    }
    INITIAL
}

#[test]
fn access_log_matches_effects_and_behaviour() {
    let mut loads = 0usize;
    for name in corpus::names() {
        let wasm = corpus::bytes(&name);
        let program = wpp_wasm::decode(&wasm).unwrap();
        let effects = wpp_wasm::effects(&wasm, &program).unwrap();
        let logged = wpp_wasm::instrument_access_log(&wasm, &program).unwrap();
        let cfg = RunConfig { program_name: name.clone(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
        let engine = wpp_runtime::engine().unwrap();
        let plain = run_plain(&engine, &wasm, &cfg).unwrap();
        let sink = Checker { effects, expected: Vec::new(), log: Vec::new(), errors: Vec::new() };
        let (run, mut sink) = run_block_log(&engine, &logged, &cfg, sink).unwrap();
        assert_eq!((run.outcome.exit_status(), &run.stdout, &run.stderr), (plain.outcome.exit_status(), &plain.stdout, &plain.stderr), "{name}");
        let ended_early = run.outcome.exit_status() != 0;
        if !ended_early {
            sink.finish_block();
        }
        // A block cut short by a trap or an exit leaves its last expectation unmet.
        let errors: Vec<&String> = sink.errors.iter().filter(|e| !(ended_early && e.starts_with("accesses expected"))).collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        // Constant addresses are the ones logged.
        for (f, fx) in sink.effects.iter() {
            for a in fx.blocks.iter().flatten() {
                if let Action::Load { access, at } | Action::Store { access, at } = *a {
                    if access.base == Base::Const {
                        for l in sink.log.iter().filter(|l| l.at == at) {
                            assert_eq!(l.addr, access.offset, "{name}: function {} at {at:#x}", f.0);
                        }
                    }
                }
            }
        }
        // The shadow memory against the backward scan, byte by byte.
        let mut shadows: Vec<Shadow> = Vec::new();
        for (i, a) in sink.log.iter().enumerate() {
            let mem = (a.kind >> 4) as usize;
            if shadows.len() <= mem {
                shadows.resize_with(mem + 1, Shadow::default);
            }
            if a.kind & 15 == ACCESS_WRITE {
                shadows[mem].write(a.addr, a.len, i as WriteId + 1);
            } else if a.len <= 64 {
                loads += 1;
                for byte in a.addr..a.addr + a.len {
                    assert_eq!(shadows[mem].writer(byte), scan_back(&sink.log, i, byte), "{name}: access {i} byte {byte}");
                }
            }
        }
    }
    assert!(loads > 100, "only {loads} loads checked");
}

/// Checks each WASI call's reported writes against the bytes it changed.
#[derive(Default)]
struct HostCalls {
    before: Vec<u8>,
    calls: u64,
    /// Calls checked against a copy of memory (the first [`DIFFED`]; copies cost).
    diffed: u64,
    names: std::collections::BTreeSet<String>,
    errors: Vec<String>,
}

const DIFFED: u64 = 3000;

impl BlockSink for HostCalls {
    fn enter(&mut self, _: u32) {}
    fn block(&mut self, _: u32, _: u32) {}
    fn exit(&mut self, _: u32) {}
    fn leave(&mut self, _: u32) {}
    fn unwind(&mut self, _: u32) {}
    fn host_call_begin(&mut self, _: &str, memory: &[u8]) {
        if self.calls < DIFFED {
            self.before.clear();
            self.before.extend_from_slice(memory);
        }
    }
    fn host_call(&mut self, name: &str, writes: Option<&[(u64, u64)]>, memory: &[u8]) {
        self.names.insert(name.to_string());
        let Some(writes) = writes else {
            self.errors.push(format!("{name}: not in the table"));
            return;
        };
        if self.calls < DIFFED {
            self.diffed += 1;
            for (i, (a, b)) in self.before.iter().zip(memory).enumerate() {
                let i = i as u64;
                if a != b && !writes.iter().any(|&(at, len)| at <= i && i < at + len) && self.errors.len() < 10 {
                    self.errors.push(format!("{name} changed byte {i:#x}, outside {writes:?}"));
                }
            }
        }
        self.calls += 1;
    }
}

fn check_host_calls(name: &str, wasm: &[u8], cfg: &RunConfig) -> HostCalls {
    let program = wpp_wasm::decode(wasm).unwrap();
    let logged = wpp_wasm::instrument_access_log(wasm, &program).unwrap();
    let engine = wpp_runtime::engine().unwrap();
    let plain = run_plain(&engine, wasm, cfg).unwrap();
    let (run, sink) = run_block_log(&engine, &logged, cfg, HostCalls::default()).unwrap();
    assert_eq!(
        (run.outcome.exit_status(), &run.stdout),
        (plain.outcome.exit_status(), &plain.stdout),
        "{name}: logging host calls changed the run: {:?}",
        run.outcome
    );
    assert!(sink.errors.is_empty(), "{name}: {:#?}", sink.errors);
    sink
}

/// Every WASI call a program makes is in the host-write table, and every byte it changed
/// is in the ranges the table gives: on the `.wat` programs (with arguments) and on every
/// real program's test run.
#[test]
fn host_writes_cover_what_wasi_changed() {
    let mut names = std::collections::BTreeSet::new();
    for name in corpus::names() {
        let cfg = RunConfig {
            program_name: name.clone(),
            args: vec!["one".into(), "two three".into()],
            env: vec![("K".into(), "V".into())],
            stdio: Stdio::Capture { stdin: b"some input\n".to_vec() },
            ..Default::default()
        };
        names.extend(check_host_calls(&name, &corpus::bytes(&name), &cfg).names);
    }
    let seen = std::sync::Mutex::new(names);
    wpp_test_support::workloads::for_each_program("host writes", |m, _, p| {
        let (p, run) = m.run(&p.name, "test").unwrap();
        let (wasm, cfg) = wpp_test_support::workloads::load_run(m, p, run);
        let calls = check_host_calls(&p.name, &wasm, &cfg);
        assert!(calls.diffed > 0, "{}: no WASI call checked", p.name);
        seen.lock().unwrap().extend(calls.names);
    });
    let seen = seen.into_inner().unwrap();
    eprintln!("WASI calls checked: {seen:?}");
    assert!(seen.contains("fd_write") && seen.contains("args_get"), "{seen:?}");
}

/// The direct record of dependences on Zhang & Gupta's Fig. 9 loop (the command line's
/// `dataflow.wat`):
/// over 20 iterations, the second load of address 64 (at 0x78, on iterations with i mod 5
/// < 3) reads the initial memory on the first three, and the constant store at 0x6b
/// (iterations with i mod 5 >= 3), always its latest instance, on the nine after.
#[test]
fn direct_dependences_of_fig9() {
    use wpp_test_support::deps::{DirectDeps, Exercised, Writer};
    let wasm = wat::parse_str(include_str!("../../../wpp-cli/tests/cli/dataflow.wat")).unwrap();
    let program = wpp_wasm::decode(&wasm).unwrap();
    let logged = wpp_wasm::instrument_access_log(&wasm, &program).unwrap();
    let cfg = RunConfig { program_name: "dataflow".into(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    let (run, d) = run_block_log(&wpp_runtime::engine().unwrap(), &logged, &cfg, DirectDeps::default()).unwrap();
    assert_eq!(run.outcome.exit_status(), 0);
    assert_eq!(d.loads.get(&0x78), Some(&12), "{:?}", d.loads);
    assert_eq!(d.deps.get(&(Writer::Initial, 0x78)), Some(&Exercised { count: 3, earlier_instance: 0 }), "{:?}", d.deps);
    assert_eq!(d.deps.get(&(Writer::Instruction(0x6b), 0x78)), Some(&Exercised { count: 9, earlier_instance: 0 }), "{:?}", d.deps);
    assert!(d.unknown_calls.is_empty(), "{:?}", d.unknown_calls);
}
