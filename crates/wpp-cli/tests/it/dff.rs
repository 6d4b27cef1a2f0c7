//! `wpp dff` on recorded runs: the paper's Fig. 1 example, written in C and compiled,
//! gives the paper's frequencies; available loads agree with the TWPP's load redundancy;
//! the JSON is complete unless cut, and says so; another module is refused.

use crate::common;

use common::{compile_c, json, run, scratch, wpp};
use serde_json::Value;

/// The facts of one kind at the single point of a `--at` report: (variable, site's line
/// or kind) → exact count.
fn facts(r: &Value, kind: &str) -> Vec<(String, String, u64)> {
    let points = r["points"].as_array().unwrap();
    assert_eq!(points.len(), 1, "{r}");
    let mut v: Vec<(String, String, u64)> = points[0]["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == kind)
        .map(|f| {
            let site = match f["place"]["source"].as_str() {
                Some(s) => s.rsplit('/').next().unwrap().to_string(),
                None => f["site"].as_str().unwrap().to_string(),
            };
            (f["variable"].as_str().unwrap().to_string(), site, f["exact"].as_u64().unwrap())
        })
        .collect();
    v.sort();
    v
}

/// Fig. 1: eight times the left branch, then the right one. At the left branch (node 2,
/// before d1's store on line 15) x was defined by d1 seven times of eight and by nothing
/// before the loop once; d2 (line 18) never reached it. At the use after the loop (line
/// 22) only d2 reaches.
#[test]
fn figure_1_frequencies() {
    let d = scratch("dff-fig1");
    let Some(wasm) = compile_c(&d, "fig1", "-O1") else { return };
    let profile = d.join("fig1.wpp");
    let out = run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let at = |line: &str| json(wpp().args(["dff", "--json", "--func", "__original_main", "--at", line, "--module"]).arg(&wasm).arg(&profile));
    let node2 = at("fig1.c:15");
    assert_eq!(node2["points"][0]["executions"], 8, "{node2}");
    let mem = facts(&node2, "memory");
    let xdefs: Vec<_> = mem.iter().filter(|f| f.1 == "fig1.c:15" || f.1 == "fig1.c:18").cloned().collect();
    assert_eq!(xdefs.len(), 2, "d1 and d2 both listed (d2 for its estimate): {mem:?}");
    assert_eq!(xdefs[0].2, 7, "d1 reaches node 2 seven times: {mem:?}");
    assert_eq!(xdefs[1].2, 0, "d2 never reaches node 2: {mem:?}");
    // The edge profile cannot tell: the loop's back edge mixes both branches, so its
    // estimate has d2 reach node 2 sometimes.
    let d2 = node2["points"][0]["facts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["place"]["source"].as_str().is_some_and(|s| s.ends_with("fig1.c:18")))
        .unwrap()
        .clone();
    assert!(d2["estimate"].as_f64().unwrap() > 0.5, "{d2}");
    assert!(node2["differences"].as_array().unwrap().iter().any(|x| x["fact"] == d2), "{node2}");
    let location = xdefs[0].0.clone();
    let init: Vec<_> = mem.iter().filter(|f| f.0 == location && f.1 == "init").collect();
    assert_eq!(init.len(), 1, "{mem:?}");
    assert_eq!(init[0].2, 1, "the first iteration sees x's initial value: {mem:?}");
    let use_ = at("fig1.c:22");
    assert_eq!(use_["points"][0]["executions"], 1);
    let reaching: Vec<_> = facts(&use_, "memory").into_iter().filter(|f| f.0 == location && f.2 > 0).collect();
    assert_eq!(reaching, vec![(location.clone(), "fig1.c:18".to_string(), 1)], "only d2 reaches the use");
}

/// Available loads on the grammar give the TWPP engine's load redundancy, load for load,
/// for the loads at constant addresses (Fig. 9's x) — two implementations of the same
/// problem, one forward over the grammar through the dual, one backward over timestamps.
#[test]
fn available_loads_agree_with_load_redundancy() {
    let d = scratch("dff-fig9");
    for opt in ["-O1", "-O2"] {
        let Some(wasm) = compile_c(&d, "fig9", opt) else { return };
        let profile = d.join("fig9.wpp");
        let twpp = d.join("fig9.twpp");
        assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
        assert!(run(wpp().args(["twpp", "build", "-o"]).arg(&twpp).arg(&profile)).status.success());
        let dff = json(wpp().args(["dff", "--json", "--problem", "available-loads", "--func", "__original_main", "--module"]).arg(&wasm).arg(&profile));
        let red = json(wpp().args(["dataflow", "redundancy", "--json", "--func", "__original_main", "--module"]).arg(&wasm).arg(&twpp));
        let mut compared = 0;
        for p in dff["points"].as_array().unwrap() {
            let at = p["point"]["at"].as_str().unwrap();
            let load =
                red["loads"].as_array().unwrap().iter().find(|l| l["load"]["at"] == at).unwrap_or_else(|| panic!("{opt}: no redundancy row for {at}: {red}"));
            assert_eq!(p["executions"], load["executions"], "{opt} {at}");
            assert_eq!(p["facts"][0]["exact"], load["redundant"], "{opt} {at}");
            compared += 1;
        }
        assert!(compared >= 2, "{opt}: {dff}");
        // Line 19's load: redundant every time.
        let l19: Vec<_> =
            dff["points"].as_array().unwrap().iter().filter(|p| p["point"]["source"].as_str().is_some_and(|s| s.ends_with("fig9.c:19"))).collect();
        let sum = |k: &dyn Fn(&Value) -> u64| l19.iter().map(|p| k(p)).sum::<u64>();
        assert_eq!((sum(&|p| p["executions"].as_u64().unwrap()), sum(&|p| p["facts"][0]["exact"].as_u64().unwrap())), (60, 60), "{opt}");
    }
}

/// Every point and every difference unless --top cuts them, and then the JSON says so.
#[test]
fn json_is_complete_unless_cut() {
    let d = scratch("dff-json");
    let Some(wasm) = compile_c(&d, "fig1", "-O1") else { return };
    let profile = d.join("fig1.wpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    let all = json(wpp().args(["dff", "--json", "--func", "__original_main", "--module"]).arg(&wasm).arg(&profile));
    assert_eq!(all["truncated"], false);
    let points = all["points"].as_array().unwrap().len();
    assert!(points >= 4, "{all}");
    assert_eq!(all["total_points"].as_u64().unwrap() as usize, points);
    assert_eq!(all["total_differences"].as_u64().unwrap() as usize, all["differences"].as_array().unwrap().len());
    let c = &all["coverage"];
    let blocks = c["blocks"].as_u64().unwrap();
    assert_eq!(c["executed_and_analysed"].as_u64().unwrap() + c["executed_not_analysed"].as_u64().unwrap() + c["not_executed"].as_u64().unwrap(), blocks);
    let one = json(wpp().args(["dff", "--json", "--top", "1", "--func", "__original_main", "--module"]).arg(&wasm).arg(&profile));
    assert_eq!(one["truncated"], true);
    assert_eq!(one["points"].as_array().unwrap().len(), 1);
    assert_eq!(one["total_points"].as_u64().unwrap() as usize, points);
    // Text names the cut too.
    let text = run(wpp().args(["dff", "--top", "1", "--func", "__original_main", "--module"]).arg(&wasm).arg(&profile));
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains(&format!("showing 1 of {points} points")), "{text}");
}

/// A module other than the recorded one is refused (exit 2), naming both files; so is a
/// place in no function.
#[test]
fn another_module_is_refused() {
    let d = scratch("dff-module");
    let Some(wasm) = compile_c(&d, "fig1", "-O1") else { return };
    let profile = d.join("fig1.wpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    let other = d.join("other.wasm");
    let mut bytes = std::fs::read(&wasm).unwrap();
    // A custom section appended: a valid module with another hash.
    bytes.extend_from_slice(&[0, 4, 1, b'x', 0, 0]);
    std::fs::write(&other, bytes).unwrap();
    let out = run(wpp().args(["dff", "--func", "__original_main", "--module"]).arg(&other).arg(&profile));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("other.wasm") && err.contains("fig1.wpp"), "{err}");
    let out = run(wpp().args(["dff", "--at", "0xffffffff", "--module"]).arg(&wasm).arg(&profile));
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}
