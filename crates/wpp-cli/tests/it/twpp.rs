//! `wpp twpp build`, `wpp twpp stats` and `wpp trace` on a recorded run: the figures agree
//! with the profile's, and a function's invocations equal the executions of its paths that
//! start at its entry block (each invocation starts with exactly one).

use crate::common;
use common::{json, run, scratch, wpp};
use wpp_test_support::corpus::wat_program;

#[test]
fn build_stats_and_trace() {
    let d = scratch("twpp");
    let wasm = wat_program(&d, "recursion");
    let profile = d.join("r.wpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    // Without -o: STEM.twpp in the current directory.
    let out = run(wpp().args(["twpp", "build"]).arg(&profile).current_dir(&d));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let twpp = d.join("r.twpp");
    assert!(twpp.is_file());

    let profile_stats = json(wpp().args(["stats", "--json"]).arg(&profile));
    let stats = json(wpp().args(["twpp", "stats", "--json"]).arg(&twpp));
    assert_eq!(stats["events"], profile_stats["events"]);
    assert!(stats["invocations"].as_u64().unwrap() > 1000);
    assert!(stats["wpp_bytes"].as_u64().unwrap() >= stats["dedup_bytes"].as_u64().unwrap());
    assert!(stats["sections"]["twpp-index"].as_u64().unwrap() > 0);
    // A TWPP file is a profile: its path counts are the profile's.
    assert_eq!(json(wpp().args(["paths", "--json"]).arg(&twpp))["paths"], json(wpp().args(["paths", "--json"]).arg(&profile))["paths"]);

    let trace = json(wpp().args(["trace", "--func", "fib", "--json"]).arg(&twpp));
    let traces = trace["traces"].as_array().unwrap();
    assert_eq!(trace["truncated"], false);
    assert_eq!(traces.len() as u64, trace["total_traces"].as_u64().unwrap());
    let invocations: u64 = traces.iter().map(|t| t["invocations"].as_u64().unwrap()).sum();
    assert_eq!(invocations, trace["invocations"].as_u64().unwrap());
    // The oracle: fib's paths that start at its entry block, counted by `wpp paths`.
    let paths = json(wpp().args(["paths", "--json", "--func", "fib"]).arg(&profile));
    let entries: u64 = paths["paths"].as_array().unwrap().iter().filter(|p| p["blocks"][0]["index"] == 0).map(|p| p["count"].as_u64().unwrap()).sum();
    assert_eq!(invocations, entries);
    for t in traces {
        // Every invocation that followed the trace has one caller: the callers add up.
        let by: u64 = t["callers"].as_array().unwrap().iter().map(|c| c["invocations"].as_u64().unwrap()).sum();
        assert_eq!(by, t["invocations"].as_u64().unwrap(), "{t}");
        // Every block of the trace is covered by the timestamps of its dynamic blocks.
        let steps: usize = t["timestamps"].as_array().unwrap().iter().map(|s| s["steps"].as_array().unwrap().len()).sum();
        assert!(steps >= 1 && !t["blocks"].as_array().unwrap().is_empty());
        assert_eq!(t["blocks"][0], 0, "an invocation starts at the entry block");
    }

    // fib's callers are fib itself (recursion) and the functions that call it.
    let all_callers: Vec<&str> = traces.iter().flat_map(|t| t["callers"].as_array().unwrap().iter().map(|c| c["function"].as_str().unwrap())).collect();
    assert!(all_callers.contains(&"fib"), "{all_callers:?}");
    // One invocation: the first one, made by a function other than fib, and its trace.
    let first = json(wpp().args(["trace", "--func", "fib", "--call", "1", "--json"]).arg(&twpp));
    assert_eq!(first["traces"].as_array().unwrap().len(), 1, "{first}");
    assert_eq!(first["call"]["n"], 1);
    assert_ne!(first["call"]["caller"], "fib");
    let last = trace["invocations"].as_u64().unwrap();
    let out = run(wpp().args(["trace", "--func", "fib", "--call"]).arg((last + 1).to_string()).arg(&twpp));
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no invocation"));
    assert!(json(wpp().args(["trace", "--func", "fib", "--call"]).arg(last.to_string()).arg("--json").arg(&twpp))["traces"].as_array().unwrap().len() == 1);

    // The text form, and what is not a TWPP file.
    let text = run(wpp().args(["trace", "--func", "fib"]).arg(&twpp));
    assert!(String::from_utf8_lossy(&text.stdout).contains("distinct traces"));
    let out = run(wpp().args(["trace", "--func", "fib"]).arg(&profile));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("r.wpp") && err.contains("not a TWPP file") && err.lines().count() == 1, "{err}");
    let out = run(wpp().args(["twpp", "build", "-o"]).arg(d.join("x.twpp")).arg(&twpp));
    assert!(out.status.success(), "a TWPP file holds the whole path: {}", String::from_utf8_lossy(&out.stderr));
}
