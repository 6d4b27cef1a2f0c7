//! `wpp diff` of two builds of one program: `calls.c` (of the test support crate) compiled
//! with DWARF at -O1 and at -O2, each recorded. The oracle rebuilds the matching from
//! other commands' JSON: the functions each module has (`wpp export`), the blocks with
//! source lines (`wpp annotate --func`), and each run's paths (`wpp paths`): functions
//! match by a name each build has once, paths by their source lines when every block
//! has some; the diff's rows, its unmatched functions and paths, and its totals must be
//! exactly those, and its page (`--html`) has a row for each, in order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::common;
use common::{compile_c, json, ok, scratch, wpp};

/// Names of the functions with a body that the module has exactly once.
fn unique_names(profile: &Path) -> BTreeSet<String> {
    let v = json(wpp().arg("export").arg(profile));
    let mut n: BTreeMap<String, usize> = BTreeMap::new();
    for f in v["functions"].as_array().unwrap().iter().filter(|f| f["imported"] == false) {
        *n.entry(f["name"].as_str().unwrap().to_owned()).or_default() += 1;
    }
    n.into_iter().filter(|x| x.1 == 1).map(|x| x.0).collect()
}

/// What one build ran, as the diff should see it.
#[derive(Default, Debug)]
struct Side {
    /// (function, source lines) -> executions
    rows: BTreeMap<(String, String), u64>,
    unmatched_functions: BTreeSet<String>,
    lineless_paths: u64,
    executions: u64,
}

fn side(profile: &Path, own: &BTreeSet<String>, other: &BTreeSet<String>) -> Side {
    let paths = json(wpp().args(["paths", "--json", "--top", "0"]).arg(profile));
    let mut s = Side::default();
    let mut lines: BTreeMap<String, Vec<bool>> = BTreeMap::new();
    for p in paths["paths"].as_array().unwrap() {
        let name = p["function"].as_str().unwrap().to_owned();
        let count = p["count"].as_u64().unwrap();
        s.executions += count;
        if !(own.contains(&name) && other.contains(&name)) {
            s.unmatched_functions.insert(name);
            continue;
        }
        let has = lines.entry(name.clone()).or_insert_with(|| {
            let a = json(wpp().arg("annotate").arg(profile).args(["--func", &name, "--json"]));
            // A block with a line of its own (not one counted on the line before it).
            a["blocks"].as_array().unwrap().iter().map(|b| !b["source"].is_null() && b["line_before"] == false).collect()
        });
        let all = p["blocks"].as_array().unwrap().iter().all(|b| has[b["index"].as_u64().unwrap() as usize]);
        if all {
            let src: Vec<&str> = p["source"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
            *s.rows.entry((name, src.join(" "))).or_default() += count;
        } else {
            s.lineless_paths += 1;
        }
    }
    s
}

#[test]
fn two_builds_match_by_name_and_source_lines() {
    let d = scratch("diff-builds");
    let (Some(o1), Some(o2)) = (compile_c(&d, "calls", "-O1"), {
        let d2 = d.join("o2");
        std::fs::create_dir_all(&d2).unwrap();
        compile_c(&d2, "calls", "-O2")
    }) else {
        return;
    };
    let (a, b) = (d.join("a.wpp"), d.join("b.wpp"));
    ok(wpp().args(["record", "--mode", "paths", "-o"]).arg(&a).arg(&o1));
    ok(wpp().args(["record", "--mode", "paths", "-o"]).arg(&b).arg(&o2));
    let (na, nb) = (unique_names(&a), unique_names(&b));
    let (sa, sb) = (side(&a, &na, &nb), side(&b, &nb, &na));

    let diff: Value = json(wpp().arg("diff").arg(&a).arg(&b).arg("--json"));
    assert_eq!(diff["matched_by"], "source lines");
    let mut found: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    for r in diff["paths"].as_array().unwrap() {
        let src: Vec<&str> = r["source"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        let key = (r["function"].as_str().unwrap().to_owned(), src.join(" "));
        assert!(found.insert(key.clone(), (r["count_a"].as_u64().unwrap(), r["count_b"].as_u64().unwrap())).is_none(), "{key:?} twice");
    }
    let keys: BTreeSet<_> = sa.rows.keys().chain(sb.rows.keys()).cloned().collect();
    let expected: BTreeMap<(String, String), (u64, u64)> =
        keys.into_iter().map(|k| (k.clone(), (sa.rows.get(&k).copied().unwrap_or(0), sb.rows.get(&k).copied().unwrap_or(0)))).collect();
    assert_eq!(found, expected, "the diff's rows against the paths matched by source lines");
    let matched = expected.values().filter(|(x, y)| *x > 0 && *y > 0).count();
    assert!(matched > 0, "some paths (wasi-libc's, built once) are the same in both builds");

    for (k, s) in [("unmatched_a", &sa), ("unmatched_b", &sb)] {
        let u = &diff[k];
        let names: BTreeSet<String> = u["functions"].as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_owned()).collect();
        assert_eq!(names, s.unmatched_functions, "{k}: functions");
        assert_eq!(u["lineless_paths"].as_u64().unwrap(), s.lineless_paths, "{k}: paths without source lines");
    }
    assert_eq!(diff["executions_a"].as_u64().unwrap(), sa.executions, "A's executions, matched or not");
    assert_eq!(diff["executions_b"].as_u64().unwrap(), sb.executions, "B's executions, matched or not");
    // The text says what was matched and how.
    let text = String::from_utf8(ok(wpp().arg("diff").arg(&a).arg(&b).args(["--top", "3"]))).unwrap();
    assert!(text.contains("two builds: functions matched by name, paths by source lines"), "{text}");
    // The page has a row for every function and path of the JSON, in its order.
    let page = d.join("diff.html");
    ok(wpp().arg("diff").arg(&a).arg(&b).arg("--html").arg(&page));
    let html = std::fs::read_to_string(&page).unwrap();
    let rows = |class: &str| html.matches(&format!("<tr class=\"{class}\">")).count();
    assert_eq!(rows("f"), diff["functions"].as_array().unwrap().len(), "the page's function rows");
    assert_eq!(rows("p"), diff["paths"].as_array().unwrap().len(), "the page's path rows");
    let mut at = 0;
    for f in diff["functions"].as_array().unwrap() {
        let name = format!("<td class=\"l\">{}</td></tr>", f["function"].as_str().unwrap());
        at += html[at..].find(&name).unwrap_or_else(|| panic!("{name} after byte {at}"));
    }
    assert!(html.contains("Not matched in A"), "the page says what was not matched");
    std::fs::remove_dir_all(&d).unwrap();
}
