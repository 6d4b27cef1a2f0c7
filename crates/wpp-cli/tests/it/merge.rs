//! `wpp merge` end to end, against each input read alone:
//!
//! * on every real program of `workloads/` (built by `workloads/build.sh`): its `train`
//!   run counted (`--mode paths`) and its `test` run's whole program path (the default
//!   grammar) merge into a profile whose path counts are the sum of the two profiles'
//!   (`wpp paths --json`), whose run 2 reads as the grammar profile did (`paths`, `hot`
//!   and `stats` give the same JSON), and merging three inputs as (A B) C or as A (B C)
//!   gives the same bytes;
//! * the runs' whole program paths read together: the test run merged with itself has the
//!   same hot subpaths as alone, twice as frequent and costly; the test and train runs
//!   (both grammars) merged: every subpath `wpp hot` finds is as frequent as `wpp query
//!   freq` says of each run added up, hot, and minimal; a run of counts only is said to
//!   have no whole program path;
//! * `wpp diff` of the two lists every path either executed once, each side's counts
//!   being that profile's `wpp paths`;
//! * profiles of two modules are refused, naming both files, and leave no output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use wpp_workloads::Manifest;

use crate::common;
use common::{json, ok, path_counts, run, scratch, wpp};

type Counts = BTreeMap<(u64, u64), u64>;

/// Every path's count in `wpp paths --json` of `profile`, or of its run `run`.
fn counts_of(profile: &Path, run: Option<usize>) -> Counts {
    let n = run.map(|n| n.to_string());
    match &n {
        Some(n) => path_counts(profile, &["--run", n]),
        None => path_counts(profile, &[]),
    }
}

/// Fails naming the first paths (at most 5) whose counts differ.
fn same_counts(name: &str, what: &str, found: &Counts, expected: &Counts) {
    let keys: std::collections::BTreeSet<_> = found.keys().chain(expected.keys()).collect();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|k| found.get(k) != expected.get(k))
        .take(5)
        .map(|k| format!("{k:?}: {:?} against {:?}", found.get(k), expected.get(k)))
        .collect();
    assert!(differ.is_empty(), "{name}: {what} differ (function, path): {}", differ.join("; "));
}

fn merge(inputs: &[&Path], out: &Path) {
    ok(wpp().arg("merge").args(inputs).arg("-o").arg(out));
}

/// A command's JSON on `profile`, or on its run `run`.
fn answer(args: &[&str], profile: &Path, run: Option<usize>) -> Value {
    let mut cmd = wpp();
    cmd.args(args).arg(profile).arg("--json");
    if let Some(n) = run {
        cmd.args(["--run", &n.to_string()]);
    }
    json(&mut cmd)
}

wpp_test_support::real_programs!(all_programs, |m, _, p| check(m, &p.name));

fn check(m: &Manifest, name: &str) {
    let (p, train) = m.run(name, "train").unwrap();
    let (_, test) = m.run(name, "test").unwrap();
    let d = scratch(&format!("merge-{name}"));
    let (a, b) = (d.join("train.wpp"), d.join("test.wpp"));
    common::record_run(m, p, train, &a, &["--mode", "paths"]);
    common::record_run(m, p, test, &b, &[]);
    let ab = d.join("ab.wpp");
    merge(&[&a, &b], &ab);

    let (in_a, in_b) = (counts_of(&a, None), counts_of(&b, None));
    let mut sum = in_a.clone();
    for (k, n) in &in_b {
        *sum.entry(*k).or_insert(0) += n;
    }
    same_counts(name, "the merged counts against the sum of the runs'", &counts_of(&ab, None), &sum);
    same_counts(name, "run 1 of the merge against its profile", &counts_of(&ab, Some(1)), &in_a);

    // `wpp diff`: each side is its profile's `wpp paths`, over every path either ran.
    let diff = json(wpp().arg("diff").arg(&a).arg(&b).arg("--json"));
    let side = |k: &str| -> Counts {
        diff["paths"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x[k].as_u64().unwrap() > 0)
            .map(|x| ((x["function_index"].as_u64().unwrap(), x["path_id"].as_u64().unwrap()), x[k].as_u64().unwrap()))
            .collect()
    };
    same_counts(name, "`wpp diff`'s A side against the first profile's paths", &side("count_a"), &in_a);
    same_counts(name, "`wpp diff`'s B side against the second profile's paths", &side("count_b"), &in_b);
    assert_eq!(diff["paths"].as_array().unwrap().len(), sum.len(), "{name}: `wpp diff` lists every path either run executed once");
    let only = |k: &str| diff["paths"].as_array().unwrap().iter().filter(|x| x["only"] == k).count() as u64;
    assert_eq!((only("a"), only("b")), (diff["only_a"].as_u64().unwrap(), diff["only_b"].as_u64().unwrap()), "{name}");
    assert_eq!(only("b") as usize, in_b.keys().filter(|k| !in_a.contains_key(k)).count(), "{name}: paths only the test run executed");

    // Run 2 reads as the grammar profile it came from.
    for args in [&["paths", "--top", "0"][..], &["hot", "--top", "0"], &["stats"]] {
        let (mut merged, mut alone) = (answer(args, &ab, Some(2)), answer(args, &b, None));
        if args[0] == "stats" {
            // The sections are named alike, but the merged file lays them out with others.
            for v in [&mut merged, &mut alone] {
                v.as_object_mut().unwrap().remove("sections");
            }
        }
        assert_eq!(merged, alone, "{name}: `wpp {}` of run 2 of the merge and of its profile", args.join(" "));
    }
    // All runs' whole program paths as one, with no subpath across a run boundary: the
    // test run merged with itself has the same minimal hot subpaths, each twice as
    // frequent and costly; a query's frequency is the sum of the runs'. A run of counts
    // only has no whole program path, which is said.
    let bb = d.join("bb.wpp");
    merge(&[&b, &b], &bb);
    let (twice, once) = (answer(&["hot", "--top", "0"], &bb, None), answer(&["hot", "--top", "0"], &b, None));
    let doubled: Vec<Value> = once["subpaths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let mut h = h.clone();
            for k in ["frequency", "cost", "disjoint", "disjoint_cost"] {
                h[k] = (h[k].as_u64().unwrap() * 2).into();
            }
            h
        })
        .collect();
    assert_eq!(twice["subpaths"].as_array().unwrap(), &doubled, "{name}: hot subpaths of a run merged with itself");
    assert_eq!(twice["run_cost"].as_u64().unwrap(), 2 * once["run_cost"].as_u64().unwrap(), "{name}");
    // Two different runs: each subpath found is as frequent as in the two runs together
    // (`query freq` of each run), hot, and minimal (no shorter prefix is hot).
    let c = d.join("train-grammar.wpp");
    common::record_run(m, p, train, &c, &[]);
    let bc = d.join("bc.wpp");
    merge(&[&b, &c], &bc);
    let hot = answer(&["hot", "--top", "0"], &bc, None);
    let least = (hot["run_cost"].as_u64().unwrap() as f64 / 100.0).ceil() as u64;
    let instrs: BTreeMap<String, u64> = json(wpp().args(["paths", "--json", "--top", "0"]).arg(&bc))["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (format!("{}:{}", x["function_index"], x["path_id"]), x["instructions"].as_u64().unwrap()))
        .collect();
    let freq = |seq: &[String], run: Option<&str>| -> u64 {
        let mut cmd = wpp();
        cmd.arg("query").arg(&bc).arg("--json");
        if let Some(n) = run {
            cmd.args(["--run", n]);
        }
        json(cmd.arg("freq").args(seq))["frequency"].as_u64().unwrap()
    };
    for h in hot["subpaths"].as_array().unwrap().iter().take(4) {
        let seq: Vec<String> = h["paths"].as_array().unwrap().iter().map(|p| format!("{}:{}", p["function_index"], p["path_id"])).collect();
        let f = h["frequency"].as_u64().unwrap();
        assert_eq!(f, freq(&seq, Some("1")) + freq(&seq, Some("2")), "{name}: {seq:?}: the runs' frequencies add up");
        assert_eq!(f, freq(&seq, None), "{name}: {seq:?}: `query freq` of all runs");
        let cost = |seq: &[String], f: u64| f * seq.iter().map(|x| instrs[x]).sum::<u64>();
        assert_eq!(h["cost"].as_u64().unwrap(), cost(&seq, f), "{name}: {seq:?}");
        assert!(cost(&seq, f) >= least, "{name}: {seq:?} is hot");
        for k in 1..seq.len() {
            let pre = &seq[..k];
            assert!(cost(pre, freq(pre, None)) < least, "{name}: {seq:?}: its prefix {pre:?} is hot already");
        }
    }
    let refused = run(wpp().args(["hot", "--json"]).arg(&ab));
    let msg = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && msg.contains("run 1 holds path counts only"), "{name}: {msg}");

    let stats = answer(&["stats"], &ab, None);
    let runs = stats["merged_runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "{name}: {stats}");
    assert_eq!(runs[1]["file"].as_str().unwrap(), b.display().to_string());

    // Associative: the same runs in the same order give the same file.
    let (bc, ab_c, a_bc) = (d.join("bc.wpp"), d.join("ab-c.wpp"), d.join("a-bc.wpp"));
    merge(&[&b, &a], &bc);
    merge(&[&ab, &bc], &ab_c);
    merge(&[&a, &b, &bc], &a_bc);
    let left = std::fs::read(&ab_c).unwrap();
    assert!(left == std::fs::read(&a_bc).unwrap(), "{name}: (A B) (B A) and A B (B A) differ");
    let direct = d.join("direct.wpp");
    merge(&[&a, &b, &b, &a], &direct);
    assert!(left == std::fs::read(&direct).unwrap(), "{name}: merging merged profiles differs from merging their runs");
    std::fs::remove_dir_all(&d).unwrap();
}

/// `NAME.wat` of `tests/cli`, compiled into `dir`, recorded into `dir/NAME.wpp`.
fn recorded(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/cli/{name}.wat"));
    let wasm = dir.join(format!("{name}.wasm"));
    std::fs::write(&wasm, wat::parse_file(&src).unwrap()).unwrap();
    let out = dir.join(format!("{name}.wpp"));
    let o = wpp().args(["record", "--mode", "paths", "-o"]).arg(&out).arg(&wasm).stdout(std::process::Stdio::null()).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn another_module_is_refused() {
    let d = scratch("merge-modules");
    let (a, b) = (recorded(&d, "branchy"), recorded(&d, "calls"));
    let out = d.join("all.wpp");
    let o = run(wpp().arg("merge").arg(&a).arg(&b).arg("-o").arg(&out));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("{}: cannot be merged with {}: it was recorded from another module", b.display(), a.display())), "{err}");
    assert!(!out.exists(), "a failed merge left {}", out.display());
    std::fs::remove_dir_all(&d).unwrap();
}
