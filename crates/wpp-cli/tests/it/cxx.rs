//! A C++ program that throws and catches (`workloads/cxx/calc.cpp`: exceptions thrown
//! many frames deep, caught in a loop, rethrown with `throw;`, caught by base class and
//! by `catch (...)`, thrown by the C++ library itself, through `std::exception_ptr`),
//! built for wasm32-wasi with the standardized exception-handling instructions and a C++
//! runtime compiled with exceptions (`workloads/cxx/build.sh`, run by `scripts/test.sh`):
//!
//! * recorded every way (trace, 4-byte events, counts, the hash table, cut points, PPP),
//!   its path counts and event order equal the block-log oracle's, and its output and
//!   exit status the uninstrumented run's, which are the native build's
//!   (`workloads/cxx/calc.expected`, exit status 3);
//! * as typed: `wpp record` in the paths, trace, grammar and ppp modes keeps the output
//!   and exit status; `wpp twpp build` of the grammar run finds as many invocations as
//!   the oracle entered functions; `wpp report` draws the page.

use std::path::PathBuf;

use wpp_runtime::{run_block_log, BlockSink, RunConfig, Stdio};
use wpp_test_support::agree::check_all_ways;
use wpp_test_support::workloads;

use crate::common;
use common::{json, ok, run, scratch, wpp};

/// The built module, or `None` (skipped, or failed under the full suite) when it is not.
fn module(test: &str) -> Option<PathBuf> {
    if !workloads::real_programs_wanted(test) {
        return None;
    }
    let path = workloads::manifest().path("build/calc.wasm");
    if path.exists() {
        Some(path)
    } else {
        workloads::skip_or_fail(test, &format!("the C++ workload is not built ({} is missing; workloads/cxx/build.sh)", path.display()));
        None
    }
}

fn expected() -> Vec<u8> {
    std::fs::read(workloads::manifest().path("cxx/calc.expected")).unwrap()
}

#[test]
fn every_mode_agrees_with_the_oracle() {
    let Some(path) = module("every_mode_agrees_with_the_oracle") else { return };
    let wasm = std::fs::read(&path).unwrap();
    let cfg = RunConfig { program_name: "calc".into(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    let a = check_all_ways("calc", &wasm, &cfg, false, false).unwrap();
    assert_eq!(a.plain.outcome, wpp_runtime::Outcome::Exited(3));
    assert_eq!(String::from_utf8_lossy(&a.plain.stdout), String::from_utf8_lossy(&expected()));
    assert!(a.n_events > 100_000, "only {} events", a.n_events);
}

/// Counts the invocations the block-log oracle enters.
#[derive(Default)]
struct Entered(u64);

impl BlockSink for Entered {
    fn enter(&mut self, _: u32) {
        self.0 += 1;
    }
    fn block(&mut self, _: u32, _: u32) {}
    fn exit(&mut self, _: u32) {}
    fn leave(&mut self, _: u32) {}
    fn unwind(&mut self, _: u32) {}
}

#[test]
fn recorded_as_typed() {
    let Some(path) = module("recorded_as_typed") else { return };
    let dir = scratch("cxx");
    let expected = expected();
    for mode in ["paths", "trace", "grammar"] {
        let out = dir.join(format!("{mode}.wpp"));
        let o = run(wpp().args(["record", "--mode", mode, "-o"]).arg(&out).arg(&path));
        assert_eq!(o.status.code(), Some(3), "{mode}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&expected), "{mode}");
    }
    // PPP with the paths run's executed paths interesting.
    let set = dir.join("set.ppp");
    ok(wpp().args(["ppp", "select", "--all-executed", "-o"]).arg(&set).arg(dir.join("paths.wpp")));
    let o = run(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(&set).arg("-o").arg(dir.join("ppp.wpp")).arg(&path));
    assert_eq!(o.status.code(), Some(3), "ppp: {}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.stdout, expected, "ppp");

    // The calling context: as many invocations as the oracle entered.
    let twpp = dir.join("calc.twpp");
    ok(wpp().args(["twpp", "build"]).arg(dir.join("grammar.wpp")).arg("-o").arg(&twpp));
    let stats = json(wpp().args(["twpp", "stats", "--json"]).arg(&twpp));
    let wasm = std::fs::read(&path).unwrap();
    let program = wpp_wasm::decode(&wasm).unwrap();
    let oracle = wpp_wasm::instrument_block_log(&wasm, &program).unwrap();
    let cfg = RunConfig { program_name: "calc".into(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    let (_, entered) = run_block_log(&wpp_runtime::engine().unwrap(), &oracle, &cfg, Entered::default()).unwrap();
    assert_eq!(stats["invocations"].as_u64(), Some(entered.0));
    assert_eq!(stats["ambiguous"].as_u64(), Some(0));

    let page = dir.join("calc.html");
    ok(wpp().args(["report"]).arg(dir.join("grammar.wpp")).arg("-o").arg(&page));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("__cxa_throw"), "the page names the functions that ran");
}
