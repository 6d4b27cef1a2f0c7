//! Small WebAssembly programs written to exercise one control-flow shape each (see the
//! header comment of each file in `wpp-test-support`'s `wat/`), run every way wpp can run
//! them.

use wpp_runtime::{Outcome, RunConfig, Stdio};
use wpp_test_support::agree::{check_all_ways, Agreed};
use wpp_test_support::corpus;

fn run(name: &str) -> Agreed {
    let wasm = corpus::bytes(name);
    let cfg = RunConfig { program_name: name.into(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    // Once with tiny buffers (many flushes), once with the defaults.
    check_all_ways(name, &wasm, &cfg, false, true).unwrap();
    let a = check_all_ways(name, &wasm, &cfg, true, true).unwrap();
    eprintln!("{name}: {} events; cut as far as it goes, {} functions have cut points and {} events agree", a.n_events, a.cut_functions, a.cut_events);
    a
}

#[test]
fn loops() {
    let a = run("loops");
    assert!(a.cut_functions > 0 && a.cut_events > a.n_events, "no cut point ran");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
    assert_eq!(a.plain.stdout.len(), 4);
    assert!(a.n_events > 500, "only {} events", a.n_events);
}

#[test]
fn br_table() {
    let a = run("br_table");
    assert!(a.cut_functions > 0 && a.cut_events > a.n_events, "no cut point ran");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
    // Many distinct paths through the switch, including ones ending at `continue`.
    assert!(a.counts.len() >= 8, "only {} distinct paths", a.counts.len());
}

#[test]
fn recursion_indirect_and_tail_calls() {
    let a = run("recursion");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
    assert!(a.n_events > 1000);
}

#[test]
fn multivalue_blocks() {
    let a = run("multivalue");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
}

#[test]
fn early_exit_keeps_paths() {
    let a = run("early_exit");
    assert_eq!(a.plain.outcome, Outcome::Exited(3));
    // 18 loop iterations each run paths in three functions before proc_exit.
    assert!(a.n_events >= 18 * 3, "only {} events", a.n_events);
}

#[test]
fn trap_mid_block_keeps_paths() {
    let a = run("trap");
    assert!(matches!(a.plain.outcome, Outcome::Trapped { .. }), "{:?}", a.plain.outcome);
    assert!(a.n_events >= 300, "only {} events", a.n_events);
}

#[test]
fn unreachable_records_the_trapping_path() {
    let a = run("unreachable");
    let Outcome::Trapped { trap, backtrace } = &a.plain.outcome else { panic!("{:?}", a.plain.outcome) };
    assert!(trap.contains("unreachable"), "{trap}");
    assert!(backtrace.iter().any(|f| f.name.as_deref() == Some("check")), "{backtrace:?}");
    // The last event is the path of $check that ends in `unreachable`.
    let last = a.events.as_ref().unwrap().last().copied().unwrap();
    assert_eq!(last.func.0, 0);
}

#[test]
fn reference_types() {
    let a = run("externref");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
    assert!(a.n_events >= 100);
}

/// A trap's backtrace names the original module's functions and byte offsets, the
/// trapping instruction's included, in every recording mode: as the uninstrumented run's.
#[test]
fn trap_backtrace_in_the_original_module() {
    let wasm = corpus::bytes("trap");
    let cfg = RunConfig { program_name: "trap".into(), stdio: Stdio::Capture { stdin: Vec::new() }, ..Default::default() };
    let engine = wpp_runtime::engine().unwrap();
    let plain = wpp_runtime::run_plain(&engine, &wasm, &cfg).unwrap().outcome;
    let Outcome::Trapped { backtrace, .. } = &plain else { panic!("{plain:?}") };
    assert_eq!(backtrace.len(), 3, "{backtrace:?}");
    let program = wpp_wasm::decode(&wasm).unwrap();
    for mode in [wpp_wasm::Mode::Trace, wpp_wasm::Mode::Count] {
        let inst = wpp_wasm::instrument(&wasm, &program, &wpp_wasm::Options { mode, ..Default::default() }).unwrap();
        let (run, _) = wpp_runtime::run_paths(&engine, &inst, &cfg, |_: &[u64]| Ok::<_, std::io::Error>(())).unwrap();
        assert_eq!(run.result.outcome, plain, "{mode:?}");
    }
}

#[test]
fn exceptions_thrown_and_caught() {
    let a = run("exceptions");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
    assert!(!a.plain.stdout.is_empty());
    assert!(a.n_events > 1000, "only {} events", a.n_events);
}

#[test]
fn uncaught_exception_keeps_paths() {
    let a = run("uncaught");
    let Outcome::Trapped { trap, .. } = &a.plain.outcome else { panic!("{:?}", a.plain.outcome) };
    assert!(trap.contains("exception"), "{trap}");
    assert_eq!(a.plain.stdout, b"before\n");
    // 40 iterations, each with paths in three functions, before the throw.
    assert!(a.n_events >= 40 * 3, "only {} events", a.n_events);
}

#[test]
fn setjmp_longjmp_lowered_to_exceptions() {
    let a = run("setjmp");
    assert_eq!(a.plain.outcome, Outcome::Exited(0));
    assert!(a.n_events > 300, "only {} events", a.n_events);
}
