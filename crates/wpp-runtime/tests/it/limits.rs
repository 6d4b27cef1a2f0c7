//! Stopping guests: on request, at a time limit, out of fuel, past a memory limit, and
//! hostile guests (unbounded recursion, unbounded allocation, endless loops). Whatever
//! stops a guest, what it recorded until then is collected: a prefix of what it would
//! have recorded running on.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use wpp_runtime::{engine_for, run_paths, run_plain, Limits, Outcome, PathCounts, RunConfig, Stdio, StopHandle, StopReason};
use wpp_wasm::{decode, instrument, Instrumented, Mode, Options};

/// Loops forever through a call and a branch that alternates irregularly, so that its
/// events are not one path repeated.
const SPIN: &str = r#"
(module
  (func $step (param i32) (result i32)
    (if (result i32) (i32.and (local.get 0) (i32.const 1))
      (then (i32.add (i32.mul (local.get 0) (i32.const 3)) (i32.const 1)))
      (else (i32.shr_u (local.get 0) (i32.const 1)))))
  (func (export "_start") (local i32 i32)
    (local.set 0 (i32.const 27))
    (loop
      (local.set 0 (call $step (local.get 0)))
      (if (i32.eq (local.get 0) (i32.const 1))
        (then (local.set 1 (i32.add (local.get 1) (i32.const 1)))
              (local.set 0 (i32.add (local.get 1) (i32.const 27)))))
      (br 0))))
"#;

/// Grows its memory a page at a time for ever, trapping when growth fails.
const GROW: &str = r#"
(module
  (memory 1)
  (func (export "_start")
    (loop
      (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
      (br 0))))
"#;

/// Recurses without end.
const RECURSE: &str = r#"
(module
  (func $down (param i32) (result i32)
    (i32.add (call $down (i32.add (local.get 0) (i32.const 1))) (i32.const 1)))
  (func (export "_start") (drop (call $down (i32.const 0)))))
"#;

fn config(limits: Limits) -> RunConfig {
    RunConfig { program_name: "guest.wasm".into(), stdio: Stdio::Capture { stdin: Vec::new() }, limits, ..RunConfig::default() }
}

fn rewrite(wat: &str, mode: Mode) -> Instrumented {
    let wasm = wat::parse_str(wat).unwrap();
    let program = decode(&wasm).unwrap();
    instrument(&wasm, &program, &Options { mode, ..Options::default() }).unwrap()
}

/// A trace-mode run: its outcome and every event word, in order.
fn trace_run(wat: &str, limits: Limits) -> (Outcome, Vec<u64>) {
    let inst = rewrite(wat, Mode::Trace);
    let engine = engine_for(&limits, Some(Mode::Trace)).unwrap();
    let words = Arc::new(Mutex::new(Vec::new()));
    let sink = {
        let words = words.clone();
        move |w: &[u64]| -> Result<(), std::convert::Infallible> {
            words.lock().unwrap().extend_from_slice(w);
            Ok(())
        }
    };
    let (run, _) = run_paths(&engine, &inst, &config(limits), sink).unwrap();
    let words = std::mem::take(&mut *words.lock().unwrap());
    assert_eq!(run.n_event_words, words.len() as u64);
    (run.result.outcome, words)
}

/// A count-mode run: its outcome and the counts.
fn count_run(wat: &str, limits: Limits) -> (Outcome, PathCounts) {
    let inst = rewrite(wat, Mode::Count);
    let engine = engine_for(&limits, Some(Mode::Count)).unwrap();
    let (run, ()) = run_paths(&engine, &inst, &config(limits), ()).unwrap();
    (run.result.outcome, run.counts)
}

fn plain_run(wat: &str, limits: Limits) -> Outcome {
    let engine = engine_for(&limits, None).unwrap();
    run_plain(&engine, &wat::parse_str(wat).unwrap(), &config(limits)).unwrap().outcome
}

fn timeout(ms: u64) -> Limits {
    Limits { timeout: Some(Duration::from_millis(ms)), ..Limits::default() }
}

#[test]
fn a_time_limit_stops_an_endless_loop_in_every_mode() {
    let stopped = Outcome::Stopped(StopReason::Timeout { millis: 200 });
    let (outcome, words) = trace_run(SPIN, timeout(200));
    assert_eq!(outcome, stopped);
    assert!(words.len() > 10_000, "only {} events before the time limit", words.len());
    let (outcome, counts) = count_run(SPIN, timeout(200));
    assert_eq!(outcome, stopped);
    assert!(counts.values().sum::<u64>() > 10_000);
    assert_eq!(plain_run(SPIN, timeout(200)), stopped);
    assert_eq!(stopped.exit_status(), 124);
}

/// A stop asked for before the guest starts stops it at once: at its first function entry
/// without an event buffer, at its first flush with one.
#[test]
fn a_stop_asked_for_before_the_start_stops_at_once() {
    let limits = || {
        let stop = StopHandle::new();
        assert!(stop.stop(StopReason::Signal(2)));
        assert!(!stop.stop(StopReason::Signal(15)), "the first request stands");
        Limits { stop: Some(stop), ..Limits::default() }
    };
    let stopped = Outcome::Stopped(StopReason::Signal(2));
    let (outcome, counts) = count_run(SPIN, limits());
    assert_eq!((outcome, counts.len()), (stopped.clone(), 0));
    let (outcome, words) = trace_run(SPIN, limits());
    assert_eq!(outcome, stopped);
    let buffer = Options::default().buffer_bytes as usize / 8;
    assert!(words.len() <= buffer, "{} events, more than one buffer", words.len());
    assert_eq!(plain_run(SPIN, limits()), stopped);
    assert_eq!(stopped.exit_status(), 130);
}

/// A stop asked for after the guest ended changes nothing.
#[test]
fn a_stop_after_the_end_is_refused() {
    let stop = StopHandle::new();
    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
    let exits = "(module (func (export \"_start\")))";
    let (outcome, _) = trace_run(exits, limits);
    assert_eq!(outcome, Outcome::Exited(0));
    assert!(stop.guest_ended());
    assert!(!stop.stop(StopReason::Signal(2)));
    assert_eq!(stop.reason(), None);
}

/// Fuel stops a guest at the same point every time, so more fuel records a longer prefix
/// of the same trace.
#[test]
fn fuel_stops_at_the_same_point_and_more_fuel_extends_the_trace() {
    let fuel = |n| Limits { fuel: Some(n), ..Limits::default() };
    let (outcome, short) = trace_run(SPIN, fuel(1_000_000));
    assert_eq!(outcome, Outcome::Stopped(StopReason::Fuel(1_000_000)));
    let (_, again) = trace_run(SPIN, fuel(1_000_000));
    assert_eq!(short, again);
    let (outcome, long) = trace_run(SPIN, fuel(3_000_000));
    assert_eq!(outcome, Outcome::Stopped(StopReason::Fuel(3_000_000)));
    assert!(short.len() > 1000 && long.len() > 2 * short.len(), "{} then {} events", short.len(), long.len());
    assert_eq!(&long[..short.len()], &short[..]);
    let (outcome, counts) = count_run(SPIN, fuel(1_000_000));
    assert_eq!(outcome, Outcome::Stopped(StopReason::Fuel(1_000_000)));
    assert!(!counts.is_empty());
}

/// A memory limit stops a guest that allocates without bound, in every mode; the memory
/// the rewrite adds for recording (larger than the limit here) is not counted against it.
#[test]
fn a_memory_limit_stops_unbounded_growth() {
    let limit = 4 * 65536;
    let limits = || Limits { max_memory: Some(limit), ..Limits::default() };
    let stopped = Outcome::Stopped(StopReason::Memory(limit));
    let inst = rewrite(GROW, Mode::Trace);
    assert!(inst.layout.memory_bytes > limit, "the recording memory must exceed the limit for this test");
    let (outcome, words) = trace_run(GROW, limits());
    assert_eq!(outcome, stopped);
    // Three growths succeed (pages 2, 3, 4), each a loop iteration.
    assert_eq!(words.len(), 3);
    let (outcome, counts) = count_run(GROW, limits());
    assert_eq!((outcome, counts.values().sum::<u64>()), (stopped.clone(), 3));
    assert_eq!(plain_run(GROW, limits()), stopped);
}

/// Unbounded recursion ends in a stack overflow trap, with every completed path
/// collected: each call ended one.
#[test]
fn unbounded_recursion_traps_and_keeps_the_events() {
    let (outcome, words) = trace_run(RECURSE, Limits::default());
    let Outcome::Trapped { trap, backtrace } = &outcome else { panic!("{outcome:?}") };
    assert!(trap.contains("call stack exhausted"), "{trap}");
    assert!(words.len() > 1000, "only {} events", words.len());
    // Every frame is kept, in the original module: the recursion's calls of $down at
    // its one call instruction, under _start's call.
    let Outcome::Trapped { backtrace: plain, .. } = plain_run(RECURSE, Limits::default()) else { panic!("the plain run did not trap") };
    assert!(backtrace.len() > 1000 && plain.len() > 1000, "{} and {} frames", backtrace.len(), plain.len());
    let outer = |bt: &[wpp_runtime::Frame]| bt.iter().rev().take(1000).cloned().collect::<Vec<_>>();
    assert_eq!(outer(backtrace), outer(&plain));
    assert_eq!(plain.last().map(|f| f.func), Some(Some(wpp_model::FuncIdx(1))));
    let (outcome, counts) = count_run(RECURSE, Limits::default());
    assert!(matches!(outcome, Outcome::Trapped { .. }));
    // Count mode's frames differ in size from trace mode's: the depth reached differs.
    assert!(counts.values().sum::<u64>() > 1000);
}
