//! `wpp ppp select`: the interesting-path sets it writes, against the path profile.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common;
use common::{ok, path_counts, run, scratch, wpp};

/// A profile of a .wat program with several functions and many paths.
fn profile(d: &Path) -> PathBuf {
    let wasm = d.join("p.wasm");
    std::fs::write(&wasm, wpp_test_support::corpus::bytes("br_table")).unwrap();
    let p = d.join("p.wpp");
    ok(wpp().args(["record", "--mode", "paths", "-o"]).arg(&p).arg(&wasm));
    p
}

fn select(p: &Path, out: &Path, how: &[&str]) -> Value {
    ok(wpp().args(["ppp", "select"]).arg(p).args(how).arg("-o").arg(out));
    serde_json::from_slice(&std::fs::read(out).unwrap()).unwrap()
}

fn chosen(set: &Value) -> BTreeMap<(u64, u64), u64> {
    set["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| ((x["function_index"].as_u64().unwrap(), x["path_id"].as_u64().unwrap()), x["count"].as_u64().unwrap()))
        .collect()
}

#[test]
fn all_executed_is_the_path_profile() {
    let d = scratch("ppp-all");
    let p = profile(&d);
    let set = select(&p, &d.join("set.json"), &["--all-executed"]);
    assert_eq!(chosen(&set), path_counts(&p, &[]));
    assert_eq!(set["module"], "p.wasm");
    assert!(set["module_bytes"].as_u64().unwrap() > 0);
    for x in set["paths"].as_array().unwrap() {
        assert!(x["function"].is_string());
    }
    // One entry per function with interesting paths; every rho at least 1.
    let funcs = set["functions"].as_array().unwrap();
    let mut per_func: BTreeMap<u64, usize> = BTreeMap::new();
    for (f, _) in chosen(&set).keys().map(|k| (k.0, k.1)) {
        *per_func.entry(f).or_default() += 1;
    }
    assert_eq!(funcs.len(), per_func.len());
    for f in funcs {
        assert_eq!(f["n_interesting"].as_u64().unwrap() as usize, per_func[&f["function_index"].as_u64().unwrap()]);
        assert!(f["rho"].as_f64().unwrap() >= 1.0);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn hot_takes_the_fewest_hottest_paths() {
    let d = scratch("ppp-hot");
    let p = profile(&d);
    let all = path_counts(&p, &[]);
    let total: u64 = all.values().sum();
    for percent in [1.0, 30.0, 50.0, 90.0, 100.0] {
        let set = chosen(&select(&p, &d.join("set.json"), &["--hot", &percent.to_string()]));
        let sum: u64 = set.values().sum();
        assert!(sum as f64 >= total as f64 * percent / 100.0, "{percent}%: {sum} of {total}");
        // Without its coolest path the set falls short, and nothing left out is hotter.
        let coolest = *set.values().min().unwrap();
        assert!(((sum - coolest) as f64) < total as f64 * percent / 100.0, "{percent}%: not the fewest");
        assert!(all.iter().filter(|(k, _)| !set.contains_key(k)).all(|(_, &c)| c <= coolest));
        for (k, c) in &set {
            assert_eq!(all[k], *c);
        }
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn listed_paths_and_their_errors() {
    let d = scratch("ppp-list");
    let p = profile(&d);
    let all = path_counts(&p, &[]);
    let (&(f, path), _) = all.iter().next().unwrap();
    let list = d.join("list.txt");
    std::fs::write(&list, format!("# chosen by hand\n{f}:{path}  # the first\n\n")).unwrap();
    let set = chosen(&select(&p, &d.join("set.json"), &["--paths", list.to_str().unwrap()]));
    assert_eq!(set.keys().copied().collect::<Vec<_>>(), [(f, path)]);
    std::fs::write(&list, format!("{f}:{path}\nnosuch:1\n")).unwrap();
    let out = run(wpp().args(["ppp", "select"]).arg(&p).arg("--paths").arg(&list).arg("-o").arg(d.join("x.json")));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("list.txt:2") && err.contains("no function named `nosuch`"), "{err}");
    let out = run(wpp().args(["ppp", "select"]).arg(&p).arg("-o").arg(d.join("x.json")));
    assert!(!out.status.success(), "a selection is required");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Records `wasm` with the interesting paths of `set` (and `extra` arguments); the
/// report's JSON.
fn record_ppp(d: &Path, wasm: &Path, set: &Path, extra: &[&str]) -> Value {
    let field = d.join("field.wpp");
    ok(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(set).args(extra).arg("-o").arg(&field).arg(wasm));
    serde_json::from_slice(&ok(wpp().args(["ppp", "report", "--json"]).arg(&field))).unwrap()
}

fn keyed(rows: &Value, field: &str) -> BTreeMap<(u64, u64), u64> {
    rows.as_array().unwrap().iter().map(|x| ((x["function_index"].as_u64().unwrap(), x["path_id"].as_u64().unwrap()), x[field].as_u64().unwrap())).collect()
}

#[test]
fn report_splits_the_profile_into_interesting_and_residual_paths() {
    let d = scratch("ppp-report");
    let p = profile(&d);
    let wasm = d.join("p.wasm");
    let all = path_counts(&p, &[]);
    for (how, everywhere) in [(&["--hot", "60"][..], true), (&["--all-executed"], true), (&["--hot", "1"], true), (&["--hot", "60"], false)] {
        let set = select(&p, &d.join("set.json"), how);
        let chosen = chosen(&set);
        let extra: &[&str] = if everywhere { &["--ppp-everywhere"] } else { &[] };
        let r = record_ppp(&d, &wasm, &d.join("set.json"), extra);
        // The same run: interesting paths keep their counts, the rest are residual.
        let interesting = keyed(&r["interesting"], "count");
        assert_eq!(interesting, chosen, "{how:?}");
        let residual = keyed(&r["residual"], "count");
        let want: BTreeMap<_, _> = all.iter().filter(|(k, _)| !chosen.contains_key(k)).map(|(&k, &v)| (k, v)).collect();
        assert_eq!(residual, want, "{how:?}");
        for x in r["residual"].as_array().unwrap() {
            assert!(!x["blocks"].as_array().unwrap().is_empty() && !x["source"].as_array().unwrap().is_empty());
        }
        // Per function: n_interesting, rho as the set file has it, and slots for all.
        let funcs = r["functions"].as_array().unwrap();
        assert_eq!(funcs.len(), set["functions"].as_array().unwrap().len());
        for (f, s) in funcs.iter().zip(set["functions"].as_array().unwrap()) {
            assert_eq!(f["function_index"], s["function_index"]);
            assert_eq!(f["n_interesting"], s["n_interesting"]);
            assert!((f["rho"].as_f64().unwrap() - s["rho"].as_f64().unwrap()).abs() < 1e-9);
            // This program's functions have few paths: Ball-Larus arrays unless PPP everywhere.
            assert_eq!(f["counters"], if everywhere { "slots" } else { "array" });
            assert_eq!(f["slots"].as_u64().unwrap() > 0, everywhere);
        }
        for x in r["interesting"].as_array().unwrap() {
            assert_eq!(x["counted"], if everywhere { "slot" } else { "array" });
        }
    }
    // The text report names both lists and the compactness table.
    let text = String::from_utf8(ok(wpp().args(["ppp", "report"]).arg(d.join("field.wpp")))).unwrap();
    assert!(
        text.contains("residual paths, most executed first") && text.contains("interesting paths, most executed first") && text.contains("mean rho"),
        "{text}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn ppp_mode_errors_name_what_is_wrong() {
    let d = scratch("ppp-errors");
    let p = profile(&d);
    let wasm = d.join("p.wasm");
    let set = d.join("set.json");
    select(&p, &set, &["--all-executed"]);
    let fails = |cmd: &mut std::process::Command, want: &[&str]| {
        let out = run(cmd);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(want.iter().all(|w| err.contains(w)), "{err}");
    };
    fails(wpp().args(["record", "--mode", "ppp"]).arg(&wasm), &["--mode ppp needs --interesting"]);
    fails(wpp().args(["record", "--mode", "paths", "--interesting"]).arg(&set).arg(&wasm), &["--interesting is for --mode ppp"]);
    fails(wpp().args(["record", "--mode", "paths", "--ppp-everywhere"]).arg(&wasm), &["--ppp-everywhere is for --mode ppp"]);
    // Another module.
    let other = d.join("other.wasm");
    std::fs::write(&other, wat::parse_str("(module (func (export \"_start\")))").unwrap()).unwrap();
    fails(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(&set).arg(&other), &["set.json", "other.wasm", "bytes"]);
    // A set naming a function the module does not have at that index.
    let mut v: Value = serde_json::from_slice(&std::fs::read(&set).unwrap()).unwrap();
    v["paths"][0]["function"] = "renamed".into();
    std::fs::write(d.join("renamed.json"), serde_json::to_vec(&v).unwrap()).unwrap();
    fails(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(d.join("renamed.json")).arg(&wasm), &["renamed.json", "no function renamed"]);
    let mut v: Value = serde_json::from_slice(&std::fs::read(&set).unwrap()).unwrap();
    v["paths"][0]["path_id"] = u64::MAX.into();
    std::fs::write(d.join("nopath.json"), serde_json::to_vec(&v).unwrap()).unwrap();
    fails(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(d.join("nopath.json")).arg(&wasm), &["nopath.json", "no path"]);
    std::fs::write(d.join("bad.json"), "{").unwrap();
    fails(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(d.join("bad.json")).arg(&wasm), &["bad.json", "not a set file"]);
    // A profile of another mode has nothing to report.
    fails(wpp().args(["ppp", "report"]).arg(&p), &["p.wpp", "not recorded with --mode ppp"]);
    std::fs::remove_dir_all(&d).unwrap();
}
