//! `wpp dataflow` on recorded runs: the paper's Fig. 9 example, written in C and compiled,
//! gives the paper's answer; a reaching-definitions query through calls; a module other
//! than the recorded one is refused, naming both files.

use crate::common;

use common::{compile_c, json, run, scratch, wpp};
use wpp_test_support::corpus::wat_program;

/// Fig. 9: the loop runs 100 times; the load after the branch (4_Load, line 19) runs 60
/// times and is redundant every time, though the store (6_Store, line 17) runs 40 times in
/// between loads of the same location. At -O2 the compiler unrolls the loop once, so
/// line 19 holds two loads: their executions add up.
#[test]
fn figure_9_load_is_always_redundant() {
    let d = scratch("dataflow-fig9");
    for opt in ["-O1", "-O2"] {
        let Some(wasm) = compile_c(&d, "fig9", opt) else { return };
        let profile = d.join("fig9.wpp");
        let twpp = d.join("fig9.twpp");
        let out = run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(run(wpp().args(["twpp", "build", "-o"]).arg(&twpp).arg(&profile)).status.success());
        let r = json(wpp().args(["dataflow", "redundancy", "--json", "--module"]).arg(&wasm).args(["--load", "fig9.c:19"]).arg(&twpp));
        let loads = r["loads"].as_array().unwrap();
        assert!(!loads.is_empty(), "{opt}: no load on line 19: {r}");
        let sum = |k: &str| loads.iter().map(|l| l[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!((sum("executions"), sum("redundant")), (60, 60), "{opt}: {r}");
        // Made available by the load of line 15 in the same iteration.
        for l in loads {
            assert!(l["available_from"].as_array().unwrap().iter().all(|s| s["place"]["source"].as_str().unwrap().ends_with("fig9.c:15")), "{opt}: {l}");
        }
        assert_eq!(r["truncated"], false);
        assert_eq!(r["total_loads"].as_u64().unwrap(), loads.len() as u64);
        // The load of line 15 finds the value of the iteration before (its load, or its
        // store, which makes the stored value available too), all but the first time.
        let all = json(wpp().args(["dataflow", "redundancy", "--json", "--module"]).arg(&wasm).args(["--load", "fig9.c:15"]).arg(&twpp));
        let l15 = all["loads"].as_array().unwrap();
        let sum15 = |k: &str| l15.iter().map(|l| l[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!((sum15("executions"), sum15("redundant")), (100, 99), "{opt}: {all}");
    }
}

/// The global of `dataflow.wat` is set in callees (`$maybe_set` on odd arguments, `$rec`
/// at the bottom of its recursion): where `main` reads it, both definitions reach, as
/// often as the loop says.
#[test]
fn reaching_definitions_of_a_global_through_calls() {
    let d = scratch("dataflow-reaching");
    let wasm = wat_program(&d, "dataflow");
    let profile = d.join("df.wpp");
    let twpp = d.join("df.twpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    assert!(run(wpp().args(["twpp", "build", "-o"]).arg(&twpp).arg(&profile)).status.success());
    // The loads of `main` and their redundancy: the JSON lists every one.
    let r = json(wpp().args(["dataflow", "redundancy", "--json", "--func", "main", "--module"]).arg(&wasm).arg(&twpp));
    assert!(r["loads"].as_array().unwrap().len() >= 3, "{r}");
    // The global's definitions before a load of `main`'s loop: each iteration calls both
    // setters before the next iteration's loads.
    let tail_load = r["loads"].as_array().unwrap()[0]["load"]["at"].as_str().unwrap().to_string();
    let g = json(wpp().args(["dataflow", "reaching", "--json", "--global", "0", "--at", &tail_load, "--module"]).arg(&wasm).arg(&twpp));
    let defs = g["definitions"].as_array().unwrap();
    let total: u64 = defs.iter().map(|s| s["count"].as_u64().unwrap()).sum();
    assert_eq!(total, g["executions"].as_u64().unwrap(), "{g}");
    assert!(defs.iter().any(|s| s["kind"] == "instruction" && s["place"]["function"] == "maybe_set"), "{g}");
    assert!(defs.iter().any(|s| s["kind"] == "instruction" && s["place"]["function"] == "rec"), "{g}");
    // A local that the point's function never defined before: its entry value.
    let l = json(wpp().args(["dataflow", "reaching", "--json", "--local", "0", "--at", &tail_load, "--module"]).arg(&wasm).arg(&twpp));
    assert!(l["executions"].as_u64().unwrap() > 0);
}

#[test]
fn another_module_is_refused() {
    let d = scratch("dataflow-refuse");
    let wasm = wat_program(&d, "dataflow");
    let other = wat_program(&d, "recursion");
    let profile = d.join("df.wpp");
    let twpp = d.join("df.twpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    assert!(run(wpp().args(["twpp", "build", "-o"]).arg(&twpp).arg(&profile)).status.success());
    let out = run(wpp().args(["dataflow", "redundancy", "--func", "main", "--module"]).arg(&other).arg(&twpp));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("recursion.wasm") && err.contains("df.twpp") && err.contains("SHA-256"), "{err}");
}
