//! Every `--json` output is complete unless the user asks for less, and says when it is
//! not: `"truncated"` and `"total_LIST"` for each list a limit can cut. The profiles have
//! far more rows than a text report shows by default, so a limit applied to JSON without
//! being asked for shows up as a difference. The commands without a limit (`export`,
//! `annotate`) list everything.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::common;
use common::{json, ok, scratch, wpp};

/// A loop whose body branches on six bits of a pseudo-random number (a linear
/// congruential generator): 64 paths through the body in random order, so every path runs
/// in many distinct contexts, and a hot set of paths leaves many residual ones.
const MANY_PATHS: &str = r#"
(module
  (func $step (param $acc i32) (param $x i32) (result i32)
    (if (i32.and (local.get $x) (i32.const 1))
      (then (local.set $acc (i32.add (local.get $acc) (i32.const 1))))
      (else (local.set $acc (i32.sub (local.get $acc) (i32.const 3)))))
    (local.get $acc))
  (func (export "_start")
    (local $x i32) (local $i i32) (local $acc i32)
    (loop $l
      (local.set $x (i32.add (i32.mul (local.get $x) (i32.const 1103515245)) (i32.const 12345)))
      (if (i32.and (local.get $x) (i32.const 0x10000))
        (then (local.set $acc (i32.add (local.get $acc) (i32.const 1))))
        (else (local.set $acc (i32.xor (local.get $acc) (i32.const 5)))))
      (if (i32.and (local.get $x) (i32.const 0x20000))
        (then (local.set $acc (i32.add (local.get $acc) (i32.const 2))))
        (else (local.set $acc (i32.xor (local.get $acc) (i32.const 6)))))
      (if (i32.and (local.get $x) (i32.const 0x40000))
        (then (local.set $acc (i32.add (local.get $acc) (i32.const 3))))
        (else (local.set $acc (i32.xor (local.get $acc) (i32.const 7)))))
      (if (i32.and (local.get $x) (i32.const 0x80000))
        (then (local.set $acc (i32.add (local.get $acc) (i32.const 4))))
        (else (local.set $acc (i32.xor (local.get $acc) (i32.const 8)))))
      (if (i32.and (local.get $x) (i32.const 0x100000))
        (then (local.set $acc (i32.add (local.get $acc) (i32.const 5))))
        (else (local.set $acc (i32.xor (local.get $acc) (i32.const 9)))))
      (if (i32.and (local.get $x) (i32.const 0x200000))
        (then (local.set $acc (i32.add (local.get $acc) (i32.const 6))))
        (else (local.set $acc (call $step (local.get $acc) (i32.shr_u (local.get $x) (i32.const 24))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (i32.const 3000))))))
"#;

/// The program above recorded with `wpp record ARGS` into `DIR/NAME.wpp`.
fn record(d: &Path, name: &str, args: &[&str]) -> PathBuf {
    let wasm = d.join("many.wasm");
    if !wasm.exists() {
        std::fs::write(&wasm, wat::parse_str(MANY_PATHS).unwrap()).unwrap();
    }
    let profile = d.join(format!("{name}.wpp"));
    ok(wpp().arg("record").args(args).arg("-o").arg(&profile).arg(&wasm));
    profile
}

/// `wpp ARGS EXTRA`, `PROFILE` in `ARGS` standing for `profile`.
fn command(args: &[&str], profile: &Path, extra: &[&str]) -> Command {
    let mut c = wpp();
    for a in args {
        if *a == "PROFILE" {
            c.arg(profile);
        } else {
            c.arg(a);
        }
    }
    c.args(extra);
    c
}

/// `wpp ARGS --json EXTRA`.
fn json_with(args: &[&str], profile: &Path, extra: &[&str]) -> Value {
    json(&mut command(args, profile, &[&["--json"], extra].concat()))
}

/// `wpp ARGS EXTRA`, printing text.
fn text(args: &[&str], profile: &Path, extra: &[&str]) -> String {
    String::from_utf8(ok(&mut command(args, profile, extra))).unwrap()
}

/// The fields of `v`, for messages.
fn fields(v: &Value) -> Vec<&String> {
    v.as_object().map(|o| o.keys().collect()).unwrap_or_default()
}

fn rows<'a>(v: &'a Value, list: &str) -> &'a Vec<Value> {
    v[list].as_array().unwrap_or_else(|| panic!("no list {list} among {:?}", fields(v)))
}

fn total(v: &Value, list: &str) -> usize {
    v[format!("total_{list}")].as_u64().unwrap_or_else(|| panic!("no total_{list} among {:?}", fields(v))) as usize
}

/// `1234` as `1,234`.
fn thousands(n: usize) -> String {
    let s = n.to_string();
    s.char_indices().map(|(i, c)| if i > 0 && (s.len() - i).is_multiple_of(3) { format!(",{c}") } else { c.to_string() }).collect()
}

/// The checks every command with a limit must pass, for its lists `lists` (each longer
/// than the text default): the default JSON is the complete one (`--top 0`), says it is
/// not truncated and has as many rows as its totals; `--top 1` keeps the first row of each
/// list, says it is truncated and keeps the totals; a `--top` that cuts nothing gives the
/// complete JSON. The text output names what it left out in one line per list, and
/// nothing when it shows all. Returns the complete JSON.
fn check_limits(args: &[&str], profile: &Path, lists: &[(&str, &str)]) -> Value {
    let all = json_with(args, profile, &["--top", "0"]);
    let default = json_with(args, profile, &[]);
    assert_eq!(default, all, "{args:?}: the default JSON is not the complete one");
    assert_eq!(all["truncated"], false, "{args:?}");
    for &(list, _) in lists {
        assert!(rows(&all, list).len() > 20, "{args:?}: only {} {list}; pick a larger profile", rows(&all, list).len());
        assert_eq!(rows(&all, list).len(), total(&all, list), "{args:?}: {list}");
    }
    let one = json_with(args, profile, &["--top", "1"]);
    assert_eq!(one["truncated"], true, "{args:?} --top 1");
    for &(list, _) in lists {
        assert_eq!(rows(&one, list).len(), 1, "{args:?} --top 1: {list}");
        assert_eq!(rows(&one, list)[0], rows(&all, list)[0], "{args:?} --top 1: {list} does not start as the complete list");
        assert_eq!(total(&one, list), rows(&all, list).len(), "{args:?} --top 1: total_{list}");
    }
    // A limit that cuts nothing leaves the output complete.
    let longest = lists.iter().map(|&(list, _)| rows(&all, list).len()).max().unwrap();
    assert_eq!(json_with(args, profile, &["--top", &longest.to_string()]), all, "{args:?} --top {longest}");
    // Everything but the lists is the same, cut or not.
    let strip = |v: &Value| {
        let mut v = v.clone();
        for &(list, _) in lists {
            v.as_object_mut().unwrap().remove(list);
        }
        v.as_object_mut().unwrap().remove("truncated");
        v
    };
    assert_eq!(strip(&one), strip(&all), "{args:?}: --top 1 changed more than the lists");
    let shown = text(args, profile, &[]);
    let whole = text(args, profile, &["--top", "0"]);
    for &(list, noun) in lists {
        let note = format!("showing 20 of {} {noun}; --top 0 for all", thousands(rows(&all, list).len()));
        assert_eq!(shown.lines().filter(|l| *l == note).count(), 1, "{args:?}: no line `{note}` in\n{shown}");
    }
    assert!(!whole.contains("showing"), "{args:?} --top 0 says it left something out:\n{whole}");
    all
}

#[test]
fn paths_json_is_complete() {
    let d = scratch("json-paths");
    for mode in ["paths", "trace", "grammar"] {
        let p = record(&d, mode, &["--mode", mode]);
        let all = check_limits(&["paths", "PROFILE"], &p, &[("paths", "paths")]);
        let counts: u64 = rows(&all, "paths").iter().map(|r| r["count"].as_u64().unwrap()).sum();
        assert_eq!(all["executions"].as_u64().unwrap(), counts, "{mode}");
        // The executions are of every path, also when the list is cut.
        assert_eq!(json_with(&["paths", "PROFILE"], &p, &["--top", "1"])["executions"], all["executions"], "{mode}");
        // One function's paths, and the totals of that function.
        let step = json_with(&["paths", "PROFILE", "--func", "step"], &p, &["--top", "1"]);
        let of_step: Vec<&Value> = rows(&all, "paths").iter().filter(|r| r["function"] == "step").collect();
        assert_eq!(total(&step, "paths"), of_step.len(), "{mode}");
        assert_eq!(step["executions"].as_u64().unwrap(), of_step.iter().map(|r| r["count"].as_u64().unwrap()).sum::<u64>(), "{mode}");
        assert_eq!(step["truncated"], of_step.len() > 1, "{mode}");
        // `wpp stats` counts the same paths.
        let stats = json(wpp().arg("stats").arg(&p).arg("--json"));
        assert_eq!(stats["distinct_paths"].as_u64().unwrap() as usize, total(&all, "paths"), "{mode}");
        if mode != "paths" {
            assert_eq!(stats["events"].as_u64().unwrap(), counts, "{mode}");
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn hot_json_is_complete() {
    let d = scratch("json-hot");
    let p = record(&d, "g", &[]);
    for args in [
        &["hot", "PROFILE", "--max-len", "1", "--min-cost", "1", "--cost", "paths"][..],
        &["hot", "PROFILE", "--max-len", "2", "--min-len", "2", "--min-cost", "4", "--cost", "paths"],
        &["hot", "PROFILE", "--max-len", "3", "--min-cost", "1000"],
    ] {
        check_limits(args, &p, &[("subpaths", "subpaths")]);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn query_json_is_complete() {
    let d = scratch("json-query");
    let p = record(&d, "g", &[]);
    let paths = json_with(&["paths", "PROFILE"], &p, &[]);
    let hottest = &rows(&paths, "paths")[0];
    let spec = format!("{}:{}", hottest["function"].as_str().unwrap(), hottest["path_id"]);
    for k in ["1", "2"] {
        let all = check_limits(&["query", "PROFILE", "context", &spec, "--k", k], &p, &[("contexts", "contexts")]);
        let counts: u64 = rows(&all, "contexts").iter().map(|c| c["count"].as_u64().unwrap()).sum();
        assert_eq!(all["executions"], hottest["count"], "k = {k}");
        assert_eq!(counts, hottest["count"].as_u64().unwrap(), "k = {k}: the contexts do not add up to the executions");
    }
    // Questions with one answer have no limit to cut them.
    let freq = json_with(&["query", "PROFILE", "freq", &spec, &spec], &p, &[]);
    assert_eq!(rows(&freq, "sequence").len(), 2);
    assert!(freq["frequency"].as_u64().is_some());
    let before = json_with(&["query", "PROFILE", "before", &spec, &spec], &p, &[]);
    assert_eq!(before["before"], true);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A function called 60 times whose loop runs 1 to 37 times: 37 distinct traces.
const MANY_TRACES: &str = r#"
(module
  (func $count (param $n i32) (result i32)
    (local $i i32)
    (loop $l
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $i))
  (func (export "_start")
    (local $k i32) (local $acc i32)
    (loop $l
      (local.set $acc (i32.add (local.get $acc)
        (call $count (i32.add (i32.rem_u (local.get $k) (i32.const 37)) (i32.const 1)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $k) (i32.const 60))))))
"#;

#[test]
fn trace_json_is_complete() {
    let d = scratch("json-trace");
    let wasm = d.join("traces.wasm");
    std::fs::write(&wasm, wat::parse_str(MANY_TRACES).unwrap()).unwrap();
    let profile = d.join("traces.wpp");
    ok(wpp().arg("record").arg("-o").arg(&profile).arg(&wasm));
    let twpp = d.join("traces.twpp");
    ok(wpp().args(["twpp", "build"]).arg(&profile).arg("-o").arg(&twpp));
    let all = check_limits(&["trace", "PROFILE", "--func", "0"], &twpp, &[("traces", "traces")]);
    assert_eq!(total(&all, "traces"), 37);
    let invocations: u64 = rows(&all, "traces").iter().map(|t| t["invocations"].as_u64().unwrap()).sum();
    assert_eq!(all["invocations"].as_u64().unwrap(), invocations);
    assert_eq!(invocations, 60);
    // One invocation's trace: the list holds that one, and its total says so.
    let call = json_with(&["trace", "PROFILE", "--func", "0", "--call", "38"], &twpp, &[]);
    assert_eq!((rows(&call, "traces").len(), total(&call, "traces"), &call["truncated"]), (1, 1, &Value::Bool(false)));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn ppp_report_json_is_complete() {
    let d = scratch("json-ppp");
    let p = record(&d, "paths", &["--mode", "paths"]);
    // Every other path interesting, so that both lists are long.
    let paths = json_with(&["paths", "PROFILE"], &p, &[]);
    let list: String = rows(&paths, "paths").iter().step_by(2).map(|r| format!("{}:{}\n", r["function_index"], r["path_id"])).collect();
    std::fs::write(d.join("list.txt"), list).unwrap();
    let set = d.join("set.json");
    ok(wpp().args(["ppp", "select"]).arg(&p).arg("--paths").arg(d.join("list.txt")).arg("-o").arg(&set));
    let field = record(&d, "field", &["--mode", "ppp", "--interesting", set.to_str().unwrap()]);
    let all = check_limits(&["ppp", "report", "PROFILE"], &field, &[("interesting", "interesting paths"), ("residual", "residual paths")]);
    // Both lists together are the path profile; the summary counts are of whole lists.
    assert_eq!(total(&all, "interesting") + total(&all, "residual"), total(&paths, "paths"));
    let sum = |list: &str| rows(&all, list).iter().map(|r| r["count"].as_u64().unwrap()).sum::<u64>();
    assert_eq!(all["interesting_executions"].as_u64().unwrap(), sum("interesting"));
    assert_eq!(all["residual_executions"].as_u64().unwrap(), sum("residual"));
    assert_eq!(sum("interesting") + sum("residual"), paths["executions"].as_u64().unwrap());
    let executed = rows(&all, "interesting").iter().filter(|r| r["count"].as_u64().unwrap() > 0).count();
    assert_eq!(all["interesting_executed"].as_u64().unwrap() as usize, executed);
    let hashed = rows(&all, "interesting").iter().filter(|r| r["counted"] == "hash").count();
    assert_eq!(all["interesting_hashed"].as_u64().unwrap() as usize, hashed);
    // Most executed first, in both lists.
    for list in ["interesting", "residual"] {
        let counts: Vec<u64> = rows(&all, list).iter().map(|r| r["count"].as_u64().unwrap()).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{list}: {counts:?}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// `wpp export` has no limit: every path count, and for a grammar profile every symbol.
#[test]
fn export_json_is_complete() {
    let d = scratch("json-export");
    let p = record(&d, "g", &[]);
    let e = json(wpp().arg("export").arg(&p).arg("--json"));
    let paths = json_with(&["paths", "PROFILE"], &p, &[]);
    assert_eq!(rows(&e, "counts").len(), total(&paths, "paths"));
    assert_eq!(rows(&e, "symbols").len(), total(&paths, "paths"));
    let counts: u64 = rows(&e, "counts").iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(counts, e["events"].as_u64().unwrap());
    std::fs::remove_dir_all(&d).unwrap();
}

/// 30 functions, each called a different number of times, each with a branch: more rows
/// than a text table shows.
fn many_functions() -> String {
    let mut m = String::from("(module\n");
    for k in 0..30 {
        m.push_str(&format!(
            "  (func $f{k} (param $x i32) (result i32)\n    (if (result i32) (i32.and (local.get $x) (i32.const {}))\n      (then (i32.add (local.get $x) (i32.const {k})))\n      (else (i32.mul (local.get $x) (i32.const 3)))))\n",
            k % 7 + 1
        ));
    }
    m.push_str("  (func (export \"_start\")\n    (local $i i32) (local $acc i32)\n    (loop $l\n");
    for k in 0..30 {
        // f_k runs on the iterations below 10 + 3k.
        m.push_str(&format!(
            "      (if (i32.lt_u (local.get $i) (i32.const {})) (then (local.set $acc (call $f{k} (i32.add (local.get $acc) (local.get $i))))))\n",
            10 + 3 * k
        ));
    }
    m.push_str("      (local.set $i (i32.add (local.get $i) (i32.const 1)))\n      (br_if $l (i32.lt_u (local.get $i) (i32.const 100))))))\n");
    m
}

#[test]
fn functions_json_is_complete() {
    let d = scratch("json-functions");
    let wasm = d.join("functions.wasm");
    std::fs::write(&wasm, wat::parse_str(many_functions()).unwrap()).unwrap();
    for mode in ["paths", "grammar"] {
        let p = d.join(format!("{mode}.wpp"));
        ok(wpp().args(["record", "--mode", mode, "-o"]).arg(&p).arg(&wasm));
        for sort in ["instructions", "executions", "paths", "name"] {
            let all = check_limits(&["functions", "PROFILE", "--sort", sort], &p, &[("functions", "functions")]);
            assert_eq!(total(&all, "functions"), 31, "{mode} {sort}");
            let executions: u64 = rows(&all, "functions").iter().map(|r| r["executions"].as_u64().unwrap()).sum();
            let instructions: u64 = rows(&all, "functions").iter().map(|r| r["instructions"].as_u64().unwrap()).sum();
            assert_eq!(all["executions"].as_u64().unwrap(), executions, "{mode} {sort}");
            assert_eq!(all["instructions"].as_u64().unwrap(), instructions, "{mode} {sort}");
            // The totals are of the whole run, also when the list is cut.
            let one = json_with(&["functions", "PROFILE", "--sort", sort], &p, &["--top", "1"]);
            assert_eq!((&one["executions"], &one["instructions"]), (&all["executions"], &all["instructions"]), "{mode} {sort}");
        }
        // The function table's instructions are the path profile's.
        let paths = json_with(&["paths", "PROFILE"], &p, &[]);
        let all = json_with(&["functions", "PROFILE"], &p, &[]);
        assert_eq!(all["instructions"], paths["instructions"], "{mode}");
        assert_eq!(all["executions"], paths["executions"], "{mode}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// `wpp annotate` has no limit: every block of the function, run or not.
#[test]
fn annotate_json_is_complete() {
    let d = scratch("json-annotate");
    let p = record(&d, "g", &[]);
    let export = json(wpp().arg("export").arg(&p).arg("--json"));
    for f in export["functions"].as_array().unwrap().iter().filter(|f| !f["cfg"].is_null()) {
        let name = f["name"].as_str().unwrap();
        let a = json_with(&["annotate", "PROFILE", "--func", name], &p, &[]);
        let blocks = a["blocks"].as_array().unwrap();
        assert_eq!(blocks.len(), f["cfg"]["blocks"].as_array().unwrap().len(), "{name}");
        assert!(blocks.iter().enumerate().all(|(i, b)| b["block"].as_u64() == Some(i as u64)), "{name}");
        assert_eq!(a["has_lines"], false);
        assert_eq!(rows(&a, "lines").len(), 0);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// `wpp deps`: 30 loads, each of a store's word, in an addresses recording and a filtering
/// run.
#[test]
fn deps_json_is_complete() {
    let d = scratch("json-deps");
    let wasm = d.join("deps.wasm");
    let mut m = String::from("(module (memory 1)\n  (func (export \"_start\") (local $s i32)\n");
    for k in 0..30 {
        m.push_str(&format!("    (i32.store (i32.const {}) (i32.const {k}))\n", 8 * k));
    }
    for k in 0..30 {
        m.push_str(&format!("    (local.set $s (i32.add (local.get $s) (i32.load (i32.const {}))))\n", 8 * k));
    }
    m.push_str("  ))\n");
    std::fs::write(&wasm, wat::parse_str(&m).unwrap()).unwrap();
    for mode in ["addresses", "ewpp-filter"] {
        let p = d.join(format!("{mode}.wpp"));
        ok(wpp().args(["record", "--mode", mode, "-o"]).arg(&p).arg(&wasm));
        let all = check_limits(&["deps", "PROFILE"], &p, &[("loads", "loads")]);
        assert_eq!(total(&all, "loads"), 30, "{mode}");
        let executions: u64 = rows(&all, "loads").iter().map(|r| r["executions"].as_u64().unwrap()).sum();
        assert_eq!(all["load_executions"].as_u64().unwrap(), executions, "{mode}");
        for r in rows(&all, "loads") {
            assert_eq!(r["writers"].as_array().unwrap().len(), 1, "{mode}: {r}");
        }
    }
    // A counter incremented 30 times: from its load, a chain of each length back to the
    // first increment and one back to the initial memory, past the text's 20 rows.
    let counter = d.join("counter.wasm");
    let m = "(module (memory 1) (func (export \"_start\") (local $i i32) (loop $l (i32.store (i32.const 16) (i32.add (i32.load (i32.const 16)) (i32.const 1))) (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $l (i32.lt_u (local.get $i) (i32.const 30))))))";
    std::fs::write(&counter, wat::parse_str(m).unwrap()).unwrap();
    let p = d.join("counter.wpp");
    ok(wpp().args(["record", "--mode", "addresses", "-o"]).arg(&p).arg(&counter));
    let module = counter.to_str().unwrap();
    let all = check_limits(&["deps", "PROFILE", "--use", "0x30", "--chain", "--module", module, "--depth", "16"], &p, &[("chains", "chains")]);
    assert_eq!(total(&all, "chains"), 32, "{all}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// A value computed through 25 functions in turn: its slice lists 26 functions (no
/// DWARF), past the text's 20.
#[test]
fn slice_json_is_complete() {
    let d = scratch("json-slice");
    let funcs: String = (1..=25).map(|k| format!("(func $g{k} (param i32) (result i32) (i32.add (local.get 0) (i32.const {k})))")).collect();
    let calls: String = (1..=25).fold("(i32.const 0)".to_string(), |acc, k| format!("(call $g{k} {acc})"));
    let m = format!("(module (memory 1) {funcs} (func (export \"_start\") (local $x i32) (local.set $x {calls}) (i32.store (i32.const 0) (local.get $x))))");
    let wasm = d.join("chain.wasm");
    std::fs::write(&wasm, wat::parse_str(&m).unwrap()).unwrap();
    let profile = d.join("chain.wpp");
    ok(wpp().arg("record").arg("-o").arg(&profile).arg(&wasm));
    let twpp = d.join("chain.twpp");
    ok(wpp().args(["twpp", "build"]).arg(&profile).arg("-o").arg(&twpp));
    let module = wasm.to_str().unwrap();
    // Slice local 0 at the store that ends _start (the last instruction but one).
    let all = check_limits(&["slice", "PROFILE", "--module", module, "--at", &store_at(&wasm), "--var", "local:0"], &twpp, &[("lines", "functions")]);
    assert_eq!(total(&all, "lines"), 26, "{all}");
    assert_eq!(all["criterion"]["defined_by"]["kind"], "instruction");
    std::fs::remove_dir_all(&d).unwrap();
}

/// The byte offset of the last store of the module's last function.
fn store_at(wasm: &Path) -> String {
    let bytes = std::fs::read(wasm).unwrap();
    let mut last = None;
    for payload in wasmparser::Parser::new(0).parse_all(&bytes) {
        if let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() {
            let mut ops = body.get_operators_reader().unwrap();
            while !ops.eof() {
                let at = ops.original_position();
                if matches!(ops.read().unwrap(), wasmparser::Operator::I32Store { .. }) {
                    last = Some(at);
                }
            }
        }
    }
    format!("{:#x}", last.unwrap())
}
