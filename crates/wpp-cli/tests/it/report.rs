//! `wpp report` in a real browser: headless Chromium (driven by playwright-core, from
//! `tests/browser`) loads the page from its file, and the test fails on any console error,
//! failed request or request off the page. The page's figures are checked against the
//! other commands: the summary equals `wpp stats --json`; the top path is the one `wpp
//! paths --json` makes the costliest, and its drawing highlights exactly its blocks; the
//! flame graph's root is the run's instructions (Σ count × instructions over the paths);
//! the paths to 90% of each function follow from its path counts; the counts beside the
//! source lines are `wpp annotate`'s (read from the page's HTML, without the browser); a
//! PPP profile's ρ per function equals `wpp ppp report --json`'s; the TWPP view's
//! invocations and traces equal `wpp trace`'s, the data flow view's counts `wpp dff`'s;
//! the memory dependences of an addresses recording and of an extended WPP, each load's
//! writers with their counts, `wpp deps --json`'s.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use wpp_test_support::workloads;

use crate::common;
use common::{compile_c, json, ok, run, scratch, wpp};

/// What `tests/browser/check.mjs` saw of `page`, or `None` (after a skip note, or a
/// failure under the full suite) without node, playwright-core or Chromium.
fn in_browser(page: &Path, shot: &Path) -> Option<Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let chromium = std::env::var_os("WPP_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    let missing = if !dir.join("node_modules/playwright-core").is_dir() {
        Some("playwright-core is not installed (npm ci --prefix crates/wpp-cli/tests/browser)".to_string())
    } else if !chromium.exists() {
        Some(format!("{} is not installed (Debian: apt install chromium)", chromium.display()))
    } else {
        None
    };
    if let Some(why) = missing {
        workloads::skip_or_fail("the report in a browser", &why);
        return None;
    }
    let out = match Command::new("node").arg(dir.join("check.mjs")).arg(page).arg(shot).env("WPP_CHROMIUM", &chromium).output() {
        Ok(o) => o,
        Err(e) => {
            workloads::skip_or_fail("the report in a browser", &format!("node cannot run ({e})"));
            return None;
        }
    };
    assert!(out.status.success(), "check.mjs {}: {}", page.display(), String::from_utf8_lossy(&out.stderr));
    Some(serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("check.mjs printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout))))
}

/// The page loaded cleanly: no console error, no failed or outside request, every link
/// inside the page lands, no id is used twice.
fn assert_clean(seen: &Value, what: &str) {
    assert_eq!(seen["errors"], Value::Array(vec![]), "{what}: errors in the browser");
    assert_eq!(seen["external"], Value::Array(vec![]), "{what}: requests off the page");
    assert_eq!(seen["links"]["broken"], Value::Array(vec![]), "{what}: links to nothing");
    assert_eq!(seen["links"]["duplicateIds"], Value::Array(vec![]), "{what}: ids used twice");
}

/// The summary's figures, as `wpp stats --json` gives them.
fn assert_summary(seen: &Value, profile: &Path, what: &str) {
    let stats = json(wpp().arg("stats").arg(profile).arg("--json"));
    let summary = &seen["summary"];
    for key in ["events", "distinct_paths", "rules", "grammar_symbols", "raw_trace_bytes"] {
        let want = match &stats[key] {
            Value::Null => continue,
            v => v.as_u64().unwrap().to_string(),
        };
        assert_eq!(summary[key].as_str(), Some(want.as_str()), "{what}: summary {key}");
    }
    for key in ["module", "mode", "ending", "module_sha256"] {
        assert_eq!(summary[key], stats[key], "{what}: summary {key}");
    }
    if let Some(ratio) = stats["ratio"].as_f64() {
        let shown: f64 = summary["ratio"].as_str().unwrap().parse().unwrap();
        assert!((shown - ratio).abs() <= 1e-9 * ratio, "{what}: ratio {shown} against {ratio}");
    }
}

/// A path of `wpp paths --json`: ((function, path), count, instructions, blocks).
type PathLine = ((u64, u64), u64, u64, Vec<u64>);

/// Every path of `wpp paths --json`.
fn paths(profile: &Path) -> Vec<PathLine> {
    let all = json(wpp().arg("paths").arg(profile).arg("--json"));
    all["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let blocks = p["blocks"].as_array().unwrap().iter().map(|b| b["index"].as_u64().unwrap()).collect();
            ((p["function_index"].as_u64().unwrap(), p["path_id"].as_u64().unwrap()), p["count"].as_u64().unwrap(), p["instructions"].as_u64().unwrap(), blocks)
        })
        .collect()
}

/// The top path and its drawing, the flame graph's root and the paths to 90% against the
/// path profile.
fn assert_against_paths(seen: &Value, profile: &Path, with_flame: bool, what: &str) {
    let paths = paths(profile);
    let instructions: u64 = paths.iter().map(|p| p.1 * p.2).sum();
    assert_eq!(seen["summary"]["instructions"].as_str(), Some(instructions.to_string().as_str()), "{what}: instructions");
    // The costliest path (ties: lowest function, then path) is the first drawn.
    let top = paths.iter().filter(|p| p.1 > 0).min_by_key(|p| (std::cmp::Reverse(p.1 * p.2), p.0)).expect("a path ran");
    let t = &seen["top"];
    assert_eq!((t["function"].as_u64().unwrap(), t["path"].as_u64().unwrap()), top.0, "{what}: the top path");
    assert_eq!(t["svg"], true, "{what}: the top path is drawn");
    let drawing = t["drawing"].as_str().unwrap();
    let mut highlighted: Vec<String> = t["highlighted"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    highlighted.sort();
    let mut want: Vec<String> = top.3.iter().map(|b| format!("{drawing}-b{b}")).collect();
    want.sort();
    want.dedup();
    assert_eq!(highlighted, want, "{what}: the top path's blocks, and only they, are highlighted");
    let fill = &t["highlightedFill"].as_array().unwrap()[0];
    assert!(t["highlightedFill"].as_array().unwrap().iter().all(|f| f == fill), "{what}: one fill for the path");
    assert!(!t["otherFill"].as_array().unwrap().contains(fill), "{what}: blocks off the path are not filled as the path");
    assert!(t["pathEdges"].as_u64().unwrap() >= top.3.len() as u64 - 1, "{what}: the path's edges are highlighted");
    if with_flame {
        let f = &seen["flame"];
        assert_eq!(f["totalSamples"].as_str(), Some(instructions.to_string().as_str()), "{what}: the flame graph's total");
        assert_eq!(f["rootWidth"].as_str(), Some(instructions.to_string().as_str()), "{what}: the flame graph's root");
        assert!(f["rootTitle"].as_str().unwrap().starts_with("all ("), "{what}: {f}");
        assert_eq!(f["zoomed"], true, "{what}: a click on a frame zooms the flame graph");
    } else {
        assert_eq!(seen["tables"]["flameFrame"], false, "{what}: no flame graph from counts");
    }
    // Paths to 90%: the fewest of each function's counts, largest first, reaching 90%.
    for row in seen["tables"]["functions"].as_array().unwrap() {
        let f = row["function"].as_u64().unwrap();
        let mut counts: Vec<u64> = paths.iter().filter(|p| p.0 .0 == f && p.1 > 0).map(|p| p.1).collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let total: u64 = counts.iter().sum();
        let k = (1..=counts.len()).find(|&k| counts[..k].iter().sum::<u64>() * 10 >= total * 9).unwrap();
        assert_eq!(row["pathsTo90"].as_u64(), Some(k as u64), "{what}: paths to 90% of function {f}");
    }
}

/// The counts beside the page's source lines are `wpp annotate FILE`'s, every line with
/// code the page shows has them, and the lines without code have none.
fn assert_line_counts(page: &Path, profile: &Path) {
    let html = std::fs::read_to_string(page).unwrap();
    let attr = |tag: &str, name: &str| -> Option<u64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    let mut files = 0;
    for section in html.split("<h3 id=\"F").skip(1) {
        let name = &section[section.find('>').unwrap() + 1..section.find("</h3>").unwrap()];
        let section = section.split("<h3").next().unwrap().split("<h2").next().unwrap();
        // (line, executions, instructions) of every source line shown.
        let shown: Vec<(u64, Option<(u64, u64)>)> = section
            .split("<span class=\"l\"")
            .skip(1)
            .map(|s| {
                let tag = &s[..s.find('>').unwrap()];
                (attr(tag, "data-n").unwrap(), attr(tag, "data-executions").zip(attr(tag, "data-instructions")))
            })
            .collect();
        assert!(!shown.is_empty(), "{name}: no lines shown");
        let a = json(wpp().arg("annotate").arg(profile).arg(name).arg("--json"));
        let counted: std::collections::HashMap<u64, (u64, u64)> = a["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["line"].as_u64().unwrap(), (l["executions"].as_u64().unwrap(), l["instructions"].as_u64().unwrap())))
            .collect();
        for (n, counts) in &shown {
            assert_eq!(counts.as_ref(), counted.get(n), "{name}:{n}: the page's counts against wpp annotate's");
        }
        assert!(shown.iter().any(|(_, c)| c.is_some_and(|c| c.0 > 0)), "{name}: no line ran");
        files += 1;
    }
    assert!(files > 0, "no source file on the page");
}

/// A C program with calls, recursion, a loop and a switch, recorded three ways: its pages
/// in the browser, checked against the other commands.
#[test]
fn pages_in_a_browser() {
    let d = scratch("report");
    let Some(wasm) = compile_c(&d, "calls", "-O1") else { return };
    let grammar = d.join("calls.wpp");
    ok(wpp().args(["record", "-o"]).arg(&grammar).arg(&wasm));
    let page = d.join("calls.html");
    // Small enough to collapse: the switch's function has more blocks than this.
    ok(wpp().arg("report").arg(&grammar).arg("-o").arg(&page).args(["--collapse-above", "6"]));
    assert_line_counts(&page, &grammar);
    let Some(seen) = in_browser(&page, &d.join("calls.png")) else { return };
    assert_clean(&seen, "grammar");
    assert_summary(&seen, &grammar, "grammar");
    assert_against_paths(&seen, &grammar, true, "grammar");
    let png = std::fs::read(d.join("calls.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a screenshot");
    assert!(seen["tables"]["drawings"].as_u64().unwrap() >= 2, "{}", seen["tables"]);

    // Counts only: no flame graph, no subpaths, the rest the same.
    let counts = d.join("counts.wpp");
    ok(wpp().args(["record", "--mode", "paths", "-o"]).arg(&counts).arg(&wasm));
    let page = d.join("counts.html");
    ok(wpp().arg("report").arg(&counts).arg("-o").arg(&page));
    let seen = in_browser(&page, &d.join("counts.png")).unwrap();
    assert_clean(&seen, "counts");
    assert_summary(&seen, &counts, "counts");
    assert_against_paths(&seen, &counts, false, "counts");

    // With the run's TWPP and data flow frequencies: each function's invocations and
    // distinct traces as `wpp trace` lists them, and every fact's exact count as `wpp dff`
    // gives it, in its order.
    let twpp = d.join("calls.twpp");
    ok(wpp().args(["twpp", "build"]).arg(&grammar).arg("-o").arg(&twpp));
    let page = d.join("views.html");
    ok(wpp().arg("report").arg(&grammar).arg("-o").arg(&page).arg("--twpp").arg(&twpp).args(["--dataflow", "sum_to", "--module"]).arg(&wasm));
    let seen = in_browser(&page, &d.join("views.png")).unwrap();
    assert_clean(&seen, "views");
    let rows = seen["tables"]["twppFunctions"].as_array().unwrap();
    assert!(rows.len() >= 4, "{rows:?}");
    let number = |v: &Value| v.as_str().unwrap().replace(',', "").parse::<u64>().unwrap();
    for r in rows {
        let t = json(wpp().arg("trace").arg(&twpp).arg("--func").arg(r[0].as_str().unwrap()).arg("--json"));
        assert_eq!(number(&r[1]), t["invocations"].as_u64().unwrap(), "invocations of {}", r[0]);
        assert_eq!(number(&r[2]), t["traces"].as_array().unwrap().len() as u64, "distinct traces of {}", r[0]);
    }
    let dff = json(wpp().arg("dff").arg(&grammar).arg("--module").arg(&wasm).args(["--func", "sum_to", "--json"]));
    let want: Vec<u64> =
        dff["points"].as_array().unwrap().iter().flat_map(|p| p["facts"].as_array().unwrap().iter().map(|f| f["exact"].as_u64().unwrap())).collect();
    let shown: Vec<u64> =
        seen["tables"]["dataflowPoints"].as_array().unwrap().iter().filter(|r| r.as_array().unwrap().len() == 6).map(|r| number(&r[4])).collect();
    assert!(!want.is_empty());
    assert_eq!(shown, want, "data flow frequencies of sum_to");

    // PPP: the hottest paths of the grammar run are interesting.
    let set = d.join("set.json");
    ok(wpp().args(["ppp", "select"]).arg(&grammar).args(["--hot", "90", "-o"]).arg(&set));
    let ppp = d.join("ppp.wpp");
    ok(wpp().args(["record", "--mode", "ppp", "--interesting"]).arg(&set).arg("-o").arg(&ppp).arg(&wasm));
    let page = d.join("ppp.html");
    ok(wpp().arg("report").arg(&ppp).arg("-o").arg(&page));
    let seen = in_browser(&page, &d.join("ppp.png")).unwrap();
    assert_clean(&seen, "ppp");
    assert_summary(&seen, &ppp, "ppp");
    let report = json(wpp().args(["ppp", "report"]).arg(&ppp).arg("--json"));
    let want: Vec<(String, String)> = report["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["function"].as_str().unwrap().to_owned(), format!("{:.4}", f["rho"].as_f64().unwrap())))
        .collect();
    let shown: Vec<(String, String)> =
        seen["tables"]["pppFunctions"].as_array().unwrap().iter().map(|r| (r[0].as_str().unwrap().to_owned(), r[2].as_str().unwrap().to_owned())).collect();
    assert_eq!(shown, want, "ρ per function");
    // One definition of ρ, the paper's, on the page and in `ppp select`'s summary.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("ρ = (max id - min id + 1) / interesting paths"), "the page's definition of ρ");
    assert_eq!(seen["tables"]["pppInteresting"].as_u64().unwrap() as usize, report["interesting"].as_array().unwrap().len());
    assert_eq!(seen["tables"]["pppResidual"].as_u64().unwrap() as usize, report["residual"].as_array().unwrap().len());

    // Memory dependences, from an addresses recording and from an extended WPP.
    let filter = d.join("filter.wpp");
    ok(wpp().args(["record", "--mode", "ewpp-filter", "-o"]).arg(&filter).arg(&wasm));
    let ewpp = d.join("ewpp.wpp");
    ok(wpp().args(["record", "--mode", "ewpp", "--filter"]).arg(&filter).arg("-o").arg(&ewpp).arg(&wasm));
    let addresses = d.join("addresses.wpp");
    ok(wpp().args(["record", "--mode", "addresses", "-o"]).arg(&addresses).arg(&wasm));
    for profile in [addresses, ewpp] {
        let page = profile.with_extension("html");
        ok(wpp().arg("report").arg(&profile).arg("-o").arg(&page));
        let seen = in_browser(&page, &profile.with_extension("png")).unwrap();
        assert_clean(&seen, "deps");
        // (load, executions, [(writer, dependences, on an earlier instance)]), from the
        // table's rows: a load's first row has its three cells, the next ones the writer's.
        let mut shown: Vec<LoadDeps> = Vec::new();
        for r in seen["tables"]["depsLoads"].as_array().unwrap() {
            let cells: Vec<&str> = r.as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
            let writer = |w: &[&str]| (w[0].to_string(), number(&Value::from(w[1])), number(&Value::from(w[3])));
            match cells.len() {
                8 => shown.push((cells[0].to_string(), number(&Value::from(cells[1])), vec![writer(&cells[3..])])),
                5 => shown.last_mut().unwrap().2.push(writer(&cells)),
                _ => shown.push((cells[0].to_string(), number(&Value::from(cells[1])), Vec::new())),
            }
        }
        let deps = json(wpp().arg("deps").arg(&profile).args(["--json", "--top", "40"]));
        let want: Vec<LoadDeps> = deps["loads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                let writers = l["writers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|w| (w["writer"].as_str().unwrap().to_string(), w["count"].as_u64().unwrap(), w["earlier_instance"].as_u64().unwrap()));
                (format!("{}+{:#x}", l["function"].as_str().unwrap(), l["offset"].as_u64().unwrap()), l["executions"].as_u64().unwrap(), writers.collect())
            })
            .collect();
        assert!(want.iter().any(|l| !l.2.is_empty()), "{}: no dependence", profile.display());
        assert_eq!(shown, want, "{}: the dependences on the page", profile.display());
    }
}

/// A load on the report's dependences table: its name, executions, and each writer with
/// its dependences and how many were on an earlier instance.
type LoadDeps = (String, u64, Vec<(String, u64, u64)>);

/// The check itself fails on what it must: a console error, a script error, a request off
/// the page, a link to nothing, an id used twice.
#[test]
fn the_browser_check_sees_errors() {
    let d = scratch("report-check");
    let page = d.join("bad.html");
    std::fs::write(&page, "<!DOCTYPE html><html><body><a href=\"#nowhere\">x</a><p id=\"twice\"></p><p id=\"twice\"></p><img src=\"http://192.0.2.1/x.png\"><script>console.error('boom'); notAFunction();</script></body></html>").unwrap();
    let Some(seen) = in_browser(&page, &d.join("bad.png")) else { return };
    let errors = seen["errors"].as_array().unwrap();
    assert!(errors.iter().any(|e| e.as_str().unwrap().contains("boom")), "{seen}");
    assert!(errors.iter().any(|e| e.as_str().unwrap().contains("notAFunction")), "{seen}");
    assert!(!seen["external"].as_array().unwrap().is_empty(), "{seen}");
    assert_eq!(seen["links"]["broken"], serde_json::json!(["#nowhere"]));
    assert_eq!(seen["links"]["duplicateIds"], serde_json::json!(["twice"]));
}

/// Without Graphviz the page is still written, without drawings, and says why; a TWPP of
/// another run is refused; a report that fails leaves an earlier page as it was.
#[test]
fn without_dot_and_on_failure() {
    let d = scratch("report-nodot");
    let Some(wasm) = compile_c(&d, "calls", "-O1") else { return };
    let profile = d.join("calls.wpp");
    ok(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm));
    let page = d.join("calls.html");
    let out = run(wpp().arg("report").arg(&profile).arg("-o").arg(&page).args(["--dot", "/nonexistent/dot"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not drawn") && stderr.contains("/nonexistent/dot"), "{stderr}");
    // Not a terminal: no progress bars, only what happened.
    assert!(!stderr.contains('\u{1b}') && !stderr.contains('\r') && stderr.lines().count() == 2, "{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Not drawn: Graphviz") && !html.contains("<svg id=\"graph") && html.contains("flame-frame"), "the page without drawings");
    // A TWPP of another run is refused.
    let Some(other) = compile_c(&d, "fig1", "-O1") else { return };
    let other_profile = d.join("fig1.wpp");
    ok(wpp().args(["record", "-o"]).arg(&other_profile).arg(&other));
    let other_twpp = d.join("fig1.twpp");
    ok(wpp().args(["twpp", "build"]).arg(&other_profile).arg("-o").arg(&other_twpp));
    let out = run(wpp().arg("report").arg(&profile).arg("-o").arg(&page).arg("--twpp").arg(&other_twpp));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("fig1.twpp is not of the run") && stderr.contains("calls.wpp"), "{stderr}");
    // A failure keeps the earlier page.
    let bad = d.join("bad.wpp");
    std::fs::write(&bad, "not a profile").unwrap();
    let out = run(wpp().arg("report").arg(&bad).arg("-o").arg(&page));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), html, "the earlier page is untouched");
    let left: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).filter(|n| n.ends_with(".tmp")).collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

wpp_test_support::real_programs!(
    /// Every real program's test run: its page loads cleanly, agrees with the other commands,
    /// and stays under 5 MB.
    real_programs,
    |m, _, p| {
        let (p, r) = m.run(&p.name, "test").unwrap();
        let d = scratch(&format!("report-real-{}", p.name));
        let profile = d.join("run.wpp");
        common::record_run(m, p, r, &profile, &[]);
        let page = d.join("run.html");
        ok(wpp().arg("report").arg(&profile).arg("-o").arg(&page));
        let bytes = std::fs::metadata(&page).unwrap().len();
        assert!(bytes < 5 << 20, "{}: the page is {bytes} bytes", p.name);
        let Some(seen) = in_browser(&page, &d.join("run.png")) else { return };
        assert_clean(&seen, &p.name);
        assert_summary(&seen, &profile, &p.name);
        assert_against_paths(&seen, &profile, true, &p.name);
        workloads::note(&format!("report {}: {} KiB, first paint {} ms, load {} ms", p.name, bytes / 1024, seen["paint"], seen["loadMs"]));
    }
);
