//! `wpp export --parquet / --pprof / --speedscope / --lcov` end to end, read by the tools
//! they are for, whose answers must equal wpp's own:
//!
//! * every real program's `test` run (whole program path) and `train` run (counts),
//!   exported with the labels `test` and `field` into one directory: DuckDB's answer to
//!   "paths executed in the field but never by the tests" equals the difference of the two
//!   runs' `wpp paths`, per module, and so does Dask's, on a local distributed cluster of
//!   worker processes; the tables' columns as DuckDB reads them are the documented schema;
//!   each test run's calling context tree adds up to `wpp functions`' instructions and
//!   path executions; the edges out of a block add up to its executions (from the paths'
//!   blocks) wherever all are known, but where a run stopped;
//! * Lua built with DWARF, two runs: DuckDB's distribution of `luaV_execute`'s paths per
//!   run equals `wpp paths`, and its hottest source lines over both runs equal
//!   `wpp annotate` of the two runs merged; a PPP run whose interesting paths are the test
//!   run's: DuckDB's residual paths equal `wpp ppp report`'s; the two runs merged and
//!   exported: each run's partition answers as the run exported alone;
//! * the same runs' pprof (`go tool pprof`), speedscope (speedscope's JSON schema) and
//!   lcov (`lcov --summary`, `genhtml`) files parse, and their totals equal
//!   `wpp functions` (instructions, paths) and `wpp annotate` (lines).
//!
//! Python with `duckdb` and `dask[distributed]` comes from `WPP_PYTHON` (scripts/test.sh
//! makes a virtual environment), `go`, `lcov` and `genhtml` from the system.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use serde_json::Value;
use wpp_test_support::workloads;

use crate::common;
use common::{json, ok, path_counts, scratch, wpp};

/// The Python that has DuckDB and Dask, or `None` after a skip note.
fn python(test: &str) -> Option<String> {
    let py = std::env::var("WPP_PYTHON").unwrap_or_else(|_| "python3".into());
    let has = Command::new(&py).args(["-c", "import duckdb, dask.distributed, fastjsonschema"]).output().is_ok_and(|o| o.status.success());
    if has {
        Some(py)
    } else {
        workloads::skip_or_fail(test, &format!("`{py}` cannot import duckdb, dask.distributed and fastjsonschema (scripts/test.sh installs them)"));
        None
    }
}

/// Whether `tool` runs (`tool ARG`), else a skip note.
fn have(test: &str, tool: &str, arg: &str) -> bool {
    let has = Command::new(tool).arg(arg).output().is_ok_and(|o| o.status.success());
    if !has {
        workloads::skip_or_fail(test, &format!("`{tool}` is not installed (scripts/test.sh installs it)"));
    }
    has
}

/// The answers of `tests/sql/questions.py` over `dir`.
fn questions(py: &str, dir: &Path, function: &str, dask: bool) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sql/questions.py");
    let mut cmd = Command::new(py);
    cmd.arg(script).arg(dir).arg(function);
    if dask {
        cmd.arg("--dask");
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "questions.py: {}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Exports `profile` into `dir` with `label`; the run's id (from the command's output).
fn export(profile: &Path, dir: &Path, label: &str) -> String {
    let out = String::from_utf8(ok(wpp().arg("export").arg(profile).arg("--parquet").arg(dir).args(["--label", label]))).unwrap();
    let line = out.lines().find_map(|l| l.strip_prefix("run ")).unwrap_or_else(|| panic!("no run line in: {out}"));
    line.trim().to_owned()
}

type Paths = BTreeSet<(u64, u64)>;

#[test]
fn field_paths_the_tests_missed_by_duckdb_and_dask() {
    let Some(py) = python("exports") else { return };
    let d = scratch("exports-parquet");
    let dir = d.join("tables");
    // module -> (paths the tests ran, paths the field ran)
    let seen: Mutex<BTreeMap<String, (Paths, Paths)>> = Mutex::new(BTreeMap::new());
    // run id of each test run -> (instructions, path executions) by `wpp functions`
    let totals_of: Mutex<BTreeMap<String, (u64, u64)>> = Mutex::new(BTreeMap::new());
    workloads::for_each_program("exports", |m, _, p| {
        let (prog, train) = m.run(&p.name, "train").unwrap();
        let (_, test) = m.run(&p.name, "test").unwrap();
        let (a, b) = (d.join(format!("{}-test.wpp", p.name)), d.join(format!("{}-train.wpp", p.name)));
        common::record_run(m, prog, test, &a, &[]);
        common::record_run(m, prog, train, &b, &["--mode", "paths"]);
        let id = export(&a, &dir, "test");
        export(&b, &dir, "field");
        totals_of.lock().unwrap().insert(id, totals(&a));
        let module = json(wpp().arg("stats").arg("--json").arg(&a))["module_sha256"].as_str().unwrap().to_owned();
        let mut s = seen.lock().unwrap();
        let e = s.entry(module).or_default();
        e.0.extend(path_counts(&a, &[]).into_keys());
        e.1.extend(path_counts(&b, &[]).into_keys());
    });
    let seen = seen.into_inner().unwrap();
    if seen.is_empty() {
        return;
    }
    let expected: BTreeSet<(u64, u64, u64)> =
        seen.iter().flat_map(|(m, (test, field))| field.difference(test).map(move |&(f, p)| (wpp_export::tables::module_key(m), f, p))).collect();
    let answers = questions(&py, &dir, "luaV_execute", true);
    let rows = |k: &str| -> BTreeSet<(u64, u64, u64)> {
        answers[k].as_array().unwrap().iter().map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap(), r[2].as_u64().unwrap())).collect()
    };
    assert_eq!(rows("q1"), expected, "DuckDB: paths the field ran and the tests did not, against `wpp paths` of each run");
    assert_eq!(rows("dask_q1"), expected, "Dask: paths the field ran and the tests did not, against `wpp paths` of each run");
    assert!(!expected.is_empty(), "the train runs reach paths the test runs do not");

    // The calling context tree of each test run: its own instructions and paths add up to
    // the run's (`wpp functions`), and the root's inclusive instructions are the run's.
    let totals_of = totals_of.into_inner().unwrap();
    let calls: BTreeMap<String, (u64, u64, u64)> = answers["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_str().unwrap().to_owned(), (r[1].as_u64().unwrap(), r[2].as_u64().unwrap(), r[4].as_u64().unwrap())))
        .collect();
    assert_eq!(calls.len(), totals_of.len(), "a call tree for every test run: {calls:?}");
    for (id, &(instructions, paths)) in &totals_of {
        assert_eq!(calls[id], (instructions, paths, instructions), "{id}: the call tree's totals against `wpp functions`");
    }
    // Edges: out of every block whose edges are all known, as many as the block ran,
    // but in the one block per run where the run stopped.
    let mut stopped: BTreeMap<String, u64> = BTreeMap::new();
    for r in answers["unbalanced"].as_array().unwrap() {
        let (execs, out) = (r[3].as_u64().unwrap(), r[4].as_u64().unwrap());
        assert_eq!(execs, out + 1, "edges out of a block against its executions: {r}");
        *stopped.entry(r[0].as_str().unwrap().to_owned()).or_default() += 1;
    }
    assert!(stopped.values().all(|&n| n == 1), "{stopped:?}");

    // The files hold the documented schema.
    for t in wpp_export::schema::SCHEMA {
        let Some(cols) = answers["schema"].get(t.name) else {
            assert!(matches!(t.name, "residual_paths"), "no `{}` table was written", t.name);
            continue;
        };
        let found: Vec<(String, String)> = cols.as_array().unwrap().iter().map(|c| (c[0].as_str().unwrap().into(), c[1].as_str().unwrap().into())).collect();
        let documented: Vec<(String, String)> = t.columns.iter().map(|c| (c.name.into(), c.ty.sql().into())).collect();
        assert_eq!(found, documented, "table `{}` as DuckDB reads it", t.name);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// Lua built with `-g` (`workloads/build.sh -g lua`), or `None` after a skip note.
fn debug_lua(test: &str) -> Option<(wpp_workloads::Manifest, PathBuf)> {
    if !workloads::real_programs_wanted(test) {
        return None;
    }
    let m = workloads::manifest();
    let wasm = m.dir.join("build/debug/lua.wasm");
    if wasm.exists() {
        Some((m, wasm))
    } else {
        workloads::skip_or_fail(test, &format!("{} is missing (`workloads/build.sh -g lua` builds it)", wasm.display()));
        None
    }
}

/// Lua with DWARF recorded on two runs: `whole` with its whole program path, the other of
/// `test` and `train` with counts only; their profiles in that order.
fn lua_runs(test: &str, d: &Path, whole: &str) -> Option<(PathBuf, PathBuf)> {
    let (m, wasm) = debug_lua(test)?;
    let mut runs = Vec::new();
    let other = if whole == "test" { "train" } else { "test" };
    for (run, mode) in [(whole, "grammar"), (other, "paths")] {
        let (p, r) = m.run("lua", run).unwrap();
        let mut p = p.clone();
        p.wasm = wasm.display().to_string();
        let out = d.join(format!("lua-{run}.wpp"));
        common::record_run(&m, &p, r, &out, &["--mode", mode]);
        runs.push(out);
    }
    Some((runs[0].clone(), runs[1].clone()))
}

/// (file, line) -> (executions, instructions) of every line `wpp annotate --file FILE`
/// gives for `profile`.
fn annotated(profile: &Path, file: &str) -> BTreeMap<(String, u64), (u64, u64)> {
    let v = json(wpp().arg("annotate").arg(profile).arg(file).arg("--json"));
    v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            ((l["file"].as_str().unwrap().to_owned(), l["line"].as_u64().unwrap()), (l["executions"].as_u64().unwrap(), l["instructions"].as_u64().unwrap()))
        })
        .collect()
}

#[test]
fn lua_distribution_and_hottest_lines_by_duckdb() {
    let Some(py) = python("exports-lines") else { return };
    let d = scratch("exports-lines");
    let Some((test, train)) = lua_runs("exports-lines", &d, "test") else { return };
    let dir = d.join("tables");
    let ids = [export(&test, &dir, "test"), export(&train, &dir, "field")];
    // The train run again with the test run's paths as the interesting set (PPP): what
    // ran outside it are its residual paths.
    let (set, ppp) = (d.join("set.json"), d.join("lua-ppp.wpp"));
    ok(wpp().args(["ppp", "select", "--all-executed", "-o"]).arg(&set).arg(&test));
    {
        let (m, wasm) = debug_lua("exports-lines").unwrap();
        let (p, r) = m.run("lua", "train").unwrap();
        let mut p = p.clone();
        p.wasm = wasm.display().to_string();
        common::record_run(&m, &p, r, &ppp, &["--mode", "ppp", "--interesting", &set.display().to_string()]);
    }
    let ppp_dir = d.join("ppp-tables");
    export(&ppp, &ppp_dir, "ppp");
    let report = json(wpp().args(["ppp", "report", "--json"]).arg(&ppp));
    let expected: BTreeSet<(u64, u64, u64)> = report["residual"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["function_index"].as_u64().unwrap(), r["path_id"].as_u64().unwrap(), r["count"].as_u64().unwrap()))
        .collect();
    let found: BTreeSet<(u64, u64, u64)> = questions(&py, &ppp_dir, "luaV_execute", false)["residual"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].as_u64().unwrap(), r[1].as_u64().unwrap(), r[2].as_u64().unwrap()))
        .collect();
    assert_eq!(found, expected, "DuckDB's residual paths against `wpp ppp report`");
    assert!(!expected.is_empty(), "the train run leaves the test run's paths");
    let answers = questions(&py, &dir, "luaV_execute", false);

    // One function's paths in each run: `wpp paths` of that run.
    for (id, profile) in ids.iter().zip([&test, &train]) {
        let rows = json(wpp().args(["paths", "--json", "--top", "0", "--func", "luaV_execute"]).arg(profile));
        let expected: BTreeMap<u64, u64> =
            rows["paths"].as_array().unwrap().iter().map(|x| (x["path_id"].as_u64().unwrap(), x["count"].as_u64().unwrap())).collect();
        let q2 = answers["q2"].as_array().unwrap().iter().filter(|r| r[0] == id.as_str());
        let found: BTreeMap<u64, u64> = q2.clone().map(|r| (r[1].as_u64().unwrap(), r[2].as_u64().unwrap())).collect();
        assert_eq!(found, expected, "{id}: luaV_execute's paths by DuckDB against `wpp paths --func`");
        let total: u64 = expected.values().sum();
        for r in q2 {
            let share = r[3].as_f64().unwrap();
            assert!((share - r[2].as_u64().unwrap() as f64 / total as f64).abs() < 1e-9, "{id}: {r}");
        }
    }

    // The hottest lines over both runs: `wpp annotate` of the merged runs, file by file.
    let merged = d.join("both.wpp");
    ok(wpp().arg("merge").arg(&test).arg(&train).arg("-o").arg(&merged));
    // A merged profile's export: each run its own partition, as exported alone.
    let merged_dir = d.join("merged-tables");
    let out = String::from_utf8(ok(wpp().arg("export").arg(&merged).arg("--parquet").arg(&merged_dir))).unwrap();
    let merged_ids: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("run ")).collect();
    assert_eq!(merged_ids.len(), 2, "{out}");
    let per_run = |answers: &Value, id: &str| -> BTreeMap<u64, u64> {
        answers["q2"].as_array().unwrap().iter().filter(|r| r[0] == id).map(|r| (r[1].as_u64().unwrap(), r[2].as_u64().unwrap())).collect()
    };
    let again = questions(&py, &merged_dir, "luaV_execute", false);
    for (alone, merged_id) in ids.iter().zip(&merged_ids) {
        assert!(merged_id.ends_with(&format!("-r{}", if alone == &ids[0] { 1 } else { 2 })), "{merged_id}");
        assert_eq!(per_run(&again, merged_id), per_run(&answers, alone), "{merged_id}: as {alone} exported alone");
    }
    assert_eq!(again["q3"], answers["q3"], "the hottest lines of the merged export");

    let q3 = answers["q3"].as_array().unwrap();
    assert_eq!(q3.len(), 20, "{q3:?}");
    let files: BTreeSet<&str> = q3.iter().map(|r| r[0].as_str().unwrap()).collect();
    let mut lines = BTreeMap::new();
    for f in &files {
        lines.extend(annotated(&merged, f));
    }
    for r in q3 {
        let key = (r[0].as_str().unwrap().to_owned(), r[1].as_u64().unwrap());
        assert_eq!(
            lines.get(&key),
            Some(&(r[3].as_u64().unwrap(), r[2].as_u64().unwrap())),
            "{key:?}: DuckDB's (executions, instructions) against `wpp annotate`"
        );
    }
    // No line of those files is hotter than the 20th DuckDB found.
    let last = q3[19][2].as_u64().unwrap();
    let found: BTreeSet<(String, u64)> = q3.iter().map(|r| (r[0].as_str().unwrap().to_owned(), r[1].as_u64().unwrap())).collect();
    for (k, (_, instrs)) in &lines {
        assert!(found.contains(k) || *instrs <= last, "{k:?} ran {instrs} instructions, more than DuckDB's 20th hottest line");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// `wpp functions --json`'s totals: (instructions, path executions).
fn totals(profile: &Path) -> (u64, u64) {
    let v = json(wpp().args(["functions", "--json", "--top", "1"]).arg(profile));
    (v["instructions"].as_u64().unwrap(), v["executions"].as_u64().unwrap())
}

#[test]
fn viewers_read_pprof_speedscope_and_lcov() {
    let test = "exports-viewers";
    let Some(py) = python(test) else { return };
    if !have(test, "go", "version") || !have(test, "genhtml", "--version") || !have(test, "lcov", "--version") {
        return;
    }
    let d = scratch(test);
    // The smaller run has the timeline (a JSON event per call and return): 1.2 million calls.
    let Some((grammar, counts)) = lua_runs(test, &d, "train") else { return };
    for profile in [&grammar, &counts] {
        let whole = profile == &grammar;
        let (pb, ss, info) = (d.join("lua.pb.gz"), d.join("lua.speedscope.json"), d.join("lua.info"));
        ok(wpp().arg("export").arg(profile).arg("--pprof").arg(&pb).arg("--speedscope").arg(&ss).arg("--timeline-marks").arg("0").arg("--lcov").arg(&info));
        let (instructions, paths) = totals(profile);

        // pprof: go tool pprof's totals of both sample types.
        for (index, want) in [("instructions", instructions), ("paths", paths)] {
            let o = Command::new("go").args(["tool", "pprof", "-top", "-nodecount=1", &format!("-sample_index={index}")]).arg(&pb).output().unwrap();
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "go tool pprof: {}", String::from_utf8_lossy(&o.stderr));
            let total = text.lines().find_map(|l| l.split("% of ").nth(1)).and_then(|t| t.split_whitespace().next()).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(total.parse::<u64>().unwrap(), want, "go tool pprof's {index} total (whole path: {whole}): {text}");
        }

        // speedscope: its schema, the sampled weights' total, a nested timeline.
        let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/node_modules/speedscope/dist/release/file-format-schema.json");
        let check = "import json,sys,fastjsonschema; fastjsonschema.compile(json.load(open(sys.argv[2])))(json.load(open(sys.argv[1])))";
        let o = Command::new(&py).args(["-c", check]).arg(&ss).arg(&schema).output().unwrap();
        assert!(o.status.success(), "speedscope's schema: {}", String::from_utf8_lossy(&o.stderr));
        let doc: Value = serde_json::from_slice(&std::fs::read(&ss).unwrap()).unwrap();
        let profiles = doc["profiles"].as_array().unwrap();
        let weights: u64 = profiles[0]["weights"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
        assert_eq!(weights, instructions, "speedscope's sampled weights");
        assert_eq!(profiles.len(), if whole { 2 } else { 1 }, "a timeline only for a whole program path");
        if whole {
            let mut open: Vec<u64> = Vec::new();
            let mut at = 0;
            // `wpp twpp build` says how many invocations it split the run into.
            let o = wpp().args(["twpp", "build"]).arg(profile).arg("-o").arg(d.join("lua.twpp")).output().unwrap();
            let said = String::from_utf8_lossy(&o.stderr);
            let invocations: u64 =
                said.split(" invocations").next().and_then(|s| s.rsplit(' ').next()).unwrap_or_else(|| panic!("{said}")).replace(',', "").parse().unwrap();
            let mut opened = 0u64;
            for e in profiles[1]["events"].as_array().unwrap() {
                let (f, t) = (e["frame"].as_u64().unwrap(), e["at"].as_u64().unwrap());
                assert!(t >= at, "the timeline goes forward");
                at = t;
                if e["type"] == "O" {
                    open.push(f);
                    opened += 1;
                } else {
                    assert_eq!(open.pop(), Some(f), "a frame closes after those it opened");
                }
            }
            assert!(open.is_empty());
            assert_eq!(at, instructions, "the timeline ends with the run");
            assert_eq!(opened, invocations, "calls in the timeline against the TWPP's invocations");

            // Cut to a limit: the calls kept and those it says it left out are all of them,
            // every call kept is at least as long as it says, and the rest still nests.
            let limit = 200_000;
            let cut = d.join("lua.cut.speedscope.json");
            let said =
                String::from_utf8(ok(wpp().arg("export").arg(profile).arg("--speedscope").arg(&cut).arg("--timeline-marks").arg(limit.to_string()))).unwrap();
            let words: Vec<&str> = said.split_whitespace().collect();
            let after = |w: &str| words.iter().position(|x| *x == w).and_then(|i| words.get(i + 1)).map(|n| n.replace(',', "").parse::<u64>().unwrap());
            let (left_out, shortest) = (after("out").unwrap_or_else(|| panic!("{said}")), after("than").unwrap_or_else(|| panic!("{said}")));
            let doc: Value = serde_json::from_slice(&std::fs::read(&cut).unwrap()).unwrap();
            let events = doc["profiles"][1]["events"].as_array().unwrap();
            assert!(events.len() <= limit, "{} marks kept, limit {limit}", events.len());
            let mut open: Vec<(u64, u64)> = Vec::new();
            let mut kept = 0u64;
            for e in events {
                let (f, t) = (e["frame"].as_u64().unwrap(), e["at"].as_u64().unwrap());
                if e["type"] == "O" {
                    open.push((f, t));
                    kept += 1;
                } else {
                    let (g, start) = open.pop().unwrap();
                    assert_eq!(g, f, "a frame closes after those it opened");
                    assert!(t - start >= shortest, "a call of {} instructions kept, under {shortest}", t - start);
                }
            }
            assert_eq!(kept + left_out, invocations, "calls kept and left out against the TWPP's invocations");
        }

        // lcov: lcov's own summary, genhtml, and every line's count against `wpp annotate`.
        let o = Command::new("lcov").args(["--rc", "lcov_branch_coverage=1", "--summary"]).arg(&info).output().unwrap();
        let summary = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "lcov --summary: {summary}");
        let text = std::fs::read_to_string(&info).unwrap();
        let (mut da, mut hit) = (BTreeMap::new(), 0);
        let mut file = String::new();
        for l in text.lines() {
            if let Some(f) = l.strip_prefix("SF:") {
                file = f.to_owned();
            } else if let Some(r) = l.strip_prefix("DA:") {
                let (line, n) = r.split_once(',').unwrap();
                let n: u64 = n.parse().unwrap();
                hit += u64::from(n > 0);
                da.insert((file.clone(), line.parse::<u64>().unwrap()), n);
            }
        }
        assert!(summary.contains(&format!("({hit} of {} lines)", da.len())), "lcov's line totals: {summary}");
        let html = d.join("html");
        let o = Command::new("genhtml").args(["--quiet", "--branch-coverage", "--ignore-errors", "source", "-o"]).arg(&html).arg(&info).output().unwrap();
        assert!(o.status.success(), "genhtml: {}", String::from_utf8_lossy(&o.stderr));
        assert!(html.join("index.html").exists());
        let files: BTreeSet<String> = da.keys().map(|k| k.0.clone()).collect();
        let mut lines = BTreeMap::new();
        for f in &files {
            lines.extend(annotated(profile, f).into_iter().map(|(k, v)| (k, v.0)));
        }
        assert_eq!(da, lines, "lcov's DA counts against `wpp annotate` (whole path: {whole})");
        assert!(text.contains("FNDA:1,main\n"), "main runs once");
    }
    std::fs::remove_dir_all(&d).unwrap();
}
