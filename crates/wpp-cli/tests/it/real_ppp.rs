//! Residual path profiling of the real programs of `workloads/` (built by
//! `workloads/build.sh`), end to end through the command line: the interesting paths are
//! every path the `train` run executed (`wpp ppp select --all-executed`); the `test` run,
//! on other input, is recorded with them (`wpp record --mode ppp`). Against plain
//! Ball-Larus profiles of both runs (`wpp record --mode paths`):
//!
//! * every interesting path's count in `wpp ppp report --json` is its count in the test
//!   run (0 when it did not run);
//! * the residual paths are exactly the test run's paths the train run did not execute,
//!   with the test run's counts;
//! * reading the profile checks that no interesting path with a PPP slot was counted in
//!   the hash table, so a wrong PPP numbering or a wrong slot fails the report.
//!
//! Recorded twice: as by default (Ball-Larus counter arrays in functions where they fit,
//! PPP slots in the others) and with PPP slots in every function (`--ppp-everywhere`).

use std::collections::BTreeMap;

use serde_json::Value;
use wpp_workloads::Manifest;

use crate::common;
use common::{json, path_counts, path_rows, wpp};

type Counts = BTreeMap<(u64, u64), u64>;

wpp_test_support::real_programs!(
    /// Every program of the manifest.
    all_programs,
    |m, _, p| check(m, &p.name)
);

fn check(m: &Manifest, name: &str) {
    let (p, train) = m.run(name, "train").unwrap();
    let (_, test) = m.run(name, "test").unwrap();
    let d = common::scratch(&format!("real-ppp-{name}"));
    let (a, b, set, field) = (d.join("train.wpp"), d.join("test.wpp"), d.join("set.json"), d.join("field.wpp"));
    common::record_run(m, p, train, &a, &["--mode", "paths"]);
    common::record_run(m, p, test, &b, &["--mode", "paths"]);
    common::ok(wpp().args(["ppp", "select"]).arg(&a).arg("--all-executed").arg("-o").arg(&set));
    let (in_a, in_b) = (path_counts(&a, &[]), path_counts(&b, &[]));
    for everywhere in [false, true] {
        let mut args = vec!["--mode", "ppp", "--interesting", set.to_str().unwrap()];
        if everywhere {
            args.push("--ppp-everywhere");
        }
        common::record_run(m, p, test, &field, &args);
        let report = json(wpp().args(["ppp", "report", "--json"]).arg(&field));
        check_report(name, &report, &in_a, &in_b, everywhere);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

fn check_report(name: &str, report: &Value, in_a: &Counts, in_b: &Counts, everywhere: bool) {
    let interesting = report["interesting"].as_array().unwrap();
    assert_eq!(interesting.len(), in_a.len(), "{name}: one row per interesting path");
    let mut per_func: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for x in interesting {
        let key = (x["function_index"].as_u64().unwrap(), x["path_id"].as_u64().unwrap());
        assert!(in_a.contains_key(&key), "{name}: {key:?} is reported interesting but the train run did not execute it");
        assert_eq!(x["count"].as_u64().unwrap(), in_b.get(&key).copied().unwrap_or(0), "{name}: count of interesting path {key:?}");
        per_func.entry(key.0).or_default().push(x["ppp_id"].as_u64().unwrap());
    }
    let residual = path_rows(&report["residual"]);
    let want: Counts = in_b.iter().filter(|(k, _)| !in_a.contains_key(k)).map(|(&k, &v)| (k, v)).collect();
    assert_eq!(residual, want, "{name}: residual paths");
    // PPP ids are distinct per function, and rho is what they give.
    for f in report["functions"].as_array().unwrap() {
        let ids = &per_func[&f["function_index"].as_u64().unwrap()];
        let mut distinct = ids.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), ids.len(), "{name}: PPP ids of {}", f["function"]);
        assert_eq!(f["n_interesting"].as_u64().unwrap() as usize, ids.len());
        let rho = (distinct.last().unwrap() - distinct[0] + 1) as f64 / ids.len() as f64;
        assert!((f["rho"].as_f64().unwrap() - rho).abs() < 1e-9, "{name}: rho of {}", f["function"]);
    }
    let counted = |how: &str| interesting.iter().filter(|x| x["counted"] == how && x["count"].as_u64().unwrap() > 0).count();
    if everywhere {
        assert!(counted("slot") > 0 && counted("array") == 0, "{name}: PPP everywhere, yet {} paths in slots, {} in arrays", counted("slot"), counted("array"));
    }
    eprintln!(
        "{name}{}: {} interesting paths ({} ran in the test run: {} counted in slots, {} in Ball-Larus arrays, {} hashed), {} residual paths",
        if everywhere { " (PPP everywhere)" } else { "" },
        interesting.len(),
        interesting.iter().filter(|x| x["count"].as_u64().unwrap() > 0).count(),
        counted("slot"),
        counted("array"),
        counted("hash"),
        residual.len()
    );
}
